// The Golf table: your layout large at the bottom, opponents around, piles in the middle.
import { capital, cardName, renderCard, renderStack } from "./cards.js";
import {
  PEEK_SHOW_MS,
  bareWords,
  describePower,
  eyedAt,
  parsePower,
  peekAt,
  peekedLabel,
  placeWords,
  powerPlan,
  powerPrompt,
  rankWord,
  verbButton,
} from "./powers.js";
import { announce, h, plural } from "./util.js";

const REVEAL_SHOW_MS = 3000;

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

/**
 * Power mode (G7): the plan of the power choice now open for this seat, or null.
 * ctx.power is {verb, picks, keep}: keep = the player chose to keep the card instead.
 */
function currentPowerPlan(ctx, legal) {
  const rv = ctx.view.round_view;
  // An 8's offer (G7.4, "power keep N") is chosen on the offer's cards, not here.
  const powers = legal.powers.filter((p) => p.verb !== "keep");
  if (!powers.length) {
    ctx.power = null;
    return null;
  }
  const fresh = !ctx.power;
  if (fresh) ctx.power = { verb: null, picks: [], keep: false };
  const sizes = rv.layouts.map((l) => l.cards.length);
  const sh = shape(rv.layout);
  const plan = powerPlan(powers, ctx.power, sizes, sh.hand ? null : sh);
  ctx.power.verb = plan.verb;
  ctx.power.picks = plan.picks;
  // Keeping the card instead is possible only where the legal actions say so (swap P).
  plan.canKeep = Object.values(legal.cards).some((a) => a.startsWith("swap "));
  if (!plan.canKeep) ctx.power.keep = false;
  plan.keep = ctx.power.keep;
  plan.fresh = fresh;
  return plan;
}

/**
 * Who gives the power now open, in words: the card held ("Queen"), a 2's lent power
 * ("Two"), or its second one (G7.4 2: "Two, second power").
 */
function powerTitle(rv) {
  if (rv.phase === "second") return "Two, second power";
  return rankWord(rv.held);
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
export function describeGolf(event, view, me, prevView = null) {
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
    case "power":
      // The second power a 2 lends (G7.4) discards nothing: the 2 was told already.
      return describePower(event, view, me, name, prevView?.round_view?.phase === "second" ? null : top(rv.discard));
    default:
      return `${name}: ${event.action}.`;
  }
}

/** Which elements move for an event, by key: {key, from} flies, {key, flip} turns, {key, pulse}. */
export function golfMotions(event, view) {
  if (!event || event.kind !== "action") return [];
  const s = event.seat;
  const [verb, arg] = String(event.action).split(" ");
  if (verb === "power") return powerMotions(parsePower(event.action), view);
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

/** Power moves: the card goes to the discard pile, targets fly or pulse (seats of the round). */
function powerMotions(power, view) {
  const key = ([rs, pos]) => (view && view.seating[rs] !== undefined ? `L${view.seating[rs]}-${pos}` : null);
  const out = power.verb === "give" ? [] : [{ key: "discard", from: "held" }];
  const t = power.targets;
  if (power.verb === "swap" && t.length === 2 && t[0][1] !== null && t[1][1] !== null) {
    out.push({ key: key(t[0]), from: key(t[1]) }, { key: key(t[1]), from: key(t[0]) });
  } else {
    for (const target of t) {
      if (target[1] === null) out.push({ key: view ? `P${view.seating[target[0]]}` : null, pulse: true });
      else out.push({ key: key(target), pulse: true });
    }
  }
  return out.filter((m) => m.key);
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
    if (rv.phase === "choose") {
      return { text: `Your 8's offer: click the card to keep (1–${(rv.offer || []).length}); the others are discarded`, tone: "you" };
    }
    const plan = ctx.powerPlan;
    if (plan && !plan.keep) return { text: ctx.powerText.text, tone: "you" };
    if (plan && plan.keep) {
      return { text: `You drew ${the(held)}: click one of your cards to keep it there, discard it (x), or use its power (u)`, tone: "you" };
    }
    if (rv.phase === "drawn") {
      return { text: `You drew ${the(held)}: click one of your cards to swap it in, or discard it (x)`, tone: "you" };
    }
    if (rv.phase === "taken") return { text: `${rv.offer ? "Put" : "Swap"} ${the(held)} ${rv.offer ? "into your layout: click the card it replaces" : "with one of your cards"}`, tone: "you" };
    if (rv.phase === "flip") {
      return { text: legal.pass ? "Turn up one of your face-down cards, or skip (p)" : "Turn up one of your face-down cards", tone: "you" };
    }
  }
  if (rv.phase === "reveal") return { text: `${moverName} is looking at their cards…`, tone: "wait" };
  if (rv.phase === "drawn" || rv.phase === "taken") return { text: `${moverName} is deciding where the card goes…`, tone: "wait" };
  if (rv.phase === "flip") return { text: `${moverName} may turn a card up…`, tone: "wait" };
  if (rv.phase === "choose") return { text: `${moverName} is choosing which card of the 8's offer to keep…`, tone: "wait" };
  if (rv.phase === "second") return { text: `${moverName} may use a second power of the 2…`, tone: "wait" };
  return { text: `${moverName}'s turn`, tone: "wait" };
}

