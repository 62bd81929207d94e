"""One ErrorCode enum for every error code (issue 13 item 3): no code is spelled
outside it, schema.yml lists it, engine codes are carried through."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest
import yaml

import games.rules
from games.rules.base import IllegalCommand, RulesError
from games.services.errors import ErrorCode
from tests.support.toy import RULES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    p
    for d in ("api", "games", "accounts", "events")
    for p in (ROOT / d).rglob("*.py")
    if "migrations" not in p.parts
]


def _codes_in(path: Path):
    """(line, literal) for every string given as an error code: `code="x"`,
    `code = "x"` in a class body, `"code": "x"` in a dict."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "code":  # also `code=A if c else "b"`
            for sub in ast.walk(node.value):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    yield node.value.lineno, sub.value
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id in ("code", "default_code") for t in node.targets)
            and isinstance(node.value, ast.Constant)
        ):
            yield node.lineno, node.value.value
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values, strict=True):
                if isinstance(k, ast.Constant) and k.value == "code" and isinstance(v, ast.Constant):
                    yield node.lineno, v.value


def test_no_error_code_is_spelled_outside_the_enum():
    inline = [
        f"{p.relative_to(ROOT)}:{line} {code!r}"
        for p in SOURCES
        for line, code in _codes_in(p)
        if p.relative_to(ROOT).as_posix() != "games/rules/base.py"
    ]
    assert inline == [], "use ErrorCode members:\n" + "\n".join(inline)


def test_every_engine_code_is_an_error_code():
    for info in pkgutil.walk_packages(games.rules.__path__, "games.rules."):
        importlib.import_module(info.name)
    found = set()
    todo = [RulesError]
    while todo:
        cls = todo.pop()
        found.add(cls.code)
        todo.extend(cls.__subclasses__())
    assert found <= {c.value for c in ErrorCode}, found - {c.value for c in ErrorCode}


def test_schema_lists_the_enum():
    schema = yaml.safe_load((ROOT / "schema.yml").read_text())
    assert schema["components"]["schemas"]["ErrorCode"]["enum"] == [c.value for c in ErrorCode]
    code = schema["components"]["schemas"]["Error"]["properties"]["code"]
    assert code["allOf"] == [{"$ref": "#/components/schemas/ErrorCode"}]


@pytest.mark.django_db
def test_an_engine_code_is_carried_through(api, host, running_game, monkeypatch):
    class NotYourTurn(IllegalCommand):
        code = ErrorCode.NOT_YOUR_SEAT.value

    def refuse(state, seat, command, rng):
        raise NotYourTurn("wait for your turn")

    monkeypatch.setattr(RULES, "decide", refuse)
    monkeypatch.setattr(RULES, "decide_folded", refuse)  # what the service calls (one fold)
    r = api.as_(host).post(f"/api/v1/games/{running_game['id']}/commands", {"command": {"type": "bid"}})
    assert r.status_code == 422 and r.json() == {"code": "not_your_seat", "detail": "wait for your turn"}
