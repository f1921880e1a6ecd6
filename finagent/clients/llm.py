"""The chat model: any OpenAI-compatible endpoint, OpenRouter by default; None offline."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from finagent.config import OPENROUTER_BASE_URL, Settings


def build_chat_model(settings: Settings) -> BaseChatModel | None:
    """A ChatOpenAI client when an LLM is configured, else None (rules + extractive answers)."""
    if not settings.llm_enabled:
        return None
    from langchain_openai import ChatOpenAI

    headers = {}
    if settings.llm_base_url.rstrip("/") == OPENROUTER_BASE_URL:
        headers = {"HTTP-Referer": "https://github.com/finagent/finagent", "X-Title": "finagent"}
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-needed"
    return ChatOpenAI(
        model=settings.llm_model_name,
        base_url=settings.llm_base_url,
        api_key=key,  # type: ignore[arg-type]
        temperature=settings.llm_temperature,
        timeout=settings.llm_timeout_s,
        max_retries=settings.llm_max_retries,
        default_headers=headers,
    )
