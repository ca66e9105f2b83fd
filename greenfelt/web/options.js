// Every Golf option of /api/games, grouped the way people think of them, with
// friendly controls, the preset's defaults, and the impossible combinations
// explained before a table is created (mirroring the engine's own checks).
import { h } from "./util.js";

export const GROUPS = [
  {
    id: "setup",
    title: "Setup",
    blurb: "The cards each player gets, and what they see before play",
    options: [
      "layout",
      "decks",
      "jokers_per_deck",
      "initial_flips",
      "flip_constraint",
      "initial_peeks",
      "peek_constraint",
      "memory",
    ],
  },
  {
    id: "turns",
    title: "Turns",
    blurb: "What a player may do on a turn",
    options: ["flip_instead_of_draw", "flip_after_discard"],
  },
  {
    id: "ending",
    title: "Ending the round",
    blurb: "How a round closes",
    options: ["final_turns", "final_turns_stock_only", "knock", "remove_matched_lines"],
  },
  {
    id: "scoring",
    title: "Scoring",
    blurb: "What cards are worth and which equal cards cancel",
    options: [
      "values",
      "match",
      "negative_pairs_keep_value",
      "diagonal_pairs",
      "block_score",
      "joker_value",
      "joker_pair_value",
      "bonus_rank",
      "bonus_value",
      "queen_of_spades",
      "red_king",
    ],
  },
  {
    id: "specials",
    title: "Specials",
    blurb: "House rules for special layouts",
    options: [
      "four_in_two_columns",
      "four_kings_side",
      "straight_bonus",
      "shoot_the_moon",
      "four_of_a_kind_wins",
      "one_eyed_jacks_wild",
    ],
  },
  {
    id: "closer",
    title: "Closer",
    blurb: "A penalty or bonus for whoever ends the round",
    options: ["closer_rule", "closer_tie_counts_as_lowest", "closer_bonus"],
  },
  {
    id: "powers",
    title: "Card powers",
    blurb: "Cards from the stock that look, swap or shuffle",
    options: ["powers", "cutthroat", "jack_skips"],
  },
  { id: "match", title: "Match", blurb: "How long a match lasts", options: ["end", "tiebreak"] },
];

const LABELS = {
  layout: "Layout",
  decks: "Decks",
  jokers_per_deck: "Jokers",
  initial_flips: "Cards turned up at the start",
  flip_constraint: "Where the first cards are turned up",
  initial_peeks: "Cards peeked at the start",
  peek_constraint: "Which cards may be peeked",
  memory: "Memory",
  flip_instead_of_draw: "Flip instead of drawing",
  flip_after_discard: "Flip after discarding",
  final_turns: "Final turns",
  final_turns_stock_only: "Final turns from the stock only",
  knock: "Knocking",
  remove_matched_lines: "Matched lines leave the table",
  values: "Card values",
  joker_value: "Joker",
  joker_pair_value: "Two jokers together",
  bonus_rank: "Bonus card",
  bonus_value: "Bonus card is worth",
  queen_of_spades: "Queen of spades",
  red_king: "Red kings",
  match: "What cancels",
  negative_pairs_keep_value: "Negative pairs keep their value",
  diagonal_pairs: "Diagonal pairs",
  block_score: "Blocks of four",
  four_in_two_columns: "Four in two columns",
  four_kings_side: "Four kings on a side",
  straight_bonus: "Hole in one",
  shoot_the_moon: "Shoot the moon",
  four_of_a_kind_wins: "Four of a kind wins",
  one_eyed_jacks_wild: "One-eyed jacks are wild",
  closer_rule: "Closer's penalty",
  closer_tie_counts_as_lowest: "A tie counts as lowest",
  closer_bonus: "Closer's bonus",
  end: "Match length",
  tiebreak: "A tie for the win",
  powers: "Card powers",
  cutthroat: "Cutthroat kings",
  jack_skips: "Jacks skip a turn",
};

