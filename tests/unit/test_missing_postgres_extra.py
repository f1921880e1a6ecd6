"""A PostgreSQL URL without the ``postgres`` extra installed names the pip command."""

from __future__ import annotations

import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from pydantic import SecretStr

from finagent.config import Settings
from finagent.storage.backend import open_persistence
from finagent.storage.errors import StorageUnavailableError


async def test_missing_driver_is_a_russian_error_with_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as if the extra were not installed: the driver module cannot be imported
    monkeypatch.setitem(sys.modules, "langgraph.checkpoint.postgres.aio", None)
    monkeypatch.delitem(sys.modules, "finagent.storage.postgres", raising=False)
    settings = Settings(data_dir=tmp_path, postgres_url=SecretStr("postgresql://u:pw@h/db"))
    async with AsyncExitStack() as stack:
        with pytest.raises(StorageUnavailableError) as info:
            await open_persistence(settings, stack)
    message = str(info.value)
    assert "pip install 'finagent[postgres]'" in message and "SQLite" in message
    assert "pw" not in message
