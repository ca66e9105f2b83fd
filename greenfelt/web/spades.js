// The two-player Spades table: draw step, bidding, tricks, bags, scores to the target.
import { renderCard, renderStack, sortHand } from "./cards.js";
import { h, plural } from "./util.js";

const LAST_TRICK_MS = 1500;

function bidText(hv, s) {
  const bid = hv.bids[s];
  if (hv.blind_nil[s]) return "blind nil";
  if (bid === null || bid === undefined) return "—";
  if (bid === 0) return "nil";
  if (bid === 13) return "moon (13)";
  return String(bid);
}

function legalSet(hv, me) {
  const out = { plays: new Set(), bids: [], keep: false, reject: false, blind: false, pass: false };
  if (me === null || hv.to_move !== me) return out;
  for (const a of hv.legal || []) {
    if (a.startsWith("play ")) out.plays.add(a.slice(5));
    else if (a.startsWith("bid ")) out.bids.push(a);
    else if (a === "keep") out.keep = true;
    else if (a === "reject") out.reject = true;
    else if (a === "blind nil") out.blind = true;
    else if (a === "pass") out.pass = true;
  }
  return out;
}

export function describeSpades(event, view, me) {
  if (!event) return null;
  if (event.kind === "start") return "The game begins.";
  if (event.kind === "rematch") return "A new game begins.";
  if (event.kind === "deal") return `Hand ${view.hands} begins: build your hand from the deck.`;
  if (event.kind !== "action") return null;
  const you = event.seat === me;
  const name = you ? "You" : view.names[event.seat];
  const hv = view.hand;
  const a = String(event.action);
  if (a === "blind nil") return `${name} declared blind nil!`;
  if (a === "pass") return `${name} will not bid blind nil.`;
  if (a === "keep") {
    const shown = hv && hv.discard_top && hv.discard_top !== "??" ? `; the next card, the ${hv.discard_top}, is discarded` : "";
    return `${name} kept the drawn card${shown}.`;
  }
  if (a === "reject") {
    const shown = hv && hv.discard_top && hv.discard_top !== "??" ? ` the ${hv.discard_top}` : " a card";
    return `${name} rejected${shown} and took the next card.`;
  }
  if (a.startsWith("bid ")) {
    const n = a.slice(4);
    return `${name} bid ${n === "nil" ? "nil" : n === "13" ? "13: shooting the moon" : n}.`;
  }
  if (a.startsWith("play ")) {
    let text = `${name} played the ${a.slice(5)}.`;
    if (hv && hv.trick.length === 0 && hv.tricks.length) {
      const last = hv.tricks[hv.tricks.length - 1];
      text += ` ${last.winner === me ? "You win" : `${view.names[last.winner]} wins`} the trick.`;
    }
    return text;
  }
  return `${name}: ${a}.`;
}

export function spadesMotions(event, view, me) {
  if (!event || event.kind !== "action") return [];
  const a = String(event.action);
  const s = event.seat;
  if (a.startsWith("play ")) {
    const card = a.slice(5);
    return [{ key: `T${s}`, from: s === me ? `H-${card}` : `OH${s}` }];
  }
  if (a === "keep") return [{ key: "discard", from: "stock", flip: true }];
  if (a === "reject") return [{ key: "discard", from: s === me ? "drawn" : `OH${s}` }];
  return [];
}

export function spadesOnUpdate(ctx, event, prevView) {
  const hv = ctx.view.hand;
  if (!hv) return;
  if (event && event.kind === "action" && String(event.action).startsWith("play ") && hv.trick.length === 0 && hv.tricks.length) {
    ctx.lastTrickUntil = Date.now() + LAST_TRICK_MS;
    ctx.later(LAST_TRICK_MS + 30);
  }
  // The card you kept after a reject (or any new card) glows for a moment.
  const before = prevView && prevView.hand && prevView.hands === ctx.view.hands ? prevView.hand.hand || [] : [];
  const now = hv.hand || [];
  if (event && event.kind === "action" && event.seat === ctx.me && (event.action === "reject" || event.action === "keep")) {
    ctx.newCards = now.filter((c) => !before.includes(c));
    ctx.newUntil = Date.now() + 2200;
    ctx.later(2230);
  }
}

