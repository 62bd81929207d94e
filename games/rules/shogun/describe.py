"""Shogun's game log: one localized line per batch of events (issue 14.3).

``describe(state_before, events, locale)`` reads only the events it is given (the
caller passes those the viewer may see) and the player colours of the state,
which every view shows. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import Event
from ..describing import Clause, Log, describe_with
from .catalogue import texts


def describe(state_before: Any, events: Sequence[Event], locale: str) -> str:
    t = texts(locale)
    state = state_before if isinstance(state_before, Mapping) else {}
    colours = list(state.get("colours") or [])
    for e in events:  # the first batch names the colours before the state has them
        if e.type == "shogun.GameStarted" and not colours:
            colours = list(e.payload.get("colours") or [])
    log = Log(t, state, lambda seat: t(f"colour.{colours[seat]}") if seat >= 0 else t("colour.green"))
    return describe_with(log, events, CLAUSES)


def _p(log: Log, name: Any) -> str:
    return log.t(f"province.{name}") if log.t.has(f"province.{name}") else str(name)


def _battle(log: Log, payload: Mapping[str, Any]) -> str:
    out = payload.get("out") or {}
    peasants = out.get("green", 0) if out.get("green_counts") else 0
    if payload.get("attacker") is None:  # a revolt: the peasants attack
        a, d = peasants, out.get("defender", 0)
    else:
        a, d = out.get("attacker", 0), out.get("defender", 0) + peasants
    return log.t(
        f"log.battle.{payload.get('result')}"
        if log.t.has(f"log.battle.{payload.get('result')}")
        else "log.battle.held",
        who=log.who(payload["attacker"] if payload.get("attacker") is not None else -1),
        province=_p(log, payload.get("province")),
        defender=log.who(payload["defender"])
        if payload.get("defender") is not None
        else log.t("colour.green"),
        a=a,
        d=d,
    )


def _collected(log: Log, payload: Mapping[str, Any]) -> str:
    return log.t(
        f"log.collected.{payload.get('what')}",
        who=log.who(payload.get("seat")),
        n=payload.get("amount"),
        province=_p(log, payload.get("province")),
    )


def _scored(log: Log, payload: Mapping[str, Any]) -> str:
    parts = [
        log.t("log.score", who=log.who(i), n=s.get("total", 0))
        for i, s in enumerate(payload.get("scores") or [])
    ]
    return log.t("log.scored", scores=log.names(parts))


def _planned(log: Log, payload: Mapping[str, Any]) -> str:
    return log.t("log.planned", who=log.who(payload.get("seat")))


CLAUSES: dict[str, Clause] = {
    "shogun.GameStarted": lambda log, payload: log.t(
        "log.setup", colours=log.names(log.t(f"colour.{c}") for c in payload.get("colours") or [])
    ),
    "shogun.YearBegan": lambda log, payload: log.t("log.year", year=payload.get("year")),
    "shogun.ProvinceDrafted": lambda log, payload: log.t(
        "log.drafted",
        who=log.who(payload.get("seat")),
        province=_p(log, payload.get("province")),
        n=payload.get("armies"),
    ),
    "shogun.SeasonBegan": lambda log, payload: log.t(
        f"log.season.{payload.get('season', 0)}", year=payload.get("year")
    ),
    "shogun.CardPlanned": _planned,
    "shogun.EventRevealed": lambda log, payload: log.t(
        "log.event", event=log.t("event.E", n=int(str(payload.get("event"))[1:]))
    ),
    "shogun.BidsRevealed": lambda log, payload: log.t(
        "log.bids",
        bids=log.names(
            log.t("log.bid", who=log.who(i), n=b) for i, b in enumerate(payload.get("bids") or [])
        ),
    ),
    "shogun.SpecialChosen": lambda log, payload: log.t(
        "log.special",
        who=log.who(payload.get("seat")),
        special=log.t(f"special.{payload.get('special')}"),
        slot=payload.get("slot"),
    ),
    "shogun.CourtConverted": lambda log, payload: log.t(
        "log.court", who=log.who(payload.get("seat")), n=payload.get("n")
    ),
    "shogun.FavourTaken": lambda log, payload: log.t(
        "log.favour", who=log.who(payload.get("seat")), favour=log.t("favour.name", n=payload.get("card"))
    ),
    "shogun.CourtPassed": lambda log, payload: log.t("log.court_pass", who=log.who(payload.get("seat"))),
    "shogun.Collected": _collected,
    "shogun.Built": lambda log, payload: log.t(
        "log.built",
        who=log.who(payload.get("seat")),
        building=log.t(f"figure.{payload.get('building')}"),
        province=_p(log, payload.get("province")),
    ),
    "shogun.Recruited": lambda log, payload: log.t(
        "log.recruited",
        who=log.who(payload.get("seat")),
        n=payload.get("armies"),
        province=_p(log, payload.get("province")),
    ),
    "shogun.ArmiesMoved": lambda log, payload: log.t(
        "log.moved",
        who=log.who(payload.get("seat")),
        n=payload.get("armies"),
        src=_p(log, payload.get("from")),
        dst=_p(log, payload.get("to")),
    ),
    "shogun.BattleFought": _battle,
    "shogun.ActionDeclined": lambda log, payload: log.t(
        "log.declined", who=log.who(payload.get("seat")), action=log.t(f"action.{payload.get('space')}")
    ),
    "shogun.RevoltMarkerPlaced": lambda log, payload: log.t(
        "log.unrest", province=_p(log, payload.get("province"))
    ),
    "shogun.WinterRiceLost": lambda log, payload: log.t("log.winter", n=payload.get("loss")),
    "shogun.FamineStruck": lambda log, payload: log.t(
        "log.famine", who=log.who(payload.get("seat")), n=payload.get("revolts")
    ),
    "shogun.Scored": _scored,
}
