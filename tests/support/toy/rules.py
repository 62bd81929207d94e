"""`RULES`: the toy auction's `Ruleset` (games/rules/base.py), wired from the kit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import NO_UPCASTERS, Event, LegalSet, Outcome, Pending, RngFactory
from games.rules.kit import Context, Decided, decision_of

from . import auction, commands, setup
from .evolve import evolve
from .flow import DECISIONS
from .state import BID, State, initial, kind
from .view import view


class ToyRules:
    id = "toy-auction"
    name = "Toy auction (test only)"
    min_players = 2
    max_players = 4
    rules_version = 1
    upcasters = NO_UPCASTERS
    options_schema: Mapping[str, Any] = {
        "type": "object",
        "properties": {"coins": {"type": "integer", "minimum": 1, "maximum": 30, "default": 10}},
        "additionalProperties": False,
    }

    def for_rules_version(self, version: int) -> ToyRules:
        return self

    def factions(self, players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        return setup.factions(players)

    def initial_state(self) -> State:
        return initial()

    def start(
        self, factions: Sequence[str | None], options: Mapping[str, Any], rng: RngFactory
    ) -> list[Event]:
        return setup.start(factions, options, rng)

    def decide_folded(
        self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory
    ) -> Decided[State]:
        """The command's events and the state after them, folded once by the Context."""
        parsed = commands.parse(command)
        decision = decision_of(DECISIONS, kind(state), parsed["type"])
        context = Context(state, rng, self.evolve, normalise=True)
        assert decision.decide is not None  # every toy decision decides
        decision.decide(context, seat, parsed)
        return Decided(context.events, context.state)

    def decide(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory) -> list[Event]:
        return self.decide_folded(state, seat, command, rng).events

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def pending(self, state: State) -> list[Pending]:
        current = kind(state)
        if not current:
            return []
        return [Pending(seat, current) for seat in DECISIONS[current].pending(state)]

    def legal_commands(self, state: State, seat: int) -> LegalSet:
        current = kind(state)
        if not current or seat not in DECISIONS[current].pending(state):
            return LegalSet()
        listed = tuple(DECISIONS[current].legal(state, seat))
        if current == BID:
            return LegalSet(commands=listed, templates=(auction.bid_template(state, seat),))
        return LegalSet(commands=listed)

    def default_command(self, state: State, seat: int) -> dict[str, Any] | None:
        current = kind(state)
        if not current or seat not in DECISIONS[current].pending(state):
            return None
        default = DECISIONS[current].default
        return default(state, seat) if default is not None else None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat, [pending.seat for pending in self.pending(state)], self.rules_version)

    def outcome(self, state: State) -> Outcome | None:
        if not state["over"]:
            return None
        best = max(state["points"])
        return Outcome(
            winners=tuple(seat for seat, points in enumerate(state["points"]) if points == best),
            scores=dict(enumerate(state["points"])),
            reason="most points after 3 prizes",
        )


RULES = ToyRules()