export function renderSpades(ctx) {
  const { view, me } = ctx;
  const hv = view.hand;
  const opp = me === null ? 1 : 1 - me;
  const bottom = me === null ? 0 : me;
  const legal = legalSet(hv, me);
  ctx.legal = legal;
  const mover = hv.to_move;
  const moverName = mover === null || mover === undefined ? "" : view.names[mover];
  const mine = mover === me && me !== null;
  const over = hv.phase === "over";

  let status;
  if (over) {
    status = view.winners.length
      ? { text: `${view.winners.map((w) => view.names[w]).join(" and ")} wins the game!`, tone: "win" }
      : { text: `Hand ${view.hands} is over`, tone: "info" };
  } else if (mine) {
    status = {
      blind: { text: "Before you see a card: bid blind nil (b), or draw normally (p)?", tone: "you" },
      draw: { text: `Keep the ${hv.drawn} (k) or reject it and take the next card (r)`, tone: "you" },
      bid: { text: "Your bid: how many tricks will you take?", tone: "you" },
      play: { text: hv.trick.length ? "Your turn: follow the lead if you can" : "Your lead: play a card", tone: "you" },
    }[hv.phase] || { text: "Your turn", tone: "you" };
  } else {
    status = {
      blind: { text: `${moverName} is deciding on blind nil…`, tone: "wait" },
      draw: { text: `${moverName} is drawing…`, tone: "wait" },
      bid: { text: `${moverName} is bidding…`, tone: "wait" },
      play: { text: `${moverName} to play`, tone: "wait" },
    }[hv.phase] || { text: "", tone: "wait" };
  }

  const panel = (s, big) => {
    const seatInfo = (ctx.seats && ctx.seats[s]) || {};
    const badges = [];
    if (seatInfo.bot) badges.push(h("span", { class: "badge bot" }, "bot"));
    if (seatInfo.stand_in) badges.push(h("span", { class: "badge away" }, "away · bot plays"));
    else if (!seatInfo.bot && seatInfo.taken && !seatInfo.connected) badges.push(h("span", { class: "badge away" }, "offline"));
    if (hv.dealer === s) badges.push(h("span", { class: "badge" }, "dealer"));
    const turn = mover === s && !over;
    return h(
      "header",
      { class: `player-head${turn ? " turn" : ""}`, "data-key": `P${s}` },
      h("span", { class: "pname" }, s === me ? `${view.names[s]} (you)` : view.names[s]),
      badges,
      h(
        "span",
        { class: "stats" },
        h("span", { class: "stat" }, h("small", null, "bid "), h("strong", { "data-testid": `bid-${s}` }, bidText(hv, s))),
        h("span", { class: "stat" }, h("small", null, "tricks "), h("strong", { "data-testid": `tricks-${s}` }, hv.tricks_won[s])),
        h("span", { class: "stat" }, h("small", null, "bags "), h("strong", null, view.bags[s])),
        h("span", { class: "stat total" }, h("small", null, "score "), h("strong", null, view.totals[s])),
      ),
    );
  };

  // Opponent: a fan of card backs.
  const oppCount = hv.hand_sizes[opp];
  const oppHand = h(
    "div",
    { class: "opp-hand", "data-key": `OH${opp}`, role: "img", "aria-label": `${view.names[opp]} holds ${plural(oppCount, "card")}` },
    Array.from({ length: oppCount }, () => renderCard("??", { classes: ["fan"] })),
  );
  const opponent = h("section", { class: "player opp spades-opp", "data-seat": opp }, panel(opp, false), oppHand);

  // The middle of the table.
  let center;
  if (hv.phase === "blind" || hv.phase === "draw") center = drawArea(ctx, hv, legal, mine);
  else if (hv.phase === "bid") center = bidArea(ctx, hv, legal, mine);
  else if (hv.phase === "play") center = trickArea(ctx, hv, bottom, opp);
  else center = handOver(ctx, hv);

  // Your hand, sorted by suit.
  let meArea = null;
  if (me !== null) {
    const cards = sortHand(hv.hand || []);
    const fresh = ctx.newUntil && Date.now() < ctx.newUntil ? ctx.newCards || [] : [];
    const playing = hv.phase === "play" && mine;
    meArea = h(
      "section",
      { class: "player me spades-me", "data-seat": me, "aria-label": "Your hand" },
      panel(me, true),
      h(
        "div",
        { class: "my-hand", role: "group", "aria-label": `Your hand, ${plural(cards.length, "card")}`, style: { "--n": cards.length } },
        cards.map((c) => {
          const can = legal.plays.has(c);
          const classes = [];
          if (can) classes.push("legal");
          else if (playing) classes.push("dim");
          if (fresh.includes(c)) classes.push("fresh");
          return renderCard(c, {
            key: `H-${c}`,
            button: can,
            action: can ? `play ${c}` : undefined,
            classes,
            label: can ? ": play it" : "",
            onclick: can ? () => ctx.act(`play ${c}`) : undefined,
          });
        }),
        cards.length ? null : h("p", { class: "muted" }, { blind: "Your hand is built from the deck, one draw at a time.", over: "Every card of this hand is played." }[hv.phase] || "No cards yet."),
      ),
    );
  }

  const felt = h(
    "div",
    { class: `felt spades${me === null ? " watching" : ""}` },
    h("div", { class: `status tone-${status.tone}`, role: "status", "aria-live": "polite", id: "status" }, status.text),
    opponent,
    h("div", { class: "center" }, center),
    meArea || h("section", { class: "player me" }, panel(bottom, true), h("div", { class: "opp-hand" }, Array.from({ length: hv.hand_sizes[bottom] }, () => renderCard("??", { classes: ["fan"] })))),
  );
  return { felt, side: scorePanel(ctx) };
}

