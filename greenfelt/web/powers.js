// Golf card powers (RULES G7) in the browser: prompts built from the legal actions the
// server sends, targets picked by clicking cards, and the cards a seat has peeked at.
//
// Nothing here knows which card gives which power: the server's legal actions
// ("power peek 1:2", "power swap 0:1 1:3", "power shuffle 1", "power give 1:4", or a
// verb this client has never heard of) say what may be done, and the prompt is built
// from their verbs and targets. A target is "S:P" (round seat S, position P) or "S"
// (the whole layout of S). Cards are clicked only for verbs whose targets are known
// to be card places or layouts; any other verb (a new power set may use "S:A" for a
// row, or a number for a card on offer) gets one button per action, in its own words.
import { cardName, parseCard } from "./cards.js";

/** How long a peeked card stays face up when the table does not keep showing it (G8.2). */
export const PEEK_SHOW_MS = 4000;

/** "power swap 0:2 1:3" -> {action, verb, targets: [[0, 2], [1, 3]], extra: []}. */
export function parsePower(action) {
  const [, verb = "", ...words] = String(action).trim().split(/\s+/);
  const targets = [];
  const extra = [];
  for (const word of words) {
    const m = /^(\d+)(?::(\d+))?$/.exec(word);
    if (m && !extra.length) targets.push([Number(m[1]), m[2] === undefined ? null : Number(m[2])]);
    else extra.push(word);
  }
  return { action, verb, targets, extra };
}

const RANK_WORDS = {
  A: "Ace",
  2: "Two",
  3: "Three",
  4: "Four",
  5: "Five",
  6: "Six",
  7: "Seven",
  8: "Eight",
  9: "Nine",
  10: "Ten",
  J: "Jack",
  Q: "Queen",
  K: "King",
  JK: "Joker",
};

/** "Q♠" -> "Queen"; unknown -> "Your card". */
export function rankWord(text) {
  const card = parseCard(text);
  return (card && RANK_WORDS[card.rank]) || "Your card";
}

// The verbs this client knows how to put in words; any other verb is named as it is.
// ``card`` is the rank whose power it is in the extended set (G7.4), for the words.
const VERB_WORDS = {
  peek: { does: "look at", button: "Look at a card" },
  swap: { does: "swap", button: "Swap two cards" },
  shuffle: { does: "shuffle", button: "Shuffle a layout" },
  give: { does: "give", button: "Give it away" },
  place: { does: "replace", button: "Put the 9 in place of a card", card: "9" },
  show: { does: "turn up", button: "Turn a card face up", card: "4" },
  hide: { does: "turn down", button: "Turn one of yours face down", card: "4" },
  remove: { does: "discard", button: "Discard one of your cards", card: "A" },
  add: { does: "add a card to", button: "Add a card to a layout", card: "A" },
  rows: { does: "swap rows of", button: "Swap two rows", card: "7" },
  cols: { does: "swap columns of", button: "Swap two columns", card: "7" },
  shield: { does: "raise a shield", button: "Raise a shield", card: "5" },
  cancel: { does: "cancel the knock", button: "Cancel the knock", card: "K" },
  draw2: { does: "draw two more", button: "Draw two more cards", card: "8" },
};

// Verbs whose targets are card places (S:P), verbs whose target is a layout (S), and
// verbs whose targets are whole lines of one grid (S:R, S:C: pickable only where the
// grid's shape is known, see powerPlan).
const CARD_VERBS = new Set(["peek", "swap", "give", "place", "show", "hide", "remove"]);
const LAYOUT_VERBS = new Set(["shuffle", "add"]);
const LINE_VERBS = new Set(["rows", "cols"]);

/** The buttons of powers that name no target (G7.4 5, 8, black K): what each does, in words. */
const BARE_WORDS = {
  shield: "raise a shield: it blocks the next attack on your cards",
  cancel: "cancel the knock: the round goes on as if nobody had knocked",
  draw2: "draw two more cards and keep one (or the 8)",
};

/** The words of a power that names no target, with its card: "8: draw two more cards and keep one". */
export function bareWords(verb, lentBy) {
  const words = BARE_WORDS[verb];
  if (!words) return null;
  const card = VERB_WORDS[verb].card;
  return lentBy ? `${card} (lent by the 2): ${words}` : `${card}: ${words}`;
}

