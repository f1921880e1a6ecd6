"""The table of procedural periods (data/procedural_periods.yaml) and how a question
is matched to it: the most specific situation, the norm the question cites, ambiguity
between periods, and situations the calculator declines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any

import yaml

from finagent.legal.calc_wording import canonical
from finagent.legal.deadlines import Unit


@dataclass(frozen=True)
class ProceduralPeriod:
    """One row of data/procedural_periods.yaml (``decline`` rows have no period)."""

    id: str
    what: str
    event: str
    period: int
    unit: Unit
    norm: str
    unit_id: str
    patterns: tuple[str, ...]
    requires: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    priority: int = 1
    decline: str | None = None
    event_cue: str | None = None  # words next to the event's date («вручено», «истек»)
    asked: tuple[str, ...] = ()  # must be in the asked part («вруч» for delivering the act)
    unless_asked: tuple[str, ...] = ()  # must not be in the asked part

    def matches(self, lowered: str, asked: str | None = None) -> bool:
        """Whether the question names the row's situation; ``asked`` is the part that asks
        for the date (the whole question when it cannot be told)."""
        asked = lowered if asked is None else asked
        return (
            any(re.search(p, lowered) for p in self.patterns)
            and all(re.search(p, lowered) for p in self.requires)
            and not any(re.search(p, lowered) for p in self.unless)
            and all(re.search(p, asked) for p in self.asked)
            and not any(re.search(p, asked) for p in self.unless_asked)
        )


# the words a question uses next to the date of a row's event, by the kind of event the
# row's `event` names; a row's own `event_cue` overrides this
_EVENT_CUES = (
    (r"^день получения", r"(получ|пришл|прислал|вруч|поступ|доставл|отдал|выдал)"),
    (r"^день вручения", r"(вруч|получ|пришл|отдал|выдал)"),
    (
        r"^день истечения срока исполнения",
        r"(истек|истечени|срок\w*\s+(?:\w+\s+){0,2}исполнени\w*[^.?!\d]{0,20}|со\s+сроком\s*|"
        r"исполнить\s+(?:до|не\s+позднее)\s*)",
    ),
    (r"^день истечения", r"(истек|истечени)"),
    (r"^день составления", r"(составл|датирован|оформ)"),
    (r"^дата (акта|дополнения)", r"(датирован|составл|подписан|оформ)"),
    (r"^день (представления|подачи)", r"(подан|подал|сдал|сдан|представ|направ|отправ)"),
    (r"^день вынесения", r"(вынес|принят|принял|назнач)"),
    (r"^день окончания", r"(оконч|законч|заверш)"),
    (r"^день создания", r"(созда|оборудова|открыт|открыл)"),
    (r"^день начала", r"(начал|перешл|приобрел|стал|зарегистрир)"),
    (r"^день изменения", r"(измен|смени|поменя|переех)"),
    (r"^день (прекращения|принятия решения о прекращении)", r"(прекра|закры|ликвид|решени)"),
    (r"^день государственной регистрации", r"(регистр|зарегистр)"),
    (r"^день размещения", r"(размещ|размест)"),
    (r"^день изъятия", r"(изъят|изъял|выемк)"),
    (r"^день выявления", r"(выяв|обнаруж)"),
    (r"^день, когда .{0,40}известно", r"(известн|узнал|выяснил|обнаруж)"),
)


def default_event_cue(event: str) -> str | None:
    """The words next to an event's date for a row whose `event` is «день получения ...» etc."""
    return next((cue for kind, cue in _EVENT_CUES if re.search(kind, event)), None)


@lru_cache(maxsize=1)
def procedural_periods() -> tuple[ProceduralPeriod, ...]:
    raw: list[dict[str, Any]] = yaml.safe_load(
        files("finagent.legal").joinpath("data/procedural_periods.yaml").read_text("utf-8")
    )
    return tuple(
        ProceduralPeriod(
            id=r["id"],
            what=r.get("what", ""),
            event=r.get("event", ""),
            period=int(r.get("period", 0)),
            unit=r.get("unit", "days"),
            norm=r.get("norm", ""),
            unit_id=r.get("unit_id", ""),
            patterns=tuple(r["patterns"]),
            requires=tuple(r.get("requires", ())),
            unless=tuple(r.get("unless", ())),
            priority=int(r.get("priority", 1)),
            decline=r.get("decline"),
            event_cue=r.get("event_cue") or default_event_cue(r.get("event", "")),
            asked=tuple(r.get("asked", ())),
            unless_asked=tuple(r.get("unless_asked", ())),
        )
        for r in raw
    )


