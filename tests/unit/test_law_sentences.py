"""Tax Code and knowledge-base answers: list items with their lead-in, asked and excluded
conditions, worked examples, dated schedules, periods and professional slang."""

from __future__ import annotations

import numpy as np

from finagent.answering.context import build_context
from finagent.answering.dated_items import asked_moment, matching_items
from finagent.answering.evidence import Candidate, candidates, units_of
from finagent.answering.list_items import prefer_matching_item
from finagent.answering.ranker import (
    FEATURES,
    RankerModel,
    asked_conditions,
    excluded_conditions,
    features,
    rank_learned,
)
from finagent.answering.sentence_profile import profile, values_of
from finagent.language.glossary import glossary_terms
from finagent.question.build import build_question
from finagent.routing.expansion import expand_query
from finagent.state import Chunk

RESERVE = "\n".join(
    [
        "Сумма запаса по спорным платежам исчисляется следующим образом:",
        "1) по платежам со сроком свыше 120 дней - в запас включается полная сумма;",
        "2) по платежам со сроком от 30 до 120 дней - в запас включается 40 процентов;",
        "3) по платежам со сроком до 30 дней - запас не увеличивается.",
        "Иной порядок применяется к банкам.",
    ]
)


def law(text: str, title: str = "Порядок расчета запаса", cid: str = "п. 7 ст. 999 НК РФ") -> Chunk:
    meta = {"citation": cid, "article_title": title}
    return Chunk(id=cid, text=text, source="law", title=title, metadata=meta)


def test_each_list_item_is_a_unit_with_its_lead_in() -> None:
    units = units_of(RESERVE)
    lead = "Сумма запаса по спорным платежам исчисляется следующим образом:"
    item = next(u for u in units if u.sentence.startswith("2)"))
    assert item.lead == lead
    assert next(u for u in units if u.sentence.startswith("Иной")).lead == ""
    # the introduction with its list is still a unit, without a lead-in
    assert units[0].sentence.startswith(lead) and units[0].lead == ""


def test_an_inline_enumeration_is_split_into_items_with_the_lead_in() -> None:
    line = (
        "Связанными лицами признаются: 1) общества, если одно участвует в другом с долей "
        "более 30 процентов; 2) лицо и общество, если лицу принадлежит доля более 30 "
        "процентов; 3) иные лица по решению суда."
    )
    items = {u.sentence: u.lead for u in units_of(line)}
    assert items["2) лицо и общество, если лицу принадлежит доля более 30 процентов;"] == (
        "Связанными лицами признаются:"
    )
    first = next(s for s in items if s.startswith("1) общества"))
    assert items[first] == "Связанными лицами признаются:"


def test_the_lead_in_counts_for_lexical_overlap_of_an_item() -> None:
    ctx = build_context([law(RESERVE)], [], 10_000)
    found = candidates(ctx)
    question = build_question("Какая часть спорных платежей со сроком 60 дней идёт в запас?")
    x = features(question, found, None)
    lexical = FEATURES.index("lexical")
    item = next(i for i, c in enumerate(found) if c.sentence.startswith("2)"))
    bare = Candidate(found[item].chunk, 1, found[item].sentence, 0, 0)
    assert x[item, lexical] > features(question, [bare], None)[0, lexical]


def test_a_negated_condition_is_not_asked() -> None:
    def asked(text: str) -> set[str]:
        return asked_conditions(build_question(text).lemmas)

    assert asked("Сколько идёт выездная проверка, если её не продлевали?") == set()
    assert asked("Срок проверки без учёта продления и приостановления?") == set()
    assert asked("До скольких месяцев продлевают проверку в исключительных случаях?") == {
        "prolong",
        "except",
    }
    assert asked("Какой штраф, если нарушение совершено умышленно?") == {"intent"}


def test_a_special_kind_of_taxpayer_is_a_condition_of_its_own() -> None:
    general = Candidate(law("x"), 1, "Возражения представляются в течение одного месяца.", 0, 0)
    group = Candidate(
        law("x"),
        1,
        "Возражения консолидированной группы налогоплательщиков представляются в течение 30 дней.",
        0,
        1,
    )
    column = FEATURES.index("unasked_exception")
    question = build_question("Сколько времени есть на возражения по акту?")
    assert features(question, [general, group], None)[:, column].tolist() == [0.0, 1.0]
    question = build_question("Сколько времени на возражения у консолидированной группы?")
    assert features(question, [general, group], None)[:, column].tolist() == [0.0, 0.0]


