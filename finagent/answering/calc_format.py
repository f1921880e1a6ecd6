"""How the calculators' answers write dates and roubles."""

from __future__ import annotations

from datetime import date


def ddmmyyyy(iso: str) -> str:
    """``2025-07-15`` as ``15.07.2025``."""
    return date.fromisoformat(iso).strftime("%d.%m.%Y")


def rubles(text: str) -> str:
    """``1234567.8`` as ``1 234 567,8 руб.`` (``.00`` added to whole amounts)."""
    whole, _, frac = text.partition(".")
    grouped = f"{int(whole):,}".replace(",", " ")
    return f"{grouped},{frac or '00'} руб."
