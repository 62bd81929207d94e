"""The Shogun engine's import graph (issue 13 items 1 and 5): no module circles (formerly
flow -> winter -> setup -> flow and rules <-> view) and no import hidden inside a function."""

import ast
from pathlib import Path

import grimp

PACKAGE = "games.rules.shogun"
FOLDER = Path(__file__).resolve().parents[3] / "games" / "rules" / "shogun"


def test_no_import_circles():
    graph = grimp.build_graph("games", include_external_packages=False)
    mods = sorted(m for m in graph.modules if m.startswith(PACKAGE + "."))
    circles = [
        (a, b) for a in mods for b in mods if a < b and graph.chain_exists(a, b) and graph.chain_exists(b, a)
    ]
    assert circles == []


def test_no_imports_inside_functions():
    late = []
    for path in sorted(FOLDER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                late += [
                    f"{path.name}:{inner.lineno}"
                    for inner in ast.walk(node)
                    if isinstance(inner, (ast.Import, ast.ImportFrom))
                ]
    assert late == []
