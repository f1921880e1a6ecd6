"""The acts a question names by its verbs: «когда застройщик обязан передать помещение» —
«передать», not the verbs that ask a value («сколько стоит», «сколько платим»)."""

from __future__ import annotations

from functools import cache
from importlib import resources

from finagent.language.lemmas import part_of_speech
from finagent.language.text import analyse
from finagent.question.conditions import condition_spans
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

# the parts of speech of a verb's forms: «вернёт», «страховать», «оценили», «подписан»; not a
# full participle, often a party's name («поверенному», «управляющий»)
_VERB_FORMS = frozenset({"VERB", "INFN", "PRTS", "GRND"})


@cache
def _value_verbs() -> frozenset[str]:
    text = resources.files("finagent.answering").joinpath("data/value_verbs.yaml")
    return frozenset(str(w) for row in load_yaml(text.read_text("utf-8")) for w in row)


def asked_acts(question: Question) -> set[str]:
    """The lemmas of the question's verbs (finite, infinitive, short participle) that name an
    act, not a value (``data/value_verbs.yaml``: «стоит», «положена», «платим»), nor the
    case a condition names («…, если выиграем торги»)."""
    conditions = condition_spans(question.text)
    return {
        token.lemma
        for sentence in analyse(question.text).sentences
        for token in sentence.tokens
        if part_of_speech(token.text) in _VERB_FORMS
        and token.lemma not in _value_verbs()
        and not any(start <= token.start < end for start, end in conditions)
    }
