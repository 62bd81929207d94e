"""The rulesets this server plays, and the engine that plays a given game.

Engines are imported lazily by dotted path so a broken or slow engine does not
slow down unrelated imports. `engine_for` picks the engine of a game's rules
version and `rules_upcasters` its event upcasters: both are pure, so the
services and the standalone verifier (games.verify) look engines up the same
way, from the engines' own floor."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping
from functools import cache

from .base import JSON, Ruleset

log = logging.getLogger(__name__)

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
    rules: Ruleset = getattr(importlib.import_module(module), attr)
    return rules


def available() -> list[str]:
    """Ids whose engine loads. A broken engine is left out (and logged) rather
    than turning every lobby request into a 500; `load_strict` is what the
    test suite uses, so a broken engine still fails the build."""
    return [rid for rid in _targets() if get(rid) is not None]


def load_strict(ruleset_id: str) -> Ruleset:
    return _load(_targets()[ruleset_id])


def get(ruleset_id: str) -> Ruleset | None:
    target = _targets().get(ruleset_id)
    if target is None:
        return None
    try:
        return _load(target)
    except Exception:  # noqa: BLE001 - any failure to load means "not available here"
        log.exception("ruleset %s failed to load", ruleset_id)
        return None


def engine_for(rules: Ruleset, rules_version: object) -> Ruleset:
    """The engine that plays games started under `rules_version`: a ruleset that
    changed behaviour keeps the old one reachable through `for_rules_version(v)`.
    Used by the services (the game's engine) and the verifier (the export's)."""
    pick = getattr(rules, "for_rules_version", None)
    if pick is not None and isinstance(rules_version, int):
        chosen: Ruleset = pick(rules_version)
        return chosen
    return rules


def rules_upcasters(rules: Ruleset) -> Mapping[tuple[str, int], Callable[[dict[str, JSON]], dict[str, JSON]]]:
    """The ruleset's `upcasters` (a member of games.rules.base.Ruleset): what turns
    a stored engine event of an older payload version into the current one."""
    return rules.upcasters
