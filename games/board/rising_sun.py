"""Rising Sun: a seat's view -> scene (figures, strongholds, war order, battle,
political track, clans' scores). Reads only the view."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.rules.i18n import Texts

from .geometry import load
from .palette import GREEN, PURPLE, SKY, VERMILLION, YELLOW
from .scene import Layer, Piece, Row, Scene, turn, word

CLAN_COLOURS = {"Koi": VERMILLION, "Lotus": PURPLE, "Turtle": GREEN, "Dragonfly": SKY, "Bonsai": YELLOW}
TYPE_LETTER = {"daimyo": "D", "shinto": "S", "bushi": "B", "monster": "M"}
SEASONS = {1: "spring", 2: "summer", 3: "autumn"}
# the war bid's keys -> the prompt naming each war action
BID_WORDS = {
    "seppuku": "seppuku",
    "hostage": "take_hostage",
    "ronin": "hire_ronin",
    "poets": "imperial_poets",
}


def names() -> dict[str, str]:
    # the engine's province ids are their English names
    return {p: p for p in load("rising_sun").provinces}


def _seats(view: Mapping[str, Any], t: Texts) -> list[tuple[str, str, str]]:
    return [(word(t, f"clan.{c}", c), c[:1], CLAN_COLOURS.get(c, "#FFFFFF")) for c in view.get("clans", [])]


def scene(view: Mapping[str, Any], t: Texts) -> Scene:
    if "clans" not in view:
        return Scene(seats=[], title=t("board.name"), notice=t("board.setting_up"))
    seats = _seats(view, t)
    season: Any = view.get("season")
    phase = view.get("phase")
    sc = Scene(
        seats=seats,
        title=t(
            "board.title",
            season=word(t, f"board.season.{SEASONS.get(season, season)}", season),
            phase=word(t, f"board.phase.{phase}", phase),
        ),
    )
    _figures(sc, view, t)
    for q, player in enumerate(view["players"]):
        for prov, n in sorted(Counter(player["strongholds"]).items()):
            letter = seats[q][1]
            sc.add(
                prov,
                Piece(
                    "stronghold",
                    q,
                    f"{letter}⌂" + (str(n) if n > 1 else ""),
                    t("board.strongholds", who=seats[q][0], n=n),
                    n,
                ),
            )
    step = view.get("war_step", 0)
    for i, prov in enumerate(view.get("war_provinces", [])):
        title = t("board.war_resolved" if i < step else "board.war", n=i + 1)
        sc.add(prov, Piece("war", None, f"W{i + 1}", title, attrs=(("order", str(i + 1)),)))
    battle = view.get("battle")
    if battle:
        sc.add(battle["province"], Piece("battle", None, "⚔", t("board.battle_here")))
    sc.panel = _panel(view, seats, t)
    return sc


def _figures(sc: Scene, view: Mapping[str, Any], t: Texts) -> None:
    groups: dict[tuple[str, int, str, str], list[str]] = {}
    for fid, f in view["figures"].items():
        if f["at"] in load("rising_sun").provinces:  # not in reserve
            groups.setdefault((f["at"], f["owner"], f["type"], f["name"]), []).append(fid)
    for (prov, owner, kind, name), ids in sorted(
        groups.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])
    ):
        clan, letter, _ = sc.seats[owner]
        n = len(ids)
        what = word(t, f"card.{name}", name) if kind == "monster" else word(t, f"figure.{kind}", kind)
        sc.add(
            prov,
            Piece(
                kind,
                owner,
                letter + TYPE_LETTER.get(kind, "?") + (str(n) if n > 1 else ""),
                t("board.figures", who=clan, n=n, what=what),
                n,
                (("ids", " ".join(sorted(ids))), ("name", name)),
            ),
        )


def _panel(
    view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts
) -> list[tuple[str, list[Row]]]:
    out: list[tuple[str, list[Row]]] = [
        _turn_section(view, seats, t),
        (t("board.clans"), _clan_rows(view, seats, t)),
    ]
    track = _track_rows(view, seats, t)
    if track:
        out.append((t("board.track"), track))
    if view.get("drawn_tiles"):
        tiles = ", ".join(word(t, f"mandate.{m}", m) for m in view["drawn_tiles"])
        out.append((t("board.your_tiles"), [Row(tiles)]))
    if view.get("shrines"):
        out.append((t("board.shrines"), [Row(", ".join(word(t, f"kami.{k}", k) for k in view["shrines"]))]))
    if view.get("battle"):
        out.append((t("board.battle"), _battle_rows(view["battle"], seats, t)))
    out.append((t("board.legend"), [Row(t("board.legend_text"))]))
    proposals = view.get("proposals", [])
    if proposals:
        offers = [Row(f"{seats[p['from']][0]} → {seats[p['to']][0]}") for p in proposals]
        out.append((t("board.alliance_offers"), offers))
    return out


def _turn_section(
    view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts
) -> tuple[str, list[Row]]:
    result = view.get("result")
    if result:
        winners = ", ".join(seats[w][0] for w in result.get("winners", []))
        return (t("board.game_over"), [Row(t("board.winner", winners=winners))])
    rows = [
        Row(
            f"{seats[p['seat']][0]}: {word(t, 'prompt.' + p['kind'], p['kind'])}",
            turn(t, seats, p["seat"], p["kind"]),
        )
        for p in view.get("pending", [])
    ]
    return (t("board.to_play"), rows)


def _clan_rows(view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts) -> list[Row]:
    honor = view.get("honor", [])
    alliances = view.get("alliances") or [None] * len(seats)
    rows = []
    for q, p in enumerate(view["players"]):
        bits = [t("board.vp", n=p["vp"]), t("board.coins", n=p["coins"]), t("board.ronin", n=p["ronin"])]
        if q in honor:
            bits.append(t("board.honour", n=honor.index(q) + 1))
        bits += [t("board.cards", n=len(p["cards"])), t("board.war_tokens", n=len(p["war_tokens"]))]
        if alliances[q] is not None:
            bits.append(t("board.allied", who=seats[alliances[q]][0]))
        rows.append(
            Row(
                f"{seats[q][0]}: " + ", ".join(bits),
                Piece(
                    "score", q, seats[q][1], t("board.score", who=seats[q][0]), attrs=(("vp", str(p["vp"])),)
                ),
            )
        )
    return rows


def _track_rows(view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts) -> list[Row]:
    track = []
    for i, slot in enumerate(view.get("track", [])):
        raw = slot.get("tile")
        tile = word(t, f"mandate.{raw}", raw) if raw else t("board.face_down")
        chip = Piece(
            "mandate",
            slot["seat"],
            seats[slot["seat"]][1],
            t("board.mandate_tile", tile=tile),
            attrs=(("slot", str(i)), ("tile", raw or "")),
        )
        track.append(Row(f"{seats[slot['seat']][0]}: {tile}", chip))
    return track


def _battle_rows(battle: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts) -> list[Row]:
    who = ", ".join(seats[q][0] for q in battle["participants"])
    rows = [
        Row(
            t(
                "board.battle_in",
                province=word(t, f"province.{battle['province']}", battle["province"]),
                who=who,
            )
        )
    ]
    for q, bid in sorted(battle.get("bids", {}).items()):
        coins = ", ".join(
            f"{word(t, 'prompt.' + BID_WORDS.get(k, k), k)} {v}" for k, v in sorted(bid.items())
        )
        chip = Piece("bid", int(q), seats[int(q)][1], t("prompt.war_bid"))
        rows.append(Row(t("board.bid", who=seats[int(q)][0], coins=coins), chip))
    waiting = [seats[q][0] for q in battle.get("bids_in", []) if str(q) not in battle.get("bids", {})]
    if waiting:
        rows.append(Row(t("board.sealed", who=", ".join(waiting))))
    return rows


LAYER = Layer("rising_sun", scene, names)
