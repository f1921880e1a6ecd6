"""LangSmith plumbing of the answer evaluation: the key check, examples built from items
(local) or read from a LangSmith dataset (upload), an offline client, a quiet ``aevaluate``."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sys
import uuid
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

from evals.answers.dataset import AnswerItem

LANGSMITH_KEY_VARS = ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")
_NAMESPACE = uuid.UUID("7d1c7a52-3f0e-4d55-9a8e-5f1f0e6a4b21")


def langsmith_key_set() -> bool:
    return any(os.environ.get(name, "").strip() for name in LANGSMITH_KEY_VARS)


def example_of(item: AnswerItem) -> Any:
    from langsmith import schemas

    return schemas.Example(
        id=uuid.uuid5(_NAMESPACE, f"{item.dataset}:{item.id}"),
        dataset_id=uuid.uuid5(_NAMESPACE, item.dataset),
        inputs={"question": item.question},
        outputs=item.reference(),
        metadata={"item_id": item.id, "topic": item.topic},
        created_at=dt.datetime.now(dt.UTC),
    )


def remote_examples(client: Any, dataset: str, items: Sequence[AnswerItem]) -> list[Any]:
    """The items as examples of the LangSmith dataset ``finagent-<dataset>`` (upload mode)."""
    name = f"finagent-{dataset}"
    if client.has_dataset(dataset_name=name):
        remote = client.read_dataset(dataset_name=name)
    else:
        remote = client.create_dataset(name, description=f"finagent answer evaluation: {dataset}")

    def existing() -> dict[str, Any]:
        return {
            str((e.metadata or {}).get("item_id")): e
            for e in client.list_examples(dataset_id=remote.id)
        }

    found = existing()
    missing = [i for i in items if i.id not in found]
    if missing:
        client.create_examples(
            dataset_id=remote.id,
            examples=[
                {
                    "inputs": {"question": i.question},
                    "outputs": i.reference(),
                    "metadata": {"item_id": i.id, "topic": i.topic},
                }
                for i in missing
            ],
        )
        found = existing()
    return [found[i.id] for i in items]


def offline_client() -> Any:
    """A LangSmith client that never sends anything (no key: results stay local)."""
    import langsmith

    return langsmith.Client(
        api_key="local-only", tracing_sampling_rate=0.0, auto_batch_tracing=False
    )


# the one beta warning ``aevaluate`` gives a local run: not uploading is a beta setting
# (langsmith 0.15 ``_arunner.aevaluate``); a UserWarning subclass from a private module
_NOT_UPLOADING = r"'upload_runs' parameter is in beta"


@contextlib.contextmanager
def quiet_langsmith() -> Iterator[None]:
    """aevaluate prints a start line on stdout and warns that not uploading (``upload_runs``
    False) is in beta: keep stdout for the report (``--json``) and drop that one warning,
    here where aevaluate is called; any other warning still shows."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(sys.stderr):
        warnings.filterwarnings("ignore", message=_NOT_UPLOADING, category=UserWarning)
        yield
