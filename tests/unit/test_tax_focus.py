"""A question naming a tax prefers its Tax Code chapter: which chapters, which filters,
which passages go last."""

from __future__ import annotations

from finagent.question.build import build_question
from finagent.retrieval.index import SearchFilter
from finagent.retrieval.retriever import _with_kept
from finagent.retrieval.tax_focus import DEADLINE_WEIGHT, TaxFocus, tax_focus
from finagent.state import Chunk


def focus_of(text: str) -> TaxFocus | None:
    """The focus of the question ``text`` typed as the turn's question is."""
    return tax_focus(build_question(text))


def law(chapter: str, title: str = "Порядок", code: str = "nk") -> Chunk:
    return Chunk(
        id=f"{code}.ch{chapter}",
        text="Текст.",
        source="law",
        metadata={"chapter": chapter, "code": code, "article_title": title},
    )


def test_the_taxes_a_question_names_give_the_chapters() -> None:
    assert focus_of("Какие ставки НДС действуют и когда применяется 0 %?") == TaxFocus(
        ("21",), rate=True
    )
    assert focus_of("Можно ли на патенте не платить НДФЛ?") == TaxFocus(("23", "26.5"))
    assert focus_of("Какой порядок проведения камеральной проверки?") is None
    # taxes outside the Code have no chapter to prefer
    assert focus_of("Какой лимит дохода у самозанятых?") is None


def test_the_focused_legs_search_the_chapters_and_their_rate_article() -> None:
    focus = TaxFocus(("21",), rate=True)
    chapter, rates = focus.narrowed(SearchFilter(source="law", extra={"part": "2"}))
    assert chapter.conditions() == {"part": "2", "code": "nk", "chapter": ["21"], "source": "law"}
    assert rates.conditions()["article_title"] == ["Налоговые ставки", "Налоговая ставка"]
    assert len(TaxFocus(("21",)).narrowed(None)) == 1  # no rate asked: the chapter only
    # a search that leaves the Code out gets no focused leg
    assert focus.narrowed(SearchFilter(source="user_docs")) == []
    assert len(focus.narrowed(SearchFilter(source=["kb", "law"]))) == 2


def test_only_other_taxes_chapters_are_pushed_back() -> None:
    focus = TaxFocus(("21",), rate=True)
    assert focus.demoted(law("26.5"))  # the patent system: another tax
    assert not focus.demoted(law("21"))
    assert not focus.demoted(law("14"))  # the general part applies to every tax
    assert not focus.demoted(law("26.5", code="gk"))  # another code's chapter numbers
    kb = Chunk(id="kb-1:0", text="Ставки НДС", source="kb", metadata={"chapter": "26.5"})
    assert not focus.demoted(kb)


def test_the_rate_article_of_a_named_chapter() -> None:
    focus = TaxFocus(("21",), rate=True)
    assert focus.rate_article(law("21", "Налоговые ставки"))
    assert not focus.rate_article(law("21", "Порядок подтверждения права на применение ставки"))
    assert not focus.rate_article(law("26.5", "Налоговая ставка"))
    assert not TaxFocus(("21",)).rate_article(law("21", "Налоговые ставки"))


def test_a_rate_question_keeps_the_rate_articles_best_passage() -> None:
    rate_leg = [law("26.1", "Налоговая ставка"), law("26.1", "Налоговая ставка")]
    chapter_leg = [law("26.1", "Порядок исчисления")]
    assert TaxFocus(("26.1",), rate=True).kept([chapter_leg, rate_leg]) == rate_leg[:1]
    assert TaxFocus(("26.1",)).kept([chapter_leg]) == []  # no rate asked
    assert TaxFocus(("26.1",), rate=True).kept([chapter_leg, []]) == []


def test_a_kept_passage_takes_the_last_place_it_lacks() -> None:
    fused = [Chunk(id=f"c{i}", text="т", source="law") for i in range(3)]
    rate = Chunk(id="rate", text="т", source="law")
    assert [c.id for c in _with_kept(fused, [rate], 3)] == ["c0", "c1", "rate"]
    assert _with_kept(fused, [fused[2]], 3) == fused  # already there: nothing moves
    # a shorter list: the kept passage still takes one of its places
    assert [c.id for c in _with_kept(fused[:2], [rate], 3)] == ["c0", "c1", "rate"]


def test_a_compound_short_form_names_its_tax() -> None:
    focus = focus_of("Какая ставка единого сельхозналога?")
    assert focus == TaxFocus(("26.1",), rate=True)
    assert focus_of("Турналог не может быть меньше какой суммы?") == TaxFocus(("33.1",))
    assert focus_of("Какой налог платит сельхозпредприятие?") is None


def stated(text: str, source: str = "law") -> Chunk:
    return Chunk(id="p", text=text, source=source, metadata={"chapter": "23", "code": "nk"})


# probe questions written for this test (no eval item): the asked kind is a time limit
DEADLINE_QUESTIONS = (
    "До какого числа организация платит транспортный налог за год?",
    "в какой срок ип на упрощенке сдает декларацию",
    "Когда нужно перечислить земельный налог физлицу?",
    "Сколько дней у налоговой на возврат переплаты по заявлению?",
    "В течение какого времени хранить счета-фактуры?",
)


def test_a_question_asking_a_time_limit_weighs_up_passages_stating_one() -> None:
    for question in DEADLINE_QUESTIONS:
        focus = focus_of(question)
        assert focus is not None and focus.deadline, question
    # with no tax named: the weight only, no chapter leg and nothing pushed back
    focus = focus_of("Сколько длится камеральная проверка?")
    assert focus == TaxFocus((), deadline=True)
    assert focus.narrowed(None) == []
    assert not focus.demoted(law("26.5"))
    # a rate or an amount asked: no weight
    for question in ("Какая ставка земельного налога?", "Сколько составляет вычет на лечение?"):
        focus = focus_of(question)
        assert focus is None or not focus.deadline, question


def test_the_code_states_a_time_limit_in_its_own_words() -> None:
    focus = TaxFocus(("23",), deadline=True)
    for text in (
        "Налоговая декларация представляется не позднее 30 апреля года, следующего за "
        "истекшим налоговым периодом.",
        "Заявление рассматривается в течение десяти рабочих дней со дня его получения.",
        "Налог уплачивается в срок до 1 декабря года, следующего за истекшим периодом.",
        "Авансовые платежи уплачиваются до 28-го числа месяца, следующего за кварталом.",
    ):
        assert focus.weight(stated(text)) == DEADLINE_WEIGHT, text
    for text in (
        "Страховые взносы уплачиваются в фиксированном размере 53 658 рублей.",
        "Налоговая ставка устанавливается в размере 13 процентов.",
        "В течение налогового периода налогоплательщик ведет учет доходов.",  # no span
        # a span the rule holds within, not a limit to act by
        "Если организация создана в течение календарного года, периодом является время "
        "со дня создания до конца этого года.",
    ):
        assert focus.weight(stated(text)) == 1.0, text
    # only the Code's passages, only for a time limit asked
    assert focus.weight(stated("Срок уплаты — не позднее 1 июля.", source="kb")) == 1.0
    assert TaxFocus(("23",)).weight(stated("Уплата не позднее 15 июля.")) == 1.0
