"""The cited Code point over a knowledge-base sentence that retells it.

A knowledge-base article retells the Code in its own words; the learned ranker often
prefers its short, plain sentences («штраф составляет 200 руб. за каждый непредставленный
документ») to the Code point among the same candidates that states the same rule («…влечет
взыскание штрафа в размере 200 рублей за каждый непредставленный документ»). Readers
trust the Code. When the best candidate is a knowledge-base sentence, a sentence of the
Code within :data:`MARGIN` of it leads instead when it

- states a value of the asked type, and every asked value of the knowledge-base sentence
  (compared as numbers: a window of a long Code sentence stating only some of them is
  not the same rule),
  or, for a question asking a day of the month («до какого числа»), the recurring day
  the knowledge base's list of one year's calendar dates applies (:func:`_general_day`);
- is no special case the question leaves unasked (:func:`general_rule.special_case`);
- names at least as many of the question's subject lemmas (with the official terms of
  its slang, a list item read with its lead-in): the same figures in a neighbouring rule
  («расчет 6-НДФЛ» for a declaration) are another rule.

*The Code named* (:func:`names_code`): a question that asks the Code itself («по НК»,
«ст. 126», «по Налоговому кодексу») wants the Code's figure even where the knowledge base
states another one (a KB list's «срок — 10 рабочих дней» for documents, asked about the
Code's «пяти дней» for explanations): a Code sentence within :data:`MARGIN` that states a
value of the asked type, is no unasked special case and names at least as many of the
question's subject lemmas leads, whether or not it restates the KB sentence (unless it is
scoped to past years the question does not name, or of another article than the one it
cites); then the
general rule of its point is chosen as :func:`general_rule.prefer_general_rule` does.

The knowledge-base sentence stays the next candidate, quoted as the second source. A
question about the asker's own practice or policy («в нашей компании», «по учётной
политике») is the knowledge base's to answer: its order is left alone.

Tried and left out (docs/direct-answers-history.md, round 3 of stop 34): a Code sentence naming
more of the question's words with no shared value (long Code sentences win by length),
and a shared value or a citation «ст. N» alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib import resources

from finagent.answering.asked_values import asked_values, asks_day, number_of, value_type
from finagent.answering.evidence import Candidate, first_near, promoted, promoted_at
from finagent.answering.general_rule import prefer_general_rule, special_case
from finagent.answering.ranker import asked_conditions, type_match
from finagent.answering.sentence_profile import SentenceProfile, profile
from finagent.language.cues import cue_lemmas, has_any
from finagent.language.dates import years_in
from finagent.language.glossary import glossary_terms
from finagent.language.lemmas import best_parse, lemma
from finagent.language.text import Token, analyse
from finagent.legal.bare_articles import bare_articles
from finagent.legal.references import CODE_PATTERNS, find_references
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS
from finagent.yaml_data import load_yaml

MARGIN = 3.0  # logit units of the learned ranker, as across articles (general_rule)
# the asker's own practice or policy: the company's rules, not the Code's
OWN_PRACTICE = ("наш", "у нас", "учётная политика", "локальный акт")
TIE = 0.01  # ahead of the knowledge-base sentence, not level with it
_SUMS = frozenset({"amount", "limit"})
_TAX_CODE = re.compile(CODE_PATTERNS["nk"], re.IGNORECASE)
# the other codes by name or abbreviation («Трудовой кодекс», «ГК РФ», «КоАП»)
_OTHER_CODES = re.compile(
    "|".join(f"(?:{pattern})" for key, pattern in CODE_PATTERNS.items() if key != "nk"),
    re.IGNORECASE,
)


def names_code(question: Question) -> bool:
    """The question asks the Tax Code itself: it names it («по НК», «Налоговым кодексом»),
    the law by a generic word («по закону», «по кодексу»: :func:`names_law`), or cites an
    article of it, or of no code («ст. 126», «по статье 145»)."""
    if _TAX_CODE.search(question.text) or names_law(question.text):
        return True
    return bool(cited_articles(question))


@cache
def _law_words() -> dict[str, frozenset[str]]:
    """The lists of ``data/law_named.yaml``."""
    text = resources.files("finagent.answering").joinpath("data/law_named.yaml")
    return {k: frozenset(str(w) for w in v) for k, v in load_yaml(text.read_text("utf-8")).items()}


def names_law(text: str) -> bool:
    """``text`` asks the law by a generic word («по закону», «установлено кодексом») or tax
    law («налоговое законодательство», «законодательство о налогах и сборах»), and names no
    other law anywhere: not by an adjective («по Трудовому кодексу», «трудовое
    законодательство»), a topic («по закону о бухучёте», «кодекс этики»), a number («закону
    № 402-ФЗ») or another code («по ТК», «ст. 81 ТК РФ»)."""
    if any(ref.code not in (None, "nk") for ref in find_references(text)) or _other_code(text):
        return False
    words = _law_words()
    generic = False
    for sentence in analyse(text).sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens):
            if token.lemma not in words["words"]:
                continue
            if _another_law(tokens, i):
                return False
            generic = True
    return generic


def _other_code(text: str) -> bool:
    """A code other than the Tax Code named by its name or abbreviation («Трудовой кодекс»,
    «ГК РФ», «по тк»); an abbreviation followed by a company's name is a company's kind:
    «ГК «Вектор»», «ГК ПИК» (a group of companies), «ТК СДЭК» (a transport company),
    «по СК Росгосстрах» (an insurer)."""
    for match in _OTHER_CODES.finditer(text):
        if not _company_named(text[match.end() :]):
            return True
    words = _law_words()
    for sentence in analyse(text).sentences:
        lemmas = sentence.lemmas
        for i, word in enumerate(lemmas):
            if word in words["other_codes"] and i and lemmas[i - 1] in words["code_prepositions"]:
                if not _company_named(text[sentence.tokens[i].end :]):
                    return True
    return False


# the word right after an abbreviation: quoted, or written with a capital («СДЭК», «ПИК»,
# «Самолёт»), and no dotted abbreviation of its own («Ст. 81», «П. 2»)
_NEXT_NAME = re.compile(r"[ \t]+(?:[«\"“']|(?P<word>[A-ZА-ЯЁ][\w-]*)(?P<dot>\.)?)")
_DOTTED_MAX = 3  # letters of a dotted abbreviation («Ст.», «Гл.»)


def _company_named(rest: str) -> bool:
    """``rest``, the text after a code's abbreviation, starts with a company's name: a
    quoted name, or a word written with a capital that is no country's name («ГК РФ») and
    no dotted abbreviation."""
    match = _NEXT_NAME.match(rest)
    if match is None:
        return False
    word = match.group("word")
    if word is None:
        return True
    if match.group("dot") and len(word) <= _DOTTED_MAX and not word.isupper():
        return False
    return lemma(word) not in _law_words()["country"]


def _another_law(tokens: Sequence[Token], i: int) -> bool:
    """The law word at ``i`` names a law other than the Tax Code: an adjective before it
    other than the Code's own, or after it (past the country's name) a number, a topic
    «о …» other than taxes, or, after «кодекс», a word in the genitive («кодекс этики»)."""
    words = _law_words()
    if i and tokens[i - 1].lemma not in words["own_adjectives"]:
        if "ADJF" in best_parse(tokens[i - 1].text).tag.grammemes:
            return True
    at = i + 1
    while at < len(tokens) and tokens[at].lemma in words["country"]:
        at += 1
    if at >= len(tokens):
        return False
    after = tokens[at]
    if after.text[:1].isdigit() or after.text.lower() in ("№", "n"):
        return True
    if after.text.lower() in words["naming_next"]:
        topic = tokens[at + 1].lemma if at + 1 < len(tokens) else ""
        return topic not in words["own_topics"]
    # «кодекс этики», «кодекс корпоративной этики»: a code of something; after «закон»
    # a genitive is as often the clause's own word («по закону ставки НДС какие»)
    if at != i + 1 or tokens[i].lemma not in words["named_by_genitive"]:
        return False
    parse = best_parse(after.text)
    return bool({"NOUN", "ADJF"} & parse.tag.grammemes) and "gent" in parse.tag


def cited_articles(question: Question) -> frozenset[str]:
    """The Tax Code's articles the question cites («по п. 1 ст. 126 НК РФ» -> «126»), also
    by their number alone («штраф по 119», «по 174 статье»)."""
    refs = find_references(question.text)
    named = {ref.article for ref in refs if ref.code in (None, "nk")}
    if not any(ref.code not in (None, "nk") for ref in refs):
        named.update(bare_articles(question.text))
    return frozenset(named)


def _of_cited(candidate: Candidate, question: Question) -> bool:
    """The Code sentence is of an article the question cites, or it cites none."""
    cited = cited_articles(question)
    article = candidate.chunk.metadata.get("article")
    return not cited or article is None or str(article) in cited


def _subject(question: Question) -> frozenset[str]:
    official = {lm for term in glossary_terms(question.text) for lm in cue_lemmas(term)}
    return frozenset((set(question.topic) | official) - STOP_LEMMAS)


def _words(candidate: Candidate) -> SentenceProfile:
    return profile(candidate.ranked_text)


def _numbers(candidate: Candidate, question: Question) -> set[str]:
    """The numbers of the asked values the sentence states; for a sum, its shares too (a
    sanction's «5 %, не более 30 % и не менее 1 000 руб.» is one rule: the Code point
    stating only the 1 000 руб. of another offence does not restate it)."""
    p = profile(candidate.sentence)
    values = asked_values(p, question)
    if value_type(question) in _SUMS:
        values = (*values, *asked_values(p, question, "rate"))
    return {n for n in (number_of(v) for v in values) if n}


def _restates(kb: Candidate, law: Candidate, question: Question) -> bool:
    """The Code sentence states every asked value of the knowledge-base sentence: the
    knowledge base retells it (a window of a long Code sentence stating only some of them,
    «30 процентов, 1 000 рублей» without the «5 процентов» the retelling states, is not the
    same rule)."""
    ours = _numbers(kb, question)
    return bool(ours) and ours <= _numbers(law, question)


def _general_day(kb: Candidate, law: Candidate, question: Question) -> bool:
    """For a question asking a day of the month («до какого числа»), the Code states the
    recurring day («не позднее 25-го числа месяца») that the knowledge base's list of one
    year's calendar dates applies («до 25 апреля 2025 года; … до 27 октября (25 октября
    пришлось на субботу)»): the Code's day is among the list's days, and the list states
    calendar dates only."""
    if not asks_day(question):
        return False
    ours, theirs = profile(kb.sentence), profile(law.sentence)
    if not ours.dates or ours.days or not theirs.days:
        return False
    listed = {number_of(d) for d in ours.dates}
    return {number_of(d) for d in theirs.days} <= listed


def _past_only(candidate: Candidate, question: Question) -> bool:
    """The sentence is scoped to years gone by («В отношении периодов 2017 - 2021 годов …»)
    and the question names none: a rule of the past, not today's."""
    if question.years:
        return False
    years = [y.year for y in years_in(analyse(candidate.sentence))]
    return bool(years) and max(years) < question.as_of.year


