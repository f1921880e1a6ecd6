"""A process that writes chat turns in a loop through finagent's store, to be killed with
SIGKILL.

Run as ``python -m tests.integration.turn_writer DATA_DIR READY_AFTER [POSTGRES_URL]``:
several chats write exchanges concurrently into the store finagent opens for these
settings (``DATA_DIR/store.sqlite``, or PostgreSQL when a URL is given). Once the store
has committed READY_AFTER puts, the process prints ``ready`` on stdout and keeps writing
until it is killed. The signal comes from inside the store, right after a commit, so with
turns written one put each the kill lands between a question and its answer.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterable
from contextlib import AsyncExitStack
from pathlib import Path

from langgraph.store.base import BaseStore, Op, PutOp, Result

from finagent.config import Settings
from finagent.state import Turn
from finagent.storage.backend import open_persistence
from finagent.storage.history import ChatHistory

CHATS = 4
USER = "alice"


def signal_when_committed(store: BaseStore, ready_after: int) -> None:
    """Print ``ready`` once ``ready_after`` puts of ``store`` are committed."""
    batch = store.abatch
    committed = 0

    async def abatch(ops: Iterable[Op]) -> list[Result]:
        nonlocal committed
        ops = list(ops)
        results = await batch(ops)
        before = committed
        committed += sum(isinstance(op, PutOp) for op in ops)
        if before < ready_after <= committed:
            print("ready", flush=True)
        return results

    store.abatch = abatch  # type: ignore[method-assign]


async def main(data_dir: Path, ready_after: int, postgres_url: str | None) -> None:
    settings = Settings(  # type: ignore[call-arg]
        data_dir=data_dir, postgres_url=postgres_url, _env_file=None
    )
    async with AsyncExitStack() as stack:
        store = (await open_persistence(settings, stack)).store
        signal_when_committed(store, ready_after)
        history = ChatHistory(store)

        async def chat(n: int) -> None:
            i = 0
            while True:
                turns = [
                    Turn(role="user", content=f"вопрос {n}-{i}"),
                    Turn(role="assistant", content=f"ответ {n}-{i}\n\nИсточники: [1] НК РФ"),
                ]
                await history.append(USER, f"chat{n}", turns)
                i += 1

        await asyncio.gather(*(chat(n) for n in range(CHATS)))


if __name__ == "__main__":
    folder = Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(folder, int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None))
