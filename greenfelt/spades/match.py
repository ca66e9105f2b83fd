"""A game of two-player Spades: hands until someone reaches the target (RULES S1.2, S5.4, S6).

The match owns what lasts between hands: the dealer rotation (S1.2), the
totals, the bags carried (S5.4) and the end of the game (S6). Each hand is a
:class:`~greenfelt.spades.game.SpadesHand` that the match starts from a deck
and feeds actions to, so a record (rules, names, and per hand the dealer, the
deck and the actions) replays it exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from greenfelt.cards import Card, card_texts, shuffled_deck
from greenfelt.errors import IllegalAction, RecordError, RulesError
from greenfelt.spades.actions import SpadesAction
from greenfelt.spades.game import SpadesHand, random_playout
from greenfelt.spades.rules import SpadesRules, rules_to_json

__all__ = ["SpadesMatch", "play_random_match"]


class SpadesMatch:
    """Hands of two-player Spades until S6 ends the game.

    ``names`` are the two players in seat order; ``dealer`` deals the first
    hand, then the deal alternates (S1.2).

    >>> match = SpadesMatch(SpadesRules(), names=("Ann", "Bo"))
    >>> match.needs_deal, match.next_dealer, match.totals
    (True, 0, [0, 0])
    """

    def __init__(
        self,
        rules: SpadesRules,
        names: Sequence[str] = ("A", "B"),
        dealer: int = 0,
    ) -> None:
        if not isinstance(rules, SpadesRules):
            raise RulesError(f"a spades match needs SpadesRules, not {type(rules).__name__}")
        if isinstance(names, str) or len(names) != 2:
            raise RulesError(f"two-player Spades needs exactly two names (S1.2), not {names!r}")
        if dealer not in (0, 1):
            raise RulesError(f"the first dealer is seat 0 or 1 (S1.2), not {dealer!r}")
        self.rules = rules
        self.names: list[str] = [str(n) for n in names]
        self.first_dealer = dealer
        self._rounds: list[SpadesHand] = []
        self._totals = [0, 0]
        self._bags = [0, 0]
        self._winners: list[int] = []

    # ----------------------------------------------------------------- reading

    @property
    def rounds(self) -> Sequence[SpadesHand]:
        """Every hand dealt so far; the last may be in progress."""
        return tuple(self._rounds)

    @property
    def current(self) -> SpadesHand | None:
        """The hand in progress, or ``None`` between hands."""
        if self._rounds and not self._rounds[-1].is_over:
            return self._rounds[-1]
        return None

    @property
    def to_move(self) -> int | None:
        """The seat to move in the hand in progress, or ``None`` between hands."""
        current = self.current
        return None if current is None else current.to_move

    def legal_actions(self, seat: int | None = None) -> list[SpadesAction]:
        """Legal actions in the hand in progress (empty between hands)."""
        current = self.current
        return [] if current is None else current.legal_actions(seat)

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand: the deal alternates each hand (S1.2)."""
        if not self._rounds:
            return self.first_dealer
        return 1 - self._rounds[-1].dealer

    @property
    def needs_deal(self) -> bool:
        """True when no hand is in progress and the game is not over."""
        return not self._winners and self.current is None

    @property
    def is_over(self) -> bool:
        """S6.1: a player reached the target at the end of a hand with the higher score."""
        return bool(self._winners)

    @property
    def winners(self) -> list[int]:
        """The winning seat (S6.1) once over, else an empty list."""
        return list(self._winners)

    @property
    def totals(self) -> list[int]:
        """Scores after the completed hands, in seat order."""
        return list(self._totals)

    @property
    def bags(self) -> list[int]:
        """Bags carried into the next hand (S5.4: always below 10)."""
        return list(self._bags)

    # ----------------------------------------------------------------- acting

    def start_round(
        self,
        deck: Sequence[Card | str] | None = None,
        dealer: int | None = None,
        *,
        rng: random.Random | None = None,
    ) -> SpadesHand:
        """Start the next hand from ``deck`` (top card first) and return it.

        Without a deck, ``rng`` (or a fresh generator) shuffles one: the one
        chance event of a hand.

        ``dealer``, when given (as a record gives it), must be the one S1.2
        expects, else :class:`RecordError`. Raises :class:`IllegalAction` while
        a hand is in progress or after the game is over, and RecordError for a
        deck that is not the 52 cards once each.
        """
        if self._winners:
            raise IllegalAction(f"the game is over: {self._result_text()}")
        if self.current is not None:
            raise IllegalAction(f"hand {len(self._rounds)} is still in progress; finish it first")
        expected = self.next_dealer
        if dealer is not None and dealer != expected:
            raise RecordError(
                f"hand {len(self._rounds) + 1} is dealt by seat {expected} "
                f"({self.names[expected]}): the deal alternates each hand (S1.2), "
                f"but the record says seat {dealer}"
            )
        if deck is None:
            deck = shuffled_deck(rng or random.Random())
        hand = SpadesHand(self.rules, expected, deck, bags=self._bags, totals=self._totals)
        self._rounds.append(hand)
        return hand

    def apply(self, action: SpadesAction | str, seat: int | None = None) -> None:
        """Apply a checked action to the hand in progress (see :meth:`SpadesHand.apply`)."""
        hand = self.current
        if hand is None:
            if self._winners:
                raise IllegalAction(f"the game is over: {self._result_text()}")
            raise IllegalAction("no hand is in progress: deal the next hand first")
        hand.apply(action, seat)
        if hand.is_over:
            self._settle(hand)

    def apply_unchecked(self, action: SpadesAction) -> None:
        """Apply a legal action without checks (simulations; see SpadesHand.apply_unchecked)."""
        hand = self._rounds[-1]
        hand.apply_unchecked(action)
        if hand.is_over:
            self._settle(hand)

    def _settle(self, hand: SpadesHand) -> None:
        """Carry a finished hand's points and bags, and decide S6.1."""
        results = hand.results
        assert results is not None
        for seat in (0, 1):
            self._totals[seat] += results[seat].points
            self._bags[seat] = results[seat].bags  # S5.4
        target = self.rules.target
        reached = [seat for seat in (0, 1) if self._totals[seat] >= target]
        if len(reached) == 1:
            self._winners = reached  # S6.1
        elif len(reached) == 2 and self._totals[0] != self._totals[1]:
            self._winners = [0 if self._totals[0] > self._totals[1] else 1]  # S6.1: higher wins
        # S6.1 (decided here): equal scores at or above the target: another hand.

    def _result_text(self) -> str:
        if not self._winners:
            return "no winner yet"
        w = self._winners[0]
        return f"{self.names[w]} won {self._totals[w]} to {self._totals[1 - w]}"

    # ----------------------------------------------------------------- records

    def round_record(self, index: int) -> dict[str, Any]:
        """Hand ``index`` as a record: ``{"dealer", "deck" (texts, top first), "actions"}``."""
        hand = self._rounds[index]
        return {
            "dealer": hand.dealer,
            "deck": card_texts(hand.deck),
            "actions": [[seat, str(action)] for seat, action in hand.actions],
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` may know it: names, totals, bags, the current or last hand."""
        last = self._rounds[-1] if self._rounds else None
        return {
            "game": "spades",
            "rules": rules_to_json(self.rules),
            "names": list(self.names),
            "target": self.rules.target,
            "hands": len(self._rounds),
            "totals": list(self._totals),
            "bags": list(self._bags),
            "scoresheet": [list(h.scores or ()) for h in self._rounds if h.is_over],
            "next_dealer": self.next_dealer,
            "winners": list(self._winners),
            "over": self.is_over,
            "hand": None if last is None else last.view(seat),
        }


def play_random_match(
    rules: SpadesRules,
    rng: random.Random,
    names: Sequence[str] = ("A", "B"),
    dealer: int = 0,
    max_hands: int = 1000,
) -> SpadesMatch:
    """A whole game with uniformly random legal actions (tests, benchmarks).

    Stops after ``max_hands`` hands if random play has not reached the target.
    """
    match = SpadesMatch(rules, names, dealer)
    while match.needs_deal and len(match.rounds) < max_hands:
        hand = match.start_round(shuffled_deck(rng))
        random_playout(hand, rng)
        match._settle(hand)
    return match
