"""The Code's wording in the details («Норма НК РФ») when the lead quotes something else."""

from __future__ import annotations

from finagent.answering.code_norm import code_norm
from finagent.answering.context import build_context
from finagent.answering.direct import compose_direct
from finagent.answering.evidence import Candidate
from finagent.answering.messages import CODE_NORM
from finagent.question.build import build_question
from finagent.state import Chunk

KB = Chunk(id="kb3#0", text="", source="kb", title="УСН: объекты налогообложения и ставки")
LAW = Chunk(
    id="art346.20#0",
    text="",
    source="law",
    metadata={"unit_id": "nk2.art346.20.p1", "citation": "п. 1 ст. 346.20 НК РФ"},
)
DOC = Chunk(id="d:1", text="", source="user_docs", title="Договор аренды № 5", document_id="d")

KB_RULE = "Регионы вправе снижать ставку для объекта «доходы» до 1 %."
CODE_RANGE = (
    "Законами субъектов Российской Федерации могут быть установлены налоговые ставки "
    "в пределах от 1 до 6 процентов в зависимости от категорий налогоплательщиков."
)
CODE_NO_VALUE = (
    "Законами субъектов Российской Федерации налоговые ставки могут устанавливаться "
    "в зависимости от категорий налогоплательщиков."
)
CODE_UNRELATED = "Налогоплательщики представляют отчетность в электронной форме."

QUESTION = "Какую ставку по УСН доходы может установить регион?"


def _ranked(*laws: str, top: Chunk = KB, top_sentence: str = KB_RULE) -> list[Candidate]:
    ranked = [Candidate(top, 1, top_sentence, 0, 0, score=3.0, learned=True)]
    ranked += [
        Candidate(LAW, 2, law, 1, i, score=-2.0 - i, learned=True) for i, law in enumerate(laws)
    ]
    return ranked


def test_the_details_quote_the_code_sentence_the_knowledge_base_lead_leaves_out() -> None:
    question = build_question(QUESTION)
    ranked = _ranked(CODE_RANGE)
    body = compose_direct(question, build_context([KB, LAW], [], 10_000), ranked, [])
    summary, details = body.split("## Подробный анализ")
    assert "[1]" in summary and CODE_RANGE not in summary  # the lead stays the section's
    assert f"**{CODE_NORM}, п. 1 ст. 346.20 НК РФ**: «{CODE_RANGE}» [2]" in details


def test_a_sentence_of_the_asked_type_goes_before_a_better_ranked_one_without_a_value() -> None:
    question = build_question(QUESTION)
    chosen = code_norm(question, _ranked(CODE_NO_VALUE, CODE_RANGE), [KB_RULE])
    assert chosen is not None and chosen.sentence == CODE_RANGE
    # without one of the asked type, the first related Code sentence
    chosen = code_norm(question, _ranked(CODE_NO_VALUE), [KB_RULE])
    assert chosen is not None and chosen.sentence == CODE_NO_VALUE


def test_nothing_is_added_when_the_code_sentence_is_quoted_or_unrelated() -> None:
    question = build_question(QUESTION)
    assert code_norm(question, _ranked(CODE_RANGE), [KB_RULE, f"«{CODE_RANGE}»"]) is None
    assert code_norm(question, _ranked(CODE_UNRELATED), [KB_RULE]) is None
    assert code_norm(question, _ranked(), [KB_RULE]) is None


def test_document_answers_and_own_practice_questions_get_no_code_entry() -> None:
    question = build_question(QUESTION)
    assert code_norm(question, _ranked(CODE_RANGE, top=DOC), ["4.1. Аренда 5 000 руб."]) is None
    own = build_question("Какую ставку УСН доходы мы применяем по нашей учётной политике?")
    assert code_norm(own, _ranked(CODE_RANGE), [KB_RULE]) is None


def test_a_second_code_sentence_follows_when_the_first_norm_states_no_value_asked() -> None:
    # the typed sentence goes first; the next related one, not quoted yet, follows it
    question = build_question(QUESTION)
    ranked = _ranked(CODE_NO_VALUE, CODE_RANGE, CODE_UNRELATED)
    body = compose_direct(question, build_context([KB, LAW], [], 10_000), ranked, [])
    details = body.split("## Подробный анализ")[1]
    assert f"**{CODE_NORM}, п. 1 ст. 346.20 НК РФ**" in details  # one entry, two quotes
    assert 0 < details.index(CODE_RANGE) < details.index(CODE_NO_VALUE)
    assert CODE_UNRELATED not in details


