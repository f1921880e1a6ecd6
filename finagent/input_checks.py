"""Checks of a request's input, the one place every entry point validates what it is given.

Messages are Russian: the user sees them. ``InvalidRequestError.code`` names the problem
for callers that record it in the graph state instead of raising.
"""

from __future__ import annotations

from finagent.answering import messages
from finagent.text_safety import is_utf8


class InvalidRequestError(ValueError):
    """Bad input to ``Agent.run``; the message is for the user (Russian)."""

    def __init__(self, message: str, code: str = "invalid_request") -> None:
        super().__init__(message)
        self.code = code


# The limits of the FastAPI service's AskRequest, so every entry point takes the same input.
MAX_CHAT_ID_CHARS = 200
MAX_DOCUMENT_ID_CHARS = 200
MAX_SELECTED_DOCUMENTS = 50
MAX_INSTRUCTIONS_CHARS = 2000
NO_USER = "Не указан пользователь (user_id)."


def checked_text(value: object, field: str, limit: int | None = None, *, key: bool = False) -> str:
    """``value`` if it is a string that can be stored and sent (UTF-8), else InvalidRequestError.

    ``key`` values (chat and document ids) become PostgreSQL keys, which cannot hold NUL.
    """
    if not isinstance(value, str):
        raise InvalidRequestError(messages.FIELD_WRONG_TYPE.format(field=field, expected="строкой"))
    if not is_utf8(value):  # lone surrogates: no store, index or HTTP client takes them
        raise InvalidRequestError(messages.FIELD_BAD_TEXT.format(field=field))
    if key and "\x00" in value:
        raise InvalidRequestError(messages.FIELD_BAD_TEXT.format(field=field))
    if limit is not None and len(value) > limit:
        raise InvalidRequestError(
            messages.FIELD_TOO_LONG.format(field=field, length=len(value), limit=limit)
        )
    return value


def checked_documents(value: object) -> list[str]:
    if value is None:
        return []
    field = "выбранные документы"
    if not isinstance(value, list | tuple):
        raise InvalidRequestError(
            messages.FIELD_WRONG_TYPE.format(field=field, expected="списком идентификаторов")
        )
    if len(value) > MAX_SELECTED_DOCUMENTS:
        raise InvalidRequestError(
            messages.TOO_MANY_DOCUMENTS.format(count=len(value), limit=MAX_SELECTED_DOCUMENTS)
        )
    return [
        checked_text(v, "идентификатор документа", MAX_DOCUMENT_ID_CHARS, key=True) for v in value
    ]


def checked_user(user_id: object) -> str:
    """The caller's user id; InvalidRequestError (``no_user``) when there is none."""
    if user_id is None or (isinstance(user_id, str) and not user_id.strip()):
        raise InvalidRequestError(NO_USER, "no_user")
    return checked_text(user_id, "пользователь")


def checked_query(query: object, limit: int) -> str:
    """The stripped question; InvalidRequestError (``empty_query``, ``query_too_long``)."""
    text = checked_text(query if query is not None else "", "вопрос").strip()
    if not text:
        raise InvalidRequestError(messages.EMPTY_QUERY, "empty_query")
    if len(text) > limit:
        raise InvalidRequestError(
            messages.QUERY_TOO_LONG.format(length=len(text), limit=limit), "query_too_long"
        )
    return text
