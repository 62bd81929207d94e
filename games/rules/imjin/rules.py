"""The Imjin ruleset object: wires the contract to the phase modules.

Every decision is a prompt at the head of `state["queue"]` (kind + seat); the
command is dispatched to the module owning that kind, then `flow.settle` runs
the automatic steps until someone must decide again."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.rules.base import Event, IllegalCommand, LegalSet, Outcome, Pending, RngFactory

from . import battle, data, event_cards, flow, movement, recruit, resolution, setup, supply, wheel
from . import commands as C
from .context import Ctx
from .evolve import evolve as _evolve
from .state import LEGACY_VERSION, RULES_VERSION, State, initial
from .view import view as _view

Legal = Callable[[State, dict[str, Any]], list[dict[str, Any]]]
Decide = Callable[[Ctx, int, Mapping[str, Any]], None]


def _gwak_legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    out = movement.legal(s, p)
    uid = p["unit"]
    if uid in s["units"] and not battle.peace(s):
        here = s["units"][uid]["area"]
        for t in battle.targets(s, p["seat"]):
            if s["units"][t]["area"] in data.adjacency()[here]:
                out.append({"type": "attack", "target": t, "main": uid, "via": None, "mode": "normal"})
    return out


def _gwak_decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    p = s["queue"][0]
    if cmd["type"] != "attack":
        movement.decide(ctx, seat, cmd)
        return
    c = {
        "type": "attack",
        "target": C.unit(cmd, "target"),
        "main": C.unit(cmd, "main"),
        "via": C.area(cmd, "via", optional=True),
        "mode": C.text(cmd, "mode"),
    }
    if c not in _gwak_legal(s, p):
        raise IllegalCommand("郭再佑's unit may attack only an adjacent enemy unit, without supports")
    ctx.pop()
    battle.add_battle(ctx, {"target": c["target"], "main": c["main"], "supports": []}, "normal")
    resolution.start(ctx, ctx.state["act"]["battles"][-1])


def _yes_no(kind: str) -> tuple[Legal, Decide]:
    def legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
        return resolution.yes_no(kind)

    def decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
        if kind == "sacrifice":
            flow.decide_sacrifice(ctx, seat, C.boolean(cmd, "go"))
        else:
            {
                "second_attack": resolution.decide_second,
                "taunt": resolution.decide_taunt,
                "advance_into": resolution.decide_advance,
                "splash": resolution.decide_splash,
            }[kind](ctx, seat, cmd)

    return legal, decide


KINDS: dict[str, tuple[Legal, Decide]] = {
    "choose_legendary": (
        lambda s, p: [
            {"type": "choose_legendary", "general": g} for g in setup.legendary_options(s, p["seat"])
        ],
        setup.decide_legendary,
    ),
    "place_general": (
        lambda s, p: [
            {"type": "place_general", "general": g, "unit": u} for g, u in setup.place_options(s, p["seat"])
        ],
        setup.decide_place,
    ),
    "advance_wheel": (lambda s, p: wheel.legal(s, p["seat"]), wheel.decide),
    "split": (event_cards.split_legal, event_cards.decide_split),
    "choose_general": (
        lambda s, p: [{"type": "choose_general", "general": g} for g in event_cards.choose_options(s, p)],
        event_cards.decide_choose,
    ),
    "reset_deploy": (event_cards.reset_deploy_options, event_cards.decide_reset_deploy),
    "manage": (supply.legal, supply.decide),
    "gwak_action": (_gwak_legal, _gwak_decide),
    "recruit": (recruit.legal, recruit.decide),
    "reorganize": (recruit.reorganize_legal, recruit.reorganize_decide),
    "move": (movement.legal, movement.decide),
    "declare": (battle.legal, battle.decide),
    "resolve": (resolution.resolve_legal, resolution.decide_resolve),
    "reroll": (resolution.reroll_legal, resolution.decide_reroll),
    "second_attack": _yes_no("second_attack"),
    "taunt": _yes_no("taunt"),
    "advance": (lambda s, p: resolution.yes_no("advance_into"), _yes_no("advance_into")[1]),
    "sacrifice": _yes_no("sacrifice"),
    "splash": _yes_no("splash"),
    "kobayakawa": (
        lambda s, p: [{"type": "kobayakawa", "option": 1}, {"type": "kobayakawa", "option": 2}],
        lambda ctx, seat, cmd: _kobayakawa(ctx, seat, cmd),
    ),
}


def _kobayakawa(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    option = C.integer(cmd, "option")
    if option not in (1, 2):
        raise IllegalCommand("小早川隆景: option 1 (normal, crest heals him) or 2 (內訌)")
    flow.decide_kobayakawa(ctx, seat, option)


# command types each decision kind understands (the module explains refusals)
VOCABULARY: dict[str, set[str]] = {
    "choose_legendary": {"choose_legendary"},
    "place_general": {"place_general"},
    "advance_wheel": {"advance"},
    "split": {"split"},
    "choose_general": {"choose_general"},
    "reset_deploy": {"deploy", "pass"},
    "manage": {"deploy", "deploy_gwak", "replace", "recall", "done"},
    "gwak_action": {"move", "attack", "done"},
    "recruit": {"recruit", "done"},
    "reorganize": {"reorganize", "done"},
    "move": {"move", "swap", "done"},
    "declare": {"attack", "support", "confirm", "cancel", "discord", "fight"},
    "resolve": {"resolve"},
    "reroll": {"reroll"},
    "second_attack": {"second_attack"},
    "taunt": {"taunt"},
    "advance": {"advance_into"},
    "sacrifice": {"sacrifice"},
    "kobayakawa": {"kobayakawa"},
    "splash": {"splash"},
}


def _head(state: State) -> dict[str, Any] | None:
    if state.get("stage") != "play" or state.get("result") is not None or not state["queue"]:
        return None
    return state["queue"][0]


def _seats(head: dict[str, Any]) -> list[int]:
    return list(head["seats"]) if head["kind"] == "pick_generals" else [head["seat"]]


def _legal_list(state: State, seat: int) -> list[dict[str, Any]]:
    head = _head(state)
    if head is None or seat not in _seats(head):
        return []
    if head["kind"] == "pick_generals":
        return [{"type": "pick_general", "general": g} for g in setup.pick_options(state, seat)]
    return KINDS[head["kind"]][0](state, head)


class ImjinRules:
    id = "imjin"
    name = "Imjin War (壬辰之戰)"
    min_players = 2
    max_players = 4
    options_schema = {
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

    def decide(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory) -> list[Event]:
        t = C.kind(command)
        head = _head(state)
        if head is None:
            raise IllegalCommand("the game is over" if state.get("result") else "nothing to decide now")
        if seat not in _seats(head):
            raise IllegalCommand("it is not your decision now")
        ctx = Ctx(state, rng)
        if head["kind"] == "pick_generals":
            if t != "pick_general":
                raise IllegalCommand("pick your generals first")
            setup.decide_pick(ctx, seat, command)
        else:
            if t not in VOCABULARY[head["kind"]]:
                raise IllegalCommand(
                    f"now is a {head['kind']} decision; commands: {sorted(VOCABULARY[head['kind']])}"
                )
            KINDS[head["kind"]][1](ctx, seat, command)
        flow.settle(ctx)
        return ctx.events

    def evolve(self, state: State, event: Event) -> State:
        return _evolve(state, event)

    def legal_commands(self, state: State, seat: int) -> LegalSet:
        return LegalSet(commands=tuple(_legal_list(state, seat)))

    def pending(self, state: State) -> list[Pending]:
        head = _head(state)
        return [] if head is None else [Pending(x, head["kind"]) for x in _seats(head)]

    def default_command(self, state: State, seat: int) -> Mapping[str, Any] | None:
        legal = _legal_list(state, seat)
        if not legal:
            return None
        return _default(state, seat, legal)

    def view(self, state: State, seat: int | None) -> Any:
        return _view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if r is None:
            return None
        return Outcome(tuple(r["winners"]), {int(k): v for k, v in r["scores"].items()}, r["reason"])


_NOTHING = [
    {"type": "done"},
    {"type": "pass"},
    {"type": "fight"},
    {"type": "reroll", "dice": []},
    {"type": "choose_legendary", "general": None},
]


def _default(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The rules-faithful "do nothing": done/pass/decline/no reroll; keep all of a
    split; mandatory choices (picks, placements, 流言/暗殺/軍醫, resolve order,
    forced taunt) take the first listed option; the wheel moves 1 step."""
    for c in _NOTHING:
        if c in legal:
            return c
    for c in legal:
        if (
            c["type"] in ("second_attack", "taunt", "advance_into", "sacrifice", "splash")
            and c["go"] is False
        ):
            return c
        if c["type"] == "cancel" or c["type"] == "confirm" and state["queue"][0].get("forced"):
            return c
    if state["queue"][0]["kind"] == "split":
        return legal[-1]  # keep (or bear) all that may be
    return legal[0]


_OLD: dict[int, ImjinRules] = {}
RULES = ImjinRules()
