"""Sentence profiles of a user document made once at ingestion, read back by its answers.

An offline answer about a user's documents profiles every sentence of them (lemmas,
sums, dates, periods: :func:`finagent.answering.sentence_profile.profile`); in a fresh
process that was most of the answer's time. The ingestor now stores each document's
profiles beside its sentence vectors (one record per document and user, in the same
store), and the answer puts them in force with ``using_profiles``.

A stored profile must be exactly what the code would compute now, or the answer would
change. Each record carries the fingerprint of the profiling code: a digest of the source
of every finagent module :mod:`finagent.answering.sentence_profile` imports (read from the
source, so a changed rule or lexicon changes it), the versions of pymorphy3, its
dictionary and razdel, and :data:`PROFILES_VERSION` (the record's layout). A record with
another fingerprint is ignored; the answer that meets it (or no record: a data dir from
before) computes the document's profiles, as before, and stores them for the next one.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import sys
import uuid
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from finagent.answering.document_sentences import document_sentences
from finagent.answering.sentence_profile import SentenceProfile, computed_profile
from finagent.cards.sentence_vectors import MAX_SENTENCES
from finagent.storage.documents import DocumentStore
from finagent.storage.sentence_profiles import ProfileRecord

PROFILES_VERSION = 1  # bump when the record's layout changes
PROFILE_MODULE = "finagent.answering.sentence_profile"
# libraries whose output a profile is made of: lemmas (pymorphy3 and its dictionary),
# tokens and sentences (razdel)
PROFILE_LIBRARIES = ("pymorphy3", "pymorphy3_dicts_ru", "razdel")
# the row's layout: SentenceProfile's fields in order (a test keeps them in step)
ROW_FIELDS = (
    "lemmas",
    "sequence",
    "percents",
    "shares",
    "money",
    "dates",
    "periods",
    "days",
    "party",
    "digits",
    "measures",
)

_IMPORT = re.compile(
    r"^\s*(?:from\s+(finagent(?:\.\w+)*)\s+import\s+([\w ,()]+)|import\s+(finagent(?:\.\w+)+))",
    re.M,
)
_PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def _source(module: str, root: Path) -> Path | None:
    base = root / module.replace(".", "/")
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def profile_modules(start: str = PROFILE_MODULE, root: Path = _PACKAGE_ROOT) -> dict[str, Path]:
    """The finagent modules ``start`` imports, directly or not, with their source files
    (read from the source: imports inside functions count too)."""
    found: dict[str, Path] = {}
    todo = [start]
    while todo:
        module = todo.pop()
        path = None if module in found else _source(module, root)
        if path is None:
            continue
        found[module] = path
        for package, names, plain in _IMPORT.findall(path.read_text(encoding="utf-8")):
            if plain:
                todo.append(plain)
                continue
            todo.append(package)
            # «from finagent.language import lemmas»: a module imported by name
            todo += [f"{package}.{n}" for n in re.split(r"[\s,()]+", names) if n and n != "as"]
    return found


def _library_version(name: str) -> str:
    """A library's version: its ``__version__``, else its dist-info folder's name."""
    module = sys.modules.get(name) or __import__(name)
    version = getattr(module, "__version__", None)
    if version:
        return str(version)
    site = Path(module.__file__ or "").resolve().parents[1]
    infos = sorted(p.name for p in site.glob(f"{name}-*.dist-info"))
    return infos[0] if infos else "unknown"


@cache
def profiles_fingerprint(root: Path = _PACKAGE_ROOT) -> str:
    """The digest of the profiling code under ``root`` and of the libraries (see the
    module's docstring)."""
    modules = profile_modules(root=root)
    if PROFILE_MODULE not in modules:  # no source to read (byte code only): never reuse
        return f"unread-{uuid.uuid4().hex}"
    digest = hashlib.sha256(f"records {PROFILES_VERSION}".encode())
    for module, path in sorted(modules.items()):
        digest.update(module.encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    for library in PROFILE_LIBRARIES:
        digest.update(f"{library}={_library_version(library)}".encode())
    return digest.hexdigest()[:32]


def to_row(p: SentenceProfile) -> list[Any]:
    """A profile as JSON values (the lemmas as the sequence holds them)."""
    return [
        list(p.sequence),
        list(p.percents),
        list(p.shares),
        list(p.money),
        list(p.dates),
        list(p.periods),
        list(p.days),
        p.party,
        p.digits,
        [list(m) for m in p.measures],
    ]


def from_row(row: list[Any]) -> SentenceProfile:
    sequence, percents, shares, money, dates, periods, days, party, digits, measures = row
    return SentenceProfile(
        lemmas=frozenset(sequence),
        sequence=tuple(sequence),
        percents=tuple(percents),
        shares=tuple(shares),
        money=tuple(money),
        dates=tuple(dates),
        periods=tuple(periods),
        days=tuple(days),
        party=bool(party),
        digits=bool(digits),
        measures=tuple((unit, text) for unit, text in measures),
    )


def profiled_sentences(text: str) -> list[str]:
    """The sentences of a document whose profiles are stored: those its answers rank, in
    order, each once, as written. A near twin of
    :func:`finagent.cards.sentence_vectors.vectored_sentences` by design: a profile is
    looked up by the exact text ranked (:func:`~finagent.answering.sentence_profile.profile`),
    so its sentences keep their own whitespace, while a vector is looked up by
    :func:`~finagent.cards.sentence_vectors.sentence_key`, whitespace-normalised, since one
    sentence is read from a passage and from the whole text."""
    return list(dict.fromkeys(document_sentences(text)))[:MAX_SENTENCES]


class DocumentProfiler:
    """Makes a document's record at ingestion; tells a current record from a stale one."""

    def record(self, document_id: str, text: str) -> ProfileRecord:
        sentences = profiled_sentences(text)
        return ProfileRecord(
            document_id=document_id,
            fingerprint=profiles_fingerprint(),
            sentences=sentences,
            rows=[to_row(computed_profile(s)) for s in sentences],
        )

    def current(self, record: ProfileRecord) -> bool:
        return record.fingerprint == profiles_fingerprint() and len(record.rows) == len(
            record.sentences
        )


def stored_profiles(records: Iterable[ProfileRecord]) -> Mapping[str, SentenceProfile]:
    """Sentence text -> profile from the current records."""
    profiler = DocumentProfiler()
    out: dict[str, SentenceProfile] = {}
    for record in records:
        if profiler.current(record):
            out.update(zip(record.sentences, map(from_row, record.rows), strict=True))
    return out


async def document_profiles(
    documents: DocumentStore, user_id: str, document_ids: Sequence[str]
) -> Mapping[str, SentenceProfile]:
    """The stored profiles of these documents of the user's. A document without a current
    record (a data dir from before, or made by other code) gets one now, computed as the
    answer would compute them, and stored for the next answer."""
    wanted = list(dict.fromkeys(document_ids))
    if not wanted:
        return {}
    profiler = DocumentProfiler()
    # the first call reads the profiling code's sources: off the event loop
    await asyncio.to_thread(profiles_fingerprint)
    kept = await documents.sentence_profiles.get_many(user_id, wanted)
    records = [r for r in kept if profiler.current(r)]
    held = {r.document_id for r in records}
    found, _missing = await documents.get_many(user_id, [d for d in wanted if d not in held])
    for doc in found:
        record = await asyncio.to_thread(profiler.record, doc.id, doc.text)
        await documents.sentence_profiles.put(user_id, record)
        records.append(record)
    return stored_profiles(records)
