"""Hints that name the way out of a dead end, printed by the CLI in Russian."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from finagent.bootstrap import Deps

INGEST_COMMANDS = "`finagent ingest kb ФАЙЛ.csv` или `finagent ingest docs ФАЙЛ --user ИМЯ`"


async def empty_index_hint(deps: Deps, user: str) -> str | None:
    """A Russian hint when neither the knowledge base nor ``user``'s documents hold
    anything (a fresh or a wrong data folder), else None."""
    from finagent.retrieval.index import SearchFilter
    from finagent.retrieval.retriever import DOCS, KB

    prefix = deps.settings.collection_prefix
    if await deps.index.count(f"{prefix}_{KB}") > 0:
        return None
    if await deps.index.count(f"{prefix}_{DOCS}", SearchFilter(user_id=user)) > 0:
        return None
    return (
        f"База пуста: запустите `finagent demo` или {INGEST_COMMANDS}. "
        f"Папка данных: {deps.settings.data_dir.resolve()} (другую задаёт FINAGENT_DATA_DIR)."
    )