/** Round-seat positions of line ``n`` ("rows" or "cols") of a grid of shape {rows, cols}. */
export function linePlaces(verb, n, shape) {
  if (verb === "rows") return Array.from({ length: shape.cols }, (_, c) => n * shape.cols + c);
  return Array.from({ length: shape.rows }, (_, r) => r * shape.cols + n);
}

export function verbButton(verb) {
  return (VERB_WORDS[verb] && VERB_WORDS[verb].button) || `Power “${verb}”`;
}

const same = (a, b) => a[0] === b[0] && a[1] === b[1];

const tkey = (t) => `${t[0]}:${t[1]}`;

/**
 * Whether the order of a verb's targets is only the server's way of listing a set
 * (BGA's king: "swap 0:1 0:2" is the same as picking 0:2 first). Read from the
 * actions, not known in advance: the same card appears first in one action and later
 * in another, and no action lists the same cards in another order.
 */
function unordered(options) {
  // Two rows (or columns) swapped are the same swap whichever is named first.
  if (options.length && options.every((p) => LINE_VERBS.has(p.verb))) return true;
  const many = options.filter((p) => p.targets.length > 1);
  if (!many.length) return false;
  const firsts = new Set(many.map((p) => tkey(p.targets[0])));
  const overlap = many.some((p) => p.targets.slice(1).some((t) => firsts.has(tkey(t))));
  if (!overlap) return false;
  const sets = new Set();
  for (const p of many) {
    const key = p.targets.map(tkey).sort().join(" ");
    if (sets.has(key)) return false;
    sets.add(key);
  }
  return true;
}

/**
 * The power actions of ``verb`` still possible after the targets picked so far, each with
 * the targets that may be clicked next: [{action, next: [target], done}].
 */
function matching(powers, verb, picks) {
  const options = powers.filter((p) => p.verb === verb && p.targets.length > picks.length);
  const out = [];
  if (unordered(options)) {
    const picked = new Set(picks.map(tkey));
    for (const p of options) {
      const rest = p.targets.filter((t) => !picked.has(tkey(t)));
      if (rest.length === p.targets.length - picks.length) out.push({ power: p, next: rest, done: rest.length === 1 });
    }
    return out;
  }
  for (const p of options) {
    if (picks.every((t, i) => same(t, p.targets[i]))) out.push({ power: p, next: [p.targets[picks.length]], done: p.targets.length === picks.length + 1 });
  }
  return out;
}

/**
 * Whether every power of ``verb`` can be chosen by clicking cards. Rows and columns
 * can only where the grid's ``shape`` ({rows, cols}) is known.
 */
export function clickable(powers, verb, shape = null) {
  const cards = CARD_VERBS.has(verb);
  const layouts = LAYOUT_VERBS.has(verb);
  const options = powers.filter((p) => p.verb === verb);
  if (LINE_VERBS.has(verb)) {
    if (!shape) return false;
    const most = verb === "rows" ? shape.rows : shape.cols;
    return options.every(
      (p) => !p.extra.length && p.targets.length === 2 && p.targets.every((t) => t[1] !== null && t[1] < most) && p.targets[0][0] === p.targets[1][0],
    );
  }
  if (!cards && !layouts) return false;
  return options.every((p) => !p.extra.length && p.targets.length > 0 && p.targets.every((t) => (t[1] === null) === layouts));
}

/**
 * The state of a power choice, from the legal powers and what was picked:
 * {verbs, verb, picks, targets: Map "roundSeat:pos" -> {target, action?}, selected: Set}.
 * ``sizes[rs]`` is the number of places in round seat rs's layout; ``shape`` ({rows,
 * cols}) the grid's, which makes rows and columns pickable (a click on any card of one).
 */
