"""The OpenAI-compatible embeddings option, against a loopback fake (the real openai SDK runs)."""

from __future__ import annotations

import numpy as np

from finagent.config import Settings
from finagent.retrieval.embeddings import OpenAICompatibleEmbedder, build_embedder
from tests.fakes.openai_api import DIM, run_fake_embeddings


async def test_e5_prefixes_batching_order_and_normalisation() -> None:
    with run_fake_embeddings() as fake:
        settings = Settings(
            embeddings_base_url=fake.url,
            embeddings_api_key="emb-key-123",
            embeddings_model="intfloat/multilingual-e5-small",
            embeddings_dim=DIM,
            embeddings_batch_size=2,
            _env_file=None,
        )  # type: ignore[call-arg]
        embedder = build_embedder(settings)
        assert isinstance(embedder, OpenAICompatibleEmbedder)
        passages = await embedder.embed_passages(["ставка НДС", "вычет", "пени"])
        query = await embedder.embed_queries(["ставка НДС"])
    assert fake.inputs == [
        ["passage: ставка НДС", "passage: вычет"],
        ["passage: пени"],
        ["query: ставка НДС"],
    ]
    assert fake.auth[0] == "Bearer emb-key-123"
    assert passages.shape == (3, DIM)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0)
    # the server answered in reverse order: rows must still follow the input order
    assert float(passages[0] @ query[0]) > float(passages[1] @ query[0])