// One line each, in plain words (the server's help text is the fallback).
const HELP = {
  layout: "The shape of each player's cards.",
  decks: "How many decks are shuffled together; auto adds decks for more players.",
  jokers_per_deck: "Jokers are worth points off (usually −2).",
  initial_flips: "How many cards each player turns face up before the first turn.",
  flip_constraint: "Where those first face-up cards may be.",
  initial_peeks: "4-card golf: how many cards each player secretly looks at first.",
  peek_constraint: "4-card golf: any cards, or only the row nearest you.",
  memory: "4-card golf: a peeked card is shown for a moment, then you must remember it.",
  flip_instead_of_draw: "A turn may be just turning one of your cards face up.",
  flip_after_discard: "After throwing away a drawn card, turn one of your cards face up.",
  final_turns: "When someone's cards are all face up, everyone else has one more turn.",
  final_turns_stock_only: "During final turns nobody may take from the discard pile.",
  knock: "Instead of a turn, knock: everyone else has one more turn, then the round ends.",
  remove_matched_lines: "A matched line leaves the table at once and scores 0.",
  values: "What each card is worth; the lowest score wins.",
  match: "Which equal cards cancel to 0.",
  negative_pairs_keep_value: "A pair of 2s or jokers keeps its minus points instead of 0.",
  diagonal_pairs: "With pairs in a line: diagonal pairs cancel too (square layouts).",
  block_score: "Four equal cards in a 2×2 square score this together.",
  joker_value: "Points of one joker.",
  joker_pair_value: "What two matched jokers score together.",
  bonus_rank: "One rank is worth bonus points instead of its value.",
  bonus_value: "Points of a bonus card.",
  queen_of_spades: "A special value for the queen of spades.",
  red_king: "A special value for each red king.",
  four_in_two_columns: "Two columns of four equal cards: 0, and +10 to everyone else.",
  four_kings_side: "8-card: a row of four kings scores −16.",
  straight_bonus: "9-card: nine cards in a run score −12.",
  shoot_the_moon: "The worst possible layout scores 0 and everyone else takes the points.",
  four_of_a_kind_wins: "4-card: four equal cards win the whole match at once.",
  one_eyed_jacks_wild: "J♠ and J♥ match the card in their column.",
  closer_rule: "What the player who ends the round pays if they are not lowest.",
  closer_tie_counts_as_lowest: "A closer tied for lowest counts as lowest.",
  closer_bonus: "What the closer gains when they are lowest.",
  end: "Play a number of holes, or until someone reaches a score.",
  tiebreak: "Equal lowest totals share the win, or play one more round.",
  powers: "A power card drawn from the stock may be discarded to use its power instead of being kept; taken from the discard pile it is a plain card. Powers also allow knocking.",
  cutthroat: "A king drawn from the stock may be traded for another player's face-up card; they must keep the king (kings count 15).",
  jack_skips: "A discarded jack makes the next player lose their turn (jacks count 20).",
};

// What each choice means, shown under the control and updated as it changes.
const CHOICE_HELP = {
  powers: {
    off: "No powers: every card is just its value.",
    cambio:
      "Cambio (G7.2): J: look at one of your cards. Q: look at one of an opponent's cards. K: swap one of your cards with one of an opponent's, unseen. Joker: shuffle an opponent's cards.",
    bga: "Board Game Arena (G7.3): J: peek at one of your face-down cards. Q: peek at an opponent's face-down card. K: swap any two cards on the table, each keeping its face.",
    powers:
      "The extended set (G7.4): six cards, peek two, everything stays face down and only a knock ends the round; most ranks have a power (look, swap, shuffle, shield, take two…).",
  },
};

