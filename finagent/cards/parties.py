"""Parties and their roles: «…, именуемое в дальнейшем «Арендодатель»», «Продавец: ООО …»,
table rows «| Заказчик | ООО … |»; their ИНН/КПП and representatives («в лице …»)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from finagent.cards.fields import ROLES
from finagent.cards.model import Party
from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.lemmas import (
    animate,
    lemma,
    part_of_speech,
    participle_noun,
    role_in_nominative,
)
from finagent.language.spans import Identifier, Organisation, Person
from finagent.language.text import Analysed, AnalysedSentence, Token


@cache
def _role_by_lemma() -> dict[str, str]:
    """Lemma of a role word -> role key (built on first use: lemmas load pymorphy3)."""
    return {cue_lemmas(cue)[0]: role.key for role in ROLES for cue in role.cues}


# «Кому:» heads the addressee's line of a letter; as a cue anywhere else it would be «кто»
_LABEL_ONLY = {"кто": "addressee"}
_HEREINAFTER = ("в дальнейшем", "далее")
_LABEL_PUNCT = set("*|#-—_")
_FOLLOWING_LINES = 2  # lines after a labelled party line that may hold its codes
_MAX_LABEL_GAP = 3  # tokens between a role label and its colon («ИНН/КПП продавца:» is not one)
_MIN_ROLE = 4  # letters of a role word no list names
_PHRASE_ADJECTIVES = 2  # adjectives before a role's noun («Первоначальный должник»)


def _role_word(text: str) -> str | None:
    return _role_by_lemma().get(lemma(text))


def _own_role(text: str) -> str | None:
    """A listed role's key, else the lemma of a word naming a party (pymorphy3: animate
    noun) in the document's own wording: «Страховщик», «Лизингодатель», «Перевозчик»."""
    known = _role_word(text)
    if known is not None:
        return known
    if len(text) > _MIN_ROLE and text[:1].isupper() and animate(text):
        return lemma(text)
    return None


def _participle_role(tokens: Sequence[Token]) -> str | None:
    """A capitalised participle standing alone as a party's name («именуемое в дальнейшем
    «Одаряемый»», «Застрахованное лицо» is not one): its masculine nominative form."""
    if len(tokens) < 2 or not tokens[0].text[:1].isupper() or tokens[1].text[:1].isalnum():
        return None
    return participle_noun(tokens[0].text)


def _phrase_role(tokens: Sequence[Token]) -> str | None:
    """A role named by adjectives before its noun, the first capitalised and the phrase
    closed by a quote («именуемое в дальнейшем «Новый должник»», «Первоначальный
    кредитор»): the phrase in the nominative singular, lower case («новый должник»)."""
    if not tokens or not tokens[0].text[:1].isupper():
        return None
    for k, token in enumerate(tokens[: _PHRASE_ADJECTIVES + 1]):
        if part_of_speech(token.text) == "ADJF" and k < _PHRASE_ADJECTIVES:
            continue
        closed = k + 1 >= len(tokens) or not tokens[k + 1].text[:1].isalnum()
        noun = part_of_speech(token.text) == "NOUN" and (
            animate(token.text) or _role_word(token.text)
        )
        if k == 0 or not closed or not noun:
            return None
        return role_in_nominative([t.text for t in tokens[: k + 1]]).lower()
    return None


def _hereinafter_roles(sentence: AnalysedSentence) -> list[tuple[str, int]]:
    """Each role after «именуемое в дальнейшем» / «далее —» with the offset of its cue;
    one sentence may introduce both parties."""
    found: dict[int, str] = {}
    lemmas = sentence.lemmas
    for cue in _HEREINAFTER:
        size = len(cue.split())
        at = find_cue(lemmas, cue)
        while at >= 0:
            following = sentence.tokens[at + size : at + size + 4]
            for k, token in enumerate(following):
                role = _phrase_role(following[k:]) or _own_role(token.text)
                role = role or _participle_role(following[k:])
                if role is not None:
                    found.setdefault(sentence.tokens[at].start, role)
                    break
            at = find_cue(lemmas, cue, at + size)
    return [(role, start) for start, role in sorted(found.items())]


def _label_role(sentence: AnalysedSentence) -> str | None:
    """«Продавец:», «**Исполнитель:**», «| Заказчик |» at the start of a line."""
    tokens = [t for t in sentence.tokens if not set(t.text) <= _LABEL_PUNCT]
    if not tokens:
        return None
    role = _own_role(tokens[0].text) or _LABEL_ONLY.get(tokens[0].lemma)
    if role is None:
        return None
    follow = [t.text for t in tokens[1 : 1 + _MAX_LABEL_GAP]]
    return role if ":" in follow[:1] or sentence.sentence.text.lstrip().startswith("|") else None


def _in(sentence: AnalysedSentence, start: int) -> bool:
    return sentence.sentence.start <= start < sentence.sentence.end


def _party(
    role: str,
    orgs: list[Organisation],
    people: list[Person],
    representatives: list[Person],
    codes: list[Identifier],
    sentence: AnalysedSentence,
) -> Party | None:
    if orgs:
        first = orgs[0]
        name = f"{first.legal_form} «{first.name}»" if first.legal_form != "ИП" else first.text
        legal_form: str | None = first.legal_form
    elif people:
        name, legal_form = people[0].name, None
    else:
        return None
    return Party(
        role=role,
        name=name,
        legal_form=legal_form,
        inn=next((c.value for c in codes if c.label == "inn"), None),
        kpp=next((c.value for c in codes if c.label == "kpp"), None),
        representative=next((p.name for p in representatives if p.name not in name), None),
        sentence=sentence.sentence,
    )


def parties_in(
    analysed: Analysed,
    organisations: list[Organisation],
    persons: list[Person],
    identifiers: list[Identifier],
) -> list[Party]:
    parties: list[Party] = []
    for index, sentence in enumerate(analysed.sentences):
        s_start, s_end = sentence.sentence.start, sentence.sentence.end
        roles = _hereinafter_roles(sentence)
        # (role, where its party is named, where its «в лице …» may be)
        regions: list[tuple[str, tuple[int, int], tuple[int, int]]] = []
        if roles:
            bounds = [s_start] + [start for _, start in roles] + [s_end]
            for k, (named, cue) in enumerate(roles):
                regions.append((named, (bounds[k], cue), (cue, bounds[k + 2])))
        elif (role := _label_role(sentence)) is not None:
            # «Кому: ООО …» with «ИНН …, КПП …» on the next lines, up to the next label
            end = s_end
            for following in analysed.sentences[index + 1 : index + 1 + _FOLLOWING_LINES]:
                if _label_role(following) is not None or _hereinafter_roles(following):
                    break
                end = following.sentence.end
            regions.append((role, (s_start, end), (s_start, s_end)))
        for role, (a, b), (c, d) in regions:
            orgs = [o for o in organisations if a <= o.start < min(b, s_end)]
            # «Руководитель: Кравцов О. Д.» under a signature is a signatory, not a party:
            # a label no list names makes a party of an organisation only
            labelled = not roles and role not in _role_by_lemma().values()
            party = _party(
                role,
                orgs,
                [] if labelled else [p for p in persons if a <= p.start < min(b, s_end)],
                [p for p in persons if c <= p.start < d and p.start > a],
                [i for i in identifiers if a <= i.start < b],
                sentence,
            )
            if party is not None:
                parties.append(party)
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
