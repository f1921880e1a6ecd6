"""The party a verb acts on: «предупредить арендодателя», «уведомив Арендодателя»,
«уплачивает Исполнителю».

A notice period, a payment or a duty is often stated in one document several times, once
for each party («Арендатор … уведомив Арендодателя за 60 дней», «Арендодатель … уведомив
Арендатора за 15 дней»). When the question names the party its own verb acts on, the
values whose sentence has that party right after a verb (adverbs between them allowed)
are the asked ones; a value whose sentence acts on another party is not, and a value
whose sentence acts on no party is kept only when none acts on the asked one. The party
that acts (the subject in the nominative: «Продавец уплачивает …») must be the one the
question names as acting, when it names one. Roles are the
card roles (:data:`finagent.cards.fields.ROLES`), read as pymorphy3 lemmas.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

from finagent.cards.fields import ROLES
from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import grammatical_case, part_of_speech
from finagent.language.text import analyse

_ROLE_OF = {lm: role.key for role in ROLES for cue in role.cues for lm in cue_lemmas(cue)}
_VERBS = frozenset({"VERB", "INFN", "GRND"})
_NOMINATIVE = "nomn"
_PREPOSITION = "PREP"
_BETWEEN = frozenset({"ADVB"})  # «письменно уведомив», «уведомив письменно Арендодателя»

T = TypeVar("T")


@lru_cache(maxsize=2048)
def acted_roles(text: str) -> frozenset[str]:
    """The roles right after a verb form in ``text`` (adverbs between them allowed), not
    in the nominative: «платит продавец» names the payer, not the payee."""
    found = set()
    for sentence in analyse(text).sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens):
            key = _ROLE_OF.get(token.lemma)
            if key is None or grammatical_case(token.text) == _NOMINATIVE:
                continue
            j = i - 1
            while j >= 0 and part_of_speech(tokens[j].text) in _BETWEEN:
                j -= 1
            if j >= 0 and part_of_speech(tokens[j].text) in _VERBS:
                found.add(key)
    return frozenset(found)


@lru_cache(maxsize=2048)
def acting_roles(text: str) -> frozenset[str]:
    """The roles that act in ``text``: in the nominative, not after a preposition, in a
    sentence with a verb form («Продавец уплачивает Покупателю пени …», «какие пени платит
    продавец»)."""
    found = set()
    for sentence in analyse(text).sentences:
        tokens = sentence.tokens
        if not any(part_of_speech(t.text) in _VERBS for t in tokens):
            continue
        for i, token in enumerate(tokens):
            key = _ROLE_OF.get(token.lemma)
            if key is None or grammatical_case(token.text) != _NOMINATIVE:
                continue
            if i and part_of_speech(tokens[i - 1].text) == _PREPOSITION:
                continue
            found.add(key)
    return frozenset(found)


def _of_roles(
    wanted: frozenset[str],
    items: list[T],
    sentence: Callable[[T], str],
    roles_of: Callable[[str], frozenset[str]],
) -> list[T]:
    if not wanted or len(items) < 2:
        return items
    same = [item for item in items if roles_of(sentence(item)) & wanted]
    return same or items


def of_acted_party(question_text: str, items: Sequence[T], sentence: Callable[[T], str]) -> list[T]:
    """Of several ``items``, those whose sentence acts on the party the question's verb
    acts on, then of those, the ones whose acting party (the subject) is the one the
    question names as acting («какие пени платит продавец» — «Продавец уплачивает
    Покупателю пени …», not «Покупатель уплачивает Продавцу …»); all of them when the
    question names none or no sentence speaks of it."""
    kept = _of_roles(acted_roles(question_text), list(items), sentence, acted_roles)
    return _of_roles(acting_roles(question_text), kept, sentence, acting_roles)
