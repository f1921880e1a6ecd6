"""A live source that is not configured: the knowledge base answers instead, and the
Краткий вывод says that the live data is unavailable — first when today's or a future
value is asked, right after the lead when the question is about the past."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from finagent.answering import messages
from finagent.graph.agent import Agent

KEY_RATE_KB = """id,annotation,tags,text
1,История ключевой ставки Банка России,"ключевая ставка,цб,история","## Решения совета директоров

С 28 октября 2024 года Банк России повысил ключевую ставку до 21 % годовых.
Совет директоров рассматривает ключевую ставку восемь раз в год."
2,Социальный вычет на лечение,"ндфл,вычеты","## Лимит

Социальный вычет на лечение предоставляется в размере расходов, но не более 150 000 рублей в год."
"""


@pytest.fixture
def kb_csv(tmp_path: Path) -> Path:
    path = tmp_path / "kb.csv"
    path.write_text(KEY_RATE_KB, encoding="utf-8")
    return path


def summary_of(answer: str) -> str:
    return answer.split("## Краткий вывод", 1)[1].split("## Подробный анализ", 1)[0].strip()


@pytest.mark.parametrize("composer", ["direct", "extractive"])
async def test_past_key_rate_answered_from_kb_when_cbr_is_not_configured(
    make_loaded: Any, composer: str
) -> None:
    data = await make_loaded(answer_composer=composer)
    result = await Agent(data["services"]).run(
        user_id="alice", query="До какого уровня ЦБ поднял ключевую ставку в октябре 2024 года?"
    )
    assert "kb" not in result.debug["decision"]["intents"]
    summary = summary_of(result.answer)
    unavailable = messages.SOURCE_NOT_CONFIGURED.format(name="Банк России")
    # a past rate: the knowledge base's answer leads, the notice follows it
    lead, rest = summary.split("\n", 1)
    assert "21 %" in lead and unavailable not in lead
    assert f"{unavailable} {messages.FROM_KNOWLEDGE_BASE_ABOVE}" in rest
    assert summary.count(unavailable) == 1 and result.answer.count(unavailable) == 1
    assert any(c.source == "kb" for c in result.used_chunks)


@pytest.mark.parametrize("composer", ["direct", "extractive"])
async def test_current_key_rate_leads_with_the_notice(make_loaded: Any, composer: str) -> None:
    data = await make_loaded(answer_composer=composer)
    result = await Agent(data["services"]).run(
        user_id="alice", query="Какая сейчас ключевая ставка ЦБ?"
    )
    summary = summary_of(result.answer)
    unavailable = messages.SOURCE_NOT_CONFIGURED.format(name="Банк России")
    assert summary.startswith(unavailable)
    assert result.answer.count(unavailable) == 1


async def test_live_question_the_kb_cannot_answer_stays_a_notice(make_loaded: Any) -> None:
    data = await make_loaded(answer_composer="direct")
    result = await Agent(data["services"]).run(user_id="alice", query="какой курс евро сегодня?")
    assert messages.SOURCE_NOT_CONFIGURED.format(name="Банк России") in result.answer
    assert "150 000" not in result.answer
