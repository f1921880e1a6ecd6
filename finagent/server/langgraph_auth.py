"""Authentication and default-deny authorization for the LangGraph API (langgraph.json ``auth``).

Every request needs ``Authorization: Bearer <token>`` from FINAGENT_API_TOKENS. The
token's user becomes the run's identity (``langgraph_auth_user_id``), which finagent's
nodes and tools use instead of any ``user_id`` the caller puts in the configuration.

Authorization denies whatever is not explicitly allowed below (a global handler answers
403), and each resource is scoped to its owner:

* threads (and their runs, state and history) and crons: the creator's, stamped as
  ``metadata.owner`` on create and kept on update, so nobody can hand one over or plant
  one in another user's list; reads, searches, counts and deletes are filtered by owner.
  Stateless runs work: their temporary thread is stamped with the caller as owner.
* assistants: a user's own ones (stamped like threads) plus the system assistants that
  langgraph-api creates from langgraph.json's graphs (``metadata.created_by == "system"``),
  which everyone may read and run but nobody may change or delete.
* the store: only namespaces whose first label is the caller's identity; any other
  namespace is refused, and a search or listing without a prefix is narrowed to the
  caller's own.
"""

from __future__ import annotations

from typing import Any, NoReturn

from langgraph_sdk import Auth
from langgraph_sdk.auth.types import RunsCreate, ThreadsCreate

from finagent.config import get_settings
from finagent.server.identity import Unauthorized, user_for_authorization

FORBIDDEN = "Доступ запрещён: это действие с API недоступно."
FOREIGN_NAMESPACE = (
    "Доступ запрещён: пространство имён хранилища должно начинаться с вашего "
    "идентификатора пользователя («{user}»)."
)
OWNER = "owner"
SYSTEM_MARK = "created_by"  # == "system" on the assistants langgraph-api makes from graphs

auth = Auth()


def forbidden(detail: str = FORBIDDEN) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=403, detail=detail)


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    try:
        user = user_for_authorization(get_settings(), authorization)
    except Unauthorized as exc:
        raise Auth.exceptions.HTTPException(status_code=401, detail=str(exc)) from exc
    return {"identity": user}


@auth.on
async def deny_unhandled(ctx: Auth.types.AuthContext, value: Any) -> NoReturn:
    """Default deny: a resource or action without its own handler below is refused."""
    raise forbidden()


def owned_by_caller(ctx: Auth.types.AuthContext) -> dict[str, str]:
    return {OWNER: ctx.user.identity}


def stamp_owner(ctx: Auth.types.AuthContext, value: Any) -> None:
    """Make the caller the owner in ``value["metadata"]`` whatever metadata they sent.

    langgraph-api passes the very dict it stores (or merges), so the stamp sticks; the
    system mark is dropped so no user can publish an assistant to everyone.
    """
    metadata = value.get("metadata")
    if metadata is None:
        metadata = value["metadata"] = {}
    if isinstance(metadata, dict):
        metadata.pop(SYSTEM_MARK, None)
        metadata[OWNER] = ctx.user.identity


# threads (runs, state and history are thread actions) ---------------------------------


@auth.on.threads.create
async def own_new_thread(ctx: Auth.types.AuthContext, value: ThreadsCreate) -> dict[str, str]:
    stamp_owner(ctx, value)
    return owned_by_caller(ctx)


@auth.on.threads.create_run
async def own_run_thread(ctx: Auth.types.AuthContext, value: RunsCreate) -> dict[str, str]:
    """Runs only on the caller's threads; a stateless run's temporary thread is theirs.

    The run's metadata becomes the temporary thread's metadata, so stamping the owner
    here lets a run without a thread (``/runs/wait`` with no thread id) pass the owner
    filter when its result is read back.
    """
    stamp_owner(ctx, value)
    return owned_by_caller(ctx)


@auth.on.threads.update
async def update_own_thread(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    stamp_owner(ctx, value)  # new metadata may not name another owner
    return owned_by_caller(ctx)


@auth.on.threads(actions=["read", "delete", "search"])
async def only_own_threads(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    return owned_by_caller(ctx)


# assistants ------------------------------------------------------------------------------


@auth.on.assistants(actions=["create", "update"])
async def write_own_assistant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """The caller owns what they create; an update touches only their own assistants
    (never a system one, which has no owner) and cannot give it away."""
    stamp_owner(ctx, value)
    return owned_by_caller(ctx)


@auth.on.assistants.delete
async def delete_own_assistant(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    return owned_by_caller(ctx)


@auth.on.assistants(actions=["read", "search"])
async def read_own_or_system_assistants(ctx: Auth.types.AuthContext, value: Any) -> dict[str, Any]:
    return {"$or": [owned_by_caller(ctx), {SYSTEM_MARK: "system"}]}


# crons -----------------------------------------------------------------------------------


@auth.on.crons(actions=["create", "update"])
async def write_own_cron(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """Like threads; langgraph-api itself checks that the cron's thread and assistant are
    readable by the caller, and runs the cron as its creator."""
    stamp_owner(ctx, value)
    return owned_by_caller(ctx)


@auth.on.crons(actions=["read", "delete", "search"])
async def only_own_crons(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    return owned_by_caller(ctx)


# store -----------------------------------------------------------------------------------


@auth.on.store(actions=["put", "get", "delete"])
async def only_own_namespace(ctx: Auth.types.AuthContext, value: Any) -> None:
    require_own_namespace(ctx, value["namespace"])


@auth.on.store(actions=["search", "list_namespaces"])
async def search_own_namespaces(ctx: Auth.types.AuthContext, value: Any) -> None:
    if not value.get("namespace"):  # no prefix: everything the caller may see
        value["namespace"] = (ctx.user.identity,)
    require_own_namespace(ctx, value["namespace"])


def require_own_namespace(ctx: Auth.types.AuthContext, namespace: Any) -> None:
    user = ctx.user.identity
    if not namespace or namespace[0] != user:
        raise forbidden(FOREIGN_NAMESPACE.format(user=user))
