"""The package graph has no circle and no arrow that runs back up (issue 32).

An AST walk over the first-party tree builds the package-level import graph:
every `import` and `from ... import`, at module level and inside functions
alike (import-linter sees both too, but only per contract; this sees the
whole house at once). A package is a top-level app (`api`, `config`, ...) or,
under `games`, its first sub-package or module (`games.services`,
`games.rules`, ...). The graph must have no strongly connected component of
more than one package, and every arrow must point to a lower floor: the floors
are the layers contract's in pyproject.toml, the order docs/architecture.md
("Layers") draws, so the two checks read one list.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP = ("accounts", "api", "config", "events", "games", "heartbeats", "ops", "telemetry", "web")
SKIP = {"migrations", "tests", "__pycache__"}


def floors() -> list[set[str]]:
    """The layers of pyproject's layers contract, top first: the one written order."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [contract["layers"] for contract in config["contracts"] if contract["type"] == "layers"]
    return [{name.strip() for name in layer.split("|")} for layer in layers]


def package_of(module: str) -> str | None:
    """The package a module belongs to; None outside the first-party tree (and for
    `games` itself, the container of the games packages)."""
    parts = module.split(".")
    if parts[0] not in TOP or module == "games":
        return None
    if parts[0] == "games" and len(parts) > 1:
        return f"games.{parts[1]}"
    return parts[0]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_files() -> Iterator[Path]:
    for top in TOP:
        for path in sorted((ROOT / top).rglob("*.py")):
            if not SKIP & set(path.relative_to(ROOT).parts):
                yield path


def imported_modules(path: Path) -> Iterator[str]:
    """Every module `path` imports, at any depth of its syntax tree."""
    return imports_in(path.read_text(), module_name(path), is_package=path.name == "__init__.py")


def imports_in(source: str, module: str, is_package: bool = False) -> Iterator[str]:
    """Every module `source` (the text of `module`) imports, in functions too."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node, module, is_package)
            yield base
            # `from games import models` names a package through its parent.
            yield from (f"{base}.{alias.name}" for alias in node.names)


def absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute name of what `from ... import` reads from (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    anchor = module.split(".") if is_package else module.split(".")[:-1]
    anchor = anchor[: len(anchor) - (node.level - 1)]
    return ".".join([*anchor, node.module] if node.module else anchor)


def package_graph() -> dict[str, dict[str, set[str]]]:
    """{package: {imported package: {"importing module -> imported package", ...}}}."""
    graph: dict[str, dict[str, set[str]]] = {}
    for path in python_files():
        source = package_of(module_name(path))
        if source is None:  # games/__init__.py: the container, not a package of its own
            continue
        targets = graph.setdefault(source, {})
        for target in filter(None, map(package_of, imported_modules(path))):
            if target != source:
                targets.setdefault(target, set()).add(f"{module_name(path)} -> {target}")
    for targets in list(graph.values()):
        for target in targets:
            graph.setdefault(target, {})
    return graph


def circles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """Strongly connected components of more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = stack[stack.index(node) :]
            del stack[stack.index(node) :]
            on_stack.difference_update(component)
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def floor_of(package: str, layers: list[set[str]]) -> int:
    for number, floor in enumerate(layers):
        if package in floor:
            return number
    raise AssertionError(
        f"{package} is on no floor: add it to pyproject's layers contract and docs/architecture.md"
    )


def test_every_package_has_a_floor() -> None:
    layers = floors()
    for package in package_graph():
        floor_of(package, layers)


def test_no_package_circle() -> None:
    graph = package_graph()
    found = circles(graph)
    details = [
        f"{' <-> '.join(component)}: "
        + "; ".join(
            sorted(
                edge
                for source in component
                for target, edges in graph[source].items()
                if target in component
                for edge in edges
            )
        )
        for component in found
    ]
    assert not found, "package circles:\n" + "\n".join(details)


def test_no_arrow_runs_back_up() -> None:
    layers, upward = floors(), []
    for source, targets in sorted(package_graph().items()):
        for target, edges in sorted(targets.items()):
            if floor_of(target, layers) <= floor_of(source, layers):
                upward.extend(sorted(edges))
    assert not upward, "arrows against the floors (docs/architecture.md, Layers):\n" + "\n".join(upward)


def test_the_walk_sees_function_level_and_relative_imports() -> None:
    """The walk is not limited to the module's top, and resolves relative imports."""
    source = (
        "from . import dispatch\n\ndef later():\n    from ..models import Game\n    import config.settings\n"
    )
    found = set(imports_in(source, "games.services.hooks"))
    assert {"games.services.dispatch", "games.models", "games.models.Game", "config.settings"} <= found
    assert package_of("games.services.observe") == "games.services"
    assert package_of("telemetry.metrics") == "telemetry"
    assert package_of("django.db") is None


def test_circles_are_found() -> None:
    assert circles({"a": {"b": set()}, "b": {"c": set()}, "c": {"a": set()}, "d": {"a": set()}}) == [
        ["a", "b", "c"]
    ]
    assert circles({"a": {"b": set()}, "b": {}}) == []
