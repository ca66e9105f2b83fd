// The Golf table: your layout large at the bottom, opponents around, piles in the middle.
import { capital, cardName, renderCard, renderStack } from "./cards.js";
import { h, plural } from "./util.js";

const PEEK_SHOW_MS = 3000;

function shape(layout) {
  if (layout === "hand4") return { rows: 1, cols: 4, hand: true };
  const [rows, cols] = String(layout).split("x").map(Number);
  return { rows, cols, hand: false };
}

/** Legal action texts grouped by where they are clicked. */
export function parseLegal(legal) {
  const out = { cards: {}, draw: false, take: false, discard: false, knock: false, pass: false, powers: [], other: [] };
  for (const action of legal || []) {
    const [verb, arg] = action.split(" ");
    if (verb === "power") out.powers.push(parsePower(action));
    else if ((verb === "flip" || verb === "peek" || verb === "swap") && arg !== undefined) out.cards[Number(arg)] = action;
    else if (verb in out && arg === undefined) out[verb] = true;
    else out.other.push(action);
  }
  return out;
}

/** "power swap 0:2 1:3" -> {action, verb, targets: [[0, 2], [1, 3]]} ("1" alone: a whole layout). */
function parsePower(action) {
  const [, verb, ...places] = action.split(" ");
  const targets = places.map((t) => {
    const [seat, pos] = t.split(":");
    return [Number(seat), pos === undefined ? null : Number(pos)];
  });
  return { action, verb, targets };
}

const POWER_WORDS = {
  peek: "Choose a card to look at",
  swap: "Choose two cards to swap",
  shuffle: "Choose a layout to shuffle",
  give: "Choose the card that gets your king",
};

/**
 * Power mode (G7): which cards may be clicked now, as Map "roundSeat:pos" -> {action} or
 * {select} for the first card of a two-card power.
 */
function powerTargets(ctx, legal) {
  const map = new Map();
  const first = ctx.powerFirst;
  for (const power of legal.powers) {
    const t = power.targets;
    if (t.length === 1) {
      const [seat, pos] = t[0];
      if (pos === null) {
        const size = ctx.view.round_view.layouts[seat].cards.length;
        for (let p = 0; p < size; p++) map.set(`${seat}:${p}`, { action: power.action, verb: power.verb });
      } else map.set(`${seat}:${pos}`, { action: power.action, verb: power.verb });
    } else if (t.length === 2) {
      const key0 = `${t[0][0]}:${t[0][1]}`;
      const key1 = `${t[1][0]}:${t[1][1]}`;
      if (first === null || first === undefined) {
        if (!map.has(key0)) map.set(key0, { select: key0, verb: power.verb });
      } else if (first === key0) map.set(key1, { action: power.action, verb: power.verb });
    }
  }
  return map;
}

function roundSeatOf(view, seat) {
  return seat === null || seat === undefined ? -1 : view.seating.indexOf(seat);
}

function top(list) {
  return list && list.length ? list[list.length - 1] : null;
}

/** Text of a card for sentences: "the K♠". */
function the(text) {
  return text && text !== "??" ? `the ${text}` : "a card";
}

export function holeLabel(view, rules) {
  const end = String(rules.end || "");
  if (end.startsWith("holes:")) return `Hole ${view.round} of ${end.slice(6)}`;
  if (end.startsWith("target:")) return `Hole ${view.round} · playing to ${end.slice(7)}`;
  return `Hole ${view.round}`;
}

/** What happened, in words (for the log and screen readers). */
export function describeGolf(event, view, me) {
  if (!event) return null;
  if (event.kind === "start") return "The match begins.";
  if (event.kind === "rematch") return "A new match begins with the same players.";
  if (event.kind === "deal") return `Hole ${event.round || view.round} is dealt.`;
  if (event.kind !== "action") return null;
  const name = event.seat === me ? "You" : view.names[event.seat] || `Seat ${event.seat + 1}`;
  const you = event.seat === me;
  const rv = view.round_view;
  const [verb, arg] = String(event.action).split(" ");
  const pos = Number(arg) + 1;
  const rs = roundSeatOf(view, event.seat);
  const layout = rv && rs >= 0 ? rv.layouts[rs] : null;
  const at = layout && arg !== undefined ? layout.cards[Number(arg)] : null;
  switch (verb) {
    case "flip":
      return `${name} turned up ${the(at && layout.face_up[Number(arg)] ? at : null)} (card ${pos}).`;
    case "peek":
      return `${name} peeked at card ${pos}.`;
    case "draw":
      return you && rv.held ? `You drew ${the(rv.held)} from the stock.` : `${name} drew from the stock.`;
    case "take":
      return `${name} took ${the(rv && rv.held)} from the discard pile.`;
    case "swap":
      return `${name} swapped card ${pos}; ${the(top(rv.discard))} goes to the discard pile.`;
    case "discard":
      return `${name} discarded ${the(top(rv.discard))}.`;
    case "knock":
      return `${name} knocked! Everyone else has one more turn.`;
    case "pass":
      return `${name} chose not to turn a card up.`;
    default:
      return `${name}: ${event.action}.`;
  }
}

