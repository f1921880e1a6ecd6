"""PostgreSQL store and checkpointer (``FINAGENT_POSTGRES_URL``, extra ``.[postgres]``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from contextlib import AsyncExitStack
from typing import Any
from urllib.parse import unquote, urlsplit

import psycopg
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import ChannelVersions, Checkpoint, CheckpointMetadata
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.store.base import Op, PutOp, Result
from langgraph.store.postgres.aio import AsyncPostgresStore
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from finagent.observability import redact, register_secrets
from finagent.storage.errors import StorageUnavailableError
from finagent.storage.serde import checkpoint_serde

__all__ = ["PostgresSaver", "PostgresStore", "StorageUnavailableError", "open_postgres"]

POOL_MAX_SIZE = 10
# pg_advisory_lock key serialising migrations: processes starting together on a fresh
# database would otherwise race on CREATE TABLE and the migrations tables.
# A blocking pg_advisory_lock would deadlock with CREATE INDEX CONCURRENTLY (which waits for
# the waiters' transactions), so the lock is polled with pg_try_advisory_lock.
SETUP_LOCK_KEY = 0x66696E6167656E74  # "finagent"
SETUP_LOCK_TIMEOUT = 120.0  # seconds


def strip_nul(value: Any) -> Any:
    """``value`` without NUL characters, which PostgreSQL ``text`` and ``jsonb`` cannot hold."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {strip_nul(k): strip_nul(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [strip_nul(v) for v in value]
    return value


def dsn_secrets(dsn: str) -> list[str]:
    """The DSN and its password, as written and decoded, for redaction."""
    secrets = [dsn]
    try:
        password = conninfo_to_dict(dsn).get("password")
    except psycopg.Error:  # malformed: a URL password is still found below
        password = None
    if password:
        secrets.append(str(password))
    try:
        raw = urlsplit(dsn).password
    except ValueError:
        raw = None
    if raw:
        secrets += [raw, unquote(raw)]
    return secrets


class PostgresStore(AsyncPostgresStore):
    """The LangGraph Postgres store, dropping NUL characters from values instead of failing."""

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await super().abatch([_clean_op(op) for op in ops])


class PostgresSaver(AsyncPostgresSaver):
    """The LangGraph Postgres checkpointer, dropping NUL characters from the values it
    keeps inline (strings in ``jsonb``) and from metadata instead of failing."""

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        values = checkpoint["channel_values"]
        clean = {k: strip_nul(v) if isinstance(v, str) else v for k, v in values.items()}
        checkpoint = {**checkpoint, "channel_values": clean}
        return await super().aput(config, checkpoint, strip_nul(metadata), new_versions)


async def _lock_setup(conn: psycopg.AsyncConnection[Any]) -> None:
    """Take the migration lock (session level), waiting for another process to finish."""
    deadline = time.monotonic() + SETUP_LOCK_TIMEOUT
    while True:
        cursor = await conn.execute("SELECT pg_try_advisory_lock(%s) AS locked", (SETUP_LOCK_KEY,))
        row = await cursor.fetchone()
        if row is not None and row["locked"]:
            return
        if time.monotonic() > deadline:
            raise StorageUnavailableError("PostgreSQL: another process is still migrating")
        await asyncio.sleep(0.1)  # polling a lock held by another process


def _clean_op(op: Op) -> Op:
    if isinstance(op, PutOp) and op.value is not None:
        return op._replace(value=strip_nul(op.value))
    return op


async def open_postgres(dsn: str, stack: AsyncExitStack) -> tuple[PostgresStore, PostgresSaver]:
    """Migrate on one connection (failing fast and clearly, one process at a time), then
    serve from a checked pool.

    The pool replaces connections the server dropped (restart, failover, idle timeout), so
    a long-running process survives them. The pool is closed when ``stack`` closes.
    """
    register_secrets(dsn_secrets(dsn))
    kwargs: dict[str, Any] = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
    try:
        async with await psycopg.AsyncConnection.connect(dsn, **kwargs) as conn:
            await _lock_setup(conn)
            await PostgresStore(conn).setup()
            await PostgresSaver(conn).setup()
            await conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))
    except psycopg.Error as exc:
        # ``from None``: the original error may quote the DSN, and tracebacks are not redacted
        raise StorageUnavailableError(
            redact(f"PostgreSQL is unavailable: {type(exc).__name__}: {exc}".strip())
        ) from None
    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        dsn,
        min_size=1,
        max_size=POOL_MAX_SIZE,
        kwargs=kwargs,
        check=AsyncConnectionPool.check_connection,
        open=False,
        name="finagent",
    )
    await pool.open()
    stack.push_async_callback(pool.close)
    return PostgresStore(pool), PostgresSaver(pool, serde=checkpoint_serde())
