"""The `greedy` two-player Spades bot: count sure tricks, follow cheaply, mind the bags.

The strategy of the seed (the Turkish two-player Spades rules) and common
Spades sense, as a fast policy on what the seat may know:

- **Blind nil** (S2.1) only when far behind late in the game.
- **Drawing** (S2.2): keep a card when it helps the hand's plan more than the
  unknown card a reject would give: high cards and spades for a trick-taking
  hand, low cards for a (blind) nil.
- **Bidding** (S3): the expected number of tricks, card by card: a card wins
  when the opponent can hold none of the higher unseen cards of its suit that
  the seat's own higher cards do not absorb, side cards lose value once the
  opponent may be void and trump, voids and singletons add ruffs. Nil when the
  hand is low enough that it is worth more than the bid; near the target,
  bid safely.
- **Play** (S4): a seat that still needs tricks wins them as cheaply as it can
  (the lowest card that beats the lead, the lowest trump) and leads its surest
  winners; a seat that has made its bid ducks (the highest card under the
  lead, discards of high side cards) to avoid bags, above all near 10 bags
  (S5.4); a nil bidder protects its nil the same way and leads the cards the
  opponent must beat; against a nil the seat leads low cards the opponent
  cannot get under; and it takes tricks off an opponent who can still be set.

Everything is computed from :func:`seat_sight`, which reads only what the seat
may know: its hand, the card it is looking at while drawing, the discards it
saw (S2.4), played cards, bids, tricks, bags and totals. In ``face_up`` games
the seat can deduce the other hand from the discards, exactly as a player who
remembers them would.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, NamedTuple

from greenfelt.bots.base import PolicyBot
from greenfelt.cards import Card
from greenfelt.spades.actions import BIDS, BLIND_NIL, KEEP, PASS, PLAYS, REJECT, SpadesAction
from greenfelt.spades.game import RANK_POWER, Phase, SpadesHand

__all__ = ["GreedySpadesBot", "SpadesSight", "expected_tricks", "greedy_policy", "seat_sight"]

# Rank power (S1.1, A high): code % 13 is rank - 1, so the ace gets 14.
_POWER: Final = RANK_POWER
_SPADES: Final = 0

_CALIBRATION: Final = (0.7, 2.2)  # raw estimate -> tricks greedy play really takes
# Bid the expected tricks rounded after taking this off; more when the other hand
# is less certain (face-down discards, S2.4). Tuned in greedy self-play.
_BID_SAFETY: Final = 1.4
_BID_SAFETY_UNSEEN: Final = 0.8
_NEAR_TARGET_SAFETY: Final = 0.5  # more care when making the bid wins the game (S6)
_NIL_SAMPLES: Final = 16  # other hands drawn to judge a nil when discards were face down
_NIL_MAX_BID: Final = 6  # a hand worth more tricks than this is never bid nil
_NIL_EDGE: Final = 15.0  # points a nil must promise beyond the bid it replaces
_BLIND_NIL_LATE: Final = 80  # the opponent is this close to the target...
_BLIND_NIL_BEHIND: Final = 200  # ...and the seat is this far behind (S2.1)
_SET_SLACK: Final = 2  # with its bid made, fight for tricks the other seat can barely spare
_BAG_WORRY: Final = 7  # bags from which a seat that made its bid never takes extra tricks
_SIDE_RUFF_RISK: Final = 0.35  # a side winner's value once the opponent may be void and trump

# Draw values (S2.2): how much a card helps each plan.
_TRICK_VALUE: Final = tuple(
    (0.5 + 0.5 * (_POWER[c] - 2) / 12)
    if c < 13
    else {14: 0.9, 13: 0.6, 12: 0.3, 11: 0.12, 10: 0.05}.get(_POWER[c], 0.02)
    for c in range(52)
)
_NIL_VALUE: Final = tuple(
    (0.3 - 0.3 * (_POWER[c] - 2) / 12) if c < 13 else 1.0 - (_POWER[c] - 2) / 12 for c in range(52)
)  # a nil wants low cards, a low spade rather than a high side card

_P_BLIND, _P_DRAW, _P_BID, _P_PLAY = Phase.BLIND, Phase.DRAW, Phase.BID, Phase.PLAY


# ---- what a seat sees ----------------------------------------------------------------


class SpadesSight(NamedTuple):
    """Everything one seat may know of a hand (S2.4, S4); all a policy reads."""

    seat: int
    hand: list[Card]
    drawn: Card | None
    """The card the seat is looking at on its draw step (S2.2), else ``None``."""
    unknown: list[int]
    """Cards the seat cannot place: the other hand, unseen discards, the stock."""
    opp_cards: int
    """How many cards the other seat holds (public)."""
    opp_void: int
    """A bit per suit the other seat has shown it lacks (S4.1, S4.2; public)."""
    lead: Card | None
    """The card led to the trick in progress, if the other seat led it."""
    bids: tuple[int | None, int | None]
    blind: tuple[bool | None, bool | None]
    won: tuple[int, int]
    tricks_done: int
    bags: tuple[int, int]
    totals: tuple[int, int]
    target: int


def seat_sight(state: SpadesHand, seat: int) -> SpadesSight:
    """What ``seat`` may know of ``state``: never the other hand, unseen discards or the stock.

    The drawn card is the top of the stock, which S2.2 shows to the drawer only
    while it decides; known cards come from :meth:`SpadesHand.known_mask`.
    """
    other = 1 - seat
    phase = state.phase
    unknown = _unknown_cards(state.known_mask(seat))
    drawn: Card | None = None
    if phase is _P_DRAW and state.to_move == seat:
        drawn = state.deck[2 * state.draw_steps]  # S2.2: the drawer looks at it
    lead: Card | None = None
    void = 0
    done = 0
    if phase is _P_PLAY:
        won = state.tricks_won
        done = won[0] + won[1]
        opp_cards = 13 - done  # one card of each seat per completed trick
        trick = state.current_trick
        if trick:
            leader, led = trick[0]
            if leader == other:
                opp_cards -= 1
                lead = led
        if lead is not None and lead // 13 == _SPADES:
            void = _voids_of_tricks(state, other)
        else:
            void = state.voids[other]  # S4.1, S4.2; nothing pending changes them
    elif phase is _P_BID:
        opp_cards = 13
    else:
        # S2.2: the other seat keeps one card per own draw step, non-dealer first.
        steps = state.draw_steps
        opp_cards = (steps + (1 if other != state.dealer else 0)) // 2
    bids = state.bids
    blind = state.blind_nil
    won = state.tricks_won
    bags = state.bags_before
    totals = state.totals_before
    return SpadesSight(
        seat=seat,
        hand=state.hand_of(seat),
        drawn=drawn,
        unknown=unknown,
        opp_cards=opp_cards,
        opp_void=void,
        lead=lead,
        bids=(bids[0], bids[1]),
        blind=(blind[0], blind[1]),
        won=(won[0], won[1]),
        tricks_done=done,
        bags=(bags[0], bags[1]),
        totals=(totals[0], totals[1]),
        target=state.rules.target,
    )


# Bytes of a 52-bit card set -> the cards whose bits are set, for reading sets fast.
_BYTE_CARDS: Final = tuple(
    tuple(tuple(8 * k + i for i in range(8) if (b >> i) & 1 and 8 * k + i < 52) for b in range(256))
    for k in range(7)
)


def _unknown_cards(known: int) -> list[int]:
    """The cards whose bits are clear in ``known``, in card order."""
    r = ~known
    t = _BYTE_CARDS
    return [
        *t[0][r & 255],
        *t[1][(r >> 8) & 255],
        *t[2][(r >> 16) & 255],
        *t[3][(r >> 24) & 255],
        *t[4][(r >> 32) & 255],
        *t[5][(r >> 40) & 255],
        *t[6][(r >> 48) & 255],
    ]


def _voids_of_tricks(state: SpadesHand, other: int) -> int:
    """The suits ``other`` has shown it lacks in the completed tricks (S4.1, S4.2).

    The sight has always counted completed tricks only, so a spade the other seat
    has just led before spades broke counts once its trick is done, where the
    engine's :attr:`SpadesHand.voids` counts it at once: read from here then.
    """
    void = 0
    broken = False
    for t in state.tricks:
        lead_suit, follow_suit = t.lead // 13, t.follow // 13
        if t.leader != other and lead_suit != follow_suit:
            void |= 1 << lead_suit  # S4.1: the other seat did not follow
        if t.leader == other and lead_suit == _SPADES and not broken:
            void |= 0b1110  # S4.2: a spade led before spades broke: it held only spades
        if _SPADES in (lead_suit, follow_suit):
            broken = True
    return void


# ---- probabilities over the unknown cards -----------------------------------------------


class _Odds:
    """Chances about the other hand: it is ``k`` cards drawn from the unknown ones."""

    __slots__ = ("by_suit", "k", "n", "void")

    def __init__(self, sight: SpadesSight) -> None:
        void = sight.opp_void
        by_suit: list[list[int]] = [[], [], [], []]
        for c in sight.unknown:
            by_suit[c // 13].append(c)
        self.by_suit = by_suit
        self.void = void
        # The other hand lies among the unknown cards of suits it may still hold.
        self.n = sum(len(by_suit[s]) for s in range(4) if not (void >> s) & 1)
        self.k = min(sight.opp_cards, self.n)

    def none_of(self, h: int, suit: int) -> float:
        """Chance that the other hand holds none of ``h`` given unknown cards of ``suit``."""
        if h <= 0 or (self.void >> suit) & 1:
            return 1.0
        n, k = self.n, self.k
        p = 1.0
        for i in range(h):
            if n - i <= 0:
                break
            p *= max(0.0, (n - k - i) / (n - i))
            if p == 0.0:
                break
        return p

    def above(self, card: int) -> int:
        """Unknown cards of ``card``'s suit that beat it."""
        power = _POWER[card]
        return sum(1 for c in self.by_suit[card // 13] if _POWER[c] > power)

    def below(self, card: int) -> int:
        power = _POWER[card]
        return sum(1 for c in self.by_suit[card // 13] if _POWER[c] < power)

    def expected_length(self, suit: int) -> float:
        if (self.void >> suit) & 1 or not self.n:
            return 0.0
        return self.k * len(self.by_suit[suit]) / self.n

    def may_trump(self) -> float:
        """Chance the other hand holds a spade."""
        return 1.0 - self.none_of(len(self.by_suit[_SPADES]), _SPADES)

    def lead_wins(self, card: int) -> float:
        """Chance that leading ``card`` takes the trick against the other hand (S4.3)."""
        suit = card // 13
        win = self.none_of(self.above(card), suit)
        if suit != _SPADES:
            void = self.none_of(len(self.by_suit[suit]), suit)
            win -= void * self.may_trump()
        return win if win > 0.0 else 0.0

    def lead_loses(self, card: int) -> float:
        """Chance that the other hand *must* beat ``card`` when it is led: it holds
        cards of the suit, all of them higher (what a nil, or a nil-setter, wants)."""
        suit = card // 13
        if (self.void >> suit) & 1:
            return 0.0
        none_below = self.none_of(self.below(card), suit)
        none_at_all = self.none_of(len(self.by_suit[suit]), suit)
        out = none_below - none_at_all
        return out if out > 0.0 else 0.0


def expected_tricks(sight: SpadesSight) -> float:
    """Tricks the seat's hand should take against the other hand, before calibration
    (S3: what to bid): each card's chance to win, plus ruffs."""
    return _trick_count(sight.hand, _Odds(sight))[0]


def _trick_count(hand: Sequence[int], odds: _Odds) -> tuple[float, int]:
    """(expected tricks, sure tricks) of ``hand``: a master spade is sure to win."""
    total = 0.0
    sure = 0
    trump = odds.may_trump()
    spades = sum(1 for c in hand if c < 13)
    for suit in range(4):
        mine = sorted((c for c in hand if c // 13 == suit), key=_POWER.__getitem__, reverse=True)
        length = odds.expected_length(suit)
        # With the other hand known (face-up discards), a side master is sure while
        # it cannot be void: a count the length of that hand in the suit.
        certain = int(length) if odds.k == odds.n else 0
        for j, card in enumerate(mine):
            # Own higher cards absorb the other hand's higher ones (A-K-Q, K-Q, ...).
            p = odds.none_of(odds.above(card) - j, suit)
            if suit != _SPADES and j >= length:
                p *= 1.0 - trump * (1.0 - _SIDE_RUFF_RISK)
            total += p
            if odds.above(card) == 0 and (suit == _SPADES or trump == 0.0 or j < certain):
                sure += 1  # a master that cannot be trumped always wins its trick
        if suit != _SPADES and spades >= 2 and len(mine) <= 1:
            total += (0.4 if not mine else 0.2) * min(1.0, length)  # ruffs
    return total, sure


def _nil_holds(mine: Sequence[int], theirs: Sequence[int]) -> bool:
    """Whether a nil holds against ``theirs`` when they lead every trick to set it.

    Side suits: each lead of their t-th lowest card finds my t-th lowest card
    under it. Spades: I must never be left with only spades while they can still
    lead another suit, so I may hold no more spades than they do, each under theirs.
    """
    for suit in range(4):
        me = sorted(_POWER[c] for c in mine if c // 13 == suit)
        if not me:
            continue
        them = sorted(_POWER[c] for c in theirs if c // 13 == suit)
        if suit == _SPADES and len(me) > len(them):
            return False
        for m, t in zip(me, them, strict=False):
            if m > t:
                return False
    return True


def _nil_chance(hand: list[Card], sight: SpadesSight, rng: random.Random) -> float:
    """Chance a nil holds (S3.2), over other hands drawn from the unknown cards."""
    pool = [c for c in sight.unknown if not (sight.opp_void >> (c // 13)) & 1]
    k = min(sight.opp_cards, len(pool))
    if k == len(pool):  # face-up discards: the other hand is known (S2.4)
        return 1.0 if _nil_holds(hand, pool) else 0.0
    held = sum(_nil_holds(hand, rng.sample(pool, k)) for _ in range(_NIL_SAMPLES))
    return held / _NIL_SAMPLES


# ---- the phases -------------------------------------------------------------------------


def _blind(sight: SpadesSight) -> SpadesAction:
    """S2.1: blind nil only when the other seat is near the target and far ahead."""
    me, other = sight.totals[sight.seat], sight.totals[1 - sight.seat]
    if other >= sight.target - _BLIND_NIL_LATE and me <= other - _BLIND_NIL_BEHIND:
        return BLIND_NIL
    return PASS


def _draw(sight: SpadesSight) -> SpadesAction:
    """S2.2: keep the card when it serves the plan better than a random unseen one."""
    card = sight.drawn
    assert card is not None
    values = _NIL_VALUE if sight.blind[sight.seat] else _TRICK_VALUE
    pool = [c for c in sight.unknown if c != card]
    mean = sum(values[c] for c in pool) / len(pool) if pool else 0.0
    return KEEP if values[card] >= mean else REJECT


def _bid(sight: SpadesSight, rng: random.Random) -> SpadesAction:
    """S3: the tricks the hand should make, or nil when it promises more; careful near 500."""
    odds = _Odds(sight)
    hand = sight.hand
    raw, sure = _trick_count(hand, odds)
    # Measured in greedy play, raw estimates regress toward the mean number of tricks.
    tricks = _CALIBRATION[0] * raw + _CALIBRATION[1]
    me, other = sight.totals[sight.seat], sight.totals[1 - sight.seat]
    safety = _BID_SAFETY + _BID_SAFETY_UNSEEN * (1.0 - odds.k / odds.n if odds.n else 0.0)
    if me + 10 * round(tricks) >= sight.target:
        safety += _NEAR_TARGET_SAFETY  # S6: making the bid wins the game; do not gamble it
    bid = min(max(int(tricks + 0.5 - safety), sure, 1), 12)
    if sure == 13:
        bid = 13  # S3.2: shoot the moon with thirteen sure tricks
    value_bid = 6.0 * bid  # 10 per trick when made, -10 when not: about 78% made
    if other >= sight.target - _BLIND_NIL_LATE and me < other:
        value_bid *= 0.7  # behind late: the bigger prize matters more
    if bid <= _NIL_MAX_BID and 100.0 * _nil_chance(hand, sight, rng) > value_bid + _NIL_EDGE:
        return BIDS[0]
    return BIDS[bid]


def _wants_tricks(sight: SpadesSight) -> bool:
    """Whether this seat wants the trick in progress (S5: bids, bags, the other's nil)."""
    seat, other = sight.seat, 1 - sight.seat
    my_bid, opp_bid = sight.bids[seat], sight.bids[other]
    won, opp_won = sight.won[seat], sight.won[other]
    left = 13 - sight.tricks_done
    if my_bid == 0:
        return False  # S3.2: protect the nil (or, once it failed, avoid more bags)
    my_bid = my_bid or 0
    need = my_bid - won
    opp_nil = opp_bid == 0 and opp_won == 0
    if opp_nil and need < left:
        return False  # set their nil: make them take the tricks
    if 0 < need <= left:
        return True
    opp_need = (opp_bid or 0) - opp_won
    if need > left:  # the bid is lost (no bags on a failed bid): take theirs away
        return opp_need > 0
    bags = sight.bags[seat] + won - my_bid
    return opp_need > 0 and opp_need >= left - _SET_SLACK and bags < _BAG_WORRY


def _discard_worth(card: int) -> tuple[float, int]:
    return _TRICK_VALUE[card], _POWER[card]


def _play(state: SpadesHand, sight: SpadesSight) -> SpadesAction:
    """S4: win as cheaply as possible or duck, lead winners or cards the other must beat."""
    legal = [a.card for a in state.legal_tuple()]
    cards: list[int] = [c for c in legal if c is not None]
    if len(cards) == 1:
        return PLAYS[cards[0]]
    want = _wants_tricks(sight)
    lead = sight.lead
    power = _POWER
    if lead is not None:
        suit = lead // 13
        follow = [c for c in cards if c // 13 == suit]
        if follow:
            above = [c for c in follow if power[c] > power[lead]]
            below = [c for c in follow if power[c] < power[lead]]
            if want:
                pick = min(above or follow, key=power.__getitem__)  # the cheapest winner
            elif below:
                pick = max(below, key=power.__getitem__)  # the highest card that ducks
            else:
                pick = max(follow, key=power.__getitem__)  # forced to win: spend a high card
            return PLAYS[pick]
        spades = [c for c in cards if c < 13]
        side = [c for c in cards if c >= 13]
        if want and spades and suit != _SPADES:
            return PLAYS[min(spades, key=power.__getitem__)]  # ruff with the lowest spade
        if side:
            # Wanting tricks: throw the least useful card; ducking: shed the most dangerous.
            worth = _discard_worth
            return PLAYS[min(side, key=worth) if want else max(side, key=worth)]
        pick = min(spades, key=power.__getitem__) if want else max(spades, key=power.__getitem__)
        return PLAYS[pick]
    odds = _Odds(sight)
    if want:
        best = max(cards, key=lambda c: (odds.lead_wins(c), -power[c]))
        if odds.lead_wins(best) >= 0.5:
            return PLAYS[best]
        # No sure winner: give the lead away cheaply, keeping honours and trumps.
        return PLAYS[min(cards, key=lambda c: (c < 13, _TRICK_VALUE[c], power[c]))]
    best = max(cards, key=lambda c: (odds.lead_loses(c), -odds.lead_wins(c), -power[c]))
    return PLAYS[best]


def greedy_policy(state: SpadesHand, rng: random.Random) -> SpadesAction:
    """The greedy action for ``state.to_move``, from what that seat may know.

    Deterministic given ``rng`` (used only to judge a nil bid over imagined
    other hands); always one of ``state.legal_actions()``. Raises ValueError when the hand is over.
    """
    seat = state.to_move
    if seat is None:
        raise ValueError("the hand is over: nobody is to move")
    phase = state.phase
    if phase is _P_PLAY:
        return _play(state, seat_sight(state, seat))
    sight = seat_sight(state, seat)
    if phase is _P_DRAW:
        return _draw(sight)
    if phase is _P_BID:
        return _bid(sight, rng)
    if phase is _P_BLIND:
        return _blind(sight)
    raise ValueError(f"no decision in phase {phase.value}")


class GreedySpadesBot(PolicyBot):
    """The `greedy` level for Spades: :func:`greedy_policy` on a sample of its seat's view."""

    level = "greedy"
    policy = staticmethod(greedy_policy)