/** Which elements move for an event, by key: {key, from} flies, {key, flip} turns, {key, pulse}. */
export function golfMotions(event) {
  if (!event || event.kind !== "action") return [];
  const s = event.seat;
  const [verb, arg] = String(event.action).split(" ");
  switch (verb) {
    case "draw":
      return [{ key: "held", from: "stock", flip: true }];
    case "take":
      return [{ key: "held", from: "discard" }];
    case "swap":
      return [
        { key: `L${s}-${arg}`, from: "held" },
        { key: "discard", from: `L${s}-${arg}`, flip: true },
      ];
    case "discard":
      return [{ key: "discard", from: "held" }];
    case "flip":
      return [{ key: `L${s}-${arg}`, flip: true }];
    case "peek":
      return [{ key: `L${s}-${arg}`, pulse: true }];
    case "knock":
      return [{ key: `P${s}`, pulse: true }];
    default:
      return [];
  }
}

function statusLine(ctx, rv, legal) {
  const { view, me } = ctx;
  const mover = rv.to_move === null ? null : view.seating[rv.to_move];
  const moverName = mover === null ? "" : view.names[mover];
  const mine = mover === me && me !== null;
  if (rv.phase === "over") {
    const scores = rv.scores || [];
    const low = Math.min(...scores);
    const winners = scores.map((sc, i) => (sc === low ? view.names[view.seating[i]] : null)).filter(Boolean);
    if (view.over) {
      const champs = view.winners.map((w) => view.names[w]);
      return { text: `${champs.join(" and ")} ${champs.length > 1 ? "share the win" : "wins the match"}!`, tone: "win" };
    }
    return { text: `${holeLabel(view, ctx.rules)} is over · lowest: ${winners.join(" and ")} (${low})`, tone: "info" };
  }
  const held = rv.held;
  if (mine) {
    if (rv.phase === "reveal") {
      const verb = legal.cards && Object.values(legal.cards).some((a) => a.startsWith("peek")) ? "Peek at" : "Turn up";
      return { text: `Your turn: ${verb.toLowerCase()} ${plural(rv.reveal_left, "card")} of yours`, tone: "you" };
    }
    if (rv.phase === "turn") {
      const parts = ["draw from the stock (d)"];
      if (legal.take) parts.push(`take ${the(top(rv.discard))} (t)`);
      if (Object.keys(legal.cards).length) parts.push("turn a card up");
      if (legal.knock) parts.push("knock (k)");
      return { text: `Your turn: ${parts.join(", or ")}`, tone: "you" };
    }
    if (ctx.powerMode && legal.powers.length) {
      const verb = legal.powers[0].verb;
      const text = ctx.powerFirst ? "Now choose the second card" : POWER_WORDS[verb] || "Choose where the power goes";
      return { text: `${text} (Esc: back)`, tone: "you" };
    }
    if (rv.phase === "drawn") {
      return { text: `You drew ${the(held)}: click one of your cards to swap it in, or discard it (x)`, tone: "you" };
    }
    if (rv.phase === "taken") return { text: `Swap ${the(held)} with one of your cards`, tone: "you" };
    if (rv.phase === "flip") {
      return { text: legal.pass ? "Turn up one of your face-down cards, or skip (p)" : "Turn up one of your face-down cards", tone: "you" };
    }
  }
  if (rv.phase === "reveal") return { text: `${moverName} is looking at their cards…`, tone: "wait" };
  if (rv.phase === "drawn" || rv.phase === "taken") return { text: `${moverName} is deciding where the card goes…`, tone: "wait" };
  if (rv.phase === "flip") return { text: `${moverName} may turn a card up…`, tone: "wait" };
  return { text: `${moverName}'s turn`, tone: "wait" };
}

