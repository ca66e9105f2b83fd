"""A *textbook* Golf opponent: the seeds' rules of thumb and nothing more.

The strength bar of issue 4 quotes a reference: "a plain sampling player with
greedy rollouts reached about 65% with 16 samples per move and 73% with 64".
Against our `greedy` the same sampler wins 38% and 53% (docs/expert-six-card.md),
so the greedy that reference was measured against was much weaker than ours.
This policy is a candidate for it: the strategy a rules sheet teaches, written
down once, before any measurement against it, and not tuned since:

- reveal (G1.7): a card in a column with nothing face up yet;
- turn (G2.1): take the discard when it pairs one of the seat's face-up cards in
  an unpaired column, or when it is low (3 points or less); else draw;
- place (G2.2): pair a face-up card in its column; else replace the highest
  unpaired face-up card if the held card is lower and that card is high (7 or
  more); else put a low card (4 or less) over a face-down card (in a column
  with no face-up card first); else replace the highest unpaired face-up card
  if the held card is lower; else discard (a taken card must stay: it goes over
  the highest unpaired face-up card or a face-down one);
- flip after a discard (G2.2 may): turn a face-down card (in a column with
  nothing face up first), never the last one.

It knows nothing of the opponent, of closing (it closes when it happens), of
the stock's odds or of denial. Column layouts only (six-card, eight-card,
ten-card, nine-card's columns are not modelled). ``./dev bench bench_expert
--opponent textbook`` plays against it.
"""

from __future__ import annotations

import random

from greenfelt.bots.base import PolicyBot
from greenfelt.bots.golf_sight import UNKNOWN, seat_sight
from greenfelt.golf.actions import DISCARD, DRAW, FLIP, PASS, SWAP, TAKE, GolfAction
from greenfelt.golf.game import GolfRound, Phase

LOW_TAKE = 3  # a discard this low is taken
LOW_OVER_DOWN = 4  # a card this low goes over a face-down card
HIGH = 7  # a face-up card this high is replaced by any lower card


def _key(card: int) -> int:
    return card % 13 if card < 52 else 13


def textbook_policy(state: GolfRound, rng: random.Random) -> GolfAction:
    """The textbook move for ``state.to_move``, from what that seat may know."""
    seat = state.to_move
    if seat is None:
        raise ValueError("the round is over: nobody is to move")
    rules = state.rules
    size = rules.shape.size
    # The other card of each position's column, where columns hold two cards.
    partners: dict[int, int] = {}
    for line in rules.shape.column_lines:
        if len(line) == 2:
            partners[line[0]], partners[line[1]] = line[1], line[0]
    partner = partners.get
    value = rules.card_values
    cells, held = seat_sight(state, seat)
    mine = cells[seat * size : (seat + 1) * size]
    legal = state.legal_actions()

    def up(p: int) -> bool:
        return mine[p] != UNKNOWN and mine[p] < 53

    def paired(p: int) -> bool:
        q = partner(p)
        return q is not None and up(p) and up(q) and _key(mine[p]) == _key(mine[q])

    def down_first() -> list[int]:
        """Face-down positions, those in a column with nothing face up first."""
        down = [p for p in range(size) if mine[p] == UNKNOWN]
        lonely = [p for p in down if (q := partner(p)) is None or mine[q] == UNKNOWN]
        return lonely or down

    def pair_slot(card: int) -> int | None:
        """Where ``card`` pairs a face-up card of an unpaired column."""
        for p in range(size):
            q = partner(p)
            if q is not None and up(p) and not paired(p) and _key(mine[p]) == _key(card):
                return q
        return None

    def highest_up() -> int | None:
        loose = [p for p in range(size) if up(p) and not paired(p)]
        return max(loose, key=lambda p: value[mine[p]]) if loose else None

    phase = state.phase
    if phase is Phase.REVEAL:
        return FLIP[rng.choice(down_first())]
    if phase is Phase.TURN:
        if TAKE in legal:
            card = state.discard[-1]
            if pair_slot(card) is not None or value[card] <= LOW_TAKE:
                return TAKE
        return DRAW
    if phase in (Phase.DRAWN, Phase.TAKEN):
        assert held is not None
        worth = value[held]
        slot = pair_slot(held)
        if slot is not None:
            return SWAP[slot]
        top = highest_up()
        if top is not None and value[mine[top]] >= HIGH and worth < value[mine[top]]:
            return SWAP[top]
        down = down_first()
        if down and worth <= LOW_OVER_DOWN:
            return SWAP[down[0]]
        if top is not None and worth < value[mine[top]]:
            return SWAP[top]
        if DISCARD in legal:
            return DISCARD
        return SWAP[top] if top is not None else SWAP[down[0]]
    if phase is Phase.FLIP:
        down = down_first()
        if PASS in legal and sum(1 for c in mine if c == UNKNOWN) <= 1:
            return PASS
        return FLIP[down[0]] if down else PASS
    raise ValueError(f"no textbook move in phase {phase.value}")


class TextbookGolfBot(PolicyBot):
    """:func:`textbook_policy` on a sample of its seat's view (as `greedy` is played)."""

    level = "textbook"
    policy = staticmethod(textbook_policy)
