"""Playing many games with bots: mirrored deals, seeded from the deal alone, in parallel.

**Deals and mirrors.** A *deal* is the chance of a game: for Golf the shuffled
deck of one hole, for Spades the deck of every hand of a game. Each deal is
played once per *rotation* ``r = 0 .. n-1``: bot entry ``i`` (its position in
``--bots``) sits at seat ``(i + r) % n``, so every bot plays every seat of every
deal and the luck of the cards cancels. Two players: each deal twice, seats
swapped.

**Seeds.** Every random number comes from a generator named by the seed, the
deal, the rotation and the seat (``random.Random(f"{seed}:{deal}:{rotation}:{seat}")``
for the bot in ``seat``; ``f"{seed}:{deal}:deck:{k}"`` for the ``k``-th deck of
the deal), never from the order in which processes run: the same seed gives the
same games whatever the number of worker processes.

**Dealer.** Deal ``d`` is dealt by seat ``(d - 1) % n``, so its first player (the
seat left of the dealer) is ``d % n`` and the deal passes clockwise from one deal
to the next, as in a match (consecutive Golf deals of one rotation form a real
match, which :mod:`greenfelt.lab.report` uses to count lead changes).

A *game* is one Golf hole, or one game of Spades to its target (S6). Its result
is a :class:`GameResult`, read as a dict and written as one (see :func:`play_deal`).
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import threading
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, overload

from greenfelt.bots import Bot, make_bot
from greenfelt.bots.steady import Failure
from greenfelt.cards import shuffled_deck
from greenfelt.errors import GreenfeltError
from greenfelt.lab import LabError
from greenfelt.workers import end_pool, guard_worker

__all__ = [
    "GAMES",
    "GameResult",
    "GolfResult",
    "Interrupted",
    "Results",
    "SpadesResult",
    "Spec",
    "check_bots",
    "deals_for",
    "play_deal",
    "play_deals",
    "run",
]

GAMES = ("golf", "spades")

MAX_ACTIONS = 100_000
"""Actions after which one round is declared stuck (a bot that never ends a round is a bug)."""


@dataclass(frozen=True)
class Spec:
    """Everything that decides a simulation's games (and nothing that does not, like ``jobs``).

    ``rules`` is the record form of the rules (``{"preset": ..., "set": {...}}``);
    ``bots`` one level per entry (seat position before rotation); ``options``
    bot options per level; ``max_hands`` stops a Spades game that has not
    reached its target (random bots never do).
    """

    game: str
    rules: Mapping[str, Any]
    players: int
    bots: tuple[str, ...]
    seed: int
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    records: bool = False
    max_hands: int = 200

    def entries_at(self, rotation: int) -> list[int]:
        """The bot entry sitting at each seat in ``rotation``."""
        n = self.players
        return [(seat - rotation) % n for seat in range(n)]

    def names(self, rotation: int) -> list[str]:
        """Seat names for records: ``bot<entry>-<level>``."""
        return [f"bot{e + 1}-{self.bots[e]}" for e in self.entries_at(rotation)]


class GameResult(Mapping[str, Any]):
    """One game's result (its keys: :func:`play_deal`), read like the dict it is written as.

    Its values are one tuple in key order: quick to build, which :class:`Results` does
    each time a game of a run is read, and to pickle, as workers send their games.
    Read-only, and equal to the dict of the same items.
    """

    __slots__ = ("_values",)
    KEYS: ClassVar[tuple[str, ...]] = ()
    _INDEX: ClassVar[dict[str, int]] = {}
    _values: tuple[Any, ...]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._INDEX = {key: index for index, key in enumerate(cls.KEYS)}

    def __init__(self, **values: Any) -> None:
        if values.keys() != self._INDEX.keys():
            raise TypeError(f"a {type(self).__name__} has the keys {', '.join(self.KEYS)}")
        object.__setattr__(self, "_values", tuple(values[key] for key in self.KEYS))

    def __getitem__(self, key: str) -> Any:
        try:
            return self._values[self._INDEX[key]]
        except KeyError:
            raise KeyError(key) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.KEYS)

    def __len__(self) -> int:
        return len(self.KEYS)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"a game's result is read-only ({key})")

    def __reduce__(self) -> tuple[Any, ...]:
        # Workers send results to the parent pickled: the values alone, in key order.
        return (_rebuild, (type(self), self._values))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"


def _rebuild(cls: type[GameResult], values: tuple[Any, ...]) -> GameResult:
    result = object.__new__(cls)
    object.__setattr__(result, "_values", values)
    return result


_BASE_KEYS = ("game", "deal", "rotation", "dealer", "first", "entries", "bots")


class GolfResult(GameResult):
    """A Golf hole's result."""

    __slots__ = ()
    KEYS = (*_BASE_KEYS, "scores", "winners", "length", "closer")


