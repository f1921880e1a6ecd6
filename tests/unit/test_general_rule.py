"""The general rule of a legal point before its unasked exceptions; a point's pieces and a
list item's introduction in the answer."""

from __future__ import annotations

from finagent.answering.context import build_context
from finagent.answering.evidence import Candidate, candidates
from finagent.answering.extractive import LEARNED_SOURCE_MARGIN, compose_key_facts, quoted
from finagent.answering.general_rule import prefer_general_case, prefer_general_rule
from finagent.question.build import build_question
from finagent.state import Chunk
from tests.unit.ranked import ranked, scored


def _law(unit: str, text: str = "", piece: int = 0, title: str = "Образцовая проверка") -> Chunk:
    meta = {"unit_id": unit, "citation": f"п. 1 ст. {unit}", "article_title": title}
    return Chunk(id=f"{unit}#{piece}", text=text, source="law", metadata=meta)


def _ranked(chunk: Chunk, *sentences: str) -> list[Candidate]:
    return ranked(chunk, *sentences, top=5.0, gap=1.0)


RULE = "Образцовая проверка проводится в течение четырех месяцев со дня подачи отчета."
EXTENSION = "Срок образцовой проверки может быть продлен до семи месяцев."
SPECIAL = "Образцовая проверка на основе заявления проводится в течение 20 календарных дней."
CONDITIONAL = "В случае, если отчет подан с опозданием, проверка длится 50 дней."


def test_the_rule_beats_an_unasked_extension_of_the_same_point() -> None:
    ranked = _ranked(_law("901"), EXTENSION, RULE)
    question = build_question("Сколько длится образцовая проверка отчета?")
    assert prefer_general_rule(question, ranked)[0].sentence == RULE
    # asked about the extension: the extension stays first
    asked = build_question("До скольки могут продлить образцовую проверку?")
    assert prefer_general_rule(asked, _ranked(_law("901"), EXTENSION, RULE))[0].sentence == (
        EXTENSION
    )


def test_a_sentence_naming_the_questions_subject_beats_a_special_case() -> None:
    ranked = _ranked(_law("901"), SPECIAL, RULE)
    question = build_question("Сколько длится образцовая проверка отчета?")
    assert prefer_general_rule(question, ranked)[0].sentence == RULE


def test_a_conditional_sentence_yields_unless_the_question_states_a_condition() -> None:
    question = build_question("Сколько длится образцовая проверка отчета?")
    assert prefer_general_rule(question, _ranked(_law("901"), CONDITIONAL, RULE))[0].sentence == (
        RULE
    )
    late = build_question("Сколько длится проверка, если отчет подан с опозданием?")
    assert prefer_general_rule(late, _ranked(_law("901"), CONDITIONAL, RULE))[0].sentence == (
        CONDITIONAL
    )


def test_other_points_and_far_weaker_sentences_are_left_alone() -> None:
    question = build_question("Сколько длится образцовая проверка отчета?")
    other = _ranked(_law("901"), EXTENSION)[0], _ranked(_law("902"), RULE)[0]
    assert prefer_general_rule(question, list(other))[0].sentence == EXTENSION
    weak = _ranked(_law("901"), EXTENSION, RULE)
    weak[1].score = -10.0
    assert prefer_general_rule(question, weak)[0].sentence == EXTENSION


def test_every_retrieved_piece_of_a_point_is_a_candidate() -> None:
    chunks = [_law(f"90{i}", f"Текст пункта номер {i} об образцовой проверке.") for i in range(6)]
    chunks.append(_law("900", RULE, piece=1))  # a later piece of the first point, found last
    ctx = build_context(chunks, [], 10_000)
    found = candidates(ctx, max_chunks=5)
    assert any(c.sentence == RULE and c.rank == 0 for c in found)
    assert not any("номер 5" in c.sentence for c in found)  # the sixth point is not


def test_a_list_item_is_quoted_after_its_introduction() -> None:
    item = Candidate(_law("903"), 1, "3) образцовый сбор.", 0, 2, context="К сборам относятся:")
    assert quoted(item) == "«К сборам относятся:» … «образцовый сбор.»"
    plain = Candidate(_law("903"), 1, RULE, 0, 0)
    assert quoted(plain) == f"«{RULE}»"


