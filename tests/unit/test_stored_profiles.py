"""Sentence profiles stored at ingestion: exactly what the code computes now, read back
only while the profiling code is the same (its source and libraries' fingerprint)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

from finagent.answering.sentence_profile import (
    SentenceProfile,
    computed_profile,
    profile,
    using_profiles,
)
from finagent.answering.stored_profiles import (
    PROFILE_MODULE,
    ROW_FIELDS,
    DocumentProfiler,
    from_row,
    profile_modules,
    profiled_sentences,
    profiles_fingerprint,
    stored_profiles,
    to_row,
)

REPO = Path(__file__).resolve().parents[2]
SAMPLE_DOCS = sorted((REPO / "sample_docs").iterdir())


def test_the_row_layout_follows_the_profile_fields() -> None:
    assert ROW_FIELDS == tuple(f.name for f in fields(SentenceProfile))


def test_every_sample_document_sentence_round_trips_through_json() -> None:
    count = 0
    for path in SAMPLE_DOCS:
        for sentence in profiled_sentences(path.read_text(encoding="utf-8")):
            p = computed_profile(sentence)
            assert from_row(json.loads(json.dumps(to_row(p)))) == p
            count += 1
    assert count > 100


def test_a_record_holds_each_sentence_the_answer_reads_once() -> None:
    text = (REPO / "sample_docs" / "dogovor_postavki.md").read_text(encoding="utf-8")
    record = DocumentProfiler().record("d1", text)
    assert record.sentences == list(dict.fromkeys(record.sentences))
    assert set(record.sentences) == set(profiled_sentences(text))
    held = stored_profiles([record])
    assert all(held[s] == computed_profile(s) for s in record.sentences)


def test_stored_profiles_are_used_only_within_the_block_and_only_when_current() -> None:
    text = "Пени составляют 0,1 % за каждый день просрочки."
    marked = SentenceProfile(frozenset({"x"}), ("x",), (), (), (), (), (), (), False, False)
    with using_profiles({text: marked}):
        assert profile(text) is marked
        assert profile("Другое предложение.") == computed_profile("Другое предложение.")
    assert profile(text) == computed_profile(text)
    record = DocumentProfiler().record("d1", text)
    stale = record.model_copy(update={"fingerprint": "older code"})
    assert stored_profiles([stale]) == {}
    assert not DocumentProfiler().current(stale) and DocumentProfiler().current(record)


def test_the_fingerprint_covers_every_module_the_profile_imports() -> None:
    """What importing the profile module loads of finagent (in a fresh interpreter) is
    in the fingerprint (packages' ``__init__`` aside)."""
    code = (
        f"import sys, {PROFILE_MODULE}; "
        "print('\\n'.join(m for m in sys.modules if m.startswith('finagent.')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout.split()
    modules = profile_modules()
    packages = {m for m in loaded if (REPO / m.replace(".", "/") / "__init__.py").is_file()}
    assert set(loaded) - packages <= set(modules)


def test_a_changed_rule_changes_the_fingerprint(tmp_path: Path) -> None:
    for path in profile_modules().values():
        copy = tmp_path / path.relative_to(REPO)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
    assert profiles_fingerprint(tmp_path) == profiles_fingerprint()
    lemmas = tmp_path / "finagent" / "language" / "lemmas.py"
    lemmas.write_text(lemmas.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    profiles_fingerprint.cache_clear()
    assert profiles_fingerprint(tmp_path) != profiles_fingerprint()


def test_without_the_source_no_record_is_ever_current(tmp_path: Path) -> None:
    assert profiles_fingerprint(tmp_path) != profiles_fingerprint(tmp_path / "other")
    assert profiles_fingerprint(tmp_path).startswith("unread-")
