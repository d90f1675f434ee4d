"""The layers of ``docs/layers.md``, held against every import in ``game/``.

Every import counts: at module level, inside functions, under ``if TYPE_CHECKING:``;
and the game registry's ``"module:attribute"`` references count as imports by the
modules that call the accessors resolving them. An import from a lower layer into a
higher one, a part missing from the table, or a cycle between parts fails."""

from __future__ import annotations

import ast
import re

import pytest
from graph_helpers import PACKAGE, ROOT, cycles, import_graph, modules

DOC = ROOT / "docs" / "layers.md"

#: Modules that form a part of their own, apart from their package (see the document).
OWN_PART = {"game.scenes.testing": "testing"}

#: Registry accessor -> the ``GameEntry`` fields whose references it resolves.
ACCESSORS = {
    "players": ("players_ref",),
    "player_from_spec": ("spec_players_ref",),
    "coach": ("coach_ref",),
    "table_scene": ("table_ref",),
    "demo": ("demo_ref",),
    "rules_summary": ("rules_summary_ref",),
}


def layers() -> dict[str, int]:
    """Part -> layer number, from the ``layers`` block of the document."""
    block = re.search(r"```layers\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block, "docs/layers.md has no ```layers block"
    out: dict[str, int] = {}
    for line in block.group(1).splitlines():
        number, _, rest = line.partition(" ")
        _name, _, parts = rest.partition(":")
        for part in parts.split():
            assert part not in out, f"{part} stands in two layers"
            out[part] = int(number)
    return out


def part_of(module: str) -> str:
    """``game.turn.flow`` -> ``turn``; ``game.cards`` -> ``cards``; ``game`` -> ``game``."""
    if module in OWN_PART:
        return OWN_PART[module]
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "game"


def registry_refs() -> dict[str, list[str]]:
    """``GameEntry`` field -> the modules its references name, read from games.py."""
    tree = ast.parse((PACKAGE / "games.py").read_text(encoding="utf-8"))
    out: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg and node.arg.endswith("_ref") \
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.setdefault(node.arg, []).append(node.value.value.partition(":")[0])
    return out


def imports(extra: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Module -> the ``game`` modules it imports (every kind of import, see above),
    with the registry's references added to the modules that resolve them."""
    refs = registry_refs()

    def late(mod: str, node: ast.AST) -> list[str]:
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ACCESSORS and mod != "game.games"):
            return [m for f in ACCESSORS[node.func.attr] for m in refs.get(f, [])]
        return []

    graph = import_graph(type_checking=True, more=late)
    for mod, more in (extra or {}).items():
        graph.setdefault(mod, set()).update(more)
    return graph


def wrong_way(graph: dict[str, set[str]], order: dict[str, int]) -> list[str]:
    """Every import from a lower layer into a higher one, in words."""
    out = []
    for mod, deps in sorted(graph.items()):
        a = part_of(mod)
        for dep in sorted(deps):
            b = part_of(dep)
            if order[a] < order[b]:
                out.append(f"{mod} (layer {order[a]}, {a}) imports {dep} (layer {order[b]}, {b})")
    return out


def part_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Cycles between parts (strongly connected components of two or more parts)."""
    parts: dict[str, set[str]] = {}
    for mod, deps in graph.items():
        parts.setdefault(part_of(mod), set()).update(part_of(d) for d in deps)
    for p in parts:
        parts[p].discard(p)
    return cycles(parts)


def test_every_part_of_game_has_a_layer():
    order = layers()
    missing = sorted({part_of(m) for m in modules()} - set(order))
    assert not missing, f"add these to docs/layers.md: {missing}"
    stale = sorted(set(order) - {part_of(m) for m in modules()})
    assert not stale, f"docs/layers.md names parts that do not exist: {stale}"


def test_no_import_runs_against_the_layers():
    assert wrong_way(imports(), layers()) == []


def test_no_cycle_between_parts():
    assert part_cycles(imports()) == []


def test_the_registry_references_are_seen_as_imports():
    refs = registry_refs()
    assert "game.scenes.table_chase" in refs["table_ref"]
    assert "game.ai.rams_coach" in refs["coach_ref"]
    graph = imports()
    assert "game.scenes.table_rams" in graph["game.scenes.catalog"]
    assert "game.ai.chase_players" in graph["game.ai.registry"]
    for field_refs in refs.values():            # every reference names a real module
        for module in field_refs:
            assert module in modules(), module


def test_imports_inside_functions_count():
    graph = imports()
    assert "game.scenes.menu" in graph["game.scenes.catalog"]
    assert "game.app" in graph["game.scenes.testing"]


@pytest.mark.parametrize("importer, imported", [
    ("game.rules.chase", "game.view.widgets"),      # an engine reaching for the screen
    ("game.scenes.base", "game.app"),               # the cycle the Host protocol removed
    ("game.store.files", "game.turn.flow"),
    ("game.turn.flow", "game.table.painter"),       # the pure turn flow reaching for the drawing
])
def test_a_wrong_import_is_caught(importer, imported):
    graph = imports({importer: {imported}})
    assert wrong_way(graph, layers()) or part_cycles(graph)


def test_a_cycle_inside_one_layer_is_caught():
    graph = imports({"game.store.files": {"game.shelf"}})     # shelf imports store already
    assert part_cycles(graph) == [["shelf", "store"]]