function drawArea(ctx, hv, legal, mine) {
  const faceDown = ctx.rules.discards === "face_down";
  const discard = h(
    "div",
    { class: "pile" },
    h("div", { class: "pile-label" }, `Discards · ${hv.discard_count}`),
    renderCard(hv.discard_top, { key: "discard" }),
  );
  const stock = h(
    "div",
    { class: "pile" },
    h("div", { class: "pile-label" }, `Deck · ${hv.stock}`),
    h("div", { "data-key": "stock", role: "img", "aria-label": `Deck, ${plural(hv.stock, "card")}` }, renderStack(hv.stock)),
  );
  const drawer = hv.to_move;
  const drawn = h(
    "div",
    { class: `pile held${mine ? " mine active" : drawer !== null ? " active" : ""}` },
    h("div", { class: "pile-label" }, hv.phase === "draw" ? (mine ? "Your draw" : `${ctx.view.names[drawer]} looks at a card`) : "draw"),
    hv.phase === "draw"
      ? renderCard(mine ? hv.drawn : "??", { key: "drawn", classes: mine ? ["in-hand"] : [] })
      : h("div", { class: "card placeholder", "data-key": "drawn", "aria-hidden": "true" }),
  );
  const buttons = [];
  if (legal.blind) {
    buttons.push(
      h("button", { type: "button", class: "btn warn", "data-action": "blind nil", onclick: () => ctx.act("blind nil") }, "Blind nil · +200", h("kbd", { "aria-hidden": "true" }, "b")),
    );
  }
  if (legal.pass) {
    buttons.push(h("button", { type: "button", class: "btn primary", "data-action": "pass", onclick: () => ctx.act("pass") }, "No, draw my cards", h("kbd", { "aria-hidden": "true" }, "p")));
  }
  if (legal.keep) {
    buttons.push(h("button", { type: "button", class: "btn primary", "data-action": "keep", onclick: () => ctx.act("keep") }, `Keep the ${hv.drawn}`, h("kbd", { "aria-hidden": "true" }, "k")));
  }
  if (legal.reject) {
    buttons.push(h("button", { type: "button", class: "btn", "data-action": "reject", onclick: () => ctx.act("reject") }, "Reject · take the next", h("kbd", { "aria-hidden": "true" }, "r")));
  }
  const explain =
    hv.phase === "blind"
      ? "Blind nil: before seeing any card, bet you will win no trick. Made: +200. Failed: your tricks count as bags."
      : mine
        ? `Keep it, and the next card goes to the discards ${faceDown ? "face down" : "face up"}; or reject it ${faceDown ? "face down" : "face up"} and keep the next card, which only you see.`
        : `Step ${hv.draw_steps + 1} of 26: each player builds a 13-card hand from the deck.`;
  return h(
    "div",
    { class: "draw-area" },
    h("div", { class: "piles" }, stock, discard, drawn),
    h("p", { class: "explain" }, explain),
    buttons.length ? h("div", { class: "actions", role: "toolbar", "aria-label": "Your moves" }, buttons) : null,
  );
}