export function renderGolf(ctx) {
  const { view, me, seats } = ctx;
  const rv = view.round_view;
  const myRound = roundSeatOf(view, me);
  const legal = parseLegal(myRound >= 0 && rv.to_move === myRound ? rv.legal : []);
  ctx.legal = legal;
  if (!legal.powers.length) {
    ctx.powerMode = false;
    ctx.powerFirst = null;
  }
  ctx.powerMap = ctx.powerMode ? powerTargets(ctx, legal) : new Map();
  const over = rv.phase === "over";
  const sh = shape(rv.layout);
  const status = statusLine(ctx, rv, legal);
  const mover = rv.to_move === null ? null : view.seating[rv.to_move];

  // Opponents in clockwise order starting at your left.
  const n = view.names.length;
  const order = [];
  const start = me === null ? 0 : me + 1;
  for (let i = 0; i < n; i++) {
    const s = (start + i) % n;
    if (s !== me) order.push(s);
  }

  const playerPanel = (s, big) => {
    const rs = roundSeatOf(view, s);
    const layout = rs >= 0 ? rv.layouts[rs] : null;
    const seatInfo = (seats && seats[s]) || {};
    const badges = [];
    if (seatInfo.bot) badges.push(h("span", { class: "badge bot", title: `${seatInfo.bot} bot` }, "bot"));
    if (seatInfo.stand_in) badges.push(h("span", { class: "badge away" }, "away · bot plays"));
    else if (!seatInfo.bot && seatInfo.taken && !seatInfo.connected) badges.push(h("span", { class: "badge away" }, "offline"));
    if (rs >= 0 && rv.dealer === rs) badges.push(h("span", { class: "badge", title: "dealer" }, "dealer"));
    if (rs >= 0 && rv.closer === rs) badges.push(h("span", { class: "badge closer" }, rv.knocked ? "knocked" : "closed"));
    const turn = mover === s && !over;
    const breakdown = over && rv.breakdown && rs >= 0 ? rv.breakdown[rs] : null;
    const cls = ["player", big ? "me" : "opp"];
    if (turn) cls.push("turn");
    if (view.over && view.winners.includes(s)) cls.push("winner");
    return h(
      "section",
      {
        class: cls.join(" "),
        "data-seat": s,
        "data-key": `P${s}`,
        "aria-label": `${s === me ? "Your cards" : view.names[s]}${turn ? " (playing now)" : ""}`,
      },
      h(
        "header",
        { class: "player-head" },
        h("span", { class: "pname" }, s === me ? `${view.names[s]} (you)` : view.names[s]),
        badges,
        h("span", { class: "ptotal", title: "match total" }, h("small", null, "total "), view.totals[s]),
      ),
      layout
        ? renderLayout(ctx, s, layout, sh, big, breakdown, legal)
        : h("p", { class: "muted small" }, "sits out this playoff round"),
      breakdown ? renderBreakdown(breakdown, view, s) : null,
    );
  };

  const opponents = h(
    "div",
    { class: `opponents count-${order.length}`, style: { "--count": order.length } },
    order.map((s) => playerPanel(s, false)),
  );

  // The middle of the table: stock, discard pile, the card in play.
  const discardTop = top(rv.discard);
  const stockLabel = `Stock, ${plural(rv.stock, "card")}${legal.draw ? ": draw (d)" : ""}`;
  const stock = h(
    "div",
    { class: "pile" },
    h("div", { class: "pile-label" }, `Stock · ${rv.stock}`),
    legal.draw
      ? h(
          "button",
          {
            type: "button",
            class: "stack-button legal",
            "data-key": "stock",
            "data-action": "draw",
            "aria-label": stockLabel,
            onclick: () => ctx.act("draw"),
          },
          renderStack(rv.stock),
        )
      : h("div", { "data-key": "stock", "aria-label": stockLabel, role: "img" }, renderStack(rv.stock)),
  );
  const discardAction = legal.take ? "take" : legal.discard ? "discard" : null;
  const discardLabel = discardTop
    ? `Discard pile, ${rv.discard.length} cards, top: ${cardName(discardTop)}`
    : "Discard pile, empty";
  const under = rv.discard.length > 1 ? rv.discard[rv.discard.length - 2] : null;
  const discard = h(
    "div",
    { class: "pile" },
    h("div", { class: "pile-label" }, `Discard · ${rv.discard.length}`),
    h(
      "div",
      { class: "discard-stack" },
      under ? renderCard(under, { classes: ["under"] }) : null,
      renderCard(discardTop, {
        key: "discard",
        button: !!discardAction,
        action: discardAction,
        classes: discardAction ? ["legal"] : [],
        label: discardAction === "take" ? ": take it (t)" : discardAction === "discard" ? ": discard your card here (x)" : "",
        onclick: discardAction ? () => ctx.act(discardAction) : undefined,
      }),
    ),
    rv.discard.length > 1
      ? h(
          "details",
          { class: "history" },
          h("summary", null, "all discards"),
          h("div", { class: "mini-row" }, rv.discard.map((c) => renderCard(c, { classes: ["mini"] }))),
        )
      : null,
  );
  const holder = rv.held !== null && rv.to_move !== null ? view.seating[rv.to_move] : null;
  const heldMine = holder !== null && holder === me;
  const heldCaption =
    holder === null
      ? "drawn card"
      : `${heldMine ? "Your" : `${view.names[holder]}'s`} card · from the ${rv.held_from === "stock" ? "stock" : "discard pile"}`;
  const held = h(
    "div",
    { class: `pile held${heldMine ? " mine" : ""}${holder !== null ? " active" : ""}` },
    h("div", { class: "pile-label" }, heldCaption),
    rv.held !== null
      ? renderCard(rv.held, { key: "held", classes: heldMine ? ["in-hand"] : [] })
      : h("div", { class: "card placeholder", "data-key": "held", "aria-hidden": "true" }),
  );

  const finalNote =
    rv.closer !== null && !over
      ? h(
          "div",
          { class: "final-note", role: "note" },
          `${view.names[view.seating[rv.closer]]} ${rv.knocked ? "knocked" : "closed"} · final turns: ${rv.final_turns_left} left`,
        )
      : null;

  const center = h(
    "div",
    { class: "center" },
    over ? renderRoundEnd(ctx) : h("div", { class: "piles" }, stock, discard, held),
    finalNote,
  );

  // Your own corner: the layout and the buttons for what you may do.
  const buttons = [];
  const button = (label, action, key, extra = {}) =>
    h(
      "button",
      {
        type: "button",
        class: `btn ${extra.primary ? "primary" : ""} ${extra.warn ? "warn" : ""}`,
        "data-action": action,
        "aria-keyshortcuts": key,
        onclick: () => ctx.act(action),
      },
      label,
      h("kbd", { "aria-hidden": "true" }, key),
    );
  if (legal.draw) buttons.push(button("Draw", "draw", "d", { primary: true }));
  if (legal.take) buttons.push(button(`Take ${discardTop}`, "take", "t"));
  if (legal.discard) buttons.push(button("Discard", "discard", "x"));
  if (legal.knock) buttons.push(button("Knock", "knock", "k", { warn: true }));
  if (legal.pass) buttons.push(button("Don't turn a card", "pass", "p"));
  if (legal.powers.length) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: `btn ${ctx.powerMode ? "" : "warn"}`,
          "data-power": "toggle",
          "aria-pressed": String(!!ctx.powerMode),
          "aria-keyshortcuts": "u",
          onclick: () => ctx.togglePower(),
        },
        ctx.powerMode ? "Back: keep or discard it" : `Use the power of the ${rv.held}`,
        h("kbd", { "aria-hidden": "true" }, "u"),
      ),
    );
  }
  for (const action of legal.other) buttons.push(button(action, action, ""));

  const mePanel = me !== null ? playerPanel(me, true) : null;
  const meArea = h(
    "div",
    { class: "me-area" },
    mePanel,
    me !== null && !over ? h("div", { class: "actions", role: "toolbar", "aria-label": "Your moves" }, buttons) : null,
  );

  const felt = h(
    "div",
    { class: `felt golf layout-${rv.layout}${me === null ? " watching" : ""}` },
    h("div", { class: `status tone-${status.tone}`, role: "status", "aria-live": "polite", id: "status" }, status.text),
    opponents,
    center,
    meArea,
  );
  return { felt, side: renderScoresheet(ctx) };
}

