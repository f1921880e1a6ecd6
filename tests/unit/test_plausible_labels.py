"""Labels of the classifier a question's own words rule out (invented questions)."""

from __future__ import annotations

from finagent.routing.classifier import Prediction
from finagent.routing.plausible import plausible, ruled_out


def _prediction(**scores: float) -> Prediction:
    label = max(scores, key=lambda k: scores[k])
    return Prediction(label=label, probability=scores[label], scores=scores)


def test_a_value_question_is_no_small_talk() -> None:
    assert "smalltalk" in ruled_out("Сколько у нас складов в аренде?", "amount")
    # asked of the assistant itself it may be
    assert "smalltalk" not in ruled_out("сколько тебе лет?", "amount")
    assert "smalltalk" not in ruled_out("привет, как дела?", "unknown")


def test_rates_need_a_word_of_a_rate_or_currency() -> None:
    assert "rates" in ruled_out("Предельная база по взносам на 2027 год?", "limit")
    assert "rates" not in ruled_out("какая была ключевая в мае?", "rate")
    assert "rates" not in ruled_out("сколько стоит юань?", "amount")


def test_a_ruled_out_label_gives_its_share_to_the_others() -> None:
    found = plausible(
        _prediction(kb=0.44, rates=0.32, S1=0.24), "Какой лимит вычета на 2027 год?", "limit"
    )
    assert found.label == "kb"
    assert abs(found.probability - 0.44 / 0.68) < 1e-6
    assert found.scores["rates"] == 0.0 and abs(sum(found.scores.values()) - 1.0) < 1e-6
