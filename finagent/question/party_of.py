"""Whether a role word of a question qualifies another noun rather than names the party.

«Какая комиссия банка?», «вознаграждение агента какое?»: the role («банк», «агент») stands
in the genitive after a noun, and that noun is what is asked; the party card field must
not take the question. «Наименование банка», «ИНН арендатора» do ask the party (its name,
its requisite: ``data/requisites.yaml`` ``party_attributes`` and ``REQUISITES``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

from finagent.language.lemmas import genitive, part_of_speech
from finagent.question.tables import REQUISITES
from finagent.yaml_data import load_yaml


@cache
def _party_attributes() -> frozenset[str]:
    path = resources.files("finagent.question").joinpath("data/requisites.yaml")
    data = load_yaml(path.read_text("utf-8"))
    return frozenset(str(w) for w in data.get("party_attributes", ()))


def qualifies_other_noun(lemmas: Sequence[str], words: Sequence[str], at: int) -> bool:
    """The role word at ``at`` is in the genitive right after a noun that asks a value of
    its own, not the party's name or requisite."""
    if not 0 < at < min(len(words), len(lemmas)) or not genitive(words[at]):
        return False
    head = lemmas[at - 1]
    if head in REQUISITES or head in _party_attributes():
        return False
    return part_of_speech(words[at - 1]) == "NOUN"