function renderLayout(ctx, s, layout, sh, big, breakdown, legal) {
  const { view, me } = ctx;
  const rv = view.round_view;
  const mine = s === me;
  const groupOf = {};
  if (breakdown) {
    breakdown.groups.forEach((g, gi) => {
      for (const p of g.positions) groupOf[p] = gi;
    });
  }
  const slots = layout.cards.map((text, p) => {
    const faceUp = layout.face_up[p];
    let shown = text;
    let known = false;
    let remembered = false;
    if (text !== null && text !== "??" && !faceUp) {
      known = true;
      // G8.2 memory: a peeked card is shown for a moment, then hidden again.
      if (mine && ctx.rules.memory && rv.layout === "2x2" && rv.phase === "reveal") {
        const key = `${ctx.frame.match}-${view.round}-${p}`;
        let since = ctx.seen.get(key);
        if (since === undefined) {
          since = Date.now();
          ctx.seen.set(key, since);
        }
        const left = since + PEEK_SHOW_MS - Date.now();
        if (left <= 0) {
          shown = "??";
          known = false;
          remembered = true;
        } else {
          ctx.later(left + 30);
        }
      }
    }
    let action = mine && !ctx.powerMode ? legal.cards[p] : undefined;
    let verb = action ? action.split(" ")[0] : null;
    let onclick = action ? () => ctx.act(action) : undefined;
    const power = ctx.powerMode ? ctx.powerMap.get(`${roundSeatOf(view, s)}:${p}`) : undefined;
    if (power) {
      verb = "power";
      action = power.action || `select ${power.select}`;
      onclick = power.action ? () => ctx.act(power.action) : () => ctx.selectPower(power.select);
    }
    const hint = verb === "swap" ? "swap" : verb === "flip" ? "turn up" : verb === "peek" ? "peek" : verb === "power" ? `use the power (${power.verb})` : "";
    const classes = [];
    if (action) classes.push("legal", `do-${verb}`);
    if (remembered) classes.push("remembered");
    if (ctx.powerMode && ctx.powerFirst === `${roundSeatOf(view, s)}:${p}`) classes.push("selected");
    if (groupOf[p] !== undefined) classes.push("grouped", `g${groupOf[p] % 5}`);
    const label = `, card ${p + 1}${mine ? "" : ` of ${view.names[s]}`}${hint ? `: ${hint} (${p + 1})` : ""}`;
    const card = renderCard(shown, {
      key: `L${s}-${p}`,
      known,
      knownLabel: mine ? ", face down (you have seen it)" : ", face down (you know this card)",
      button: !!action,
      action,
      classes,
      label,
      onclick,
    });
    const points = breakdown ? breakdown.points[p] : null;
    return h(
      "div",
      { class: "slot" },
      card,
      big && action && !power && !sh.hand ? h("span", { class: "slot-num", "aria-hidden": "true" }, p + 1) : null,
      points !== null && points !== undefined
        ? h("span", { class: `pts${points < 0 ? " neg" : points === 0 ? " zero" : ""}`, "aria-label": `${points} points` }, fmt(points))
        : null,
    );
  });
  return h(
    "div",
    {
      class: `layout ${sh.hand ? "hand" : "grid"} ${big ? "big" : "small"}`,
      style: { "--cols": sh.cols, "--rows": sh.rows },
      role: "group",
      "aria-label": `${mine ? "Your" : `${view.names[s]}'s`} ${sh.hand ? "hand" : "layout"}`,
    },
    slots,
  );
}

