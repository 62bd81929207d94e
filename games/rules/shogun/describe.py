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


def _battle(log: Log, p: Mapping[str, Any]) -> str:
    out = p.get("out") or {}
    peasants = out.get("green", 0) if out.get("green_counts") else 0
    if p.get("attacker") is None:  # a revolt: the peasants attack
        a, d = peasants, out.get("defender", 0)
    else:
        a, d = out.get("attacker", 0), out.get("defender", 0) + peasants
    return log.t(
        f"log.battle.{p.get('result')}" if log.t.has(f"log.battle.{p.get('result')}") else "log.battle.held",
        who=log.who(p["attacker"] if p.get("attacker") is not None else -1),
        province=_p(log, p.get("province")),
        defender=log.who(p["defender"]) if p.get("defender") is not None else log.t("colour.green"),
        a=a,
        d=d,
    )


def _collected(log: Log, p: Mapping[str, Any]) -> str:
    return log.t(
        f"log.collected.{p.get('what')}",
        who=log.who(p.get("seat")),
        n=p.get("amount"),
        province=_p(log, p.get("province")),
    )


def _scored(log: Log, p: Mapping[str, Any]) -> str:
    parts = [
        log.t("log.score", who=log.who(i), n=s.get("total", 0)) for i, s in enumerate(p.get("scores") or [])
    ]
    return log.t("log.scored", scores=log.names(parts))


def _planned(log: Log, p: Mapping[str, Any]) -> str:
    return log.t("log.planned", who=log.who(p.get("seat")))


CLAUSES: dict[str, Clause] = {
    "shogun.GameStarted": lambda log, p: log.t(
        "log.setup", colours=log.names(log.t(f"colour.{c}") for c in p.get("colours") or [])
    ),
    "shogun.YearBegan": lambda log, p: log.t("log.year", year=p.get("year")),
    "shogun.ProvinceDrafted": lambda log, p: log.t(
        "log.drafted", who=log.who(p.get("seat")), province=_p(log, p.get("province")), n=p.get("armies")
    ),
    "shogun.SeasonBegan": lambda log, p: log.t(f"log.season.{p.get('season', 0)}", year=p.get("year")),
    "shogun.CardPlanned": _planned,
    "shogun.EventRevealed": lambda log, p: log.t(
        "log.event", event=log.t("event.E", n=int(str(p.get("event"))[1:]))
    ),
    "shogun.BidsRevealed": lambda log, p: log.t(
        "log.bids",
        bids=log.names(log.t("log.bid", who=log.who(i), n=b) for i, b in enumerate(p.get("bids") or [])),
    ),
    "shogun.SpecialChosen": lambda log, p: log.t(
        "log.special",
        who=log.who(p.get("seat")),
        special=log.t(f"special.{p.get('special')}"),
        slot=p.get("slot"),
    ),
    "shogun.CourtConverted": lambda log, p: log.t("log.court", who=log.who(p.get("seat")), n=p.get("n")),
    "shogun.FavourTaken": lambda log, p: log.t(
        "log.favour", who=log.who(p.get("seat")), favour=log.t("favour.name", n=p.get("card"))
    ),
    "shogun.CourtPassed": lambda log, p: log.t("log.court_pass", who=log.who(p.get("seat"))),
    "shogun.Collected": _collected,
    "shogun.Built": lambda log, p: log.t(
        "log.built",
        who=log.who(p.get("seat")),
        building=log.t(f"figure.{p.get('building')}"),
        province=_p(log, p.get("province")),
    ),
    "shogun.Recruited": lambda log, p: log.t(
        "log.recruited", who=log.who(p.get("seat")), n=p.get("armies"), province=_p(log, p.get("province"))
    ),
    "shogun.ArmiesMoved": lambda log, p: log.t(
        "log.moved",
        who=log.who(p.get("seat")),
        n=p.get("armies"),
        src=_p(log, p.get("from")),
        dst=_p(log, p.get("to")),
    ),
    "shogun.BattleFought": _battle,
    "shogun.ActionDeclined": lambda log, p: log.t(
        "log.declined", who=log.who(p.get("seat")), action=log.t(f"action.{p.get('space')}")
    ),
    "shogun.RevoltMarkerPlaced": lambda log, p: log.t("log.unrest", province=_p(log, p.get("province"))),
    "shogun.WinterRiceLost": lambda log, p: log.t("log.winter", n=p.get("loss")),
    "shogun.FamineStruck": lambda log, p: log.t("log.famine", who=log.who(p.get("seat")), n=p.get("revolts")),
    "shogun.Scored": _scored,
}
