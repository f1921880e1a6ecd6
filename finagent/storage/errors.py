"""Errors of the storage layer, importable without the optional PostgreSQL driver."""

from __future__ import annotations


class StorageUnavailableError(RuntimeError):
    """The database cannot be opened; the message never contains the DSN's secrets.

    ``user_message`` is what a person is shown (Russian) when the message is not.
    """

    def __init__(self, message: str, user_message: str | None = None) -> None:
        super().__init__(message)
        self.user_message = user_message
