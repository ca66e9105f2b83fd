"""The `expert` bot: Information-Set Monte Carlo Tree Search (Cowling, Powley, Whitehouse 2012).

Single-observer ISMCTS: one tree for the deciding seat, its edges keyed by
actions, every iteration played in a fresh *determinization* (a full state drawn
from the seat's observation, so the bot never sees a hidden card). Below the
root, selection uses UCB1 with *availability* counts, so a move is judged only
against the worlds in which it was legal; an unvisited node first tries the
move the rollout policy would make there. From the tree's edge (``depth`` moves
deep) the round is played out, the others by the greedy policy (a model of a
sound player) and the expert's own seat by its *playout* policy (for Golf,
``golf_playout``: greedy with placements chosen by a model fitted to rollout
values, since its own later moves are better than greedy's), and the result is
backed up along the path, each node credited from the view of the seat that
moved into it.

At the root the budget is spent by *sequential halving* (Karnin, Koren, Somekh
2013) with *common random numbers*: iterations come in blocks, each block one
imagined world and one rollout stream shared by every candidate move, so moves
are compared on the same deals rather than on luck, and each round of the
budget keeps the better half of the moves.

The search can be *anchored* (``anchor_z``): the move the playout policy itself
would make stays in the search to the end, and another move replaces it only if
its paired mean reward over the same worlds is higher by ``anchor_z`` standard
errors. A few hundred noisy rollouts then cannot talk the bot out of a sound
move by luck, at the price of keeping the policy's move where the search is
right but not yet sure.

The budget is a number of iterations (deterministic for a seed: what tests and
simulations need) and optionally a time limit in milliseconds (what people at a
table want); with both, whichever ends first. A search the time limit cuts
short plays at least one block, and where it has no anchor it falls back on
one: the playout's move, kept unless clearly beaten on the worlds played so far
(a few rollouts a move decide by luck). After its first block a time-limited
search plans the rest from its pace: where the time left will not cover the
budget, the budget shrinks to what it will, so the rounds of halving end by
the limit instead of the first one being cut, and the fallback stays in the
search to the end. It can grow with the choice
(``per_choice`` iterations per legal move, up to the budget), as the default
does where the fitted Golf model plays (``DEFAULT_PER_CHOICE``). Options serve
experiments: ``align`` (Golf: candidates that turn up different face-down cards
see the same card in each world, ``golf_worlds``; measured worse, so off),
``playout_phases`` (phases the playout decides without a search, in every
stage of the round or one: ``turn@other``; by default the early turns, and where
the learned six-card value proposes the move, the last turn, which it values
exactly: ``DEFAULT_VALUE_PHASES``),
``win_weight`` (Golf: the reward's share for the result of the hole), and
``stage_budget`` and ``stage_z`` (Golf: the budget's multiplier and the anchor's
threshold by how near the round is to its end, ``golf_stage``), ``halving``
(off: every legal move gets an equal share of the budget, the plain Monte Carlo
sampler the strength bar's reference figures were measured with) and
``top_moves`` (Golf placements: only the fitted model's best few are searched,
in every stage or by stage; measured to cost margin, so off).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from greenfelt.bots.base import Bot, Observation, Policy

__all__ = [
    "DEFAULT_ANCHOR_Z",
    "DEFAULT_ITERATIONS",
    "DEFAULT_LEAF",
    "DEFAULT_PER_CHOICE",
    "DEFAULT_PLAYOUT_PHASES",
    "DEFAULT_PRIOR_WEIGHT",
    "DEFAULT_VALUE_PHASES",
    "DEFAULT_WIN_WEIGHT",
    "ExpertBot",
    "golf_reward",
    "spades_reward",
]

DEFAULT_ITERATIONS = {"golf": 600, "spades": 300}
"""Default budgets: at most about 0.2 s per move on one core of the reference machine."""
DEFAULT_PER_CHOICE = (150, 1050)
"""Where the fitted Golf model plays (six-, eight- and ten-card), the default budget
instead grows with the choice: 150 iterations per legal move, at most 1,050. A turn
(draw or take) gets 300 and a placement (seven moves) 1,050, where a flat 600 gave
each the same: placing a card is where the search wins most (docs/expert-six-card.md),
and the opening reveals (G1.7) are left to the playout's rule, as are, since, the
turns before anyone is near closing (``DEFAULT_PLAYOUT_PHASES``). Measured on six-card
against greedy: 63.0% of 1,454 decided holes at 0.18 s a move, where the flat 600
won 61.9% of 1,195 at 0.21 s on the same deals. More is not better: four times this
budget won 9.7 +-6.3 points of percentage fewer holes on the same 295, and twice it
with ``anchor_z`` raised by the square root of 2 (the same smallest gain acted on) 3.6
+-4.2 fewer on the same 337 (docs/expert-six-card.md)."""
DEFAULT_DEPTH = {"golf": 1, "spades": 3}
"""How deep the tree grows before rollouts. Golf's next decisions hang on cards
drawn in the dark, which a tree keyed by actions would fuse, so its tree is the
root's moves and the playouts play on (measured: depth 1 won 62% of decided
holes against greedy where depth 3 won 42%)."""
DEFAULT_PRIOR_WEIGHT = 0.0
"""How many rollouts the prior estimate of a root move counts as (Golf: ``_prior``).
Off by default. With the fitted playout's estimate of the placements, 40 won at a
small budget (150 iterations: +2.0 +-2.8 points of percentage, 1.31 +-0.53 fewer
points a hole, paired over 1,410 holes), but at 600 iterations it won 57.7% [52.8,
62.5] of 388 decided holes, where the fitted playout alone won 63.6% [58.4, 68.6] of
338 at 700. With the learned value's estimate of every move (two-player six-card),
150 gained +0.80 +-1.16 points of percentage and +0.03 +-0.22 points a hole, paired
over 1,500 holes: short of the +1.0 set before the run (docs/expert-six-card.md)."""

DEFAULT_ANCHOR_Z = 1.0
"""How sure the search must be to overrule its playout policy's own move: the
paired mean gain over that move must exceed this many standard errors. On by
default where the expert's own seat plays the fitted Golf model
(``golf_playout``), which beats greedy: at 150 iterations on six-card it won
57.0% of 1,334 decided holes where the unanchored search won 50.0% on the same
deals (paired: +6.6 +-3.3 points of percentage, 2.18 +-0.61 fewer points a
hole). At the default budget one standard error is where it peaks: on the same
six-card holes 2 won 3.6 +-2.6 points of percentage fewer, and 0.5 lost 0.83
+-0.52 points a hole more (docs/expert-six-card.md). Elsewhere the playout is
greedy, whose own moves the search improves on by far more (four-card: 0.042 of
a win a decision against the search's 0.007), so the search is not anchored,
except in columns of three (nine-card), where greedy builds columns (G5.3): there
the unanchored search won only 51.6% of 376 decided holes against it, the search
anchored to greedy's move 56.9% of 341 (paired on the same 353 holes, +3.7 +-6.8
points of percentage and +2.22 +-1.86 points a hole). ``anchor_z`` sets it for
every game."""

Reward = Callable[[Any], Sequence[float]]
DEFAULT_PLAYOUT_PHASES = frozenset(("reveal", "turn@other"))
"""What the fitted Golf playout decides without a search at the default budget
(``playout_phases``): the opening reveals (G1.7), a choice of symmetry, and the turn
(G2.1: draw or take) while no seat is near closing (``golf_stage``: ``other``), where
a one-step search gains nothing over the playout (``bench_search_gain``). Measured on
six-card against greedy, on the same 1,985 holes (two seeds) as the default that
searched those turns: paired -0.23 +-0.79 points of percentage of decided holes and
0.00 +-0.13 points a hole of margin, at 14% less time a move (62.7% of 1,962 decided
holes; docs/expert-six-card.md)."""
DEFAULT_VALUE_PHASES = frozenset(("turn@final", "drawn@final", "taken@final", "flip@final"))
"""What the learned six-card value (``golf_value``) also decides without a search at the
default budget, where it proposes the seat's own move: the seat's last turn after
another closed (G3.1), which it values exactly (the hole's own reward over what the
seat's face-down cards may be, ``golf_value.EXACT_DOWN``), so rollouts can only add
noise there. On six-card against greedy, all 1,500 holes of seed 3131's first 750
deals, paired with the search there (exact values too, run beside it): +0.10 +-0.15
points of percentage of decided holes and +0.01 +-0.02 points a hole, at 1% less time
a move; the search and the value nearly always agree in the last turn, so the gain is
the simpler decision, not strength (docs/expert-six-card.md)."""
DEFAULT_TOP_MOVES: dict[str, int] = {}
"""How many of the fitted model's best placements the search weighs at the default
budget, by stage of the round (``top_moves``; a stage not named: every legal move).
Empty: the search's placements outside the model's three best are worth keeping. On
six-card against greedy, all 1,500 holes of seed 3131's first 750 deals, paired with
the default: the model's three best in every stage lost 1.17 +-1.89 points of
percentage and 0.37 +-0.33 points a hole of margin, at 0.133 s a move; in stage
``other`` only, 1.37 +-1.74 and 0.34 +-0.31, at 30% less time a move on the same
decisions (docs/expert-six-card.md)."""
DEFAULT_LEAF = 2
"""Where the learned six-card value applies (``golf_value``), a rollout stops once the
seat has ended this many turns and takes the network's value of that afterstate
(``leaf``; 0 plays the hole out). Measured on six-card against greedy, paired with
rollouts played out, in two samples of seed 3131's holes (deals 0-502 and 486-749):
+1.04 +-2.84 and -0.57 +-3.74 points of percentage of decided holes, +0.51 +-0.50 and
+0.07 +-0.65 points a hole of margin; weighted by holes (1,006 and 527) +0.49 and
+0.36, neither sure. On all 1,499 holes of deals 0-749, alone: +0.27 +-2.28 and
+0.31 +-0.40, at 14% less time a move (0.223 against 0.260 s on the same 76 holes).
Three turns: +1.13 +-2.64 and +0.22 +-0.48 on deals 0-485. One turn, paired with two
on deals 0-496: -0.55 +-2.66 and -0.52 +-0.46, at 15% less time
(docs/expert-six-card.md)."""
DEFAULT_ESTIMATE = 2
"""Where a Golf estimate was fitted and no learned value applies (``golf_leaf``: two-
player nine-card-wiki; nine-card and bga at tables only), a rollout stops once the seat
has ended this many turns and takes greedy's estimate of the hole's reward
(``estimate``; 0 plays the hole out).
Measured on nine-card-wiki against greedy at tables (200 ms a move), seed 9191: 67.1%
of 630 decided holes, 4.83 points a hole against greedy's 9.87, at 0.134 s a move,
where the search that plays rollouts out won 58.2% of 596 at 0.176 s. Paired on the
same holes, three times the budget with the estimate gained +10.2 +-5.0 points of
percentage and +2.6 +-1.5 points a hole over playing out (606 holes), and the default
budget read -1.2 +-4.2 and -0.03 +-1.3 against three times it (646 holes), so the
budget stays (docs/benchmarks.md, the expert at tables). Nine-card and bga at tables,
paired with playing out: +2.0 +-4.8 and +2.2 +-4.9 points of percentage at 0.125 and
0.105 s a move against 0.168 and 0.160; without a limit bga's read -1.6 +-4.3 (-0.03
+-0.8 points a hole; 809 holes) against playing out and nine-card's -3.0 +-5.3 (-0.6
+-1.3; 574), playing out four to five times slower, so simulations there play out
(``golf_leaf.LeafFit.untimed``).
Four-card's fit read -3.1 +-3.8 at tables at no saving in time, so it has none."""
_GOLF_PHASES = frozenset(("reveal", "turn", "drawn", "taken", "flip"))
"""The Golf phases with a choice that ``playout_phases`` may leave to the playout."""


