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

A role's case is read from all its pymorphy3 readings, not the first: «Банк», «Фонд»,
«Общество» may be nominative or accusative. One that can only be nominative after a verb
is its subject («платит продавец»); one that can be accusative is the verb's object when
the verb is an infinitive or a gerund (which have no subject after them: «уведомить
Банк», «уведомив Банк») or when a role stands before a finite verb as its subject
(«Клиент уведомляет Банк»); otherwise the most probable reading decides («какие пени
платит банк»).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

from finagent.cards.fields import ROLES
from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import grammatical_case, nominative, oblique_case, part_of_speech
from finagent.language.text import Token, analyse

_ROLE_OF = {lm: role.key for role in ROLES for cue in role.cues for lm in cue_lemmas(cue)}
_VERBS = frozenset({"VERB", "INFN", "GRND"})
_SUBJECTLESS = frozenset({"INFN", "GRND"})  # verb forms with no subject after them
_NOMINATIVE = "nomn"
_PREPOSITION = "PREP"
_BETWEEN = frozenset({"ADVB"})  # «письменно уведомив», «уведомив письменно Арендодателя»

T = TypeVar("T")
_CLAUSE_MARKS = frozenset(",;:—–")  # punctuation that closes a clause


def _verb_before(tokens: Sequence[Token], i: int) -> int | None:
    """The index of the verb form right before token ``i`` (adverbs between allowed)."""
    j = i - 1
    while j >= 0 and part_of_speech(tokens[j].text) in _BETWEEN:
        j -= 1
    return j if j >= 0 and part_of_speech(tokens[j].text) in _VERBS else None


def _subject_role_before(tokens: Sequence[Token], verb: int) -> bool:
    """A role in the nominative, not after a preposition, stands before the verb in its own
    clause (in «Если Клиент отказался, неустойку платит Банк» the «Клиент» is another
    clause's subject)."""
    start = max((k + 1 for k in range(verb) if tokens[k].text in _CLAUSE_MARKS), default=0)
    return any(
        _ROLE_OF.get(t.lemma) is not None
        and grammatical_case(t.text) == _NOMINATIVE
        and not (k > start and part_of_speech(tokens[k - 1].text) == _PREPOSITION)
        for k, t in enumerate(tokens[start:verb], start=start)
    )


def _acted(tokens: Sequence[Token], i: int) -> bool:
    """Whether role token ``i`` is the object of the verb right before it (see above)."""
    verb = _verb_before(tokens, i)
    if verb is None:
        return False
    word = tokens[i].text
    if not oblique_case(word):  # «платит продавец»: only the nominative
        return False
    if not nominative(word):  # «уведомив Арендодателя»
        return True
    if part_of_speech(tokens[verb].text) in _SUBJECTLESS:  # «уведомить Банк»
        return True
    if _subject_role_before(tokens, verb):  # «Клиент уведомляет Банк»
        return True
    return grammatical_case(word) != _NOMINATIVE


@lru_cache(maxsize=2048)
def acted_roles(text: str) -> frozenset[str]:
    """The roles right after a verb form in ``text`` (adverbs between them allowed) as its
    object: «уведомить Банк», not «платит продавец», which names the payer."""
    found = set()
    for sentence in analyse(text).sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens):
            key = _ROLE_OF.get(token.lemma)
            if key is not None and _acted(tokens, i):
                found.add(key)
    return frozenset(found)


@lru_cache(maxsize=2048)
def acting_roles(text: str) -> frozenset[str]:
    """The roles that act in ``text``: in the nominative, not after a preposition nor as
    a verb's object, in a sentence with a verb form («Продавец уплачивает Покупателю пени
    …», «какие пени платит продавец»)."""
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
            if _acted(tokens, i):
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
