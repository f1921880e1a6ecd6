"""Requests no source can ground: to make data up, or to choose for the user.

Both are read from the question's words through pymorphy3 (lemmas and the mood of a
verb), not from phrasings:

- *Invention*: a verb of making something up in the imperative («придумай номер»,
  «сочините реквизиты», «сгенерируй акт»). An infinitive («что будет, если подделать
  счёт-фактуру?») asks about the law and is not one.
- *Personal choice*: a comparative of preference («лучше», «выгоднее», «надёжнее») with a
  verb of choosing or investing («во что лучше вложить», «какой банк лучше выбрать») in a
  question that names no tax or regime: a comparison of regimes («что выгоднее — УСН или
  ОСНО») is the knowledge base's.
- *Outside the domain*: a lemma of another domain (family law, goods to buy, leisure) and
  no lemma of a tax, money, accounting or document term («посоветуй смартфон», «как
  поделить дачу при разводе»), or a verb asking for a personal recommendation with no
  such term at all («посоветуйте стоматолога»: whatever it names); «амортизация ноутбука»
  stays in the domain, and so does a glossary cue («посоветуйте, что делать с камералкой»)
  and an accounting treatment («по какой статье учитывать покупку ноутбука»).

- *A task of another domain*: what the router took for small talk but asks the agent to
  do something (a verb in the imperative with a noun: «помоги написать поздравление»,
  «составь меню на неделю») with no such anchor and not about the agent itself («расскажи
  о себе»): no source of the agent's grounds it, whatever the task names. A how-to
  question (a manner word before an infinitive with a noun: «как испечь торт к празднику»)
  asks the same of the agent.

The word lists are data: ``finagent/question/data/requests.yaml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

from finagent.language.cues import has_any
from finagent.language.glossary import glossary_terms
from finagent.language.lemmas import can_be, part_of_speech
from finagent.language.text import analyse
from finagent.yaml_data import load_yaml


@cache
def _words(key: str) -> tuple[str, ...]:
    """One word list of ``data/requests.yaml``, in file order."""
    path = resources.files("finagent.question").joinpath("data/requests.yaml")
    table = load_yaml(path.read_text("utf-8")) or {}
    return tuple(str(w) for w in table[key])


def asks_invention(text: str) -> bool:
    """The user asks the agent to make data up («придумай номер счёта-фактуры»)."""
    for sentence in analyse(text).sentences:
        for token, lemma in zip(sentence.tokens, sentence.lemmas, strict=False):
            if lemma in _words("invent") and can_be(token.text, "impr"):
                return True
    return False


def asks_choice(text: str) -> bool:
    """The user asks which option to prefer where no norm decides («во что лучше вложить
    свободные деньги», «какой банк лучше выбрать»)."""
    for sentence in analyse(text).sentences:
        words = [t.text.lower() for t in sentence.tokens]
        lemmas = sentence.lemmas
        if any(lemma.startswith(_words("tax_stems")) for lemma in lemmas):
            continue
        if set(_words("prefer")) & set(words) and set(_words("choose")) & set(lemmas):
            return True
    return False


def asks_outside(text: str) -> bool:
    """The question is about a domain outside taxes, finance, accounting and the user's
    documents («какой планшет взять», «как оформить опеку»). A purpose clause («чтобы …»)
    only says why: a money word there anchors nothing («как вылечить насморк, чтобы не
    уходить на больничный»), a tax does («…, чтобы не платить налог»). An accounting
    treatment, in either clause, makes it an accounting question («по какой статье
    учитывать покупку ноутбука», «…, чтобы учесть в расходах»)."""
    main, purpose = _clauses(text)
    cues = set(_words("outside")) | set(_words("advise"))
    if not cues & set(main):
        return False
    anchors = (*_words("tax_stems"), *_words("anchor_stems"))
    if any(lemma.startswith(anchors) for lemma in main):
        return False
    if any(lemma.startswith(_words("tax_stems")) for lemma in purpose):
        return False
    # «по какой статье учитывать покупку ноутбука», «…, чтобы списать на затраты»
    if _accounts(main) or _accounts(purpose):
        return False
    return not (glossary_terms(text) if not purpose else glossary_terms(" ".join(main)))


def _clauses(text: str) -> tuple[list[str], list[str]]:
    """The lemmas of the question's main clauses and of its purpose clauses: from a word
    of purpose («чтобы») to the next punctuation mark."""
    main: list[str] = []
    purpose: list[str] = []
    opens = set(_words("purpose"))
    for sentence in analyse(text).sentences:
        inside = False
        for token in sentence.tokens:
            if token.lemma in opens:
                inside = True
            elif inside and not any(ch.isalnum() for ch in token.text):
                inside = False
            (purpose if inside else main).append(token.lemma)
    return main, purpose


def _accounts(lemmas: Sequence[str]) -> bool:
    """An accounting treatment: a phrase of one, or an everyday verb of one beside an
    accounting object («списать на затраты»; not «учитывая, что …»)."""
    if has_any(lemmas, _words("accounting")):
        return True
    return has_any(lemmas, _words("accounting_verbs")) and has_any(
        lemmas, _words("accounting_objects")
    )


def _anchored(lemmas: list[str], text: str) -> bool:
    """A lemma of a tax, money, accounting or document term, or a glossary cue."""
    anchors = (*_words("tax_stems"), *_words("anchor_stems"))
    if any(lemma.startswith(anchors) for lemma in lemmas) or _accounts(lemmas):
        return True
    return bool(glossary_terms(text))


def _how_to(lemmas: Sequence[str], words: Sequence[str]) -> bool:
    """A manner word just before an infinitive («как испечь», «каким образом посадить»)."""
    manner = set(_words("manner"))
    return any(
        lemmas[i - 1] in manner and part_of_speech(w) == "INFN" for i, w in enumerate(words) if i
    )


def asks_task_outside(text: str, vocabulary: frozenset[str] = frozenset()) -> bool:
    """A message taken for small talk that asks for a task outside the domain («помоги
    написать поздравление коллективу», «как испечь торт к празднику?»): an imperative verb,
    or a manner word before an infinitive, and a noun; no anchor of the domain or of the
    user's documents (``vocabulary``: their cards' lemmas), and no word addressing the
    agent itself."""
    task = False
    lemmas: list[str] = []
    for sentence in analyse(text).sentences:
        words = [t.text for t in sentence.tokens]
        lemmas += sentence.lemmas
        verbs = [w for w in words if part_of_speech(w) == "VERB" and can_be(w, "impr")]
        nouns = [
            lm
            for w, lm in zip(words, sentence.lemmas, strict=False)
            if part_of_speech(w) == "NOUN" and not can_be(w, "impr")
        ]
        asked = bool(verbs) or _how_to(sentence.lemmas, words)
        task = task or (asked and bool(nouns))
    if not task or set(_words("addressee")) & set(lemmas):
        return False
    return not _anchored(lemmas, text) and not vocabulary & set(lemmas)
