"""Where the Tax Code text is: it is not shipped in this repository (see
docs/first-run.md), so it is looked up by name in a few places."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ENV_VAR = "FINAGENT_TAXCODE_DIR"
# where a newcomer reads how to add the text (tests check that the anchor exists)
HELP_ANCHOR = "README.md#a-five-minute-tour"
CODE = "nk"
PARTS = (1, 2)


@dataclass(frozen=True)
class CodeText:
    code: str
    part: int
    path: Path


class TaxCodeNotFoundError(LookupError):
    """No folder with both parts of the Tax Code; the message says where to put them."""


def part_file(folder: Path, part: int) -> Path | None:
    """``nk-part{N}-<edition>.txt`` in ``folder`` (the newest edition when several)."""
    found = sorted(folder.glob(f"{CODE}-part{part}-*.txt")) + sorted(
        folder.glob(f"{CODE}-part{part}.txt")
    )
    return found[-1] if found else None


def candidate_dirs(configured: Path | None = None, cwd: Path | None = None) -> list[Path]:
    """The setting (FINAGENT_TAXCODE_DIR), ``../shared/data/tax-code`` next to the current
    directory (the repository's root when run from there), ``./tax-code`` and the current
    directory, in this order."""
    here = cwd or Path.cwd()
    env = os.environ.get(ENV_VAR)
    dirs = [
        configured,
        Path(env) if env else None,
        here.parent / "shared" / "data" / "tax-code",
        here / "tax-code",
        here,
    ]
    return list(dict.fromkeys(d for d in dirs if d is not None))


def find_tax_code(configured: Path | None = None, cwd: Path | None = None) -> list[CodeText]:
    """Both parts from the first folder that has them; raises TaxCodeNotFoundError."""
    dirs = candidate_dirs(configured, cwd)
    if configured is not None or os.environ.get(ENV_VAR):
        dirs = dirs[:1]  # an explicit folder is the only place looked at
    for folder in dirs:
        files = [part_file(folder, part) for part in PARTS]
        if all(files):
            return [CodeText(CODE, part, f) for part, f in zip(PARTS, files, strict=True) if f]
    where = ", ".join(str(d) for d in dirs)
    raise TaxCodeNotFoundError(
        "текст Налогового кодекса не найден (искали в: "
        f"{where}). Положите файлы nk-part1-<редакция>.txt и nk-part2-<редакция>.txt "
        f"в папку ../shared/data/tax-code рядом с репозиторием или в ./tax-code, "
        f"либо укажите папку в {ENV_VAR}. Файл другого кодекса или редакции можно "
        "передать путём: finagent ingest law ПУТЬ --code nk --part 1. "
        f"Подробнее: {HELP_ANCHOR}"
    )


def try_find_tax_code(configured: Path | None = None) -> list[CodeText]:
    """Like :func:`find_tax_code`, but an empty list when the text is absent."""
    try:
        return find_tax_code(configured)
    except TaxCodeNotFoundError:
        return []
