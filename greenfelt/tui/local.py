"""A local game: you at seat 0, bots at the other seats, the engine in this process.

Nothing is shown from the match itself: the app renders :attr:`LocalSession.view`,
which is ``match.view(seat)`` (Golf: ``recall=not rules.memory``, G8.2), the
same view a server sends that seat. Bots decide from a copy of the round, after a
short visible delay, where a server's bots do (:class:`greenfelt.server.thinking.Thinkers`):
an expert in a worker process, which ends it if it hangs and leaves the terminal's
own process free to draw; the quick levels in a thread.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from pathlib import Path
from typing import Any

from greenfelt.bots import Bot, table_bot
from greenfelt.bots.steady import BOT_TIMEOUT_S
from greenfelt.record import dumps, match_record
from greenfelt.server.thinking import SEARCHING_LEVELS, Thinkers
from greenfelt.tui.news import event_text, round_over_text
from greenfelt.tui.session import PlayError, Session

__all__ = ["LocalSession", "new_bot"]


def new_bot(game: str, level: str, rng: random.Random) -> Bot:
    """A bot of ``level``; raises PlayError (or BotError) naming the level when it cannot."""
    try:
        return table_bot(game, level, rng)
    except ImportError:
        raise PlayError(
            f"the {level} bot for {game} is not available in this installation; "
            "try --bot random or another level"
        ) from None


class LocalSession(Session):
    """A match against bots; ``levels[i]`` plays seat ``i + 1``.

    ``thinkers``: where the bots think (their timeout, not ``bot_timeout``, then
    counts); by default one worker process when a level searches (the expert),
    threads otherwise. With a ``seed`` the bots' moves are seeded too (by the seed,
    the round and the move), so a game can be played again."""

    def __init__(
        self,
        game: str,
        rules: Any,
        name: str,
        levels: list[str],
        *,
        seed: int | None = None,
        bot_delay: float = 0.6,
        bot_timeout: float = BOT_TIMEOUT_S,
        save_path: str | None = None,
        thinkers: Thinkers | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.rules = rules
        self.seat = 0
        self.levels = [level.strip().lower() for level in levels]  # as make_bot reads them
        self.bot_delay = bot_delay
        self.save_path = save_path
        self.seed = seed
        self.rng = random.Random(seed)
        names = [name, *(f"Bot {i + 1}" for i in range(len(levels)))]
        if game == "spades":
            names[1:] = ["Bot"]
        for level in self.levels:
            new_bot(game, level, random.Random(0))  # a level this installation lacks says so now
        searching = any(level in SEARCHING_LEVELS for level in self.levels)
        if thinkers is None:
            thinkers = Thinkers(1 if searching else 0, bot_timeout)
        self.thinkers = thinkers
        self._bot_seed = str(seed) if seed is not None else secrets.token_hex(8)
        self.match: Any
        if game == "golf":
            from greenfelt.golf import GolfMatch

            self.match = GolfMatch(rules, names)
        else:
            from greenfelt.spades import SpadesMatch

            self.match = SpadesMatch(rules, names)
        self._wake: asyncio.Event | None = None
        self.settled: asyncio.Event | None = None
        """Set while the game waits for you (your turn, or a finished round): for tests."""
        self._closed = False
        self.saved: str | None = None

    # ---- what the app reads -----------------------------------------------------------

    @property
    def view(self) -> dict[str, Any] | None:
        if self.game == "golf":
            view: dict[str, Any] = self.match.view(self.seat, recall=not self.rules.memory)
        else:
            view = self.match.view(self.seat)
        return view

    @property
    def labels(self) -> list[str]:
        return ["", *(f"{level} bot" for level in self.levels)]

    @property
    def players(self) -> int:
        return len(self.match.names)

    # ---- the loop ---------------------------------------------------------------------------

    def _events(self) -> tuple[asyncio.Event, asyncio.Event]:
        if self._wake is None or self.settled is None:
            self._wake = asyncio.Event()
            self.settled = asyncio.Event()
        return self._wake, self.settled

    def _deal(self) -> None:
        self.match.start_round(rng=self.rng)
        word = "Hand" if self.game == "spades" else "Round"
        self.changed(f"{word} {len(self.match.rounds)} is dealt.")

    @property
    def bot_timeout(self) -> float:
        """Seconds a bot may think before its seat plays a random move."""
        return self.thinkers.timeout

    async def run(self) -> None:
        wake, settled = self._events()
        self.thinkers.start()  # an expert's worker loads while you make your first move
        if not self.match.rounds:
            self._deal()
        while not self._closed:
            mover = self.match.to_move
            if mover is not None and mover != self.seat:
                settled.clear()
                await self._bot_turn(mover)
                continue
            settled.set()
            await wake.wait()
            wake.clear()

    async def _bot_turn(self, seat: int) -> None:
        if self.bot_delay > 0:
            await asyncio.sleep(self.bot_delay)
        rnd = self.match.current
        level = self.levels[seat - 1]
        seed = f"{self._bot_seed}:{len(self.match.rounds)}:{len(rnd.actions)}"
        # A bot's bug must not end your game: the levels below it play instead, and
        # one that thinks too long gives way to a random move.
        name = self.match.names[seat]
        try:
            move = await self.thinkers.move(self.game, level, seed, rnd.clone(), rnd.to_move)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self._closed and task is not None and not task.cancelling():
                return  # you left while it thought: its worker was ended with the game
            raise
        except TimeoutError:
            action = random.Random(seed).choice(rnd.legal_actions(rnd.to_move))
            failure = f"{name} thought over {self.bot_timeout:g} s; it played at random"
        else:
            action, failure = move.action, ""
            if move.failures:
                # Only the error's kind: its message may speak of what the bot's seat sees.
                kinds = ", ".join(f.kind for f in move.failures)
                failure = f"{name} failed ({kinds}); it played as the {move.level} bot"
        self.match.apply(str(action), seat)
        self._after(seat, str(action))
        if failure:
            self.log.append(failure)  # kept: the message line shows only the latest news
            self.changed(failure, True)

    def _after(self, seat: int, text: str, seen: str | None = None) -> None:
        event = {"kind": "action", "seat": seat, "action": text, "seen": seen}
        self.changed(event_text(event, self.view, self.seat))
        match = self.match
        if match.current is None and match.rounds and match.rounds[-1].is_over:
            self.changed(round_over_text(self.view))
            if match.is_over:
                self.changed("The match is over.")
                if self.save_path is not None:
                    self.changed(f"Saved the record to {self.save(self.save_path)}.")

    def _wake_up(self) -> None:
        wake, settled = self._events()
        settled.clear()
        wake.set()

    # ---- what you do -------------------------------------------------------------------------

    async def act(self, text: str) -> None:
        match = self.match
        if match.is_over:
            raise PlayError("the match is over: s saves the record, q leaves")
        if match.current is None:
            raise PlayError("the round is over: press n to deal the next one")
        match.apply(text, self.seat)  # IllegalAction / NotYourTurn say why not
        rnd = match.rounds[-1]
        done = str(rnd.actions[-1][1])
        self._after(0, done, self._seen(rnd, done))  # you sit at seat 0
        self._wake_up()

    def _seen(self, rnd: Any, text: str) -> str | None:
        """The card a peek of yours showed (G8.2: with memory on the table will not show it
        again); the server tells a peeker the same card in its event (``seen``)."""
        words = text.split()
        if words[0] == "peek":
            seating = self.match.seating(len(self.match.rounds) - 1)
            owner, position = seating.index(self.seat), int(words[1])
        elif words[:2] == ["power", "peek"]:
            where, _, pos = words[2].partition(":")
            owner, position = int(where), int(pos)
        else:
            return None
        return str(rnd.layout(owner)[position])

    async def next_round(self) -> None:
        match = self.match
        if match.is_over:
            raise PlayError("the match is over: s saves the record, q leaves")
        if not match.needs_deal:
            raise PlayError("the round is still being played")
        self._deal()
        self._wake_up()

    def record(self) -> dict[str, Any]:
        """The match as a record; a round in progress is left out (its deck is still secret)."""
        record = match_record(self.game, self.match)
        if self.match.current is not None:
            record["rounds"] = record["rounds"][:-1]
        return record

    def save(self, path: str | None = None) -> str:
        target = path or self.save_path
        if target is None:
            target = f"greenfelt-{self.game}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        try:
            Path(target).write_text(dumps(self.record()) + "\n", encoding="utf-8")
        except OSError as error:
            raise PlayError(f"cannot save the record to {target!r}: {error}") from None
        self.saved = target
        return target

    async def close(self) -> None:
        self._closed = True
        self.thinkers.close()  # a bot still thinking is dropped, its worker ended
        if self._wake is not None:
            self._wake.set()
