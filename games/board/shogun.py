"""Shogun (with Tenno's Court): a seat's view -> scene (armies, castles, temples,
theatres, revolt markers, the region of each province on the chosen board
side, provinces out of play, the tower's cubes, the round, the daimyo's
treasuries). Reads only the view: another seat's face-down plan is not in it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from games.rules.i18n import Texts

from .geometry import RULES_DIR
from .palette import BLACK, BLUE, GREEN, NAMED, PURPLE, VERMILLION, YELLOW
from .scene import Layer, Piece, Row, Scene, turn, word

COLOURS = {"blue": BLUE, "red": VERMILLION, "yellow": YELLOW, "purple": PURPLE, "black": BLACK}
LETTER = {"blue": "B", "red": "R", "yellow": "Y", "purple": "P", "black": "K"}
# pale tints of the five regions, so the daimyo's chips stand out on them
REGION_TINT = {
    "brown": "#e9dcc8",
    "yellow": "#f6efc4",
    "red": "#f3d6cf",
    "purple": "#e8dcee",
    "green": "#dcecd6",
}
BUILDINGS = (("castle", "C"), ("temple", "T"), ("theatre", "Th"))
PEASANTS = -1  # green cubes in the tower
# card and space ids of the planning board -> the key naming them, its field
CARDS = ((re.compile(r"chest(\d+)$"), "chest.name", "value"), (re.compile(r"tower(\d+)$"), "tower.name", "n"))
SPACES = ((re.compile(r"court(\d+)$"), "board.space.court", "n"), (re.compile(r"E(\d+)$"), "event.E", "n"))


@cache
def _provinces() -> dict[str, dict[str, Any]]:
    raw = yaml.safe_load(Path(RULES_DIR / "shogun" / "data" / "map.yaml").read_text(encoding="utf-8"))
    provinces: dict[str, dict[str, Any]] = raw["provinces"]
    return provinces


def names() -> dict[str, str]:
    return {p: p for p in _provinces()}


def _seats(view: Mapping[str, Any], t: Texts) -> list[tuple[str, str, str]]:
    return [
        (
            word(t, f"colour.{c}", c.title()),
            LETTER.get(c, c[:1].upper()),
            COLOURS.get(c, NAMED.get(c, "#FFFFFF")),
        )
        for c in view["colours"]
    ]


def scene(view: Mapping[str, Any], t: Texts) -> Scene:
    if view.get("phase") == "init":
        return Scene(seats=[], title=t("board.name"), notice=t("board.setting_up"))
    seats = _seats(view, t)
    side = (view.get("opts") or {}).get("board", "sun")
    season, phase = view.get("season_name", view.get("season")), view.get("phase")
    title = t(
        "board.title",
        year=view.get("year"),
        season=word(t, f"board.season.{season}", season),
        phase=word(t, f"board.phase.{phase}", phase),
    )
    sc = Scene(seats=seats, title=title)
    if side == "moon":
        sc.notice = t("board.moon_notice")
    in_play = set(view.get("in_play") or _provinces())
    for pid, meta in _provinces().items():
        sc.fills[pid] = REGION_TINT.get(meta.get(side, ""), "")
        if pid not in in_play:
            sc.dimmed.add(pid)
    for pid, p in sorted(view["provinces"].items()):
        for piece in _province_pieces(p, seats, t):
            sc.add(pid, piece)
    battle = view.get("last_battle")
    if battle and battle.get("province") in _provinces():
        sc.add(
            battle["province"],
            Piece(
                "battle",
                None,
                "⚔",
                t(
                    "board.last_battle",
                    result=word(t, f"board.battle_result.{battle.get('result')}", battle.get("result", "")),
                ),
            ),
        )
    sc.panel = _panel(view, seats, t)
    return sc


def _province_pieces(p: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts) -> list[Piece]:
    """The army, buildings and revolt markers one province shows."""
    owner = p.get("owner")
    pieces = []
    if owner is not None:
        title = t("board.armies", who=seats[owner][0], n=p["armies"])
        pieces.append(Piece("army", owner, f"{seats[owner][1]}{p['armies']}", title, p["armies"]))
    for key, text in BUILDINGS:
        if p.get(key):
            pieces.append(Piece(key, owner, text, t(f"figure.{key}"), colour="#FFFFFF"))
    if p.get("markers"):
        markers = p["markers"]
        pieces.append(
            Piece("marker", None, f"!{markers}", t("board.markers", n=markers), markers, colour=GREEN)
        )
    return pieces


def _turn_section(
    view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts
) -> tuple[str, list[Row]]:
    result = view.get("result")
    if result:
        winners = ", ".join(seats[w][0] for w in result["winners"])
        scores = ", ".join(f"{seats[q][0]} {v}" for q, v in enumerate(result.get("scores", [])))
        return (t("board.game_over"), [Row(t("board.winner_scores", winners=winners, scores=scores))])
    rows = [
        Row(
            f"{seats[p['seat']][0]}: {word(t, 'prompt.' + p['kind'], p['kind'])}",
            turn(t, seats, p["seat"], p["kind"]),
        )
        for p in view.get("pending", [])
    ]
    return (t("board.to_play"), rows)


def _panel(
    view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts
) -> list[tuple[str, list[Row]]]:
    out = [_turn_section(view, seats, t)]
    rows = []
    for q, p in enumerate(view["players"]):
        bits = [
            t("board.vp", n=p["vp"]),
            t("board.chests", n=p["money"]),
            t("board.rice", n=p["rice"]),
            t("board.supply", n=view["supply"][q]),
        ]
        rows.append(
            Row(
                f"{seats[q][0]}: " + ", ".join(bits),
                Piece(
                    "score", q, seats[q][1], t("board.score", who=seats[q][0]), attrs=(("vp", str(p["vp"])),)
                ),
            )
        )
    out.append((t("board.daimyo"), rows))
    out.append((t("board.tower"), _tower_rows(view, seats, t)))
    out += _round_sections(view, seats, t)
    out.append((t("board.legend"), [Row(t("board.legend_text"))]))
    if view.get("event"):
        event = _event(t, str(view["event"]))
        out.append(
            (
                t("board.event"),
                [Row(t("board.cancelled", event=event) if view.get("event_cancelled") else event)],
            )
        )
    return out


def _tower_counts(tower: Mapping[str, Any]) -> dict[str, Counter[int]]:
    """Cube counts per colour of each part of the tower the view shows: the cubes inside
    (per colour only: nobody sees which level holds them) and the tray; the two levels
    instead of the inside once the game is over and the view shows them."""
    if "l1" in tower:
        return {level: Counter(tower.get(level, [])) for level in ("l1", "l2", "tray")}
    inside = tower.get("inside") or {}
    stuck = Counter({seat: n for seat, n in enumerate(inside.get("seats", [])) if n})
    if inside.get("green"):
        stuck[PEASANTS] = inside["green"]
    return {"inside": stuck, "tray": Counter(tower.get("tray", []))}


def _tower_rows(view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts) -> list[Row]:
    cubes = []
    for level, counts in _tower_counts(view.get("tower") or {}).items():
        label = t(f"board.tower.{level}")
        chips = tuple(
            Piece(
                "cube",
                None if c == PEASANTS else c,
                f"{'G' if c == PEASANTS else seats[c][1]}{n}",
                t("board.cubes", n=n, who=t("colour.green") if c == PEASANTS else seats[c][0], level=label),
                n,
                (("level", level),),
                colour=GREEN if c == PEASANTS else None,
            )
            for c, n in sorted(counts.items())
        )
        cubes.append(Row(label if chips else t("board.tower_empty", level=label), chips=chips))
    return cubes


def _round_sections(
    view: Mapping[str, Any], seats: list[tuple[str, str, str]], t: Texts
) -> list[tuple[str, list[Row]]]:
    rnd = view.get("round")
    if not rnd:
        return []
    order = ", ".join(seats[q][0] for q in rnd.get("order", []))
    actions = ", ".join(word(t, f"action.{a}", a) for a in rnd.get("actions", []))
    out = [(t("board.round"), [Row(t("board.order", who=order)), Row(t("board.actions", actions=actions))])]
    for q, plan in sorted(rnd.get("plans", {}).items()):
        who = seats[int(q)][0]
        chip = Piece(
            "plan", int(q), seats[int(q)][1], t("board.plan_of", who=who), attrs=(("cards", str(len(plan))),)
        )
        text = ", ".join(f"{_space(t, k)}: {_card(t, v)}" for k, v in plan.items())
        out.append((t("board.plan_of", who=who), [Row(text, chip)]))
    return out


def _numbered(t: Texts, ident: str, table: tuple[tuple[re.Pattern[str], str, str], ...]) -> str | None:
    for pattern, key, field in table:
        found = pattern.match(ident)
        if found:
            return t(key, **{field: int(found.group(1))})
    return None


def _card(t: Texts, card: str | None) -> str:
    """A card on a planning board: a war chest, a tower card or a province card (None: the space is empty)."""
    if card is None:
        return t("board.space_empty")
    return _numbered(t, card, CARDS) or word(t, f"province.{card}", card)


def _space(t: Texts, space: str) -> str:
    return _numbered(t, space, SPACES) or word(t, f"action.{space}", word(t, f"board.space.{space}", space))


def _event(t: Texts, event: str) -> str:
    """The season's event card ("E7")."""
    return _numbered(t, event, SPACES) or event


LAYER = Layer("shogun", scene, names)
