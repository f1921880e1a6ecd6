"""A word new to the process: its grammatical questions with one shared pymorphy3 parse
(``language.lemmas.parses``) against a parse per question (the code before), side by side.

A first answer about new text (a new user's documents, passages no earlier question
retrieved) asks several grammatical questions of each new word: its part of speech, its
case, its normal forms, whether it is a content word, animate, a name. Each used to parse
the word again. Here the knowledge base's words are split into blocks of words neither
side has met; every question's cache is emptied before a block, so each block is a first
sight. "per question" empties the shared readings before every question (one parse per
question, as before); "shared" keeps them. The sides alternate A B B A over the blocks.

    python benchmarks/bench_word_readings.py [--words 4000] [--block 250]
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from finagent.language import lemmas  # noqa: E402

# the questions an answer asks of a retrieved or document word (lemmas.py's callers)
QUESTIONS: list[Callable[[str], object]] = [
    lemmas.part_of_speech,
    lemmas.content_word,
    lemmas.normal_forms,
    lemmas.grammatical_case,
    lemmas.genitive,
    lemmas.animate,
    lemmas.name_like,
    lemmas.done,
    lemmas.nominative,
    lemmas.past_participle,
]
_WORD = re.compile(r"[А-Яа-яЁё]{3,}")


def kb_words(limit: int) -> list[str]:
    """Distinct Cyrillic words of the knowledge base, in order of first use."""
    seen: dict[str, None] = {}
    with (REPO / "knowledge_base" / "train_data.csv").open(encoding="utf-8") as fh:
        for row in csv.reader(fh):
            for word in _WORD.findall(" ".join(row)):
                seen.setdefault(word, None)
                if len(seen) >= limit:
                    return list(seen)
    return list(seen)


def _forget() -> None:
    lemmas.parses.cache_clear()
    for question in QUESTIONS:
        clear = getattr(question, "cache_clear", None)
        if clear is not None:
            clear()


def run_block(words: list[str], shared: bool) -> float:
    """Seconds to ask every question of every word, first sight."""
    _forget()
    started = time.perf_counter()
    for word in words:
        for question in QUESTIONS:
            if not shared:
                lemmas.parses.cache_clear()  # a parse per question, as before
            question(word)
    return time.perf_counter() - started


def main(total: int, size: int) -> None:
    lemmas.best_parse("налог")  # the dictionaries load outside the timing
    words = kb_words(total)
    blocks = [words[i : i + size] for i in range(0, len(words), size)]
    times: dict[str, list[float]] = {"per question": [], "shared": []}
    for n, block in enumerate(blocks):
        order = (False, True) if n % 2 == 0 else (True, False)  # A B, then B A
        for shared in order:
            seconds = run_block(block, shared)
            times["shared" if shared else "per question"].append(seconds / len(block))
    print(f"{len(words)} words in {len(blocks)} blocks, {len(QUESTIONS)} questions each")
    for side, values in times.items():
        print(f"{side:<14} {1e6 * statistics.fmean(values):8.0f} µs a word (mean over blocks)")
    ratio = statistics.fmean(times["shared"]) / statistics.fmean(times["per question"])
    print(f"ratio shared / per question: {ratio:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=4000)
    parser.add_argument("--block", type=int, default=250)
    args = parser.parse_args()
    main(args.words, args.block)