def test_an_unasked_condition_marks_its_sentence_and_an_asked_one_does_not() -> None:
    plain = Candidate(law("x"), 1, "Неуплата налога влечет штраф 25 процентов.", 0, 0)
    intent = Candidate(law("x"), 1, "Те же деяния, совершенные умышленно, — 45 процентов.", 0, 1)
    column = FEATURES.index("unasked_exception")
    question = build_question("Какой штраф за неуплату налога?")
    assert features(question, [plain, intent], None)[:, column].tolist() == [0.0, 1.0]
    question = build_question("Какой штраф, если неуплата совершена умышленно?")
    x = features(question, [plain, intent], None)
    assert x[:, column].tolist() == [0.0, 0.0]
    # a fine may be a share of the tax: a percentage states the asked value
    assert x[:, FEATURES.index("type_match")].tolist() == [1.0, 1.0]


def test_the_article_title_and_worked_examples_are_features() -> None:
    text = "Вычет дается в размере расходов.\nПример: расходы составили 70 000 руб."
    chunk = Chunk(id="kb-9:0", text=f"Вычет на спорт\n{text}", source="kb", title="Вычет на спорт")
    found = candidates(build_context([chunk], [], 10_000))
    question = build_question("Какой предельный вычет на спорт?")
    x = features(question, found, None)
    assert x[:, FEATURES.index("example")].tolist() == [0.0, 1.0]
    assert (x[:, FEATURES.index("title_match")] > 0).all()


def test_a_year_is_not_a_period_and_worded_periods_are() -> None:
    assert profile("Аванс получен 3 марта 2024 года.").periods == ()
    assert values_of(profile("Проверка идёт в течение четырёх месяцев."), "period") == (
        "четырёх месяцев",
    )
    assert values_of(profile("Хранить в течение 6 лет."), "period") == ("6 лет",)


def test_a_duration_question_asks_for_a_period() -> None:
    assert build_question("Сколько длится проверка расчёта?").answer_type == "period"
    assert build_question("Какую часть расходов можно учесть?").answer_type == "rate"


def test_the_item_in_force_at_the_asked_moment() -> None:
    text = "\n".join(
        [
            "Ставка менялась так:",
            "- 3 февраля 2031 года — **11 %**;",
            "- 14 апреля 2031 года — **12,5 %**;",
            "- 20 июня 2031 года — **10 %**.",
        ]
    )
    chunk = Chunk(id="kb-3:0", text=f"Ставка\n{text}", source="kb", title="Ставка")
    found = candidates(build_context([chunk], [], 10_000))

    def matched(question: str) -> list[str]:
        ids = matching_items(build_question(question), found)
        return [c.sentence for c in found if id(c) in ids]

    may = build_question("Какая ставка была в мае 2031 года?")
    assert asked_moment(may) is not None
    assert matched("Какая ставка была в мае 2031 года?") == ["- 14 апреля 2031 года — **12,5 %**;"]
    assert matched("Какая ставка вступила в силу 20 июня 2031 года?") == [
        "- 20 июня 2031 года — **10 %**."
    ]
    assert matched("С какой даты ставка стала 12,5 %?") == ["- 14 апреля 2031 года — **12,5 %**;"]
    assert matched("Какая ставка?") == []


def test_slang_is_expanded_to_the_official_term() -> None:
    assert glossary_terms("Сколько идёт камералка по прибыли?") == [
        "камеральная налоговая проверка"
    ]
    assert glossary_terms("Сколько лет хранить первичку?") == ["первичные учетные документы"]
    assert "материальная помощь" in expand_query("матпомощь сотруднику без налога")[-1]
    assert glossary_terms("Как начислять амортизацию?") == []


def test_the_item_of_the_asked_condition_answers_for_its_list() -> None:
    found = candidates(build_context([law(RESERVE)], [], 10_000))
    intro = next(c for c in found if c.sentence.startswith("Сумма запаса"))
    ranked = [intro, *(c for c in found if c is not intro)]
    question = build_question("Какая часть платежей со сроком от 30 до 120 дней идёт в запас?")
    assert prefer_matching_item(question, ranked)[0].sentence.startswith("2) по платежам")
    # no figure of the question picks an item: the ranking stands, words alone do not pick
    vague = build_question("Как считается запас по спорным платежам со сроком до тридцати дней?")
    assert prefer_matching_item(vague, ranked)[0] is intro