function fmt(points) {
  return points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "0";
}

const GROUP_WORDS = {
  column: "column cancels",
  row: "row cancels",
  diagonal: "diagonal cancels",
  pair: "pair cancels",
  "adjacent pair": "adjacent pair cancels",
  block: "block of four",
};

function renderBreakdown(b, view, s) {
  const items = [];
  b.groups.forEach((g, gi) => {
    const what = GROUP_WORDS[g.kind] || g.kind;
    const cards = g.positions.map((p) => p + 1).join(", ");
    items.push(
      h(
        "li",
        { class: `grp g${gi % 5}` },
        h("span", { class: "swatch", "aria-hidden": "true" }),
        `${capital(what)} (cards ${cards})`,
        g.points ? `: ${fmt(g.points)}` : ": 0",
        h("span", { class: "rule-id" }, g.rule),
      ),
    );
  });
  for (const a of b.adjustments) {
    items.push(h("li", { class: "adj" }, `${capital(a.reason)}: ${fmt(a.delta)}`, h("span", { class: "rule-id" }, a.rule)));
  }
  return h(
    "div",
    { class: "breakdown", "data-seat": s },
    items.length ? h("ul", null, items) : null,
    h(
      "div",
      { class: "round-score" },
      b.adjustments.length ? `cards ${b.layout} → ` : "",
      "hole: ",
      h("strong", { "data-testid": `round-score-${s}` }, b.score),
    ),
  );
}