export function powerPlan(powers, state, sizes, shape = null) {
  const verbs = [...new Set(powers.map((p) => p.verb))];
  if (!verbs.length) return null;
  const verb = verbs.includes(state.verb) ? state.verb : verbs[0];
  let picks = verb === state.verb ? state.picks.slice() : [];
  while (picks.length && !matching(powers, verb, picks).length) picks.pop();
  const targets = new Map();
  const can = clickable(powers, verb, shape);
  const line = LINE_VERBS.has(verb) && can;
  const placesOf = (t) => {
    if (line) return linePlaces(verb, t[1], shape).map((p) => `${t[0]}:${p}`);
    if (t[1] === null) return Array.from({ length: sizes[t[0]] || 0 }, (_, i) => `${t[0]}:${i}`);
    return [`${t[0]}:${t[1]}`];
  };
  if (can) {
    for (const { power: p, next: nexts, done } of matching(powers, verb, picks)) {
      for (const next of nexts) {
        const keys = placesOf(next);
        for (const key of keys) {
          const old = targets.get(key);
          // A click completes an action only when that target ends exactly one action.
          if (!old) targets.set(key, { target: next, action: done ? p.action : undefined });
          else if (old.action !== p.action) targets.set(key, { target: next, action: undefined });
        }
      }
    }
  }
  const selected = new Set();
  for (const pick of picks) for (const key of placesOf(pick)) selected.add(key);
  return { verbs, verb, picks, targets, selected, clickable: can, line, shape };
}

// ---- words -------------------------------------------------------------------------

/**
 * Whose cards a set of targets is, from the point of view of table seat ``me``:
 * {own, others: [table seats], whole, faceDown, faceUp}.
 */
function classify(targets, view, me) {
  const rv = view.round_view;
  const seats = new Set();
  let whole = false;
  let down = 0;
  let up = 0;
  for (const [rs, pos] of targets) {
    seats.add(view.seating[rs]);
    if (pos === null) {
      whole = true;
      continue;
    }
    const layout = rv.layouts[rs];
    if (layout && layout.face_up[pos]) up += 1;
    else down += 1;
  }
  const others = [...seats].filter((s) => s !== me);
  return { own: seats.has(me), others, whole, faceDown: down > 0 && up === 0, faceUp: up > 0 && down === 0 };
}

/** "one of Bo's face-down cards", "one of your cards", "any card on the table", "Bo's cards". */
function setWords(c, view, short = false) {
  const face = c.faceDown ? "face-down " : c.faceUp ? "face-up " : "";
  if (c.whole) {
    if (c.own && !c.others.length) return "your cards";
    if (!c.own && c.others.length === 1) return `${view.names[c.others[0]]}'s cards`;
    return c.own ? "anyone's cards" : "an opponent's cards";
  }
  if (c.own && !c.others.length) return short ? "yours" : `one of your ${face}cards`;
  if (!c.own && c.others.length === 1) return short ? `one of ${view.names[c.others[0]]}'s` : `one of ${view.names[c.others[0]]}'s ${face}cards`;
  if (!c.own) return short ? "an opponent's" : `one of an opponent's ${face}cards`;
  return `any ${face}card on the table`;
}

/**
 * The name of one picked target: "your card 2", "Bo's card 3", "Bo's cards", and with
 * a line verb ("rows", "cols") "Bo's row 1" / "Bo's column 2".
 */
export function placeWords(target, view, me, verb = null) {
  const [rs, pos] = target;
  const seat = view.seating[rs];
  const whose = seat === me ? "your" : `${view.names[seat]}'s`;
  if (verb === "rows" || verb === "cols") return `${whose} ${verb === "rows" ? "row" : "column"} ${pos + 1}`;
  return pos === null ? `${whose} cards` : `${whose} card ${pos + 1}`;
}

/**
 * The prompt for a power choice, in words: {title, text}, e.g.
 * "Queen: look at one of Bo's face-down cards: click it".
 */
