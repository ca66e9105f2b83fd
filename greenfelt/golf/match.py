"""A Golf match (G9): holes or a target or open-ended, dealer rotation, totals, winners.

Seats are the match's seats throughout. A playoff round (G9.2 ``tiebreak=playoff``)
is dealt to the tied seats only; the match maps its seats to the round's and back,
so clients and records always speak of match seats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from greenfelt.cards import Card, card_texts
from greenfelt.errors import IllegalAction, NotYourTurn, RecordError
from greenfelt.golf.actions import GolfAction
from greenfelt.golf.game import GolfRound, new_round
from greenfelt.golf.rules import GolfRules

__all__ = ["GolfMatch"]


class GolfMatch:
    """A series of rounds; ``apply`` and ``to_move`` speak of match seats."""

    def __init__(self, rules: GolfRules, names: Sequence[str] | int, dealer: int = 0) -> None:
        if isinstance(names, int):
            names = [f"Player {i + 1}" for i in range(names)]
        self.names = list(names)
        rules.check_players(len(self.names))
        if not 0 <= dealer < len(self.names):
            raise IllegalAction(f"dealer {dealer} is not a seat of {len(self.names)} players")
        self.rules = rules
        self.first_dealer = dealer
        self._rounds: list[GolfRound] = []
        self._dealers: list[int] = []
        self._seatings: list[tuple[int, ...]] = []
        self.stopped = False

    # ---- the match ------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def rounds(self) -> Sequence[GolfRound]:
        return tuple(self._rounds)

    @property
    def current(self) -> GolfRound | None:
        """The round in progress, if any."""
        if self._rounds and not self._rounds[-1].is_over:
            return self._rounds[-1]
        return None

    def seating(self, index: int) -> tuple[int, ...]:
        """The match seats that play round ``index``, in round-seat order."""
        return self._seatings[index]

    def _regular(self) -> list[int]:
        """Indexes of completed regular (non-playoff) rounds."""
        everyone = tuple(range(self.players))
        return [
            i for i, r in enumerate(self._rounds) if r.is_over and self._seatings[i] == everyone
        ]

    def round_scores(self) -> list[list[int]]:
        """Scores of every completed round, in match-seat order (0 for a seat sitting out)."""
        out = []
        for i, rnd in enumerate(self._rounds):
            if rnd.scores is None:
                continue
            row = [0] * self.players
            for j, seat in enumerate(self._seatings[i]):
                row[seat] = rnd.scores[j]
            out.append(row)
        return out

    @property
    def totals(self) -> list[int]:
        """Totals over completed regular rounds (playoff rounds decide, not add, G9.2)."""
        totals = [0] * self.players
        for i in self._regular():
            scores = self._rounds[i].scores
            assert scores is not None
            for seat, s in enumerate(scores):
                totals[seat] += s
        return totals

    def _four_of_a_kind(self) -> list[int]:
        """Seats that won the match at once with four of a kind (G5.6)."""
        for i, rnd in enumerate(self._rounds):
            if rnd.result is not None:
                seats = [
                    self._seatings[i][j]
                    for j, layout in enumerate(rnd.result.layouts)
                    if layout.wins_match
                ]
                if seats:
                    return seats
        return []

    def _regular_done(self) -> bool:
        kind, number = self.rules.match_end
        regular = self._regular()
        if kind == "holes":
            return len(regular) >= number
        if kind == "target":
            return any(t >= number for t in self.totals) and bool(regular)
        return self.stopped

    def _tied(self) -> list[int]:
        """Seats still tied for the win after the regular rounds and any playoffs."""
        totals = self.totals
        best = min(totals)
        tied = [s for s, t in enumerate(totals) if t == best]
        everyone = tuple(range(self.players))
        for i, rnd in enumerate(self._rounds):
            if self._seatings[i] == everyone or rnd.scores is None:
                continue
            low = min(rnd.scores)
            tied = [self._seatings[i][j] for j, s in enumerate(rnd.scores) if s == low]
        return tied

    @property
    def is_over(self) -> bool:
        if self._four_of_a_kind():
            return True
        if self.current is not None or not self._regular_done():
            return False
        return self.rules.tiebreak == "share" or len(self._tied()) == 1 or self.stopped

    @property
    def winners(self) -> list[int]:
        """The seats sharing the win (G9.2); empty while the match goes on."""
        if not self.is_over:
            return []
        instant = self._four_of_a_kind()
        return instant or self._tied()

    @property
    def needs_deal(self) -> bool:
        return self.current is None and not self.is_over

    def stop(self) -> None:
        """End an open match (``end=open``) after the round in progress (G9.1)."""
        self.stopped = True

    @property
    def next_dealer(self) -> int:
        """G1.6: the deal passes clockwise each round (in a playoff, to a tied seat)."""
        dealer = (self._dealers[-1] + 1) % self.players if self._dealers else self.first_dealer
        seating = self.next_seating()
        while dealer not in seating:
            dealer = (dealer + 1) % self.players
        return dealer

    def next_seating(self) -> tuple[int, ...]:
        """Who plays the next round: everyone, or the tied seats in a playoff (G9.2)."""
        if self._regular_done() and not self._four_of_a_kind():
            return tuple(self._tied())
        return tuple(range(self.players))

    def start_round(
        self,
        deck: Sequence[Card] | None = None,
        dealer: int | None = None,
        *,
        rng: random.Random | None = None,
        reshuffles: Sequence[Sequence[Card]] = (),
        shuffles: Sequence[Sequence[int]] = (),
    ) -> GolfRound:
        """Deal the next round (G1.5); ``dealer`` must be the one whose turn it is to deal."""
        if not self.needs_deal:
            reason = "the match is over" if self.is_over else "a round is in progress"
            raise IllegalAction(f"cannot deal a new round: {reason}")
        expected = self.next_dealer
        if dealer is not None and dealer != expected:
            raise RecordError(
                f"round {len(self._rounds) + 1} is dealt by seat {dealer}, "
                f"but the deal passes to seat {expected} (G1.6)"
            )
        seating = self.next_seating()
        rnd = new_round(
            self.rules,
            len(seating),
            seating.index(expected),
            deck,
            rng=rng,
            reshuffles=reshuffles,
            shuffles=shuffles,
        )
        self._rounds.append(rnd)
        self._dealers.append(expected)
        self._seatings.append(seating)
        return rnd

    # ---- play --------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        rnd = self.current
        if rnd is None or rnd.to_move is None:
            return None
        return self._seatings[-1][rnd.to_move]

    def legal_actions(self, seat: int | None = None) -> list[GolfAction]:
        rnd = self.current
        if rnd is None or (seat is not None and seat != self.to_move):
            return []
        return rnd.legal_actions()

    def apply(self, action: GolfAction | str, seat: int | None = None) -> None:
        """Apply a checked action for match seat ``seat`` (the one to move if omitted)."""
        rnd = self.current
        if rnd is None:
            raise IllegalAction("no round is in progress: deal the next round first")
        mover = self.to_move
        if seat is not None and seat != mover:
            raise NotYourTurn(f"it is {self.names[mover]}'s turn (seat {mover}), not seat {seat}'s")  # type: ignore[index]
        rnd.apply(action)

    def view(self, seat: int | None, *, recall: bool = True) -> dict[str, Any]:
        """The round view of ``seat`` plus the match: names, scoresheet, totals."""
        rnd = self._rounds[-1] if self._rounds else None
        seating = self._seatings[-1] if self._seatings else ()
        round_seat = seating.index(seat) if seat is not None and seat in seating else None
        return {
            "game": "golf",
            "names": self.names,
            "seat": seat,
            "round": len(self._rounds),
            "seating": list(seating),
            "round_view": rnd.view(round_seat, recall=recall) if rnd is not None else None,
            "scoresheet": self.round_scores(),
            "totals": self.totals,
            "over": self.is_over,
            "winners": self.winners,
        }

    # ---- records -------------------------------------------------------------

    def round_record(self, index: int) -> dict[str, Any]:
        """Round ``index`` as the record format has it (match seats throughout)."""
        rnd = self._rounds[index]
        seating = self._seatings[index]
        if rnd.deck is None:
            raise RecordError("a determinized round has no real deck to record")
        out: dict[str, Any] = {
            "dealer": self._dealers[index],
            "deck": card_texts(rnd.deck),
        }
        if seating != tuple(range(self.players)):
            out["seats"] = list(seating)
        if rnd.reshuffles:
            out["reshuffles"] = [card_texts(order) for order in rnd.reshuffles]
        if rnd.shuffles:
            out["shuffles"] = [list(permutation) for permutation in rnd.shuffles]
        out["actions"] = [[seating[s], str(a)] for s, a in rnd.actions]
        return out
