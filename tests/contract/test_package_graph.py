"""The package graph has no circle and no arrow that runs back up (issue 32).

An AST walk over the first-party tree builds the package-level import graph:
every `import` and `from ... import`, at module level and inside functions
alike (import-linter sees both too, but only per contract; this sees the
whole house at once). A package is a top-level app (`api`, `config`, ...) or,
under `games`, its first sub-package or module (`games.services`,
`games.rules`, ...). The graph must have no strongly connected component of
more than one package, and no arrow may point from a lower floor to a higher
one in FLOORS, the order docs/architecture.md ("Layers") documents.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP = ("accounts", "api", "config", "events", "games", "heartbeats", "ops", "telemetry", "web")
SKIP = {"migrations", "tests", "__pycache__"}

# Floors from the top: a package may import its own floor's neighbours only where
# the pair is listed in PEERS, and any package on a floor below its own.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("config",),  # settings and wiring: ASGI routing, Celery app, middleware list
    ("api", "web", "games.tasks", "ops", "games.management"),  # requests, pages, tasks, operations
    ("games.services",),  # what the platform does
    ("games.bots", "games.board", "games.pbem", "games.core_events", "games.verify", "heartbeats"),
    ("games.models", "games.apps", "games"),  # the game tables (Django app)
    ("events",),  # the event store
    ("games.rules",),  # the pure engines
    ("accounts",),  # users and profiles
    ("telemetry",),  # metrics and logging helpers: imports no other first-party package
)
# Same-floor arrows that are allowed (a peer uses the other's public helpers).
PEERS = {
    ("ops", "api"),  # ops' health collectors read api.views.meta's checks
    ("games.management", "games.tasks"),
    ("games.verify", "games.core_events"),  # the verifier reads the platform's event types
    ("games.pbem", "games.core_events"),
    ("games.board", "games.bots"),
}


def package_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] not in TOP:
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
    """{package: {imported package: {importing module, ...}}}."""
    graph: dict[str, dict[str, set[str]]] = {}
    for path in python_files():
        source = package_of(module_name(path))
        assert source is not None
        graph.setdefault(source, {})
        for target_module in imported_modules(path):
            target = package_of(target_module)
            # `from games import x` yields both "games" and "games.x": keep the precise one.
            if target is None or target == source or target_module == "games":
                continue
            if target == "games" and target_module.count(".") == 1:
                target = target_module
            graph[source].setdefault(target, set()).add(f"{module_name(path)} -> {target_module}")
    for targets in list(graph.values()):
        for target in list(targets):
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


def floor_of(package: str) -> int:
    for number, floor in enumerate(FLOORS):
        if package in floor:
            return number
    raise AssertionError(f"{package} is on no floor: add it to FLOORS (and docs/architecture.md)")


def test_every_package_has_a_floor() -> None:
    for package in package_graph():
        floor_of(package)


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
    upward = []
    for source, targets in sorted(package_graph().items()):
        for target, edges in sorted(targets.items()):
            below_or_peer = floor_of(target) > floor_of(source) or (source, target) in PEERS
            if not below_or_peer:
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
