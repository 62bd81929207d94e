"""The rulesets this server plays. Engines are imported lazily by dotted path so a
broken or slow engine does not slow down unrelated imports."""

from __future__ import annotations

import importlib
from functools import cache

from .base import Ruleset

# id -> "module:attribute" of the engine object
PRODUCTION: dict[str, str] = {
    "rising-sun": "games.rules.rising_sun.rules:RULES",
    "imjin": "games.rules.imjin.rules:RULES",
    "shogun": "games.rules.shogun.rules:RULES",
}

_extra: dict[str, str] = {}


def register(ruleset_id: str, target: str) -> None:
    """Add a ruleset (tests register their small test-only ruleset this way)."""
    _extra[ruleset_id] = target
    _load.cache_clear()


def unregister(ruleset_id: str) -> None:
    _extra.pop(ruleset_id, None)
    _load.cache_clear()


def _targets() -> dict[str, str]:
    return {**PRODUCTION, **_extra}


@cache
def _load(target: str) -> Ruleset:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def available() -> list[str]:
    """Ids whose engine package is importable (a ruleset still being written is
    left out rather than breaking the server)."""
    out = []
    for rid, target in _targets().items():
        try:
            _load(target)
        except ImportError:
            continue
        out.append(rid)
    return out


def get(ruleset_id: str) -> Ruleset | None:
    target = _targets().get(ruleset_id)
    if target is None:
        return None
    try:
        return _load(target)
    except ImportError:
        return None
