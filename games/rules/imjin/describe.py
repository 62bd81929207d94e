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


def _battle(log: Log, payload: Mapping[str, Any]) -> str:
    b, r = payload.get("battle") or {}, payload.get("result")
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


def _moved(log: Log, payload: Mapping[str, Any]) -> list[str]:
    return [
        log.t(
            "log.moved", who=_owner(log, m.get("unit")), src=_a(log, m.get("from")), dst=_a(log, m.get("to"))
        )
        for m in payload.get("moves") or []
    ]


def _supply(log: Log, payload: Mapping[str, Any]) -> str | None:
    delta = int(payload.get("delta") or 0)
    if not delta:
        return None
    return log.t("log.supply", who=log.who(payload.get("seat")), n=log.signed(delta))


def _troops(log: Log, payload: Mapping[str, Any]) -> str | None:
    delta = int(payload.get("delta") or 0)
    if not delta:
        return None
    u = (log.state.get("units") or {}).get(payload.get("unit")) or {}
    return log.t("log.troops", who=log.who(u.get("owner")), area=_a(log, u.get("area")), n=log.signed(delta))


CLAUSES: dict[str, Clause] = {
    "imjin.GameSetUp": lambda log, payload: log.t("log.setup"),
    "imjin.LegendaryChosen": lambda log, payload: log.t(
        "log.legendary", who=log.who(payload.get("seat")), general=_g(log, payload.get("general"))
    ),
    "imjin.GeneralPicked": lambda log, payload: log.t(
        "log.picked", who=log.who(payload.get("seat")), general=_g(log, payload.get("general"))
    ),
    "imjin.GeneralDeployed": lambda log, payload: log.t(
        "log.deployed", who=log.who(payload.get("seat")), general=_g(log, payload.get("general"))
    ),
    "imjin.GeneralLeftMap": lambda log, payload: (
        log.t(f"log.left.{payload.get('to')}", general=_g(log, payload.get("general")))
        if log.t.has(f"log.left.{payload.get('to')}")
        else log.t("log.left.hand", general=_g(log, payload.get("general")))
    ),
    "imjin.GeneralWounded": lambda log, payload: log.t(
        "log.wounded", general=_g(log, payload.get("general")), n=payload.get("hits", 1), hp=payload.get("hp")
    ),
    "imjin.WheelAdvanced": lambda log, payload: log.t(
        "log.wheel",
        who=log.who(payload.get("seat")),
        action=log.t(f"wheel.{payload.get('action')}"),
        steps=payload.get("steps"),
    ),
    "imjin.SupplyChanged": _supply,
    "imjin.TroopsChanged": _troops,
    "imjin.UnitFormed": lambda log, payload: log.t(
        "log.formed",
        who=log.who(payload.get("owner")),
        n=payload.get("troops"),
        area=_a(log, payload.get("area")),
    ),
    "imjin.UnitDestroyed": lambda log, payload: log.t(
        "log.destroyed", who=log.who(payload.get("owner")), area=_a(log, payload.get("area"))
    ),
    "imjin.UnitsMoved": _moved,
    "imjin.BattleResolved": _battle,
    "imjin.ControlChanged": lambda log, payload: log.t(
        "log.control", side=log.t(f"faction.{payload.get('side')}"), area=_a(log, payload.get("area"))
    ),
    "imjin.EventRevealed": lambda log, payload: log.t(
        "log.event", event=log.t(f"event.{payload.get('card')}")
    ),
    "imjin.FinalTurnDeclared": lambda log, payload: log.t("log.final_turn"),
    "imjin.GameEnded": lambda log, payload: (
        log.t("log.ended", side=log.t(f"faction.{payload.get('winner_side')}"))
        if payload.get("winner_side")
        else None
    ),
}
