"""What a seat (or a spectator, None) may see at the table.

Everything on the board is public: provinces, armies, buildings, markers, chests, rice, VP,
officials, the tower's tray, revealed cards, bids once revealed. Secret: the cards still
face down on a player's planning boards - each seat sees his own - and no salt is ever
shown. After the game ends everything is shown.

The inside of the cube tower is secret from every seat, as at the table (issue 31):
players see what falls into the tray and can count what has not come out, never which
cubes sit on which baffle level. So `tower` shows the tray and the cubes inside per
colour (``inside: {seats, green}``); the levels (`l1`, `l2`) only once the game is over.
The view is the same for games of every rules version (those of versions 1-3 recorded
the levels in public events; their view hides them all the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import state
from .flow import pending
from .state import State

_PUBLIC = (
    "phase",  # from the position (filled in below, kept first as before)
    "opts",
    "n",
    "colours",
    "year",
    "season",
    "in_play",
    "provinces",
    "players",
    "tiles",
    "year_events",
    "used_events",
    "event",
    "event_cancelled",
    "samurai_pending",  # from the position's `samurai` frame
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
    if state.phase_of(s) == "init":
        return {"phase": "init"}
    # one deep copy of all the public parts (a view is built for every seat of
    # every version in a range replay: one marshal round trip, not one per key)
    out: dict[str, Any] = state.clone({k: s.get(k) for k in _PUBLIC})
    out["phase"] = state.phase_of(s)
    out["samurai_pending"] = list(state.samurai_pending(s))
    out["season_name"] = state.SEASONS[s["season"]]
    out["tower"] = _tower(s)
    out["supply"] = state.supplies(s)
    out["favours_left"] = len(s["favour_pool"])
    out["pending"] = [{"seat": p.seat, "kind": p.kind} for p in pending(s)]
    if state.frame_of(s, "draft") is not None:
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


def _tower(s: State) -> dict[str, Any]:
    """The tray and the cubes inside per colour; the levels only once the game is over."""
    t = s["tower"]
    out: dict[str, Any] = {"tray": list(t["tray"]), "inside": state.inside(t, s["n"])}
    if state.phase_of(s) == "over":
        out["l1"], out["l2"] = list(t["l1"]), list(t["l2"])
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
    visible = range(s["n"]) if state.phase_of(s) == "over" else ([seat] if seat is not None else [])
    return {str(x): {k: e["card"] for k, e in state.plans_of(s)[x].items()} for x in visible}