const CHOICE_LABELS = {
  layout: {
    "2x2": "4 cards · 2×2 closed golf",
    "2x3": "6 cards · 2×3",
    "3x3": "9 cards · 3×3",
    "2x4": "8 cards · 2×4",
    "2x5": "10 cards · 2×5",
    hand4: "4 cards in the hand",
  },
  flip_constraint: { any: "anywhere", same_column: "in one column", different_columns: "in different columns" },
  peek_constraint: { any: "any cards", nearest_row: "the row nearest you" },
  flip_after_discard: { auto: "the usual for the layout", no: "no", may: "may turn one up", must: "must turn one up" },
  knock: { auto: "the usual (on for 4-card)", on: "allowed", off: "not allowed" },
  closer_rule: {
    none: "none",
    penalty_10: "+10 unless lowest",
    penalty_20: "+20 unless lowest",
    add_lowest: "adds the lowest score",
    double_plus_5: "doubled, plus 5",
    take_highest: "takes the highest score",
    add_twice_players: "adds 2 × players",
  },
  closer_bonus: { none: "none", zero: "a positive score becomes 0", minus_players: "minus the number of players" },
  tiebreak: { share: "share the win", playoff: "play one more round" },
  powers: {
    off: "off",
    cambio: "cambio: J look, Q look, K swap, joker shuffle",
    bga: "Board Game Arena: J/Q peek, K swap any two",
    powers: "extended set: a power on most ranks",
  },
  decks: { auto: "auto", bga: "as Board Game Arena", 1: "1", 2: "2", 3: "3", 4: "4" },
  jokers_per_deck: { 0: "none", 2: "two per deck" },
  values: {
    standard: "standard: A 1, 2 −2, J Q 10, K 0",
    "wikihow-basic": "basic: A 1, 2 2, J Q 10, K 0",
    "wikihow-hard": "hard: J 11, Q 12, K 13",
    "jqk-0-12-13": "J 0, Q 12, K 13",
  },
  match: {
    auto: "auto",
    column: "columns",
    lines: "rows, columns and diagonals",
    adjacent_pairs: "adjacent pairs",
    "lines+adjacent_pairs": "lines and adjacent pairs",
    "column+adjacent_pairs": "columns and adjacent pairs",
    pairs_in_line: "pairs in a line (4-card)",
    any_pairs: "any pairs",
    none: "nothing cancels",
  },
  bonus_rank: {
    "": "none",
    A: "aces",
    2: "twos",
    3: "threes",
    4: "fours",
    5: "fives",
    6: "sixes",
    7: "sevens",
    8: "eights",
    9: "nines",
    10: "tens",
    J: "jacks",
    Q: "queens",
    K: "kings",
    one_eyed_jacks: "one-eyed jacks",
  },
};

// Options whose value may be "off" (null) or a number; the number suggested when turned on.
const OFF_NUMBER = { block_score: -20, queen_of_spades: 40, red_king: -1 };
const AUTO_NUMBER = { joker_value: -2, initial_flips: 2 };
const SMALL_NUMBERS = { initial_peeks: [0, 1, 2, 3, 4] };

export function optionLabel(name) {
  return LABELS[name] || name.replace(/_/g, " ");
}

export function choiceLabel(name, value) {
  const table = CHOICE_LABELS[name];
  const key = value === null ? "" : String(value);
  if (table && key in table) return table[key];
  if (typeof value === "boolean") return value ? "on" : "off";
  if (value === null) return "off";
  return String(value).replace(/_/g, " ");
}

/** The rule set a table plays, as option: value, from its {preset, set} and the catalogue. */
export function resolveRules(game, rules, catalogue) {
  if (game === "spades") {
    return { target: 500, discards: "face_up", memory: true, ...(rules && rules.set) };
  }
  const golf = catalogue.golf;
  const preset = (rules && rules.preset) || "six-card";
  const base = (golf.presets[preset] || golf.presets["six-card"]).options;
  const out = { ...base, ...(rules && rules.set) };
  out.preset = preset;
  return out;
}

function shapeOf(layout) {
  if (layout === "hand4") return { rows: 1, cols: 4, size: 4, grid: false, closed: false, square: false };
  const [rows, cols] = String(layout).split("x").map(Number);
  return { rows, cols, size: rows * cols, grid: true, closed: layout === "2x2", square: rows === cols };
}

