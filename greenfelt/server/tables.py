"""Tables: one match each, its seats and connections, its bots, its event log.

A table's state is rebuilt from its stored events; the live path is
*validate, store, apply, broadcast*, under the table's lock, so that two
simultaneous moves are serialised and nothing is acknowledged before it is
stored. Every message to a connection is built from ``view(seat)`` for that
connection's seat (DESIGN.md: nothing else decides visibility).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import secrets
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from greenfelt import bots
from greenfelt.bots.steady import BOT_TIMEOUT_S
from greenfelt.cards import card_texts, parse_cards, shuffled_deck
from greenfelt.errors import GreenfeltError, NotYourTurn
from greenfelt.server.protocol import ProtocolError
from greenfelt.server.store import EventRow, SeatRow, Store, StoreConflict, StoreError, TableRow
from greenfelt.server.thinking import Thinkers

__all__ = ["Connection", "Settings", "Table", "hash_token", "new_token"]

log = logging.getLogger("greenfelt.tables")


@dataclass(frozen=True)
class Settings:
    """Timings and limits of the card room (all configurable for tests and hosts)."""

    bot_delay: float = 0.6
    """Seconds a bot waits before moving, so people can follow."""
    round_pause: float = 6.0
    """Seconds between a round's end and the next deal (sooner when everyone is ready)."""
    takeover_after: float = 45.0
    """Seconds a disconnected player's seat waits before a bot plays for them."""
    rate: float = 10.0
    """Messages per second a connection may send on average."""
    burst: int = 40
    """Messages a connection may send at once."""
    outbox: int = 256
    """Messages queued for a slow connection before it is dropped."""
    bot_timeout: float = BOT_TIMEOUT_S
    """Seconds a bot may think before its seat plays a random move instead."""
    bot_processes: int = 0
    """Worker processes the bots think in (:mod:`greenfelt.server.thinking`); 0 keeps
    them in threads of the server's process. ``greenfelt serve`` starts one per core
    but one (at most 8); tests keep threads, so that they can replace a bot in their
    own process."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Tokens are stored hashed (SHA-256): a leaked database seats nobody."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# ---- games --------------------------------------------------------------------------


def rules_from_json(game: str, data: Any) -> Any:
    if game == "golf":
        from greenfelt.golf import rules_from_json as golf_rules

        return golf_rules(data)
    from greenfelt.spades import rules_from_json as spades_rules

    return spades_rules(data)


def new_match(game: str, rules: Any, names: list[str]) -> Any:
    if game == "golf":
        from greenfelt.golf import GolfMatch

        return GolfMatch(rules, names)
    from greenfelt.spades import SpadesMatch

    return SpadesMatch(rules, names)


# ---- connections -----------------------------------------------------------------


class Connection:
    """One socket at a table: its seat (None: spectator), an outbox, a rate limit."""

    def __init__(self, send: Callable[[dict[str, Any]], Any], seat: int | None, settings: Settings):
        self._send = send
        self.seat = seat
        self.settings = settings
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.tokens = float(settings.burst)
        self.stamp = time.monotonic()
        self.closed = False
        self.writer = asyncio.create_task(self._write())

    def allow(self) -> bool:
        """Token bucket: refills ``rate`` per second up to ``burst``."""
        now = time.monotonic()
        self.tokens = min(
            self.settings.burst, self.tokens + (now - self.stamp) * self.settings.rate
        )
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def push(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= self.settings.outbox:
            self.close()  # too slow to keep up: it will resync when it returns
            return
        self.outbox.put_nowait(message)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)

    async def _write(self) -> None:
        while True:
            message = await self.outbox.get()
            if message is None:
                return
            try:
                await self._send(message)
            except Exception:  # the socket went away; the reader notices and detaches
                self.closed = True
                return


# ---- a table ------------------------------------------------------------------------


class Table:
    """A table of the card room; see the module docstring."""

    def __init__(
        self,
        row: TableRow,
        seats: list[SeatRow],
        store: Store,
        settings: Settings,
        thinkers: Thinkers | None = None,
    ):
        self.id = row.id
        self.game = row.game
        self.config = row.config
        self.status = row.status
        self.created_at = row.created_at
        self.seat_rows = seats
        self.store = store
        self.settings = settings
        self.thinkers = thinkers or Thinkers(0, settings.bot_timeout)
        self.rules = rules_from_json(self.game, self.config["rules"])
        self.match: Any = None
        self.match_no = 0
        self.seq = 0
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.applied: OrderedDict[tuple[int, str], int] = OrderedDict()
        self.ready: set[int] = set()
        self.gone_since: dict[int, float] = {}
        self.left: set[int] = set()
        self.rng = random.SystemRandom()
        self.timers: set[asyncio.Task[Any]] = set()
        self.last_event: dict[str, Any] | None = None
        self.closed = False

    # ---- seats ---------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seat_rows]

    def human_seats(self) -> list[int]:
        return [s.seat for s in self.seat_rows if s.bot is None]

    def seat_for_token(self, token: str) -> int | None:
        """The seat bound to ``token``, compared in constant time; None if none."""
        digest = hash_token(token)
        found = None
        for row in self.seat_rows:
            if row.token_hash is not None and hmac.compare_digest(row.token_hash, digest):
                found = row.seat
        return found

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat and not c.closed for c in self.connections)

    def people_here(self) -> bool:
        """A person sits here, connected: their bots' moves go before bots-only tables'."""
        return any(row.bot is None and self.connected(row.seat) for row in self.seat_rows)

    def bot_controls(self, seat: int) -> str | None:
        """The bot level playing ``seat`` now: its own, or a stand-in for an absent player."""
        row = self.seat_rows[seat]
        if row.bot is not None:
            return row.bot
        if seat in self.left:
            return "greedy"
        gone = self.gone_since.get(seat)
        if gone is not None and time.monotonic() - gone >= self.settings.takeover_after:
            return "greedy"
        return None

    def public_seats(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": row.seat,
                "name": row.name,
                "bot": row.bot,
                "taken": row.bot is not None or row.token_hash is not None,
                "connected": row.bot is not None or self.connected(row.seat),
                "stand_in": row.bot is None and self.bot_controls(row.seat) is not None,
            }
            for row in self.seat_rows
        ]

    def info(self) -> dict[str, Any]:
        """What the lobby shows: never a token, never a card."""
        from greenfelt.golf import rules_to_json as golf_json
        from greenfelt.spades import rules_to_json as spades_json

        rules_json = golf_json(self.rules) if self.game == "golf" else spades_json(self.rules)
        return {
            "id": self.id,
            "game": self.game,
            "rules": rules_json,
            "options": _options(self.rules),
            "status": self.status,
            "seats": self.public_seats(),
            "match": self.match_no,
            "round": len(self.match.rounds) if self.match is not None else 0,
            "seq": self.seq,
            "created_at": self.created_at,
        }

    # ---- rebuilding from the log -------------------------------------------------

    def replay(self, events: list[EventRow]) -> None:
        """Rebuild the match from stored events (after a restart, or a conflict)."""
        self.match = None
        self.match_no = 0
        self.seq = 0
        self.applied.clear()
        for event in events:
            if event.seq != self.seq + 1:
                raise StoreError(f"table {self.id}: event {event.seq} follows {self.seq}")
            self._apply_event(event.kind, event.seat, event.payload)
            self.seq = event.seq
            if event.move_id is not None and event.seat is not None:
                self._remember(event.seat, event.move_id)
        if self.match is not None:
            # The log decides, not the status column: a crash may fall between storing
            # an event and updating the status (the last move, a rematch's start).
            self.status = "over" if self.match.is_over else "playing"

    def _apply_event(self, kind: str, seat: int | None, payload: dict[str, Any]) -> None:
        if kind == "start":
            self.match = new_match(self.game, self.rules, self.names)
            self.match_no += 1
            self.ready.clear()
        elif kind == "deal":
            # The rng only decides future reshuffles (G2.5), stored with their action.
            self.match.start_round(parse_cards(payload["deck"]), payload["dealer"], rng=self.rng)
            self.ready.clear()
        elif kind == "action":
            rnd = self.match.current
            for order in payload.get("chance", []):
                rnd.supply_reshuffle(parse_cards(order))
            for permutation in payload.get("shuffles", []):
                rnd.supply_shuffle(permutation)  # G7.2: a power's shuffle
            self.match.apply(payload["action"], seat)
        else:
            raise StoreError(f"table {self.id}: unknown event kind {kind!r}")

    # ---- the live path ---------------------------------------------------------------

    async def record_event(
        self,
        kind: str,
        payload: dict[str, Any],
        seat: int | None = None,
        move_id: str | None = None,
    ) -> None:
        """Store the next event, then apply it. Caller holds the lock."""
        await self.store.append(self.id, self.seq + 1, kind, payload, seat=seat, move_id=move_id)
        self._apply_event(kind, seat, payload)
        self.seq += 1
        if move_id is not None and seat is not None:
            self._remember(seat, move_id)

    def _remember(self, seat: int, move_id: str) -> None:
        self.applied[(seat, move_id)] = self.seq
        while len(self.applied) > 512:
            self.applied.popitem(last=False)

    async def start(self) -> None:
        """Begin the match once every human seat is taken (and bots fill the rest)."""
        async with self.lock:
            if self.match is not None or self.status != "open":
                return
            if any(r.bot is None and r.token_hash is None for r in self.seat_rows):
                return
            await self.store.set_status(self.id, "playing")
            self.status = "playing"
            await self.record_event("start", {})
            await self._deal()
        self.broadcast({"kind": "start"})
        self.schedule()

    async def _deal(self) -> None:
        match = self.match
        dealer = match.next_dealer
        if self.game == "golf":
            players = len(match.next_seating())
            deck = shuffled_deck(
                self.rng, self.rules.deck_count(players), self.rules.jokers_per_deck
            )
        else:
            deck = shuffled_deck(self.rng)
        await self.record_event("deal", {"dealer": dealer, "deck": card_texts(deck)})
        self.last_event = {"kind": "deal", "dealer": dealer, "round": len(match.rounds)}

    async def submit(
        self, seat: int, text: str, seq: int | None, move_id: str | None
    ) -> dict[str, Any]:
        """Validate, store, apply, broadcast one move; returns the ack (or raises ProtocolError)."""
        async with self.lock:
            if move_id is not None and (seat, move_id) in self.applied:
                return {
                    "type": "ack",
                    "id": move_id,
                    "seq": self.applied[(seat, move_id)],
                    "duplicate": True,
                }
            if self.match is None:
                raise ProtocolError(
                    "table/not_started", "the match starts when every seat is taken"
                )
            if seq is not None and seq != self.seq:
                raise ProtocolError(
                    "action/stale", f"your move was made at event {seq}; the table is at {self.seq}"
                )
            rnd = self.match.current
            if rnd is None:
                raise ProtocolError(
                    "table/over" if self.match.is_over else "action/illegal",
                    "no round is in progress",
                )
            if self.match.to_move != seat:
                raise ProtocolError(
                    "action/not_your_turn", f"it is {self.names[self.match.to_move]}'s turn"
                )
            chance = self._chance_of(rnd, text)  # validates the action too
            payload: dict[str, Any] = {"action": _canonical(rnd, text), **chance}
            try:
                await self.record_event("action", payload, seat, move_id)
            except StoreConflict:
                await self.reload()
                raise ProtocolError("action/stale", "another server stored a move first") from None
            except StoreError as error:
                raise ProtocolError(
                    "store/unavailable", f"the move was not made: {error}"
                ) from None
            event = {"kind": "action", "seat": seat, "action": payload["action"]}
            self.last_event = event
            ack = {"type": "ack", "id": move_id, "seq": self.seq}
            if self.match.is_over:
                await self._finish()
        self.broadcast(event)
        self.schedule()
        return ack

    def _chance_of(self, rnd: Any, text: str) -> dict[str, list[Any]]:
        """Apply the move to a copy: it must be legal, and any chance outcome is decided
        now (G2.5 reshuffles, G7.2 shuffles), to be stored with the move."""
        trial = rnd.clone()
        try:
            trial.apply(text)
        except NotYourTurn as error:
            raise ProtocolError("action/not_your_turn", str(error)) from None
        except GreenfeltError as error:
            raise ProtocolError("action/illegal", str(error)) from None
        chance: dict[str, list[Any]] = {}
        before = len(getattr(rnd, "reshuffles", ()))
        orders = [card_texts(o) for o in getattr(trial, "reshuffles", [])[before:]]
        if orders:
            chance["chance"] = orders
        before = len(getattr(rnd, "shuffles", ()))
        shuffles = [list(p) for p in getattr(trial, "shuffles", [])[before:]]
        if shuffles:
            chance["shuffles"] = shuffles
        return chance

    async def _finish(self) -> None:
        self.status = "over"
        await self.store.set_status(self.id, "over")

    async def next_round(self, seat: int | None = None) -> None:
        """A player is ready (or the pause ran out): deal when everyone present is ready."""
        async with self.lock:
            match = self.match
            if match is None or match.current is not None or match.is_over:
                return
            if seat is not None:
                self.ready.add(seat)
                waiting = [
                    s
                    for s in self.human_seats()
                    if self.connected(s) and s not in self.ready and self.bot_controls(s) is None
                ]
                if waiting:
                    return
            await self._deal()
        self.broadcast(self.last_event)
        self.schedule()

    async def rematch(self) -> None:
        """Same seats, a new match (only once the match is over)."""
        async with self.lock:
            if self.match is None or not self.match.is_over:
                raise ProtocolError("action/illegal", "a rematch starts once the match is over")
            await self.record_event("start", {})
            await self._deal()
            self.status = "playing"
            await self.store.set_status(self.id, "playing")
            self.last_event = {"kind": "rematch", "match": self.match_no}
        self.broadcast(self.last_event)
        self.schedule()

    async def reload(self) -> None:
        """Rebuild from storage (another process wrote this table)."""
        self.replay(await self.store.events(self.id))

    # ---- bots and timers ---------------------------------------------------------------

    def schedule(self) -> None:
        """Start whatever should happen next without a person: a bot's move or a deal."""
        if self.closed or self.match is None:
            return
        match = self.match
        if match.is_over:
            return
        if match.current is None:
            self._later(self.settings.round_pause, self.next_round())
            return
        seat = match.to_move
        level = self.bot_controls(seat)
        if level is not None:
            self._later(self.settings.bot_delay, self._bot_move(seat, level, self.seq))
        elif seat in self.gone_since:
            wait = self.gone_since[seat] + self.settings.takeover_after - time.monotonic()
            self._later(max(wait, 0.0) + 0.01, self._recheck(self.seq))

    def _later(self, delay: float, work: Any) -> None:
        async def run() -> None:
            try:
                if delay > 0:
                    await asyncio.sleep(delay)
                await work
            except ProtocolError:
                pass  # the table moved on meanwhile (stale), nothing to do
            except StoreError as error:
                log.warning("table %s: storage failed, retrying: %s", self.id, error)
                await asyncio.sleep(1.0)
                self.schedule()
            except Exception as error:  # a bug must not kill the table silently
                # The stack without the message: an engine error's message may name cards.
                log.error(
                    "table %s: background task failed (%s)\n%s",
                    self.id,
                    type(error).__name__,
                    "".join(traceback.format_tb(error.__traceback__)).rstrip(),
                )

        task = asyncio.create_task(run())
        self.timers.add(task)
        task.add_done_callback(self.timers.discard)
        # A timer cancelled before its work began (the table closed) must close that
        # coroutine, or Python warns that it was never awaited.
        task.add_done_callback(lambda _task: work.close())

    async def _recheck(self, seq: int) -> None:
        if seq == self.seq:
            self.schedule()

    async def _bot_move(self, seat: int, level: str, seq: int) -> None:
        if seq != self.seq or self.match is None or self.match.to_move != seat:
            return
        if self.bot_controls(seat) != level:  # the player came back while the bot waited
            return
        rnd = self.match.current
        round_seat = rnd.to_move
        seed = f"{self.id}:{seq}"
        action = None
        try:
            move = await self.thinkers.move(
                self.game, level, seed, rnd.clone(), round_seat, urgent=self.people_here()
            )
            action = move.action
            for failure in move.failures:
                log.error(
                    "table %s, seat %d: %s; its move is the %s bot's",
                    self.id,
                    seat,
                    failure,
                    move.level,
                )
        except TimeoutError:
            # A thread cannot be stopped (a worker process stops its bot sooner, see
            # greenfelt.server.thinking); a late answer is dropped.
            log.error(
                "table %s, seat %d: the %s bot thought over %g s; its move is a random one",
                self.id,
                seat,
                level,
                self.settings.bot_timeout,
            )
        if self.bot_controls(seat) != level or seq != self.seq:  # ... or while it thought
            return
        if action is None:
            action = random.Random(seed).choice(rnd.legal_actions(round_seat))
        await self.submit(seat, str(action), seq, None)

    # ---- connections -----------------------------------------------------------------

    def attach(self, connection: Connection) -> None:
        self.connections.add(connection)
        if connection.seat is not None:
            self.gone_since.pop(connection.seat, None)
            self.left.discard(connection.seat)
        connection.push(self.message(connection.seat, "state"))
        self.broadcast_seats()
        self.schedule()

    def detach(self, connection: Connection) -> None:
        self.connections.discard(connection)
        connection.close()
        seat = connection.seat
        if seat is not None and not self.connected(seat):
            self.gone_since[seat] = time.monotonic()
            self.broadcast_seats()
            self.schedule()

    def leave(self, seat: int) -> None:
        self.left.add(seat)
        self.broadcast_seats()
        self.schedule()

    async def seat_bot(self, seat: int | None, level: str | None) -> None:
        """Give an open seat to a bot while the table waits (a friend who did not come);
        the table starts once every seat is filled. Raises ProtocolError saying why not."""
        if level not in bots.LEVELS:
            raise ProtocolError(
                "seat/invalid",
                f"unknown bot level {level!r}: choose one of {', '.join(bots.LEVELS)}",
            )
        if seat is None or not 0 <= seat < len(self.seat_rows):
            raise ProtocolError(
                "seat/invalid", f"seat {seat} does not exist (0-{len(self.seat_rows) - 1})"
            )
        name = f"{level.title()} bot"
        async with self.lock:
            row = self.seat_rows[seat]
            if row.bot is not None or row.token_hash is not None:
                raise ProtocolError("seat/taken", f"seat {seat} is already taken ({row.name})")
            # Another process sharing the database may have seated someone meanwhile.
            if not await self.store.seat_bot(self.id, seat, level, name):
                raise ProtocolError("seat/taken", f"seat {seat} was taken a moment ago")
            self.seat_rows[seat] = SeatRow(seat, name, level, None)
        self.broadcast_seats()
        await self.start()

    def message(
        self, seat: int | None, kind: str = "update", event: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Everything ``seat`` may know of the table, built from ``view(seat)``."""
        view = None
        if self.match is not None:
            if self.game == "golf":
                view = self.match.view(seat, recall=not self.rules.memory)
            else:
                view = self.match.view(seat)
        return {
            "type": kind,
            "table": self.id,
            "seq": self.seq,
            "seat": seat,
            "status": self.status,
            "match": self.match_no,
            "seats": self.public_seats(),
            "event": event if event is not None else self.last_event,
            "view": view,
        }

    def broadcast(self, event: dict[str, Any] | None) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        for connection in list(self.connections):
            seat = connection.seat
            if seat not in cache:
                cache[seat] = self.message(seat, "update", self._event_for(seat, event))
            connection.push(cache[seat])

    def _event_for(self, seat: int | None, event: dict[str, Any] | None) -> dict[str, Any] | None:
        """The event as ``seat`` may see it: a peek shows its card to the peeker only (G8.2)."""
        if event is None or event.get("kind") != "action" or event.get("seat") != seat:
            return event
        text = str(event.get("action", ""))
        if (
            self.game == "golf"
            and self.match is not None
            and text.startswith(("peek ", "power peek "))
        ):
            rnd = self.match.rounds[-1]
            seating = self.match.seating(len(self.match.rounds) - 1)
            if text.startswith("peek "):
                owner, position = seating.index(seat), int(text.split()[1])
            else:  # "power peek S:P": S is a seat of the round
                owner, _, where = text.split()[2].partition(":")
                owner, position = int(owner), int(where)
            card = rnd.layout(owner)[position]
            return {**event, "seen": str(card)}
        return event

    def broadcast_seats(self) -> None:
        message = {"type": "seats", "table": self.id, "seats": self.public_seats()}
        for connection in list(self.connections):
            connection.push(message)

    async def close(self) -> None:
        self.closed = True
        for task in list(self.timers):
            task.cancel()
        for connection in list(self.connections):
            connection.close()


def _options(rules: Any) -> dict[str, Any]:
    """Every option's value, resolved (what clients show; the record keeps preset + set)."""
    if hasattr(rules, "options"):
        return dict(rules.options())
    import dataclasses

    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}


def _canonical(rnd: Any, text: str) -> str:
    """The action's canonical text (``Swap 4`` -> ``swap 4``, ``play 10h`` -> ``play 10♥``)."""
    module = type(rnd).__module__
    if module.startswith("greenfelt.golf"):
        from greenfelt.golf import parse_action as golf_parse

        return str(golf_parse(text))
    from greenfelt.spades import format_action
    from greenfelt.spades import parse_action as spades_parse

    return format_action(spades_parse(text))