DEFAULT_BELIEF: frozenset[str] = frozenset({"hand4", "2x2"})
"""The Golf layouts where the search imagines rivals' seen-and-kept cards by belief
(``golf_belief``) rather than at random, unless ``belief`` says otherwise. Against
greedy, paired with random worlds on the same holes: on four-in-hand +4.39 +-3.27
points of percentage of decided holes and +0.98 +-0.51 points a hole on 603 holes of
seed 6161, +5.29 +-3.50 and +0.91 +-0.50 on 482 fresh holes of seed 6262 (59.9% of
decided holes, 3.88 points a hole against greedy's 3.83). On four-card (closed 2x2)
+6.62 +-4.10 and +0.55 +-0.59 on 665 holes of seed 4402, -1.87 +-5.23 and -0.19 +-0.86
on 348 of seed 4403, +8.19 +-5.75 and +1.00 +-0.88 on 293 of seed 4404 (together
+4.71 +-2.83 and +0.45 +-0.43, the rule to turn it on), and on fresh deals since,
+4.72 +-6.07 and +0.68 +-0.90 on 286 of seed 4405: over the four, +4.71 +-2.56 and
+0.49 +-0.38 on 1,592 holes (65.3% of decided holes, 4.05 points a hole against
greedy's 5.21, where random worlds won 58.9%, 6.11 against 6.56)."""


