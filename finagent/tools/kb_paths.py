"""Path safety for the knowledge-base file tools.

Every path or glob pattern that comes from the LLM goes through this module before it
touches the file system. A path is checked twice: first as text (NFKC-normalised, with
Unicode look-alikes of ``/``, ``\\`` and ``.`` folded), then on disk (``os.path.realpath``
must stay inside the real KB root). Files are then opened with :func:`open_inside`, which
refuses a symlink swapped in after the check. Error messages never repeat the rejected
input or any server path.
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from finagent.tools.base import ToolError

KB_URI_PREFIX = "kb://"
MAX_PATH_CHARS = 1000
MAX_PATH_DEPTH = 32
MAX_NAME_BYTES = 255

ESCAPES_ROOT = "path escapes the knowledge base root"

# Look-alikes that NFKC does not fold to ASCII; folded here before validation.
_LOOKALIKES = str.maketrans(
    {
        "\u2215": "/",  # ∕ division slash
        "\u2044": "/",  # ⁄ fraction slash
        "\u29f8": "/",  # ⧸ big solidus
        "\u27cb": "/",  # ⟋ mathematical rising diagonal
        "\u2571": "/",  # ╱ box drawings diagonal
        "\u2216": "\\",  # ∖ set minus
        "\u29f5": "\\",  # ⧵ reverse solidus operator
        "\u29f9": "\\",  # ⧹ big reverse solidus
        "\u27cd": "\\",  # ⟍ mathematical falling diagonal
        "\u2572": "\\",  # ╲ box drawings diagonal
        "\u3002": ".",  # 。 ideographic full stop (also the NFKC form of U+FF61)
        "\u0701": ".",  # ܁ Syriac supralinear full stop
        "\u0702": ".",  # ܂ Syriac sublinear full stop
        "\ua60e": ".",  # ꘎ Vai full stop
    }
)

_REJECTED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_URL_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}|%u[0-9A-Fa-f]{4}")
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class KbPath:
    """A validated location inside the knowledge base."""

    rel: str
    """Normalised POSIX path relative to the KB root (``""`` for the root itself)."""
    real: Path
    """Fully resolved path on disk; always inside the real KB root."""

    @property
    def uri(self) -> str:
        return kb_uri(self.rel)


def kb_uri(rel: str) -> str:
    """The address shown to the LLM instead of a server path: ``kb://<relative path>``."""
    return KB_URI_PREFIX + rel


def real_root(root: Path) -> Path:
    """The resolved KB root; a ToolError (without the path) when it is not a directory."""
    try:
        resolved = Path(os.path.realpath(root))
        if resolved.is_dir():
            return resolved
    except (OSError, ValueError):
        pass
    raise ToolError("the knowledge base is not available (no knowledge-base folder yet)")


def is_inside(root_real: Path, candidate: Path | str) -> bool:
    """Whether ``candidate`` resolves (following every symlink) to a place inside the root."""
    try:
        resolved = Path(os.path.realpath(candidate))
    except (OSError, ValueError):
        return False
    if not resolved.is_relative_to(root_real):
        return False
    return not any(part.startswith(".") for part in resolved.relative_to(root_real).parts)