export function powerPrompt(plan, powers, view, me, held, title = null) {
  const who = title || rankWord(held);
  const options = powers.filter((p) => p.verb === plan.verb);
  const verb = plan.verb;
  const words = VERB_WORDS[verb];
  const lent = !!title && !parseCard(held);
  if (BARE_WORDS[verb] && options.length === 1 && !options[0].targets.length) {
    return { title: who, text: `${who}: ${BARE_WORDS[verb]}: press the button` };
  }
  if (!plan.clickable) {
    const named = parseCard(held) || lent ? `${who}'s power “${verb}”` : `Power “${verb}”`;
    const few = options.length === 1 ? `one move: ${options[0].action}` : "choose one of the moves below";
    return { title: who, text: `${named}: ${few}` };
  }
  if (plan.picks.length) {
    const left = matching(powers, verb, plan.picks);
    const picked = plan.picks.map((t) => placeWords(t, view, me, plan.line ? verb : null)).join(", ");
    if (plan.line) {
      const line = verb === "rows" ? "row" : "column";
      return { title: who, text: `${who}: now click a card in another ${line} of the same cards to swap with ${picked} · Esc: undo` };
    }
    const next = classify(left.flatMap((m) => m.next), view, me);
    const what = verb === "swap" ? `to swap with ${picked}` : `(after ${picked})`;
    return { title: who, text: `${who}: now click ${setWords(next, view)} ${what} · Esc: undo` };
  }
  const width = Math.max(...options.map((p) => p.targets.length));
  const loose = unordered(options);
  const steps = Array.from({ length: width }, (_, i) =>
    classify(options.flatMap((p) => (loose ? p.targets : p.targets.length > i ? [p.targets[i]] : [])), view, me),
  );
  const first = steps[0];
  let text;
  if (verb === "peek" && width === 1) {
    text = `look at ${setWords(first, view)}: click it`;
  } else if (verb === "swap" && width === 2) {
    const second = steps[1];
    if (first.own && !first.others.length && !second.own) {
      text = `swap one of your cards with ${setWords(second, view, true)}: click yours, then theirs`;
    } else if (first.own && first.others.length) {
      text = `swap ${setWords(first, view).replace(/^any (.*)card on the table$/, "any two $1cards on the table")}: click one, then the other`;
    } else {
      text = `swap ${setWords(first, view)} with ${setWords(second, view)}: click the first, then the second`;
    }
  } else if (verb === "shuffle" && width === 1) {
    const whose = setWords(first, view);
    text = `shuffle ${whose} into a new order nobody knows: click one of ${first.own && !first.others.length ? "them" : "their cards"}`;
  } else if (verb === "give" && width === 1) {
    text = `give your ${who.toLowerCase()} for ${setWords(first, view)}, which you must then place: click it`;
  } else if (verb === "place" && width === 1) {
    text = `put the 9 in place of ${setWords(first, view)} (that card is discarded): click it`;
  } else if (verb === "show" && width === 1) {
    text = `turn ${setWords(first, view)} face up for everyone to see: click it`;
  } else if (verb === "hide" && width === 1) {
    text = `turn ${setWords(first, view)} face down again: click it`;
  } else if (verb === "remove" && width === 1) {
    text = `discard ${setWords(first, view)} (its place stays empty and scores 0): click it`;
  } else if (verb === "add" && width === 1) {
    text = `add the stock's top card, unseen by all, to ${setWords(first, view)}: click one of ${first.own && !first.others.length ? "them" : "their cards"}`;
  } else if (plan.line && width === 2) {
    const line = verb === "rows" ? "row" : "column";
    const whose = first.others.length === 1 && !first.own ? `${view.names[first.others[0]]}'s` : "an opponent's";
    text = `swap two ${line}s of ${whose} cards (each card keeps its face): click a card in one ${line}, then one in another`;
  } else {
    const clicks = width === 1 ? "click it" : `click ${width} cards in turn`;
    text = `${words.does} ${setWords(first, view)}${width > 1 ? ", then more" : ""}: ${clicks}`;
  }
  return { title: who, text: `${who}: ${text}` };
}

