"""The checkpointer's serializer, with the state's own types registered (strict msgpack).

LangGraph writes pydantic models and enums of the state (``Decision``, ``Chunk``, ...) to
checkpoints as msgpack extensions naming their class. By default it still rebuilds
unregistered classes, logging "Deserializing unregistered type ..." for each, and it will
refuse them once strict msgpack is the default. Here the serializer gets an explicit
allowlist: LangGraph's safe types (messages, datetimes, ...) plus every pydantic model and
enum reachable from the state schema. Anything else in a checkpoint is refused.

Every value is redacted before it is written (``finagent.redaction.scrub``, types kept):
no form of a secret reaches a checkpoint, whatever node or library put it in the state
(a provider's error body in a message's ``response_metadata``, a tool's error text).
"""

from __future__ import annotations

import copy
import types
from enum import Enum
from typing import Any, Union, get_args, get_origin, get_type_hints

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from pydantic import BaseModel
from typing_extensions import is_typeddict  # typing's misses typing_extensions' TypedDicts on 3.11

from finagent import state
from finagent.redaction import scrub
from finagent.state import AgentState


def _collect(typ: Any, found: set[type], seen: set[int]) -> None:
    if id(typ) in seen:
        return
    seen.add(id(typ))
    origin = get_origin(typ)
    if origin is not None or isinstance(typ, types.UnionType) or origin is Union:
        for arg in get_args(typ):
            _collect(arg, found, seen)
        return
    if is_typeddict(typ):
        for hint in get_type_hints(typ, include_extras=True).values():
            _collect(hint, found, seen)
        return
    if isinstance(typ, type) and issubclass(typ, BaseModel):
        if typ.__module__.startswith("finagent."):
            found.add(typ)
            for field in typ.model_fields.values():
                _collect(field.annotation, found, seen)
        return
    if isinstance(typ, type) and issubclass(typ, Enum):
        found.add(typ)


def state_types(*schemas: Any) -> list[type]:
    """finagent's pydantic models and enums reachable from the given state schemas
    (the agent's by default), and every one defined in ``finagent.state``."""
    found: set[type] = set()
    seen: set[int] = set()
    own = [v for v in vars(state).values() if getattr(v, "__module__", "") == state.__name__]
    for schema in [*(schemas or (AgentState,)), *own]:
        _collect(schema, found, seen)
    return sorted(found, key=lambda t: (t.__module__, t.__qualname__))


class RedactingSerializer(JsonPlusSerializer):
    """``JsonPlusSerializer`` that redacts every value before writing it."""

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        return super().dumps_typed(scrub(obj))


def redacting(serde: JsonPlusSerializer) -> JsonPlusSerializer:
    """``serde`` (any ``JsonPlusSerializer`` class, the LangGraph API's included) writing
    redacted values only."""
    if isinstance(serde, RedactingSerializer):
        return serde
    clone = copy.copy(serde)
    writes = type(serde).dumps_typed

    def dumps_typed(obj: Any) -> tuple[str, bytes]:
        return writes(clone, scrub(obj))

    clone.dumps_typed = dumps_typed  # type: ignore[method-assign]
    return clone


def checkpoint_serde() -> JsonPlusSerializer:
    """A strict msgpack serializer that knows the state's types and writes redacted values."""
    allowed = [(t.__module__, t.__name__) for t in state_types()]
    return RedactingSerializer(allowed_msgpack_modules=allowed)


def with_state_types(saver: BaseCheckpointSaver[Any]) -> BaseCheckpointSaver[Any]:
    """``saver`` (e.g. the one the LangGraph API lends a graph) with an explicit allowlist:
    LangGraph's safe types plus the state's, instead of "allow all, warn for each".

    ``with_msgpack_allowlist`` does not narrow a serializer that allows everything, so the
    copy starts from "safe types only" and adds the state's types to it. The serializer's
    class (the API's pickle fallback included) is kept, and it writes redacted values.
    """
    serde = saver.serde
    if not isinstance(serde, JsonPlusSerializer):
        return saver
    explicit = copy.copy(serde)
    explicit._allowed_msgpack_modules = None  # LangGraph's safe types only
    allowed = [(t.__module__, t.__name__) for t in state_types()]
    clone = copy.copy(saver)
    clone.serde = redacting(explicit.with_msgpack_allowlist(allowed))
    return clone
