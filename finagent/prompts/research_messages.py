"""User-facing texts of a failed research run (Russian). The cause goes to the log only."""

from __future__ import annotations

EMPTY_QUERY = "Вопрос пуст: напишите, что нужно исследовать."
NEEDS_LLM = "Исследование недоступно: не настроена языковая модель (задайте FINAGENT_LLM_API_KEY)."
STEP_LIMIT = (
    "Исследование остановлено: исчерпан лимит шагов, а итогового ответа нет. "
    "Сузьте или уточните вопрос."
)
LLM_UNAVAILABLE = (
    "Языковая модель сейчас недоступна, исследование прервано. Повторите запрос позже."
)
