"""The Shogun ruleset object: wires the phase modules to the engine contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import (
    NO_UPCASTERS,
    BadCommand,
    Event,
    IllegalCommand,
    LegalSet,
    Outcome,
    Pending,
    RngFactory,
)
from games.rules.kit import Decided

from . import data, flow, planning
from .commands import parse
from .context import Ctx
from .evolve import evolve as _evolve
from .flow import decisions, pending
from .options import schema
from .setup import start as _start
from .state import State, initial, phase_of, round_of
from .view import view as _view
from .view import views as _views


class ShogunRules:
    """Rules versions (games keep the version they started under, see docs/audit.md):
    1 - first release; 2 - a favour whose text has no "may" (rice, VP, immunity) is applied
    when taken (seed), instead of being takeable unused; 3 - the capacity tower model and
    four options; 4 - the cubes inside the tower are hidden from every seat, committed at
    each throw and revealed at the end (tower_secret.py)."""

    id = "shogun"
    upcasters = NO_UPCASTERS  # no Shogun event has changed shape yet
    # the shape of the pickled state (services.state.snapshot_key): 2 - whose turn it is
    # lives in the kit's Position (state["position"]) instead of the phase key
    state_schema = 2
    name = "Shogun (with Tenno's Court)"
    min_players = 3
    max_players = 5

    def __init__(self, version: int = data.RULES_VERSION) -> None:
        self.rules_version = version
        self.options_schema: Mapping[str, Any] = schema(version)

    def for_rules_version(self, version: object) -> ShogunRules:
        """The engine for a game started under `version` (the current one for newer or
        unknown versions)."""
        if not isinstance(version, int) or version >= data.RULES_VERSION:
            return RULES
        version = max(1, version)
        if version not in _OLD:
            _OLD[version] = ShogunRules(version)
        return _OLD[version]

    def factions(self, players: int, options: Mapping[str, Any]) -> list[str]:
        return list(data.COLOURS)

    def start(
        self, factions: Sequence[str | None], options: Mapping[str, Any], rng: RngFactory
    ) -> list[Event]:
        if not self.min_players <= len(factions) <= self.max_players:
            raise BadCommand("Shogun is for 3 to 5 players")
        return _start(factions, options, rng, self.rules_version)

    def initial_state(self) -> State:
        return initial()

    def evolve(self, state: State, event: Event) -> State:
        return _evolve(state, event)

    def decide_folded(
        self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory
    ) -> Decided[State]:
        """`decide` and the state after its events (kit.Decided)."""
        ctx = self._decided(state, seat, command, rng)
        # the Context folded each event as it was emitted: its state is the one after them
        return Decided(ctx.events, ctx.state)

    def decide(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory) -> list[Event]:
        return self._decided(state, seat, command, rng).events

    def _decided(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory) -> Ctx:
        parsed = parse(command)
        if phase_of(state) in ("init", "over"):
            raise IllegalCommand("the game is not running")
        if not isinstance(seat, int) or not 0 <= seat < state["n"]:
            raise IllegalCommand("no such seat")
        ctx = Ctx(state, rng, self.rules_version)
        flow.decide(ctx, seat, parsed)
        return ctx

    def legal_commands(self, state: State, seat: int) -> LegalSet:
        phase = phase_of(state)
        if phase == "plan" and not round_of(state)["planned"][seat]:
            return LegalSet(
                templates=(planning.template(state, seat),),
                sample=lambda random: {"type": "plan", "spaces": planning.sample(state, seat, random)},
            )
        return LegalSet(commands=tuple(_listed(state, seat, self.rules_version)))

    def pending(self, state: State) -> list[Pending]:
        return pending(state)

    def default_command(self, state: State, seat: int) -> dict[str, Any] | None:
        if seat not in [waiting.seat for waiting in pending(state)]:
            return None
        default = decisions(self.rules_version)[phase_of(state)].default
        assert default is not None  # every Shogun phase declares its default
        return default(state, seat)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view(state, seat, self.rules_version)

    def views(self, state: State, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return _views(state, seats, self.rules_version)

    def outcome(self, state: State) -> Outcome | None:
        if phase_of(state) != "over":
            return None
        result = state["result"]
        assert result is not None
        return Outcome(
            winners=tuple(result["winners"]),
            scores={seat: float(score) for seat, score in enumerate(result["scores"])},
            reason="the second winter has been scored",
        )


def _listed(state: State, seat: int, version: int = data.RULES_VERSION) -> list[dict[str, Any]]:
    decision = decisions(version).get(phase_of(state))
    return [] if decision is None else decision.legal(state, seat)


RULES = ShogunRules()
_OLD: dict[int, ShogunRules] = {}  # engines of older rules versions, made on demand