DEFAULT_WIN_WEIGHT = 0.7
"""The share of Golf's reward that is the result of the hole; the rest is the margin
(``win_weight``). On six-card at the default budget, 0.9 won no more holes against
greedy (-0.6 +-1.2 points of percentage, paired on the same 1,161 holes) and lost
0.33 +-0.22 points a hole more; 0.5 gained no margin (+0.04 +-0.18 points a hole,
-0.91 +-1.16 points of percentage, paired on 1,491 holes; docs/expert-six-card.md)."""


def golf_reward(state: Any, win_weight: float = DEFAULT_WIN_WEIGHT) -> list[float]:
    """Per seat, in [0, 1]: mostly winning the hole, partly the margin (G9.2: lowest wins).

    The margin part says which of two moves is better far more often than the
    result alone (measured against greedy: 62% of decided holes with this mix,
    58% with the margin alone).
    """
    scores = state.scores
    n = len(scores)
    total = sum(scores)
    out = []
    for seat, mine in enumerate(scores):
        best_other = min(s for i, s in enumerate(scores) if i != seat)
        outcome = 1.0 if mine < best_other else 0.5 if mine == best_other else 0.0
        margin = max(-1.0, min(1.0, ((total - mine) / (n - 1) - mine) / 20.0))
        out.append(win_weight * outcome + (1.0 - win_weight) / 2.0 * (margin + 1.0))
    return out


def spades_reward(state: Any) -> list[float]:
    """Per seat, in [0, 1]: the hand's point margin, and the game when this hand decides it (S6.1)."""
    scores = state.scores
    totals = [t + s for t, s in zip(state.totals_before, scores, strict=True)]
    target = state.rules.target
    out = []
    for seat in (0, 1):
        margin = math.tanh((scores[seat] - scores[1 - seat]) / 100.0)
        value = 0.5 + 0.5 * margin
        if max(totals) >= target and totals[0] != totals[1]:
            won = totals[seat] > totals[1 - seat]
            value = 0.5 * value + (0.5 if won else 0.0)
        out.append(value)
    return out