PROPERTY_KB = Chunk(id="kb9#0", text="", source="kb", title="Налог на имущество организаций")
POINT_RATES = Chunk(
    id="art380#1",
    text="",
    source="law",
    metadata={"unit_id": "nk2.art380.p1", "citation": "п. 1 ст. 380 НК РФ"},
)
POINT_PIPES = Chunk(
    id="art380#3",
    text="",
    source="law",
    metadata={"unit_id": "nk2.art380.p3", "citation": "п. 3 ст. 380 НК РФ"},
)
RATES_CAP = "Налоговые ставки по налогу на имущество организаций не могут превышать 2,2 процента."
RATES_CADASTRAL = (
    "Для объектов, база по которым определяется как кадастровая стоимость, ставка налога "
    "на имущество организаций не может превышать 2 процентов."
)
PIPES_RATE = (
    "Налоговая ставка по налогу на имущество организаций в отношении магистральных "
    "трубопроводов устанавливается в размере 1,6 процента."
)
PROPERTY_QUESTION = "По какой ставке платится налог на имущество организаций?"


def _property_ranked() -> list[Candidate]:
    kb = Candidate(PROPERTY_KB, 1, "Ставку налога на имущество устанавливает регион.", 0, 0)
    return [
        Candidate(kb.chunk, 1, kb.sentence, 0, 0, score=3.0, learned=True),
        Candidate(POINT_RATES, 2, RATES_CAP, 1, 0, score=-1.0, learned=True),
        Candidate(POINT_RATES, 2, RATES_CADASTRAL, 1, 1, score=-1.5, learned=True),
        Candidate(POINT_PIPES, 3, PIPES_RATE, 2, 0, score=-2.5, learned=True),
    ]


def test_a_point_the_answer_quotes_nothing_of_goes_before_another_sentence_of_a_quoted_one() -> (
    None
):
    question = build_question(PROPERTY_QUESTION)
    ranked = _property_ranked()
    # the details quote a sentence of п. 1 already: the value of п. 3 comes before its next
    chosen = code_norm(question, ranked, [f"«{RATES_CAP}»"])
    assert chosen is not None and chosen.sentence == PIPES_RATE
    # nothing of п. 1 quoted yet: the ranker's order, as before
    chosen = code_norm(question, ranked, ["Ставку налога на имущество устанавливает регион."])
    assert chosen is not None and chosen.sentence == RATES_CAP
    # every point quoted: the next sentence of the asked type in the ranker's order
    shown = [f"«{RATES_CAP}»", f"«{PIPES_RATE}»"]
    chosen = code_norm(question, ranked, shown)
    assert chosen is not None and chosen.sentence == RATES_CADASTRAL


TRAINING = Chunk(
    id="art264#7",
    text="",
    source="law",
    metadata={"unit_id": "nk2.art264.p3", "citation": "п. 3 ст. 264 НК РФ"},
)
TRAINING_TERMS = Chunk(
    id="art264#8",
    text="",
    source="law",
    metadata={"unit_id": "nk2.art264.p4", "citation": "п. 4 ст. 264 НК РФ"},
)
TRAINING_START = (
    "Расходы налогоплательщика на обучение работников по программам повышения "
    "квалификации учитываются в составе прочих расходов в размере, не превышающем 3 процентов…"
)
TRAINING_REST = "…не превышающем 3 процентов расходов на оплату труда за отчетный период."
TRAINING_CONTRACT = (
    "Расходы на обучение работников учитываются при наличии договора с образовательной "
    "организацией."
)


def test_the_rest_of_a_cut_code_quote_goes_first_when_it_states_the_value() -> None:
    question = build_question("Расходы на обучение работников учитываются целиком?")
    ranked = [
        Candidate(TRAINING, 1, TRAINING_START, 0, 0, score=2.0, learned=True),
        Candidate(TRAINING_TERMS, 2, TRAINING_CONTRACT, 1, 0, score=1.0, learned=True),
        Candidate(TRAINING, 1, TRAINING_REST, 0, 1, score=-3.0, learned=True),
    ]
    # the quote stops at «3 процентов…»: the window that says of what comes first
    chosen = code_norm(question, ranked, [f"«{TRAINING_START}»"])
    assert chosen is not None and chosen.sentence == TRAINING_REST
    # the start not quoted: the ranker's order
    chosen = code_norm(question, ranked[1:], ["Обучение оплачивает работодатель."])
    assert chosen is not None and chosen.sentence == TRAINING_CONTRACT