function bidArea(ctx, hv, legal, mine) {
  const other = 1 - hv.to_move;
  const theirs = hv.bids[other] !== null && hv.bids[other] !== undefined ? `${ctx.view.names[other]} bid ${bidText(hv, other)}.` : "";
  if (!mine) {
    return h("div", { class: "bid-area" }, h("p", { class: "explain" }, `${ctx.view.names[hv.to_move]} is choosing a bid. ${theirs}`));
  }
  const spades = (hv.hand || []).filter((c) => c.endsWith("♠")).length;
  const high = (hv.hand || []).filter((c) => /^(A|K)/.test(c)).length;
  return h(
    "div",
    { class: "bid-area" },
    h("p", { class: "explain" }, theirs, ` You hold ${plural(spades, "spade")} and ${high} aces or kings.`),
    h(
      "div",
      { class: "bids", role: "group", "aria-label": "Your bid" },
      legal.bids.map((a) => {
        const n = a.slice(4);
        const label = n === "nil" ? "Nil" : n === "13" ? "Moon · 13" : n;
        const title = n === "nil" ? "take no trick: +100" : n === "13" ? "all 13 tricks: +250" : `${n} tricks: +${Number(n) * 10}`;
        return h("button", { type: "button", class: `btn bid${n === "nil" || n === "13" ? " special" : ""}`, "data-action": a, title, "aria-label": `Bid ${label}: ${title}`, onclick: () => ctx.act(a) }, label);
      }),
    ),
    h("p", { class: "muted small" }, "A made bid scores 10 per trick plus 1 per extra trick (bag); a failed bid loses 10 per trick."),
  );
}

function trickArea(ctx, hv, bottom, top) {
  const { view } = ctx;
  let cards = hv.trick;
  let caption = hv.spades_broken ? "Spades are broken" : "Spades not broken yet";
  let winner = null;
  if (!cards.length && hv.tricks.length && ctx.lastTrickUntil && Date.now() < ctx.lastTrickUntil) {
    const last = hv.tricks[hv.tricks.length - 1];
    cards = last.cards;
    winner = last.winner;
    caption = `${winner === ctx.me ? "You win" : `${view.names[winner]} wins`} the trick`;
  }
  const at = (s) => {
    const found = cards.find(([seat]) => seat === s);
    return found
      ? renderCard(found[1], { key: `T${s}`, classes: winner === s ? ["won"] : [], label: `, played by ${view.names[s]}` })
      : h("div", { class: "card placeholder", "data-key": `T${s}`, "aria-hidden": "true" });
  };
  const lastTrick = hv.tricks.length ? hv.tricks[hv.tricks.length - 1] : null;
  return h(
    "div",
    { class: "trick-area" },
    h(
      "div",
      { class: "trick", role: "group", "aria-label": "Current trick" },
      h("div", { class: "trick-seat" }, h("span", { class: "pile-label" }, view.names[top]), h("div", { class: "trick-top" }, at(top))),
      h("div", { class: "trick-seat" }, h("div", { class: "trick-bottom" }, at(bottom)), h("span", { class: "pile-label" }, bottom === ctx.me ? "You" : view.names[bottom])),
    ),
    // A trick that lingers after it is won is the last one counted; else the next is.
    h("p", { class: "explain" }, `Trick ${winner === null ? Math.min(13, hv.tricks.length + 1) : hv.tricks.length} of 13 · ${caption}`),
    lastTrick && winner === null
      ? h(
          "div",
          { class: "last-trick" },
          h("span", { class: "muted small" }, `Last trick (${view.names[lastTrick.winner]}):`),
          lastTrick.cards.map(([, c]) => renderCard(c, { classes: ["mini"] })),
        )
      : null,
  );
}