/** A power action, told after the fact (the log, screen readers). */
export function describePower(event, view, me, name, discardTop) {
  const power = parsePower(event.action);
  const rv = view.round_view;
  const actor = event.seat;
  const whose = (rs) => {
    const seat = view.seating[rs];
    if (seat === me) return "your";
    if (seat === actor) return "their own";
    return `${view.names[seat]}'s`;
  };
  const used = discardTop && discardTop !== "??" ? `${name} discarded the ${discardTop} and ` : `${name} `;
  const t = power.targets;
  if (event.blocked) {
    const victim = t.map((x) => x[0]).find((rs) => view.seating[rs] !== actor);
    const them = victim === undefined ? "the" : whose(victim);
    return `${used}tried “${power.verb}” on ${them} cards: a shield blocked it (the shield is spent).`;
  }
  if (power.verb === "peek" && t.length === 1 && t[0][1] !== null) {
    const [rs, pos] = t[0];
    if (actor === me) {
      const face = event.seen && rv.layouts[rs] && rv.layouts[rs].cards[pos] === event.seen ? `: the ${event.seen}` : "";
      return `${used}looked at ${whose(rs)} card ${pos + 1}${face}.`;
    }
    return `${used}looked at one of ${whose(rs)} cards (card ${pos + 1}).`;
  }
  if (power.verb === "swap" && t.length === 2) {
    const [[a, p], [b, q]] = t;
    return `${used}swapped ${whose(a)} card ${p + 1} with ${whose(b)} card ${q + 1}.`;
  }
  if (power.verb === "shuffle" && t.length === 1 && t[0][1] === null) return `${used}shuffled ${whose(t[0][0])} cards.`;
  if (power.verb === "give" && t.length === 1 && t[0][1] !== null) {
    const [rs, pos] = t[0];
    const now = rv.layouts[rs] ? rv.layouts[rs].cards[pos] : null;
    const gave = now && now !== "??" ? `the ${now}` : "their card";
    return `${name} gave ${gave} for ${whose(rs)} card ${pos + 1}${rv.held && rv.held !== "??" ? ` (the ${rv.held}) and must place it` : ""}.`;
  }
  // The extended set (G7.4). The discard pile's top is not always the power card: a 9
  // sends the card it replaces there, an ace's removal the removed card.
  const one = t.length === 1 && t[0][1] !== null ? t[0] : null;
  const cardAt = ([rs, pos]) => {
    const layout = rv.layouts[rs];
    const text = layout ? layout.cards[pos] : null;
    return text && text !== "??" ? text : null;
  };
  if (power.verb === "place" && one) {
    const gone = discardTop && discardTop !== "??" ? `; the ${discardTop} was discarded` : "";
    return `${name} put a 9 in place of ${whose(one[0])} card ${one[1] + 1}${gone}.`;
  }
  if (power.verb === "draw2") return `${name} used an 8: drew two more cards to choose one from.`;
  if (power.verb === "keep" && t.length === 1) {
    const k = t[0][0];
    return `${name} kept ${k === 0 ? "the 8" : `drawn card ${k}`}; the rest of the offer was discarded.`;
  }
  if ((power.verb === "rows" || power.verb === "cols") && t.length === 2) {
    const line = power.verb === "rows" ? "rows" : "columns";
    return `${used}swapped ${line} ${t[0][1] + 1} and ${t[1][1] + 1} of ${whose(t[0][0])} cards.`;
  }
  if (power.verb === "shield") return `${used}raised a shield.`;
  if (power.verb === "show" && one) {
    const face = cardAt(one);
    return `${used}turned up ${whose(one[0])} card ${one[1] + 1}${face ? `: the ${face}` : ""}.`;
  }
  if (power.verb === "hide" && one) return `${used}turned ${whose(one[0])} card ${one[1] + 1} face down.`;
  if (power.verb === "add" && t.length === 1) return `${used}added the stock's top card, unseen, to ${whose(t[0][0])} cards.`;
  if (power.verb === "remove" && one) {
    const gone = discardTop && discardTop !== "??" ? ` (the ${discardTop})` : "";
    return `${name} used an ace to discard ${whose(one[0])} card ${one[1] + 1}${gone}.`;
  }
  if (power.verb === "cancel") return `${used}cancelled the knock! The round goes on.`;
  // A power this client does not know: its own words (the card may not be on the pile).
  return `${name} used a power: ${event.action}.`;
}

// ---- cards seen by a power ---------------------------------------------------------

function peekKey(ctx, rs, pos) {
  return `${ctx.frame ? ctx.frame.match : 0}-${ctx.view ? ctx.view.round : 0}-${rs}:${pos}`;
}

/** The peek remembered at round seat rs, position pos (for this match and round). */
export function peekAt(ctx, rs, pos) {
  return ctx.peeks ? ctx.peeks.get(peekKey(ctx, rs, pos)) : undefined;
}

/** Another seat's recent peek at this place: {by, at}. */
export function eyedAt(ctx, rs, pos) {
  const e = ctx.eyed;
  if (!e || e.key !== peekKey(ctx, rs, pos)) return undefined;
  return Date.now() - e.at < PEEK_SHOW_MS ? e : undefined;
}

/**
 * Follow a table event: remember what this seat peeked at (the server sends the card
 * as ``event.seen`` to the peeker only), and move or forget what it knows when cards move.
 */
