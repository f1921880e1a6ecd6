"""The Code-only searches' passages: quoted only as «Норма НК РФ», never leading."""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np

from finagent.answering.code_norm import code_norm
from finagent.answering.context import build_context
from finagent.answering.direct import compose_direct
from finagent.answering.evidence import Candidate, candidates, main_chunks, norm_candidates
from finagent.answering.messages import CODE_NORM
from finagent.config import Settings
from finagent.question.build import build_question
from finagent.retrieval.index import SearchFilter, SearchHit, SearchQuery
from finagent.retrieval.retriever import NORM_ONLY, Retriever
from finagent.retrieval.sparse import RussianBm25
from finagent.state import Chunk
from tests.fakes.search_index import RecordingIndex

QUESTION = "Сколько дней длится выездная проверка у предпринимателя?"
KB_SENTENCE = "Выездная проверка обычно занимает несколько месяцев."
CODE_RULE = "Выездная налоговая проверка не может продолжаться более двух месяцев."
CODE_OTHER = "Выездная налоговая проверка проводится на основании решения руководителя."
KB = Chunk(id="kb9#0", text=KB_SENTENCE, source="kb", title="Выездные проверки", score=0.03)
LAW = Chunk(
    id="art89.p6#0",
    text=CODE_OTHER,
    source="law",
    score=0.02,
    metadata={"unit_id": "nk1.art89.p6", "citation": "п. 6 ст. 89 НК РФ"},
)
EXTRA = Chunk(
    id="art89.p6.1#0",
    text=CODE_RULE,
    source="law",
    score=0.01,
    metadata={"unit_id": "nk1.art89.p6.1", "citation": "п. 6.1 ст. 89 НК РФ", NORM_ONLY: "dense"},
)


# a made-up term-of-art point the dense model ranks low and BM25 finds by its rare words
CODE_TERM = "Срок камеральной проверки уточненной декларации составляет три месяца."
LEXICAL = Chunk(
    id="art88.p2#0",
    text=CODE_TERM,
    source="law",
    score=0.01,
    metadata={"unit_id": "nk1.art88.p2", "citation": "п. 2 ст. 88 НК РФ", NORM_ONLY: "sparse"},
)


def test_the_code_search_adds_passages_the_results_lack_flagged_and_after_them() -> None:
    payload = {"source": "law", "text": CODE_RULE, "unit_id": "nk1.art89.p6.1"}
    index = RecordingIndex(
        [("art89.p6#0", 0.9, {**payload, "text": CODE_OTHER}), ("art89.p6.1#0", 0.8, payload)]
    )
    retriever = Retriever(index, embedder=None, bm25=RussianBm25(), settings=Settings())  # type: ignore[arg-type]
    vectors = {QUESTION: np.zeros(4, dtype=np.float32)}
    found = asyncio.run(retriever.code_extra("kb", QUESTION, [KB, LAW], limit=2, vectors=vectors))
    assert [c.id for c in found] == ["art89.p6.1#0"]  # the one the results hold is skipped
    assert found[0].metadata[NORM_ONLY] == "dense" and found[0].score < LAW.score
    asked = index.asked[0]
    assert asked.mode == "dense" and asked.filter == SearchFilter(source="law")
    assert asyncio.run(retriever.code_extra("kb", QUESTION, [KB], limit=0)) == []


class _ModeIndex(RecordingIndex):
    """Other hits for each search mode."""

    def __init__(self, by_mode: dict[str, list[tuple[str, float, dict[str, Any]]]]) -> None:
        super().__init__([])
        self.by_mode = by_mode

    async def search(self, collection: str, query: SearchQuery) -> list[SearchHit]:
        self.asked.append(query)
        return [SearchHit(cid, s, payload) for cid, s, payload in self.by_mode[query.mode]]


def test_the_lexical_search_adds_passages_neither_the_results_nor_the_dense_one_hold() -> None:
    law = {"source": "law"}
    index = _ModeIndex(
        {
            "dense": [("a#0", 0.9, {**law, "text": "A"}), ("b#0", 0.8, {**law, "text": "B"})],
            "sparse": [
                ("art89.p6#0", 9.0, {**law, "text": CODE_OTHER}),
                ("b#0", 8.0, {**law, "text": "B"}),
                ("c#0", 7.0, {**law, "text": "C"}),
                ("d#0", 6.0, {**law, "text": "D"}),
            ],
        }
    )
    retriever = Retriever(index, embedder=None, bm25=RussianBm25(), settings=Settings())  # type: ignore[arg-type]
    vectors = {QUESTION: np.zeros(4, dtype=np.float32)}
    found = asyncio.run(
        retriever.code_extra("kb", QUESTION, [KB, LAW], limit=2, lexical=1, vectors=vectors)
    )
    assert [(c.id, c.metadata[NORM_ONLY]) for c in found] == [
        ("a#0", "dense"),
        ("b#0", "dense"),
        ("c#0", "sparse"),  # the results' and the dense search's passages are skipped
    ]
    assert {q.mode for q in index.asked} == {"dense", "sparse"}
    assert all(q.filter == SearchFilter(source="law") for q in index.asked)
    only = asyncio.run(retriever.code_extra("kb", QUESTION, [KB], limit=0, lexical=1))
    assert [c.id for c in only] == ["art89.p6#0"]


