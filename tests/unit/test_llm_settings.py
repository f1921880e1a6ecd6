"""LLM configuration: OpenRouter by default, any OpenAI-compatible endpoint, none offline."""

from __future__ import annotations

import pytest
from langchain_openai import ChatOpenAI

from finagent.clients.llm import build_chat_model
from finagent.config import OPENROUTER_BASE_URL, Settings


def test_no_key_no_model_means_offline() -> None:
    assert build_chat_model(Settings(_env_file=None)) is None  # type: ignore[call-arg]


def test_openrouter_key_alias_and_attribution_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-test-1")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    model = build_chat_model(settings)
    assert isinstance(model, ChatOpenAI)
    assert model.openai_api_base == OPENROUTER_BASE_URL
    assert model.model_name == "openai/gpt-4o-mini"
    assert model.default_headers and model.default_headers["X-Title"] == "finagent"
    assert "sk-or-test-1" in settings.secret_values()
    assert "sk-or-test-1" not in repr(settings)


def test_custom_endpoint_and_structured_method(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FINAGENT_LLM_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("FINAGENT_LLM_MODEL", "qwen2.5")
    monkeypatch.setenv("FINAGENT_LLM_STRUCTURED_METHOD", "function_calling")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    model = build_chat_model(settings)
    assert isinstance(model, ChatOpenAI) and model.model_name == "qwen2.5"
    assert not model.default_headers or "X-Title" not in model.default_headers
    assert settings.llm_structured_method == "function_calling"


def test_bad_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="chunk_overlap"):
        Settings(chunk_size=300, chunk_overlap=400, _env_file=None)  # type: ignore[call-arg]


def test_empty_environment_values_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FINAGENT_LLM_API_KEY", "")
    monkeypatch.setenv("OPENROUTER_API_KEY", "")
    monkeypatch.setenv("FINAGENT_LLM_MODEL", "")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert not settings.llm_enabled and build_chat_model(settings) is None


def test_api_tokens_are_parsed_and_registered_as_secrets() -> None:
    settings = Settings(api_tokens="tok-alice-1:alice, tok-bob-22:bob", _env_file=None)  # type: ignore[call-arg]
    assert settings.token_users() == {"tok-alice-1": "alice", "tok-bob-22": "bob"}
    assert {"tok-alice-1", "tok-bob-22"} <= set(settings.secret_values())
    with pytest.raises(ValueError, match="token:user"):
        Settings(api_tokens="short:alice", _env_file=None).token_users()  # type: ignore[call-arg]