def test_the_details_quote_each_source_near_the_best_by_the_learned_score() -> None:
    first, second, far = _law("901", RULE), _law("902", SPECIAL), _law("903", EXTENSION)
    ctx = build_context([first, second, far], [], 10_000)
    ranked = [
        Candidate(first, 1, RULE, 0, 0, score=2.0, learned=True),
        Candidate(second, 2, SPECIAL, 1, 0, score=2.0 - LEARNED_SOURCE_MARGIN + 0.5, learned=True),
        Candidate(far, 3, EXTENSION, 2, 0, score=2.0 - LEARNED_SOURCE_MARGIN - 1, learned=True),
    ]
    body = compose_key_facts(ctx, ranked, lead=["Срок — четырех месяцев [1]."])
    assert SPECIAL in body and EXTENSION not in body


GENERAL = "Неуплата образцового сбора влечет взыскание штрафа в размере 20 процентов."
INTENT = "Те же деяния, совершенные умышленно, влекут взыскание штрафа в размере 40 процентов."
CONTROLLED = (
    "Неуплата образцового сбора контролирующим лицом контролируемой иностранной компании "
    "влечет взыскание штрафа в размере 100 000 рублей."
)
VAT_RULE = (
    "Образцовая проверка декларации по налогу на добавленную стоимость проводится "
    "в течение двух месяцев."
)


def _one(unit: str, sentence: str, score: float) -> Candidate:
    return scored(_law(unit), sentence, score)


def test_a_special_regime_of_another_article_yields_to_the_general_rule() -> None:
    question = build_question("Какой штраф за неуплату сбора, если докажут умысел?")
    ranked = [_one("129.5", CONTROLLED, 4.0), _one("122", GENERAL, 2.0), _one("122", INTENT, 1.5)]
    # the rule of the asked condition (intent) before the plain one
    assert prefer_general_case(question, ranked)[0].sentence == INTENT
    # the question names the regime: its article stays first
    named = build_question("Какой штраф контролирующему лицу контролируемой компании?")
    assert prefer_general_case(named, list(ranked))[0].sentence == CONTROLLED
    # too weak a rival is no rule of the question
    far = [_one("129.5", CONTROLLED, 4.0), _one("122", INTENT, 0.5)]
    assert prefer_general_case(question, far)[0].sentence == CONTROLLED


def test_a_special_case_in_parentheses_is_an_aside_of_the_rule() -> None:
    aside = (
        "Документы представляются в течение 10 дней (20 дней - при проверке "
        "контролирующего лица контролируемой иностранной компании)."
    )
    question = build_question("В какой срок представить истребованные документы?")
    ranked = [_one("93", aside, 3.0), _one("88", "Пояснения представляются в течение 5 дней.", 2.9)]
    assert prefer_general_case(question, ranked)[0].sentence == aside


def test_a_sentence_of_a_tax_the_question_does_not_name_is_a_special_case() -> None:
    question = build_question("Сколько длится образцовая проверка декларации?")
    ranked = _ranked(_law("901"), VAT_RULE, RULE.replace("отчета", "декларации"))
    assert prefer_general_rule(question, ranked)[0].sentence != VAT_RULE
    vat = build_question("Сколько длится образцовая проверка декларации по НДС?")
    ranked = _ranked(_law("901"), VAT_RULE, RULE.replace("отчета", "декларации"))
    assert prefer_general_rule(vat, ranked)[0].sentence == VAT_RULE


def test_a_knowledge_base_sentence_opening_with_an_unasked_case_gives_way() -> None:
    passage = Chunk(id="kb-7:0", text="", source="kb", title="Штрафы по образцовым запросам")
    counter = (
        "При встречной проверке за отказ сообщить сведения о поставщике взыскивается "
        "штраф 7 000 руб. с организации."
    )
    general = "Если инспекция запросила бумаги и их не прислали, штраф — 300 руб. за каждую."
    question = build_question("Какой штраф за каждую не присланную по запросу инспекции бумагу?")
    kb = [scored(passage, counter, 4.0), scored(passage, general, 3.6)]
    assert prefer_general_case(question, kb)[0].sentence == general
    # the question names the counter-check: its sentence stays first
    asked = build_question("Какой штраф при встречной проверке за отказ дать сведения?")
    assert prefer_general_case(asked, list(kb))[0].sentence == counter
    # a sentence stating its rule before the repeat's value is the rule
    both = "За опоздание с ответом — штраф 4 000 руб., за повторное — 15 000 руб."
    repeat = [scored(passage, both, 4.0), scored(passage, general, 3.6)]
    late = build_question("Какой штраф за опоздание с ответом на запрос?")
    assert prefer_general_case(late, repeat)[0].sentence == both
