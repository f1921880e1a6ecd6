"""Embeddings shipped with the package for the bundled data (knowledge base, sample
documents, the demo's questions and the Tax Code chunks; in a second file, the candidate
sentences of every Tax Code and knowledge-base passage).

Each file (``finagent/data/embeddings.npz``, ``sentence_embeddings.npz``) holds, for one
model, the sha256 keys of the embedded texts (the same keys as the embedding cache: kind
prefix included) and their vectors as int8 with one float32 scale per vector (a quarter
of float32; the recall check is in docs/first-run.md). It holds no text. On first use
the vectors are copied into the data dir's embedding cache, so unchanged bundled text
costs no model time; text that changed has another key and is embedded afresh.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from finagent.observability import get_logger

log = get_logger("finagent.shipped_embeddings")

SHIPPED_PATH = Path(__file__).resolve().parents[1] / "data" / "embeddings.npz"
MARKER = "shipped_embeddings"
SENTENCES_PATH = SHIPPED_PATH.with_name("sentence_embeddings.npz")
"""The candidate sentences of every Tax Code and knowledge-base passage (what the answer
step ranks), so a new question about them embeds only itself."""
SENTENCES_MARKER = "shipped_sentence_embeddings"
SHIPPED_FILES = ((SHIPPED_PATH, MARKER), (SENTENCES_PATH, SENTENCES_MARKER))
"""Every shipped file and the cache's ``meta`` key holding the digest seeded from it."""


@dataclass
class ShippedVectors:
    model: str
    keys: list[str]
    vectors: np.ndarray  # float32, L2-normalised
    digest: str


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes and one scale per row (symmetric, max-abs)."""
    matrix = np.asarray(vectors, dtype=np.float32)
    scales = np.maximum(np.abs(matrix).max(axis=1), 1e-12) / 127.0
    codes = np.clip(np.rint(matrix / scales[:, None]), -127, 127).astype(np.int8)
    return codes, scales.astype(np.float32)


def dequantize(codes: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """float32 rows, re-normalised to unit length."""
    matrix = codes.astype(np.float32) * scales[:, None]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.maximum(norms, 1e-12)).astype(np.float32)


def save(path: Path, model: str, items: dict[str, np.ndarray]) -> ShippedVectors:
    """Write ``items`` (key -> float32 vector) sorted by key; returns what a load reads."""
    keys = sorted(items)
    matrix = np.stack([items[k] for k in keys]).astype(np.float32)
    codes, scales = quantize(matrix)
    raw_keys = np.frombuffer(b"".join(bytes.fromhex(k) for k in keys), dtype=np.uint8)
    digest = hashlib.sha256(
        model.encode() + raw_keys.tobytes() + codes.tobytes() + scales.tobytes()
    ).hexdigest()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        np.savez_compressed(
            fh,
            model=np.array(model),
            digest=np.array(digest),
            keys=raw_keys.reshape(len(keys), 32),
            codes=codes,
            scales=scales,
        )
    return ShippedVectors(model, keys, dequantize(codes, scales), digest)


def read_digest(path: Path = SHIPPED_PATH) -> tuple[str, str] | None:
    """``(model, digest)`` of the shipped file without reading the vectors."""
    if not path.is_file():
        return None
    with np.load(path) as data:
        return str(data["model"]), str(data["digest"])


def load(path: Path = SHIPPED_PATH) -> ShippedVectors | None:
    if not path.is_file():
        return None
    with np.load(path) as data:
        keys = [row.tobytes().hex() for row in data["keys"]]
        vectors = dequantize(data["codes"], data["scales"])
        return ShippedVectors(str(data["model"]), keys, vectors, str(data["digest"]))
