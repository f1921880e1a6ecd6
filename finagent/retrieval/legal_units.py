"""Units of a Russian code (article preambles and points) with their ids, citations and
headings, and the codes' short names."""

from __future__ import annotations

from dataclasses import dataclass

CODE_NAMES = {
    "nk": "НК РФ",
    "gk": "ГК РФ",
    "tk": "ТК РФ",
    "bk": "БК РФ",
    "koap": "КоАП РФ",
}
# Everyday names of Tax Code chapters (what users type), added to the keyword text.
NK_CHAPTER_ALIASES = {
    "21": "НДС",
    "23": "НДФЛ подоходный налог",
    "25": "налог на прибыль",
    "26.1": "ЕСХН",
    "26.2": "УСН упрощенка",
    "26.5": "ПСН патент",
    "33.1": "туристический налог",
    "34": "страховые взносы",
}


def code_name(code: str) -> str:
    """Human abbreviation of a code id (``nk`` -> ``НК РФ``)."""
    return CODE_NAMES.get(code.lower(), code.upper())


@dataclass
class LegalUnit:
    """One citable unit: an article (preamble / point-less article) or a point."""

    code: str
    part: int | None
    chapter: str
    chapter_title: str
    article: str
    article_title: str
    point: str | None
    text: str
    amendments: int = 0
    repealed: bool = False

    @property
    def code_id(self) -> str:
        return f"{self.code}{self.part}" if self.part is not None else self.code

    @property
    def article_id(self) -> str:
        return f"{self.code_id}.ch{self.chapter}.art{self.article}"

    @property
    def unit_id(self) -> str:
        return self.article_id if self.point is None else f"{self.article_id}.p{self.point}"

    @property
    def citation(self) -> str:
        """«п. 2 ст. 88 НК РФ», as Russian legal texts write it."""
        point = f"п. {self.point} " if self.point is not None else ""
        return f"{point}ст. {self.article} {code_name(self.code)}"

    @property
    def chapter_label(self) -> str:
        """``Глава 21. Налог на добавленную стоимость (НДС)``: chapter title and alias."""
        title = self.chapter_title.capitalize()
        alias = NK_CHAPTER_ALIASES.get(self.chapter) if self.code == "nk" else None
        return f"Глава {self.chapter}. {title}" + (f" ({alias})" if alias else "")

    @property
    def heading(self) -> str:
        """``Статья 88. Камеральная налоговая проверка`` (+ ``, п. 2``)."""
        head = f"Статья {self.article}. {self.article_title}".rstrip(". ")
        return f"{head}, п. {self.point}" if self.point is not None else head