class SpadesResult(GameResult):
    """A game of Spades' result."""

    __slots__ = ()
    KEYS = (*_BASE_KEYS, "scores", "winners", "length", "capped")


class Results(Sequence[GameResult]):
    """Every game's result of a run, in game order, kept as columns of numbers.

    A run keeps its games for its tables and files, and people run millions of holes:
    results as objects took 337 bytes a two-player hole, their numbers here about 14
    (the scores, the length, the closer: ``bench_lab``). The rest follows from the
    game's place: game ``i`` (from 0) is deal ``i // n`` in rotation ``i % n``
    (:func:`play_deal`), and a Golf hole's winners are its lowest scores. A result is
    built again when it is read, equal to the one played.
    """

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self._golf = spec.game == "golf"
        self._n = spec.players
        self._seats = [_seating(spec.bots, rotation) for rotation in range(spec.players)]
        self._scores = array("i")
        self._length = array("i")
        # Golf: the closer's seat, -1 for none; Spades: the winners as bits, and 4 if capped.
        self._extra = array("b")

    def append(self, result: GameResult) -> None:
        """Keep the next game's result (the game after the last one kept)."""
        if result["game"] != len(self._length) + 1:
            raise ValueError(f"game {result['game']} is not the next, {len(self._length) + 1}")
        self._scores.extend(result["scores"])
        self._length.append(result["length"])
        if self._golf:
            closer = result["closer"]
            self._extra.append(-1 if closer is None else closer)
        else:
            bits = sum(1 << seat for seat in result["winners"])
            self._extra.append(bits | (4 if result["capped"] else 0))

    def __len__(self) -> int:
        return len(self._length)

    @overload
    def __getitem__(self, index: int) -> GameResult: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[GameResult]: ...

    def __getitem__(self, index: int | slice) -> GameResult | Sequence[GameResult]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if start == 0 and step == 1:
                return self.prefix(stop)  # columns still: a run's first games
            return [next(self._read(i, i + 1)) for i in range(start, stop, step)]
        count = len(self)
        if not -count <= index < count:
            raise IndexError(f"game index {index} out of range ({count} games)")
        return next(self._read(index % count, index % count + 1))

    def __iter__(self) -> Iterator[GameResult]:
        return self._read(0, len(self))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which do not hash

    def prefix(self, games: int) -> Results:
        """The first ``games`` results (a run cut short keeps whole deals from the first)."""
        out = Results(self.spec)
        out._scores = self._scores[: games * self._n]
        out._length = self._length[:games]
        out._extra = self._extra[:games]
        return out

    def _read(self, start: int, stop: int) -> Iterator[GameResult]:
        """Games ``start .. stop - 1`` rebuilt; a run's games are read once for the tables
        and once for each file, so the loop keeps what it needs in local names."""
        n, golf, seats = self._n, self._golf, self._seats
        scores, length, extra = self._scores, self._length, self._extra
        make, cls = _rebuild, GolfResult if golf else SpadesResult
        for i in range(start, stop):
            deal, rotation = divmod(i, n)
            dealer = (deal - 1) % n
            entries, levels = seats[rotation]
            own = scores[i * n : (i + 1) * n].tolist()
            flag = extra[i]
            if golf:
                low = min(own)
                winners = [seat for seat, score in enumerate(own) if score == low]
                last: Any = None if flag < 0 else flag
            else:
                winners = [seat for seat in range(n) if flag >> seat & 1]
                last = flag >= 4
            yield make(
                cls,
                (i + 1, deal, rotation, dealer, (dealer + 1) % n, entries, levels, own,
                 winners, length[i], last),
            )  # fmt: skip


