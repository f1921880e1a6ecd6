"""resolve_legal_reference: the exact text of a cited unit of an ingested code."""

from __future__ import annotations

from pydantic import BaseModel, Field

from finagent.legal.catalog import LawCatalog, Resolution
from finagent.legal.references import find_references
from finagent.retrieval.legal_units import code_name
from finagent.tools.base import Tool, ToolContext, ToolError

_PROBLEMS = {
    "code": "this code is not ingested",
    "article": "no such article in the ingested text",
    "point": "no such point in this article",
    "subpoint": "no such sub-point in this point",
}


class ResolveLegalReferenceInput(BaseModel):
    citation: str = Field(
        min_length=3,
        max_length=200,
        description="A Russian legal reference, e.g. 'п. 6 ст. 100 НК РФ', "
        "'подп. 4 п. 1 ст. 218 НК РФ' or 'статья 88 НК РФ'",
    )


class ResolveLegalReference(Tool[ResolveLegalReferenceInput]):
    """Return the exact text of a cited article, point or sub-point of an ingested code.

    Use it to check a reference before citing it, or to quote the norm a question names
    («что сказано в п. 6 ст. 100 НК РФ»). An unknown reference returns an error listing
    the nearest units that do exist.
    """

    name = "resolve_legal_reference"
    input_model = ResolveLegalReferenceInput
    output_limit = 8_000

    def __init__(self, catalog: LawCatalog) -> None:
        self._catalog = catalog

    async def run(self, args: ResolveLegalReferenceInput, ctx: ToolContext) -> str:
        refs = find_references(args.citation)
        if not refs:
            raise ToolError(
                "not a legal reference; write it like 'п. 2 ст. 88 НК РФ' or 'ст. 218 НК РФ'"
            )
        resolution = await self._catalog.resolve(refs[0])
        if not resolution.ok:
            raise ToolError(_problem(resolution, await self._catalog.codes()))
        return _render(resolution)


def _problem(resolution: Resolution, codes: set[str]) -> str:
    ref = resolution.reference
    text = f"{ref.label}: {_PROBLEMS.get(resolution.problem or '', 'not found')}"
    if resolution.nearest:
        return f"{text}; nearest existing: {', '.join(resolution.nearest)}"
    loaded = ", ".join(code_name(c) for c in sorted(codes)) or "none"
    return f"{text}; ingested codes: {loaded}"


def _render(resolution: Resolution) -> str:
    first = resolution.units[0]
    ref = resolution.reference
    edition = f"\n\nРедакция от {first.edition}." if first.edition else ""
    head = f"## {ref.label} — Статья {first.article}. {first.article_title}"
    if resolution.excerpt:
        return f"{head}\n\n{resolution.excerpt}{edition}"
    body = "\n\n".join(
        f"**{u.citation}**\n{u.text}" if len(resolution.units) > 1 else u.text
        for u in resolution.units
    )
    return f"{head}\n\n{body}{edition}"
