"""How much a rival's hidden-but-seen cards are worth, and which schedule greedy should use.

Run: ``./dev bench owner_known_share [--preset four-in-hand] [--deals 1500]
[--against 0.9,0.8,0.7,0.6,0.5] [--play 4000] [--first 0]``, or ``--gammas ROUNDS``
for the expert's believed worlds (3 below).

Where owners know their face-down cards (hand4 and closed 2x2 golf, G1.7, G8.2)
greedy values each such card of a rival at a *share* of the unseen mean that
falls by round (``golf_estimate._OWNER_KNOWN_SHARE`` and ``_SHARE_HAND``), since
the owner kept it by choice. This prints

1. the share that makes greedy's estimate of a rival's total unbiased, by
   round (turns // players), measured at every turn of greedy self-play: the
   rival's true score less greedy's total with those cards at 0, over their
   number times the unseen mean (pairs among them included);
2. with ``--play N``, the current schedule against ``--against`` (the
   schedule before) over N mirrored deals from deal ``--first``: hole wins of
   the current one among decided holes and its margin in points a hole;
3. with ``--gammas ROUNDS``, instead, ``golf_belief``'s gamma for each round (the
   last for every later one), fitted so that believed rivals score what real ones
   held, and the scores by round: real, drawn at random, believed
   (``HAND_GAMMAS`` from four-in-hand with 6, ``CLOSED_GAMMAS`` from four-card
   with 8, each over 1,000 deals).

It changed four-in-hand's schedule from (0.9 ... 0.5) to (0.7, 0.5, 0.35,
0.25, 0.2): greedy had knocked in 70% of holes, judging a rival at about 18.6
points who really held about 11, and lost to `easy`.
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict
from collections.abc import Iterator

from greenfelt.bots import golf_estimate
from greenfelt.bots.golf_belief import believe, unknown_places
from greenfelt.bots.golf_greedy import Decision, greedy_policy
from greenfelt.bots.golf_sight import OWNER_KNOWN, UNKNOWN
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.game import GolfRound, Phase
from greenfelt.golf.rules import GolfRules
from greenfelt.golf.scoring import score_layout


def greedy_turns(rules: GolfRules, deals: int) -> Iterator[tuple[GolfRound, int]]:
    """(state, seat to move) at each turn (G2.1) of greedy self-play, two players; the
    move is played after the caller has looked."""
    for deal in range(deals):
        rng = random.Random(deal)
        state = new_round(rules, 2, deal % 2, rng=rng)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            if state.phase is Phase.TURN:
                yield state, seat
            state.apply(greedy_policy(state, rng), seat)


def measured_shares(rules: GolfRules, deals: int) -> dict[int, tuple[int, float]]:
    """Round -> (turns seen, unbiased share) from greedy self-play, two players."""
    sums: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for state, seat in greedy_turns(rules, deals):
        tables = golf_estimate.layout_tables(rules, state.n)
        decision = Decision(state, seat, tables).estimate()
        mean = tables.v[UNKNOWN]
        tables.v[OWNER_KNOWN] = 0.0  # the rival's total without those cards
        rival = 1 - seat
        base = tables.total(decision.cells, rival)
        own = decision.cells[rival * state.size : (rival + 1) * state.size]
        count = own.count(OWNER_KNOWN)
        layout = state.cards[rival * state.size : (rival + 1) * state.size]
        if count and mean > 0:
            row = sums[min(state.turns // state.n, 8)]
            row[0] += 1
            row[1] += score_layout(layout, rules).total - base
            row[2] += count * mean
    return {r: (int(n), part / whole) for r, (n, part, whole) in sorted(sums.items())}


def belief_samples(
    rules: GolfRules, deals: int, rounds: int
) -> dict[int, list[tuple[int, GolfRound]]]:
    """Round -> (the rival's true score, the state) at each turn of greedy self-play,
    two players, where the rival holds cards it saw that the seat to move has not."""
    out: dict[int, list[tuple[int, GolfRound]]] = defaultdict(list)
    for state, seat in greedy_turns(rules, deals):
        rival, size = 1 - seat, state.size
        if rival in unknown_places(state, seat)[0]:
            score = score_layout(state.cards[rival * size : (rival + 1) * size], rules).total
            out[min(state.turns // state.n, rounds - 1)].append((score, state.clone()))
    return out


def believed_score(
    samples: list[tuple[int, GolfRound]], gammas: tuple[float, ...], seed: int
) -> tuple[float, float, float]:
    """The rival's mean true score, and its mean in worlds drawn at random and by belief
    (the same random worlds for every ``gammas``, so the mean moves smoothly with them)."""
    rng = random.Random(seed)
    true = drawn = believed = 0.0
    for score, state in samples:
        seat = state.to_move
        assert seat is not None
        rival, size = 1 - seat, state.size
        world = state.determinize(seat, rng)
        drawn += score_layout(world.cards[rival * size : (rival + 1) * size], state.rules).total
        world = believe(world, seat, rng, gammas)
        believed += score_layout(world.cards[rival * size : (rival + 1) * size], state.rules).total
        true += score
    n = len(samples)
    return true / n, drawn / n, believed / n


def fit_gamma(samples: list[tuple[int, GolfRound]], seed: int) -> float:
    """The gamma that makes a believed rival's mean score its true one (bisection; the
    believed mean falls as gamma grows). 8 stands for "the best of the proposals"."""
    true = believed_score(samples, (0.0,), seed)[0]
    low, high = 0.0, 8.0
    if believed_score(samples, (high,), seed)[2] >= true:
        return high
    for _ in range(16):
        mid = (low + high) / 2
        if believed_score(samples, (mid,), seed)[2] > true:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def head_to_head(
    rules: GolfRules, against: tuple[float, ...], deals: int, first: int
) -> tuple[int, int, int, float]:
    """(wins, losses, ties, margin a hole) of the current schedule against ``against``."""
    attribute = "_OWNER_KNOWN_SHARE_HAND" if rules.shape.is_hand else "_OWNER_KNOWN_SHARE"
    current = getattr(golf_estimate, attribute)

    def player(shares: tuple[float, ...]):  # type: ignore[no-untyped-def]
        def policy(state, rng):  # type: ignore[no-untyped-def]
            tables = golf_estimate.layout_tables(rules, state.n)
            tables.owner_shares = shares
            return greedy_policy(state, rng)

        return policy

    players = (player(current), player(against))
    wins = losses = ties = 0
    margin = 0.0
    for deal in range(first, first + deals):
        for swap in (0, 1):
            rng = random.Random(deal * 7 + swap)
            state = new_round(rules, 2, 0, rng=random.Random(deal))
            seats = players if swap == 0 else players[::-1]
            while not state.is_over:
                seat = state.to_move
                assert seat is not None
                state.apply(seats[seat](state, rng), seat)
            scores = state.scores
            assert scores is not None
            mine, theirs = scores[swap], scores[1 - swap]
            margin += theirs - mine
            wins += mine < theirs
            losses += mine > theirs
            ties += mine == theirs
    tables = golf_estimate.layout_tables(rules, 2)
    tables.owner_shares = current
    return wins, losses, ties, margin / (2 * deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="four-in-hand")
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--against", default="0.9,0.8,0.7,0.6,0.5")
    parser.add_argument("--play", type=int, default=0)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--gammas", type=int, default=0, metavar="ROUNDS")
    args = parser.parse_args()
    rules = find_preset(args.preset)
    if args.gammas:
        samples = belief_samples(rules, args.deals, args.gammas)
        gammas = tuple(round(fit_gamma(samples[r][:1500], r), 3) for r in sorted(samples))
        print(f"{args.preset}: belief gammas by round ({args.deals} deals): {gammas}")
        for r in sorted(samples):
            true, drawn, believed = believed_score(samples[r], gammas, 100 + r)
            print(
                f"  round {r}: rival's score {true:5.2f}, drawn at random {drawn:5.2f},"
                f" by belief {believed:5.2f}  ({len(samples[r])} turns)"
            )
        return
    print(f"{args.preset}: unbiased share of the unseen mean by round ({args.deals} deals)")
    for round_, (turns, share) in measured_shares(rules, args.deals).items():
        print(f"  round {round_}: {share:6.3f}  ({turns} turns)")
    if args.play:
        against = tuple(float(x) for x in args.against.split(","))
        wins, losses, ties, margin = head_to_head(rules, against, args.play, args.first)
        decided = wins + losses
        p = wins / decided
        half = 196 * math.sqrt(p * (1 - p) / decided)
        print(
            f"current schedule against {against}: wins {100 * p:.1f}% ±{half:.1f} of {decided}"
            f" decided holes ({ties} ties), {margin:+.2f} points a hole"
        )


if __name__ == "__main__":
    main()
