"""No one-letter import aliases (`from . import events as E`, `import state as S`):
a reader meets `E.X` far from the import and must scroll up to learn what it is
(issue 13). Checked over every Python file of the project."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "node_modules", ".git", "build", "fixtures", "__pycache__", "var"}

# path -> aliases still there; the platform branch removes these (issue 13).
# Nothing under games/rules may be listed.
ALLOWED: dict[str, set[str]] = {}


def python_files() -> list[Path]:
    out = []
    for path in ROOT.rglob("*.py"):
        if not SKIP & set(path.relative_to(ROOT).parts):
            out.append(path)
    return sorted(out)


def one_letter_aliases(source: str) -> list[tuple[int, str]]:
    """(line, alias) of every `import ... as X` / `from ... import ... as X` with a
    one-letter X."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found += [(node.lineno, a.asname) for a in node.names if a.asname and len(a.asname) == 1]
    return found


def test_the_check_finds_one_letter_aliases():
    assert one_letter_aliases("from . import events as E\nimport json as j\nimport os as osx\n") == [
        (1, "E"),
        (2, "j"),
    ]


def test_no_one_letter_module_aliases():
    assert not any(p.startswith("games/rules/") for p in ALLOWED)
    offenders = []
    for path in python_files():
        rel = path.relative_to(ROOT).as_posix()
        for line, alias in one_letter_aliases(path.read_text(encoding="utf-8")):
            if alias not in ALLOWED.get(rel, set()):
                offenders.append(f"{rel}:{line}: as {alias}")
    assert not offenders, "one-letter import aliases (use the module's name):\n" + "\n".join(offenders)