export function trackPowers(ctx, event, before = null) {
  if (!ctx.peeks) ctx.peeks = new Map();
  if (!event || event.kind !== "action" || !ctx.view || !ctx.view.round_view) return;
  const text = String(event.action);
  const [verb] = text.split(" ");
  const now = Date.now();
  if (verb === "power" && blockedByShield(event, before, ctx.view)) {
    event.blocked = true; // for the log's words; the attack changed nothing else
    return;
  }
  if (verb === "swap") {
    const rs = ctx.view.seating.indexOf(event.seat);
    ctx.peeks.delete(peekKey(ctx, rs, Number(text.split(" ")[1])));
    return;
  }
  if (verb !== "power") return;
  const power = parsePower(text);
  const t = power.targets;
  if (power.verb === "peek" && t.length === 1 && t[0][1] !== null) {
    if (event.seat === ctx.me && event.seen) {
      ctx.peeks.set(peekKey(ctx, t[0][0], t[0][1]), { card: event.seen, at: now });
      ctx.later(PEEK_SHOW_MS + 50);
    } else if (event.seat !== ctx.me) {
      ctx.eyed = { key: peekKey(ctx, t[0][0], t[0][1]), by: event.seat, at: now };
      ctx.later(PEEK_SHOW_MS + 50);
    }
    return;
  }
  if (power.verb === "swap" && t.length === 2 && t[0][1] !== null && t[1][1] !== null) {
    // Each card keeps what its knowers know (G7.2, G7.3): the memory moves with it.
    const a = peekKey(ctx, t[0][0], t[0][1]);
    const b = peekKey(ctx, t[1][0], t[1][1]);
    const pa = ctx.peeks.get(a);
    const pb = ctx.peeks.get(b);
    ctx.peeks.delete(a);
    ctx.peeks.delete(b);
    if (pa) ctx.peeks.set(b, { ...pa, at: 0 });
    if (pb) ctx.peeks.set(a, { ...pb, at: 0 });
    return;
  }
  if ((power.verb === "rows" || power.verb === "cols") && t.length === 2 && t[0][1] !== null && t[1][1] !== null) {
    // G7.4 7: whole lines change places; each card keeps its knowers.
    const [rows, cols] = String(ctx.view.round_view.layout).split("x").map(Number);
    const shape = { rows, cols };
    const a = linePlaces(power.verb, t[0][1], shape);
    const b = linePlaces(power.verb, t[1][1], shape);
    a.forEach((p, i) => {
      const ka = peekKey(ctx, t[0][0], p);
      const kb = peekKey(ctx, t[0][0], b[i]);
      const pa = ctx.peeks.get(ka);
      const pb = ctx.peeks.get(kb);
      ctx.peeks.delete(ka);
      ctx.peeks.delete(kb);
      if (pa) ctx.peeks.set(kb, { ...pa, at: 0 });
      if (pb) ctx.peeks.set(ka, { ...pb, at: 0 });
    });
    return;
  }
  // Powers that name no card place: nothing seen moves ("keep N" names a card of the offer).
  if (["keep", "draw2", "shield", "cancel", "add"].includes(power.verb)) return;
  // A shuffle, a gift, or a power this client does not know (whose targets may not be
  // places at all): forget what was seen in every layout it names.
  const known = CARD_VERBS.has(power.verb) || LAYOUT_VERBS.has(power.verb);
  for (const [rs, pos] of t) {
    for (const key of [...ctx.peeks.keys()]) {
      const whole = pos === null || !known;
      if (whole ? key.startsWith(peekKey(ctx, rs, "")) : key === peekKey(ctx, rs, pos)) ctx.peeks.delete(key);
    }
  }
}

// G7.4 5: the verbs a shield blocks (greenfelt.golf.powers.ATTACKS).
const ATTACKS = new Set(["place", "rows", "cols", "swap", "show", "shuffle", "add"]);

/** Whether a power action was an attack that a shield stopped (its target lost a shield). */
export function blockedByShield(event, before, after) {
  const power = parsePower(event.action);
  if (!ATTACKS.has(power.verb) || !before || !after) return false;
  const was = before.round_view && before.round_view.shields;
  const now = after.round_view && after.round_view.shields;
  if (!was || !now || before.round !== after.round) return false;
  const actor = after.seating.indexOf(event.seat);
  const victim = power.targets.map((t) => t[0]).find((rs) => rs !== actor);
  return victim !== undefined && now[victim] < was[victim];
}

/** The label of a card seen with a power. */
export function peekedLabel(card, showing) {
  return showing
    ? `, face down: you are looking at it now (${cardName(card)}), remember it`
    : ", face down: you looked at it with a power";
}
