"""Cheap checks of a zip container (.docx) before any parser opens it.

Only the central directory is read: member count, declared unpacked sizes and the
compression ratio of each large member. A zip bomb (a small file that inflates to
gigabytes of XML) is refused in milliseconds, with a Russian message for the user.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

MAX_MEMBERS = 2000
MAX_COMPRESSION_RATIO = 200  # Word XML packs 5-30x; a bomb packs hundreds of times more
RATIO_CHECKED_FROM_BYTES = 1024 * 1024  # small members may pack well: not checked


class DocumentLoadError(Exception):
    """A file that cannot be ingested; the message says why, in Russian, for the user.

    ``detail`` holds the cause in a parser's own words (English) for the log only; it
    survives the trip back from a parse worker process.
    """

    def __init__(self, message: str, *, detail: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (str(self), self.detail))


def _rebuild(message: str, detail: str | None) -> DocumentLoadError:
    return DocumentLoadError(message, detail=detail)


def check_zip(
    path: Path,
    *,
    max_unpacked_bytes: int,
    max_ratio: int = MAX_COMPRESSION_RATIO,
    max_members: int = MAX_MEMBERS,
) -> None:
    """Raise DocumentLoadError when the archive would unpack to too much.

    A file that is not a readable zip passes (the parser then reports it as unreadable).
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return
    if len(members) > max_members:
        raise DocumentLoadError(
            f"{path.name}: в архиве слишком много частей "
            f"({len(members)}, допустимо не больше {max_members})"
        )
    unpacked = sum(info.file_size for info in members)
    if unpacked > max_unpacked_bytes:
        raise DocumentLoadError(
            f"{path.name}: после распаковки файл слишком большой "
            f"({unpacked} байт, допустимо не больше {max_unpacked_bytes})"
        )
    for info in members:
        if info.file_size < RATIO_CHECKED_FROM_BYTES:
            continue
        ratio = info.file_size / max(info.compress_size, 1)
        if ratio > max_ratio:
            raise DocumentLoadError(
                f"{path.name}: файл сжат слишком сильно (степень сжатия {ratio:.0f}, "
                f"допустимо не больше {max_ratio}): похоже на zip-бомбу, файл не открывался"
            )