function asBool(v) {
  if (typeof v === "boolean") return v;
  return ["on", "true", "yes", "1"].includes(String(v).toLowerCase());
}

function deckCount(o, players) {
  const shape = shapeOf(o.layout);
  if (o.decks !== "auto" && o.decks !== "bga") return Number(o.decks);
  if (shape.size === 4) return players < 8 ? 1 : 2;
  if (shape.size === 9) return players <= 3 ? 1 : players <= 6 ? 2 : 3;
  if (o.decks === "bga") return players <= 5 ? 1 : 2;
  return players <= 3 ? 1 : players <= 7 ? 2 : 3;
}

/**
 * What cannot work in option set ``o`` for ``players`` players, as
 * [{option, text, fix: {option: value}}], before asking the server.
 */
export function problems(o, players) {
  const out = [];
  const shape = shapeOf(o.layout);
  const layoutName = choiceLabel("layout", o.layout);
  const add = (option, text, fix) => out.push({ option, text, fix });
  const knocking = o.knock === "auto" ? shape.closed || !shape.grid : o.knock === "on";
  const closesByLayout = shape.grid && !shape.closed;
  let flips = 0;
  if (o.initial_flips !== "auto") {
    flips = Number(o.initial_flips);
    if (!shape.grid || shape.closed) {
      add("initial_flips", `${layoutName}: cards are not turned up at the start (players peek or hold them).`, { initial_flips: "auto" });
    } else if (!(Number.isInteger(flips) && flips >= 0 && flips < shape.size)) {
      add("initial_flips", `Turn up between 0 and ${shape.size - 1} cards at the start.`, { initial_flips: "auto" });
    }
  } else if (shape.grid && !shape.closed) {
    flips = o.layout === "3x3" ? 3 : 2;
  }
  if (o.flip_constraint === "different_columns" && flips > shape.cols) {
    add("flip_constraint", `${flips} cards cannot be in different columns of a layout with ${shape.cols} columns.`, { flip_constraint: "any" });
  }
  if (o.flip_constraint === "same_column" && flips > shape.rows) {
    add("flip_constraint", `${flips} cards cannot fit in one column of ${shape.rows} cards.`, { flip_constraint: "any" });
  }
  const peeks = Number(o.initial_peeks);
  if (!(Number.isInteger(peeks) && peeks >= 0 && peeks <= 4)) {
    add("initial_peeks", "Peek at 0 to 4 cards.", { initial_peeks: 2 });
  }
  if (o.peek_constraint === "nearest_row" && peeks > 2) {
    add("peek_constraint", "The nearest row has only 2 cards: peek at 2 at most.", { initial_peeks: 2 });
  }
  if (asBool(o.flip_instead_of_draw) && (!shape.grid || shape.closed)) {
    add("flip_instead_of_draw", `${layoutName}: cards never turn face up, so a turn cannot be a flip.`, { flip_instead_of_draw: false });
  }
  if ((o.flip_after_discard === "may" || o.flip_after_discard === "must") && (!shape.grid || shape.closed)) {
    add("flip_after_discard", `${layoutName}: cards never turn face up, so there is no flip after a discard.`, { flip_after_discard: "auto" });
  }
  if (!knocking && !closesByLayout) {
    add("knock", `${layoutName}: a round ends only by a knock, so knocking must be allowed.`, { knock: "auto" });
  }
  const matchers = String(o.match || "auto").split("+");
  if (!shape.grid && !matchers.every((m) => m === "any_pairs" || m === "auto")) {
    add("match", "Cards in the hand have no rows or columns: only “any pairs” can cancel.", { match: "any_pairs" });
  }
  if (asBool(o.diagonal_pairs) && o.match !== "pairs_in_line") {
    add("diagonal_pairs", "Diagonal pairs go with “pairs in a line”.", { diagonal_pairs: false });
  } else if (asBool(o.diagonal_pairs) && !shape.square) {
    add("diagonal_pairs", `${layoutName} has no diagonals.`, { diagonal_pairs: false });
  }
  if (asBool(o.remove_matched_lines)) {
    if (!shape.grid || shape.closed) {
      add("remove_matched_lines", `${layoutName}: there are no face-up lines to remove.`, { remove_matched_lines: false });
    } else if (!matchers.some((m) => m === "column" || m === "lines")) {
      add("remove_matched_lines", "Removing matched lines needs columns or lines to cancel.", { remove_matched_lines: false });
    }
  }
  if ((o.block_score !== null && o.block_score !== undefined) && !shape.grid) {
    add("block_score", "Blocks need a grid of cards.", { block_score: null });
  }
  if (asBool(o.four_in_two_columns) && !["2x3", "2x4", "2x5"].includes(o.layout)) {
    add("four_in_two_columns", "Four in two columns is for the 6-, 8- and 10-card layouts.", { four_in_two_columns: false });
  }
  if (asBool(o.four_kings_side) && o.layout !== "2x4") {
    add("four_kings_side", "Four kings on a side is for the 8-card layout.", { four_kings_side: false });
  }
  if (asBool(o.straight_bonus) && o.layout !== "3x3") {
    add("straight_bonus", "Hole in one is for the 9-card layout.", { straight_bonus: false });
  }
  if (asBool(o.four_of_a_kind_wins) && shape.size !== 4) {
    add("four_of_a_kind_wins", "Four of a kind wins is for the 4-card games.", { four_of_a_kind_wins: false });
  }
  if (asBool(o.one_eyed_jacks_wild) && !shape.grid) {
    add("one_eyed_jacks_wild", "Wild jacks match within a column; a hand has none.", { one_eyed_jacks_wild: false });
  }
  if (asBool(o.final_turns_stock_only) && !asBool(o.final_turns) && !knocking) {
    add("final_turns_stock_only", "There are no final turns to restrict.", { final_turns_stock_only: false });
  }
  const powersOn = (o.powers && o.powers !== "off") || asBool(o.cutthroat);
  if (powersOn && !shape.grid) {
    add("powers", "Card powers point at places in a layout; cards held in the hand have none.", { powers: "off", cutthroat: false });
  }
  const jokers = Number(o.jokers_per_deck);
  if (jokers !== 0 && jokers !== 2) add("jokers_per_deck", "Use 0 or 2 jokers per deck.", { jokers_per_deck: 0 });
  if (o.decks !== "auto" && o.decks !== "bga") {
    const d = Number(o.decks);
    if (!(Number.isInteger(d) && d >= 1 && d <= 8)) add("decks", "Use 1 to 8 decks (or auto).", { decks: "auto" });
  }
  if (players >= 2 && out.every((p) => p.option !== "decks")) {
    const decks = deckCount(o, players);
    const have = decks * (52 + (jokers === 2 ? 2 : 0));
    const need = players * shape.size + 2;
    if (have < need) {
      add("decks", `${decks} deck${decks > 1 ? "s" : ""} cannot deal ${players} layouts of ${shape.size} plus a discard and a stock: use more decks.`, { decks: "auto" });
    }
  }
  const end = String(o.end || "");
  if (!/^(open|holes:[1-9]\d*|target:[1-9]\d*)$/.test(end)) {
    add("end", "Play at least 1 hole, or to a target above 0.", { end: "holes:9" });
  }
  for (const name of ["joker_value", "joker_pair_value", "bonus_value", "block_score", "queen_of_spades", "red_king"]) {
    const v = o[name];
    if (v === null || v === "auto" || v === undefined) continue;
    if (!Number.isInteger(Number(v)) || String(v).trim() === "") add(name, `${optionLabel(name)}: use a whole number.`, null);
  }
  return out;
}