def deals_for(games: int, players: int) -> int:
    """Deals needed to play at least ``games`` games with every rotation of ``players``."""
    return max(1, math.ceil(games / players))


@lru_cache(maxsize=16)
def _rules(game: str, rules_json: str) -> Any:
    if game == "golf":
        from greenfelt import golf

        return golf.rules_from_json(json.loads(rules_json))
    from greenfelt import spades

    return spades.rules_from_json(json.loads(rules_json))


@lru_cache(maxsize=16)
def _one_hole(rules_json: str) -> Any:
    """Golf rules of a one-hole match (``end=holes:1``), so a hole records as a match."""
    return _rules("golf", rules_json).with_options({"end": "holes:1"})


def rules_of(spec: Spec) -> Any:
    """The rules value of ``spec`` (cached per process)."""
    return _rules(spec.game, json.dumps(spec.rules, sort_keys=True))


def _bot(spec: Spec, level: str, seed: str) -> Bot:
    return make_bot(spec.game, level, random.Random(seed), **dict(spec.options.get(level, {})))


def check_bots(spec: Spec) -> None:
    """Build one bot of every level with its options; raises LabError/BotError before any play."""
    for level in dict.fromkeys(spec.bots):
        try:
            _bot(spec, level, "check")
        except ImportError as error:
            raise LabError(
                f"the {level} {spec.game} bot is not available in this installation ({error})"
            ) from None
    unused = [level for level in spec.options if level not in spec.bots]
    if unused:
        raise LabError(
            f"--bot-option names level {unused[0]!r}, which no seat plays "
            f"(--bots {','.join(spec.bots)})"
        )


def _play_round(match: Any, round_: Any, bots: Sequence[Bot], where: str) -> None:
    """Play the round in progress to its end through the checked ``match.apply``."""
    for _ in range(MAX_ACTIONS):
        seat = round_.to_move
        if seat is None:
            return
        try:
            action = bots[seat].act(round_, seat)
        except Exception as error:  # a bot's bug: say which deal and seat replay it
            failure = Failure.of(bots[seat].level, error)
            raise LabError(f"{where}, seat {seat}: {failure}: {error}") from error
        try:
            match.apply(action, seat)
        except GreenfeltError as error:
            raise LabError(f"{where}: the {bots[seat].level} bot in seat {seat}: {error}") from None
    raise LabError(f"{where}: the round did not end within {MAX_ACTIONS} actions")


def _record(spec: Spec, match: Any) -> str | None:
    if not spec.records:
        return None
    from greenfelt import record

    return record.dumps(record.match_record(spec.game, match))


def play_deal(spec: Spec, deal: int) -> list[tuple[GameResult, str | None]]:
    """Play ``deal`` once per rotation: ``[(result, record text or None), ...]`` by rotation.

    A result holds ``game`` (1-based number, ``deal * n + rotation + 1``),
    ``deal``, ``rotation``, ``dealer``, ``first`` (the seat left of the dealer),
    ``entries`` and ``bots`` (entry and level per seat), ``scores`` (Golf: the
    hole's scores; Spades: the game's final totals), ``winners`` (Golf: the
    seats with the lowest score, several for a shared lowest; Spades: the
    winner), ``length`` (Golf: turns in the hole; Spades: hands), and per game
    ``closer`` (Golf: who closed or knocked, or None) or ``capped`` (Spades:
    stopped at ``max_hands`` before the target; the higher total wins).
    """
    play = _play_golf if spec.game == "golf" else _play_spades
    return [play(spec, deal, rotation) for rotation in range(spec.players)]


def _base(spec: Spec, deal: int, rotation: int) -> dict[str, Any]:
    n = spec.players
    entries, levels = _seating(spec.bots, rotation)
    dealer = (deal - 1) % n
    return {
        "game": deal * n + rotation + 1,
        "deal": deal,
        "rotation": rotation,
        "dealer": dealer,
        "first": (dealer + 1) % n,
        "entries": entries,
        "bots": levels,
    }


