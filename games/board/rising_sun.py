"""Rising Sun: a seat's view -> scene (figures, strongholds, war order, battle,
political track, clans' scores). Reads only the view."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .geometry import load
from .palette import GREEN, PURPLE, SKY, VERMILLION, YELLOW
from .scene import Piece, Row, Scene, turn

CLAN_COLOURS = {"Koi": VERMILLION, "Lotus": PURPLE, "Turtle": GREEN, "Dragonfly": SKY, "Bonsai": YELLOW}
TYPE_LETTER = {"daimyo": "D", "shinto": "S", "bushi": "B", "monster": "M"}
SEASONS = {1: "spring", 2: "summer", 3: "autumn"}


def names() -> dict[str, str]:
    # the engine's province ids are their English names
    return {p: p for p in load("rising_sun").provinces}


def _seats(view: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    return [(c, c[:1], CLAN_COLOURS.get(c, "#FFFFFF")) for c in view.get("clans", [])]


def scene(view: Mapping[str, Any]) -> Scene:
    if "clans" not in view:
        return Scene(seats=[], title="Rising Sun", notice="setting up")
    seats = _seats(view)
    season = view.get("season")
    sc = Scene(seats=seats, title=f"Rising Sun — {SEASONS.get(season, season)}, {view.get('phase')}")
    _figures(sc, view)
    for q, player in enumerate(view["players"]):
        for prov, n in sorted(Counter(player["strongholds"]).items()):
            letter = seats[q][1]
            sc.add(
                prov,
                Piece(
                    "stronghold",
                    q,
                    f"{letter}⌂" + (str(n) if n > 1 else ""),
                    f"{seats[q][0]}: {n} stronghold(s)",
                    n,
                ),
            )
    step = view.get("war_step", 0)
    for i, prov in enumerate(view.get("war_provinces", [])):
        done = " (resolved)" if i < step else ""
        sc.add(
            prov,
            Piece(
                "war", None, f"W{i + 1}", f"war {i + 1} of the season{done}", attrs=(("order", str(i + 1)),)
            ),
        )
    battle = view.get("battle")
    if battle:
        sc.add(battle["province"], Piece("battle", None, "⚔", "battle here now"))
    sc.panel = _panel(view, seats)
    return sc


def _figures(sc: Scene, view: Mapping[str, Any]) -> None:
    groups: dict[tuple[str, int, str, str], list[str]] = {}
    for fid, f in view["figures"].items():
        if f["at"] in load("rising_sun").provinces:  # not in reserve
            groups.setdefault((f["at"], f["owner"], f["type"], f["name"]), []).append(fid)
    for (prov, owner, kind, name), ids in sorted(
        groups.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])
    ):
        clan, letter, _ = sc.seats[owner]
        n = len(ids)
        what = name if kind == "monster" else kind
        sc.add(
            prov,
            Piece(
                kind,
                owner,
                letter + TYPE_LETTER.get(kind, "?") + (str(n) if n > 1 else ""),
                f"{clan}: {n} × {what}",
                n,
                (("ids", " ".join(sorted(ids))), ("name", name)),
            ),
        )


def _panel(view: Mapping[str, Any], seats) -> list[tuple[str, list[Row]]]:
    out: list[tuple[str, list[Row]]] = [_turn_section(view, seats), ("Clans", _clan_rows(view, seats))]
    track = _track_rows(view, seats)
    if track:
        out.append(("Political track", track))
    if view.get("drawn_tiles"):
        out.append(("Your mandate tiles", [Row(", ".join(view["drawn_tiles"]))]))
    if view.get("shrines"):
        out.append(("Shrines", [Row(", ".join(view["shrines"]))]))
    if view.get("battle"):
        out.append(("Battle", _battle_rows(view["battle"], seats)))
    legend = "chip = clan letter + D daimyo, S shinto, B bushi, M monster (+ how many); ⌂ stronghold; Wn the n-th war this season; ⚔ battle"
    out.append(("Legend", [Row(legend)]))
    proposals = view.get("proposals", [])
    if proposals:
        out.append(
            ("Alliance offers", [Row(f"{seats[p['from']][0]} → {seats[p['to']][0]}") for p in proposals])
        )
    return out


def _turn_section(view: Mapping[str, Any], seats) -> tuple[str, list[Row]]:
    result = view.get("result")
    if result:
        winners = ", ".join(seats[w][0] for w in result.get("winners", []))
        return ("Game over", [Row(f"winner: {winners}")])
    pend = view.get("pending", [])
    return (
        "To play",
        [Row(f"{seats[p['seat']][0]}: {p['kind']}", turn(seats, p["seat"], p["kind"])) for p in pend],
    )


def _clan_rows(view: Mapping[str, Any], seats) -> list[Row]:
    honor = view.get("honor", [])
    alliances = view.get("alliances") or [None] * len(seats)
    rows = []
    for q, p in enumerate(view["players"]):
        bits = [f"{p['vp']} VP", f"{p['coins']} coins", f"{p['ronin']} ronin"]
        if q in honor:
            bits.append(f"honour #{honor.index(q) + 1}")
        bits += [f"{len(p['cards'])} cards", f"{len(p['war_tokens'])} war tokens"]
        if alliances[q] is not None:
            bits.append(f"allied with {seats[alliances[q]][0]}")
        rows.append(
            Row(
                f"{seats[q][0]}: " + ", ".join(bits),
                Piece("score", q, seats[q][1], f"{seats[q][0]} score", attrs=(("vp", str(p["vp"])),)),
            )
        )
    return rows


def _track_rows(view: Mapping[str, Any], seats) -> list[Row]:
    track = []
    for i, t in enumerate(view.get("track", [])):
        tile = t.get("tile") or "face down"
        chip = Piece(
            "mandate",
            t["seat"],
            seats[t["seat"]][1],
            f"mandate tile: {tile}",
            attrs=(("slot", str(i)), ("tile", t.get("tile") or "")),
        )
        track.append(Row(f"{seats[t['seat']][0]}: {tile}", chip))
    return track


def _battle_rows(battle: Mapping[str, Any], seats) -> list[Row]:
    rows = [Row(f"in {battle['province']}: " + ", ".join(seats[q][0] for q in battle["participants"]))]
    for q, bid in sorted(battle.get("bids", {}).items()):
        coins = ", ".join(f"{k} {v}" for k, v in sorted(bid.items()))
        rows.append(
            Row(f"{seats[int(q)][0]} bid: {coins}", Piece("bid", int(q), seats[int(q)][1], "war bid"))
        )
    waiting = [seats[q][0] for q in battle.get("bids_in", []) if str(q) not in battle.get("bids", {})]
    if waiting:
        rows.append(Row("sealed bids: " + ", ".join(waiting)))
    return rows
