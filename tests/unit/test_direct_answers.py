"""The direct composer: ranker features and weights, the value lead line, card values,
and the figure check (composer and LLM path)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import numpy as np
import pytest
from langchain_core.messages import AIMessage

from finagent.answering.card_evidence import card_answers
from finagent.answering.context import build_context
from finagent.answering.direct import card_lead, compose_direct, sentence_lead, subject_of
from finagent.answering.evidence import Candidate
from finagent.answering.figures import check_figures
from finagent.answering.ranker import (
    FEATURES,
    RANKER_FILE,
    features,
    model_digest,
    parse_model,
    prior_model,
    rank_learned,
    shipped_model,
)
from finagent.cards.build import build_card
from finagent.nodes.answer import answer
from finagent.question.build import build_question
from finagent.state import Chunk, Decision, Scenario
from tests.fakes.llm import ScriptedChatModel
from tests.unit.node_deps import node_deps, runtime, with_llm

LAW = Chunk(
    id="nk-224",
    text="Статья 224. Налоговые ставки",
    source="law",
    title="Статья 224",
    metadata={"citation": "п. 3 ст. 224 НК РФ"},
)
LEASE_TEXT = (
    "# Договор аренды № 5\n\n"
    "Общество с ограниченной ответственностью «Альфа» (ООО «Альфа»), ИНН 7701234567, "
    "именуемое в дальнейшем «Арендодатель», и ООО «Бета», именуемое «Арендатор».\n\n"
    "3.1. Арендная плата составляет 120 000 рублей в месяц.\n\n"
    "3.2. С 1 июля арендная плата составляет 130 000 рублей в месяц.\n"
)


def candidate(sentence: str, rank: int = 0, position: int = 0, semantic: float = 0.8) -> Candidate:
    return Candidate(LAW, 1, sentence, rank, position, semantic=semantic)


# --- features and ranking -------------------------------------------------------------------


def test_a_rate_question_prefers_the_sentence_with_a_percentage() -> None:
    question = build_question("Какая ставка НДФЛ для нерезидентов?")
    found = [
        candidate("Налоговая ставка устанавливается для доходов нерезидентов.", semantic=0.86),
        candidate("Налоговая ставка устанавливается в размере 30 процентов.", 0, 1, 0.84),
    ]
    x = features(question, found, None)
    type_match = FEATURES.index("type_match")
    assert x[:, type_match].tolist() == [0.0, 1.0]
    ranked = rank_learned(question, found, None)
    assert "30 процентов" in ranked[0].sentence


def test_an_extension_the_question_does_not_ask_about_is_marked() -> None:
    general = candidate("Камеральная налоговая проверка проводится в течение двух месяцев.")
    extended = candidate("Срок проверки может быть продлен до трех месяцев.", 0, 1)
    repeat = candidate("При повторном нарушении штраф составляет 20 000 рублей.", 0, 2)
    column = FEATURES.index("unasked_exception")
    plain = build_question("Сколько длится камеральная проверка декларации по НДС?")
    assert features(plain, [general, extended, repeat], None)[:, column].tolist() == [0, 1, 1]
    # asked in another aspect («продлевают» / «продлен»): nothing unasked
    asked = build_question("До скольких месяцев продлевают камеральную проверку?")
    assert features(asked, [general, extended], None)[:, column].tolist() == [0, 0]


def test_a_lost_regime_or_ceased_activity_the_question_does_not_ask_is_marked() -> None:
    rule = candidate("Декларация по единому налогу подаётся не позднее 30 апреля следующего года.")
    lost = candidate(
        "Декларация подаётся не позднее 15-го числа месяца, следующего за месяцем, в котором "
        "налогоплательщик утратил право применять специальный режим.",
        0,
        1,
    )
    column = FEATURES.index("unasked_exception")
    plain = build_question("В какой срок подаётся годовая декларация по единому налогу?")
    assert features(plain, [rule, lost], None)[:, column].tolist() == [0, 1]
    asked = build_question("Когда подать декларацию, если утратили право на спецрежим?")
    assert features(asked, [rule, lost], None)[:, column].tolist() == [0, 0]


def test_the_shipped_weights_verify_and_a_tampered_file_is_refused() -> None:
    raw = resources.files("finagent.answering").joinpath("data", RANKER_FILE).read_text("utf-8")
    data = json.loads(raw)
    assert shipped_model().source == "shipped"
    assert parse_model(data).features == FEATURES
    data["weights"][0] += 1.0
    with pytest.raises(ValueError, match="digest"):
        parse_model(data)
    renamed = {**data, "features": ["x", *FEATURES[1:]]}
    renamed["digest"] = model_digest(renamed["features"], renamed["weights"], renamed["bias"])
    with pytest.raises(ValueError, match="features"):
        parse_model(renamed)


def test_prior_weights_cover_every_feature() -> None:
    prior = prior_model()
    assert prior.weights.shape == (len(FEATURES),) and np.isfinite(prior.weights).all()


# --- the lead line --------------------------------------------------------------------------


def test_the_lead_line_states_the_value_then_quotes_it() -> None:
    question = build_question("Какая ставка НДФЛ для нерезидентов?")
    assert subject_of(question) == "Ставка НДФЛ"
    top = candidate("Налоговая ставка устанавливается в размере 30 процентов.")
    line, quote = sentence_lead(question, top)
    assert line == "Ставка НДФЛ — 30 % (п. 3 ст. 224 НК РФ) [1]."
    assert quote == "«Налоговая ставка устанавливается в размере 30 процентов.» [1]"


def test_a_sanction_or_size_set_as_a_share_leads_with_the_share() -> None:
    question = build_question("Какой штраф за неуплату налога, если докажут умысел?")
    top = candidate(
        "Деяния, совершенные умышленно, влекут взыскание штрафа в размере 40 процентов."
    )
    line, _ = sentence_lead(question, top)
    assert line == "Штраф — 40 % (п. 3 ст. 224 НК РФ) [1]."
    size = build_question("В каком размере можно учесть представительские расходы?")
    rule = candidate(
        "Расходы включаются в размере, не превышающем 4 процентов от расходов на оплату."
    )
    assert sentence_lead(size, rule)[0].startswith("Размер — 4 %")
    # a sanction's share and its floor are both named, in the sentence's order
    both = candidate("Штраф составляет 20 процентов, но не менее 1 000 рублей.")
    assert sentence_lead(question, both)[0].startswith("Штраф — 20 %, 1 000 рублей")
    # a size question with a sum: the sum
    floor = candidate("Расходы учитываются в сумме 1 000 рублей, или 20 процентов.")
    assert sentence_lead(size, floor)[0].startswith("Сумма — 1 000 рублей")


def test_a_tax_named_only_to_qualify_the_figure_is_not_the_subject_nor_its_value() -> None:
    contract = Chunk(
        id="d1",
        text="",
        source="user_docs",
        title="Договор № РУ-7 оказания услуг",
        document_id="d1",
    )
    top = Candidate(
        contract,
        1,
        "Окончательный расчёт — 805 200 (восемьсот пять тысяч двести) рублей 00 копеек, "
        "в том числе НДС 22 % — 145 200 рублей 00 копеек.",
        0,
        0,
    )
    priced = build_question("Сколько стоят услуги по договору с НДС и без НДС?")
    assert subject_of(priced) == "Сумма"
    line, _ = sentence_lead(priced, top)
    assert line.startswith("Сумма — 805 200 рублей (") and "145 200" not in line
    # a value the sentence qualifies itself («без НДС — …») is the price, not the tax
    plain = Candidate(
        contract, 1, "Стоимость услуг без НДС — 1 100 000 рублей, НДС — 242 000 рублей.", 0, 0
    )
    assert "242 000" not in sentence_lead(priced, plain)[0]
    # the VAT asked itself keeps its name and its amount
    vat = build_question("Сколько НДС в окончательном расчёте?")
    assert subject_of(vat) == "Сумма НДС"
    assert "145 200" in sentence_lead(vat, top)[0]
    assert subject_of(build_question("Какая сумма НДС включена в цену?")) == "Сумма НДС"
    assert subject_of(build_question("Какой лимит выручки без НДС для освобождения от НДС?")) == (
        "Предельный размер НДС"
    )


def test_the_lead_states_the_value_of_the_clause_of_the_asked_condition() -> None:
    rule = candidate("Штраф за неуплату: 20 % от суммы; 40 % — если нарушение совершено умышленно.")
    intent = build_question("Какой штраф за неуплату налога, если докажут умысел?")
    assert sentence_lead(intent, rule)[0].startswith("Штраф — 40 %")
    # no condition asked, or the other case asked too: every value
    plain = build_question("Какой штраф за неуплату налога?")
    assert sentence_lead(plain, rule)[0].startswith("Штраф — 20 %, 40 %")
    both = build_question("Какой штраф за неуплату налога, а если умышленно?")
    assert sentence_lead(both, rule)[0].startswith("Штраф — 20 %, 40 %")


def test_a_value_asked_by_its_own_noun_is_named_by_it_in_the_lead() -> None:
    pension = build_question("Какое единовременное пособие положено при рождении ребёнка?")
    assert pension.answer_type == "amount" and not pension.several
    assert subject_of(pension) == "Единовременное пособие"
    rule = candidate(
        "Единовременное пособие при рождении ребёнка выплачивается в сумме 24 000 рублей."
    )
    assert sentence_lead(pension, rule)[0].startswith("Единовременное пособие — 24 000 рублей")
    # a plural-only allowance is one value; of a list of allowances, the clause naming it
    allowance = build_question("Какие подъёмные не облагаются взносами?")
    assert allowance.head == "подъёмные" and not allowance.several
    listed = candidate(
        "Не облагаются: пособия по больничному; подъёмные до 5 000 руб. на работника "
        "и до 1 000 руб. на члена семьи; материальная помощь до 4 000 руб. в год."
    )
    assert sentence_lead(allowance, listed)[0].startswith("Подъёмные — 5 000 руб, 1 000 руб (")
    # a plural of a countable noun asks which kinds: several values, no own noun
    kinds = build_question("Какие надбавки облагаются НДФЛ?")
    assert kinds.several and kinds.head is None


def test_a_sentence_without_the_asked_value_is_quoted_as_it_is() -> None:
    question = build_question("Какая ставка НДФЛ для нерезидентов?")
    (line,) = sentence_lead(question, candidate("Ставка зависит от статуса налогового резидента."))
    assert line.startswith("Согласно п. 3 ст. 224 НК РФ: «Ставка зависит")


def test_two_card_values_are_both_shown_with_their_sentences() -> None:
    card = build_card("d1", "lease.md", LEASE_TEXT)
    chunk = Chunk(id="c", text=LEASE_TEXT, source="user_docs", title=card.title, document_id="d1")
    ctx = build_context([chunk], [], 10_000)
    question = build_question("кто арендодатель и сколько платим в месяц?", cards=[card])
    answers = card_answers(question, [card], ctx)
    assert [a.key for a in answers] == ["landlord", "rent"]
    first, quotes = card_lead(answers)
    assert first.startswith("Арендодатель — ООО «Альфа» (ИНН 7701234567) [1]")
    assert "120 000 руб. в месяц или 130 000 руб. в месяц" in first
    assert "3.1. Арендная плата составляет 120 000 рублей в месяц." in quotes
    assert "3.2. С 1 июля арендная плата составляет 130 000 рублей в месяц." in quotes
    body = compose_direct(question, ctx, [], answers)
    assert body.startswith("## Краткий вывод\nАрендодатель — ООО «Альфа»")


def test_a_card_of_a_document_no_passage_brought_gets_its_own_source() -> None:
    card = build_card("d1", "lease.md", LEASE_TEXT)
    ctx = build_context([], [], 10_000)
    question = build_question("кто арендодатель?", cards=[card])
    question.documents = []
    assert card_answers(question, [card], ctx) == []  # neither named nor retrieved
    question = build_question("кто арендодатель по договору аренды № 5?", cards=[card])
    (found,) = card_answers(question, [card], ctx)
    assert found.number == 1 and ctx.sources[0].title == card.title
    assert card_answers(question, [card], build_context([], [], 10_000), new_sources=False) == []


# --- the figure check -----------------------------------------------------------------------


def test_figures_compare_normalised_and_unsupported_ones_are_removed_and_counted() -> None:
    text = "Платим 297 200 руб. [1]; ставка 30 % (п. 3 ст. 224 НК РФ); пени 5 % и 1 000 руб."
    checked, report = check_figures(text, ["Плата 297200 рублей, ставка 30%."])
    assert report.supported == ["297 200 руб", "30 %"]
    assert report.removed == ["5 %", "1 000 руб"]
    assert "297 200 руб." in checked and "п. 3 ст. 224" in checked and "5 %" not in checked
    assert report.as_debug()["unsupported"] == 2


def test_a_figure_in_the_question_or_a_numeric_date_of_a_source_is_supported() -> None:
    _, report = check_figures("С 01.02.2025 срок 3 месяца.", ["с 2025-02-01", "за 3 месяца?"])
    assert report.removed == []


def test_a_number_a_source_wraps_over_a_line_supports_the_joined_quote() -> None:
    """A PDF wraps «… в том числе НДС — 71» / «400 рублей»; the quote joins the line."""
    source = "Цена — 428 400 рублей, в том числе НДС — 71\n400 рублей 00 копеек."
    checked, report = check_figures("«… в том числе НДС — 71 400 рублей» [1]", [source])
    assert report.removed == [] and "71 400 рублей" in checked
    _, other = check_figures("«… НДС — 71 500 рублей» [1]", [source])
    assert other.removed == ["71 500 рублей"]


async def test_an_llm_figure_no_source_states_is_removed_and_counted() -> None:
    reply = AIMessage(
        "## Краткий вывод\nАрендная плата — 120 000 рублей в месяц [1], пени 7 % в день [1]."
    )
    llm = ScriptedChatModel([reply])
    deps = with_llm(node_deps(), llm)
    chunk = Chunk(id="c", text=LEASE_TEXT, source="user_docs", title="Договор", document_id="d1")
    state: dict[str, Any] = {
        "query": "сколько платим за аренду?",
        "decision": Decision(scenario=Scenario.ALL_DOCUMENTS),
        "chunks": [chunk],
    }
    update = await answer(state, runtime(deps))  # type: ignore[arg-type]
    assert "120 000 рублей" in update["answer"] and "7 %" not in update["answer"]
    assert update["debug"]["figures"]["removed"] == ["7 %"]
    assert update["debug"]["figures"]["unsupported"] == 1
    prompt = llm.received[0][-1].content
    assert "Разбор вопроса" in prompt and "Что спрашивают: сумма" in prompt


def test_each_part_of_a_document_question_is_named_with_its_own_value() -> None:
    # «какой аванс … и в какой срок»: the line names the sum (by the question's own noun)
    # and the term, each by name
    doc = Chunk(
        id="d:1",
        text="",
        source="user_docs",
        title="Договор лизинга № Л-1",
        document_id="d",
    )
    sentence = (
        "4.2. Авансовый платёж в размере 2 928 000 рублей Лизингополучатель вносит в течение "
        "5 рабочих дней с даты подписания договора."
    )
    question = build_question("Какой аванс по договору лизинга и в какой срок его внести?")
    top = Candidate(doc, 1, sentence, 0, 0, semantic=0.8)
    body = compose_direct(question, build_context([doc], [], 10_000), [top], [])
    first = body.split("\n")[1]
    assert first.startswith("Аванс — 2 928 000 рублей")
    assert first.endswith("; срок — 5 рабочих дней [1].")
