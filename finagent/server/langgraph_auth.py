"""Authentication for the LangGraph API (langgraph.json ``auth``).

Every request needs ``Authorization: Bearer <token>`` from FINAGENT_API_TOKENS. The
token's user becomes the run's identity (``langgraph_auth_user_id``), which finagent's
nodes and tools use instead of any ``user_id`` the caller puts in the configuration, and
threads are visible only to the user who created them. Stateless runs (no thread) work:
their temporary thread is stamped with the caller as owner.
"""

from __future__ import annotations

from typing import Any

from langgraph_sdk import Auth
from langgraph_sdk.auth.types import RunsCreate, ThreadsCreate

from finagent.config import get_settings
from finagent.server.identity import Unauthorized, user_for_authorization

auth = Auth()


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    try:
        user = user_for_authorization(get_settings(), authorization)
    except Unauthorized as exc:
        raise Auth.exceptions.HTTPException(status_code=401, detail=str(exc)) from exc
    return {"identity": user}


@auth.on.threads.create
async def own_new_thread(ctx: Auth.types.AuthContext, value: ThreadsCreate) -> dict[str, str]:
    value.setdefault("metadata", {})["owner"] = ctx.user.identity  # type: ignore[index]
    return {"owner": ctx.user.identity}


@auth.on.threads.create_run
async def own_run_thread(ctx: Auth.types.AuthContext, value: RunsCreate) -> dict[str, str]:
    """Runs only on the caller's threads; a stateless run's temporary thread is theirs.

    The run's metadata becomes the temporary thread's metadata, so stamping the owner
    here lets a run without a thread (``/runs/wait`` with no thread id) pass the owner
    filter when its result is read back.
    """
    metadata = value.get("metadata")
    if metadata is None:
        metadata = value["metadata"] = {}
    metadata["owner"] = ctx.user.identity
    return {"owner": ctx.user.identity}


@auth.on.threads
async def only_own_threads(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    return {"owner": ctx.user.identity}
