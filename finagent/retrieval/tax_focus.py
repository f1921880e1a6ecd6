"""A question that names a tax is about that tax's chapter of the Tax Code.

«Какие ставки НДС действуют и когда применяется 0 %?» is about chapter 21; п. 3 ст.
346.51 (chapter 26.5, the patent system) also speaks of «ставки в размере 0 процентов»
and shares the question's words, but it answers for another tax. When the question names
taxes (:func:`finagent.legal.taxes.taxes_named`), the knowledge-base search
(:meth:`Retriever.search_many`) searches the question once more inside their chapters,
and once more inside their rate articles («Налоговые ставки») when it asks for a rate,
and fuses those lists with the others; the rate articles' best passage keeps a place
among the results (:meth:`TaxFocus.kept`). Tax Code passages from the chapters of taxes
the question does not name go after every other result. The general part (chapters 1-20),
knowledge-base articles and user documents are never pushed back.

The asked kind of value chooses among the chapter's articles too. «До какого числа
платить 1 % с дохода свыше 300 тысяч?» shares its words with the article that states the
amounts (ст. 430) more than with the one that states the deadline (ст. 432); a question
typed as a date or a period (:class:`finagent.question.model.Question`) weighs up the
passages that state a time limit in the Code's own words («не позднее 1 июля», «в течение
трех месяцев», «до 28-го числа») by :data:`DEADLINE_WEIGHT` before the fused list is cut
(:meth:`TaxFocus.weight`): a rerank feature of the passage's text, never an article number.

A chapter states several time limits: when the report is filed, when the tax is paid,
when a notice is sent. For the Code-only search of the point stating the asked one
(:func:`timed_focus`), a passage weighs more (:data:`ACT_WEIGHT`) when one of its
sentences states a time limit, names the action the question asks
(:func:`finagent.question.acts.asked_action`: filing, paying, notifying) and shares a noun with
the question (its object: «декларация», «расчет», «налог»): «когда сдавать расчет по
взносам» prefers «Расчет … представляется не позднее …» to «Взносы уплачиваются не позднее
…», and «подать заявление» does not take a return's filing date for its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from finagent.language.glossary import glossary_terms
from finagent.language.lemmas import noun
from finagent.language.periods import states_time_limit
from finagent.language.text import Analysed, analyse
from finagent.legal.taxes import (
    RATE_ARTICLE_TITLE,
    RATE_ARTICLE_TITLES,
    TAXES,
    asks_rate,
    taxes_named,
)
from finagent.question.acts import (
    DEADLINE_TYPES,
    action_words,
    actions_named,
    asked_action,
    time_nouns,
)
from finagent.question.model import Question
from finagent.retrieval.index import SearchFilter
from finagent.state import Chunk

LAW_SOURCE = "law"  # the payload source of code passages (law_ingest.LAW_SOURCE)
TAX_CODE = "nk"
TAX_CHAPTERS = frozenset(tax.chapter for tax in TAXES if tax.chapter)
# the fused score of a passage stating a time limit, for a question asking one (measured on
# the four Code sets, see docs/direct-answers-history.md, the `kf` lane)
DEADLINE_WEIGHT = 1.2
# the timed Code search's weight of a passage stating the asked action's time limit (above
# DEADLINE_WEIGHT: it goes before the chapter's other time limits)
ACT_WEIGHT = 1.5


@dataclass(frozen=True)
class TaxFocus:
    """The Tax Code chapters of the taxes a question names, and whether it asks a rate."""

    chapters: tuple[str, ...]
    rate: bool = False
    deadline: bool = False  # the question asks a date or a period (a time limit)
    act: str | None = None  # the action whose time limit is asked (file, pay, notify): timed
    objects: frozenset[str] = frozenset()  # the question's nouns, the act's words aside

    def narrowed(self, flt: SearchFilter | None) -> list[SearchFilter]:
        """``flt`` narrowed to the chapters (and to their rate articles for a rate
        question); nothing when ``flt`` leaves the Tax Code out."""
        if not self.chapters:  # a time limit asked, no tax named
            return []
        base = flt or SearchFilter()
        sources = [base.source] if isinstance(base.source, str) else base.source
        if sources is not None and LAW_SOURCE not in sources:
            return []
        chapters = {**base.extra, "code": TAX_CODE, "chapter": list(self.chapters)}
        extras = [chapters]
        if self.rate:
            extras.append({**chapters, "article_title": list(RATE_ARTICLE_TITLES)})
        return [
            SearchFilter(
                user_id=base.user_id, document_ids=base.document_ids, source=LAW_SOURCE, extra=e
            )
            for e in extras
        ]

    def rate_article(self, chunk: Chunk) -> bool:
        """For a rate question: a passage of a named chapter's rate article."""
        return (
            self.rate
            and chunk.source == LAW_SOURCE
            and str(chunk.metadata.get("chapter") or "") in self.chapters
            and bool(RATE_ARTICLE_TITLE.match(str(chunk.metadata.get("article_title") or "")))
        )

    def kept(self, focused: Sequence[Sequence[Chunk]]) -> list[Chunk]:
        """For a rate question, the best passage of the named chapters' rate articles: the
        rate article states the rate, though other articles of the chapter share more of
        the question's words and win the fusion («Какая ставка ЕСХН?» — п. 1 ст. 346.8,
        not the computation rules of ст. 346.9)."""
        if not self.rate or len(focused) < 2 or not focused[1]:
            return []
        return [focused[1][0]]

    def weight(self, chunk: Chunk) -> float:
        """The factor of a passage's fused score: a Tax Code passage that states a time
        limit, for a question that asks one; 1 otherwise."""
        if not self.deadline or chunk.source != LAW_SOURCE:
            return 1.0
        if not passage_states_time_limit(chunk.text):
            return 1.0
        return ACT_WEIGHT if self.states_act_limit(chunk.text) else DEADLINE_WEIGHT

    def states_act_limit(self, text: str) -> bool:
        """A sentence of ``text`` states a time limit, names the asked action and a noun of
        the question (see the module docstring); False when no action is asked."""
        if self.act is None:
            return False
        return any(
            self.act in acts and nouns & self.objects for acts, nouns in time_limit_acts(text)
        )

    def demoted(self, chunk: Chunk) -> bool:
        """A Tax Code passage of another tax's chapter."""
        if chunk.source != LAW_SOURCE or chunk.metadata.get("code", TAX_CODE) != TAX_CODE:
            return False
        chapter = str(chunk.metadata.get("chapter") or "")
        return bool(self.chapters) and chapter in TAX_CHAPTERS and chapter not in self.chapters


