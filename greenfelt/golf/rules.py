"""Golf rules as data: every option of RULES G1-G6, G8, G9, and the presets (G10).

:class:`GolfRules` is a frozen value, validated on construction. Options that
depend on the layout (how many cards to flip, whether knocking is on, ...) may be
``"auto"``; the resolved value is available as a property, so ``six-card`` with
``layout=3x3`` flips three cards as G1.7 says without anyone restating it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from greenfelt.cards import CARDS, JOKER, Rank, Suit
from greenfelt.errors import NotationError, RulesError
from greenfelt.golf.layout import LAYOUTS, Shape, shape_of

__all__ = [
    "MATCHERS",
    "OPTIONS",
    "PRESETS",
    "VALUE_TABLES",
    "GolfRules",
    "OptionSpec",
    "find_preset",
    "rules_from_json",
    "rules_to_json",
]

# G5.1: the named value tables, rank -> points (rank 0 is the joker).
_FACE = {r: r for r in range(3, 11)}
VALUE_TABLES: Mapping[str, Mapping[int, int]] = MappingProxyType(
    {
        "standard": MappingProxyType({1: 1, 2: -2, **_FACE, 11: 10, 12: 10, 13: 0, 0: -2}),
        "wikihow-basic": MappingProxyType({1: 1, 2: 2, **_FACE, 11: 10, 12: 10, 13: 0, 0: -2}),
        "wikihow-hard": MappingProxyType({1: 1, 2: 2, **_FACE, 11: 11, 12: 12, 13: 13, 0: -2}),
        "jqk-0-12-13": MappingProxyType({1: 1, 2: 2, **_FACE, 11: 0, 12: 12, 13: 13, 0: -2}),
    }
)

# G5.3: matchers. The first group may be combined with '+' (their zeroed cards
# are united); the pairing matchers choose a pairing and stand alone.
UNION_MATCHERS = ("column", "lines", "adjacent_pairs")
PAIRING_MATCHERS = ("pairs_in_line", "any_pairs")
MATCHERS = (*UNION_MATCHERS, *PAIRING_MATCHERS, "none")

CLOSER_RULES = (
    "none",
    "penalty_10",
    "penalty_20",
    "add_lowest",
    "double_plus_5",
    "take_highest",
    "add_twice_players",
)
CLOSER_BONUSES = ("none", "zero", "minus_players")
ONE_EYED_JACKS = "one_eyed_jacks"
_RANK_NAMES = {"A": 1, "J": 11, "Q": 12, "K": 13, "JK": 0, "T": 10}


def _parse_rank(text: str) -> int:
    t = text.strip().upper()
    if t in _RANK_NAMES:
        return _RANK_NAMES[t]
    if t.isdigit() and 2 <= int(t) <= 10:
        return int(t)
    raise NotationError(f"{text!r} is not a rank: expected A, 2-10, J, Q, K or JK")


def _rank_name(rank: int) -> str:
    return Rank(rank).symbol


@dataclass(frozen=True)
class OptionSpec:
    """How an option is written, what it may be, and what it means (for `rules golf`)."""

    name: str
    rule: str
    help: str
    choices: tuple[str, ...] = ()


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("layout", "G1.2", "shape of each player's cards", LAYOUTS),
    OptionSpec("decks", "G1.3", "decks shuffled together: auto (wikiHow table), bga, or a number"),
    OptionSpec("jokers_per_deck", "G1.4", "jokers added to each deck (0 or 2)"),
    OptionSpec(
        "initial_flips", "G1.7", "cards each player turns face up before play (auto: 2; 3 on 3x3)"
    ),
    OptionSpec(
        "flip_constraint",
        "G1.7",
        "where the initial flips may be",
        ("any", "same_column", "different_columns"),
    ),
    OptionSpec(
        "initial_peeks",
        "G1.7",
        "cards each player privately looks at before play in 2x2 closed golf",
    ),
    OptionSpec(
        "peek_constraint",
        "G1.7",
        "which cards may be peeked: any, or only the row nearest the player",
        ("any", "nearest_row"),
    ),
    OptionSpec(
        "flip_instead_of_draw",
        "G2.1",
        "a turn may be flipping one of your face-down cards instead of drawing",
    ),
    OptionSpec(
        "flip_after_discard",
        "G2.2",
        "after discarding a drawn card, turn a face-down card up (auto: may on 6/8/10-card)",
        ("auto", "no", "may", "must"),
    ),
    OptionSpec(
        "final_turns", "G3.1", "after a layout is all face up, everyone else gets one more turn"
    ),
    OptionSpec(
        "final_turns_stock_only", "G3.2", "during final turns nobody may take from the discard pile"
    ),
    OptionSpec(
        "remove_matched_lines",
        "G3.5",
        "a matched line of face-up cards leaves the table at once and scores 0",
    ),
    OptionSpec(
        "knock",
        "G4.1",
        "a player may knock instead of a turn (auto: on for 2x2 and hand4)",
        ("auto", "on", "off"),
    ),
    OptionSpec(
        "values",
        "G5.1",
        "card values: standard, wikihow-basic, wikihow-hard, jqk-0-12-13, or RANK:POINTS,... over standard",
    ),
    OptionSpec("joker_value", "G5.1", "points of a joker (auto: the value table's, -2)"),
    OptionSpec("joker_pair_value", "G5.1", "what two matched jokers score together"),
    OptionSpec(
        "bonus_rank",
        "G5.1",
        "a rank (or one_eyed_jacks) worth bonus_value instead of its value (off)",
    ),
    OptionSpec("bonus_value", "G5.1", "points of a bonus_rank card"),
    OptionSpec("queen_of_spades", "G5.1", "points of the queen of spades (off: her normal value)"),
    OptionSpec("red_king", "G5.1", "points of each red king (off: its normal value)"),
    OptionSpec(
        "match",
        "G5.3",
        "which equal cards cancel: column, lines, adjacent_pairs (combine with +), pairs_in_line, any_pairs, none; auto: column (any_pairs in hand4)",
    ),
    OptionSpec(
        "negative_pairs_keep_value", "G5.3", "a match of negative cards keeps its negative total"
    ),
    OptionSpec("diagonal_pairs", "G5.3", "with pairs_in_line, diagonal pairs cancel too"),
    OptionSpec(
        "block_score",
        "G5.4",
        "four equal cards in a 2x2 square score this together (off, BGA -20, Wikipedia -25)",
    ),
    OptionSpec(
        "four_in_two_columns",
        "G5.5",
        "two adjacent columns of four equal cards: 0 and +10 to every other player",
    ),
    OptionSpec("four_kings_side", "G5.6", "2x4: a row of four kings scores -16"),
    OptionSpec(
        "straight_bonus", "G5.6", "3x3: nine cards of consecutive ranks score -12 (hole in one)"
    ),
    OptionSpec(
        "shoot_the_moon",
        "G5.6",
        "a layout scoring the maximum possible scores 0 and everyone else adds that maximum",
    ),
    OptionSpec(
        "four_of_a_kind_wins", "G5.6", "2x2/hand4: four equal cards win the whole match at once"
    ),
    OptionSpec(
        "one_eyed_jacks_wild", "G5.6", "J♠ and J♥ match the card next to them in their column"
    ),
    OptionSpec(
        "closer_rule", "G6", "penalty for a closer or knocker who is not lowest", CLOSER_RULES
    ),
    OptionSpec("closer_tie_counts_as_lowest", "G6", "a closer tied for lowest counts as lowest"),
    OptionSpec("closer_bonus", "G6", "bonus for a closer or knocker who is lowest", CLOSER_BONUSES),
    OptionSpec(
        "powers",
        "G7",
        "card powers: off, cambio (Malaysian J/Q/K/joker), bga (Board Game Arena J/Q/K), "
        "powers (the extended set: every rank, cards stay face down)",
        ("off", "cambio", "bga", "powers"),
    ),
    OptionSpec(
        "cutthroat",
        "G7.5",
        "a king from the stock may be swapped for another player's face-up card (kings 15)",
    ),
    OptionSpec(
        "jack_skips", "G7.6", "a discarded jack makes the next player lose their turn (jacks 20)"
    ),
    OptionSpec("memory", "G8.2", "closed golf: face-down cards are not shown again after the peek"),
    OptionSpec("end", "G9.1", "when a match ends: holes:N, target:P, or open"),
    OptionSpec(
        "tiebreak",
        "G9.2",
        "equal lowest totals share the win, or play one more round among them",
        ("share", "playoff"),
    ),
)
_SPEC = {spec.name: spec for spec in OPTIONS}


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("on", "true", "yes", "1"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("off", "false", "no", "0"):
        return False
    raise RulesError(f"option {name}: expected on or off, got {value!r}")


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise RulesError(f"option {name}: expected a number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise RulesError(f"option {name}: expected a whole number, got {value!r}")


def _as_optional_int(name: str, value: Any) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("off", "none", "")):
        return None
    return _as_int(name, value)


def _as_choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if isinstance(value, bool) and set(choices) >= {"on", "off"}:
        return "on" if value else "off"
    if isinstance(value, str) and value.strip().lower() in choices:
        return value.strip().lower()
    raise RulesError(f"option {name}: {value!r} is not one of {', '.join(choices)}")


def _as_values(value: Any) -> str | tuple[tuple[int, int], ...]:
    """A value table name, or rank overrides on top of `standard` (G5.1)."""
    if isinstance(value, str) and value.strip().lower() in VALUE_TABLES:
        return value.strip().lower()
    items: list[tuple[Any, Any]]
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, str) and ":" in value:
        items = [tuple(part.split(":", 1)) for part in value.split(",") if part.strip()]  # type: ignore[misc]
    elif isinstance(value, tuple | list) and all(isinstance(p, list | tuple) for p in value):
        items = [(p[0], p[1]) for p in value]
    else:
        raise RulesError(
            f"option values: {value!r} is neither a table ({', '.join(VALUE_TABLES)}) "
            "nor RANK:POINTS pairs such as Q:13,2:2"
        )
    table: dict[int, int] = {}
    for rank, points in items:
        try:
            r = rank if isinstance(rank, int) else _parse_rank(str(rank))
        except NotationError as error:
            raise RulesError(f"option values: {error}") from None
        table[r] = _as_int(f"values[{rank}]", points)
    return tuple(sorted(table.items()))


def _as_end(value: Any) -> str:
    text = str(value).strip().lower()
    if text == "open":
        return text
    kind, _, number = text.partition(":")
    if kind in ("holes", "target") and number.isdigit() and int(number) > 0:
        return f"{kind}:{int(number)}"
    raise RulesError(f"option end: {value!r} is not holes:N, target:P or open (e.g. holes:9)")


def _as_decks(value: Any) -> str | int:
    if isinstance(value, str) and value.strip().lower() in ("auto", "bga"):
        return value.strip().lower()
    number = _as_int("decks", value)
    if not 1 <= number <= 8:
        raise RulesError(f"option decks: {number} is not between 1 and 8 (or auto, bga)")
    return number


def _as_bonus_rank(value: Any) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("off", "none")):
        return None
    text = str(value).strip()
    if text.lower() in (ONE_EYED_JACKS, "one-eyed-jacks"):
        return ONE_EYED_JACKS
    try:
        return _rank_name(_parse_rank(text))
    except NotationError as error:
        raise RulesError(f"option bonus_rank: {error} (or one_eyed_jacks)") from None


def _as_match(value: Any) -> str:
    text = str(value).strip().lower().replace(" ", "")
    if text == "auto":
        return text
    parts = text.split("+")
    for part in parts:
        if part not in MATCHERS:
            raise RulesError(f"option match: {part!r} is not one of {', '.join(MATCHERS)}")
    if len(parts) > 1 and any(p not in UNION_MATCHERS for p in parts):
        raise RulesError(
            f"option match: only {', '.join(UNION_MATCHERS)} can be combined with '+' ({text!r})"
        )
    if len(set(parts)) != len(parts):
        raise RulesError(f"option match: {text!r} names a matcher twice")
    return "+".join(parts)


_CONVERTERS: dict[str, Any] = {
    "layout": lambda v: _as_choice("layout", v, LAYOUTS),
    "decks": _as_decks,
    "jokers_per_deck": lambda v: _as_int("jokers_per_deck", v),
    "initial_flips": lambda v: "auto" if str(v).lower() == "auto" else _as_int("initial_flips", v),
    "flip_constraint": lambda v: _as_choice("flip_constraint", v, _SPEC["flip_constraint"].choices),
    "initial_peeks": lambda v: _as_int("initial_peeks", v),
    "peek_constraint": lambda v: _as_choice("peek_constraint", v, _SPEC["peek_constraint"].choices),
    "flip_after_discard": lambda v: _as_choice(
        "flip_after_discard", v, _SPEC["flip_after_discard"].choices
    ),
    "knock": lambda v: _as_choice("knock", v, _SPEC["knock"].choices),
    "values": _as_values,
    "joker_value": lambda v: "auto" if str(v).lower() == "auto" else _as_int("joker_value", v),
    "joker_pair_value": lambda v: _as_int("joker_pair_value", v),
    "bonus_rank": _as_bonus_rank,
    "bonus_value": lambda v: _as_int("bonus_value", v),
    "queen_of_spades": lambda v: _as_optional_int("queen_of_spades", v),
    "red_king": lambda v: _as_optional_int("red_king", v),
    "match": _as_match,
    "block_score": lambda v: _as_optional_int("block_score", v),
    "closer_rule": lambda v: _as_choice("closer_rule", v, CLOSER_RULES),
    "closer_bonus": lambda v: _as_choice("closer_bonus", v, CLOSER_BONUSES),
    "end": _as_end,
    "powers": lambda v: _as_choice("powers", v, ("off", "cambio", "bga", "powers")),
    "tiebreak": lambda v: _as_choice("tiebreak", v, _SPEC["tiebreak"].choices),
}
_BOOLEAN_OPTIONS = (
    "flip_instead_of_draw",
    "final_turns",
    "final_turns_stock_only",
    "remove_matched_lines",
    "negative_pairs_keep_value",
    "diagonal_pairs",
    "four_in_two_columns",
    "four_kings_side",
    "straight_bonus",
    "shoot_the_moon",
    "four_of_a_kind_wins",
    "one_eyed_jacks_wild",
    "closer_tie_counts_as_lowest",
    "memory",
    "cutthroat",
    "jack_skips",
)
for _name in _BOOLEAN_OPTIONS:
    _CONVERTERS[_name] = lambda v, _n=_name: _as_bool(_n, v)


@dataclass(frozen=True)
class GolfRules:
    """Every Golf option with the defaults RULES gives; see :data:`OPTIONS` for meanings.

    Raises RulesError on construction when an option is malformed or the
    combination cannot be played. Player-count checks (enough cards in the
    decks) happen in :meth:`check_players`.
    """

    layout: str = "2x3"
    decks: str | int = "auto"
    jokers_per_deck: int = 0
    initial_flips: str | int = "auto"
    flip_constraint: str = "any"
    initial_peeks: int = 2
    peek_constraint: str = "any"
    flip_instead_of_draw: bool = False
    flip_after_discard: str = "auto"
    final_turns: bool = True
    final_turns_stock_only: bool = False
    remove_matched_lines: bool = False
    knock: str = "auto"
    values: str | tuple[tuple[int, int], ...] = "standard"
    joker_value: str | int = "auto"
    joker_pair_value: int = 0
    bonus_rank: str | None = None
    bonus_value: int = -2
    queen_of_spades: int | None = None
    red_king: int | None = None
    match: str = "auto"
    negative_pairs_keep_value: bool = False
    diagonal_pairs: bool = False
    block_score: int | None = None
    four_in_two_columns: bool = False
    four_kings_side: bool = False
    straight_bonus: bool = False
    shoot_the_moon: bool = False
    four_of_a_kind_wins: bool = False
    one_eyed_jacks_wild: bool = False
    closer_rule: str = "none"
    closer_tie_counts_as_lowest: bool = True
    closer_bonus: str = "none"
    powers: str = "off"
    cutthroat: bool = False
    jack_skips: bool = False
    memory: bool = True
    end: str = "holes:9"
    tiebreak: str = "share"
    preset: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if f.name == "preset":
                continue
            value = getattr(self, f.name)
            normal = _CONVERTERS[f.name](value)
            if normal != value or type(normal) is not type(value):
                object.__setattr__(self, f.name, normal)
        self._validate()

    # ---- resolved values -------------------------------------------------

    @cached_property
    def shape(self) -> Shape:
        return shape_of(self.layout)

    @cached_property
    def closed(self) -> bool:
        """Cards stay face down, peeked not flipped: 2x2 closed golf (G1.7, G2.4), Powers (G7.4)."""
        return self.layout == "2x2" or self.powers == "powers"

    @cached_property
    def flips(self) -> int:
        """Cards each player flips in the reveal step (G1.7)."""
        if self.initial_flips != "auto":
            return int(self.initial_flips)
        if self.closed or self.shape.is_hand:
            return 0
        return 3 if self.layout == "3x3" else 2

    @cached_property
    def peeks(self) -> int:
        """Cards each player peeks at in the reveal step (2x2 only, G1.7)."""
        return self.initial_peeks if self.closed else 0

    @cached_property
    def knocking(self) -> bool:
        """Whether knocking is enabled (G4.1)."""
        if self.knock == "auto":  # G4.1; G7: with powers on, knocking in every layout
            return self.closed or self.shape.is_hand or self.powers != "off"
        return self.knock == "on"

    @cached_property
    def extra_slots(self) -> int:
        """Positions each seat has beyond its grid for cards an ace adds (G7.4; else 0).

        *Decided here*: a layout can grow to twice its grid (12 cards on 2x3).
        """
        return self.shape.size if self.powers == "powers" else 0

    @cached_property
    def slots(self) -> int:
        """Positions per seat in a round: the grid, plus :attr:`extra_slots`."""
        return self.shape.size + self.extra_slots

    @cached_property
    def has_gaps(self) -> bool:
        """A layout position can be empty (G3.5 removed lines, G7.4 ace removals, extra slots)."""
        return self.remove_matched_lines or self.powers == "powers"

    @cached_property
    def take_rule(self) -> int:
        """0: the discard pile may be taken; 1: not in final turns (G3.2); 2: never (G7.4)."""
        if self.powers == "powers":
            return 2
        return 1 if self.final_turns_stock_only else 0

    @cached_property
    def has_powers(self) -> bool:
        """Some card drawn from the stock has a power (G7, G7.5)."""
        return self.powers != "off" or self.cutthroat

    @cached_property
    def closes_by_layout(self) -> bool:
        """A wholly face-up layout closes the round (G3.1; not in 2x2 or hand4, G3.3)."""
        return self.shape.is_grid and not self.closed

    @cached_property
    def after_discard(self) -> str:
        """`no`, `may` or `must` (G2.2)."""
        if self.flip_after_discard != "auto":
            return self.flip_after_discard
        return "may" if self.layout in ("2x3", "2x4", "2x5") and not self.closed else "no"

    @cached_property
    def matchers(self) -> tuple[str, ...]:
        if self.match == "auto":
            return ("any_pairs",) if self.shape.is_hand else ("column",)
        return tuple(self.match.split("+"))

    @cached_property
    def plain_columns(self) -> bool:
        """Whether a grid layout scores as its columns alone (G5.3 column matching, no
        block, special, wild or effect on others: G5.4-G5.6), the case
        :func:`greenfelt.golf.scoring.quick_scores` totals without a breakdown."""
        return (
            self.matchers == ("column",)
            and not self.shape.is_hand
            and self.block_score is None
            and not self.four_in_two_columns
            and not self.four_kings_side
            and not self.straight_bonus
            and not self.shoot_the_moon
            and not self.four_of_a_kind_wins
            and not self.one_eyed_jacks_wild
        )

    @cached_property
    def joker_points(self) -> int:
        if self.joker_value != "auto":
            return int(self.joker_value)
        return self._base_table[0]

    @cached_property
    def match_end(self) -> tuple[str, int]:
        """(`holes`, N), (`target`, P) or (`open`, 0) (G9.1)."""
        kind, _, number = self.end.partition(":")
        return kind, int(number or 0)

    @cached_property
    def _base_table(self) -> dict[int, int]:
        if isinstance(self.values, str):
            return dict(VALUE_TABLES[self.values])
        table = dict(VALUE_TABLES["standard"])
        table.update(dict(self.values))
        return table

    @cached_property
    def card_values(self) -> tuple[int, ...]:
        """Points of each card by card code (G5.1), before any match."""
        table = self._base_table
        out: list[int] = []
        for card in CARDS:
            rank = card.rank
            points = table[rank]
            if rank == Rank.JOKER:
                points = self.joker_points
            if self.cutthroat and rank == Rank.KING:
                points = 15  # G7.5
            if self.jack_skips and rank == Rank.JACK:
                points = 20  # G7.6
            if self.bonus_rank == ONE_EYED_JACKS:
                if rank == Rank.JACK and card.suit in (Suit.SPADES, Suit.HEARTS):
                    points = self.bonus_value
            elif self.bonus_rank is not None and rank == _parse_rank(self.bonus_rank):
                points = self.bonus_value
            if self.queen_of_spades is not None and rank == Rank.QUEEN and card.suit == Suit.SPADES:
                points = self.queen_of_spades
            is_red = card.suit is not None and card.suit.is_red
            if self.red_king is not None and rank == Rank.KING and is_red:
                points = self.red_king
            elif self.powers == "powers" and rank == Rank.KING and is_red:
                points = -1  # G7.4: a red king is worth -1
            out.append(points)
        return tuple(out)

    def values_text(self) -> str:
        """The card values (G5.1) as people read them: each rank's (``A=1 2=-2 ... K=0``,
        clubs standing for the rank), the joker's, then every card whose suit gives
        it other points, grouped by rank and points (``Q♠=13``, ``K♥/K♦=-1``)."""
        values = self.card_values
        clubs = {card.rank: values[card] for card in CARDS if card.suit is Suit.CLUBS}
        shown = [f"{rank.symbol}={points}" for rank, points in clubs.items()]
        shown.append(f"JK={values[JOKER]}" + ("" if self.jokers_per_deck else " (no jokers)"))
        odd: dict[tuple[Rank, int], list[str]] = {}
        for card in CARDS:
            if card.rank in clubs and values[card] != clubs[card.rank]:
                odd.setdefault((card.rank, values[card]), []).append(str(card))
        shown += [f"{'/'.join(odd[k])}={k[1]}" for k in sorted(odd, key=lambda k: k[0])]
        return " ".join(shown)

    def deck_count(self, players: int) -> int:
        """Decks shuffled together for ``players`` (G1.3)."""
        if isinstance(self.decks, int):
            return self.decks
        size = self.shape.size
        if size == 4:  # 2x2 and hand4
            return 1 if players < 8 else 2
        if size == 9:
            return 1 if players <= 3 else 2 if players <= 6 else 3
        if self.decks == "bga":
            return 1 if players <= 5 else 2
        return 1 if players <= 3 else 2 if players <= 7 else 3

    def deck_size(self, players: int) -> int:
        return self.deck_count(players) * (52 + self.jokers_per_deck)

    def check_players(self, players: int) -> None:
        """Raise RulesError unless ``players`` can play these rules (G1.1, G1.3)."""
        if not 2 <= players <= 8:
            raise RulesError(f"Golf is for 2 to 8 players, not {players} (G1.1)")
        needed = players * self.shape.size + 2
        have = self.deck_size(players)
        if have < needed:
            raise RulesError(
                f"{self.deck_count(players)} deck(s) of {52 + self.jokers_per_deck} cards cannot "
                f"deal {players} layouts of {self.shape.size} plus a discard and a stock card "
                f"({needed} cards): use more decks (G1.3)"
            )

    # ---- validation --------------------------------------------------------

    def _validate(self) -> None:
        shape = self.shape
        grid = shape.is_grid

        def bad(message: str) -> RulesError:
            return RulesError(f"{message} (layout {self.layout})")

        if self.jokers_per_deck not in (0, 2):
            raise RulesError(f"jokers_per_deck must be 0 or 2, not {self.jokers_per_deck} (G1.4)")
        if self.initial_flips != "auto":
            if not grid or self.closed:
                raise bad("initial_flips applies to grid layouts other than 2x2 (G1.7)")
            if not 0 <= int(self.initial_flips) < shape.size:
                raise bad(f"initial_flips must be between 0 and {shape.size - 1} (G1.7)")
        flips = self.flips
        if self.flip_constraint == "different_columns" and flips > shape.cols:
            raise bad(f"{flips} flips cannot be in different columns of {shape.cols}")
        if self.flip_constraint == "same_column" and flips > shape.rows:
            raise bad(f"{flips} flips cannot be in one column of {shape.rows} cards")
        if not 0 <= self.initial_peeks <= 4:
            raise RulesError(f"initial_peeks must be between 0 and 4, not {self.initial_peeks}")
        if self.peek_constraint == "nearest_row" and self.initial_peeks > 2:
            raise RulesError("peek_constraint=nearest_row allows at most 2 peeks (G1.7)")
        if self.flip_instead_of_draw and (not grid or self.closed):
            raise bad("flip_instead_of_draw needs face-down cards that turn up (G2.1)")
        if self.flip_after_discard in ("may", "must") and (not grid or self.closed):
            raise bad("flip_after_discard applies to layouts whose cards turn face up (G2.2)")
        if not self.knocking and not self.closes_by_layout:
            raise bad(
                "2x2, hand4 and powers=powers rounds close only by a knock: "
                "knock cannot be off (G3.3)"
            )
        for matcher in self.matchers:
            if shape.is_hand and matcher != "any_pairs":
                raise bad(
                    f"match={matcher} needs a grid; a hand4 hand always uses any_pairs (G5.3)"
                )
        if self.diagonal_pairs and self.matchers != ("pairs_in_line",):
            raise RulesError("diagonal_pairs applies only with match=pairs_in_line (G5.3)")
        if self.diagonal_pairs and not shape.is_square:
            raise bad("diagonal_pairs needs a square layout (G5.3)")
        if self.remove_matched_lines:
            if not grid or self.closed:
                raise bad("remove_matched_lines needs face-up grid lines (G3.5)")
            if not set(self.matchers) & {"column", "lines"}:
                raise RulesError("remove_matched_lines needs match=column or lines (G3.5)")
        if (self.block_score is not None or self.four_in_two_columns) and not grid:
            raise bad("blocks need a grid of 2x2 squares (G5.4)")
        if self.four_in_two_columns and self.layout not in ("2x3", "2x4", "2x5"):
            raise bad("four_in_two_columns is for 6, 8 and 10-card layouts (G5.5)")
        if self.four_kings_side and self.layout != "2x4":
            raise bad("four_kings_side is for the 8-card 2x4 layout (G5.6)")
        if self.straight_bonus and self.layout != "3x3":
            raise bad("straight_bonus is for the 9-card 3x3 layout (G5.6)")
        if self.four_of_a_kind_wins and shape.size != 4:
            raise bad("four_of_a_kind_wins is for 2x2 and hand4 (G5.6)")
        if self.one_eyed_jacks_wild and not grid:
            raise bad("one_eyed_jacks_wild matches within a column; a hand has none (G5.6)")
        if self.powers == "powers" and self.cutthroat:
            raise RulesError(
                "cutthroat (G7.5) gives kings a power of their own; it does not combine "
                "with powers=powers, where the black king cancels a knock (G7.4)"
            )
        if (self.powers != "off" or self.cutthroat) and not grid:
            raise bad("card powers target layout positions; a hand4 hand has none (G7)")
        if self.final_turns_stock_only and not self.final_turns and not self.knocking:
            raise RulesError("final_turns_stock_only needs final turns or knocking (G3.2)")

    # ---- presets and serialisation ----------------------------------------

    def with_options(self, overrides: Mapping[str, Any]) -> GolfRules:
        """These rules with options replaced (values as JSON or command-line text)."""
        unknown = [k for k in overrides if k not in _CONVERTERS]
        if unknown:
            raise RulesError(
                f"unknown option {unknown[0]!r}; options are: {', '.join(_CONVERTERS)}"
            )
        return dataclasses.replace(self, **dict(overrides))

    def options(self) -> dict[str, Any]:
        """Every option as JSON-able data (values tables as RANK -> points)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "preset":
                continue
            value = getattr(self, f.name)
            if f.name == "values" and not isinstance(value, str):
                value = {_rank_name(r): p for r, p in value}
            out[f.name] = value
        return out

    def option_text(self, name: str) -> str:
        """An option's value as people read it: on/off, RANK:POINTS, and what ``auto`` means here."""
        value: Any = self.options()[name]
        resolved: dict[str, Any] = {
            "initial_flips": self.flips,
            "knock": "on" if self.knocking else "off",
            "flip_after_discard": self.after_discard,
            "match": "+".join(self.matchers),
            "joker_value": self.joker_points,
        }
        if isinstance(value, bool):
            text = "on" if value else "off"
        elif value is None:
            text = "off"
        elif isinstance(value, dict):
            text = ",".join(f"{k}:{v}" for k, v in value.items())
        else:
            text = str(value)
        if value == "auto" and name in resolved:
            text += f" ({resolved[name]})"
        return text

    def __str__(self) -> str:
        return json.dumps(rules_to_json(self), ensure_ascii=False)