# «п. 3 ст. 88», «пункта 3 статьи 88», «п.3 ст.88»; «ст. 93.1», «статьей 93», «ст 93»
_NUMBER = r"\d+(?:\.\d+)*(?:-\d+)?"  # «93.1», «105.16-3»
_CITED_POINT = re.compile(rf"\b(?:п\.|пункт\w*)\s*({_NUMBER})\s+(?:ст\.?|стать\w+)\s*({_NUMBER})")
_CITED_ARTICLE = re.compile(rf"\b(?:ст\.?|статьи|статья|статье|статьей|статью)\s*({_NUMBER})")


def _norm_key(norm: str) -> tuple[str | None, str | None]:
    m = _CITED_POINT.search(norm.lower())
    if m:
        return m[2], m[1]
    a = _CITED_ARTICLE.search(norm.lower())
    return (a[1] if a else None), None


def _cited(lowered: str, rows: list[ProceduralPeriod]) -> list[ProceduralPeriod]:
    """Rows whose norm the question cites («требование по п. 1 ст. 93.1»), if any match."""
    points = {(m[2], m[1]) for m in _CITED_POINT.finditer(lowered)}
    articles = {m[1] for m in _CITED_ARTICLE.finditer(lowered)} | {a for a, _ in points}
    if not articles:
        return rows
    keyed = [(row, _norm_key(row.norm)) for row in rows]
    by_point = [row for row, key in keyed if key in points]
    if by_point:
        return by_point
    by_article = [row for row, (article, _) in keyed if article in articles]
    return by_article or rows


@lru_cache(maxsize=1)
def _declines() -> int:
    return sum(1 for row in procedural_periods() if row.decline)


# how the part of a question that asks for the date begins: «до какой даты ...?»,
# «не позднее какого дня», «когда истекает ...», «какой последний день ...»
_ASKING = re.compile(
    r"\b(?:до|не\s+позднее|по|к)\s+как(?:ой|ого|ое|ую)\b|\bкак(?:ой|ое|ая)\s+(?:последн|крайн)"
    r"|\bпоследн\w*\s+(?:день|дат)|\bкаким\s+(?:днем|числом)|\bкакого\s+числа"
    r"|\bв\s+какой\s+срок|\bкогда\s+(?:\w+\s+){0,2}(?:истека|истек|заканчива|законч|наступ"
    r"|нужно|надо|должн|следует|обязан|можно|последн|крайн|срок)"
)


def asked_part(lowered: str) -> str:
    """The part of a question that asks for the date, after the story that leads to it.

    It starts at the first asking phrase after the previous question mark («... справка
    вручена 30.06.2025. Не позднее какой даты должен быть составлен акт?»); the whole
    question when there is none or when the asking part names nothing («До какого числа?»).
    """
    marks = [m.start() for m in re.finditer(r"\?", lowered)]
    m = _ASKING.search(lowered, marks[-2] + 1 if len(marks) > 1 else 0)
    if m is None or len(re.findall(r"[а-я]{4,}", lowered[m.end() :])) < 2:
        return lowered  # «... До какого числа?» names nothing: the whole question counts
    return lowered[m.start() :]


def find_norms(text: str) -> list[ProceduralPeriod]:
    """The rows of the most specific situation the question matches (highest priority).

    Several rows come back only when they give different periods (an ambiguous
    question); rows with the same period and unit collapse to the first.
    """
    lowered = canonical(text)
    asked = asked_part(lowered)
    candidates = [row for row in procedural_periods() if row.matches(lowered, asked)]
    if candidates:
        candidates = _cited(lowered, candidates)
    else:
        # «требование по ст. 93.1 получено ...»: no situation's words, but the cited norm
        # names its rows (several periods under one article come back as variants)
        cited = _cited(lowered, [row for row in procedural_periods() if not row.decline])
        if len(cited) == len(procedural_periods()) - _declines():
            return []
        candidates = cited
    top = max(row.priority for row in candidates)
    best: dict[tuple[int, str] | str, ProceduralPeriod] = {}
    for row in candidates:
        if row.priority == top:
            key = row.id if row.decline else (row.period, row.unit)
            best.setdefault(key, row)
    return list(best.values())


def find_norm(text: str) -> ProceduralPeriod | None:
    """The governing period when the question names exactly one situation."""
    rows = find_norms(text)
    return rows[0] if len(rows) == 1 and not rows[0].decline else None
