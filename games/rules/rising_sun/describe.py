"""Rising Sun's game log: one localized line per batch of events (issue 14.3).

``describe(state_before, events, locale)`` reads only the events it is given (the
caller passes those the viewer may see) and the public parts of the state before
them: clans, figures on the board and the question being answered, all shown in
every seat's view. A version-6 batch's named facts are summed up as the outcome
of its public event (one line per clan, as for versions 4-5). Pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..base import Event
from ..describing import Clause, Log, describe_with
from .catalogue import texts
from .named import HEADERS, NAMED_TYPES, PREFIX

RESOURCES = ("vp", "coins", "ronin")


def describe(state_before: Any, events: Sequence[Event], locale: str) -> str:
    t = texts(locale)
    state = state_before if isinstance(state_before, Mapping) else {}
    clans = list(state.get("clans") or [])
    for e in events:  # the setup batch names the clans before the state has them
        if e.type == "rising-sun.GameSetUp" and not clans:
            clans = list(e.payload.get("clans") or [])
    log = Log(t, state, lambda seat: t(f"clan.{clans[seat]}"))
    return describe_with(log, _with_outcome(events), CLAUSES)


def _with_outcome(events: Sequence[Event]) -> list[Event]:
    """Version 6: the batch's public event carries the sum of its named facts as
    its `outcome` (in the words of versions 4-5), so one line per clan says it all."""
    facts = [e for e in events if e.type in NAMED_TYPES]
    if not facts:
        return list(events)
    outcome = _summary(facts)
    return [
        Event(e.type, {**e.payload, "outcome": outcome}, e.version, e.visible_to)
        if e.type in HEADERS and "outcome" not in e.payload
        else e
        for e in events
    ]


def _route(event: Event) -> tuple[str, str]:
    """(from, to) of a figure fact, in the words of a version-4 outcome."""
    p = event.payload
    if event.type == PREFIX + "FigurePlaced":
        return "reserve", str(p["at"])
    if event.type == PREFIX + "FigureKilled":
        return str(p["at"]), "reserve"
    return str(p["at"]), f"hostage:{p['captor']}"


_FIGURES = {PREFIX + "FigurePlaced", PREFIX + "FigureKilled", PREFIX + "FigureTakenHostage"}
_COUNTS = {
    PREFIX + "VictoryPointsScored": ("vp", "points", 1),
    PREFIX + "VictoryPointsLost": ("vp", "points", -1),
    PREFIX + "CoinsGained": ("coins", "coins", 1),
    PREFIX + "CoinsPaid": ("coins", "coins", -1),
    PREFIX + "RoninGained": ("ronin", "ronin", 1),
    PREFIX + "RoninPaid": ("ronin", "ronin", -1),
}


def _summary(facts: Sequence[Event]) -> dict[str, Any]:
    """Figures placed, killed or taken hostage; VP, coins and Ronin per clan; war tokens."""
    figures: dict[str, dict[str, str]] = {}
    players: dict[str, dict[str, Any]] = {}
    for e in facts:
        p = e.payload
        if e.type in _FIGURES:
            source, destination = _route(e)
            figures[p["figure"]] = {
                "from": figures.get(p["figure"], {}).get("from", source),
                "to": destination,
            }
        elif e.type in _COUNTS:
            key, field, sign = _COUNTS[e.type]
            change = players.setdefault(str(p["seat"]), {})
            change[key] = change.get(key, 0) + sign * int(p[field])
        elif e.type == PREFIX + "WarTokenWon":
            change = players.setdefault(str(p["seat"]), {})
            change.setdefault("war_tokens", {"add": []})["add"].append([p["province"], p["season"]])
    return {"figures": figures, "players": players}


def _figure(log: Log, fid: str) -> tuple[int | None, str]:
    f = (log.state.get("figures") or {}).get(fid) or {}
    owner = f.get("owner")
    if owner is None and fid[:1].isdigit():
        owner = int(fid.split(":")[0])
    kind = f.get("type") or fid.split(":")[-1].rstrip("0123456789")
    name = f.get("name", "")
    label = (
        log.t(f"card.{name}") if kind == "monster" and log.t.has(f"card.{name}") else log.t(f"figure.{kind}")
    )
    return owner, label


def _place(log: Log, where: str) -> str:
    if where.startswith("shrine:"):
        return log.t(f"kami.{where[7:]}")
    return log.t(f"province.{where}") if log.t.has(f"province.{where}") else where


def _outcome(log: Log, outcome: Mapping[str, Any]) -> list[str]:
    """Figures killed or taken hostage, war tokens taken, and resources per clan."""
    out: list[str] = []
    lost: Counter[tuple[int | None, str]] = Counter()
    hostages: Counter[tuple[int | None, str]] = Counter()
    for fid, move in (outcome.get("figures") or {}).items():
        frm, to = move.get("from", ""), move.get("to", "")
        # from the reserve: a summon; from a hostage or a Shrine: a return at the Season's end
        if frm in ("reserve", "") or frm.startswith(("hostage", "shrine:")):
            continue
        if to == "reserve" or to == "dead":
            lost[_figure(log, fid)] += 1
        elif to.startswith("hostage"):
            hostages[_figure(log, fid)] += 1
    for (owner, label), n in lost.items():
        out.append(log.t("log.loses", who=log.who(owner), n=n, figure=label))
    for (owner, label), n in hostages.items():
        out.append(log.t("log.hostage", who=log.who(owner), n=n, figure=label))
    for seat, change in sorted((outcome.get("players") or {}).items()):
        for token in (change.get("war_tokens") or {}).get("add", []):
            out.append(log.t("log.war_token", who=log.who(seat), province=_place(log, token[0])))
        parts = [
            log.t(f"log.res.{r}", n=log.signed(int(change[r])))
            for r in RESOURCES
            if isinstance(change.get(r), int) and change[r]
        ]
        if parts:
            out.append(log.t("log.resources", who=log.who(seat), changes=log.names(parts)))
    return out


def _head_move(log: Log, who: str, cmd: Mapping[str, Any], payload: Mapping[str, Any]) -> str | None:
    return log.t(
        "log.move",
        who=who,
        figure=log.t(f"figure.{cmd.get('kind', 'bushi')}"),
        src=_place(log, str(cmd.get("from", ""))),
        dst=_place(log, str(cmd.get("to", ""))),
    )


def _head_summon(log: Log, who: str, cmd: Mapping[str, Any], payload: Mapping[str, Any]) -> str | None:
    moved = list((payload.get("outcome") or {}).get("figures", {}).items())
    for fid, move in moved[:1]:
        return log.t(
            f"log.{cmd['type']}", who=who, figure=_figure(log, fid)[1], where=_place(log, move["to"])
        )
    return None


def _head_buy(log: Log, who: str, cmd: Mapping[str, Any], payload: Mapping[str, Any]) -> str | None:
    return log.t("log.buy", who=who, card=log.t(f"card.{cmd.get('card')}"))


def _head_build(log: Log, who: str, cmd: Mapping[str, Any], payload: Mapping[str, Any]) -> str | None:
    return log.t("log.build", who=who, province=_place(log, str(cmd.get("province", ""))))


def _head_betray(log: Log, who: str, cmd: Mapping[str, Any], payload: Mapping[str, Any]) -> str | None:
    return log.t(
        "log.betray", who=who, victim=log.who(cmd.get("owner")), where=_place(log, str(cmd.get("at", "")))
    )


def _head_alliance(log: Log, who: str, cmd: Mapping[str, Any], payload: Mapping[str, Any]) -> str | None:
    return log.t("log.alliance", who=who, other=log.who(cmd.get("from")))


def _head_choose(log: Log, who: str, cmd: Mapping[str, Any], payload: Mapping[str, Any]) -> str | None:
    stack = log.state.get("position") or []
    what = stack[-1].get("what") if stack else None
    return log.t("log.answer", who=who, prompt=log.t(f"prompt.{what}")) if what else None


_HEADS = {
    "move": _head_move,
    "summon": _head_summon,
    "place": _head_summon,
    "buy": _head_buy,
    "build": _head_build,
    "betray": _head_betray,
    "accept_alliance": _head_alliance,
    "choose": _head_choose,
}


def _command(log: Log, payload: Mapping[str, Any]) -> list[str]:
    cmd, who = payload.get("cmd") or {}, log.who(payload.get("seat"))
    kind = cmd.get("type")
    head: str | None = None
    if kind in _HEADS:
        head = _HEADS[kind](log, who, cmd, payload)
    elif kind:
        head = log.t("log.command", who=who, command=log.t(f"command.{kind}"))
    outcome = payload.get("outcome") or {}
    if kind == "betray":  # replaced figures go home: not a loss
        outcome = {k: v for k, v in outcome.items() if k != "figures"}
    return ([head] if head else []) + _outcome(log, outcome)


def _mandate(log: Log, payload: Mapping[str, Any]) -> list[str]:
    head = log.t(
        "log.mandate", who=log.who(payload.get("seat")), mandate=log.t(f"mandate.{payload.get('declared')}")
    )
    return [head, *_outcome(log, payload.get("outcome") or {})]


def _battle(log: Log, payload: Mapping[str, Any]) -> list[str]:
    return [
        log.t("log.war", province=_place(log, str(payload.get("province", "")))),
        *_outcome(log, payload.get("outcome") or {}),
    ]


def _gift(log: Log, payload: Mapping[str, Any]) -> str:
    cmd = payload.get("cmd") or {}
    parts = [log.t(f"log.res.{r}", n=cmd[r]) for r in ("coins", "ronin") if cmd.get(r)]
    return log.t(
        "log.gift", who=log.who(payload.get("seat")), other=log.who(cmd.get("to")), what=log.names(parts)
    )


ADVANTAGES = {
    "seppuku": "seppuku",
    "hostage": "take_hostage",
    "ronin": "hire_ronin",
    "poets": "imperial_poets",
}


def _bid(log: Log, payload: Mapping[str, Any]) -> str:
    """The bidder's own bid (the event is private to them until the reveal)."""
    bids = payload.get("choice") or {}
    parts = [
        log.t("log.bid_on", advantage=log.t(f"prompt.{a}"), n=bids.get(k, 0)) for k, a in ADVANTAGES.items()
    ]
    return log.t("log.war_bid", who=log.who(payload.get("seat")), bids=log.names(parts))


