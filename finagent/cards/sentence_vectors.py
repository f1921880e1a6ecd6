"""The e5 vectors of a document's sentences, made once at ingestion beside its card.

Whole-document answers rank every sentence of the named document; a question rarely uses
the clause's own words («завершить работы» for «Окончание работ — …»), so the sentences'
``passage:`` vectors are kept and compared with the question's ``query:`` vector at
answer time (only the question is embedded then). The sentences are those the answer
reads (the ingestor is given ``finagent.answering.document_sentences.document_sentences``
as its splitter); vectors are float16, base64 in the store's JSON.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable, Sequence
from functools import lru_cache

import numpy as np
from pydantic import BaseModel

from finagent.cards.build import MAX_CARD_CHARS

# bump when the vectors change: older records are ignored until re-ingested (a record over
# sentences today's splitter no longer reads is made again at re-ingestion too)
SENTENCE_VECTORS_VERSION = 2  # 2: a wrapped line opening with a date or sum is joined
MAX_SENTENCES = 2_000  # a card reads MAX_CARD_CHARS; its sentences rarely exceed this


class SentenceVectors(BaseModel):
    """The sentences of one document and their L2-normalised vectors (one row each)."""

    document_id: str
    version: int = SENTENCE_VECTORS_VERSION
    model_id: str
    dim: int
    sentences: list[str]
    vectors: str  # base64 of float16, shape (len(sentences), dim)

    def matrix(self) -> np.ndarray:
        raw = np.frombuffer(base64.b64decode(self.vectors), dtype=np.float16)
        return raw.reshape(len(self.sentences), self.dim).astype(np.float32)

    def usable(self, model_id: str) -> bool:
        """Made by this model and this version of the sentence splitter."""
        return self.version == SENTENCE_VECTORS_VERSION and self.model_id == model_id


def sentence_key(sentence: str) -> str:
    """Whitespace-normalised: the same sentence read from a passage or the whole text."""
    return " ".join(sentence.split())


def pack(
    document_id: str, model_id: str, sentences: Sequence[str], vectors: np.ndarray
) -> SentenceVectors:
    flat = np.asarray(vectors, dtype=np.float32)
    # a document with no sentence (a scan, an empty table) has no vectors and no width
    matrix = flat.reshape(len(sentences), -1) if sentences else flat.reshape(0, 0)
    encoded = base64.b64encode(matrix.astype(np.float16).tobytes()).decode("ascii")
    return SentenceVectors(
        document_id=document_id,
        model_id=model_id,
        dim=int(matrix.shape[1]),
        sentences=list(sentences),
        vectors=encoded,
    )


def vectored_sentences(text: str, split: Callable[[str], list[str]]) -> list[str]:
    """The sentences of ``text`` that get a vector: as much as a card reads, each once, by
    :func:`sentence_key` (the stored profiles' sentences keep their exact text instead:
    :func:`finagent.answering.stored_profiles.profiled_sentences`)."""
    sentences = list(dict.fromkeys(map(sentence_key, split(text[:MAX_CARD_CHARS]))))
    return sentences[:MAX_SENTENCES]


async def embed_sentences(
    document_id: str,
    text: str,
    model_id: str,
    embed: Callable[[list[str]], Awaitable[np.ndarray]],
    split: Callable[[str], list[str]],
    batch: int = 32,
) -> SentenceVectors:
    """Every sentence ``split`` reads in ``text`` (as much as a card reads) embedded as a
    passage, in batches of ``batch``."""
    sentences = vectored_sentences(text, split)
    rows: list[np.ndarray] = []
    for start in range(0, len(sentences), max(1, batch)):
        part = sentences[start : start + max(1, batch)]
        rows.append(np.asarray(await embed(part), dtype=np.float32))
    matrix = np.concatenate(rows) if rows else np.zeros((0, 1), dtype=np.float32)
    return pack(document_id, model_id, sentences, matrix)


def similarities(
    records: Sequence[SentenceVectors], query: np.ndarray, model_id: str
) -> dict[tuple[str, str], float]:
    """(document id, sentence key) -> cosine with the question's vector."""
    q = np.asarray(query, dtype=np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    out: dict[tuple[str, str], float] = {}
    for record in records:
        if not record.usable(model_id) or not record.sentences or record.dim != q.shape[0]:
            continue
        sims = _normalised(record.vectors, len(record.sentences), record.dim) @ q
        out.update(
            ((record.document_id, s), float(v)) for s, v in zip(record.sentences, sims, strict=True)
        )
    return out


@lru_cache(maxsize=16)  # the documents of the last questions (a few MB at most each): bounded
def _normalised(vectors: str, rows: int, dim: int) -> np.ndarray:
    """The rows of a record's matrix (:meth:`SentenceVectors.matrix`) L2-normalised; read
    only, shared by the questions on its document."""
    m = np.frombuffer(base64.b64decode(vectors), dtype=np.float16).reshape(rows, dim)
    m = m.astype(np.float32)
    out = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)
    out.setflags(write=False)
    return out
