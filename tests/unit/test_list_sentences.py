"""A sentence that introduces a list is quoted with its list, never dangling at «:»;
a rate question about a named tax is answered from the chapter's rate article."""

from __future__ import annotations

from finagent.answering.context import build_context
from finagent.answering.evidence import MAX_SENTENCE_CHARS, candidates, rank, sentences_of
from finagent.answering.extractive import compose_key_facts
from finagent.answering.reference_check import normalise
from finagent.state import Chunk

KB_TEXT = """Ставки НДС / Ставка 10 %
В России действует три основные ставки налога на добавленную стоимость.
Ставка 10 % применяется, в частности, к:

- **продовольственным товарам** (мясо, молоко, хлеб);
- детским товарам;
- периодическим изданиям и книгам

Ставка 0 % применяется при экспорте товаров."""

LAW_TEXT = "\n".join(
    [
        "Налогообложение производится по налоговой ставке 0 процентов при реализации:",
        "1) товаров, вывезенных в таможенной процедуре экспорта, при условии представления в "
        "налоговые органы документов, предусмотренных статьей 165 настоящего Кодекса;",
        "2) работ (услуг), непосредственно связанных с производством и реализацией товаров, "
        "указанных в подпункте 1 настоящего пункта;",
        "3) услуг по международной перевозке товаров;",
        "4) товаров, работ и услуг в области космической деятельности.",
    ]
)


def test_a_markdown_list_comes_with_its_introduction() -> None:
    sentences = sentences_of(KB_TEXT.split("\n", 1)[1])
    assert (
        "Ставка 10 % применяется, в частности, к: **продовольственным товарам** (мясо, молоко,"
        " хлеб); детским товарам; периодическим изданиям и книгам." in sentences
    )
    assert not any(s.endswith(":") for s in sentences)
    # the items stay candidates of their own, the next paragraph is not swallowed
    assert "- детским товарам;" in sentences
    assert "Ставка 0 % применяется при экспорте товаров." in sentences


def test_a_code_list_is_quoted_verbatim_and_cut_compactly() -> None:
    intro = sentences_of(LAW_TEXT)[0]
    assert intro.startswith("Налогообложение производится по налоговой ставке 0 процентов при")
    assert "реализации: 1) товаров, вывезенных в таможенной процедуре экспорта" in intro
    assert intro.endswith("…") and len(intro) <= MAX_SENTENCE_CHARS + 1
    # still the source's own words: the reference check sees a verbatim quotation
    assert normalise(intro) in normalise(LAW_TEXT)


def test_an_introduction_without_its_list_is_left_out() -> None:
    text = "Ставка 0 % применяется при экспорте.\nДокументы для подтверждения ставки:"
    assert sentences_of(text) == ["Ставка 0 % применяется при экспорте."]
    nested = "Уплачивают:\n1) следующие суммы:\nпервую сумму;\nвторую сумму."
    assert sentences_of(nested)[0] == "Уплачивают: 1) следующие суммы: первую сумму; вторую сумму."


async def test_the_offline_answer_has_no_dangling_list_introduction() -> None:
    chunk = Chunk(id="kb-1:0", text=KB_TEXT, source="kb", title="Ставки НДС")
    ctx = build_context([chunk], [], 10_000)
    query = "Какие товары облагаются НДС по ставке 10 %?"
    ranked, _ = await rank(query, candidates(ctx), None)
    answer = compose_key_facts(ctx, ranked)
    assert ":» [1]" not in answer
    assert "к: продовольственным товарам (мясо, молоко, хлеб); детским товарам;" in answer
    # an item already quoted inside its introduction is not quoted again on its own
    ranked, _ = await rank("Какая ставка НДС на детские товары и книги?", candidates(ctx), None)
    details = compose_key_facts(ctx, ranked).split("## Подробный анализ")[1]
    assert details.count("детским товарам") == 1


def law_chunk(cid: str, chapter: str, title: str, text: str) -> Chunk:
    meta = {"chapter": chapter, "code": "nk", "article_title": title, "citation": cid}
    return Chunk(id=cid, text=text, source="law", title=title, metadata=meta)


async def test_a_rate_question_prefers_the_named_chapters_rate_article() -> None:
    sentence = "Налогообложение производится по налоговой ставке 0 процентов при экспорте."
    other = law_chunk("п. 9 ст. 165 НК РФ", "21", "Порядок подтверждения права", sentence)
    rates = law_chunk("п. 1 ст. 164 НК РФ", "21", "Налоговые ставки", sentence)
    ctx = build_context([other, rates], [], 10_000)
    ranked, _ = await rank("Когда применяется ставка НДС 0 %?", candidates(ctx), None)
    assert ranked[0].chunk is rates  # though retrieved second
    # no rate asked, or no tax named: the retrieval order decides
    ranked, _ = await rank("Когда применяется НДС при экспорте?", candidates(ctx), None)
    assert ranked[0].chunk is other
    ranked, _ = await rank("Когда применяется ставка 0 %?", candidates(ctx), None)
    assert ranked[0].chunk is other


def test_long_sentence_keeps_its_late_value_in_a_window() -> None:
    conditions = ", ".join(f"указанных в подпункте {n} пункта 1 настоящей статьи" for n in range(9))
    sentence = (
        f"Социальные налоговые вычеты ({conditions}) предоставляются в размере фактически "
        "произведенных расходов, но в совокупности не более 150 000 рублей в налоговом периоде."
    )
    found = sentences_of(sentence)
    assert len(found[0]) <= MAX_SENTENCE_CHARS and "150 000" not in found[0]
    window = next(s for s in found if "150 000" in s)
    # verbatim after the «…», opening at a clause boundary of the sentence
    assert window.startswith("…") and window[1:] in sentence
    assert sentence[sentence.index(window[1:]) - 2 : sentence.index(window[1:])] == ", "
    assert all(len(s) <= MAX_SENTENCE_CHARS for s in found)