/** Normalise a value for comparison with the preset's. */
export function same(a, b) {
  const norm = (v) => (v === null || v === undefined ? "" : String(v));
  return norm(a) === norm(b);
}

/**
 * A control for Golf option ``spec`` (from /api/games) with value ``value``;
 * ``change(newValue)`` is called on every edit.
 */
export function optionControl(spec, value, presetValue, change) {
  const name = spec.name;
  const id = `opt-${name}`;
  const helpId = `${id}-help`;
  const common = { id, "aria-describedby": helpId, "data-option": name };
  let control;
  const meaning = CHOICE_HELP[name] ? h("span", { class: "choice-help", "data-choice-help": name }, choiceHelp(name, value)) : null;
  const select = (entries, current) =>
    h(
      "select",
      {
        ...common,
        onchange: (e) => {
          if (meaning) meaning.textContent = choiceHelp(name, parseChoice(e.target.value));
          change(parseChoice(e.target.value));
        },
      },
      entries.map(([v, label]) => h("option", { value: v, selected: String(current) === String(v) }, label)),
    );
  if (spec.choices && spec.choices.length) {
    control = select(spec.choices.map((c) => [c, choiceLabel(name, c)]), value);
  } else if (typeof presetValue === "boolean") {
    control = h(
      "label",
      { class: "switch" },
      h("input", {
        ...common,
        type: "checkbox",
        role: "switch",
        checked: asBool(value),
        onchange: (e) => change(e.target.checked),
      }),
      h("span", { class: "switch-track", "aria-hidden": "true" }),
      h("span", { class: "switch-text" }, asBool(value) ? "on" : "off"),
    );
    control.querySelector("input").addEventListener("change", (e) => {
      control.querySelector(".switch-text").textContent = e.target.checked ? "on" : "off";
    });
  } else if (name === "decks" || name === "jokers_per_deck" || name in SMALL_NUMBERS) {
    const keys = name === "decks" ? ["auto", "bga", 1, 2, 3, 4] : name === "jokers_per_deck" ? [0, 2] : SMALL_NUMBERS[name];
    control = select(keys.map((k) => [k, choiceLabel(name, k)]), value);
  } else if (name === "bonus_rank") {
    const keys = Object.keys(CHOICE_LABELS.bonus_rank);
    control = h(
      "select",
      { ...common, onchange: (e) => change(e.target.value === "" ? null : e.target.value) },
      keys.map((k) => h("option", { value: k, selected: String(value ?? "") === k }, CHOICE_LABELS.bonus_rank[k])),
    );
  } else if (name === "values" || name === "match") {
    const table = CHOICE_LABELS[name];
    const known = String(value) in table;
    const text = h("input", {
      type: "text",
      class: "custom-text",
      "aria-label": `${optionLabel(name)}, custom`,
      value: known ? "" : String(value),
      placeholder: name === "values" ? "e.g. Q:13,2:2" : "e.g. column+adjacent_pairs",
      hidden: known,
      oninput: (e) => change(e.target.value.trim()),
    });
    const sel = h(
      "select",
      {
        ...common,
        onchange: (e) => {
          if (e.target.value === "__custom") {
            text.hidden = false;
            text.focus();
          } else {
            text.hidden = true;
            change(e.target.value);
          }
        },
      },
      Object.entries(table).map(([k, label]) => h("option", { value: k, selected: known && String(value) === k }, label)),
      h("option", { value: "__custom", selected: !known }, "custom…"),
    );
    control = h("span", { class: "combo" }, sel, text);
  } else if (name === "end") {
    control = endControl(value, change, common);
  } else if (name in OFF_NUMBER || name in AUTO_NUMBER) {
    const offWord = name in OFF_NUMBER ? "off" : "auto";
    const isOff = value === null || value === "auto" || value === undefined;
    const num = h("input", {
      type: "number",
      step: "1",
      class: "num",
      "aria-label": `${optionLabel(name)} points`,
      value: isOff ? (name in OFF_NUMBER ? OFF_NUMBER[name] : AUTO_NUMBER[name]) : value,
      hidden: isOff,
      oninput: (e) => change(e.target.value === "" ? "" : Number(e.target.value)),
    });
    const sel = h(
      "select",
      {
        ...common,
        onchange: (e) => {
          const on = e.target.value === "set";
          num.hidden = !on;
          change(on ? Number(num.value) : name in OFF_NUMBER ? null : "auto");
        },
      },
      h("option", { value: "off", selected: isOff }, offWord),
      h("option", { value: "set", selected: !isOff }, name === "initial_flips" ? "choose…" : "points…"),
    );
    control = h("span", { class: "combo" }, sel, num);
  } else {
    control = h("input", {
      ...common,
      type: "number",
      step: "1",
      class: "num",
      value: value ?? "",
      oninput: (e) => change(e.target.value === "" ? null : Number(e.target.value)),
    });
  }
  return h(
    "div",
    { class: "option", "data-row": name },
    h(
      "div",
      { class: "option-head" },
      h("label", { for: id }, optionLabel(name)),
      spec.rule ? h("span", { class: "rule-id", title: `RULES.md ${spec.rule}` }, spec.rule) : null,
    ),
    h("div", { class: "option-control" }, control),
    h("p", { class: "option-help", id: helpId }, HELP[name] || capitalise(spec.help || ""), meaning ? " " : null, meaning),
    h("p", { class: "option-problem", role: "alert", hidden: true }),
  );
}

