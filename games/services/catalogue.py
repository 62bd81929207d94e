"""The rules catalogue of a ruleset in one language (issue 14.1): built once per
(ruleset, language, rules version) by the ruleset's own pure ``catalogue.py``
and kept in memory with its ETag (the data only changes with a deploy)."""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from games.rules import registry
from games.rules.base import canonical_json, sha256_hex
from games.rules.i18n import LANGUAGES

from .errors import ErrorCode, NotFound


def _module(ruleset_id: str) -> ModuleType | None:
    """``games.rules.<pkg>.catalogue`` beside the engine's module; None for a
    ruleset without one (the test-only toy ruleset)."""
    rules = registry.get(ruleset_id)
    if rules is None:
        return None
    package = type(rules).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.catalogue")
    except ModuleNotFoundError:
        return None


@cache
def _built(ruleset_id: str, lang: str) -> tuple[dict[str, Any], str]:
    module = _module(ruleset_id)
    if module is None:
        raise NotFound(f"no catalogue for ruleset {ruleset_id!r}", code=ErrorCode.UNKNOWN_RULESET)
    rules = registry.get(ruleset_id)
    body = {**module.build(lang), "rules_version": getattr(rules, "rules_version", None)}
    return body, '"' + sha256_hex(canonical_json(body))[:32] + '"'


def catalogue(ruleset_id: str, lang: str) -> tuple[dict[str, Any], str]:
    """(body, strong ETag) of the catalogue; 404 for a ruleset this server does not play."""
    if lang not in LANGUAGES:
        lang = "en"
    return _built(ruleset_id, lang)


def has_catalogue(ruleset_id: str) -> bool:
    """Whether the ruleset ships a catalogue (the test-only toy ruleset does not)."""
    return _module(ruleset_id) is not None