def _preset(name: str, **options: Any) -> GolfRules:
    return dataclasses.replace(GolfRules(**options), preset=name)


PRESETS: Mapping[str, GolfRules] = MappingProxyType(
    {
        "six-card": _preset("six-card", layout="2x3", match="column"),
        "bga": _preset("bga", layout="2x3", decks="bga", match="lines", block_score=-20),
        "four-card": _preset(
            "four-card", layout="2x2", match="pairs_in_line", knock="on", values="wikihow-basic"
        ),
        "four-in-hand": _preset(
            "four-in-hand", layout="hand4", match="any_pairs", knock="on", values="wikihow-basic"
        ),
        "nine-card": _preset("nine-card", layout="3x3", match="column"),
        "nine-card-wiki": _preset(
            "nine-card-wiki",
            layout="3x3",
            match="lines+adjacent_pairs",
            jokers_per_deck=2,
            joker_value=-4,
            block_score=-25,
            flip_instead_of_draw=True,
            final_turns=False,
            end="target:100",
        ),
        "eight-card": _preset("eight-card", layout="2x4", match="column"),
        "cambio": _preset("cambio", layout="2x2", match="column", knock="on", powers="cambio"),
        "ten-card": _preset("ten-card", layout="2x5", match="column"),
        "powers": _preset(
            "powers",
            layout="2x3",
            match="column",
            knock="on",
            powers="powers",
            red_king=-1,
        ),
    }
)
PRESET_NOTES = {
    "six-card": "the classic: 2x3, flip two, pairs in a column cancel, 9 holes",
    "bga": "Board Game Arena: lines cancel, 2x2 blocks score -20; layout=2x2 or 3x3 by option",
    "four-card": "closed golf: 2x2 face down, peek at two, pairs in a line cancel, knock to end",
    "four-in-hand": "four cards in the hand, all seen, any pairs cancel, knock to end",
    "nine-card": "3x3, flip three, a column of three cancels, 9 holes",
    "nine-card-wiki": "3x3 house rules: lines and adjacent pairs cancel, jokers -4, blocks -25, to 100",
    "eight-card": "as six-card on a 2x4 layout",
    "cambio": "2x2 face down, peek two, J/Q/K/joker powers (look, look, swap, shuffle), knock",
    "ten-card": "as six-card on a 2x5 layout",
    "powers": "2x3 face down, peek two, every rank has a power (G7.4), red kings -1, knock to end",
}