@lru_cache(maxsize=16384)
def passage_states_time_limit(text: str) -> bool:
    """Whether a passage states a time limit (:func:`finagent.language.periods.
    states_time_limit`): read once per passage text, the first time a search weighs it. Its
    lines are read as one text: a hard-wrapped passage breaks «не / позднее» across lines."""
    return states_time_limit(analyse(" ".join(text.split())))


@lru_cache(maxsize=16384)
def time_limit_acts(text: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Of each sentence of a passage stating a time limit, the actions it names and its
    nouns' lemmas (read once per passage text; its lines are read as one text)."""
    out: list[tuple[frozenset[str], frozenset[str]]] = []
    analysed = analyse(" ".join(text.split()))
    for sentence in analysed.sentences:
        if not states_time_limit(Analysed(sentence.sentence.text, [sentence])):
            continue
        nouns = frozenset(t.lemma for t in sentence.tokens if noun(t.text))
        out.append((actions_named(sentence.sentence.text), nouns))
    return tuple(out)


def question_objects(words: str) -> frozenset[str]:
    """The nouns of a question and of its glossary terms but the actions' own words
    («уплата», «представление» name the act, not its object) and the asked time's
    («до какого числа», «в какой срок»)."""
    aside = time_nouns().union(*action_words().values())
    text = " ".join([words, *glossary_terms(words)])
    return frozenset(
        t.lemma
        for s in analyse(text).sentences
        for t in s.tokens
        if len(t.text) > 1 and noun(t.text) and t.lemma not in aside
    )


def tax_focus(question: Question, text: str | None = None) -> TaxFocus | None:
    """The chapters of the taxes the turn's typed ``question`` names (``text``: the words to
    read them in, when a sub-query of the question is searched; its own text otherwise);
    None when it names none of the Code's and asks no time limit."""
    words = question.text if text is None else text
    chapters = [tax.chapter for tax in taxes_named(words) if tax.chapter]
    deadline = question.answer_type in DEADLINE_TYPES
    if not chapters and not deadline:
        return None
    return TaxFocus(tuple(dict.fromkeys(chapters)), rate=asks_rate(words), deadline=deadline)


def timed_focus(question: Question, text: str | None = None) -> TaxFocus | None:
    """For a question asking a time limit, the focus of the Code-only search of the points
    stating one (:meth:`finagent.retrieval.retriever.Retriever.code_extra`): the chapters
    of the taxes it names by a name or by a report's (the glossary's Code term: «РСВ» is
    «расчет по страховым взносам», so chapter 34), and the action it asks with the nouns
    of its object (:meth:`TaxFocus.states_act_limit`); None for any other question."""
    if question.answer_type not in DEADLINE_TYPES:
        return None
    words = question.text if text is None else text
    named = taxes_named(" ".join([words, *glossary_terms(words)]))
    chapters = tuple(dict.fromkeys(tax.chapter for tax in named if tax.chapter))
    return TaxFocus(
        chapters, deadline=True, act=asked_action(question), objects=question_objects(words)
    )