/** What a choice of option ``name`` means, or "". */
export function choiceHelp(name, value) {
  const table = CHOICE_HELP[name];
  return (table && table[String(value)]) || "";
}

function endControl(value, change, common) {
  const text = String(value || "holes:9");
  const [kind, number] = text.includes(":") ? text.split(":") : [text, ""];
  const num = h("input", {
    type: "number",
    min: "1",
    step: "1",
    class: "num",
    "aria-label": "number of holes or target score",
    value: number || (kind === "target" ? 100 : 9),
    hidden: kind === "open",
    oninput: () => emit(),
  });
  const unit = h("span", { class: "unit" }, kind === "target" ? "points" : "holes");
  unit.hidden = kind === "open";
  const sel = h(
    "select",
    { ...common, onchange: () => emit() },
    h("option", { value: "holes", selected: kind === "holes" }, "a number of holes"),
    h("option", { value: "target", selected: kind === "target" }, "until someone reaches"),
    h("option", { value: "open", selected: kind === "open" }, "open-ended"),
  );
  function emit() {
    const k = sel.value;
    num.hidden = k === "open";
    unit.hidden = k === "open";
    unit.textContent = k === "target" ? "points" : "holes";
    change(k === "open" ? "open" : `${k}:${num.value}`);
  }
  return h("span", { class: "combo" }, sel, num, unit);
}

