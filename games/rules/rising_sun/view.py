"""What one seat sees at the table (Appendix R item 23): everything public;
the mandate deck order, the drawer's 4 tiles, Lotus's face-down tile, unrevealed
war bids and alliance proposals only to those who may see them."""

from __future__ import annotations

from typing import Any

from ..kit import ViewHeader, view_header
from .flow import pending, pending_seats
from .state import State, top, version

RULESET = "rising-sun"  # the registry's id (rules.RisingSun.id; rules.py imports this module)


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of `seat` (None: a spectator), under the kit's common `header`."""
    if "player_count" not in state:
        return {"header": _header(state, seat, []), "phase": "setup"}
    over = state["result"] is not None
    f = top(state)
    out: dict[str, Any] = {
        "header": _header(state, seat, []),  # its private paths once the rest is built
        "season": state["season"],
        "phase": state["phase"],
        "season_set": state["season_set"],
        "clans": state["clans"],
        "seating": state["seating"],
        "honor": state["honor"],
        "shrines": state["shrines"],
        "display": state["display"],
        "war_provinces": state["war_provinces"],
        "alliances": state["alliances"],
        "holder": state["holder"],
        # players and figures are public whole, in the state's own words
        "players": [{"clan": state["clans"][q], **p} for q, p in enumerate(state["players"])],
        "figures": {fid: dict(x) for fid, x in sorted(state["figures"].items())},
        "mandate_deck_size": len(state["mandate_deck"]),
        "track": [
            {
                "seat": t["seat"],
                "mandate": t["mandate"],
                "face_down": t["face_down"],
                "tile": t["tile"] if (over or not t["face_down"] or seat == t["seat"]) else None,
            }
            for t in state["track"]
        ],
        "pending": [{"seat": q, "kind": k} for q, k in pending(state)],
        "result": state["result"],
        "winter": state.get("winter"),
    }
    for frame in state["position"]:
        if frame["kind"] == "political":
            out["political_step"] = frame["step"]  # steps done on the 3-2-2 track
        if frame["kind"] == "war":
            out["war_step"] = frame["step"]  # provinces of war_provinces already resolved
    if f is not None and f["kind"] == "choose_mandate" and (over or seat == f["seat"]):
        out["drawn_tiles"] = state["mandate_deck"][:4]
    if over:
        out["mandate_deck"] = state["mandate_deck"]
        out["lotus_tiles"] = [{"seat": t["seat"], "tile": t["tile"]} for t in state.get("lotus_tiles", [])]
    out["proposals"] = [
        {"from": p["from"], "to": p["to"]} for p in state["proposals"] if over or seat in (p["from"], p["to"])
    ]
    b = state.get("battle")
    if b:
        bids = {
            q: {a: v for a, v in bid.items() if a not in ("key", "salt")}
            for q, bid in b["bids"].items()
            if b["revealed"] or over or q == str(seat)
        }
        out["battle"] = {
            "province": b["province"],
            "participants": b["participants"],
            "bids": bids,
            "bids_in": sorted(int(q) for q in b["bids"]),
            "revealed": b["revealed"],
            "hired_ronin": b["hired_ronin"],
            "killed": b["killed"],
            "winner": b["winner"],
        }
    if f is not None and f["kind"] == "prompt" and (over or seat == f["seat"]):
        out["prompt"] = {"what": f["what"], "options": f["options"]}
    out["header"] = _header(state, seat, [] if over or seat is None else _private(out, seat))
    return out


def _private(out: dict[str, Any], seat: int) -> list[str]:
    """The paths of `out` that only `seat` sees while the game runs: its face-down
    mandate tile, the 4 tiles it draws, its sealed war bid and its prompt's options.
    (Alliance proposals are seen by both their players, so they are not listed.)"""
    paths = [f"track.{i}.tile" for i, t in enumerate(out["track"]) if t["face_down"] and t["seat"] == seat]
    paths += [key for key in ("drawn_tiles", "prompt") if key in out]
    battle = out.get("battle")
    if battle and not battle["revealed"] and str(seat) in battle["bids"]:
        paths.append(f"battle.bids.{seat}")
    return paths


def _header(state: State, seat: int | None, private: list[str]) -> ViewHeader:
    """What every ruleset's view says first (kit.view_header)."""
    return view_header(
        ruleset=RULESET,
        rules_version=version(state),
        phase=state["phase"],
        to_act=pending_seats(state),
        seat=seat,
        ended=state["result"] is not None,
        scores=[p["vp"] for p in state["players"]] if "players" in state else [],
        order=_order(state),
        private=private,
    )


def _order(state: State) -> list[int]:
    """The seating (clockwise) from the seat that draws the next mandate; [] before setup."""
    seating = state.get("seating")
    if not seating:
        return []
    holder = state.get("holder", seating[0])
    i = seating.index(holder) if holder in seating else 0
    return seating[i:] + seating[:i]
