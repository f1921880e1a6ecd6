"""As if some extras were not installed: on ``PYTHONPATH``, this ``sitecustomize`` makes
the modules named in ``FINAGENT_TEST_UNIMPORTABLE`` (comma-separated, packages included
with their submodules) unimportable, the way a missing distribution is: the import
raises ``ModuleNotFoundError`` with the module's name (tests/e2e/test_extras.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

BLOCKED = tuple(n for n in os.environ.get("FINAGENT_TEST_UNIMPORTABLE", "").split(",") if n)


class _Unimportable:
    """A meta-path finder consulted first: a blocked module is not found."""

    @staticmethod
    def find_spec(
        fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if any(fullname == name or fullname.startswith(name + ".") for name in BLOCKED):
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


if BLOCKED:
    sys.meta_path.insert(0, _Unimportable())  # type: ignore[arg-type]
