"""The CLI's garbage-collection policy, in a fresh interpreter each (it changes process-wide
state): a high young-generation threshold during start-up, everything frozen before the
interpreter's final collection, the defaults back once a server has settled."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO_ROOT

_PROBE = """
import atexit, gc, json
defaults = gc.get_threshold()
# registered before startup(), so it runs after startup's exit handler (atexit is LIFO)
atexit.register(lambda: print(json.dumps({"frozen_at_exit": gc.get_freeze_count()})))
from finagent.commands import gc_policy
gc_policy.startup()
gc_policy.startup()  # idempotent
during = gc.get_threshold()
if SETTLE:
    gc_policy.settled()
print(json.dumps({"defaults": defaults, "during": during, "after": gc.get_threshold(),
                  "frozen": gc.get_freeze_count()}))
"""


def _run(settle: bool) -> list[dict[str, object]]:
    code = _PROBE.replace("SETTLE", str(settle))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO_ROOT
    )
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_startup_raises_the_young_threshold_and_freezes_at_exit() -> None:
    from finagent.commands.gc_policy import STARTUP_THRESHOLD

    state, at_exit = _run(settle=False)
    defaults, during = state["defaults"], state["during"]
    assert isinstance(defaults, list) and isinstance(during, list)
    assert during == [STARTUP_THRESHOLD, *defaults[1:]]
    assert state["frozen"] == 0  # nothing frozen while the command runs
    assert isinstance(at_exit["frozen_at_exit"], int) and at_exit["frozen_at_exit"] > 1000


def test_settled_freezes_start_up_objects_and_restores_the_defaults() -> None:
    state, _ = _run(settle=True)
    assert state["after"] == state["defaults"]
    assert isinstance(state["frozen"], int) and state["frozen"] > 1000