def test_a_sentence_of_an_excluded_condition_goes_after_the_rule() -> None:
    chunk = law("x")
    rule = Candidate(chunk, 1, "Проверка проводится в течение четырёх месяцев.", 0, 1)
    longer = Candidate(chunk, 1, "Срок проверки может быть продлен до семи месяцев.", 0, 0)
    question = build_question("Сколько длится проверка, если её не продлевали?")
    assert excluded_conditions(question.lemmas) == {"prolong"}
    model = RankerModel(FEATURES, np.zeros(len(FEATURES)), 0.0, "prior")
    model.weights[FEATURES.index("sentence_position")] = 1.0  # the extension would win
    assert rank_learned(question, [rule, longer], None, model)[0] is rule
    plain = build_question("Сколько длится проверка?")
    assert rank_learned(plain, [rule, longer], None, model)[0] is longer


def test_a_negated_verb_before_a_condition_does_not_exclude_it() -> None:
    # «не» negates the verb it precedes: the condition after that verb is asked
    for text, condition in (
        ("Какой штраф, если взносы не уплатили умышленно?", "intent"),
        ("Какой штраф, если отчёт не сдали повторно?", "repeat"),
        ("Сколько длится ревизия, если её не начали, а приостановили?", "suspend"),
    ):
        lemmas = build_question(text).lemmas
        assert asked_conditions(lemmas) == {condition}, text
        assert not excluded_conditions(lemmas), text
    # a negation before the condition itself (or a noun before it) still excludes it
    for text, condition in (
        ("Какой штраф, если занизили базу не умышленно?", "intent"),
        ("Сколько длится ревизия без учёта продления?", "prolong"),
        ("Сколько длится ревизия, если её не продлевали?", "prolong"),
    ):
        lemmas = build_question(text).lemmas
        assert excluded_conditions(lemmas) == {condition}, text
        assert not asked_conditions(lemmas), text


def test_the_item_of_the_asked_year_answers() -> None:
    text = (
        "Лимит считается так.\n- за 2030 год — **90 000 руб.**;\n- за 2031 год — **95 000 руб.**."
    )
    chunk = Chunk(id="kb-4:0", text=f"Лимит / Расчёт\n{text}", source="kb", title="Лимит")
    found = candidates(build_context([chunk], [], 10_000))
    ids = matching_items(build_question("Какой лимит за 2031 год?"), found)
    assert [c.sentence for c in found if id(c) in ids] == ["- за 2031 год — **95 000 руб.**."]
    # the section a knowledge-base passage stands under counts as its title
    x = features(build_question("Как считается расчёт лимита?"), found, None)
    assert (x[:, FEATURES.index("title_match")] > 0).all()


def test_every_section_of_a_knowledge_base_article_is_a_candidate() -> None:
    first = Chunk(id="kb-5:0", text="Лимит\nЛимит введён давно.", source="kb", title="Лимит")
    second = Chunk(
        id="kb-5:1", text="Лимит / Размер\nЛимит составляет 9 000 руб.", source="kb", title="Лимит"
    )
    ctx = build_context([first, second], [], 10_000)
    assert ctx.chunk_numbers[0] == ctx.chunk_numbers[1]
    assert "Лимит составляет 9 000 руб." in [c.sentence for c in candidates(ctx)]


def test_slang_in_the_question_matches_the_official_words_of_a_sentence() -> None:
    sentence = Candidate(law("x"), 1, "Камеральная налоговая проверка проводится месяц.", 0, 0)
    lexical = FEATURES.index("lexical")
    slang = features(build_question("Сколько идёт камералка?"), [sentence], None)
    assert slang[0, lexical] > 0


def test_a_tax_is_named_by_its_whole_name_not_by_one_word_of_it() -> None:
    column = FEATURES.index("tax_named")
    named = Candidate(law("x"), 1, "Проверка декларации по налогу на добавленную стоимость.", 0, 0)
    word = Candidate(law("x"), 1, "Проверка декларации по налогу на имущество организаций.", 0, 1)
    short = Candidate(law("x"), 1, "Проверка декларации по НДС идёт два месяца.", 0, 2)
    x = features(
        build_question("Сколько идёт проверка декларации по НДС?"), [named, word, short], None
    )
    assert x[:, column].tolist() == [1.0, 0.0, 1.0]