def split_relative(raw: str, *, glob: bool = False) -> list[str]:
    """Validate ``raw`` as text and return its components (``.`` and empty parts dropped).

    Rejects ``..`` traversal, absolute paths, ``~``, URL-encoded sequences, Unicode
    look-alike separators and dots, control and format characters (NUL included),
    Windows separators, drive letters, UNC paths and hidden (dot) components.
    With ``glob=True`` the same rules apply to a glob pattern.
    """
    what = "pattern" if glob else "path"
    if not isinstance(raw, str):
        raise ToolError(f"the {what} must be a string")
    if len(raw) > MAX_PATH_CHARS:
        raise ToolError(f"the {what} is too long (max {MAX_PATH_CHARS} characters)")
    text = unicodedata.normalize("NFC", raw)
    if any(unicodedata.category(ch) in _REJECTED_CATEGORIES for ch in text):
        raise ToolError(f"the {what} contains control or invisible characters (e.g. NUL)")
    check = unicodedata.normalize("NFKC", text.translate(_LOOKALIKES)).translate(_LOOKALIKES)
    if check.count("/") != text.count("/") or check.count("\\") != text.count("\\"):
        raise ToolError(
            f"the {what} contains Unicode look-alikes of '/' or '\\'; use plain ASCII '/'"
        )
    if "\\" in check:
        raise ToolError(
            f"backslashes (Windows or UNC paths) are not allowed; use '/' in the {what}"
        )
    if check.startswith("/"):
        raise ToolError(f"absolute {what}s are not allowed; give a {what} relative to the KB root")
    if _DRIVE.match(check):
        raise ToolError(f"drive letters are not allowed; give a {what} relative to the KB root")
    if check.startswith("~"):
        raise ToolError(f"home-directory {what}s ('~') are not allowed")
    if _URL_ESCAPE.search(check):
        raise ToolError(f"URL-encoded sequences (%xx) are not allowed in the {what}")
    parts: list[str] = []
    for shown, folded in zip(text.split("/"), check.split("/"), strict=True):
        if folded in ("", "."):
            continue
        if folded.strip(" .") == "":
            raise ToolError(f"{ESCAPES_ROOT}: '..' is not allowed")
        if folded.startswith("."):
            raise ToolError("hidden files and folders (names starting with '.') are not accessible")
        if len(shown.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            raise ToolError(f"a name in the {what} is too long (max {MAX_NAME_BYTES} bytes)")
        parts.append(shown)
    if len(parts) > MAX_PATH_DEPTH:
        raise ToolError(f"the {what} is too deep (max {MAX_PATH_DEPTH} levels)")
    return parts


def resolve_kb_path(root: Path, raw: str) -> KbPath:
    """Resolve an LLM-supplied ``raw`` path against the KB ``root``; ToolError if unsafe.

    The result may not exist; callers check existence and type. Symlinks are followed
    with ``os.path.realpath`` and must land inside the real root.
    """
    parts = split_relative(raw)
    root_real = real_root(root)
    candidate = root_real.joinpath(*parts)
    try:
        resolved = Path(os.path.realpath(candidate))
    except (OSError, ValueError) as exc:
        raise ToolError("the path cannot be resolved") from exc
    if not resolved.is_relative_to(root_real):
        raise ToolError(ESCAPES_ROOT)
    if any(p.startswith(".") for p in resolved.relative_to(root_real).parts):
        raise ToolError("hidden files and folders (names starting with '.') are not accessible")
    return KbPath(rel="/".join(parts), real=resolved)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def open_inside(root_real: Path, real: Path) -> BinaryIO:
    """Open a checked file for binary reading, following no symlink below the root.

    ``real`` comes from ``realpath``, so it held no symlinks when it was checked. Walking
    it one component at a time from a descriptor of the root, with ``O_NOFOLLOW``,
    refuses a folder or file replaced by a symlink after the check (no time-of-check /
    time-of-use gap). ``O_NONBLOCK`` keeps a FIFO swapped in from blocking the open.
    Raises ToolError for anything but a regular file, OSError when the walk fails.
    """
    parts = real.relative_to(root_real).parts
    if not parts:
        raise ToolError("this is a folder; use kb_list_directory")
    dir_fd = os.open(root_real, os.O_RDONLY | _DIRECTORY)
    try:
        for name in parts[:-1]:
            next_fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=dir_fd)
            os.close(dir_fd)
            dir_fd = next_fd
        fd = os.open(parts[-1], os.O_RDONLY | _NOFOLLOW | _NONBLOCK, dir_fd=dir_fd)
    finally:
        os.close(dir_fd)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ToolError("not a regular file")
    return os.fdopen(fd, "rb")


def validate_glob(pattern: str) -> str:
    """A glob pattern made safe: same rules as paths, returned as normalised text."""
    parts = split_relative(pattern, glob=True)
    if not parts:
        raise ToolError("the pattern is empty; use e.g. '*.md' or '**/*.md'")
    return "/".join(parts)


def echo(raw: object, limit: int = 200) -> str:
    """A form of an LLM input safe to repeat in output: never absolute, never a server path.

    Rejected inputs may be absolute paths to server files; only their last component
    is repeated (``…/name``).
    """
    text = raw if isinstance(raw, str) else repr(raw)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _REJECTED_CATEGORIES)
    try:
        split_relative(text)
    except ToolError:
        last = re.split(r"[/\\]", text.rstrip("/\\"))[-1]
        text = "…/" + last if last != text else text
        if _DRIVE.match(text) or text.startswith(("~", "/")):
            text = "…"
    return text[:limit]


def walk(
    root_real: Path, start: Path, *, recursive: bool
) -> Iterator[tuple[str, os.DirEntry[str], bool]]:
    """Yield ``(relative path, entry, is_dir)`` under ``start``, sorted, safe.

    Hidden entries, special files and anything whose real path leaves the root are
    skipped. Symlinked folders are listed but not descended into (no cycles).
    """
    try:
        with os.scandir(start) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            is_link = entry.is_symlink()
            if is_link and not is_inside(root_real, entry.path):
                continue
            is_dir = entry.is_dir()
            is_file = entry.is_file()
        except OSError:
            continue
        if not (is_dir or is_file):
            continue
        rel = Path(entry.path).relative_to(root_real).as_posix()
        yield rel, entry, is_dir
        if is_dir and recursive and not is_link:
            yield from walk(root_real, Path(entry.path), recursive=True)
