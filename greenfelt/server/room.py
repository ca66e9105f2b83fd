"""The card room: creates, finds, restores and seats tables over one store.

The room holds nothing it cannot rebuild from storage: on start it replays
every unfinished table. With ``shard=(k, n)`` a process serves only the tables
whose id falls in its shard, so several processes can share one PostgreSQL
(README: scaling out).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import zlib
from typing import Any

from greenfelt.bots import LEVELS
from greenfelt.errors import GreenfeltError, RulesError
from greenfelt.server.store import SeatRow, Store, StoreError
from greenfelt.server.tables import Settings, Table, hash_token, new_token, rules_from_json
from greenfelt.server.thinking import Thinkers

__all__ = ["LobbyError", "Room", "shard_of"]

log = logging.getLogger("greenfelt.room")

SEATS = {"golf": (2, 8), "spades": (2, 2)}


class LobbyError(GreenfeltError):
    """A lobby request that cannot be served, with a stable code and an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def shard_of(table_id: str, shards: int) -> int:
    """Which of ``shards`` processes serves ``table_id`` (stable across processes)."""
    return zlib.crc32(table_id.encode("ascii")) % shards


class Room:
    """All tables of this process; see the module docstring."""

    def __init__(
        self, store: Store, settings: Settings | None = None, shard: tuple[int, int] = (0, 1)
    ):
        self.store = store
        self.settings = settings or Settings()
        self.thinkers = Thinkers(self.settings.bot_processes, self.settings.bot_timeout)
        self.shard = shard
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}

    def mine(self, table_id: str) -> bool:
        k, n = self.shard
        return shard_of(table_id, n) == k

    async def start(self) -> None:
        """Open storage and rebuild every unfinished table of this shard."""
        await self.store.open()
        self.thinkers.start()
        for row in await self.store.tables(["open", "playing"]):
            if self.mine(row.id):
                try:
                    await self._load(row.id)
                except (StoreError, GreenfeltError) as error:
                    log.error("table %s could not be restored: %s", row.id, error)

    async def stop(self) -> None:
        for table in self.tables.values():
            await table.close()
        self.thinkers.close()
        await self.store.close()

    async def _load(self, table_id: str) -> Table | None:
        row = await self.store.table(table_id)
        if row is None:
            return None
        seats = await self.store.seats(table_id)
        table = Table(row, seats, self.store, self.settings, self.thinkers)
        table.replay(await self.store.events(table_id))
        if table.status != row.status:  # a crash lost the status write: the log decides
            await self.store.set_status(table_id, table.status)
        self.tables[table_id] = table
        table.schedule()
        return table

    async def get(self, table_id: str) -> Table:
        """The table ``table_id``; LobbyError table/not_found (creating nothing) if none."""
        if not _valid_id(table_id):
            raise LobbyError("table/not_found", "no such table", 404)
        if not self.mine(table_id):
            k, n = self.shard
            raise LobbyError(
                "table/other_shard",
                f"table {table_id} is served by shard {shard_of(table_id, n)} of {n}, not {k}",
                421,
            )
        table = self.tables.get(table_id)
        if table is not None:
            return table
        # One load per id at a time, shared by everyone asking meanwhile; the entry goes
        # when the load ends, so ids that name no table leave nothing behind.
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _done: self._loading.pop(table_id, None))
        table = await asyncio.shield(loading)
        if table is None:
            raise LobbyError("table/not_found", f"there is no table {table_id}", 404)
        return table

    async def create(
        self,
        game: str,
        preset: str | None,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
    ) -> Table:
        """Create a table: rules validated, bots in the seats that ask for them."""
        if game not in SEATS:
            raise LobbyError("table/invalid", f"unknown game {game!r}: golf or spades")
        low, high = SEATS[game]
        if not low <= len(seats) <= high:
            raise LobbyError(
                "table/invalid", f"{game} is for {low} to {high} seats, not {len(seats)}"
            )
        rules_json: dict[str, Any] = {}
        if preset:
            rules_json["preset"] = preset
        if options:
            rules_json["set"] = options
        try:
            rules = rules_from_json(
                game, rules_json or {"preset": "six-card" if game == "golf" else "two-player"}
            )
            if game == "golf":
                rules.check_players(len(seats))
        except (RulesError, GreenfeltError) as error:
            raise LobbyError("rules/invalid", str(error)) from None
        from greenfelt.golf import rules_to_json as golf_json
        from greenfelt.spades import rules_to_json as spades_json

        rows = []
        for number, spec in enumerate(seats):
            bot = spec.get("bot")
            if bot is not None and bot not in LEVELS:
                raise LobbyError(
                    "table/invalid",
                    f"seat {number}: unknown bot level {bot!r} ({', '.join(LEVELS)})",
                )
            name = (spec.get("name") or "").strip()[:32] or (
                f"{bot.title()} bot" if bot else f"Seat {number + 1}"
            )
            rows.append(SeatRow(number, name, bot, None))
        table_id = self._new_id()
        config = {"rules": golf_json(rules) if game == "golf" else spades_json(rules)}
        await self.store.create_table(table_id, game, config, rows)
        table = await self.get(table_id)
        await table.start()  # an all-bot table starts at once
        return table

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(6)
            if self.mine(table_id):
                return table_id

    async def join(self, table_id: str, seat: int | None, name: str) -> tuple[Table, int, str]:
        """Seat a person; returns (table, seat, token). Two joins of one seat: one wins."""
        table = await self.get(table_id)
        name = name.strip()[:32]
        if not name:
            raise LobbyError("seat/invalid", "a display name is needed to join")
        if seat is not None:
            if not 0 <= seat < len(table.seat_rows):
                raise LobbyError(
                    "seat/invalid", f"seat {seat} does not exist (0-{len(table.seat_rows) - 1})"
                )
            if table.seat_rows[seat].bot is not None:
                raise LobbyError("seat/taken", f"seat {seat} is played by a bot", 409)
        token = new_token()
        digest = hash_token(token)
        async with table.lock:
            # The free seats are looked at under the lock: two people joining "any seat"
            # at once get two different seats, not one seat and an error.
            free = [r.seat for r in table.seat_rows if r.bot is None and r.token_hash is None]
            if seat is None:
                if not free:
                    raise LobbyError("seat/taken", "every seat at this table is taken", 409)
                candidates = free
            elif seat not in free:
                raise LobbyError("seat/taken", f"seat {seat} is already taken", 409)
            else:
                candidates = [seat]
            for candidate in candidates:
                # Another process sharing the database may have claimed it meanwhile.
                if await self.store.claim_seat(table_id, candidate, name, digest):
                    seat = candidate
                    break
            else:
                raise LobbyError(
                    "seat/taken",
                    f"seat {candidates[0]} is already taken"
                    if len(candidates) == 1
                    else "every seat at this table is taken",
                    409,
                )
            table.seat_rows[seat] = SeatRow(seat, name, None, digest)
        table.broadcast_seats()
        await table.start()
        return table, seat, token

    async def list_open(self) -> list[dict[str, Any]]:
        rows = await self.store.tables(["open", "playing"])
        out = []
        for row in rows:
            if self.mine(row.id):
                table = await self.get(row.id)
                out.append(table.info())
        return out


def _valid_id(table_id: str) -> bool:
    return 1 <= len(table_id) <= 32 and all(c in "0123456789abcdef" for c in table_id)