function renderRoundEnd(ctx) {
  const { view, me } = ctx;
  const rv = view.round_view;
  const scores = rv.scores || [];
  const low = Math.min(...scores);
  const adjusted = rv.breakdown && rv.breakdown.some((b) => b.adjustments.length);
  const rows = view.seating.map((s, rs) =>
    h(
      "tr",
      { class: scores[rs] === low ? "best" : "" },
      h("th", { scope: "row" }, view.names[s], s === me ? " (you)" : "", rv.closer === rs ? (rv.knocked ? " · knocked" : " · closed") : ""),
      adjusted ? h("td", null, rv.breakdown[rs].layout) : null,
      adjusted ? h("td", null, rv.breakdown[rs].adjustments.map((a) => fmt(a.delta)).join(" ") || "—") : null,
      h("td", { "data-testid": `hole-score-${s}` }, h("strong", null, scores[rs])),
      h("td", null, view.totals[s]),
    ),
  );
  const controls = [];
  if (me !== null) {
    if (view.over) {
      controls.push(
        h("button", { type: "button", class: "btn primary big", "data-action": "rematch", onclick: () => ctx.rematch() }, "Rematch", h("kbd", { "aria-hidden": "true" }, "r")),
      );
    } else if (ctx.ready === `${ctx.frame.match}-${view.round}`) {
      controls.push(h("p", { class: "muted" }, "Waiting for the other players…"));
    } else {
      controls.push(
        h(
          "button",
          { type: "button", class: "btn primary big", "data-action": "next", onclick: () => ctx.next() },
          "Next hole",
          h("kbd", { "aria-hidden": "true" }, "n"),
        ),
      );
    }
  }
  if (view.over) controls.push(h("a", { class: "btn ghost", href: "#/" }, "Lobby"));
  return h(
    "div",
    { class: `round-end${view.over ? " match-over" : ""}`, "aria-labelledby": "round-end-title" },
    view.over
      ? h("h2", { id: "round-end-title", class: "champion" }, "★ ", view.winners.map((w) => view.names[w]).join(" and "), view.winners.length > 1 ? " share the win" : " wins the match", ` with ${view.totals[view.winners[0]]}`)
      : h("h2", { id: "round-end-title" }, `${holeLabel(view, ctx.rules)} · scores`),
    h(
      "table",
      { class: "scores", title: "Matched cards are outlined in colour on each layout; the lowest score wins." },
      h(
        "thead",
        null,
        h("tr", null, h("th", null, "Player"), adjusted ? [h("th", null, "Cards"), h("th", null, "Closer")] : null, h("th", null, "Hole"), h("th", null, "Total")),
      ),
      h("tbody", null, rows),
    ),
    h("div", { class: "round-controls" }, controls),
  );
}

export function renderScoresheet(ctx) {
  const { view, me } = ctx;
  const sheet = view.scoresheet || [];
  return h(
    "section",
    { class: "sheet", "aria-labelledby": "sheet-title" },
    h("h2", { id: "sheet-title" }, "Scoresheet"),
    h(
      "div",
      { class: "sheet-scroll" },
      h(
        "table",
        { class: "scores sheet-table" },
        h(
          "thead",
          null,
          h("tr", null, h("th", { scope: "col" }, "Hole"), view.names.map((name, s) => h("th", { scope: "col", class: s === me ? "me" : "", title: name }, name))),
        ),
        h(
          "tbody",
          null,
          sheet.map((row, i) => h("tr", null, h("th", { scope: "row" }, i + 1), row.map((v) => h("td", null, v)))),
          sheet.length ? null : h("tr", null, h("td", { colspan: view.names.length + 1, class: "muted" }, "No hole finished yet")),
        ),
        h(
          "tfoot",
          null,
          h(
            "tr",
            null,
            h("th", { scope: "row" }, "Total"),
            view.totals.map((t, s) => h("td", { class: `${view.winners.includes(s) ? "win" : ""}`, "data-testid": `total-${s}` }, t)),
          ),
        ),
      ),
    ),
  );
}

/** Keyboard: d draw, t take, x discard, k knock, p pass, 1-9 your cards. */
export function golfKey(ctx, key) {
  const legal = ctx.legal || {};
  if (key === "u" && legal.powers && legal.powers.length) return ctx.togglePower(), true;
  if (key === "escape" && ctx.powerMode) return ctx.togglePower(), true;
  const map = { d: "draw", t: "take", x: "discard", k: "knock", p: "pass" };
  if (map[key] && legal[map[key]]) return ctx.act(map[key]), true;
  if (/^[1-9]$/.test(key)) {
    const action = legal.cards && legal.cards[Number(key) - 1];
    if (action) return ctx.act(action), true;
  }
  return false;
}

