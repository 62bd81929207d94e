"""The Shogun ruleset object: wires the phase modules to the engine contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import BadCommand, Event, IllegalCommand, LegalSet, Outcome, Pending, RngFactory

from . import actions, bidding, court, data, draft, planning, samurai, winter
from . import state as S
from .commands import parse
from .context import Ctx
from .evolve import evolve as _evolve
from .flow import advance, pending
from .options import schema
from .setup import start as _start
from .state import State, initial
from .view import view as _view
from .view import views as _views


class ShogunRules:
    """Rules versions (games keep the version they started under, see docs/audit.md):
    1 - first release; 2 - a favour whose text has no "may" (rice, VP, immunity) is applied
    when taken (seed), instead of being takeable unused."""

    id = "shogun"
    name = "Shogun (with Tenno's Court)"
    min_players = 3
    max_players = 5

    def __init__(self, version: int = data.RULES_VERSION) -> None:
        self.rules_version = version
        self.options_schema = schema(version)

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

    def decide(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory) -> list[Event]:
        cmd = parse(command)
        if state.get("phase") in ("init", "over"):
            raise IllegalCommand("the game is not running")
        if not isinstance(seat, int) or not 0 <= seat < state["n"]:
            raise IllegalCommand("no such seat")
        ctx = Ctx(state, rng, self.rules_version)
        _dispatch(ctx, seat, cmd)
        advance(ctx)
        return ctx.events

    def legal_commands(self, state: State, seat: int) -> LegalSet:
        phase = state.get("phase")
        if phase == "plan" and not S.round_of(state)["planned"][seat]:
            return LegalSet(
                templates=(planning.template(state, seat),),
                sample=lambda rnd: {"type": "plan", "spaces": planning.sample(state, seat, rnd)},
            )
        return LegalSet(commands=tuple(_listed(state, seat, self.rules_version)))

    def pending(self, state: State) -> list[Pending]:
        return pending(state)

    def default_command(self, state: State, seat: int) -> dict[str, Any] | None:
        kinds = {p.kind for p in pending(state) if p.seat == seat}
        if not kinds:
            return None
        if "plan" in kinds:
            return {"type": "plan", "spaces": planning.default(state, seat)}
        if "favour" in kinds:
            return {"type": "pass"}
        listed = _listed(state, seat, self.rules_version)
        if any(c["type"] == "decline" for c in listed):
            return {"type": "decline"}
        # forced execution: a move within his own provinces rather than a battle
        safe = [c for c in listed if c["type"] == "move" and state["provinces"][c["to"]]["owner"] == seat]
        return (safe or listed)[0]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view(state, seat)

    def views(self, state: State, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return _views(state, seats)

    def outcome(self, state: State) -> Outcome | None:
        if state.get("phase") != "over":
            return None
        res = state["result"]
        assert res is not None
        return Outcome(
            winners=tuple(res["winners"]),
            scores={seat: float(v) for seat, v in enumerate(res["scores"])},
            reason="the second winter has been scored",
        )


def _listed(state: State, seat: int, version: int = data.RULES_VERSION) -> list[dict[str, Any]]:
    phase = state.get("phase")
    if phase == "draft":
        return draft.legal(state, seat)
    if phase == "samurai":
        return samurai.legal(state, seat)
    if phase == "special":
        return bidding.legal(state, seat)
    if phase == "favour":
        return court.legal(state, seat, version)
    if phase == "actions":
        return actions.legal(state, seat)
    if phase == "winter":
        return winter.legal(state, seat)
    return []


def _dispatch(ctx: Ctx, seat: int, cmd: dict[str, Any]) -> None:
    t = cmd["type"]
    if t == "draft":
        draft.decide(ctx, seat, cmd)
    elif t == "samurai":
        samurai.decide(ctx, seat, cmd["bonus"])
    elif t == "plan":
        planning.decide(ctx, seat, cmd["spaces"])
    elif t == "special":
        bidding.decide(ctx, seat, cmd["slot"])
    elif t == "favour":
        court.decide_favour(ctx, seat, cmd["card"], cmd["use"], cmd["province"])
    elif t == "pass":
        court.decide_pass(ctx, seat)
    elif t == "execute":
        actions.decide_execute(ctx, seat)
    elif t == "decline":
        actions.decide_decline(ctx, seat)
    elif t == "move":
        actions.decide_move(ctx, seat, cmd["to"], cmd["armies"])
    elif t == "revolt":
        winter.decide(ctx, seat, cmd["province"])


RULES = ShogunRules()
_OLD: dict[int, ShogunRules] = {}  # engines of older rules versions, made on demand
