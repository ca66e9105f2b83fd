// Cards drawn in HTML and CSS: legible corners, a big pip, red and black, a clear back.
import { h } from "./util.js";

const SUITS = {
  "♠": { name: "spades", red: false, order: 0 },
  "♥": { name: "hearts", red: true, order: 1 },
  "♣": { name: "clubs", red: false, order: 2 },
  "♦": { name: "diamonds", red: true, order: 3 },
};
const RANK_WORDS = { A: "ace", J: "jack", Q: "queen", K: "king" };
const RANK_POWER = { A: 14, K: 13, Q: 12, J: 11 };

/** "K♠" -> {rank: "K", suit: "♠", ...}; "JK" -> joker; "??" / null -> null. */
export function parseCard(text) {
  if (!text || text === "??") return null;
  if (text === "JK") return { text, joker: true, rank: "JK", suit: "", red: true };
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  const info = SUITS[suit];
  if (!info) return null;
  return { text, rank, suit, red: info.red, suitName: info.name, order: info.order };
}

/** "king of spades", "10 of hearts", "joker". */
export function cardName(text) {
  const card = parseCard(text);
  if (!card) return "face-down card";
  if (card.joker) return "joker";
  return `${RANK_WORDS[card.rank] || card.rank} of ${card.suitName}`;
}

export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function rankPower(rank) {
  return RANK_POWER[rank] || Number(rank) || 0;
}

/** Sort cards for a hand: by suit (spades, hearts, clubs, diamonds), high to low. */
export function sortHand(texts) {
  return [...texts].sort((a, b) => {
    const x = parseCard(a);
    const y = parseCard(b);
    if (!x || !y) return 0;
    if (x.order !== y.order) return x.order - y.order;
    return rankPower(y.rank) - rankPower(x.rank);
  });
}

const PIPS = {
  A: [[50, 50]],
  2: [[50, 22], [50, 78]],
  3: [[50, 20], [50, 50], [50, 80]],
  4: [[30, 22], [70, 22], [30, 78], [70, 78]],
  5: [[30, 22], [70, 22], [50, 50], [30, 78], [70, 78]],
  6: [[30, 22], [70, 22], [30, 50], [70, 50], [30, 78], [70, 78]],
  7: [[30, 20], [70, 20], [50, 35], [30, 50], [70, 50], [30, 80], [70, 80]],
  8: [[30, 20], [70, 20], [50, 35], [30, 50], [70, 50], [50, 65], [30, 80], [70, 80]],
  9: [[30, 18], [70, 18], [30, 39], [70, 39], [50, 50], [30, 61], [70, 61], [30, 82], [70, 82]],
  10: [[30, 18], [70, 18], [50, 30], [30, 40], [70, 40], [30, 60], [70, 60], [50, 70], [30, 82], [70, 82]],
};

function face(card) {
  if (card.joker) {
    return [
      h("span", { class: "corner tl", "aria-hidden": "true" }, h("span", { class: "rank" }, "★")),
      h("span", { class: "center joker-mark", "aria-hidden": "true" }, h("span", null, "JOKER")),
      h("span", { class: "corner br", "aria-hidden": "true" }, h("span", { class: "rank" }, "★")),
    ];
  }
  const corner = (where) =>
    h(
      "span",
      { class: `corner ${where}`, "aria-hidden": "true" },
      h("span", { class: "rank" }, card.rank),
      h("span", { class: "suit" }, card.suit),
    );
  let center;
  if (card.rank === "J" || card.rank === "Q" || card.rank === "K") {
    center = h(
      "span",
      { class: "center court", "aria-hidden": "true" },
      h("span", { class: "court-rank" }, card.rank),
      h("span", { class: "court-suit" }, card.suit),
    );
  } else {
    const pips = PIPS[card.rank] || [[50, 50]];
    center = h(
      "span",
      { class: `center pips${card.rank === "A" ? " ace" : ""}`, "aria-hidden": "true" },
      pips.map(([x, y]) =>
        h("span", { class: `pip${y > 55 ? " flip" : ""}`, style: { left: `${x}%`, top: `${y}%` } }, card.suit),
      ),
    );
  }
  return [corner("tl"), center, corner("br")];
}

/**
 * A card element. ``text``: "K♠", "??" (face down), null (an empty place).
 * opts: {button, action, label, key, classes, known (face-down but known to you), knownLabel,
 * title, pressed (aria-pressed of a button: "true"/"false")}
 */
export function renderCard(text, opts = {}) {
  const card = parseCard(text);
  const classes = ["card"];
  let label;
  let body = [];
  if (text === null || text === undefined) {
    classes.push("empty");
    label = "empty place";
  } else if (!card) {
    classes.push("back");
    label = "Face-down card";
    body = [h("span", { class: "back-pattern", "aria-hidden": "true" })];
  } else {
    classes.push("face", card.red ? "red" : "black");
    if (card.joker) classes.push("joker");
    label = capital(cardName(text));
    body = face(card);
    if (opts.known) {
      classes.push("known");
      label += opts.knownLabel || ", face down (you have seen it)";
      body.push(h("span", { class: "known-tag", "aria-hidden": "true" }, "◉"));
    }
  }
  if (opts.classes) classes.push(...opts.classes);
  const fullLabel = opts.label ? `${label}${opts.label}` : label;
  const attrs = {
    class: classes.join(" "),
    "aria-label": fullLabel,
    "data-card": card ? text : undefined,
    "data-key": opts.key,
    title: opts.title,
  };
  if (opts.button) {
    attrs.type = "button";
    attrs["data-action"] = opts.action;
    attrs.onclick = opts.onclick;
    attrs.disabled = opts.disabled;
    attrs["aria-pressed"] = opts.pressed;
    return h("button", attrs, body);
  }
  attrs.role = "img";
  return h("div", attrs, body);
}

/** A pile of face-down cards with a count (the stock). */
export function renderStack(count, opts = {}) {
  const layers = Math.min(4, Math.max(0, Math.ceil(count / 12)));
  const top = count > 0 ? renderCard("??", { ...opts, label: opts.label }) : renderCard(null, opts);
  return h(
    "div",
    { class: "stack" },
    Array.from({ length: layers }, (_, i) =>
      h("span", { class: "stack-layer", "aria-hidden": "true", style: { transform: `translate(${-(i + 1) * 2}px, ${(i + 1) * 2}px)` } }),
    ),
    top,
  );
}