@lru_cache(maxsize=64)
def _seating(bots: tuple[str, ...], rotation: int) -> tuple[list[int], list[str]]:
    """The entry and the level at each seat in ``rotation``: one pair of lists shared by
    every result of the rotation (read-only, like the results), not two lists a game."""
    n = len(bots)
    entries = [(seat - rotation) % n for seat in range(n)]
    return entries, [bots[e] for e in entries]


def _seat_bots(spec: Spec, deal: int, rotation: int, levels: Sequence[str]) -> list[Bot]:
    return [
        _bot(spec, level, f"{spec.seed}:{deal}:{rotation}:{seat}")
        for seat, level in enumerate(levels)
    ]


def _play_golf(spec: Spec, deal: int, rotation: int) -> tuple[GameResult, str | None]:
    from greenfelt.golf import GolfMatch

    rules_json = json.dumps(spec.rules, sort_keys=True)
    rules = _one_hole(rules_json)
    n = spec.players
    out = _base(spec, deal, rotation)
    deck = shuffled_deck(
        random.Random(f"{spec.seed}:{deal}:deck:0"), rules.deck_count(n), rules.jokers_per_deck
    )
    bots = _seat_bots(spec, deal, rotation, out["bots"])
    match = GolfMatch(rules, spec.names(rotation), out["dealer"])
    chance = random.Random(f"{spec.seed}:{deal}:{rotation}:reshuffles")
    hole = match.start_round(deck, out["dealer"], rng=chance)
    _play_round(match, hole, bots, f"deal {deal}, rotation {rotation}")
    scores = hole.scores
    assert scores is not None
    low = min(scores)
    result = GolfResult(
        **out,
        scores=scores,
        winners=[seat for seat, s in enumerate(scores) if s == low],
        length=hole.turns,
        closer=hole.closer,
    )
    return result, _record(spec, match)


def _play_spades(spec: Spec, deal: int, rotation: int) -> tuple[GameResult, str | None]:
    from greenfelt.spades import SpadesMatch

    rules = rules_of(spec)
    out = _base(spec, deal, rotation)
    bots = _seat_bots(spec, deal, rotation, out["bots"])
    match = SpadesMatch(rules, spec.names(rotation), out["dealer"])
    hands = 0
    while match.needs_deal and hands < spec.max_hands:
        deck = shuffled_deck(random.Random(f"{spec.seed}:{deal}:deck:{hands}"))
        hand = match.start_round(deck)
        _play_round(match, hand, bots, f"deal {deal}, rotation {rotation}, hand {hands + 1}")
        hands += 1
    totals = match.totals
    winners = match.winners
    capped = not match.is_over
    if capped and totals[0] != totals[1]:
        winners = [0 if totals[0] > totals[1] else 1]
    result = SpadesResult(**out, scores=totals, winners=winners, length=hands, capped=capped)
    return result, _record(spec, match)


def play_deals(spec: Spec, start: int, stop: int) -> list[tuple[GameResult, str | None]]:
    """Every game of deals ``start .. stop - 1``, in deal then rotation order (a worker's chunk)."""
    out: list[tuple[GameResult, str | None]] = []
    for deal in range(start, stop):
        out.extend(play_deal(spec, deal))
    return out


def _chunks(deals: int, jobs: int) -> list[tuple[int, int]]:
    """Deal ranges small enough to balance the workers and move the progress bar."""
    size = max(1, min(64, math.ceil(deals / (jobs * 16))))
    return [(a, min(a + size, deals)) for a in range(0, deals, size)]


