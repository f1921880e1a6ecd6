"""The built wheel carries the ``evals`` package and its datasets: ``finagent eval routing``
runs from an unpacked wheel, outside the repository, with no editable install in play."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pip wheel`` of a clean copy of the sources (offline: no build isolation; a copy, so
    no stale ``build/`` of the working tree leaks into the wheel), unpacked."""
    source = tmp_path_factory.mktemp("source")
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("finagent", "evals"):
        shutil.copytree(REPO_ROOT / name, source / name, ignore=skip)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO_ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    build = subprocess.run(
        [*pip, "--no-index", "-w", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = out.glob("finagent-*.whl")
    site = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def _run(site: Path, cwd: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        **{k: v for k, v in os.environ.items() if k != "FINAGENT_EVAL_DATASETS_DIR"},
        "PYTHONPATH": str(site),  # ahead of the venv's editable install
        "FINAGENT_DATA_DIR": str(cwd / "data"),
        "FINAGENT_CBR_ENABLED": "false",
        "FINAGENT_LLM_API_KEY": "",
        "OPENROUTER_API_KEY": "",
        "FINAGENT_LLM_MODEL": "",
        **extra,
    }
    return subprocess.run(
        [sys.executable, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=600
    )


def test_wheel_ships_evals_and_finds_the_datasets(unpacked_wheel: Path, tmp_path: Path) -> None:
    where = _run(
        unpacked_wheel,
        tmp_path,
        "-c",
        "import evals, evals.routing.runner as r, finagent; "
        "print(finagent.__file__); print(r.__file__); print(evals.DATASETS_DIR)",
    )
    assert where.returncode == 0, where.stderr
    package, runner, datasets = where.stdout.split()
    assert package.startswith(str(unpacked_wheel)) and runner.startswith(str(unpacked_wheel))
    assert Path(datasets) == unpacked_wheel / "evals" / "datasets"

    out = _run(unpacked_wheel, tmp_path, "-m", "finagent.cli", "eval", "routing", "--json")
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    names = [d["name"] for d in result["datasets"]]
    assert names == ["routing.jsonl", "routing_holdout.jsonl", "routing_holdout_v2.jsonl"]
    assert all(d["size"] >= 150 for d in result["datasets"])
    # routing_once_in_training.json (package data too) marks hold-out rows to report apart
    assert "without_once_in_training" in result["datasets"][1]


def test_eval_datasets_dir_setting_replaces_the_packaged_sets(
    unpacked_wheel: Path, tmp_path: Path
) -> None:
    mine = tmp_path / "sets"
    mine.mkdir()
    row = {"id": "m1", "query": "новости о ключевой ставке", "scenario": 2, "intents": ["news"]}
    (mine / "routing.jsonl").write_text(json.dumps(row, ensure_ascii=False), "utf-8")
    out = _run(
        unpacked_wheel,
        tmp_path,
        "-m",
        "finagent.cli",
        "eval",
        "routing",
        "--json",
        FINAGENT_EVAL_DATASETS_DIR=str(mine),
    )
    assert out.returncode == 0, out.stderr[-3000:]
    (only,) = json.loads(out.stdout)["datasets"]
    assert only["name"] == "routing.jsonl" and only["size"] == 1 and only["accuracy"] == 1.0


def test_wheel_ships_the_key_rate_history(unpacked_wheel: Path, tmp_path: Path) -> None:
    out = _run(
        unpacked_wheel,
        tmp_path,
        "-c",
        "import finagent.legal.key_rate_data as k; h = k.shipped_key_rates(); "
        "print(k.__file__); print(h.as_of, len(h.steps))",
    )
    assert out.returncode == 0, out.stderr
    where, as_of, steps = out.stdout.split()
    assert where.startswith(str(unpacked_wheel)) and int(steps) > 0
    assert (unpacked_wheel / "finagent" / "legal" / "data" / "key_rate_history.toml").exists()
    assert as_of >= "2025-10-27"