export function renderGolf(ctx) {
  const { view, me, seats } = ctx;
  const rv = view.round_view;
  const myRound = roundSeatOf(view, me);
  const legal = parseLegal(myRound >= 0 && rv.to_move === myRound ? rv.legal : []);
  ctx.legal = legal;
  const plan = currentPowerPlan(ctx, legal);
  ctx.powerPlan = plan;
  ctx.powerText = plan ? powerPrompt(plan, legal.powers, view, me, rv.held, rv.phase === "second" ? powerTitle(rv) : null) : null;
  if (plan && !plan.keep && ctx.powerText.text !== ctx.powerSaid) {
    // A new step of the power choice: say it, and put the keyboard on the first target.
    ctx.powerSaid = ctx.powerText.text;
    announce(ctx.powerText.text);
    if (plan.fresh || ctx.powerFocus) ctx.focusAfter = "button.card.do-power";
    ctx.powerFocus = false;
  }
  if (!plan) ctx.powerSaid = null;
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
    const shields = rs >= 0 && rv.shields ? rv.shields[rs] || 0 : 0;
    if (shields > 0) {
      const who = s === me ? "You have" : `${view.names[s]} has`;
      badges.push(
        h(
          "span",
          {
            class: "badge shield",
            "data-shields": shields,
            role: "img",
            "aria-label": `${who} ${plural(shields, "shield")}: each blocks one attack (G7.4 5)`,
            title: `${plural(shields, "shield")} (a 5 kept face up): each blocks the next attack on these cards`,
          },
          h("span", { class: "shield-card", "aria-hidden": "true" }, "5"),
          h("span", { class: "shield-count", "aria-hidden": "true" }, `×${shields}`),
        ),
      );
    }
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
  const heldFrom = rv.offer && rv.phase === "taken" ? "kept from the 8's offer" : `from the ${rv.held_from === "stock" ? "stock" : "discard pile"}`;
  const heldCaption = holder === null ? "drawn card" : `${heldMine ? "Your" : `${view.names[holder]}'s`} card · ${heldFrom}`;
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
    !over && rv.phase === "choose" ? renderOffer(ctx, legal) : null,
    plan && !over ? renderPowerPrompt(ctx, plan, legal) : null,
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
  if (legal.discard) buttons.push(button(plan ? "Discard without power" : "Discard", "discard", "x"));
  if (legal.knock) buttons.push(button("Knock", "knock", "k", { warn: true }));
  if (legal.pass) buttons.push(button(rv.phase === "second" ? "Pass: no second power" : plan ? "Pass: no power" : "Don't turn a card", "pass", "p"));
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

/** The power card's prompt: what it does in words, and the ways out (keep it, discard it). */
function renderPowerPrompt(ctx, plan, legal) {
  const rv = ctx.view.round_view;
  const text = ctx.powerText;
  const powersRule = ctx.rules && ctx.rules.powers && ctx.rules.powers !== "off" ? `card powers: ${ctx.rules.powers}` : "card powers";
  const extras = [];
  if (ctx.rules && ctx.rules.cutthroat) extras.push("cutthroat");
  const verbChoice =
    plan.verbs.length > 1 && !plan.keep
      ? h(
          "div",
          { class: "power-verbs", role: "radiogroup", "aria-label": "Which power" },
          plan.verbs.map((verb) =>
            h(
              "button",
              {
                type: "button",
                role: "radio",
                class: `btn small${verb === plan.verb ? " on" : ""}`,
                "aria-checked": String(verb === plan.verb),
                "data-power-verb": verb,
                onclick: () => ctx.choosePower(verb),
              },
              verbButton(verb),
            ),
          ),
        )
      : null;
  // A power this client cannot pick on the cards: one button per legal action, in the
  // action's own words (a list to choose from when there are many).
  let plain = null;
  if (!plan.keep && !plan.clickable) {
    const moves = legal.powers.filter((p) => p.verb === plan.verb);
    const bare = moves.length === 1 && !moves[0].targets.length ? bareWords(plan.verb, rv.phase === "second" || (rv.held && rankWord(rv.held) === "Two")) : null;
    if (bare) {
      // A power that names no target (G7.4 5, 8, black K): one button, in words.
      plain = h(
        "div",
        { class: "power-plain", role: "group", "aria-label": "Power moves" },
        h("button", { type: "button", class: "btn primary small", "data-action": moves[0].action, onclick: () => ctx.act(moves[0].action) }, bare),
      );
    } else if (moves.length <= 12) {
      plain = h(
        "div",
        { class: "power-plain", role: "group", "aria-label": "Power moves" },
        moves.map((p) => h("button", { type: "button", class: "btn small", "data-action": p.action, onclick: () => ctx.act(p.action) }, p.action)),
      );
    } else {
      const pick = h(
        "select",
        { id: "power-move", "aria-label": "Power move" },
        moves.map((p) => h("option", { value: p.action }, p.action)),
      );
      plain = h(
        "div",
        { class: "power-plain" },
        pick,
        h("button", { type: "button", class: "btn small", "data-power": "do", onclick: () => ctx.act(pick.value) }, "Do it"),
      );
    }
  }
  const picked = plan.picks.length
    ? h(
        "button",
        { type: "button", class: "btn small", "data-power": "undo", "aria-keyshortcuts": "Escape", onclick: () => ctx.undoPower() },
        `Undo: ${plan.picks.map((t) => placeWords(t, ctx.view, ctx.me, plan.line ? plan.verb : null)).join(", ")}`,
        h("kbd", { "aria-hidden": "true" }, "Esc"),
      )
    : null;
  const toggle = !plan.canKeep ? null : h(
    "button",
    {
      type: "button",
      class: `btn small${plan.keep ? " warn" : ""}`,
      "data-power": "toggle",
      "aria-pressed": String(!plan.keep),
      "aria-keyshortcuts": "u",
      onclick: () => ctx.togglePower(),
    },
    plan.keep ? `Use the ${rankWord(rv.held).toLowerCase()}'s power instead` : `Keep the ${rv.held} instead`,
    h("kbd", { "aria-hidden": "true" }, "u"),
  );
  return h(
    "section",
    {
      class: `power-prompt${plan.keep ? " keeping" : ""}`,
      role: "group",
      "aria-labelledby": "power-title",
      "aria-describedby": "power-text",
      "data-verb": plan.verb,
      "data-mode": plan.keep ? "keep" : "power",
    },
    h(
      "h3",
      { id: "power-title", class: "power-title" },
      rv.phase === "second" ? "Second power of the 2" : rv.held ? `Power card: ${rankWord(rv.held)}` : "Card power",
      h("span", { class: "rule-id", title: "the table's rules (RULES.md G7)" }, [powersRule, ...extras].join(" · ")),
    ),
    h(
      "p",
      { id: "power-text", class: "power-text" },
      plan.keep ? `Keeping the ${rv.held}: click one of your cards to put it there (1–9), or discard it (x).` : text.text,
    ),
    lentNote(rv),
    verbChoice,
    plain,
    h("div", { class: "power-ways" }, picked, toggle),
  );
}

/** G7.4 2: what the 2 lends, and what it lent already. */
function lentNote(rv) {
  if (rv.phase === "second") {
    const first = (rv.lent || []).join(", ");
    return h(
      "p",
      { class: "power-note", "data-lent": first },
      `The 2 lent the ${first}'s power first; now a different one (3 to black king, not the 9), or pass (p).`,
    );
  }
  if (rv.phase === "drawn" && rv.held && rankWord(rv.held) === "Two" && rv.shields) {
    return h("p", { class: "power-note" }, "A 2 lends two different powers (3 to black king, not the 9): choose the first; the second comes next.");
  }
  return null;
}

/** G7.4 8: the cards on offer. The drawer sees the drawn faces and clicks one to keep;
 * everyone else sees their backs (the 8 itself is public). */
function renderOffer(ctx, legal) {
  const { view, me } = ctx;
  const rv = view.round_view;
  const offer = rv.offer || [];
  const keeps = new Map(legal.powers.filter((p) => p.verb === "keep").map((p) => [p.targets[0][0], p.action]));
  const mine = keeps.size > 0;
  const chooser = rv.to_move === null ? null : view.seating[rv.to_move];
  const cards = offer.map((text, k) => {
    const action = keeps.get(k);
    const what = k === 0 && offer.length === 3 ? "the 8 itself" : `drawn card ${offer.length === 3 ? k : k + 1}`;
    return h(
      "div",
      { class: "slot offer-slot" },
      renderCard(text, {
        key: `O${k}`,
        button: !!action,
        action,
        classes: action ? ["legal", "do-keep"] : [],
        label: `, ${what}${action ? `: keep it (${k + 1})` : ""}`,
        onclick: action ? () => ctx.act(action) : undefined,
      }),
      h("span", { class: "offer-caption" }, what),
      mine ? h("span", { class: "slot-num", "aria-hidden": "true" }, k + 1) : null,
    );
  });
  return h(
    "section",
    { class: "offer", role: "group", "aria-label": "The 8's offer" },
    h("h3", { class: "power-title" }, mine ? "Your 8's offer: keep one card" : `${view.names[chooser]}'s 8: choosing one card to keep`),
    h("div", { class: "offer-cards" }, cards),
    h("p", { class: "power-text" }, mine ? "The card you keep replaces one of yours next; the others go to the discard pile. Only you see the drawn cards." : "Only they see the drawn cards."),
  );
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
  const rs = roundSeatOf(view, s);
  const plan = ctx.powerPlan && !ctx.powerPlan.keep ? ctx.powerPlan : null;
  // G7.4: positions beyond the grid hold cards an ace added; empty ones are not drawn.
  const gridSize = sh.rows * sh.cols;
  const slot = (text, p) => {
    const faceUp = layout.face_up[p];
    let shown = text;
    let known = false;
    let remembered = false;
    let knownLabel = mine ? ", face down (you have seen it)" : ", face down (you know this card)";
    const classes = [];
    let title;
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
        const left = since + REVEAL_SHOW_MS - Date.now();
        if (left <= 0) {
          shown = "??";
          known = false;
          remembered = true;
        } else {
          ctx.later(left + 30);
        }
      }
    }
    // G7, G8: a card this seat looked at with a power. The server sent its face to this
    // seat alone; when the table does not keep showing it (memory), it is shown for a
    // moment, then drawn as a remembered back.
    const peek = rs >= 0 && text !== null && !faceUp ? peekAt(ctx, rs, p) : undefined;
    if (peek && (text === "??" || text === peek.card)) {
      const left = peek.at + PEEK_SHOW_MS - Date.now();
      classes.push("peeked");
      title = "You looked at this card with a power";
      if (text === peek.card) {
        knownLabel = peekedLabel(peek.card, false);
      } else if (left > 0) {
        shown = peek.card;
        known = true;
        knownLabel = peekedLabel(peek.card, true);
        classes.push("peek-now");
        ctx.later(left + 30);
      } else {
        remembered = true;
      }
    }
    const eyed = rs >= 0 && !faceUp ? eyedAt(ctx, rs, p) : undefined;
    if (eyed) {
      classes.push("eyed");
      title = `${eyed.by === me ? "You" : view.names[eyed.by]} looked at this card`;
    }
    let action = mine && !plan ? legal.cards[p] : undefined;
    let verb = action ? action.split(" ")[0] : null;
    let onclick = action ? () => ctx.act(action) : undefined;
    const power = plan && rs >= 0 ? plan.targets.get(`${rs}:${p}`) : undefined;
    let hint = verb === "swap" ? "swap" : verb === "flip" ? "turn up" : verb === "peek" ? "peek" : "";
    if (power) {
      verb = "power";
      action = power.action || `pick ${rs}:${p}`;
      onclick = () => ctx.pickPower(power);
      const doings = {
        peek: "look at it",
        swap: plan.picks.length ? "swap with your first pick" : "pick it for the swap",
        shuffle: "shuffle these cards",
        give: "give your card for it",
        place: "put the 9 in its place",
        show: "turn it face up",
        hide: "turn it face down",
        remove: "discard it",
        add: "add the stock's top card to these cards",
        rows: plan.picks.length ? "swap this row with the row picked" : "pick this row",
        cols: plan.picks.length ? "swap this column with the column picked" : "pick this column",
      };
      const doing = doings[plan.verb] || `use the power “${plan.verb}”`;
      hint = `${doing} (${rv.phase === "second" ? "the 2's second" : `${rankWord(rv.held)}'s`} power)`;
    }
    const picked = !!plan && rs >= 0 && plan.selected.has(`${rs}:${p}`);
    if (picked && !power) onclick = () => ctx.undoPower();
    if (action) classes.push("legal", `do-${verb}`);
    if (remembered) classes.push("remembered");
    if (picked) classes.push("selected");
    if (groupOf[p] !== undefined) classes.push("grouped", `g${groupOf[p] % 5}`);
    const state = remembered && peek ? peekedLabel(peek.card, false) : "";
    const pickedWords = picked ? ", picked for the power (click again or press Escape to undo)" : "";
    const label = `${state}, card ${p + 1}${mine ? "" : ` of ${view.names[s]}`}${pickedWords}${hint ? `: ${hint}${mine ? ` (${p + 1})` : ""}` : ""}`;
    const card = renderCard(shown, {
      key: `L${s}-${p}`,
      known,
      knownLabel,
      title,
      // A pick that is not yet a move is a toggle: aria-pressed says whether it is held.
      pressed: picked ? "true" : power && !power.action ? "false" : undefined,
      button: !!action || !!picked,
      action,
      classes,
      label,
      onclick,
    });
    const points = breakdown ? breakdown.points[p] : null;
    return h(
      "div",
      { class: `slot${p >= gridSize ? " extra" : ""}` },
      card,
      big && action && (!power || mine) && !sh.hand ? h("span", { class: "slot-num", "aria-hidden": "true" }, p + 1) : null,
      points !== null && points !== undefined
        ? h("span", { class: `pts${points < 0 ? " neg" : points === 0 ? " zero" : ""}`, "aria-label": `${points} points` }, fmt(points))
        : null,
    );
  };
  const slots = layout.cards.slice(0, gridSize).map((text, p) => slot(text, p));
  const extras = [];
  layout.cards.forEach((text, p) => {
    if (p >= gridSize && text !== null) extras.push(slot(text, p));
  });
  const grid = h(
    "div",
    {
      class: `layout ${sh.hand ? "hand" : "grid"} ${big ? "big" : "small"}`,
      style: { "--cols": sh.cols, "--rows": sh.rows },
      role: "group",
      "aria-label": `${mine ? "Your" : `${view.names[s]}'s`} ${sh.hand ? "hand" : "layout"}`,
    },
    slots,
  );
  if (!extras.length) return grid;
  return h(
    "div",
    { class: `layout-wrap ${big ? "big" : "small"}` },
    grid,
    h(
      "div",
      {
        class: `layout extras ${big ? "big" : "small"}`,
        style: { "--cols": sh.cols, "--rows": sh.rows },
        role: "group",
        "data-extras": extras.length,
        "aria-label": `${mine ? "Your" : `${view.names[s]}'s`} added cards (${extras.length}, beyond the grid)`,
        title: "Cards an ace added beyond the grid",
      },
      extras,
    ),
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

/**
 * Keyboard: d draw, t take, x discard, k knock, p pass, 1-9 your cards; with a power
 * card: u switches between using its power and keeping it, Escape undoes a pick (or
 * keeps the card), 1-9 pick your own cards as targets; Tab and Enter reach every card.
 */
export function golfKey(ctx, key) {
  const legal = ctx.legal || {};
  const plan = ctx.powerPlan;
  if (key === "u" && plan && plan.canKeep) return ctx.togglePower(), true;
  if (key === "escape" && plan && !plan.keep && (plan.picks.length || plan.canKeep)) {
    if (plan.picks.length) ctx.undoPower();
    else ctx.togglePower();
    return true;
  }
  const rv = ctx.view && ctx.view.round_view;
  if (rv && rv.phase === "choose" && /^[1-9]$/.test(key)) {
    // G7.4 8: 1-3 keep that card of the offer.
    const keep = (legal.powers || []).find((p) => p.verb === "keep" && p.targets[0][0] === Number(key) - 1);
    if (keep) return ctx.act(keep.action), true;
    return false;
  }
  const map = { d: "draw", t: "take", x: "discard", k: "knock", p: "pass" };
  if (map[key] && legal[map[key]]) return ctx.act(map[key]), true;
  if (/^[1-9]$/.test(key)) {
    const pos = Number(key) - 1;
    if (plan && !plan.keep) {
      const rs = ctx.view.seating.indexOf(ctx.me);
      const target = plan.targets.get(`${rs}:${pos}`);
      if (target) return ctx.pickPower(target), true;
      return false;
    }
    const action = legal.cards && legal.cards[pos];
    if (action) return ctx.act(action), true;
  }
  return false;
}