def prefer_code_point(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the Code's sentence first when the best one is a knowledge-base
    sentence restating or skirting it (see the module's docstring)."""
    if not ranked or ranked[0].chunk.source != "kb":
        return ranked
    lemmas = list(question.lemmas)
    if has_any(lemmas, OWN_PRACTICE):
        return ranked
    top = ranked[0]
    subject = _subject(question)
    named = len(_words(top).lemmas & subject)

    asked = asked_conditions(lemmas)
    code_asked = names_code(question)

    def better(c: Candidate) -> bool:
        # the same values in a special case («управляющим товарищем …») or with fewer of
        # the question's words («расчета 6-НДФЛ» for a declaration) are another rule
        if special_case(c, question, asked) or len(_words(c).lemmas & subject) < named:
            return False
        if code_asked and not _past_only(c, question) and _of_cited(c, question):
            return True
        return _restates(top, c, question) or _general_day(top, c, question)

    rivals = [
        c
        for c in ranked[1:]
        if c.chunk.source == "law"
        and c.score >= top.score - MARGIN
        and type_match(profile(c.sentence), question)
        and better(c)
    ]
    if not rivals:
        return ranked
    # of the Code's sentences, the one naming most of the question's subject («2026 года»,
    # «рекламного характера»), then the ranker's
    best = max(rivals, key=lambda c: (len(_words(c).lemmas & subject), c.score))
    reordered = promoted_at(ranked, best, top.score + TIE)
    # the Code asked by name: its point's general rule of the question's subject (the VAT
    # return's term of п. 2 ст. 88 beside the extension and the claim's term)
    return prefer_general_rule(question, reordered) if code_asked else reordered


def _cites_other(candidate: Candidate, cited: frozenset[str]) -> bool:
    """A knowledge-base sentence citing only other articles than the question's («по
    требованию в рамках встречной проверки (ст. 93.1 НК РФ) …» for «ст. 126»); a Code
    sentence of another article."""
    if candidate.chunk.source == "law":
        article = candidate.chunk.metadata.get("article")
        return article is not None and str(article) not in cited
    articles = {r.article for r in find_references(candidate.sentence) if r.code in (None, "nk")}
    return bool(articles) and not articles & cited


def prefer_cited_article(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a near sentence of the article the question cites first when the best
    one cites another: «штраф за непредставленные документы, ст. 126?» is not answered by
    the knowledge base's sentence on the counter-check of ст. 93.1."""
    cited = cited_articles(question)
    if not ranked or not cited or not _cites_other(ranked[0], cited):
        return ranked

    def keep(c: Candidate) -> bool:
        return type_match(profile(c.sentence), question) and not _cites_other(c, cited)

    best = first_near(ranked, MARGIN, keep)
    return promoted(ranked, best) if best is not None else ranked