class _Node:
    """Statistics of one action in the tree, from the view of the seat that took it."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def _mean(node: _Node) -> float:
    return node.total / node.visits


def _clearly_better(best: dict[int, float], anchor: dict[int, float], z: float) -> bool:
    """Whether ``best`` beats ``anchor`` by more than ``z`` standard errors of the
    mean difference, paired over the blocks (worlds) both were played in."""
    diffs = [reward - anchor[block] for block, reward in best.items() if block in anchor]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(var / n)


TIME_MARGIN = 0.9
"""The share of the time left that a time-limited search plans to spend: a block's
cost varies with its world, and the limit still stops a search that runs over."""


def _affordable(budget: int, done: int, started: float, deadline: float) -> int:
    """The budget a time-limited search can finish, from the pace of what it has
    done since ``started``: ``budget`` where the time suffices, never under ``done``."""
    now = time.perf_counter()
    spent = now - started
    if spent <= 0:  # a clock too coarse to tell the pace
        return budget
    more = int(max(0.0, deadline - now) * TIME_MARGIN * done / spent)
    return max(done, min(budget, done + more))


def _by_stage(option: str, spec: str | dict[str, float] | None, positive: bool) -> dict[str, float]:
    """An option by Golf stage (``golf_stage.STAGES``), "STAGE:X,STAGE:X" or a mapping."""
    if spec is None:
        return {}
    form = f"{option} is STAGE:NUMBER[,STAGE:NUMBER...]"
    if isinstance(spec, str):
        pairs = [part.split(":", 1) for part in spec.replace(";", ",").split(",") if part.strip()]
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError(f"{form}, not {spec!r}")
        try:
            spec = {name.strip(): float(x) for name, x in pairs}
        except ValueError:
            raise ValueError(f"{form}, not {spec!r}") from None
    from greenfelt.bots.golf_stage import STAGES

    for name, x in spec.items():
        if name not in STAGES:
            raise ValueError(f"{option}: {name!r} is not a stage; choose from {', '.join(STAGES)}")
        if not (x > 0 if positive else x >= 0):
            raise ValueError(
                f"{option}: {name}:{x} must be {'more than 0' if positive else '0 or more'}"
            )
    return dict(spec)


def _top_moves(spec: int | str | dict[str, float]) -> dict[str, int]:
    """``top_moves``: a number for every stage ("3") or by stage ("other:3,near:4")."""
    from greenfelt.bots.golf_stage import STAGES

    if isinstance(spec, str) and ":" not in spec:
        try:
            spec = int(spec)
        except ValueError:
            raise ValueError(f"top_moves is a number or STAGE:NUMBER[,...], not {spec!r}") from None
    if isinstance(spec, int):
        spec = dict.fromkeys(STAGES, spec)
    counts = _by_stage("top_moves", spec, positive=False)
    if any(x != int(x) for x in counts.values()):
        raise ValueError(f"top_moves counts moves, a whole number: not {spec!r}")
    return {name: int(x) for name, x in counts.items()}


def _check_phases(entries: frozenset[str]) -> None:
    """``playout_phases`` entries: PHASE or PHASE@STAGE (``golf_stage.STAGES``)."""
    from greenfelt.bots.golf_stage import STAGES

    for entry in sorted(entries):
        phase, at, where = entry.partition("@")
        if phase not in _GOLF_PHASES:
            raise ValueError(
                f"unknown playout phase {phase}{f' (in {entry})' if at else ''}: choose from"
                f" {', '.join(sorted(_GOLF_PHASES))}"
            )
        if at and where not in STAGES:
            raise ValueError(
                f"unknown stage {where or '(none)'} in playout phase {entry}: choose from"
                f" {', '.join(STAGES)}"
            )


def _flag(option: str, value: bool | int | str) -> bool:
    """An on/off option, as a bool, 0/1 or text (``--bot-option expert:halving=off``)."""
    text = value.strip().lower() if isinstance(value, str) else value
    if text in ("1", "true", "yes", "on", 1):
        return True
    if text in ("0", "false", "no", "off", 0):
        return False
    raise ValueError(f"{option} is on or off, not {value!r}")


def _is_fitted(game: str, policy: Policy) -> bool:
    """Whether ``policy`` is Golf's fitted playout model (``golf_playout``)."""
    if game != "golf":
        return False
    from greenfelt.bots.golf_playout import playout_policy

    return policy is playout_policy


def _model_applies(world: Any) -> bool:
    """Whether the fitted Golf model covers the rules of ``world`` (a Golf state)."""
    if world is None:
        return False
    from greenfelt.bots.golf_playout import applies

    return applies(world)


def _default_policy(game: str) -> Policy:
    if game == "golf":
        from greenfelt.bots.golf_greedy import greedy_policy
    else:
        from greenfelt.bots.spades_greedy import greedy_policy  # type: ignore[assignment]
    return greedy_policy


def _playout(game: str, name: str) -> Policy:
    """The expert's own-seat policy by name: ``fitted`` (Golf's default) or ``greedy``."""
    if name == "fitted" and game == "golf":
        from greenfelt.bots.golf_playout import playout_policy

        return playout_policy
    if name in ("greedy", "fitted"):
        return _default_policy(game)
    raise ValueError(f"unknown playout {name!r}: choose fitted or greedy")