def test_flagged_passages_are_no_candidates_of_the_lead_and_no_evidence() -> None:
    ctx = build_context([KB, LAW, EXTRA], [], 10_000)
    assert EXTRA.id not in {c.chunk.id for c in candidates(ctx)}
    assert [c.chunk.id for c in norm_candidates(ctx)] == [EXTRA.id]
    assert [c.id for c in main_chunks(ctx.chunks)] == [KB.id, LAW.id]


def _ranked() -> list[Candidate]:
    return [
        Candidate(KB, 1, KB_SENTENCE, 0, 0, score=3.0, learned=True),
        Candidate(LAW, 2, CODE_OTHER, 1, 0, score=-2.0, learned=True),
    ]


def test_the_turns_candidates_go_first_and_the_code_search_fills_one_more_quote() -> None:
    question = build_question(QUESTION)
    extra = [Candidate(EXTRA, 3, CODE_RULE, 9, 0, score=0.5)]
    chosen = code_norm(question, _ranked(), [KB_SENTENCE], extra)
    assert chosen is not None and chosen.sentence == CODE_OTHER  # as without the search
    alone = code_norm(question, _ranked(), [KB_SENTENCE], extra, extra_only=True)
    assert alone is not None and alone.sentence == CODE_RULE
    ctx = build_context([KB, LAW, EXTRA], [], 10_000)
    body = compose_direct(question, ctx, _ranked(), [], norms=extra)
    summary, details = body.split("## Подробный анализ")
    assert CODE_RULE not in summary  # never the lead
    assert f"**{CODE_NORM}, п. 6.1 ст. 89 НК РФ**: «{CODE_RULE}» [3]" in details
    without = compose_direct(question, ctx, _ranked(), [])
    assert CODE_RULE not in without


def test_each_code_search_that_brought_passages_adds_one_quote() -> None:
    question = build_question("Сколько длится камеральная проверка уточненной декларации?")
    extra = [
        Candidate(EXTRA, 3, CODE_RULE, 9, 0, score=0.5),
        Candidate(LEXICAL, 4, CODE_TERM, 10, 0, score=0.4),
    ]
    ctx = build_context([KB, LAW, EXTRA, LEXICAL], [], 10_000)
    details = compose_direct(question, ctx, _ranked(), [], norms=extra).split(
        "## Подробный анализ"
    )[1]
    assert f"«{CODE_TERM}» [4]" in details and f"«{CODE_RULE}» [3]" in details
    dense_only = compose_direct(question, ctx, _ranked(), [], norms=extra[:1])
    assert CODE_TERM not in dense_only


# made-up points of an excise chapter: what the return holds, and by when it is filed
RETURN_CONTENT = "В декларации по акцизам указываются объем реализованной продукции и сумма акциза."
RETURN_TERM = "Декларация по акцизам представляется не позднее 20-го числа второго месяца."
EXCISE_QUESTION = "Когда подавать декларацию по акцизам за квартал?"


def test_a_time_limit_question_gets_the_point_of_its_tax_that_states_one() -> None:
    from finagent.retrieval.retriever import TIMED_LEG
    from finagent.retrieval.tax_focus import timed_focus

    law = {"source": "law", "chapter": "22"}
    index = RecordingIndex(
        [
            ("art198.p1#0", 0.9, {**law, "text": RETURN_CONTENT}),
            ("art204.p5#0", 0.8, {**law, "text": RETURN_TERM}),
        ]
    )
    retriever = Retriever(index, embedder=None, bm25=RussianBm25(), settings=Settings())  # type: ignore[arg-type]
    vectors = {EXCISE_QUESTION: np.zeros(4, dtype=np.float32)}
    focus = timed_focus(build_question(EXCISE_QUESTION))
    assert focus is not None and focus.chapters == ("22",)
    found = asyncio.run(
        retriever.code_extra(
            "kb", EXCISE_QUESTION, [KB], limit=0, vectors=vectors, timed=1, timed_focus=focus
        )
    )
    assert [(c.id, c.metadata[NORM_ONLY]) for c in found] == [("art204.p5#0", TIMED_LEG)]
    asked = index.asked[0]
    assert asked.mode == "dense" and asked.filter is not None
    assert asked.filter.extra["chapter"] == ["22"]  # inside the named tax's chapter
    have = [KB, Chunk(id="art204.p5#0", text=RETURN_TERM, source="law", score=0.02)]
    again = retriever.code_extra(
        "kb", EXCISE_QUESTION, have, limit=0, vectors=vectors, timed=1, timed_focus=focus
    )
    assert asyncio.run(again) == []  # the results hold it already: nothing else is added


def test_only_a_time_limit_question_has_the_timed_focus_and_a_report_names_its_tax() -> None:
    from finagent.retrieval.tax_focus import timed_focus

    assert timed_focus(build_question("Какая ставка акциза на пиво?")) is None
    report = timed_focus(build_question("До какого числа отправить РСВ за девять месяцев?"))
    assert report is not None and report.chapters == ("34",)  # расчет по страховым взносам
    own = timed_focus(build_question("Когда крайний срок подачи 3-ндфл по вычету на лечение?"))
    assert own is not None and own.chapters == ("23",)
    none = timed_focus(build_question("В какой срок отвечать на требование инспекции?"))
    assert none is not None and none.chapters == ()  # the whole Code is searched
