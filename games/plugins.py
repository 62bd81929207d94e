"""One declared record per ruleset: every part the platform plugs in for it.

A ruleset is more than its engine: the rules catalogue, the readable game log,
the board picture and the bots' hooks (sampler, evaluation, search) live in
other packages. Each `Plugins` record names them all, imported here, so a
missing part fails at import or in review, not at a request that guesses a
module path. The record sits on its own floor: above the pure packages it
imports (games.rules, games.board, games.bots), below games.services, which
reads it (the layers contract in pyproject.toml). Engine lookup by id stays in
games.rules.registry; `tests/contract/test_plugins.py` checks the two agree.
CONTRIBUTING.md (root) lists what a new ruleset adds here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from games.board import imjin as imjin_board
from games.board import rising_sun as rising_sun_board
from games.board import shogun as shogun_board
from games.board.scene import Layer
from games.bots.base import NO_PARTS, BotParts, Evaluation, Search
from games.bots.imjin import evaluate as imjin_evaluate
from games.bots.imjin import search as imjin_search
from games.bots.imjin import worlds as imjin_worlds
from games.bots.rising_sun import alliances as rising_sun_alliances
from games.bots.rising_sun import evaluate as rising_sun_evaluate
from games.bots.rising_sun import search as rising_sun_search
from games.bots.rising_sun import worlds as rising_sun_worlds
from games.bots.shogun import evaluate as shogun_evaluate
from games.bots.shogun import search as shogun_search
from games.bots.shogun import worlds as shogun_worlds
from games.rules.base import Event, Outcome, Ruleset
from games.rules.breakdown import Source, Step
from games.rules.i18n import Texts
from games.rules.imjin import breakdown as imjin_breakdown
from games.rules.imjin import catalogue as imjin_catalogue
from games.rules.imjin import describe as imjin_describe
from games.rules.imjin.rules import RULES as IMJIN_RULES
from games.rules.rising_sun import breakdown as rising_sun_breakdown
from games.rules.rising_sun import catalogue as rising_sun_catalogue
from games.rules.rising_sun import describe as rising_sun_describe
from games.rules.rising_sun.rules import RULES as RISING_SUN_RULES
from games.rules.shogun import breakdown as shogun_breakdown
from games.rules.shogun import catalogue as shogun_catalogue
from games.rules.shogun import describe as shogun_describe
from games.rules.shogun.rules import RULES as SHOGUN_RULES

Catalogue = Callable[[str], dict[str, Any]]  # language -> the rules catalogue's body
Describe = Callable[[Any, Sequence[Event], str], str]  # (state before, events, locale) -> one line
# (engine events with their states, outcome, seats, language) -> where the points came from
Breakdown = Callable[[Sequence[Step], Outcome | None, int, str], dict[str, Any]]
TurnOf = Callable[[Any], Source]  # state -> the chapter (Season, turn) a replay groups steps by


class UnknownRuleset(LookupError):
    """No record for this ruleset id (the services answer it as `unknown_ruleset`)."""


@dataclass(frozen=True)
class Plugins:
    """Everything the platform plugs in for one ruleset. A part a ruleset lacks is
    None (the test-only toy has no catalogue or board), and each reader says what
    it does then: no summary, 404 for the catalogue or the picture, random bots."""

    key: str  # the ruleset id (`rules.id`, Game.ruleset)
    rules: Ruleset  # the engine at its current rules version
    catalogue: Catalogue | None  # games/rules/<ruleset>/catalogue.py `build`
    describe: Describe | None  # games/rules/<ruleset>/describe.py `describe`
    board: Layer | None  # games/board/<ruleset>.py `LAYER`
    bots: BotParts = NO_PARTS  # games/bots/<ruleset>/: worlds, evaluate, search
    breakdown: Breakdown | None = None  # games/rules/<ruleset>/breakdown.py `breakdown`
    turn: TurnOf | None = None  # games/rules/<ruleset>/breakdown.py `turn`
    texts: Callable[[str], Texts] | None = None  # games/rules/<ruleset>/catalogue.py `texts`


def _engine(rules: object) -> Ruleset:
    """An engine as the protocol: its `options_schema` is a plain dict where the
    protocol declares a Mapping attribute, which mypy holds invariant."""
    return cast(Ruleset, rules)


RISING_SUN = Plugins(
    key="rising-sun",
    rules=_engine(RISING_SUN_RULES),
    catalogue=rising_sun_catalogue.build,
    describe=rising_sun_describe.describe,
    breakdown=rising_sun_breakdown.breakdown,
    turn=rising_sun_breakdown.turn,
    texts=rising_sun_catalogue.texts,
    board=rising_sun_board.LAYER,
    bots=BotParts(
        worlds=rising_sun_worlds.sample,
        evaluation=Evaluation(
            evaluate=rising_sun_evaluate.evaluate,
            extra=rising_sun_evaluate.extra,
            decide=rising_sun_evaluate.decide,
        ),
        search=Search(
            stage=rising_sun_search.stage,
            stages=rising_sun_search.STAGES,
            searched=rising_sun_search.SEARCHED,
            width=rising_sun_search.WIDTH,
        ),
        answer=rising_sun_alliances.answer,
    ),
)

IMJIN = Plugins(
    key="imjin",
    rules=_engine(IMJIN_RULES),
    catalogue=imjin_catalogue.build,
    describe=imjin_describe.describe,
    breakdown=imjin_breakdown.breakdown,
    turn=imjin_breakdown.turn,
    texts=imjin_catalogue.texts,
    board=imjin_board.LAYER,
    bots=BotParts(
        worlds=imjin_worlds.sample,
        evaluation=Evaluation(
            evaluate=imjin_evaluate.evaluate,
            avoid=frozenset(imjin_evaluate.AVOID),
            decide=imjin_evaluate.decide,
        ),
        search=Search(
            stage=imjin_search.stage,
            stages=imjin_search.STAGES,
            searched=imjin_search.SEARCHED,
            width=imjin_search.WIDTH,
        ),
    ),
)

SHOGUN = Plugins(
    key="shogun",
    rules=_engine(SHOGUN_RULES),
    catalogue=shogun_catalogue.build,
    describe=shogun_describe.describe,
    breakdown=shogun_breakdown.breakdown,
    turn=shogun_breakdown.turn,
    texts=shogun_catalogue.texts,
    board=shogun_board.LAYER,
    bots=BotParts(
        worlds=shogun_worlds.sample,
        evaluation=Evaluation(evaluate=shogun_evaluate.evaluate, decide=shogun_evaluate.decide),
        search=Search(
            stage=shogun_search.stage,
            stages=shogun_search.STAGES,
            searched=shogun_search.SEARCHED,
            width=shogun_search.WIDTH,
            reward=shogun_search.reward,
            variants=shogun_search.variants,
        ),
    ),
)

# The rulesets this server plays (games.rules.registry.PRODUCTION names the same ids).
PRODUCTION: dict[str, Plugins] = {record.key: record for record in (RISING_SUN, IMJIN, SHOGUN)}

_extra: dict[str, Plugins] = {}


def register(record: Plugins) -> None:
    """Add a record (tests declare their test-only toy ruleset this way)."""
    _extra[record.key] = record


def unregister(ruleset_id: str) -> None:
    _extra.pop(ruleset_id, None)


def records() -> dict[str, Plugins]:
    """Every declared record by ruleset id (production, then registered ones)."""
    return {**PRODUCTION, **_extra}


def get(ruleset_id: str) -> Plugins | None:
    """The ruleset's record, or None for an id this server does not know."""
    return _extra.get(ruleset_id) or PRODUCTION.get(ruleset_id)


def record(ruleset_id: str) -> Plugins:
    """The ruleset's record; `UnknownRuleset` for an id this server does not know."""
    found = get(ruleset_id)
    if found is None:
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r}")
    return found


def bots_of(ruleset_id: str) -> BotParts:
    """The ruleset's bot hooks; none for an id without a record (random play)."""
    found = get(ruleset_id)
    return found.bots if found is not None else NO_PARTS


def layer(ruleset_id: str) -> Layer:
    """The ruleset's board layer; `UnknownRuleset` when it has none (scripts and tests)."""
    found = record(ruleset_id).board
    if found is None:
        raise UnknownRuleset(f"the {ruleset_id!r} ruleset has no board picture")
    return found
