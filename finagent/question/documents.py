"""Which of the user's documents a question names: by type, number, counterparty, person
or a party role the card holds."""

from __future__ import annotations

from collections.abc import Sequence

from finagent.cards.doc_types import BY_KEY as DOC_TYPES
from finagent.cards.fields import ROLES
from finagent.cards.model import DocumentCard
from finagent.language.cues import find_cue
from finagent.language.lemmas import fold
from finagent.question.model import DocumentMatch

_MIN_NUMBER = 2  # «№ 5» alone is too common to name a document by
# Latin letters that look like Cyrillic ones: «A-17/2025» typed for «А-17/2025»
_LOOK_ALIKES = str.maketrans("abcehkmoptxy", "авсенкмортху")
_DASHES = str.maketrans({ch: "-" for ch in "‐‑‒–—―−"})


def _unified(text: str) -> str:
    return fold(text).translate(_DASHES).translate(_LOOK_ALIKES)


def number_key(number: str) -> str:
    """A document number as compared: folded, Latin look-alikes as Cyrillic, one kind of
    dash, no spaces or number sign («№ A–17 / 2025» = «а-17/2025»)."""
    kept = "".join(ch for ch in _unified(number) if not ch.isspace() and ch != "№")
    return kept.strip(".,;:»«()")


def _name_core(name: str) -> str:
    """«АО «КБ «Вектор-Финанс»» -> «вектор-финанс»: the innermost quoted name, folded;
    «ИП Соколова Анна Петровна» -> «соколова»: the surname."""
    if "«" not in name:
        words = [word for word in name.split() if not word.isupper()]
        return fold(words[0]) if words else ""
    return fold(name.rsplit("«", 1)[-1].strip('»" '))


def _named_by_phrase(lemmas: Sequence[str], folded: str, phrase: str) -> bool:
    core = fold(phrase)
    return bool(core) and (core in folded or find_cue(lemmas, phrase) >= 0)


def _reasons(
    card: DocumentCard, lemmas: Sequence[str], folded: str, numbers: set[str], keyed: str
) -> list[str]:
    reasons: list[str] = []
    doc_type = DOC_TYPES.get(card.doc_type or "")
    if doc_type is not None and any(find_cue(lemmas, cue) >= 0 for cue in doc_type.cues):
        reasons.append("тип")
    if any(
        number_key(held) in numbers or (len(held) > _MIN_NUMBER and number_key(held) in keyed)
        for held in filter(None, [card.number, *card.references])
    ):
        reasons.append("номер")
    # parties with roles, else every organisation the card found (a heading without roles)
    for name in [*(party.name for party in card.parties), *card.organisations]:
        core = _name_core(name)
        if len(core) > 2 and _named_by_phrase(lemmas, folded, core):
            reasons.append("контрагент")
            break
    for person in card.persons:
        # «Белова Екатерина Андреевна», «И. С. Лаврентьев»: the first word that is no initial
        words = [word for word in person.replace(".", " ").split() if len(word) > 2]
        if words and len(words[0]) > 3 and find_cue(lemmas, words[0]) >= 0:
            reasons.append("лицо")
            break
    held = {party.role for party in card.parties}
    for role in ROLES:
        if role.key in held and any(find_cue(lemmas, cue) >= 0 for cue in role.cues):
            reasons.append("роль")
            break
    return reasons


def named_documents(
    lemmas: Sequence[str], text: str, numbers: Sequence[str], cards: Sequence[DocumentCard]
) -> list[DocumentMatch]:
    """Cards the question names, those named by more reasons first."""
    folded = fold(text)
    wanted = {number_key(number) for number in numbers}
    keyed = _unified(text)
    matches = []
    for card in cards:
        reasons = _reasons(card, lemmas, folded, wanted, keyed)
        if reasons:
            matches.append(
                DocumentMatch(document_id=card.document_id, title=card.title, reasons=reasons)
            )
    return sorted(matches, key=lambda m: -len(m.reasons))
