"""Module docstrings say what a module holds and why in about ten lines (issue 32).

Longer reasons (measurements, incidents, alternatives tried) go to docs/modules.md,
where a reader looking for history finds it, and a reader entering the code is not
made to read it first. Checked over every first-party module outside tests."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "node_modules", ".git", "build", "fixtures", "__pycache__", "var", "migrations", "tests"}
LIMIT = 12  # lines, the closing quotes' line not counted


def python_files() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if not SKIP & set(p.relative_to(ROOT).parts))


def docstring_lines(source: str) -> int:
    """How many lines the module's docstring spans (0 without one)."""
    doc = ast.get_docstring(ast.parse(source), clean=False)
    return len(doc.strip("\n").split("\n")) if doc else 0


def test_the_check_counts_lines():
    assert docstring_lines('"""One line."""\nx = 1\n') == 1
    assert docstring_lines('"""One.\n\nTwo\nthree.\n"""\n') == 4
    assert docstring_lines("x = 1\n") == 0


def test_module_docstrings_are_about_ten_lines():
    long = {
        str(path.relative_to(ROOT)): n
        for path in python_files()
        if (n := docstring_lines(path.read_text(encoding="utf-8"))) > LIMIT
    }
    assert long == {}, f"module docstrings over {LIMIT} lines (move the story to docs/modules.md): {long}"


def test_the_moved_reasons_are_findable():
    """Every pointer into docs/modules.md names a section that exists."""
    notes = (ROOT / "docs" / "modules.md").read_text(encoding="utf-8")
    for path in python_files():
        source = path.read_text(encoding="utf-8")
        if "docs/modules.md" in source:
            name = str(path.relative_to(ROOT))
            assert f"## `{name}`" in notes, f"{name} points to docs/modules.md but has no section there"
