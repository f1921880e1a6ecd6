"""A process that writes chat turns in a loop on a SQLite data dir, to be killed with SIGKILL.

Run as ``python -m tests.integration.turn_writer DATA_DIR READY_AFTER``: several chats
write exchanges concurrently into ``DATA_DIR/store.sqlite`` (the file finagent uses).
Once the store has committed READY_AFTER puts, the process prints ``ready`` on stdout and
keeps writing until it is killed. The signal comes from inside the store, right after a
commit, so with turns written one put each the kill lands between a question and its
answer.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterable
from pathlib import Path

from langgraph.store.base import Op, PutOp, Result
from langgraph.store.sqlite.aio import AsyncSqliteStore

from finagent.state import Turn
from finagent.storage.history import ChatHistory

CHATS = 4
USER = "alice"


class SignallingStore(AsyncSqliteStore):
    """The real SQLite store; prints ``ready`` once ``ready_after`` puts are committed."""

    ready_after = 0
    committed = 0

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        results = await super().abatch(ops)
        before = self.committed
        self.committed += sum(isinstance(op, PutOp) for op in ops)
        if before < self.ready_after <= self.committed:
            print("ready", flush=True)
        return results


async def main(data_dir: Path, ready_after: int) -> None:
    async with SignallingStore.from_conn_string(str(data_dir / "store.sqlite")) as store:
        assert isinstance(store, SignallingStore)
        store.ready_after = ready_after
        await store.setup()
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
    asyncio.run(main(folder, int(sys.argv[2])))
