"""The party a verb acts on: «предупредить арендодателя», «уведомив Арендодателя»,
«уплачивает Исполнителю».

A notice period, a payment or a duty is often stated in one document several times, once
for each party («Арендатор … уведомив Арендодателя за 60 дней», «Арендодатель … уведомив
Арендатора за 15 дней»). When the question names the party its own verb acts on, the
values whose sentence has that party right after a verb (adverbs between them allowed)
are the asked ones; a value whose sentence acts on another party is not, and a value
whose sentence acts on no party is kept only when none acts on the asked one. Roles are the
card roles (:data:`finagent.cards.fields.ROLES`), read as pymorphy3 lemmas.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

from finagent.cards.fields import ROLES
from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import part_of_speech
from finagent.language.text import analyse

_ROLE_OF = {lm: role.key for role in ROLES for cue in role.cues for lm in cue_lemmas(cue)}
_VERBS = frozenset({"VERB", "INFN", "GRND"})
_BETWEEN = frozenset({"ADVB"})  # «письменно уведомив», «уведомив письменно Арендодателя»

T = TypeVar("T")


@lru_cache(maxsize=2048)
def acted_roles(text: str) -> frozenset[str]:
    """The roles right after a verb form in ``text`` (adverbs between them allowed)."""
    found = set()
    for sentence in analyse(text).sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens):
            key = _ROLE_OF.get(token.lemma)
            if key is None:
                continue
            j = i - 1
            while j >= 0 and part_of_speech(tokens[j].text) in _BETWEEN:
                j -= 1
            if j >= 0 and part_of_speech(tokens[j].text) in _VERBS:
                found.add(key)
    return frozenset(found)


def of_acted_party(question_text: str, items: Sequence[T], sentence: Callable[[T], str]) -> list[T]:
    """Of several ``items``, those whose sentence acts on the party the question's verb
    acts on; all of them when the question names none or no sentence speaks of it."""
    wanted = acted_roles(question_text)
    if not wanted or len(items) < 2:
        return list(items)
    roles = [acted_roles(sentence(item)) for item in items]
    same = [item for item, r in zip(items, roles, strict=True) if r & wanted]
    return same or list(items)
