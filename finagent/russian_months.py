"""Russian month-name stems and their numbers, for parsing dates written in words."""

from __future__ import annotations

#: a stem matches every case form («марта», «мае», «июне»); «ма» is May
MONTHS = {
    "январ": 1,
    "феврал": 2,
    "март": 3,
    "апрел": 4,
    "ма": 5,
    "июн": 6,
    "июл": 7,
    "август": 8,
    "сентябр": 9,
    "октябр": 10,
    "ноябр": 11,
    "декабр": 12,
}
