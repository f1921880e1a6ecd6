"""Bugs a blind review of stop 40 found, each in wording written for this test (no eval
item's): a conditional exception read as a denial, a role's case from one parse, a
promoted Code point keeping its own score, an invented factor in an equation, «об» of a
complement, a condition's synonym, the vocabulary's strong and best documents, a failing
Code-only BM25 leg."""

from __future__ import annotations

import asyncio
from datetime import date

import numpy as np
from qdrant_client import models as qm
from structlog.testing import capture_logs

from finagent.answering.acted_party import acted_roles, acting_roles
from finagent.answering.condition_terms import lacks_condition, measured_terms
from finagent.answering.evidence import Candidate
from finagent.answering.figures import check_figures, computed
from finagent.answering.named_object import complements
from finagent.answering.norm_subject import prefer_norm_subject
from finagent.answering.polar_answer import polar_verdict
from finagent.answering.sentence_profile import profile
from finagent.config import Settings
from finagent.question.build import build_question
from finagent.retrieval.index import DENSE, point_uuid
from finagent.retrieval.qdrant_index import QdrantServerIndex
from finagent.retrieval.retriever import NORM_ONLY, SEMANTIC_LEG, Retriever
from finagent.retrieval.sparse import RussianBm25
from finagent.routing.distinctive import VocabularyHits
from finagent.state import Chunk

TODAY = date(2026, 11, 28)


def _document(*sentences: str) -> list[Candidate]:
    chunk = Chunk(id="deposit:0", text=" ".join(sentences), source="user_docs", title="Договор")
    chunk.document_id = "deposit"
    return [Candidate(chunk, 1, s, 0, i, score=1.0 - 0.1 * i) for i, s in enumerate(sentences)]


# 1. polar_answer: a condition's «не» is no denial; words match by lemma, not 5 letters
def test_a_conditional_exception_is_no_denial() -> None:
    question = build_question("начисляются ли проценты на остаток депозита?", TODAY)
    rule = (
        "Проценты на остаток депозита начисляются ежемесячно, если иное не предусмотрено "
        "дополнительным соглашением."
    )
    assert polar_verdict(question, _document(rule)) is None
    denial = "Проценты на остаток депозита не начисляются."
    verdict = polar_verdict(question, _document(denial))
    assert verdict is not None and verdict.answer == "Нет"


def test_words_sharing_five_letters_only_are_not_the_asked_ones() -> None:
    question = build_question("начисляется ли компенсация за предоплату?", TODAY)
    assert question.polar
    # «компетентный» is not «компенсация», «предоставление» is not «предоплата»
    unrelated = "Предоставление компетентного специалиста не производится."
    assert polar_verdict(question, _document(unrelated)) is None


# 2. acted_party: «Банк» may be nominative or accusative; the syntax decides
def test_an_inanimate_role_after_an_infinitive_or_a_gerund_is_its_object() -> None:
    assert "bank" in acted_roles("Клиент обязан письменно уведомить Банк за 10 дней.")
    assert "bank" in acted_roles("Расторгнуть договор можно, уведомив Банк за 10 дней.")
    assert "bank" not in acting_roles("Клиент обязан письменно уведомить Банк за 10 дней.")


def test_an_inanimate_role_after_a_finite_verb_with_a_subject_before_is_its_object() -> None:
    assert "bank" in acted_roles("Клиент уведомляет Банк о смене адреса за 5 дней.")
    assert acting_roles("Клиент уведомляет Банк о смене адреса за 5 дней.") == {"client"}
    # no subject before the verb: the most probable reading, the payer
    assert acting_roles("какую комиссию платит банк?") == {"bank"}
    assert "seller" not in acted_roles("какие пени платит продавец?")


def test_a_role_of_another_clause_is_no_subject_before_the_verb() -> None:
    # «Клиент» is the condition's subject: «Банк» after «удерживает» acts
    text = "Если Клиент закрыл счёт досрочно, комиссию удерживает Банк."
    assert "bank" not in acted_roles(text)


# 3. norm_subject: the promoted Code point comes first, scored as the former first
def test_the_promoted_code_point_is_scored_at_least_as_the_former_first() -> None:
    law = Chunk(id="nk.a#1", text="", source="law", title="ст. 901 НК РФ")
    norm = Chunk(
        id="nk.b#2",
        text="",
        source="law",
        title="ст. 902 НК РФ",
        metadata={NORM_ONLY: SEMANTIC_LEG},  # only the dense search's points are promoted
    )
    other = "взносы работодателя на учебный счёт, но не более 7 000 рублей в год на работника;"
    subject = (
        "стоимость грамот, полученных работником от работодателя, не превышающая 2 500 рублей;"
    )
    question = build_question("Какая сумма грамот работнику в год не облагается НДФЛ?")
    first = Candidate(law, 1, other, 0, 0, score=4.0, learned=True)
    second = Candidate(law, 1, other.replace("7 000", "8 000"), 0, 1, score=3.5, learned=True)
    found = Candidate(norm, 1, subject, 0, 0, score=0.2, learned=True)
    ranked, norms = prefer_norm_subject(question, [first, second], [found])
    assert ranked[0].sentence == found.sentence and not norms
    assert ranked[0].score >= first.score  # a later sort by score keeps it first
    assert sorted(ranked, key=lambda c: -c.score)[0] is ranked[0]
    assert found.score == 0.2  # a copy is promoted: the dense leg's candidate is unchanged


