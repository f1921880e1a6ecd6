"""A zoo of broken and mislabelled files through ``POST /v1/documents`` and ``finagent ingest
docs``: the content picks the parser, and every refusal is Russian only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from finagent.bootstrap import Deps
from tests.conftest import run_finagent
from tests.e2e.conftest import cli_env
from tests.file_zoo import latin_words, mislabelled_good, refused_zoo
from tests.integration.test_server_uploads import ALICE, TOKENS, serving


def assert_outcomes(results: list[dict[str, Any]]) -> None:
    """Each refused file has its Russian-only reason; each mislabelled one was ingested."""
    refused, good = refused_zoo(), mislabelled_good()
    by_name = {Path(r.get("file") or r["path"]).name: r for r in results}
    assert set(by_name) == set(refused) | set(good)
    for name, (_, fragment) in refused.items():
        result = by_name[name]
        assert result["status"] == "error", name
        error = result["error"]
        assert error.startswith(f"{name}: ") and fragment in error, error
        assert latin_words(error, name) == [], error
    for name in good:
        assert by_name[name]["status"] == "ingested", by_name[name]


async def assert_texts_stored(services: Deps) -> None:
    documents = {d.filename: d for d in await services.documents.list("alice")}
    for name, (_, phrase) in mislabelled_good().items():
        stored = await services.documents.get("alice", documents[name].id)
        assert stored is not None and phrase in stored.text, name


async def test_the_zoo_through_the_upload_route(make_services):  # type: ignore[no-untyped-def]
    services: Deps = await make_services(api_tokens=TOKENS, max_upload_files=30)
    zoo = {**refused_zoo(), **mislabelled_good()}
    files = [("files", (name, data, "application/octet-stream")) for name, (data, _) in zoo.items()]
    async with serving(services) as http:
        response = await http.post("/v1/documents", files=files, headers=ALICE)
    assert response.status_code == 200
    assert_outcomes(response.json()["results"])
    await assert_texts_stored(services)


def test_the_zoo_through_the_command(tmp_path: Path):
    folder = tmp_path / "zoo"
    folder.mkdir()
    for name, (data, _) in {**refused_zoo(), **mislabelled_good()}.items():
        (folder / name).write_bytes(data)
    paths = sorted(str(p) for p in folder.iterdir())
    env = cli_env(tmp_path / "data")
    done = run_finagent(env, "ingest", "docs", "--user", "alice", "--json", *paths)
    assert done.returncode == 0, done.stderr
    assert_outcomes(json.loads(done.stdout)["results"])