function parseChoice(value) {
  if (/^-?\d+$/.test(value)) return Number(value);
  return value;
}

function capitalise(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".") : "";
}

// Spades options: /api/games lists only the preset, so their controls live here (RULES S2.4, S6.2).
export const SPADES_OPTIONS = [
  { name: "target", label: "Play to", help: "The first to reach this score at the end of a hand wins.", rule: "S6.2", value: 500 },
  {
    name: "discards",
    label: "Discarded cards",
    help: "Face up: both players see every discard. Face down: only the drawer sees them.",
    rule: "S2.4",
    value: "face_up",
    choices: { face_up: "face up (as the rules say)", face_down: "face down (common online)" },
  },
  { name: "memory", label: "Memory", help: "On: only the top discard is shown; remember the rest.", rule: "S2.4", value: true },
];

/** Human words for a rule set, for the lobby's table list and the table's title. */
export function describeRules(game, rules, catalogue) {
  if (game === "spades") {
    const o = resolveRules(game, rules, catalogue);
    return `Spades · to ${o.target}`;
  }
  const o = resolveRules(game, rules, catalogue);
  const end = String(o.end);
  const length = end.startsWith("holes:") ? `${end.slice(6)} hole${end.slice(6) === "1" ? "" : "s"}` : end.startsWith("target:") ? `to ${end.slice(7)}` : "open";
  return `Golf · ${o.preset} · ${length}`;
}
