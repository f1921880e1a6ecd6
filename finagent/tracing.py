"""LangSmith traces leave the process redacted, or not at all.

LangChain traces every run when ``LANGSMITH_TRACING`` is on. ``configure_tracing`` (called
by the composition root) then installs the process-wide LangSmith client with
``finagent.redaction.redact_json`` as its anonymizer, which LangSmith applies to every
run's inputs, outputs, error and metadata before upload. Without a LangSmith API key,
tracing is switched off, so nothing tries to reach LangSmith.
"""

from __future__ import annotations

from finagent.observability import get_logger, register_secrets
from finagent.redaction import redact_json

log = get_logger(__name__)


def configure_tracing() -> bool:
    """Make LangSmith tracing redacted (or off without a key); whether it is on."""
    import langsmith
    from langsmith import utils

    if not utils.tracing_is_enabled():
        return False
    key = utils.get_env_var("API_KEY")
    if not key:
        langsmith.configure(enabled=False)
        log.warning("tracing_disabled", reason="LANGSMITH_TRACING is on but no LangSmith key")
        return False
    register_secrets([key])
    from langsmith import run_trees

    current = getattr(run_trees, "_CLIENT", None)
    if getattr(current, "_anonymizer", None) is not redact_json:  # once per process
        langsmith.configure(client=langsmith.Client(anonymizer=redact_json))
    return True
