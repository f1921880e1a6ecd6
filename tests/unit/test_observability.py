"""Logged tracebacks are redacted and never show frame locals."""

from __future__ import annotations

import pytest

from finagent.observability import configure_logging, get_logger, register_secrets

SECRET = "sk-unit-secret-7f3c"


def _fail(token: str = SECRET) -> None:
    raise RuntimeError(f"upstream refused {token}")


@pytest.mark.parametrize("json_logs", [False, True])
def test_exceptions_are_logged_redacted(capsys: pytest.CaptureFixture[str], json_logs: bool):
    register_secrets([SECRET])
    configure_logging("INFO", json_logs=json_logs)
    try:
        _fail()
    except RuntimeError:
        get_logger("test").exception("call_failed")
    err = capsys.readouterr().err
    assert "call_failed" in err and "upstream refused ***" in err
    assert SECRET not in err
