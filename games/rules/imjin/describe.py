"""The Imjin War's game log: one localized line per batch of events (issue 14.3).

``describe(state_before, events, locale)`` reads only the events it is given (the
caller passes those the viewer may see) and the public parts of the state before
them: each seat's faction and the units on the map, which every view shows. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import Event
from ..describing import Clause, Log, describe_with
from .catalogue import texts


def describe(state_before: Any, events: Sequence[Event], locale: str) -> str:
    t = texts(locale)
    state = state_before if isinstance(state_before, Mapping) else {}
    factions = list(state.get("faction") or [])
    for e in events:  # the setup batch names the factions before the state has them
        if e.type == "imjin.GameSetUp" and not factions:
            factions = list((e.payload.get("table") or {}).get("faction") or [])
    log = Log(t, state, lambda seat: t(f"faction.{factions[seat]}"))
    return describe_with(log, events, CLAUSES)


def _a(log: Log, area: Any) -> str:
    return log.t(f"area.{area}") if log.t.has(f"area.{area}") else str(area)


def _g(log: Log, general: Any) -> str:
    return log.t(f"general.{general}") if log.t.has(f"general.{general}") else str(general)


def _owner(log: Log, unit: Any) -> str:
    u = (log.state.get("units") or {}).get(unit) or {}
    return log.who(u.get("owner"))


def _battle(log: Log, p: Mapping[str, Any]) -> str:
    b, r = p.get("battle") or {}, p.get("result")
    if not isinstance(r, Mapping):  # "cancelled": the battle did not happen
        return log.t("log.battle_cancelled", area=_a(log, b.get("area")))
    return log.t(
        "log.battle",
        attacker=_owner(log, b.get("main")),
        defender=_owner(log, b.get("target")),
        area=_a(log, b.get("area")),
        a=r.get("main_lost", 0),
        d=r.get("target_lost", 0),
    )


def _moved(log: Log, p: Mapping[str, Any]) -> list[str]:
    return [
        log.t(
            "log.moved", who=_owner(log, m.get("unit")), src=_a(log, m.get("from")), dst=_a(log, m.get("to"))
        )
        for m in p.get("moves") or []
    ]


def _supply(log: Log, p: Mapping[str, Any]) -> str | None:
    delta = int(p.get("delta") or 0)
    if not delta:
        return None
    return log.t("log.supply", who=log.who(p.get("seat")), n=log.signed(delta))


def _troops(log: Log, p: Mapping[str, Any]) -> str | None:
    delta = int(p.get("delta") or 0)
    if not delta:
        return None
    u = (log.state.get("units") or {}).get(p.get("unit")) or {}
    return log.t("log.troops", who=log.who(u.get("owner")), area=_a(log, u.get("area")), n=log.signed(delta))


CLAUSES: dict[str, Clause] = {
    "imjin.GameSetUp": lambda log, p: log.t("log.setup"),
    "imjin.LegendaryChosen": lambda log, p: log.t(
        "log.legendary", who=log.who(p.get("seat")), general=_g(log, p.get("general"))
    ),
    "imjin.GeneralPicked": lambda log, p: log.t(
        "log.picked", who=log.who(p.get("seat")), general=_g(log, p.get("general"))
    ),
    "imjin.GeneralDeployed": lambda log, p: log.t(
        "log.deployed", who=log.who(p.get("seat")), general=_g(log, p.get("general"))
    ),
    "imjin.GeneralLeftMap": lambda log, p: (
        log.t(f"log.left.{p.get('to')}", general=_g(log, p.get("general")))
        if log.t.has(f"log.left.{p.get('to')}")
        else log.t("log.left.hand", general=_g(log, p.get("general")))
    ),
    "imjin.GeneralWounded": lambda log, p: log.t(
        "log.wounded", general=_g(log, p.get("general")), n=p.get("hits", 1), hp=p.get("hp")
    ),
    "imjin.WheelAdvanced": lambda log, p: log.t(
        "log.wheel",
        who=log.who(p.get("seat")),
        action=log.t(f"wheel.{p.get('action')}"),
        steps=p.get("steps"),
    ),
    "imjin.SupplyChanged": _supply,
    "imjin.TroopsChanged": _troops,
    "imjin.UnitFormed": lambda log, p: log.t(
        "log.formed", who=log.who(p.get("owner")), n=p.get("troops"), area=_a(log, p.get("area"))
    ),
    "imjin.UnitDestroyed": lambda log, p: log.t(
        "log.destroyed", who=log.who(p.get("owner")), area=_a(log, p.get("area"))
    ),
    "imjin.UnitsMoved": _moved,
    "imjin.BattleResolved": _battle,
    "imjin.ControlChanged": lambda log, p: log.t(
        "log.control", side=log.t(f"faction.{p.get('side')}"), area=_a(log, p.get("area"))
    ),
    "imjin.EventRevealed": lambda log, p: log.t("log.event", event=log.t(f"event.{p.get('card')}")),
    "imjin.FinalTurnDeclared": lambda log, p: log.t("log.final_turn"),
    "imjin.GameEnded": lambda log, p: (
        log.t("log.ended", side=log.t(f"faction.{p.get('winner_side')}")) if p.get("winner_side") else None
    ),
}
