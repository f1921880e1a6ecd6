"""Import layers: lower packages never import higher ones (read from the source with ast,
function-level and TYPE_CHECKING imports included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "finagent"

# package -> finagent packages it must not import
FORBIDDEN: dict[str, set[str]] = {
    "answering": {"routing", "nodes", "graph", "server", "commands", "cli"},
    "clients": {"tools", "nodes", "graph", "server", "retrieval", "routing", "answering"},
    "tools": {"nodes", "graph", "server", "commands", "cli"},
    "retrieval": {"tools", "nodes", "graph", "server", "answering", "commands", "cli"},
    "storage": {"tools", "nodes", "graph", "server", "commands", "cli"},
    # the language layer is the lowest: everything reads Russian text through it
    "language": {
        "cards",
        "question",
        "storage",
        "retrieval",
        "routing",
        "answering",
        "legal",
        "tools",
        "clients",
        "nodes",
        "graph",
        "server",
        "commands",
        "cli",
    },
    "cards": {
        "question",
        "storage",
        "retrieval",
        "routing",
        "answering",
        "tools",
        "clients",
        "nodes",
        "graph",
        "server",
        "commands",
        "cli",
    },
    "question": {
        "storage",
        "retrieval",
        "routing",
        "answering",
        "tools",
        "clients",
        "nodes",
        "graph",
        "server",
        "commands",
        "cli",
    },
}


def finagent_imports(path: Path) -> list[tuple[int, str]]:
    """``(line, finagent subpackage)`` of every import of a finagent module in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
            if node.module == "finagent":  # from finagent import tools
                names = [f"finagent.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "finagent" and len(parts) > 1:
                found.append((node.lineno, parts[1]))
    return found


def test_the_scanner_sees_nested_and_aliased_imports(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "import finagent.graph.research as r\n"
        "def f():\n"
        "    from finagent.nodes.answer import x\n"
        "    from finagent import tools\n"
        "from .local import y\n",
        encoding="utf-8",
    )
    assert finagent_imports(source) == [(1, "graph"), (3, "nodes"), (4, "tools")]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_does_not_import_higher_layers(package: str) -> None:
    folder = PACKAGE / package
    assert folder.is_dir()
    violations = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports finagent.{target}"
        for path in sorted(folder.rglob("*.py"))
        for line, target in finagent_imports(path)
        if target in FORBIDDEN[package]
    ]
    assert violations == []
