"""What a seat (or a spectator, None) may see at the table.

Everything on the board is public: provinces, armies, buildings, markers, chests, rice, VP,
officials, the tower's contents (both levels and the tray), revealed cards, bids once
revealed. Secret: the cards still face down on a player's planning boards - each seat sees
his own - and no salt is ever shown. After the game ends everything is shown.

The tower's retained cubes are public by the project's decision (shared/rules/shogun.md,
project decisions: "contents ... part of the game state and visible to all"). The physical
game cannot show them: players see only what falls into the tray and can at best count
what is missing, never which cubes sit on which baffle level. The level split (`l1`,
`l2`) shown here is information a table at home does not have.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import state
from .flow import pending
from .state import State

_PUBLIC = (
    "phase",
    "opts",
    "n",
    "colours",
    "year",
    "season",
    "in_play",
    "provinces",
    "players",
    "tiles",
    "tower",
    "year_events",
    "used_events",
    "event",
    "event_cancelled",
    "samurai_pending",
    "last_battle",
    "famine",
    "last_scoring",
    "result",
)


def views(s: State, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """`view(s, seat)` for each of `seats`: only the round's plans depend on the
    seat, so the rest is built once and shared (read-only) by all of them."""
    if not seats:
        return {}
    first = view(s, seats[0])
    out = {seats[0]: first}
    for seat in seats[1:]:
        if seat in out:
            continue
        other = dict(first)
        if "round" in first:
            other["round"] = {**first["round"], "plans": _plans(s, seat)}
        out[seat] = other
    return out


def view(s: State, seat: int | None) -> dict[str, Any]:
    if s.get("phase") == "init":
        return {"phase": "init"}
    # one deep copy of all the public parts (a view is built for every seat of
    # every version in a range replay: one marshal round trip, not one per key)
    out: dict[str, Any] = state.clone({k: s.get(k) for k in _PUBLIC})
    out["season_name"] = state.SEASONS[s["season"]]
    out["supply"] = state.supplies(s)
    out["favours_left"] = len(s["favour_pool"])
    out["pending"] = [{"seat": p.seat, "kind": p.kind} for p in pending(s)]
    if s.get("draft"):
        d = state.draft_of(s)
        out["draft"] = {
            "first": d["first"],
            "turn": d["turn"],
            "display": list(d["display"]),
            "deck": len(d["pool"]) + len(d["bottom"]),
            "villages": state.clone(d["villages"]),
        }
    if s.get("round"):
        out["round"] = _round(s, seat)
    return out


def _round(s: State, seat: int | None) -> dict[str, Any]:
    r = state.round_of(s)
    shown: dict[str, Any] = state.clone(
        {
            k: r[k]
            for k in (
                "actions",
                "cur",
                "specials",
                "chosen",
                "order",
                "queue",
                "favours",
                "court_queue",
                "bids",
                "planned",
                "revealed",
                "lost",
            )
        }
    )
    shown["face_down"] = len(r["pool"])
    shown["plans"] = _plans(s, seat)
    return shown


def _plans(s: State, seat: int | None) -> dict[str, dict[str, Any]]:
    """The planning boards a seat may see: its own; all of them once the game is over."""
    visible = range(s["n"]) if s["phase"] == "over" else ([seat] if seat is not None else [])
    return {str(x): {k: e["card"] for k, e in state.plans_of(s)[x].items()} for x in visible}
