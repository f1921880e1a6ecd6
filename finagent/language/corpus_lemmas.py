"""How often the Tax Code and the knowledge base use a lemma: a word they rarely use, or
never use as a name, is specific to whatever else names it (a user's document).

The table (``data/corpus_lemmas.tsv``) counts, for every lemma, the units (Tax Code
articles, knowledge-base articles) that use it and those that use it as a name (a
capitalised word inside a sentence). Rebuild it after the knowledge base changes:
``python -m finagent.language.corpus_lemmas --taxcode-dir DIR``.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from finagent.language.lemmas import lemma, word_parts
from finagent.language.text import analyse

TABLE = Path(__file__).parent / "data" / "corpus_lemmas.tsv"
_ARTICLE = re.compile(r"\n(?=Статья \d)")


@dataclass(frozen=True)
class CorpusLemmas:
    units: int
    used: dict[str, int]  # lemma -> units using it
    as_name: dict[str, int]  # lemma -> units using it capitalised inside a sentence

    def df(self, term: str) -> int:
        return self.used.get(term, 0)

    def name_df(self, term: str) -> int:
        return self.as_name.get(term, 0)

    def weight(self, terms: Iterable[str]) -> float:
        """The terms' inverse unit frequency, summed: a rare word weighs more."""
        return sum(math.log((self.units + 1) / (self.df(t) + 1)) for t in terms)


@cache
def corpus_lemmas(path: Path = TABLE) -> CorpusLemmas:
    """The shipped table (an empty one when it is missing: every word counts as rare)."""
    used: dict[str, int] = {}
    as_name: dict[str, int] = {}
    units = 0
    if path.is_file():
        with path.open(encoding="utf-8") as handle:
            units = int(handle.readline().split()[-1])
            for line in handle:
                term, df, name_df = line.rstrip("\n").split("\t")
                used[term] = int(df)
                if name_df != "0":
                    as_name[term] = int(name_df)
    return CorpusLemmas(units, used, as_name)


def _lemmas_of(text: str) -> tuple[set[str], set[str]]:
    """Every lemma of ``text`` and those written as a name (capitalised inside a sentence)."""
    used: set[str] = set()
    named: set[str] = set()
    for sentence in analyse(text).sentences:
        for index, token in enumerate(sentence.tokens):
            if not any(ch.isalpha() for ch in token.text):
                continue
            capitalised = index > 0 and token.text[:1].isupper() and not token.text.isupper()
            for part in word_parts(token.text):
                term = token.lemma if part == token.text else lemma(part)
                used.add(term)
                if capitalised:
                    named.add(term)
    return used, named


def _units(taxcode_dir: Path, kb_csv: Path) -> Iterator[str]:
    for path in sorted(taxcode_dir.glob("*.txt")):
        yield from _ARTICLE.split(path.read_text(encoding="utf-8"))
    csv.field_size_limit(10**8)
    with kb_csv.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            yield f"{row['annotation']}\n{row['text']}"


def build_table(units: Iterable[str], path: Path) -> int:
    used: Counter[str] = Counter()
    as_name: Counter[str] = Counter()
    count = 0
    for unit in units:
        words, names = _lemmas_of(unit)
        used.update(words)
        as_name.update(names)
        count += 1
    lines = [f"{term}\t{n}\t{as_name[term]}" for term, n in sorted(used.items())]
    path.write_text(f"# units {count}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taxcode-dir", type=Path, required=True)
    parser.add_argument("--kb", type=Path, default=Path("knowledge_base/train_data.csv"))
    parser.add_argument("--out", type=Path, default=TABLE)
    args = parser.parse_args()
    units = build_table(_units(args.taxcode_dir, args.kb), args.out)
    print(f"{units} units -> {args.out}")


if __name__ == "__main__":
    main()
