"""The Imjin ruleset object: wires the contract to the phase modules.

Every decision is a prompt frame on top of the kit's position (kind + seat); the
command is dispatched to the module owning that kind, then `flow.settle` runs
the automatic steps until someone must decide again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import NO_UPCASTERS, Event, IllegalCommand, LegalSet, Outcome, Pending, RngFactory
from games.rules.kit import Decided, decision_of

from . import commands, flow, setup
from .context import Ctx
from .evolve import evolve as _evolve
from .state import LEGACY_VERSION, RULES_VERSION, State, head_prompt, initial
from .view import view as _view


class ImjinRules:
    id = "imjin"
    name = "Imjin War (壬辰之戰)"
    min_players = 2
    max_players = 4
    upcasters = NO_UPCASTERS  # no Imjin event has changed shape yet
    options_schema: Mapping[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "legendary_generals": {
                "type": "array",
                "uniqueItems": True,
                "items": {"enum": list(setup.LEGENDARY)},
                "default": list(setup.LEGENDARY),
                "description": "Legendary generals available (empty list: none in play).",
            },
        },
    }

    salted_since = 3  # first rules version whose private events all carry payload.salt (issue 10)
    # The shape of the pickled state: 2 = who acts lives in the kit's position frames
    # (1 had `flow` and a `queue` of prompts). Events are unchanged; a snapshot taken
    # under another schema is re-folded from the events, never loaded.
    state_schema = 2

    def __init__(self, version: int = RULES_VERSION):
        self.rules_version = version

    def for_rules_version(self, version: int) -> ImjinRules:
        """The engine for a game started under `version`. Only `start` differs: it
        writes the version into the table, and from then on the state tells decide,
        legal_commands and default_command which rules apply (so a game keeps its
        rules in replay and in live play alike). Versions 1 and 2 share one engine
        (version-1 games were not kept replayable by version 2)."""
        if not isinstance(version, int) or version >= RULES_VERSION:
            return RULES
        version = max(LEGACY_VERSION, version)
        if version not in _OLD:
            _OLD[version] = ImjinRules(version)
        return _OLD[version]

    def factions(self, players: int, options: Mapping[str, Any]) -> Sequence[str]:
        return setup.factions(players, options)

    def start(
        self, factions: Sequence[str | None], options: Mapping[str, Any], rng: RngFactory
    ) -> list[Event]:
        return setup.start(factions, options, rng, self.rules_version)

    def initial_state(self) -> State:
        return initial()

    def decide_folded(
        self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory
    ) -> Decided[State]:
        """The events of `command` and the state after them (kit.Decided): the state is
        the one the kit's Context folded while the command was decided, so nobody folds
        the events a second time."""
        ctx = self._decided(state, seat, command, rng)
        return Decided(ctx.events, ctx.state)

    def decide(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory) -> list[Event]:
        return self._decided(state, seat, command, rng).events

    def _decided(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory) -> Ctx:
        """The Context of one command, after it and the automatic steps that follow."""
        cmd = commands.parse(command)
        prompt = flow.head(state)
        if prompt is None:
            raise IllegalCommand("the game is over" if state.get("result") else "nothing to decide now")
        if seat not in flow.pending_seats(state):
            raise IllegalCommand("it is not your decision now")
        decision = decision_of(flow.DECISIONS, prompt["kind"], cmd["type"])
        assert decision.decide is not None  # every Imjin decision applies its own commands
        ctx = Ctx(state, rng)
        decision.decide(ctx, seat, cmd)
        flow.settle(ctx)
        return ctx

    def evolve(self, state: State, event: Event) -> State:
        return _evolve(state, event)

    def legal_commands(self, state: State, seat: int) -> LegalSet:
        return LegalSet(commands=tuple(flow.legal(state, seat)))

    def pending(self, state: State) -> list[Pending]:
        prompt = flow.head(state)
        return [] if prompt is None else [Pending(seat, prompt["kind"]) for seat in flow.pending_seats(state)]

    def default_command(self, state: State, seat: int) -> Mapping[str, Any] | None:
        if seat not in flow.pending_seats(state):
            return None
        decision = flow.DECISIONS[head_prompt(state)["kind"]]
        return None if decision.default is None else decision.default(state, seat)

    def view(self, state: State, seat: int | None) -> Any:
        return _view(state, seat, self.rules_version)

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if r is None:
            return None
        return Outcome(tuple(r["winners"]), {int(k): v for k, v in r["scores"].items()}, r["reason"])


_OLD: dict[int, ImjinRules] = {}
RULES = ImjinRules()
