"""The asked action's time limit among a chapter's others (the timed Code search), its quote,
and a date that is no figure of the question.

Questions and sentences written for these mechanisms (an excise return, a made-up levy,
a trade-levy notice), about no evaluation item.
"""

from __future__ import annotations

import asyncio

import numpy as np

from finagent.answering.asked_values import asked_values
from finagent.answering.code_norm import code_norm
from finagent.answering.evidence import Candidate
from finagent.answering.sentence_profile import profile
from finagent.config import Settings
from finagent.question.acts import asked_action, time_nouns
from finagent.question.build import build_question
from finagent.retrieval.index import SearchHit, SearchQuery
from finagent.retrieval.retriever import NORM_ONLY, TIMED_LEG, Retriever
from finagent.retrieval.sparse import RussianBm25
from finagent.retrieval.tax_focus import (
    ACT_WEIGHT,
    DEADLINE_WEIGHT,
    question_objects,
    timed_focus,
)
from finagent.state import Chunk
from tests.fakes.search_index import Hit, RecordingIndex

FILE_QUESTION = "До какого числа сдать декларацию по акцизам за май?"
PAY_QUESTION = "Акциз за май до какого числа перечислить?"
RETURN_TERM = "Налогоплательщики представляют декларацию по акцизам не позднее 20-го числа месяца."
PAYMENT_TERM = "Уплата акциза производится не позднее 25-го числа месяца, следующего за истекшим."
LICENCE_TERM = "Заявление о выдаче свидетельства представляется в течение 30 дней."
LAW = {"source": "law", "chapter": "22"}


def _law(text: str, cid: str = "art204#0") -> Chunk:
    return Chunk(id=cid, text=text, source="law", metadata={"chapter": "22"})


def test_the_asked_action_and_its_object_weigh_up_the_point_stating_its_time_limit() -> None:
    filing = timed_focus(build_question(FILE_QUESTION))
    assert filing is not None and filing.act == "file"
    assert {"декларация", "акциз"} <= filing.objects
    assert filing.weight(_law(RETURN_TERM)) == ACT_WEIGHT
    assert filing.weight(_law(PAYMENT_TERM)) == DEADLINE_WEIGHT  # another action's limit
    # the asked action, but of another object: a licence's application, not the return
    assert filing.weight(_law(LICENCE_TERM)) == DEADLINE_WEIGHT
    paying = timed_focus(build_question(PAY_QUESTION))
    assert paying is not None and paying.act == "pay"
    assert paying.weight(_law(PAYMENT_TERM)) == ACT_WEIGHT
    assert paying.weight(_law(RETURN_TERM)) == DEADLINE_WEIGHT
    # no one action asked: every time limit weighs the same, as before
    neither = timed_focus(build_question("Когда наступает срок по акцизу за май?"))
    assert neither is not None and neither.act is None
    assert neither.weight(_law(RETURN_TERM)) == DEADLINE_WEIGHT


def test_the_object_leaves_out_the_asked_time_and_the_actions_own_words() -> None:
    objects = question_objects("В какой срок подать уведомление об уплате торгового сбора?")
    assert "уведомление" in objects and "сбор" in objects
    assert not objects & {"срок", "уплата"}  # the asked time; an action's own noun
    assert {"число", "месяц", "день", "июль"} <= time_nouns()
    question = build_question("Когда подавать расчет по взносам за девять месяцев?")
    assert asked_action(question) == "file"


def test_the_timed_search_brings_the_asked_actions_point_before_a_better_ranked_one() -> None:
    index = RecordingIndex(
        [
            ("art204.p3#0", 0.9, {**LAW, "text": PAYMENT_TERM}),
            ("art204.p5#0", 0.8, {**LAW, "text": RETURN_TERM}),
        ]
    )
    retriever = Retriever(index, embedder=None, bm25=RussianBm25(), settings=Settings())  # type: ignore[arg-type]
    vectors = {FILE_QUESTION: np.zeros(4, dtype=np.float32)}
    focus = timed_focus(build_question(FILE_QUESTION))
    found = asyncio.run(
        retriever.code_extra(
            "kb", FILE_QUESTION, [], limit=0, vectors=vectors, timed=1, timed_focus=focus
        )
    )
    assert [(c.id, c.metadata[NORM_ONLY]) for c in found] == [("art204.p5#0", TIMED_LEG)]
    assert sorted(q.mode or "" for q in index.asked) == ["dense", "sparse"]
    paying = timed_focus(build_question(PAY_QUESTION))
    found = asyncio.run(
        retriever.code_extra(
            "kb",
            PAY_QUESTION,
            [],
            limit=0,
            vectors={PAY_QUESTION: np.zeros(4)},
            timed=1,
            timed_focus=paying,
        )
    )
    assert [c.id for c in found] == ["art204.p3#0"]


