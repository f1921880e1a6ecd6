"""Parties and their roles: «…, именуемое в дальнейшем «Арендодатель»», «Продавец: ООО …»,
table rows «| Заказчик | ООО … |»; their ИНН/КПП and representatives («в лице …»)."""

from __future__ import annotations

from finagent.cards.fields import ROLES
from finagent.cards.model import Party
from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.lemmas import lemma
from finagent.language.spans import Identifier, Organisation, Person
from finagent.language.text import Analysed, AnalysedSentence

_ROLE_BY_LEMMA = {cue_lemmas(cue)[0]: role.key for role in ROLES for cue in role.cues}
_HEREINAFTER = ("в дальнейшем", "далее")
_LABEL_PUNCT = set("*|#-—_")
_MAX_LABEL_GAP = 3  # tokens between a role label and its colon («ИНН/КПП продавца:» is not one)


def _role_word(text: str) -> str | None:
    return _ROLE_BY_LEMMA.get(lemma(text))


def _hereinafter_role(sentence: AnalysedSentence) -> tuple[str, int] | None:
    """The role after «именуемое в дальнейшем» / «далее —» and the token where the cue is."""
    for cue in _HEREINAFTER:
        at = find_cue(sentence.lemmas, cue)
        if at < 0:
            continue
        for token in sentence.tokens[at + len(cue.split()) : at + len(cue.split()) + 4]:
            role = _role_word(token.text)
            if role is not None:
                return role, at
    return None


def _label_role(sentence: AnalysedSentence) -> str | None:
    """«Продавец:», «**Исполнитель:**», «| Заказчик |» at the start of a line."""
    tokens = [t for t in sentence.tokens if not set(t.text) <= _LABEL_PUNCT]
    if not tokens:
        return None
    role = _role_word(tokens[0].text)
    if role is None:
        return None
    follow = [t.text for t in tokens[1 : 1 + _MAX_LABEL_GAP]]
    return role if ":" in follow[:1] or sentence.sentence.text.lstrip().startswith("|") else None


def _in(sentence: AnalysedSentence, start: int, end: int | None = None) -> bool:
    stop = sentence.sentence.end if end is None else end
    return sentence.sentence.start <= start < stop


def parties_in(
    analysed: Analysed,
    organisations: list[Organisation],
    persons: list[Person],
    identifiers: list[Identifier],
) -> list[Party]:
    parties: list[Party] = []
    for sentence in analysed.sentences:
        hereinafter = _hereinafter_role(sentence)
        role = hereinafter[0] if hereinafter else _label_role(sentence)
        if role is None:
            continue
        limit = sentence.tokens[hereinafter[1]].start if hereinafter else None
        orgs = [o for o in organisations if _in(sentence, o.start, limit)]
        people = [p for p in persons if _in(sentence, p.start, limit)]
        representative = next(
            (p.name for p in persons if _in(sentence, p.start) and not _in(sentence, p.start, limit)
             and "лице" in sentence.sentence.text[: p.start - sentence.sentence.start]),
            None,
        )
        if orgs:
            first = orgs[0]
            name = f"{first.legal_form} «{first.name}»" if first.legal_form != "ИП" else first.text
            legal_form: str | None = first.legal_form
        elif people:
            name, legal_form = people[0].name, None
        else:
            continue
        if representative is None and hereinafter is None:
            representative = next(
                (p.name for p in persons if _in(sentence, p.start) and p.name not in name), None
            )
        codes = [i for i in identifiers if _in(sentence, i.start)]
        parties.append(
            Party(
                role=role,
                name=name,
                legal_form=legal_form,
                inn=next((c.value for c in codes if c.label == "inn"), None),
                kpp=next((c.value for c in codes if c.label == "kpp"), None),
                representative=representative,
                sentence=sentence.sentence,
            )
        )
    _codes_from_labelled_lines(analysed, parties, identifiers)
    return _deduplicated(parties)


def _codes_from_labelled_lines(
    analysed: Analysed, parties: list[Party], identifiers: list[Identifier]
) -> None:
    """«ИНН/КПП продавца: 7716889042 / 771601001»: codes on a line naming the role."""
    for sentence in analysed.sentences:
        roles = {r for t in sentence.tokens if (r := _role_word(t.text)) is not None}
        codes = [i for i in identifiers if _in(sentence, i.start) and i.label in ("inn", "kpp")]
        if len(roles) != 1 or not codes:
            continue
        role = roles.pop()
        for party in parties:
            if party.role == role:
                party.inn = party.inn or next((c.value for c in codes if c.label == "inn"), None)
                party.kpp = party.kpp or next((c.value for c in codes if c.label == "kpp"), None)


def _deduplicated(parties: list[Party]) -> list[Party]:
    seen: dict[tuple[str, str], Party] = {}
    for party in parties:
        key = (party.role, party.name)
        if key in seen:
            kept = seen[key]
            kept.inn, kept.kpp = kept.inn or party.inn, kept.kpp or party.kpp
            kept.representative = kept.representative or party.representative
        else:
            seen[key] = party
    return list(seen.values())
