"""Opens the LangGraph store and checkpointer: SQLite by default, PostgreSQL when configured."""

from __future__ import annotations

from contextlib import AsyncExitStack
from dataclasses import dataclass

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.store.base import BaseStore

from finagent.config import Settings
from finagent.storage.errors import StorageUnavailableError
from finagent.storage.serde import checkpoint_serde

MISSING_POSTGRES_EXTRA = (
    "для FINAGENT_POSTGRES_URL нужен дополнительный пакет finagent[postgres] (нет модуля "
    "{module}): pip install 'finagent[postgres]' (из клона: pip install -e '.[postgres]') "
    "или уберите FINAGENT_POSTGRES_URL, чтобы хранить данные в SQLite"
)


@dataclass
class Persistence:
    store: BaseStore
    checkpointer: BaseCheckpointSaver[str]


async def open_persistence(settings: Settings, stack: AsyncExitStack) -> Persistence:
    """Open the store and checkpointer; they are closed when ``stack`` closes."""
    if settings.postgres_url is not None:
        try:
            from finagent.storage.postgres import open_postgres
        except ImportError as exc:
            missing = MISSING_POSTGRES_EXTRA.format(module=exc.name)
            raise StorageUnavailableError(missing, missing) from exc

        pg_store, pg_saver = await open_postgres(settings.postgres_url.get_secret_value(), stack)
        return Persistence(store=pg_store, checkpointer=pg_saver)

    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    from finagent.storage.sqlite_exit import forget, stop_at_exit

    store = await stack.enter_async_context(
        AsyncSqliteStore.from_conn_string(str(settings.data_dir / "store.sqlite"))
    )
    conn = await stack.enter_async_context(
        aiosqlite.connect(str(settings.data_dir / "checkpoints.sqlite"))
    )
    # a host that never closes the stack still exits (finagent/storage/sqlite_exit.py)
    for opened in (store.conn, conn):
        stop_at_exit(opened)
        stack.callback(forget, opened)
    saver = AsyncSqliteSaver(conn, serde=checkpoint_serde())
    await store.setup()
    await saver.setup()
    return Persistence(store=store, checkpointer=saver)