class _ModeIndex(RecordingIndex):
    """Other hits for the dense search than for the lexical one."""

    def __init__(self, by_mode: dict[str, list[Hit]]) -> None:
        super().__init__([])
        self.by_mode = by_mode

    async def search(self, collection: str, query: SearchQuery) -> list[SearchHit]:
        self.asked.append(query)
        hits = self.by_mode[query.mode or "dense"]
        return [SearchHit(cid, score, payload) for cid, score, payload in hits]


def test_a_point_both_timed_searches_rank_goes_before_one_only_the_dense_search_ranks() -> None:
    # two points state the return's filing term; the dense search ranks a special case
    # (a processing certificate's holders) first and the general term third, the lexical
    # search ranks the general term first: fused, the general term leads
    special = (
        "Налогоплательщики, имеющие свидетельство о переработке, представляют декларацию "
        "по акцизам не позднее 25-го числа месяца."
    )
    index = _ModeIndex(
        {
            "dense": [
                ("art204.p5.1#0", 0.9, {**LAW, "text": special}),
                ("art204.p3#0", 0.8, {**LAW, "text": PAYMENT_TERM}),
                ("art204.p5#0", 0.7, {**LAW, "text": RETURN_TERM}),
            ],
            "sparse": [
                ("art204.p5#0", 9.0, {**LAW, "text": RETURN_TERM}),
                ("art200.p1#0", 8.0, {**LAW, "text": "Акцизы исчисляются по ставкам."}),
            ],
        }
    )
    retriever = Retriever(index, embedder=None, bm25=RussianBm25(), settings=Settings())  # type: ignore[arg-type]
    focus = timed_focus(build_question(FILE_QUESTION))
    found = asyncio.run(
        retriever.code_extra(
            "kb",
            FILE_QUESTION,
            [],
            limit=0,
            vectors={FILE_QUESTION: np.zeros(4, dtype=np.float32)},
            timed=2,
            timed_focus=focus,
        )
    )
    assert [c.id for c in found] == ["art204.p5#0", "art204.p5.1#0"]


def test_a_date_is_not_taken_for_a_figure_the_question_states() -> None:
    question = build_question("Сбор 3 % с выручки — до какого числа его внести?")
    sentence = "Сбор уплачивается не позднее 3 марта года, следующего за истекшим."
    assert asked_values(profile(sentence), question) == ("3 марта",)
    # a figure of the same kind is still the question's own, not the asked value
    rate = build_question("Ставка сбора 3 %, а какая ставка для торговли с лотков?")
    assert asked_values(profile("Ставка сбора составляет 3 процента."), rate) == ()


KB = Chunk(id="kb7#0", text="", source="kb", title="Акцизы: сроки")
DENSE = Chunk(
    id="art200#0",
    text="",
    source="law",
    metadata={"unit_id": "nk2.art200", "citation": "ст. 200 НК РФ", NORM_ONLY: "dense"},
)
TIMED = Chunk(
    id="art204.p5#0",
    text="",
    source="law",
    metadata={"unit_id": "nk2.art204.p5", "citation": "п. 5 ст. 204 НК РФ", NORM_ONLY: TIMED_LEG},
)


def test_the_timed_legs_sentence_of_the_asked_type_is_quoted_before_the_other_legs() -> None:
    question = build_question(FILE_QUESTION)
    ranked = [Candidate(KB, 1, "Декларацию по акцизам сдают ежемесячно.", 0, 0, score=3.0)]
    dense_dated = "Налоговые вычеты по акцизам производятся не позднее 1-го числа месяца."
    extra = [
        Candidate(DENSE, 2, dense_dated, 1, 0, score=-1.0),
        Candidate(TIMED, 3, RETURN_TERM, 2, 0, score=-2.0),
    ]
    chosen = code_norm(question, ranked, ["Декларацию по акцизам сдают ежемесячно."], extra, True)
    assert chosen is not None and chosen.sentence == RETURN_TERM
    # without the timed leg's, the other legs' order as before
    chosen = code_norm(
        question, ranked, ["Декларацию по акцизам сдают ежемесячно."], extra[:1], True
    )
    assert chosen is not None and chosen.sentence == dense_dated
