"""The rules catalogue of a ruleset in one language (issue 14.1): built once per
(ruleset, language, rules version) by the ruleset's own pure ``catalogue.py``
(its record's `catalogue`, games/plugins.py) and kept in memory with its ETag
(the data only changes with a deploy)."""

from __future__ import annotations

from functools import cache
from typing import Any

from games import plugins
from games.rules.base import canonical_json, sha256_hex
from games.rules.i18n import LANGUAGES

from .errors import ErrorCode, NotFound


def _builder(ruleset_id: str) -> plugins.Catalogue | None:
    """The record's catalogue builder; None for an unknown ruleset or one without
    a catalogue (the test-only toy ruleset)."""
    record = plugins.get(ruleset_id)
    return record.catalogue if record is not None else None


@cache
def _built(ruleset_id: str, lang: str) -> tuple[dict[str, Any], str]:
    build = _builder(ruleset_id)
    if build is None:
        raise NotFound(f"no catalogue for ruleset {ruleset_id!r}", code=ErrorCode.UNKNOWN_RULESET)
    rules = plugins.record(ruleset_id).rules
    body = {**build(lang), "rules_version": rules.rules_version}
    return body, '"' + sha256_hex(canonical_json(body))[:32] + '"'


def catalogue(ruleset_id: str, lang: str) -> tuple[dict[str, Any], str]:
    """(body, strong ETag) of the catalogue; 404 for a ruleset this server does not play."""
    if lang not in LANGUAGES:
        lang = "en"
    return _built(ruleset_id, lang)


def has_catalogue(ruleset_id: str) -> bool:
    """Whether the ruleset ships a catalogue (the test-only toy ruleset does not)."""
    return _builder(ruleset_id) is not None