class ExpertBot(Bot):
    """ISMCTS over ``determinize``, greedy and playout rollouts; see the module docstring."""

    level = "expert"

    def __init__(
        self,
        game: str,
        rng: random.Random | int | None = None,
        *,
        iterations: int | None = None,
        time_ms: float | None = None,
        exploration: float = 0.7,
        depth: int | None = None,
        rollout: Policy | None = None,
        playout: Policy | str = "fitted",
        prior_weight: float = DEFAULT_PRIOR_WEIGHT,
        anchor_z: float | None = None,
        per_choice: int | None = None,
        align: bool | int | str = False,
        playout_phases: str | Sequence[str] | None = None,
        win_weight: float | None = None,
        stage_budget: str | dict[str, float] | None = None,
        stage_z: str | dict[str, float] | None = None,
        halving: bool | int | str = True,
        top_moves: int | str | dict[str, float] | None = None,
        value: bool | int | str = True,
        leaf: int = DEFAULT_LEAF,
        estimate: int = DEFAULT_ESTIMATE,
        belief: bool | int | str | None = None,
    ) -> None:
        super().__init__(rng)
        if game not in DEFAULT_ITERATIONS:
            raise ValueError(f"unknown game {game!r}")
        self.game = game
        self.iterations = int(iterations) if iterations is not None else DEFAULT_ITERATIONS[game]
        # Iterations per legal move, up to ``iterations``; None: the whole budget on
        # every decision, except the default budget where the fitted model plays
        # (DEFAULT_PER_CHOICE).
        self.per_choice = int(per_choice) if per_choice is not None else None
        self._default_budget = iterations is None and per_choice is None
        self.time_ms = float(time_ms) if time_ms is not None else None
        self.exploration = float(exploration)
        self.depth = int(depth) if depth is not None else DEFAULT_DEPTH[game]
        if (
            self.iterations < 1
            or self.depth < 1
            or (self.per_choice is not None and self.per_choice < 1)
            or (self.time_ms is not None and self.time_ms <= 0)
        ):
            raise ValueError("iterations, per_choice, depth and time_ms must be positive")
        # None: anchored (DEFAULT_ANCHOR_Z) where the own seat plays the fitted Golf model.
        self.anchor_z = float(anchor_z) if anchor_z is not None else None
        if self.anchor_z is not None and not self.anchor_z >= 0:
            raise ValueError(f"anchor_z must be 0 (off) or more, not {anchor_z!r}")
        self.rollout = rollout or _default_policy(game)  # the other seats
        # The expert's own seat: a policy, or its name ("fitted": golf_playout where
        # it applies; "greedy"; Spades has only greedy).
        self.playout = _playout(game, playout) if isinstance(playout, str) else playout
        self._fitted = _is_fitted(game, self.playout)
        self.prior_weight = float(prior_weight)
        self.reward: Reward = golf_reward if game == "golf" else spades_reward
        if win_weight is not None:
            weight = float(win_weight)
            if game != "golf" or not 0.0 <= weight <= 1.0:
                raise ValueError("win_weight is for Golf, from 0 (the margin only) to 1")
            self.reward = functools.partial(golf_reward, win_weight=weight)
        # Golf: candidates that turn up different face-down cards see the same card
        # in each world (``golf_worlds``); off by default, as measured
        # (docs/expert-six-card.md).
        self.align = _flag("align", align) and game == "golf"
        # Phases the own playout decides without a search where the fitted model
        # applies; None: at the default budget DEFAULT_PLAYOUT_PHASES (and, where the
        # learned value proposes the move, DEFAULT_VALUE_PHASES), else none.
        # An entry is a phase ("flip") or a phase in one stage of the round
        # (``golf_stage``: "turn@other").
        if isinstance(playout_phases, str):
            playout_phases = [p.strip() for p in playout_phases.split(",") if p.strip()]
        self.playout_phases = (
            frozenset(p.replace(" ", "") for p in playout_phases)
            if playout_phases is not None
            else None
        )
        if self.playout_phases and game != "golf":
            raise ValueError("playout_phases is for Golf, where a fitted playout plays")
        _check_phases(self.playout_phases or frozenset())
        # Golf, where the fitted model plays: the budget and the anchor's threshold
        # by how near the round is to its end (``golf_stage``): ``stage_budget``
        # multiplies the budget ("close:3,other:0.6"), ``stage_z`` replaces the
        # threshold ("final:0,other:2").
        self.stage_budget = _by_stage("stage_budget", stage_budget, positive=True)
        self.stage_z = _by_stage("stage_z", stage_z, positive=False)
        if (self.stage_budget or self.stage_z) and game != "golf":
            raise ValueError("stage_budget and stage_z are for Golf, where a fitted playout plays")
        # Sequential halving at the root; off, the budget is spread evenly over the
        # legal moves (a plain sampler: ``per_choice`` rollouts for every move).
        self.halving = _flag("halving", halving)
        # Golf placements where the fitted model plays: the search weighs only the
        # model's best few, in every stage ("3") or by stage ("other:3"; 0: every
        # legal move); None: DEFAULT_TOP_MOVES at the default budget, else every move.
        self.top_moves = _top_moves(top_moves) if top_moves is not None else None
        if self.top_moves and game != "golf":
            raise ValueError("top_moves is for Golf, where a fitted playout plays")
        # Two-player six-card Golf: the seat's own move (the anchor, and the phases
        # left to the playout) is the learned value's (``golf_value``); off, the
        # fitted playout's, as before.
        self.value = _flag("value", value) and game == "golf"
        # Two-player six-card Golf with the learned value on: a rollout stops when the
        # seat has ended ``leaf`` turns (the root move's own turn counts) and takes the
        # network's value of that afterstate (``golf_value.leaf_value``); 0: rollouts
        # play the hole out.
        self.leaf = int(leaf)
        if self.leaf < 0:
            raise ValueError(f"leaf must be 0 (off) or a number of turns, not {leaf!r}")
        # Golf presets with a fitted estimate (``golf_leaf``) and no learned value: a
        # rollout stops when the seat has ended ``estimate`` turns and takes greedy's
        # estimate of the hole's reward (where the fit is not ``untimed``, only in a
        # search with a time limit); 0: rollouts play the hole out.
        self.estimate = int(estimate)
        if self.estimate < 0:
            raise ValueError(f"estimate must be 0 (off) or a number of turns, not {estimate!r}")
        self._win_weight = float(win_weight) if win_weight is not None else DEFAULT_WIN_WEIGHT
        self._leaf_model: Any = None
        self._leaf_turns = 0
        # Golf with hands (hand4) or closed 2x2: the rivals' seen-and-kept cards in
        # each imagined world are re-drawn so that they score as kept cards do
        # (``golf_belief``); None: by layout, DEFAULT_BELIEF.
        if belief is not None and game != "golf":
            raise ValueError("belief is for Golf, where rivals keep cards they have seen")
        self.belief: bool | None = None if belief is None else _flag("belief", belief)
        # Scores of believed rival hands by the kinds of their cards, by rule set:
        # kept for the bot's life, as the same kinds of hand come up decision after
        # decision (at most the rule set's kinds, 15 on four-card, to the fourth power).
        self._hand_scores: dict[Any, dict[tuple[int, ...], int]] = {}
        self.last_iterations = 0
        self.last_visits: dict[Any, int] = {}
        """Rollouts per legal move at the last searched decision (a diagnostic)."""

    def choose(self, obs: Observation) -> Any:
        legal = obs.legal
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        rng = self.rng
        seed = rng.getrandbits(48)
        deadline = (
            time.perf_counter() + self.time_ms / 1000.0 if self.time_ms is not None else math.inf
        )
        root = _Node(obs.seat)
        # One imagined world, sampled only if the prior or the anchor reads it: both
        # read only what the seat knows, so any world gives the same answer.
        first = None
        if self.anchor_z or self._fitted or (self.game == "golf" and self.prior_weight > 0):
            first = obs.sample(random.Random(seed))
        modelled = self._fitted and _model_applies(first)
        own = self._own_move(first) if modelled else self.playout
        if modelled and self._left_to_playout(obs.view["phase"], first, own):
            # By default G1.7's opening reveals: they come before the seat has seen
            # more than one card, a choice of symmetry, which the playout's rule (a
            # column of its own) settles without a budget spent on equal moves; and
            # the turns of the early round, where a search gains nothing.
            self.last_iterations = 0
            return own(first, random.Random(seed))
        scale, stage_z = 1.0, None
        if modelled and first is not None and (self.stage_budget or self.stage_z):
            from greenfelt.bots.golf_stage import stage

            where = stage(first)
            scale, stage_z = self.stage_budget.get(where, 1.0), self.stage_z.get(where)
        self._leaf_model = None
        if self.leaf and modelled and self.value:
            from greenfelt.bots import golf_value

            if first is not None and golf_value.applies(first.rules, first.n):
                self._leaf_model = functools.partial(
                    golf_value.leaf_value, model=golf_value.load_model()
                )
                self._leaf_turns = self.leaf
        if self.estimate and self._leaf_model is None and self.game == "golf":
            from greenfelt.bots import golf_leaf

            fit = golf_leaf.fit_for(obs.rules, obs.view["players"])
            if fit is not None and (fit.untimed or self.time_ms is not None):
                self._leaf_model = functools.partial(
                    golf_leaf.leaf_value, fit=fit, win_weight=self._win_weight
                )
                self._leaf_turns = self.estimate
        value = self._valuer(first, root)
        anchor, z = self._anchor(first, seed, modelled, stage_z, own)
        # A search its time limit cuts short (at tables) has weighed each move on a
        # few rollouts; where no anchor holds it, it then keeps its playout's move
        # unless that is clearly beaten. Measured on nine-card-wiki at 200 ms, where
        # a move needs about 0.8 s: +7.9 points of percentage and +3.2 points a hole
        # against the cut search without it (docs/benchmarks.md, the expert at tables).
        fallback = None
        unset = self.anchor_z is None and stage_z is None  # no threshold asked for
        if anchor is None and unset and self.time_ms is not None:
            if first is None:
                first = obs.sample(random.Random(seed))
            fallback = own(first, random.Random(seed))
        candidates = self._candidates(legal, first, modelled, anchor)
        if len(candidates) == 1:  # top_moves=1: the model's move, nothing to weigh
            self.last_iterations = 0
            return candidates[0]
        budget = self._budget(modelled, len(candidates))
        if scale != 1.0:
            budget = max(1, round(budget * scale))
        aligned = self._alignment(obs, first, candidates)
        believing = self._belief(obs.rules)
        # Each candidate's reward per block, for the paired test against the anchor.
        results: dict[Any, dict[int, float]] = {action: {} for action in candidates}
        iteration = block = 0
        # Sequential halving (Karnin, Koren, Somekh 2013): the budget is split over
        # log2(moves) rounds; each round keeps the better half of the moves.
        rounds = max(1, math.ceil(math.log2(len(candidates)))) if self.halving else 1
        per_round = budget // rounds
        full_budget, started = budget, time.perf_counter()
        # At least one block, however tight the limit: every candidate then has a value.
        while iteration < budget and (block == 0 or time.perf_counter() < deadline):
            blocks, played = max(1, per_round // len(candidates)), 0
            while played < blocks:
                played += 1
                # Common random numbers: one imagined world and one rollout stream per
                # block, shared by every candidate (their difference is what counts).
                world = obs.sample(random.Random(seed + 7919 * block))
                if believing is not None:
                    believing(world, obs.seat, random.Random(seed - 7919 * block))
                stream = seed ^ (block + 1) * 0x9E3779B1
                for action in candidates:
                    imagined = world.clone()
                    if aligned is not None:
                        aligned.world(imagined, action)
                    reward = self._iterate(root, imagined, action, random.Random(stream))
                    if anchor is not None or fallback is not None:
                        results[action][block] = reward
                    iteration += 1
                block += 1
                if block == 1 and self.time_ms is not None:
                    # Plan the rounds the time allows, so that the halving ends by the
                    # limit instead of being cut in its first round.
                    budget = _affordable(budget, iteration, started, deadline)
                    per_round = budget // rounds
                    blocks = max(1, per_round // len(candidates))
                if iteration >= budget or time.perf_counter() >= deadline:
                    break
            if self.halving and len(candidates) > 2:
                candidates.sort(key=value, reverse=True)
                kept = candidates[: (len(candidates) + 1) // 2]
                held = anchor
                if held is None and budget < full_budget:
                    held = fallback  # planned short: kept to the end, as an anchor
                if held is not None and held in candidates and held not in kept:
                    kept.append(held)
                candidates = kept
        self.last_iterations = iteration
        self.last_visits = {action: child.visits for action, child in root.children.items()}
        best = max(candidates, key=value)
        if fallback is not None and iteration < full_budget and results.get(fallback):
            # Cut short by the time limit: weighed on the worlds the fallback was
            # played in, even where the halving on those few rollouts dropped it.
            anchor, z = fallback, DEFAULT_ANCHOR_Z
        if anchor is None or best == anchor:
            return best
        return best if _clearly_better(results[best], results[anchor], z) else anchor

    def _unsearched(self, own: Policy) -> frozenset[str]:
        """The phases the own move decides alone (``playout_phases``): by default
        DEFAULT_PLAYOUT_PHASES, and DEFAULT_VALUE_PHASES where the learned value
        proposes the move (``own``)."""
        if self.playout_phases is not None:
            return self.playout_phases
        if not self._default_budget:
            return frozenset()
        from greenfelt.bots.golf_value import value_policy

        if own is value_policy:
            return DEFAULT_PLAYOUT_PHASES | DEFAULT_VALUE_PHASES
        return DEFAULT_PLAYOUT_PHASES

    def _left_to_playout(self, phase: str, world: Any, own: Policy) -> bool:
        """Whether the own move (``own``) decides ``phase`` alone here: the phase is
        listed, or the phase in the round's current stage ("turn@other")."""
        from greenfelt.bots.golf_stage import stage

        unsearched = self._unsearched(own)
        return phase in unsearched or f"{phase}@{stage(world)}" in unsearched

    def _candidates(self, legal: list[Any], world: Any, modelled: bool, anchor: Any) -> list[Any]:
        """The moves the search weighs: every legal move, or for a Golf placement where
        the fitted model plays, the model's ``top_moves`` best (and the anchor)."""
        by_stage = self.top_moves
        if by_stage is None:
            by_stage = DEFAULT_TOP_MOVES if self._default_budget else {}
        if not modelled or not by_stage:
            return list(legal)
        from greenfelt.bots.golf_stage import stage

        top = by_stage.get(stage(world), 0)
        if top <= 0 or top >= len(legal):
            return list(legal)
        from greenfelt.bots.golf_playout import prior

        estimate = prior(world)
        if not estimate:
            return list(legal)
        ranked = sorted(legal, key=lambda a: estimate.get(a, -math.inf), reverse=True)
        kept = ranked[:top]
        if anchor is not None and anchor not in kept:
            kept.append(anchor)
        return kept

    def _alignment(self, obs: Observation, world: Any, moves: list[Any]) -> Any:
        """Golf: how to align the candidates' worlds (``golf_worlds``), or None."""
        if not self.align:
            return None
        from greenfelt.bots.golf_worlds import alignment

        return alignment(
            world if world is not None else obs.sample(random.Random(0)), obs.seat, moves
        )

    def _belief(self, rules: Any) -> Callable[[Any, int, random.Random], Any] | None:
        """``golf_belief.believe`` with the gammas for these rules, or None for worlds
        drawn at random: Spades, open grids, powers, or belief off for the layout."""
        if self.game != "golf":
            return None
        on = self.belief if self.belief is not None else rules.layout in DEFAULT_BELIEF
        if not on:
            return None
        from greenfelt.bots.golf_belief import believe, gammas_for

        gammas = gammas_for(rules)
        if gammas is None:
            return None
        memo = self._hand_scores.setdefault(rules, {})
        return functools.partial(believe, gammas=gammas, memo=memo)

    def _budget(self, modelled: bool, moves: int) -> int:
        """Iterations for a decision among ``moves`` legal moves: ``per_choice`` each,
        up to ``iterations``; by default DEFAULT_PER_CHOICE where the model plays."""
        budget, per_choice = self.iterations, self.per_choice
        if modelled and self._default_budget:
            per_choice, budget = DEFAULT_PER_CHOICE
        return budget if per_choice is None else min(budget, per_choice * moves)

    def _own_move(self, world: Any) -> Policy:
        """Who proposes the seat's own move where the fitted model plays: the learned
        value (``golf_value``) where it was fitted and is on, else the playout."""
        if self.value:
            from greenfelt.bots import golf_value

            if golf_value.applies(world.rules, world.n):
                return golf_value.value_policy
        return self.playout

    def _anchor(
        self,
        world: Any,
        seed: int,
        modelled: bool,
        stage_z: float | None = None,
        own: Policy | None = None,
    ) -> tuple[Any, float]:
        """The move the search must clearly beat, and how clearly (``stage_z`` where
        given, else ``anchor_z``): by default, where the fitted Golf model covers the
        rules, the move of ``own`` (the learned value's, or the playout's), and in
        columns of three the playout's (greedy's: :meth:`_anchors_greedy`)."""
        z = stage_z if stage_z is not None else self.anchor_z
        if z is None:
            z = DEFAULT_ANCHOR_Z if modelled or self._anchors_greedy(world) else 0.0
        if z <= 0:
            return None, 0.0
        return (own or self.playout)(world, random.Random(seed)), z

    def _anchors_greedy(self, world: Any) -> bool:
        """Whether the search is anchored by default where its playout is greedy: in
        columns of three (nine-card), where greedy builds columns and plays too close
        to the unanchored search for its rollouts' noise (DEFAULT_ANCHOR_Z)."""
        if self.game != "golf" or world is None:
            return False
        from greenfelt.bots.golf_estimate import builds_columns

        return builds_columns(world.rules, world.n)

    def _valuer(self, world: Any, root: _Node) -> Callable[[Any], float]:
        """A move's value at the root: its mean reward, shrunk toward the prior's estimate.

        With a prior (Golf, :meth:`_prior`: each move's value relative to the average
        move, by the learned value or the fitted playout), a move's value is the
        weighted mean of its ``n`` rollouts and ``k = prior_weight`` pseudo-rollouts
        worth the root's average plus the prior's estimate. A handful of noisy
        rollouts does not overturn a sound estimate; many do.
        """
        estimate = None
        k = self.prior_weight
        if self.game == "golf" and k > 0:
            estimate = self._prior(world)
        if not estimate:
            return lambda a: _mean(root.children[a])
        known = estimate

        def value(action: Any) -> float:
            children = root.children.values()
            average = sum(c.total for c in children) / sum(c.visits for c in children)
            child = root.children[action]
            pseudo = k * (average + known.get(action, 0.0))
            return (child.total + pseudo) / (child.visits + k)

        return value

    def _prior(self, world: Any) -> dict[Any, float] | None:
        """Golf: the prior from the anchor's own source: the learned value's estimate of
        every move where it is on and applies (``golf_value.prior``), else the fitted
        playout's of the placements (``golf_playout.prior``)."""
        if self.value:
            from greenfelt.bots import golf_value

            if golf_value.applies(world.rules, world.n):
                return golf_value.prior(world)
        from greenfelt.bots.golf_playout import prior

        return prior(world)

    def _iterate(self, root: _Node, state: Any, first: Any, rng: random.Random) -> float:
        """One ISMCTS descent in one world: ``first`` at the root, UCB below, then a
        rollout; returns the deciding seat's reward."""
        me = root.seat
        own, others = self.playout, self.rollout
        c = self.exploration
        path: list[_Node] = []
        node = root
        action = first
        model, turns = self._leaf_model, 0
        while True:
            children = node.children
            mover = state.to_move
            child = children.get(action)
            if child is None:
                child = children[action] = _Node(mover)
            state.apply_unchecked(action)
            turns += mover == me and state.to_move != me
            path.append(child)
            node = child
            if state.is_over or len(path) >= self.depth or child.visits == 0:
                break
            actions = state.legal_actions()
            children = node.children
            for a in actions:  # availability: how often each move was possible here
                known = children.get(a)
                if known is not None:
                    known.avail += 1
            untried = [a for a in actions if a not in children]
            if untried:
                # An unvisited move is tried as a good player would play it first.
                proposal = (own if state.to_move == me else others)(state, rng)
                action = proposal if proposal in untried else untried[rng.randrange(len(untried))]
                continue
            best_value = -math.inf
            for a in actions:
                known = children[a]
                value = known.total / known.visits + c * math.sqrt(
                    math.log(known.avail) / known.visits
                )
                if value > best_value:
                    action, best_value = a, value
        leaf: float | None = None
        while not state.is_over:
            if model is not None and turns >= self._leaf_turns:
                leaf = model(state, me)
                break
            mover = state.to_move
            state.apply_unchecked((own if mover == me else others)(state, rng))
            turns += mover == me and state.to_move != me
        if leaf is None:
            rewards = self.reward(state)
        else:  # two players: the other's reward is what the seat's is not
            rewards = [leaf, 1.0 - leaf] if me == 0 else [1.0 - leaf, leaf]
        for visited in path:
            visited.visits += 1
            visited.avail += visited is path[0]
            visited.total += rewards[visited.seat]
        return rewards[me]
