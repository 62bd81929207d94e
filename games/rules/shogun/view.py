"""What a seat (or a spectator, None) may see at the table.

Everything on the board is public: provinces, armies, buildings, markers, chests, rice, VP,
officials, the tower's tray, revealed cards, bids once revealed. Secret: the cards still
face down on a player's planning boards - each seat sees his own - and no salt is ever
shown. After the game ends everything is shown.

Why, with the measurements and history: docs/modules.md, `games/rules/shogun/view.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.rules.kit import ViewHeader, view_header

from . import data
from . import state as shogun_state
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


def views(
    state: State, seats: Sequence[int | None], version: int = data.RULES_VERSION
) -> dict[int | None, dict[str, Any]]:
    """`view(state, seat)` for each of `seats`: only the header's seat and the round's
    plans depend on the seat, so the rest is built once and shared (read-only) by all."""
    if not seats:
        return {}
    first = view(state, seats[0], version)
    out = {seats[0]: first}
    for seat in seats[1:]:
        if seat in out:
            continue
        other = dict(first)
        shared: ViewHeader = first["header"]
        other["header"] = ViewHeader(**{**shared, "seat": seat, "private": _private(state, seat)})
        if "round" in first:
            other["round"] = {**first["round"], "plans": _plans(state, seat)}
        out[seat] = other
    return out


def header(state: State, seat: int | None, version: int = data.RULES_VERSION) -> ViewHeader:
    """The kit's common view header (ruleset, rules version, phase, seats to act, seat, ended)."""
    phase = shogun_state.phase_of(state)
    return view_header(
        ruleset="shogun",
        rules_version=version,
        phase=phase,
        to_act=[waiting.seat for waiting in pending(state)],
        seat=seat,
        ended=phase == "over",
        scores=[p["vp"] for p in state.get("players", [])],
        order=_order(state),
        private=_private(state, seat),
    )


def _private(state: State, seat: int | None) -> list[str]:
    """The seat's own planning board (``round.plans.<seat>``) while a round runs and the
    game is not over: the one part of a Shogun view no other seat sees."""
    if seat is None or not state.get("round") or shogun_state.phase_of(state) == "over":
        return []
    return [f"round.plans.{seat}"]


def _order(state: State) -> list[int]:
    """The season's turn order (empty until every special card is chosen); in the draft,
    from its first player on; [] before the start."""
    draft = shogun_state.frame_of(state, "draft")
    if draft is not None:
        return [(draft["first"] + k) % state["n"] for k in range(state["n"])]
    current = state.get("round")
    return list(current["order"]) if current is not None else []


def view(state: State, seat: int | None, version: int = data.RULES_VERSION) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees, under the kit's header."""
    if shogun_state.phase_of(state) == "init":
        return {"header": header(state, seat, version), "phase": "init"}
    # one deep copy of all the public parts (a view is built for every seat of
    # every version in a range replay: one marshal round trip, not one per key)
    out: dict[str, Any] = {"header": header(state, seat, version)}
    out.update(shogun_state.clone({key: state.get(key) for key in _PUBLIC}))
    out["phase"] = shogun_state.phase_of(state)
    out["samurai_pending"] = list(shogun_state.samurai_pending(state))
    out["season_name"] = shogun_state.SEASONS[state["season"]]
    out["tower"] = _tower(state)
    out["supply"] = shogun_state.supplies(state)
    out["favours_left"] = len(state["favour_pool"])
    out["pending"] = [{"seat": waiting.seat, "kind": waiting.kind} for waiting in pending(state)]
    if shogun_state.frame_of(state, "draft") is not None:
        d = shogun_state.draft_of(state)
        out["draft"] = {
            "first": d["first"],
            "turn": d["turn"],
            "display": list(d["display"]),
            "deck": len(d["pool"]) + len(d["bottom"]),
            "villages": shogun_state.clone(d["villages"]),
        }
    if state.get("round"):
        out["round"] = _round(state, seat)
    return out


def _tower(state: State) -> dict[str, Any]:
    """The tray and the cubes inside per colour; the levels only once the game is over."""
    t = state["tower"]
    out: dict[str, Any] = {"tray": list(t["tray"]), "inside": shogun_state.inside(t, state["n"])}
    if shogun_state.phase_of(state) == "over":
        out["l1"], out["l2"] = list(t["l1"]), list(t["l2"])
    return out


def _round(state: State, seat: int | None) -> dict[str, Any]:
    r = shogun_state.round_of(state)
    shown: dict[str, Any] = shogun_state.clone(
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
    shown["plans"] = _plans(state, seat)
    return shown


def _plans(state: State, seat: int | None) -> dict[str, dict[str, Any]]:
    """The planning boards a seat may see: its own; all of them once the game is over."""
    visible = (
        range(state["n"]) if shogun_state.phase_of(state) == "over" else ([seat] if seat is not None else [])
    )
    return {str(x): {k: e["card"] for k, e in shogun_state.plans_of(state)[x].items()} for x in visible}
