"""No import inside a function unless a comment says why it must be there (issue 13).

An import in a function body hides a dependency from the reader and from
import-linter's picture of the layers, and often papers over an import cycle. Some
must stay (an optional dependency loaded on one path only, Django's app registry not
ready yet when the module loads): those carry a comment, on the import's own line or
on the line before it. A run of consecutive imports in one body shares one comment.
Checked over the app code (tests, migrations and benchmarks are scripts or fixtures)."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "api", "accounts", "events", "config", "heartbeats", "ops", "telemetry")
SKIP = {"migrations", "tests", "__pycache__"}

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
IMPORTS = (ast.Import, ast.ImportFrom)


def python_files() -> list[Path]:
    out = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if not SKIP & set(path.relative_to(ROOT).parts):
                out.append(path)
    return sorted(out)


def comment_lines(source: str) -> tuple[set[int], set[int]]:
    """(lines holding a comment, lines holding nothing but a comment)."""
    anywhere, alone = set(), set()
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            anywhere.add(tok.start[0])
            if not tok.line[: tok.start[1]].strip():
                alone.add(tok.start[0])
    return anywhere, alone


def statement_lists(node: ast.AST):
    """The statement lists directly under `node` (bodies, else and finally blocks)."""
    for _field, value in ast.iter_fields(node):
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            yield value


def import_runs_in_functions(node: ast.AST, inside: bool = False) -> list[list[ast.stmt]]:
    """Runs of consecutive import statements found anywhere inside a function body."""
    inside = inside or isinstance(node, FUNCTIONS)
    runs: list[list[ast.stmt]] = []
    for body in statement_lists(node):
        run: list[ast.stmt] = []
        for stmt in body:
            if inside and isinstance(stmt, IMPORTS):
                run.append(stmt)
                continue
            runs += [run] if run else []
            run = []
            runs += import_runs_in_functions(stmt, inside)
        runs += [run] if run else []
    for child in ast.iter_child_nodes(node):  # except handlers and match cases hold bodies too
        if not isinstance(child, ast.stmt):
            runs += import_runs_in_functions(child, inside)
    return runs


def unexplained_imports(source: str) -> list[int]:
    """First line of every import inside a function with no comment saying why."""
    anywhere, alone = comment_lines(source)
    found = []
    for run in import_runs_in_functions(ast.parse(source)):
        first, last = run[0].lineno, run[-1].end_lineno or run[-1].lineno
        explained = (first - 1) in alone or any(line in anywhere for line in range(first, last + 1))
        if not explained:
            found += [stmt.lineno for stmt in run]
    return found


def test_the_check_finds_unexplained_imports():
    source = (
        "import os\n"  # module level: fine
        "def a():\n"
        "    import json\n"  # 3: no comment
        "    return json\n"
        "def b():\n"
        "    # optional dependency: only this path needs it\n"
        "    import redis\n"
        "    import httpx\n"  # covered by the comment above the run
        "    x = 1\n"
        "    import csv\n"  # 10: a new run, no comment
        "    return x\n"
        "class C:\n"
        "    import re\n"  # class body, not a function: fine
        "    def m(self):\n"
        "        if self:\n"
        "            from . import y  # registry not ready at load time\n"
        "        from . import (\n"  # 17: multi-line, no comment
        "            z,\n"
        "        )\n"
        "async def d():\n"
        "    import asyncio\n"  # 21
        "    try:\n"
        "        pass\n"
        "    except ImportError:\n"
        "        import pickle\n"  # 25: inside an except block
        "x = 1  # a comment\n"
    )
    assert unexplained_imports(source) == [3, 10, 17, 21, 25]


def test_no_import_inside_a_function_without_a_comment_saying_why():
    offenders = []
    for path in python_files():
        rel = path.relative_to(ROOT).as_posix()
        offenders += [f"{rel}:{line}" for line in unexplained_imports(path.read_text(encoding="utf-8"))]
    assert not offenders, (
        "imports inside functions: hoist them to module level, or say why they must stay "
        "(a comment on the import's line or the line before it):\n" + "\n".join(offenders)
    )
