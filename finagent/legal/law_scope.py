"""Whether a calc question is under another branch of law than the Tax Code.

The пени of art. 75 НК РФ are charged on taxes, levies and insurance contributions, and
the period table holds the Code's periods. A question that cites another code («ст. 395
ГК РФ», «КоАП») or whose debt is a civil, housing, procurement, credit, labour or
administrative one («пени за коммунальные услуги», «неустойка по контракту», «штраф
ГИБДД») and names no tax is not the calculators' (data/calc_lexicon.yaml:
``governing_laws``, each other law with its ``cites`` and ``debts``; ``tax_words``). Nor
are a payment a tax word names but the Code does not govern («взносы на травматизм»,
125-ФЗ: ``payments``), a debt of another law that a tax word names too when no row of the
table is the question's (customs duties and import VAT under the EAEU Customs Code and
289-ФЗ; a write-off «для самозанятых» under 422-ФЗ: ``scoped`` with ``with``), contesting
a value or an act another law governs («оспорить кадастровую стоимость», «обжаловать
решение таможни»: ``contest_verbs`` with ``objects``) and the appeal of a court's own act
to a higher court («апелляционная жалоба на решение арбитражного суда»: ``court_acts``
with ``court_appeals``), whatever tax the dispute was about. :func:`governing_law` names
the law a refusal cites.
"""

from __future__ import annotations

from finagent.legal.calc_lexicon import GoverningLaw, governing_laws, law_phrases, phrases, word_set
from finagent.legal.calc_text import CalcText

OTHER_LAW = "other_law"


def cites_other_code(text: CalcText) -> bool:
    """The question cites another code than the Tax Code (not denied: «не по ГК РФ»)."""
    return any(text.has(p) for p in law_phrases("cites"))


def names_tax(text: CalcText) -> bool:
    """A tax word names the question's own debt: not one named only in a comparison
    («посчитайте проценты по ключевой ставке, как пени по налогам»)."""
    for p in phrases("tax_words"):
        found = text.find(p)
        if found and not _compared(text, min(found)):
            return True
    return False


def _compared(text: CalcText, first: int) -> bool:
    """The word at ``first`` stands in a comparison: «как» (not opening its sentence and
    not followed by a verb: «как посчитать пени по налогу» asks how), «по аналогии с»,
    «подобно» within three words before it, with no verb in between."""
    words = text.words
    markers = word_set("comparison_words")
    for k in range(first - 1, max(-1, first - 4), -1):
        w = words[k]
        if w.sentence != words[first].sentence or w.pos in ("VERB", "INFN"):
            return False
        if w.lemma in markers:
            opens = k == 0 or words[k - 1].sentence != w.sentence
            return not (w.lemma == "как" and opens)
    return False


def other_law_debt(text: CalcText) -> bool:
    """The question's debt or duty is another branch's and no tax is named."""
    return any(text.has(p) for p in law_phrases("debts")) and not names_tax(text)


def non_code_payment(text: CalcText) -> bool:
    """A payment outside the Code though a tax word names it (injury contributions), or a
    procedure of another law: contesting a value or an act that law governs (a cadastral
    value, 237-ФЗ; an administrative fine, КоАП; a customs decision, 289-ФЗ)."""
    if any(text.has(p) for p in law_phrases("payments")):
        return True
    # the asking part contests («до какого числа его обжаловать?»); the contested act is
    # often named in the story and taken up by a pronoun («Таможня вынесла решение ...»).
    # Contesting told in the story only («оспаривает кадастровую стоимость») is background
    # to another, asked procedure (a complaint under the Code).
    return _asks_to_contest(text) and any(
        _names_contested(text, thing) for thing in law_phrases("objects")
    )


def _names_contested(text: CalcText, thing: tuple[str, ...]) -> bool:
    """Another law's act or value named where the contested thing is named: in the asking
    part, or before the date of a story sentence (the dated act: «Таможня вынесла решение
    ... 10 марта»); not a side remark («уплатили на таможне», «ранее пристав списал»)."""
    found = text.find(thing)
    if not found:
        return False
    words = text.words
    if any(words[i].asked for i in found):
        return True
    first = min(found)
    return any(
        w.day is not None and w.sentence == words[first].sentence for w in words[first + 1 :]
    )


def _asks_to_contest(text: CalcText) -> bool:
    for verb in phrases("contest_verbs"):
        found = text.find(verb)
        if found and any(text.words[i].asked for i in found):
            return True
    return False


def appeals_court_act(text: CalcText) -> bool:
    """The question appeals a court's own act to a higher court."""
    return any(text.has(p) for p in phrases("court_acts")) and any(
        text.has(p) for p in phrases("court_appeals")
    )


def _scoped(text: CalcText, law: GoverningLaw) -> bool:
    return any(text.has(p) for p in law.scoped) and (
        not law.with_ or any(text.has(p) for p in law.with_)
    )


def scoped_debt(text: CalcText) -> bool:
    """The debt is another law's though a tax word may name it («ввозная пошлина и НДС по
    ДТ», «амнистия пеней по НПД»)."""
    return any(_scoped(text, law) for law in governing_laws())


def other_law(text: CalcText, *, row_found: bool) -> bool:
    """Whether the question is another branch's: it cites another code, names a payment
    or a court appeal the Code does not govern, or, when no row of the table names it,
    its debt or duty is another branch's."""
    return (
        cites_other_code(text)
        or non_code_payment(text)
        or appeals_court_act(text)
        or (not row_found and (other_law_debt(text) or scoped_debt(text)))
    )


def governing_law(text: CalcText) -> GoverningLaw | None:
    """The other law a declined question is under, for the refusal to name: the first of
    the lexicon's laws the question ties it to (a debt ``scoped`` to a law first: customs
    VAT is customs law whatever else the question says), or None."""
    for law in governing_laws():
        if law.scoped and _scoped(text, law):
            return law
    for law in governing_laws():
        if any(text.has(p) for p in law.cites + law.payments + law.debts + law.objects):
            return law
    return None
