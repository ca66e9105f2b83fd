"""Where the server's bots think: worker processes, or threads of the server itself.

The terminal's game against bots (``greenfelt play``, :mod:`greenfelt.tui.local`)
uses the same, with one worker when a seat is an expert's.

A bot's search is CPU-bound Python. In a thread of the server's process it holds
the interpreter lock that the event loop serving people needs too: beside forty
busy expert tables a person's move waited 101 ms for its ack (median), 199 ms at
the 90th percentile; with the experts in workers, 1.9 and 2.4 ms
(``benchmarks/bench_server_bots.py``, README "Benchmarks").

- **Which bots:** only searching levels (:data:`SEARCHING_LEVELS`) go to workers.
  A greedy, easy or random move takes well under a millisecond; it stays in a
  thread rather than queue behind searches.
- **In what order:** searching moves wait in one priority queue, served by one
  dispatcher per worker. A table where a seated person is connected goes first,
  then each in turn, so bots-only tables absorb a busy server's wait.
- **What a worker gets:** what a thread got, a copy of the round and the seat;
  the bot decides from that seat's observation (:mod:`greenfelt.bots.base`). The
  copy travels pickled, without the table's shuffling generator
  (:meth:`greenfelt.golf.game.GolfRound.__getstate__`), which bots never use.
- **A bot that hangs:** each level the worker tries (``expert``, then ``greedy``,
  ... as :mod:`greenfelt.bots.steady` orders them) has a share of half the
  ``timeout``, enforced by a timer signal that interrupts the bot's Python code;
  the level below then plays. A bot stuck where no signal reaches is ended with
  its worker once the whole ``timeout`` passes (counted from when a worker took
  the move, not while it queued), and its table plays a random move.
- **A worker that dies** is replaced; workers that cannot start leave the bots in
  threads. Workers end with the server, even one killed outright.

Threads remain for ``processes=0``: tests that replace ``greenfelt.bots.table_bot``
in their own process, and hosts that want one process only.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import math
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from greenfelt import bots
from greenfelt.bots.steady import SteadyMove, fallback_levels, place, steady_move
from greenfelt.workers import end_pool, guard_worker, pool_processes, start_tracker

__all__ = ["SEARCHING_LEVELS", "BotHung", "Thinkers", "decide", "default_processes"]

log = logging.getLogger("greenfelt.thinking")


class BotHung(Exception):
    """Raised inside a worker's bot when its share of the time is spent.

    ``where`` is the bot's line the timer interrupted (the handler's own frame would
    say nothing); :class:`greenfelt.bots.steady.Failure` logs it."""

    def __init__(self, seconds: float, where: str) -> None:
        super().__init__(f"the bot thought over {seconds:g} s (at {where})")
        self.where = where


SEARCHING_LEVELS = frozenset({"expert"})
"""The levels that think in workers: a search takes up to ``TABLE_TIME_MS``. A greedy,
easy or random move takes well under a millisecond, so it stays in a thread: in a
worker's queue it would wait behind the experts' searches (seconds on a busy server)."""


MAX_DEFAULT_PROCESSES = 8
"""A worker holds about 60 MB (the bots and their learned value); a big host that
wants more bot capacity says so with ``--bot-processes``."""


WORKER_START_S = 120.0
"""Seconds new workers may take to load the bots before they count as unable to start."""

QUEUING = 4
"""Moves waiting per worker past which the log says the bots are short of workers."""


def default_processes() -> int:
    """Worker processes for bots: every core but one, which the server keeps for people
    (at most :data:`MAX_DEFAULT_PROCESSES`)."""
    return min(MAX_DEFAULT_PROCESSES, max(1, (os.cpu_count() or 2) - 1))


@contextlib.contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`BotHung` in this thread after ``seconds`` (main thread only, else no-op)."""
    if (
        seconds is None
        or not hasattr(signal, "setitimer")  # not on Windows
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def expire(_signum: int, frame: FrameType | None) -> None:
        where = "?" if frame is None else place(frame.f_code.co_filename, frame.f_lineno)
        raise BotHung(seconds, where)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _Timed(bots.Bot):
    """A bot whose every choice must come within ``seconds`` (see :func:`_deadline`)."""

    def __init__(self, bot: bots.Bot, seconds: float | None) -> None:
        super().__init__(bot.rng)
        self.bot = bot
        self.seconds = seconds
        self.level = bot.level

    def choose(self, obs: bots.Observation) -> Any:
        with _deadline(self.seconds):
            return self.bot.choose(obs)


def decide(
    game: str, level: str, seed: str, snapshot: Any, seat: int, *, timeout: float | None = None
) -> SteadyMove:
    """A bot's move for ``seat`` of ``snapshot`` (a copy of the round): it sees only its view.

    A level that fails, or hangs past its share of ``timeout`` (half of it, shared by
    the levels that might play), gives way to the weaker ones. The share is enforced
    only where a signal can reach the bot: the main thread of a worker process.
    """
    share = None if timeout is None else timeout / (2 * len(fallback_levels(level)))
    return steady_move(
        level,
        snapshot,
        seat,
        lambda tried: _Timed(bots.table_bot(game, tried, random.Random(seed)), share),
    )


def _start_worker(setup: Callable[[], object] | None) -> None:
    """A worker ends with the server (:func:`greenfelt.workers.guard_worker`), and loads
    every bot before its first move."""
    guard_worker()
    for game in bots.GAMES:
        for level in bots.LEVELS:
            bots.table_bot(game, level, 0)
    from greenfelt.golf import find_preset, new_round

    warm = new_round(find_preset("six-card"), 2, rng=random.Random(0))
    bots.table_bot("golf", "expert", 0).act(warm)  # loads the learned value
    if setup is not None:
        setup()


def _ready() -> bool:
    return True


@dataclass(order=True)
class _Job:
    """A searching bot's move waiting for a worker: tables with people first, then in turn."""

    rank: tuple[int, int]
    call: Callable[[], SteadyMove] = field(compare=False)
    done: asyncio.Future[SteadyMove] = field(compare=False)


class Thinkers:
    """The bots' workers of one server process: ``processes`` workers, or threads if 0.

    Searching bots' moves wait in one queue, served by one dispatcher per worker, so
    the order is ours, not the pool's: a table where a person waits goes before a
    table of bots only (whose moves nobody waits on), and each in turn after that.
    A move's ``timeout`` counts from when a worker takes it, not while it queues.
    """

    def __init__(
        self, processes: int, timeout: float, *, setup: Callable[[], object] | None = None
    ) -> None:
        """``setup`` runs in each worker as it starts, after the bots load: tests plant
        their own bots there (it must pickle: a module-level function)."""
        if processes < 0:
            raise ValueError(f"bot processes must be 0 (threads) or more, not {processes}")
        self.processes = processes
        self.timeout = timeout
        self.setup = setup
        self._pool: ProcessPoolExecutor | None = None
        self._started: Future[bool] | None = None  # a first task of the pool's: its start
        self._breaks = 0  # pools broken in a row, without a move thought in between
        self._queue: asyncio.PriorityQueue[_Job] | None = None
        self._dispatchers: list[asyncio.Task[None]] = []
        self._turn = itertools.count()
        self._warned = -math.inf

    def start(self) -> None:
        """Start the workers now, so the first bot move does not wait for one to load
        (call it in the event loop, which runs the dispatchers)."""
        if not self.processes:
            return
        if self._pool is None and self._new_pool() is None:
            return
        if self._queue is None:
            self._queue = asyncio.PriorityQueue()
            self._dispatchers = [
                asyncio.create_task(self._dispatch()) for _ in range(self.processes)
            ]

    async def move(
        self, game: str, level: str, seed: str, snapshot: Any, seat: int, *, urgent: bool = True
    ) -> SteadyMove:
        """The move of the ``level`` bot for ``seat`` of ``snapshot``, thought out of the loop.

        ``urgent``: a person waits on it. Raises :class:`TimeoutError` when the bot thinks
        past ``timeout``; the levels that fail give way as :func:`decide` says.
        """
        call = functools.partial(decide, game, level, seed, snapshot, seat, timeout=self.timeout)
        if not self.processes or level not in SEARCHING_LEVELS:
            return await asyncio.wait_for(asyncio.to_thread(call), self.timeout)
        self.start()
        assert self._queue is not None
        done: asyncio.Future[SteadyMove] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job((0 if urgent else 1, next(self._turn)), call, done))
        self._warn_if_queuing()
        return await done

    @property
    def waiting(self) -> int:
        """Searching moves waiting for a worker now (``/api/health`` shows it)."""
        return self._queue.qsize() if self._queue is not None else 0

    @property
    def worker_pids(self) -> list[int]:
        """The process ids of the workers now (none before the first searching move)."""
        return sorted(pool_processes(self._pool))

    def _warn_if_queuing(self) -> None:
        """Tell the operator, at most once a minute, that moves wait for workers."""
        now = time.monotonic()
        if self.waiting > QUEUING * self.processes and now - self._warned > 60.0:
            self._warned = now
            log.warning(
                "%d expert moves wait for %d bot worker(s): tables without people play "
                "slower; --bot-processes sets how many think at once",
                self.waiting,
                self.processes,
            )

    async def _dispatch(self) -> None:
        """Take the next move from the queue, think it in a worker, answer its table."""
        assert self._queue is not None
        while True:
            job = await self._queue.get()
            if job.done.done():  # its table stopped waiting (it closed, or moved on)
                continue
            try:
                job.done.set_result(await self._think(job.call))
            except asyncio.InvalidStateError:
                pass  # its table stopped waiting while it was thought
            except Exception as error:  # TimeoutError, or the bot's own (random failed)
                if not job.done.done():
                    job.done.set_exception(error)
            finally:
                if not job.done.done():  # the dispatcher was cancelled (closing)
                    job.done.cancel()

    async def _think(self, call: Callable[[], SteadyMove]) -> SteadyMove:
        """``call`` in a worker; a broken pool is replaced once, then threads take over."""
        while self.processes:
            pool = self._pool or self._new_pool()
            if pool is None:
                break  # no process can be made: this move too is thought in a thread
            try:
                await self._until_started()
            except (BrokenProcessPool, TimeoutError):  # it failed to start, or took too long
                self._broken(pool)
                continue
            if pool is not self._pool:  # another dispatcher replaced it meanwhile
                continue
            try:  # a pool found broken raises at once, one that breaks while thinking later
                thinking = asyncio.get_running_loop().run_in_executor(pool, call)
                move: SteadyMove = await asyncio.wait_for(thinking, self.timeout)
            except BrokenProcessPool:
                self._broken(pool)
                continue
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is None or task.cancelling():
                    raise  # this dispatcher is closing
                continue  # another dispatcher stopped the pool before a worker took the move
            except TimeoutError:
                # The worker's own timer did not stop the bot (stuck where no signal
                # reaches): only new workers free that CPU.
                if self._pool is pool:
                    log.error(
                        "a bot worker did not answer in %g s; starting new workers", self.timeout
                    )
                    self._stop_pool()
                raise
            self._breaks = 0
            return move
        return await asyncio.wait_for(asyncio.to_thread(call), self.timeout)

    async def _until_started(self) -> None:
        """Wait until a worker has loaded the bots: a move's time starts when one can think."""
        started = self._started
        if started is None or started.done():
            return  # a pool that broke meanwhile says so when it is given the move
        waiting = asyncio.wrap_future(started)
        await asyncio.wait({waiting}, timeout=WORKER_START_S)
        if not waiting.done():
            waiting.cancel()
            raise TimeoutError
        # Cancelled: another dispatcher stopped this pool, which the caller then sees.
        failure = None if waiting.cancelled() else waiting.exception()
        if failure is not None:
            raise failure

    def _broken(self, pool: ProcessPoolExecutor) -> None:
        if pool is not self._pool:
            return  # another dispatcher has replaced it already
        self._stop_pool()
        self._breaks += 1
        if self._breaks == 1:  # a worker died (killed, out of memory): start new ones
            log.error("a bot worker process died; starting new workers")
        else:  # they cannot start at all: the bots still play, from threads
            log.error("bot worker processes cannot start; bots think in threads")
            self.processes = 0

    def _new_pool(self) -> ProcessPoolExecutor | None:
        """New workers, each loading the bots now; None where no process can be made at
        all (the system out of processes, a sandbox): the bots then think in threads."""
        # spawn, not fork: forking a process that runs threads (the event loop's
        # helpers, the database driver) can copy a lock held by another thread.
        context = multiprocessing.get_context("spawn")
        pool = None
        try:
            start_tracker()  # under the terminal's app too, whose stderr has no descriptor
            pool = ProcessPoolExecutor(
                self.processes,
                mp_context=context,
                initializer=_start_worker,
                initargs=(self.setup,),
            )
            # Each worker starts (and loads the bots) now; the first task done says one is.
            started = [pool.submit(_ready) for _ in range(self.processes)]
        except (OSError, ValueError) as error:  # spawning itself failed
            if pool is not None:
                end_pool(pool)
            log.error("bot worker processes cannot be made (%s); bots think in threads", error)
            self.processes = 0
            return None
        self._started = started[0]
        self._pool = pool
        return pool

    def _stop_pool(self) -> None:
        """End the workers now, busy or not (a stopping server does not wait on a bot)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            end_pool(pool)

    def close(self) -> None:
        """Stop the workers and the dispatchers; moves queued or in thought are dropped
        (their tables are closing)."""
        for task in self._dispatchers:
            task.cancel()
        self._dispatchers = []
        if self._queue is not None:
            while not self._queue.empty():
                self._queue.get_nowait().done.cancel()
            self._queue = None
        self._stop_pool()