def find_preset(name: str) -> GolfRules:
    """The preset called ``name``; raises RulesError listing the known ones."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(
            f"unknown Golf preset {name!r}; presets are: {', '.join(PRESETS)}"
        ) from None


def rules_from_json(data: Any) -> GolfRules:
    """Rules from their record form ``{"preset": NAME, "set": {...}}`` or a full option dict."""
    if isinstance(data, str):
        return find_preset(data)
    if not isinstance(data, Mapping):
        raise RulesError(f"rules must be a preset name or an object, not {type(data).__name__}")
    if "preset" in data or "set" in data:
        extra = set(data) - {"preset", "set"}
        if extra:
            raise RulesError(f"unknown key(s) in rules: {', '.join(sorted(extra))}")
        base = find_preset(data["preset"]) if data.get("preset") else GolfRules()
        overrides = data.get("set") or {}
        if not isinstance(overrides, Mapping):
            raise RulesError("rules 'set' must be an object of option: value")
        return base.with_options(overrides) if overrides else base
    return GolfRules().with_options(data)


def rules_to_json(rules: GolfRules) -> dict[str, Any]:
    """The record form: the preset and only the options that differ from it."""
    name = rules.preset if rules.preset in PRESETS else None
    base = PRESETS[name] if name is not None else GolfRules()
    mine, theirs = rules.options(), base.options()
    changed = {k: v for k, v in mine.items() if theirs[k] != v}
    out: dict[str, Any] = {"preset": name} if name is not None else {}
    if changed or not out:
        out["set"] = changed
    return out
