"""Storage: tables, seats and each table's event log, in SQLite or PostgreSQL.

State is the record (DESIGN.md): a table's match is rebuilt by replaying its
events (deals with their decks, actions with their chance outcomes), so the
log is the only thing that must survive. Every event is committed *before* it
is applied, acknowledged or broadcast (events of different tables that arrive
together share one commit); the primary key ``(table_id, seq)`` makes two
writers for one table (two processes, a retried move) collide instead of
forking the game.

One SQLAlchemy Core layer serves both databases: ``sqlite+aiosqlite`` for the
default file, ``postgresql+asyncpg`` when a URL is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

__all__ = [
    "EventRow",
    "SeatRow",
    "Store",
    "StoreConflict",
    "StoreError",
    "TableRow",
    "database_url",
]


class StoreError(Exception):
    """The database is away or failed: nothing was written (STYLE 7: outside-world family)."""


class StoreConflict(StoreError):
    """Another writer stored this table's next event first: the move is stale."""


metadata = sa.MetaData()

tables_t = sa.Table(
    "gf_tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)
seats_t = sa.Table(
    "gf_seats",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("bot", sa.String(16), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
)
events_t = sa.Table(
    "gf_events",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("move_id", sa.String(64), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
)
sa.Index("gf_tables_status", tables_t.c.status)


@dataclass(frozen=True)
class TableRow:
    id: str
    game: str
    config: dict[str, Any]
    status: str
    created_at: float


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    bot: str | None
    token_hash: str | None


@dataclass(frozen=True)
class EventRow:
    seq: int
    kind: str
    seat: int | None
    payload: dict[str, Any]
    move_id: str | None


def database_url(url: str | None, data_dir: Path) -> str:
    """The SQLAlchemy URL for a user's ``--db`` value (default: a file in ``data_dir``)."""
    if not url:
        data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{(data_dir / 'greenfelt.sqlite3').resolve()}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL survives a killed process with every committed transaction (SIGKILL
    # test); NORMAL sync is durable against process crashes, fast enough for play.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class Store:
    """Async access to tables, seats and events; every failure is a StoreError."""

    def __init__(self, url: str) -> None:
        self.url = url
        if url.startswith("sqlite"):
            # One connection: SQLite has one writer at a time, and writers of a pool
            # would wait for each other in SQLite's busy handler (sleeps of up to
            # 100 ms each); queued here instead, each write starts the moment it can.
            # (A local file needs no liveness ping before each use.)
            self.engine: AsyncEngine = create_async_engine(url, pool_size=1, max_overflow=0)
        else:
            self.engine = create_async_engine(url, pool_pre_ping=True)
        if url.startswith("sqlite"):
            sa_event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    @property
    def kind(self) -> str:
        return "sqlite" if self.url.startswith("sqlite") else "postgresql"

    async def open(self) -> None:
        """Create the schema if missing."""
        try:
            async with self.engine.begin() as conn:
                await conn.run_sync(metadata.create_all)
        except (SQLAlchemyError, OSError) as error:
            raise StoreError(f"cannot open the database: {_short(error)}") from None

    async def close(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer  # what was queued is committed (or failed) first
        await self.engine.dispose()

    # ---- tables ----------------------------------------------------------------

    async def create_table(
        self, table_id: str, game: str, config: dict[str, Any], seats: Sequence[SeatRow]
    ) -> None:
        now = time.time()
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    tables_t.insert().values(
                        id=table_id,
                        game=game,
                        config=json.dumps(config, ensure_ascii=False),
                        status="open",
                        created_at=now,
                        updated_at=now,
                    )
                )
                await conn.execute(
                    seats_t.insert(),
                    [
                        {
                            "table_id": table_id,
                            "seat": s.seat,
                            "name": s.name,
                            "bot": s.bot,
                            "token_hash": s.token_hash,
                        }
                        for s in seats
                    ],
                )
        except (SQLAlchemyError, OSError) as error:
            raise StoreError(f"cannot create table: {_short(error)}") from None

    async def set_status(self, table_id: str, status: str) -> None:
        await self._write(
            tables_t.update()
            .where(tables_t.c.id == table_id)
            .values(status=status, updated_at=time.time())
        )

    async def tables(self, statuses: Sequence[str] | None = None) -> list[TableRow]:
        query = sa.select(tables_t).order_by(tables_t.c.created_at)
        if statuses:
            query = query.where(tables_t.c.status.in_(list(statuses)))
        rows = await self._read(query)
        return [TableRow(r.id, r.game, json.loads(r.config), r.status, r.created_at) for r in rows]

    async def table(self, table_id: str) -> TableRow | None:
        rows = await self._read(sa.select(tables_t).where(tables_t.c.id == table_id))
        if not rows:
            return None
        r = rows[0]
        return TableRow(r.id, r.game, json.loads(r.config), r.status, r.created_at)

    # ---- seats -------------------------------------------------------------------

    async def seats(self, table_id: str) -> list[SeatRow]:
        rows = await self._read(
            sa.select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
        )
        return [SeatRow(r.seat, r.name, r.bot, r.token_hash) for r in rows]

    async def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Bind a free human seat to a token; False if someone claimed it first."""
        return await self._take_free_seat(table_id, seat, name=name, token_hash=token_hash)

    async def seat_bot(self, table_id: str, seat: int, level: str, name: str) -> bool:
        """Give a free seat to a bot; False if someone claimed it first."""
        return await self._take_free_seat(table_id, seat, name=name, bot=level)

    async def _take_free_seat(self, table_id: str, seat: int, **values: str) -> bool:
        """Set ``values`` on a seat nobody holds yet, in one statement (a race has one winner)."""
        result = await self._write(
            seats_t.update()
            .where(
                seats_t.c.table_id == table_id,
                seats_t.c.seat == seat,
                seats_t.c.bot.is_(None),
                seats_t.c.token_hash.is_(None),
            )
            .values(**values)
        )
        return bool(result)

    # ---- events ------------------------------------------------------------------

    async def append(
        self,
        table_id: str,
        seq: int,
        kind: str,
        payload: dict[str, Any],
        *,
        seat: int | None = None,
        move_id: str | None = None,
    ) -> None:
        """Store event ``seq`` of a table; StoreConflict if that seq exists already.

        Returns once the event is committed. Events of many tables that arrive
        together are committed together (group commit): one transaction, one
        commit, instead of one each; a table has at most one event in flight (it
        holds its lock), so a batch never orders two events of one table.
        """
        row = {
            "table_id": table_id,
            "seq": seq,
            "kind": kind,
            "seat": seat,
            "payload": json.dumps(payload, ensure_ascii=False),
            "move_id": move_id,
            "created_at": time.time(),
        }
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # Read the outcome even if the caller was cancelled (no "never retrieved" noise).
        done.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._pending.append((row, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        await asyncio.shield(done)  # a cancelled caller does not cancel the others' commit

    async def _write_pending(self) -> None:
        """Commit queued events in batches until none are left."""
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(events_t.insert(), [row for row, _ in batch])
            except IntegrityError:
                # Some event's number was taken (another process): find whose, one by one.
                for row, done in batch:
                    _settle(done, await self._insert_one(row))
                continue
            except (SQLAlchemyError, OSError) as error:
                failure = StoreError(f"cannot store the move: {_short(error)}")
                for _, done in batch:
                    _settle(done, failure)
                continue
            for _, done in batch:
                _settle(done, None)

    async def _insert_one(self, row: dict[str, Any]) -> StoreError | None:
        try:
            async with self.engine.begin() as conn:
                await conn.execute(events_t.insert(), [row])
        except IntegrityError:
            return StoreConflict(f"event {row['seq']} of table {row['table_id']} exists already")
        except (SQLAlchemyError, OSError) as error:
            return StoreError(f"cannot store the move: {_short(error)}")
        return None

    async def events(self, table_id: str) -> list[EventRow]:
        rows = await self._read(
            sa.select(events_t).where(events_t.c.table_id == table_id).order_by(events_t.c.seq)
        )
        return [EventRow(r.seq, r.kind, r.seat, json.loads(r.payload), r.move_id) for r in rows]

    # ---- plumbing ------------------------------------------------------------------

    async def _read(self, query: Any) -> list[Any]:
        try:
            async with self.engine.connect() as conn:
                return list((await conn.execute(query)).fetchall())
        except (SQLAlchemyError, OSError) as error:
            raise StoreError(f"the database is unavailable: {_short(error)}") from None

    async def _write(self, statement: Any) -> int:
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(statement)
                return int(result.rowcount or 0)
        except (SQLAlchemyError, OSError) as error:
            raise StoreError(f"the database is unavailable: {_short(error)}") from None


def _settle(done: asyncio.Future[None], error: StoreError | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


def _short(error: BaseException) -> str:
    """The first line of a driver error, without SQL or parameters (never card data)."""
    if isinstance(error, DBAPIError | OperationalError) and error.orig is not None:
        error = error.orig
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__
