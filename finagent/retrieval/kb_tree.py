"""A folder tree of KB paths drawn with box characters (the CLI's ingest report)."""

from __future__ import annotations

from collections.abc import Iterable

_Tree = dict[str, "_Tree"]


def render_tree(paths: Iterable[str]) -> list[str]:
    """Lines of a tree drawing of relative POSIX ``paths`` (folders first, sorted)."""
    tree: _Tree = {}
    for path in paths:
        node = tree
        for part in path.split("/"):
            node = node.setdefault(part, {})

    def draw(node: _Tree, prefix: str) -> list[str]:
        names = sorted(node, key=lambda n: (not node[n], n))
        lines: list[str] = []
        for i, name in enumerate(names):
            last = i == len(names) - 1
            child = node[name]
            lines.append(f"{prefix}{'└── ' if last else '├── '}{name}{'/' if child else ''}")
            lines.extend(draw(child, prefix + ("    " if last else "│   ")))
        return lines

    return draw(tree, "")