# 4. figures: a factor or divisor must be known, except the named unit conversions
def test_an_invented_factor_does_not_support_the_result() -> None:
    sources = ["Ежемесячный платёж — 12 500,00 руб."]
    assert computed("Итого: 12 500,00 × 3 = 37 500,00 руб.", {"12500.00"}) == set()
    _, report = check_figures("Итого: 12 500,00 × 3 = 37 500,00 руб.", sources)
    assert report.removed == ["37 500,00 руб"]
    asked = [*sources, "сколько за 3 месяца?"]
    _, report = check_figures("Итого: 12 500,00 × 3 = 37 500,00 руб.", asked)
    assert not report.removed


def test_the_named_unit_conversions_need_no_source() -> None:
    assert computed("За год: 12 500,00 × 12 = 150 000,00 руб.", {"12500.00"}) == {"150000.00"}
    assert computed("Доля: 4 000,00 / 100 = 40,00 руб.", {"4000.00"}) == {"40.00"}
    assert computed("Доля: 4 000,00 / 7 = 571,43 руб.", {"4000.00"}) == set()


# 5. named_object: «об», «обо» are forms of «о» (a profile's lemmas fold them, stop 42)
def test_a_complement_after_ob_or_obo_is_read() -> None:
    sequence = profile("заявление об освобождении налога").sequence
    assert complements(sequence) == {"заявление": frozenset({"освобождение", "налог"})}
    assert "справка" in complements(profile("справка обо доходе работника").sequence)


# 6. condition_terms: a quoted sentence names the measured noun by a synonym
def test_a_synonym_of_the_measured_noun_names_the_condition() -> None:
    question = "какой штраф, если поставщик допустит 3 суток задержки?"
    assert measured_terms(question) == ["задержка"]
    quoted = ["За каждый день просрочки Поставщик уплачивает 0,3 % стоимости партии."]
    assert lacks_condition(question, quoted) == []
    assert lacks_condition(question, ["Цена партии — 90 000 рублей."]) == ["задержка"]


# 7. distinctive: strong() and best() read one ranking
def test_strength_from_the_rarest_word_names_its_own_document() -> None:
    # the rarest word is another document's than the one with most hits
    hits = VocabularyHits({"a": ["стенд", "выставка"], "b": ["паллета"]}, frozenset(), ["паллета"])
    assert hits.best() == ["a"]
    assert hits.strong(asks_value=True, of_law=False) is False
    # a tie in hits: the rarest word breaks it, and names the strong document
    tie = VocabularyHits({"a": ["стенд"], "b": ["паллета"]}, frozenset(), ["паллета"])
    assert tie.best() == ["b"] and tie.strong(asks_value=True, of_law=False)
    level = VocabularyHits({"a": ["стенд"], "b": ["витрина"]}, frozenset(), [])
    assert level.best() == [] and not level.strong(asks_value=True, of_law=False)


# 8. code_extra: a failing BM25 leg adds no passage, the dense leg's stays
def test_a_code_only_bm25_leg_failing_degrades_to_no_extra_passage() -> None:
    query = "срок камеральной проверки уточнённой декларации"
    settings = Settings()
    index = QdrantServerIndex(location=":memory:")
    retriever = Retriever(index, embedder=None, bm25=RussianBm25(), settings=settings)  # type: ignore[arg-type]
    name = retriever.collection("kb")
    text = "Камеральная налоговая проверка проводится в течение двух месяцев."

    async def run() -> list[Chunk]:
        # a store with the Code's dense vectors but no BM25 index: the sparse leg fails
        await index.client.create_collection(
            name, vectors_config={DENSE: qm.VectorParams(size=4, distance=qm.Distance.COSINE)}
        )
        payload = {"chunk_id": "art88.p2#0", "source": "law", "text": text}
        point = qm.PointStruct(
            id=point_uuid("art88.p2#0"), vector={DENSE: [1.0, 0.0, 0.0, 0.0]}, payload=payload
        )
        await index.client.upsert(name, points=[point], wait=True)
        vectors = {query: np.array([1.0, 0.0, 0.0, 0.0], dtype=np.float32)}
        try:
            return await retriever.code_extra("kb", query, [], limit=1, lexical=1, vectors=vectors)
        finally:
            await index.close()

    with capture_logs() as logs:
        found = asyncio.run(run())
    assert [c.id for c in found] == ["art88.p2#0"]
    assert found[0].metadata[NORM_ONLY] == "dense"
    failed = [e for e in logs if e["event"] == "code_extra_failed"]
    assert failed and failed[0]["mode"] == "sparse" and failed[0]["log_level"] == "warning"
