"""Uploaded files on disk: private (0600 files, 0700 folders) under the data dir, with
safe names, and removed on start-up after a crash."""

from __future__ import annotations

import os
import shutil
from pathlib import Path, PurePosixPath

UPLOAD_PREFIX = "finagent-upload-"
MAX_NAME_BYTES = 255  # one path component on common filesystems


def safe_filename(raw: str | None, fallback: str) -> str:
    """The client's file name reduced to one printable path component of at most 255 bytes."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable()).strip()
    if name in ("", ".", ".."):
        return fallback
    if len(name.encode()) > MAX_NAME_BYTES:
        suffix = PurePosixPath(name).suffix
        suffix = suffix if len(suffix.encode()) <= 16 else ""
        stem = name[: len(name) - len(suffix)].encode()[: MAX_NAME_BYTES - len(suffix.encode())]
        name = stem.decode("utf-8", "ignore") + suffix
    return name


def uploads_dir(data_dir: Path) -> Path:
    """Where uploads wait for ingestion: inside the data dir, never in a shared /tmp."""
    return data_dir / "uploads"


def private_uploads_dir(data_dir: Path) -> Path:
    """The uploads folder, created if needed and readable by its owner only (0700)."""
    root = uploads_dir(data_dir)
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    root.chmod(0o700)
    return root


def clean_uploads(data_dir: Path) -> int:
    """Remove what uploads left behind after a crash (kill -9); the number removed.

    Called on start-up, before the service takes requests.
    """
    root = uploads_dir(data_dir)
    removed = 0
    if not root.is_dir():
        return removed
    for entry in root.iterdir():
        if entry.name.startswith(UPLOAD_PREFIX):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
            removed += 1
    return removed


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to a new file only its owner can read (0600, folders 0700)."""
    path.parent.mkdir(mode=0o700, parents=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