_HONOR = {"gained": "log.honor_gained", "lost": "log.honor_lost", "to_top": "log.honor_to_top"}


CLAUSES: dict[str, Clause] = {
    PREFIX + "HonorChanged": lambda log, payload: log.t(
        _HONOR.get(str(payload.get("change")), "log.honor_gained"), who=log.who(payload.get("seat"))
    ),
    # the one who accepted first: the same line as the acceptance's own (shown once)
    PREFIX + "AllianceFormed": lambda log, payload: log.t(
        "log.alliance",
        who=log.who((payload.get("seats") or [None, None])[1]),
        other=log.who((payload.get("seats") or [None, None])[0]),
    ),
    PREFIX + "AllianceBroken": lambda log, payload: log.t(
        "log.alliance_broken",
        who=log.who((payload.get("seats") or [None, None])[0]),
        other=log.who((payload.get("seats") or [None, None])[1]),
    ),
    PREFIX + "SeasonCardsDealt": lambda log, payload: (
        log.t("log.season_cards") if payload.get("cards") else None
    ),
    PREFIX + "AlliancesEnded": lambda log, payload: log.t("log.alliances_end"),
    "rising-sun.GameSetUp": lambda log, payload: log.t(
        "log.setup", clans=log.names(log.t(f"clan.{c}") for c in payload.get("clans") or [])
    ),
    "rising-sun.CommandApplied": _command,
    "rising-sun.MandatePlayed": _mandate,
    "rising-sun.WarBidsRevealed": _battle,
    "rising-sun.GiftGiven": _gift,
    "rising-sun.WarBidPlaced": lambda log, payload: _bid(log, payload),
    "rising-sun.MandateTileChosen": lambda log, payload: log.t(
        "log.tile_chosen", who=log.who(payload.get("seat")), mandate=log.t(f"mandate.{payload.get('choice')}")
    ),
    "rising-sun.AllianceProposed": lambda log, payload: log.t(
        "log.propose",
        who=log.who((payload.get("choice") or {}).get("from")),
        other=log.who((payload.get("choice") or {}).get("to")),
    ),
    "rising-sun.AllianceProposalReceived": lambda log, payload: log.t(
        "log.propose", who=log.who(payload.get("from")), other=log.who(payload.get("to"))
    ),
    "rising-sun.AllianceDeclined": lambda log, payload: log.t(
        "log.declined", who=log.who(payload.get("seat"))
    ),
    "rising-sun.AllianceWithdrawn": lambda log, payload: log.t(
        "log.withdrawn", who=log.who(payload.get("seat"))
    ),
}