def default_jobs() -> int:
    """All cores."""
    return os.cpu_count() or 1


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run`: ``games`` are the results of its first ``deals`` deals,
    whole and in game order, the very games a run of ``deals`` deals plays.

    A Ctrl-C still (a ``KeyboardInterrupt``) for a caller that does not look inside;
    ``greenfelt sim`` reports these games rather than lose an hour's play."""

    def __init__(self, games: Results, deals: int, planned: int) -> None:
        super().__init__(f"interrupted after {deals} of {planned} deals")
        self.games = games
        self.deals = deals
        self.planned = planned


RecordSink = Callable[[int, str], None]
"""``sink(game_number, record_text)``: where records go as they arrive (any order)."""


def run(
    spec: Spec,
    deals: int,
    jobs: int = 1,
    *,
    progress: bool = False,
    on_record: RecordSink | None = None,
    label: str = "",
) -> Results:
    """Play ``deals`` deals (each with every rotation); results in game order.

    ``jobs`` worker processes play chunks of deals (one in this process when
    ``jobs`` is 1); results are put back in deal order, so they do not depend
    on ``jobs``. ``progress`` shows a tqdm bar with the time left on stderr.
    Raises LabError for bad ``deals``/``jobs``, :class:`Interrupted` on Ctrl-C (with
    the deals finished before it), and whatever a game raised.
    Workers are *spawned* processes, so a script that calls this with
    ``jobs > 1`` must guard its entry point (``if __name__ == "__main__":``).
    They stop with the run: on Ctrl-C or a failed game the parent stops them, and
    each ends by itself when the parent process ends without clean-up (killed).
    """
    if deals < 1:
        raise LabError(f"a simulation needs at least one deal, not {deals}")
    if jobs < 1:
        raise LabError(f"--jobs must be at least 1, not {jobs}")
    chunks = _chunks(deals, jobs)
    results = Results(spec)
    # Chunks finish in any order; each waits here until those before it are in.
    waiting: dict[int, list[tuple[GameResult, str | None]]] = {}
    taken = [0]  # chunks in ``results``
    bar = _bar(deals * spec.players, progress, label or spec.game, spec.game)

    def take(index: int, played: list[tuple[GameResult, str | None]]) -> None:
        if on_record is not None:
            for result, text in played:
                if text is not None:
                    on_record(result["game"], text)
        waiting[index] = played  # whole: its records are written
        while taken[0] in waiting:
            for result, _ in waiting.pop(taken[0]):
                results.append(result)
            taken[0] += 1
        bar.update(len(played))

    try:
        if jobs == 1 or len(chunks) == 1:
            for index, (start, stop) in enumerate(chunks):
                take(index, play_deals(spec, start, stop))
        else:
            _run_pool(spec, chunks, min(jobs, len(chunks)), take)
    except KeyboardInterrupt:
        # ``results`` holds the unbroken run of chunks from the first deal (a chunk it
        # was taking when Ctrl-C came is cut back): what a shorter run of this seed plays.
        done = chunks[taken[0] - 1][1] if taken[0] else 0
        raise Interrupted(results.prefix(done * spec.players), done, deals) from None
    finally:
        bar.close()
    return results


def _run_pool(
    spec: Spec,
    chunks: Sequence[tuple[int, int]],
    workers: int,
    take: Callable[[int, list[tuple[GameResult, str | None]]], None],
) -> None:
    # spawn: workers start clean (no copied threads or locks) on every platform.
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=guard_worker,
    )
    try:
        with _ctrl_c_between_steps() as pressed:
            pending: dict[Future[list[tuple[GameResult, str | None]]], int] = {
                pool.submit(play_deals, spec, start, stop): index
                for index, (start, stop) in enumerate(chunks)
            }
            while pending:
                if pressed.is_set():
                    raise KeyboardInterrupt
                done, _ = wait(pending, timeout=_CTRL_C_POLL_S, return_when=FIRST_COMPLETED)
                for future in done:
                    take(pending.pop(future), future.result())
    except BaseException:  # Ctrl-C or a failed game: stop the workers now, not after their chunks
        end_pool(pool)
        raise
    pool.shutdown(wait=True)


_CTRL_C_POLL_S = 0.1
"""How often the pool's wait looks whether Ctrl-C was pressed."""


@contextlib.contextmanager
def _ctrl_c_between_steps() -> Iterator[threading.Event]:
    """Ctrl-C sets the event instead of raising wherever the parent happens to be.

    Raised inside ``concurrent.futures.wait`` it can leave the futures' locks held,
    and the pool's own thread, cancelling them, then waits for ever (and the
    interpreter with it at exit: it joins that thread). The loop raises it between
    steps instead. Only the main thread can take the signal; elsewhere, or where
    Ctrl-C is ignored or handled by the caller, nothing changes.
    """
    pressed = threading.Event()
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield pressed
        return
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: pressed.set())
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _bar(total: int, enabled: bool, label: str, game: str) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    unit = "hole" if game == "golf" else "game"
    return tqdm(
        total=total, desc=label, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False
    )