function handOver(ctx, hv) {
  const { view, me } = ctx;
  const rows = [0, 1].map((s) => {
    const r = hv.result ? hv.result[s] : null;
    return h(
      "tr",
      null,
      h("th", { scope: "row" }, view.names[s], s === me ? " (you)" : ""),
      h("td", null, bidText(hv, s)),
      h("td", null, hv.tricks_won[s]),
      h("td", { class: "why" }, r ? r.breakdown : ""),
      h("td", { "data-testid": `hand-points-${s}` }, h("strong", null, r ? r.points : "")),
      h("td", { "data-testid": `spades-total-${s}` }, view.totals[s]),
    );
  });
  const controls = [];
  if (me !== null) {
    if (view.winners.length) {
      controls.push(h("button", { type: "button", class: "btn primary big", "data-action": "rematch", onclick: () => ctx.rematch() }, "Rematch", h("kbd", { "aria-hidden": "true" }, "r")));
    } else if (ctx.ready === `${ctx.frame.match}-${view.hands}`) {
      controls.push(h("p", { class: "muted" }, "Waiting for the other player…"));
    } else {
      controls.push(h("button", { type: "button", class: "btn primary big", "data-action": "next", onclick: () => ctx.next() }, "Next hand", h("kbd", { "aria-hidden": "true" }, "n")));
    }
  }
  if (view.winners.length) controls.push(h("a", { class: "btn ghost", href: "#/" }, "Lobby"));
  return h(
    "div",
    { class: `round-end${view.winners.length ? " match-over" : ""}` },
    h("h2", null, view.winners.length ? "Game over" : `Hand ${view.hands} · scores`),
    view.winners.length ? h("p", { class: "champion" }, "★ ", view.winners.map((w) => view.names[w]).join(" and "), " wins") : null,
    h(
      "table",
      { class: "scores" },
      h("thead", null, h("tr", null, h("th", null, "Player"), h("th", null, "Bid"), h("th", null, "Tricks"), h("th", null, "How"), h("th", null, "Hand"), h("th", null, "Score"))),
      h("tbody", null, rows),
    ),
    h("div", { class: "round-controls" }, controls),
  );
}

function scorePanel(ctx) {
  const { view, me } = ctx;
  const target = view.target;
  const discards = view.hand && view.hand.discards;
  return h(
    "section",
    { class: "sheet", "aria-labelledby": "sheet-title" },
    h("h2", { id: "sheet-title" }, `Race to ${target}`),
    [0, 1].map((s) => {
      const pct = Math.max(0, Math.min(100, (view.totals[s] / target) * 100));
      return h(
        "div",
        { class: "race" },
        h("div", { class: "race-head" }, h("span", null, view.names[s], s === me ? " (you)" : ""), h("strong", null, view.totals[s])),
        h("div", { class: "bar", role: "progressbar", "aria-valuemin": "0", "aria-valuemax": String(target), "aria-valuenow": String(view.totals[s]), "aria-label": `${view.names[s]}'s score` }, h("span", { style: { width: `${pct}%` } })),
        h("div", { class: "muted small" }, `${plural(view.bags[s], "bag")} · at 10 bags, −100`),
      );
    }),
    h(
      "div",
      { class: "sheet-scroll" },
      h(
        "table",
        { class: "scores sheet-table" },
        h("thead", null, h("tr", null, h("th", null, "Hand"), view.names.map((n) => h("th", { title: n }, n)))),
        h(
          "tbody",
          null,
          view.scoresheet.map((row, i) => h("tr", null, h("th", { scope: "row" }, i + 1), row.map((v) => h("td", null, v)))),
          view.scoresheet.length ? null : h("tr", null, h("td", { colspan: 3, class: "muted" }, "No hand finished yet")),
        ),
      ),
    ),
    discards && discards.length
      ? h(
          "details",
          { class: "history side-discards" },
          h("summary", null, `Discards you have seen (${discards.filter((c) => c !== "??").length})`),
          h("div", { class: "mini-row" }, discards.map((c) => renderCard(c, { classes: ["mini"] }))),
        )
      : null,
  );
}

export function spadesKey(ctx, key) {
  const legal = ctx.legal || {};
  const map = { k: "keep", r: "reject", b: "blind", p: "pass" };
  const field = map[key];
  if (field && legal[field]) return ctx.act(field === "blind" ? "blind nil" : field), true;
  return false;
}

