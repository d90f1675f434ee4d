"""Reading ``game``'s imports with ``ast``, shared by the architecture and layer tests."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "game"


def modules() -> dict[str, Path]:
    """Every module of ``game`` by its dotted name (a package by its own name)."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def import_targets(node: ast.AST, package: str) -> list[str]:
    """The dotted names an import statement may bring in (``from a import b``: ``a``
    and ``a.b``, since ``b`` may be a module); relative imports resolved from
    ``package``. Not an import: no names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            parts = parts[:len(parts) - (node.level - 1)]
            base = ".".join(parts + ([node.module] if node.module else []))
        return [base] + [f"{base}.{a.name}" for a in node.names]
    return []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of two or more nodes (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def type_checking_only(tree: ast.AST) -> set[int]:
    """Nodes inside ``if TYPE_CHECKING:`` blocks (imports there never run)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                    isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
                for stmt in node.body:
                    skip.update(id(n) for n in ast.walk(stmt))
    return skip


def import_graph(type_checking: bool = True,
                 more: Callable[[str, ast.AST], list[str]] | None = None
                 ) -> dict[str, set[str]]:
    """Module -> the ``game`` modules it imports, at module or function level (and
    under ``if TYPE_CHECKING:`` unless ``type_checking`` is False); ``more(module,
    node)`` names further modules a node stands for."""
    mods = modules()

    def owner(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = set() if type_checking else type_checking_only(tree)
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets = import_targets(node, package) + (more(mod, node) if more else [])
            for target in targets:
                if target.split(".")[0] == "game":
                    found = owner(target)
                    if found is not None and found != mod:
                        graph[mod].add(found)
    return graph
