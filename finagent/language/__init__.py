"""Russian text shared by routing, answering, cards and calculations.

Tokens and sentences come from razdel, lemmas from pymorphy3; dates, money, percentages,
periods, identifiers and organisations are read from the tokens by small scanners driven by
lemma tables; persons by natasha's NER (imported lazily, only where cards are built).
See docs/language.md.
"""
