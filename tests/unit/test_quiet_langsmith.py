"""A local eval run drops LangSmith's one beta warning about not uploading, where
``aevaluate`` is called, and no other warning."""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
import warnings
from typing import Any

from evals.answers.langsmith_io import offline_client, quiet_langsmith


async def _echo(inputs: dict[str, Any]) -> dict[str, Any]:
    return {"answer": inputs["question"]}


async def _evaluate_locally() -> int:
    from langsmith import aevaluate, schemas

    example = schemas.Example(
        id=uuid.uuid4(),
        dataset_id=uuid.uuid4(),
        inputs={"question": "Какой срок уплаты земельного налога?"},
        outputs={"answer": "1 декабря"},
        created_at=dt.datetime.now(dt.UTC),
    )
    with quiet_langsmith():
        results = await aevaluate(_echo, data=[example], client=offline_client(), upload_runs=False)
        return len([row async for row in results])


def test_a_local_evaluation_warns_nothing() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert asyncio.run(_evaluate_locally()) == 1
    assert [str(w.message) for w in seen] == []


def test_only_the_not_uploading_warning_is_dropped() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with quiet_langsmith():
            warnings.warn("'upload_runs' parameter is in beta.", UserWarning, stacklevel=1)
            warnings.warn("'evaluate_comparative' is in beta.", UserWarning, stacklevel=1)
    assert [str(w.message) for w in seen] == ["'evaluate_comparative' is in beta."]
