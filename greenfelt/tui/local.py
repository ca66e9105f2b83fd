"""A local game: you at seat 0, bots at the other seats, the engine in this process.

Nothing is shown from the match itself: the app renders :attr:`LocalSession.view`,
which is ``match.view(seat)`` (Golf: ``recall=not rules.memory``, G8.2), the
same view a server sends that seat. Bots decide in a worker thread from a copy
of the round, after a short visible delay.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from greenfelt.bots import Bot, table_bot
from greenfelt.bots.steady import BOT_TIMEOUT_S, steady_move
from greenfelt.record import dumps, match_record
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
    """A match against bots; ``levels[i]`` plays seat ``i + 1``."""

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
    ) -> None:
        super().__init__()
        self.game = game
        self.rules = rules
        self.seat = 0
        self.levels = [level.strip().lower() for level in levels]  # as make_bot reads them
        self.bot_delay = bot_delay
        self.bot_timeout = bot_timeout
        self.save_path = save_path
        self.seed = seed
        self.rng = random.Random(seed)
        names = [name, *(f"Bot {i + 1}" for i in range(len(levels)))]
        if game == "spades":
            names[1:] = ["Bot"]
        self.bots: dict[int, Bot] = {}
        for i, level in enumerate(levels):
            bot_rng = random.Random(f"{seed}:{i + 1}") if seed is not None else random.Random()
            self.bots[i + 1] = new_bot(game, level, bot_rng)
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

    async def run(self) -> None:
        wake, settled = self._events()
        if not self.match.rounds:
            self._deal()
        while not self._closed:
            mover = self.match.to_move
            if mover is not None and mover in self.bots:
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
        bot = self.bots[seat]
        level = self.levels[seat - 1]

        def bot_for(tried: str) -> Bot:
            return bot if tried == level else new_bot(self.game, tried, bot.rng)

        # A bot's bug must not end your game: the levels below it play instead, and
        # one that thinks too long gives way to a random move (its thread is left behind).
        name = self.match.names[seat]
        try:
            move = await asyncio.wait_for(
                asyncio.to_thread(steady_move, level, rnd.clone(), rnd.to_move, bot_for),
                self.bot_timeout,
            )
        except TimeoutError:
            action = bot.rng.choice(rnd.legal_actions(rnd.to_move))
            failure = f"{name} thought over {self.bot_timeout:g} s; it played at random"
            # The hung thread still holds that bot: the seat goes on with a fresh one.
            self.bots[seat] = new_bot(self.game, level, random.Random(bot.rng.random()))
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
        if self._wake is not None:
            self._wake.set()
