"""The chat models: any OpenAI-compatible endpoint, OpenRouter by default; None offline.

Each LLM call of finagent has a role with its own limits (``FINAGENT_LLM_<ROLE>_TIMEOUT_S``
and ``_MAX_TOKENS``): the orchestrator's routing decision, the answer, the research step,
the reading of a calc question. The models of the roles are built here and nowhere else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal
from urllib.parse import urlparse

from finagent.config import OPENROUTER_BASE_URL, Settings

if TYPE_CHECKING:  # slow to import; annotations only
    from langchain_core.language_models import BaseChatModel

LLMRole = Literal["orchestrator", "answer", "research", "calc"]
ROLES: tuple[LLMRole, ...] = ("orchestrator", "answer", "research", "calc")


def role_limits(settings: Settings, role: LLMRole | None) -> tuple[float, int | None]:
    """(timeout in seconds, max tokens) of ``role``; the shared timeout when none is set."""
    if role is None:
        return settings.llm_timeout_s, None
    timeout: float | None = getattr(settings, f"llm_{role}_timeout_s")
    max_tokens: int = getattr(settings, f"llm_{role}_max_tokens")
    return (timeout if timeout is not None else settings.llm_timeout_s), max_tokens


#: Hosts whose strict structured output rejects length limits (maxItems, maxLength, ...).
STRICT_LIMIT_HOSTS = frozenset({"api.openai.com", "openrouter.ai"})


def keeps_schema_limits(settings: Settings) -> bool:
    """Whether structured output sends the schema's length limits to this provider."""
    if settings.llm_schema_limits != "auto":
        return settings.llm_schema_limits == "keep"
    return urlparse(settings.llm_base_url).hostname not in STRICT_LIMIT_HOSTS


def build_chat_model(settings: Settings, role: LLMRole | None = None) -> BaseChatModel | None:
    """A ChatOpenAI client when an LLM is configured, else None (rules + extractive answers).

    With ``role`` the client carries that role's timeout and ``max_tokens``. The limit is
    sent as ``max_completion_tokens`` (OpenAI's name) and, for other servers, also as the
    older ``max_tokens`` that llama.cpp, vLLM and most compatible servers read.
    """
    if not settings.llm_enabled:
        return None
    from langchain_openai import ChatOpenAI
    from openai import DefaultAsyncHttpxClient

    from finagent.clients.deadline_transport import with_deadline

    headers = {}
    if settings.llm_base_url.rstrip("/") == OPENROUTER_BASE_URL:
        headers = {"HTTP-Referer": "https://github.com/finagent/finagent", "X-Title": "finagent"}
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-needed"
    timeout, max_tokens = role_limits(settings, role)
    extra_body = None
    if max_tokens is not None and urlparse(settings.llm_base_url).hostname != "api.openai.com":
        extra_body = {"max_tokens": max_tokens}
    # langchain-openai also stops a stream silent for 120 s (its own setting): a local
    # model reading a long prompt sends its first chunk later, so the role's timeout is
    # the bound between chunks too
    silence: dict[str, float] = {}
    if "stream_chunk_timeout" in ChatOpenAI.model_fields:
        silence["stream_chunk_timeout"] = timeout
    return ChatOpenAI(
        **silence,  # type: ignore[arg-type]
        model=settings.llm_model_name,
        base_url=settings.llm_base_url,
        api_key=key,  # type: ignore[arg-type]
        temperature=settings.llm_temperature,
        timeout=timeout,
        max_retries=settings.llm_max_retries,
        default_headers=headers,
        max_completion_tokens=max_tokens,
        extra_body=extra_body,
        stream_usage=True,  # token counts of streamed answers (stream_options.include_usage)
        # each request, a streamed body included, ends within llm_deadline_s
        http_async_client=with_deadline(DefaultAsyncHttpxClient(), settings.llm_deadline_s, "llm"),
    )
