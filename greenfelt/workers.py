"""Worker processes that belong to one parent: the lab's (``greenfelt sim --jobs``)
and the server's bots (``greenfelt serve --bot-processes``).

Both pools follow the same two rules, kept here once:

- A worker leaves Ctrl-C to its parent, which stops it (no traceback per worker),
  and ends with its parent however that ends. A parent killed outright (SIGTERM,
  SIGKILL, a closed terminal) runs no clean-up, and a worker holds both ends of
  its task pipe, so it would otherwise work on for nobody, or wait for work for ever.
- A parent that stops a pool ends its workers now, busy or not: it does not wait
  on a simulated game or a bot's search that nobody will read.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import resource_tracker

__all__ = ["end_pool", "guard_worker", "pool_processes", "start_tracker"]


def start_tracker() -> None:
    """Start multiprocessing's resource tracker (if it is not running) with the process's
    own standard error, before a pool spawns its workers.

    The tracker is started with ``sys.stderr``'s file descriptor. A full-screen terminal
    app (``greenfelt play``, on Textual) replaces ``sys.stderr`` with a capture whose
    descriptor is -1, and spawning then fails ("bad value(s) in fds_to_keep"): so the
    tracker gets the real one, and once it runs no later spawn asks again.
    """
    real = sys.__stderr__
    if real is None or sys.stderr is real:
        resource_tracker.ensure_running()
        return
    shown, sys.stderr = sys.stderr, real
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = shown


def guard_worker() -> None:
    """Call first in a worker process (a pool's ``initializer``): ignore Ctrl-C and end
    with the parent process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_end_with, args=(parent,), name="end-with-parent", daemon=True
        ).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns once the parent process has ended (its sentinel closes)
    os._exit(1)  # no clean-up: nothing of a worker's outlives the parent it served


def pool_processes(pool: ProcessPoolExecutor | None) -> dict[int, multiprocessing.Process]:
    """The pool's worker processes by id (the executor keeps them, unnamed in its API)."""
    return dict(getattr(pool, "_processes", None) or {})


def end_pool(pool: ProcessPoolExecutor) -> None:
    """Shut the pool down, its queued tasks cancelled, and end its workers now."""
    processes = pool_processes(pool)
    # A worker ended while it sends a result (a chunk of the lab's games takes many
    # writes) leaves half a message in the result pipe. The pool's own thread, reading
    # it, would wait for the rest for ever, and the interpreter with it at exit (it
    # joins that thread). The parent holds that pipe's writing end too (shutdown drops
    # the queue, not the pipe): closed, the read ends once the workers have, and the
    # thread finds the pool broken and ends.
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        process.terminate()  # ``terminate_workers()`` does this from Python 3.14
    if writer is not None:
        writer.close()
