"""The JSON Schemas each ruleset declares as data (games/rules/<pkg>/data/schemas/):

- commands.json: {"<command type>": <schema of the whole command object>}
- view.json: <schema of the view a seat (or a spectator) gets>
- events.json: {"<event type>": <schema of the event's payload>}

The API publishes them in schema.yml (typed clients); the contract tests
validate random games against them. A missing file means "not declared yet"
(None), never an empty schema."""

from __future__ import annotations

import inspect
import json
from functools import cache
from pathlib import Path
from typing import Any

from .registry import PRODUCTION, get

KINDS = ("commands", "view", "events")
ROOT = Path(__file__).resolve().parent


def schema_dir(ruleset: str) -> Path:
    target = PRODUCTION.get(ruleset)
    if target is None and (rules := get(ruleset)) is not None:
        # a registered ruleset outside games/rules (the tests' toy): beside its engine
        return Path(inspect.getfile(type(rules))).parent / "data" / "schemas"
    package = target.split(":")[0].split(".")[2] if target else ruleset.replace("-", "_")
    return ROOT / package / "data" / "schemas"


@cache
def load(ruleset: str, kind: str) -> Any:
    if kind not in KINDS:
        raise ValueError(f"unknown schema kind {kind!r}")
    path = schema_dir(ruleset) / f"{kind}.json"
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def core_events() -> dict[str, Any]:
    """The platform's own `core.*` event payloads (games/services writes them)."""
    events: dict[str, Any] = json.loads(
        (ROOT.parent / "data" / "core_events.json").read_text(encoding="utf-8")
    )
    return events
