"""The Tax Code's and the knowledge base's lemma frequencies, read by the routing; the
table and its reader live in the language layer (:mod:`finagent.language.corpus_lemmas`),
which the answering layer reads too."""

from __future__ import annotations

from finagent.language.corpus_lemmas import TABLE, CorpusLemmas, build_table, corpus_lemmas, main

__all__ = ["TABLE", "CorpusLemmas", "build_table", "corpus_lemmas", "main"]

if __name__ == "__main__":
    main()
