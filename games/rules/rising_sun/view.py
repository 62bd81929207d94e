"""What one seat sees at the table (Appendix R item 23): everything public;
the mandate deck order, the drawer's 4 tiles, Lotus's face-down tile, unrevealed
war bids and alliance proposals only to those who may see them."""

from __future__ import annotations

from typing import Any

from .flow import pending
from .state import State, top


def view(s: State, seat: int | None) -> dict[str, Any]:
    if "player_count" not in s:
        return {"phase": "setup"}
    over = s["result"] is not None
    f = top(s)
    out: dict[str, Any] = {
        "season": s["season"],
        "phase": s["phase"],
        "season_set": s["season_set"],
        "clans": s["clans"],
        "seating": s["seating"],
        "honor": s["honor"],
        "shrines": s["shrines"],
        "display": s["display"],
        "war_provinces": s["war_provinces"],
        "alliances": s["alliances"],
        "holder": s["holder"],
        # players and figures are public whole, in the state's own words
        "players": [{"clan": s["clans"][q], **p} for q, p in enumerate(s["players"])],
        "figures": {fid: dict(x) for fid, x in sorted(s["figures"].items())},
        "mandate_deck_size": len(s["mandate_deck"]),
        "track": [
            {
                "seat": t["seat"],
                "mandate": t["mandate"],
                "face_down": t["face_down"],
                "tile": t["tile"] if (over or not t["face_down"] or seat == t["seat"]) else None,
            }
            for t in s["track"]
        ],
        "pending": [{"seat": q, "kind": k} for q, k in pending(s)],
        "result": s["result"],
        "winter": s.get("winter"),
    }
    for frame in s["position"]:
        if frame["kind"] == "political":
            out["political_step"] = frame["step"]  # steps done on the 3-2-2 track
        if frame["kind"] == "war":
            out["war_step"] = frame["step"]  # provinces of war_provinces already resolved
    if f is not None and f["kind"] == "choose_mandate" and (over or seat == f["seat"]):
        out["drawn_tiles"] = s["mandate_deck"][:4]
    if over:
        out["mandate_deck"] = s["mandate_deck"]
        out["lotus_tiles"] = [{"seat": t["seat"], "tile": t["tile"]} for t in s.get("lotus_tiles", [])]
    out["proposals"] = [
        {"from": p["from"], "to": p["to"]} for p in s["proposals"] if over or seat in (p["from"], p["to"])
    ]
    b = s.get("battle")
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
    return out
