"""The shape of the code, read from the code itself with ``ast``: no import cycles
among the ``game`` modules, no game id compared outside the engines and the game
registry, and no object's methods replaced at run time."""

from __future__ import annotations

import ast

import graph_helpers
from graph_helpers import cycles

from game import games

ROOT = graph_helpers.ROOT
PACKAGE = graph_helpers.PACKAGE


def import_graph() -> dict[str, set[str]]:
    """Module -> the ``game`` modules it imports when it runs (module or function
    level; not under ``if TYPE_CHECKING:``)."""
    return graph_helpers.import_graph(type_checking=False)


def test_the_import_graph_has_edges_where_expected():
    graph = import_graph()
    assert "game.turn.flow" in graph["game.scenes.table"]
    assert "game.scenes.menu" in graph["game.scenes.catalog"]     # a function-level import
    assert "game.app" not in graph["game.scenes.base"]            # TYPE_CHECKING only


def test_no_import_cycles_among_game_modules():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_scenes_do_not_import_each_other():
    """Screens open each other by name through the app (``game.scenes.catalog``); only
    the catalog, the test helpers and the games' own tables import scene modules."""
    graph = import_graph()
    allowed = {"game.scenes.base", "game.scenes.table", "game.scenes.table_phones",
               "game.scenes.files"}
    for mod, deps in graph.items():
        if mod.startswith("game.scenes.") and mod not in ("game.scenes.catalog",
                                                          "game.scenes.testing"):
            wrong = {d for d in deps if d.startswith("game.scenes.") and d not in allowed}
            assert not wrong, (mod, wrong)


def test_no_game_id_is_compared_outside_the_engines_and_the_registry():
    ids = set(games.GAME_IDS)
    exempt = {PACKAGE / "games.py", PACKAGE / "ai" / "example_bot.py"}   # the sample bot
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path in exempt or (PACKAGE / "rules") in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                for c in ast.walk(node):
                    if isinstance(c, ast.Constant) and c.value in ids:
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders


def callables(tree: ast.Module) -> tuple[set[str], set[str]]:
    """Names of plain functions (module level or nested in a function) and of methods
    (properties aside) defined in ``tree``."""
    functions: set[str] = set()
    methods: set[str] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if isinstance(node, ast.ClassDef):
                if not any(isinstance(d, ast.Name) and d.id == "property"
                           for d in stmt.decorator_list):
                    methods.add(stmt.name)
            else:
                functions.add(stmt.name)
    return functions, methods


def patches(tree: ast.Module) -> list[str]:
    """``other.attr = <a function>`` assignments (an object's own attributes and the
    standard library's ``sys``/``threading`` exception hooks aside)."""
    functions, methods = callables(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        value = node.value
        is_function = isinstance(value, ast.Lambda) or (
            isinstance(value, ast.Name) and value.id in functions) or (
            isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
            and value.value.id == "self" and value.attr in methods)
        if not is_function:
            continue
        for target in node.targets:
            if not isinstance(target, ast.Attribute):
                continue
            owner = target.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Name) and owner.id in ("sys", "threading") \
                    and target.attr == "excepthook":
                continue
            found.append(f"{node.lineno}: {ast.unparse(target)} = {ast.unparse(value)}")
    return found


def test_nothing_replaces_another_objects_methods():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for p in patches(ast.parse(path.read_text(encoding="utf-8"))):
            offenders.append(f"{path.relative_to(ROOT)}:{p}")
    assert not offenders, offenders


def test_the_patch_finder_finds_patches():
    code = """
class Viewer:
    def at_end(self): ...
    def restart(self, table, game):
        table.finish = self.at_end
        table.tag = lambda s: None
        def gated(dt): ...
        table.think = gated
        self.on_done = self.at_end
"""
    assert [p.split(":")[0] for p in patches(ast.parse(code))] == ["5", "6", "8"]
