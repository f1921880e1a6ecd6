"""The learned sentence ranker of the direct composer: which candidate states the answer.

Each candidate sentence gets a small feature vector (:data:`FEATURES`): does it state a
value of the asked type (a rate question wants a percentage, an amount question a sum),
the asked tax or document field, e5 similarity to the question, overlap of lemmas, and
legal structure (the passage's rank, the sentence's place, the tax's rate article). A
logistic regression over them, trained offline on dev questions (``python -m
evals.ranker``), ships as ``data/ranker.json`` with a digest of the feature names and
weights; serving never trains. A file that does not verify is refused and the prior
weights (:data:`PRIOR`) rank instead.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from finagent.answering.asked_values import asked_values, states_asked, value_type
from finagent.answering.dated_items import matching_items
from finagent.answering.evidence import MAX_SENTENCE_CHARS, Candidate
from finagent.answering.polarity import denial_mismatch, other_actor
from finagent.answering.sentence_profile import SentenceProfile, profile
from finagent.answering.set_aside import names_set_aside, set_aside
from finagent.cards.fields import BY_KEY as FIELD_BY_KEY
from finagent.language.compounds import compounds_named
from finagent.language.cues import cue_lemmas, has_any
from finagent.language.glossary import glossary_terms
from finagent.language.lemmas import part_of_speech
from finagent.observability import get_logger
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS, TAXES
from finagent.retrieval.tax_focus import TaxFocus

log = get_logger("finagent.answering.ranker")

RANKER_FILE = "ranker.json"
FEATURES = (
    "semantic",
    "semantic_gap",
    "lexical",
    "type_match",
    "tax_named",
    "field_named",
    "figure",
    "rate_article",
    "passage_rank",
    "sentence_position",
    "length",
    "is_law",
    "unasked_exception",
    "title_match",
    "example",
    "dated_item",
)
# the conditions the Code qualifies a rule by: an extension, suspension, exception, repeat
# or intent. A sentence of a condition the question does not ask about («может быть продлен
# до трех месяцев», «за исключением», «при повторном нарушении») is not the general rule
# stated beside it (``unasked_exception``); one of a condition the question sets aside
# («если её не продлевали», «без учета продления») goes after the rule (EXCLUDED_PENALTY).
# A bonus for an asked condition was tried and left out (cross-validation, docs)
EXCEPTIONS = {
    "продлить": "prolong",
    "продлевать": "prolong",
    "продление": "prolong",
    "приостановить": "suspend",
    "приостанавливать": "suspend",
    "приостановление": "suspend",
    "увеличить": "increase",
    "увеличивать": "increase",
    "исключение": "except",
    "повторный": "repeat",
    "повторно": "repeat",
    "исключительный": "except",
    "умышленно": "intent",
    "умышленный": "intent",
    "умысел": "intent",
    # a regime lost or an activity ceased: the Code states its own term beside the rule
    # («…не позднее 25-го числа месяца, следующего за кварталом, в котором … утратил право»)
    "утратить": "loss",
    "утрачивать": "loss",
    "утрата": "loss",
    "прекратить": "cease",
    "прекращать": "cease",
    "прекращение": "cease",
    # a special kind of taxpayer the Code sets its own term for («…консолидированной группы
    # налогоплательщиков представляются ответственным участником…»)
    "консолидированный": "group",
    # the Code's other special regimes and procedures, each with rules of its own beside the
    # general one: controlled foreign companies («контролирующее лицо … контролируемой
    # иностранной компании», ст. 129.5 beside ст. 122), a supplement to an inspection
    # report («возражения по дополнению к акту», ст. 101 п. 6.2 beside ст. 100 п. 6)
    "контролировать": "controlled",  # pymorphy3 reads both participles as the verb
    "дополнение": "supplement",
    # a counter-check: documents on a counterparty demanded by ст. 93.1, with a term and a
    # fine of their own beside those of a taxpayer's own inspection
    "встречный": "counter",
    "встречка": "counter",
}
# the hand-set ranking of the extractive composer, as weights of the same features
PRIOR = {
    "semantic": 25.0,
    "lexical": 1.0,
    "figure": 0.25,
    "rate_article": 0.75,
    "passage_rank": 0.15,
    "sentence_position": 0.3,
    "length": -0.25,
    "type_match": 0.5,
    "unasked_exception": -0.5,
    "title_match": 0.5,
    "example": -0.5,
    "dated_item": 0.5,
}


@dataclass(frozen=True)
class RankerModel:
    features: tuple[str, ...]
    weights: np.ndarray
    bias: float
    source: str  # "shipped" or "prior"

    def scores(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x @ self.weights + self.bias)


def model_digest(features: list[str] | tuple[str, ...], weights: list[float], bias: float) -> str:
    """sha256 of the feature names and the rounded weights: a file edited by hand or made
    for other features does not verify."""
    payload = json.dumps(
        {"features": list(features), "weights": [round(w, 8) for w in weights], "bias": bias},
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def prior_model() -> RankerModel:
    weights = np.asarray([PRIOR.get(name, 0.0) for name in FEATURES], dtype=np.float64)
    return RankerModel(FEATURES, weights, 0.0, "prior")


def parse_model(data: dict[str, Any]) -> RankerModel:
    """The model a ranker file holds; ValueError when it does not verify."""
    features = tuple(str(f) for f in data["features"])
    weights = [float(w) for w in data["weights"]]
    bias = round(float(data["bias"]), 8)
    if features != FEATURES:
        raise ValueError(f"ranker features {features} are not {FEATURES}")
    if len(weights) != len(features):
        raise ValueError("one weight per feature expected")
    if data.get("digest") != model_digest(features, weights, bias):
        raise ValueError("ranker digest does not match its weights")
    return RankerModel(features, np.asarray(weights, dtype=np.float64), bias, "shipped")


@cache
def shipped_model() -> RankerModel:
    """The shipped weights, or the prior when the file is missing or does not verify."""
    entry = resources.files("finagent.answering").joinpath("data", RANKER_FILE)
    try:
        return parse_model(json.loads(entry.read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("ranker_weights_refused", error=str(exc)[:200])
        return prior_model()


def _lemma_set(phrases: tuple[str, ...]) -> frozenset[str]:
    return frozenset(lm for phrase in phrases for lm in cue_lemmas(phrase))


@cache
def _tax_cues(key: str) -> tuple[str, ...]:
    tax = next((t for t in TAXES if t.key == key), None)
    return tax.cues if tax else ()


def _names_tax(p: SentenceProfile, taxes: tuple[str, ...]) -> bool:
    """Whether the sentence names an asked tax by one of its whole names («налог на
    добавленную стоимость», «НДС»): a word of a name alone («налог») names every tax."""
    return any(has_any(p.sequence, _tax_cues(t)) for t in taxes)


@cache
def _field_lemmas(key: str) -> frozenset[str]:
    field = FIELD_BY_KEY.get(key)
    return _lemma_set((*field.cues, field.name)) - STOP_LEMMAS if field else frozenset()


def _exceptions(lemmas: Iterable[str]) -> set[str]:
    return {EXCEPTIONS[lm] for lm in lemmas if lm in EXCEPTIONS}


# «если её не продлевали», «без учета продления»: the question excludes the condition
_NEGATIONS = frozenset({"не", "без", "кроме"})
NEGATION_REACH = 2  # lemmas before the condition a negation may stand
_COORDINATION = frozenset({"и", "или", ","})
# a sentence of a condition the question sets aside: a fixed penalty (logit units), as
# such questions are too rare in the dev rounds to learn a weight
EXCLUDED_PENALTY = 3.0
# a sentence that denies what a value question asks in the affirmative and states no value
# of its type («не учитываются следующие расходы» for «в каком размере можно учесть»), or
# whose subject is an actor the question does not name («Налоговый орган обязан в течение
# пяти дней …» for the taxpayer's payment): a tie-break (logit units). As features of the
# learned ranker they took no weight on the dev rounds it is fitted on (cross-validated
# top-1 unchanged, see docs/direct-answers-history.md): too few of their questions turn on them.
DENIAL_PENALTY = 2.0
ACTOR_PENALTY = 2.0
_VALUE_TYPES = frozenset({"rate", "amount", "limit", "period", "date"})


_VERBS = frozenset({"VERB", "INFN"})


def _negates(before: list[str]) -> bool:
    """A negation among ``before`` (the lemmas just before a condition) reaches the
    condition, unless a verb stands between them: «не» negates the verb it precedes
    («налог не доплатили умышленно»: the payment is negated, the intent is asked), while
    «если её не продлевали», «без учета продления» exclude the condition."""
    at = max((i for i, lm in enumerate(before) if lm in _NEGATIONS), default=-1)
    if at < 0:
        return False
    return not any(part_of_speech(lm) in _VERBS for lm in before[at + 1 :])


def _conditions_of(lemmas: list[str]) -> tuple[set[str], set[str]]:
    """The conditions a question asks about, and those it excludes (a negation reaches the
    conditions coordinated with the one it precedes: «без продления и приостановления»;
    a negated verb before a condition does not exclude it: «не доплатили умышленно»)."""
    asked: set[str] = set()
    excluded: set[str] = set()
    negated = False
    for i, lm in enumerate(lemmas):
        if lm not in EXCEPTIONS:
            continue
        before = lemmas[max(0, i - NEGATION_REACH) : i]
        coordinated = negated and i > 0 and lemmas[i - 1] in _COORDINATION
        negated = _negates(before) or coordinated
        (excluded if negated else asked).add(EXCEPTIONS[lm])
    return asked, excluded - asked


def asked_conditions(lemmas: list[str]) -> set[str]:
    """The conditions a question asks about, not those it excludes."""
    return _conditions_of(lemmas)[0]


def excluded_conditions(lemmas: list[str]) -> set[str]:
    """The conditions a question sets aside («если её не продлевали», «без учета
    продления»): a sentence of one of them does not answer it."""
    return _conditions_of(lemmas)[1]


# a sanction is a sum or a share of the tax: «штраф 40 процентов», «пени 1/300 ставки»
_SANCTIONS = frozenset({"штраф", "пеня", "пени", "неустойка"})


def type_match(p: SentenceProfile, question: Question) -> bool:
    """The sentence states a value of the asked type; for a sanction asked as an amount, a
    share of the tax too («штраф в размере 40 процентов»)."""
    if states_asked(p, question):
        return True
    sanction = value_type(question) == "amount" and bool(_SANCTIONS & set(question.lemmas))
    return sanction and bool(asked_values(p, question, "rate"))


@cache
def _title_lemmas(title: str) -> frozenset[str]:
    return profile(title).lemmas - STOP_LEMMAS


@cache
def _official_lemmas(text: str) -> frozenset[str]:
    """Lemmas of the official terms of the question's slang («камералка» -> «камеральная
    налоговая проверка»): the sentences and headings use those words."""
    return _lemma_set(tuple(glossary_terms(text)))


def _title(candidate: Candidate) -> str:
    """The heading a passage's sentence stands under: the article's title for the Code, the
    «article / section» line a knowledge-base or document passage opens with."""
    chunk = candidate.chunk
    if chunk.source == "law":
        return str(chunk.metadata.get("article_title") or chunk.title or "")
    first, _, rest = chunk.text.partition("\n")
    return first if rest else chunk.title or ""


def features(question: Question, found: list[Candidate], focus: TaxFocus | None) -> np.ndarray:
    """One row of :data:`FEATURES` per candidate (``semantic`` already set by the caller).

    A list item is compared with the question together with its lead-in (``lexical``), a
    clipped compound of the question by its words written out; its values and conditions
    are its own."""
    topic = (set(question.topic) | _official_lemmas(question.text)) - STOP_LEMMAS
    fields = [_field_lemmas(f) for f in question.fields]
    best = max((c.semantic for c in found), default=0.0)
    asked = asked_conditions(question.lemmas)
    dated = matching_items(question, found)
    rows = []
    for c in found:
        p = profile(c.sentence)
        words = p.lemmas | profile(c.context).lemmas if c.context else p.lemmas
        # a clipped compound of the question the sentence writes out («медосмотр» —
        # «медицинский осмотр») is a word it shares
        words = words | compounds_named(topic - words, p.sequence)
        conditions = _exceptions(p.lemmas)
        rows.append(
            [
                c.semantic,
                c.semantic - best,
                len(words & topic) / max(1, len(topic)),
                float(type_match(p, question)),
                float(_names_tax(p, tuple(question.taxes))),
                float(any(f and f & p.lemmas for f in fields)),
                float(p.digits),
                float(focus is not None and focus.rate_article(c.chunk)),
                1.0 / (1 + c.rank),
                1.0 / (1 + c.position),
                min(len(c.sentence), MAX_SENTENCE_CHARS) / MAX_SENTENCE_CHARS,
                float(c.chunk.source == "law"),
                float(bool(conditions - asked)),
                len(_title_lemmas(_title(c)) & topic) / max(1, len(topic)),
                float(c.example),
                float(id(c) in dated),
            ]
        )
    return np.asarray(rows, dtype=np.float64).reshape(len(found), len(FEATURES))


def rank_learned(
    question: Question,
    found: list[Candidate],
    focus: TaxFocus | None,
    model: RankerModel | None = None,
) -> list[Candidate]:
    """``found`` best first by the model's score (kept in ``Candidate.score``)."""
    if not found:
        return []
    model = model or shipped_model()
    scores = model.scores(features(question, found, focus))
    excluded = excluded_conditions(question.lemmas)
    without = set_aside(question.text)
    valued = question.answer_type in _VALUE_TYPES
    for c, score in zip(found, scores, strict=True):
        c.score = float(score)
        c.learned = True
        if valued and c.chunk.source != "user_docs":
            text = f"{c.context}: {c.sentence}" if c.context else c.sentence
            # a denial that states the asked value answers («…доход превысил 450 000
            # рублей, налоговый вычет … не применяется»)
            stating = type_match(profile(c.sentence), question)
            if not stating and denial_mismatch(text, question.text):
                c.score -= DENIAL_PENALTY
            if other_actor(profile(c.sentence).sequence, question.text):
                c.score -= ACTOR_PENALTY
        if excluded and _exceptions(profile(c.sentence).lemmas) & excluded:
            c.score -= EXCLUDED_PENALTY
        elif without and c.chunk.source != "user_docs":
            if names_set_aside(profile(c.ranked_text), without):
                c.score -= EXCLUDED_PENALTY
    return sorted(found, key=lambda c: -c.score)
