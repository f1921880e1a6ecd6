"""Errors of the storage layer, importable without the optional PostgreSQL driver."""

from __future__ import annotations


class StorageUnavailableError(RuntimeError):
    """The database cannot be opened; the message never contains the DSN's secrets."""
