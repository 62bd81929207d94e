"""The game state: one plain dict of JSON-like values (dicts, lists, ints, strs, bools, None).

Why a dict and not nested frozen dataclasses: `evolve` makes a shallow copy, deep-copies
(with `marshal`, microseconds) only the top-level entries the event's handler declares it
changes, mutates those and returns the copy - copy-on-write, so the input is never
touched (a test checks every event of whole games); states compare with ``==`` and
pickle as they are. Secret planned cards
and their salts live in ``plans`` (per seat); `view.py` is the only door out.

Shape (filled by `GameStarted`)::

    opts, n, colours, phase, year (1..2), season (0 spring .. 2 autumn, 3 winter)
    provinces: {name: {owner, armies, castle, temple, theatre, markers}}
    in_play: [names]             players: [{money, rice, vp, officials, vestibule, hall,
                                            samurai, fav4, immune, special}]
    tiles: {castle, temple, theatre}   tower: {l1, l2, tray} (seat numbers, -1 = green)
    year_events, used_events, event, event_cancelled
    plans: [{space: {card, salt}} per seat]  (secret)
    round: {actions, pool, cur, specials, planned, revealed, lost, bids,
             queue, chosen, order, favours, favour_pool, court_queue}
    draft, samurai_pending, last_battle, result
"""

from __future__ import annotations

import marshal
from typing import Any

from . import data

SEASONS = ("spring", "summer", "autumn", "winter")


def initial() -> dict:
    return {"phase": "init"}


def clone(s: Any) -> Any:
    """A deep copy (the state holds only marshal-able builtins)."""
    return marshal.loads(marshal.dumps(s))


def on_map(s: dict, seat: int) -> int:
    return sum(p["armies"] for p in s["provinces"].values() if p["owner"] == seat)


def in_tower(s: dict, seat: int) -> int:
    t = s["tower"]
    return t["l1"].count(seat) + t["l2"].count(seat) + t["tray"].count(seat)


def supply(s: dict, seat: int) -> int:
    """Armies in the player's supply: 62 minus those on the map and in the tower."""
    return data.ARMIES - on_map(s, seat) - in_tower(s, seat)


def owned(s: dict, seat: int) -> list[str]:
    return [n for n, p in s["provinces"].items() if p["owner"] == seat]


def buildings(prov: dict) -> list[str]:
    return [b for b in data.BUILDINGS if prov[b]]


def hand(s: dict, seat: int) -> list[str]:
    """Cards a player may plan with: his province cards, chest cards, tower cards (court)."""
    cards = sorted(owned(s, seat)) + data.chest_cards()
    if s["opts"]["tennos_court"]:
        cards += data.tower_cards()
    return cards


def spaces(s: dict) -> list[str]:
    out = list(data.ACTION_IDS) + ["bid"]
    if s["opts"]["tennos_court"]:
        out += data.COURT_SPACES
    return out


def event(s: dict) -> dict:
    """The season event's data, or {} when none applies (winter, cancelled by favour #1)."""
    if s.get("event") is None or s.get("event_cancelled") or s.get("season", 3) >= 3:
        return {}
    return data.EVENTS[s["event"]]


def special(s: dict, seat: int) -> dict:
    sid = s["players"][seat]["special"]
    return data.SPECIALS[sid] if sid else {}


def region_of(s: dict, prov: str) -> str:
    return data.regions(s["opts"]["board"])[prov]


def plan_card(s: dict, seat: int, space: str):
    plan = s["plans"][seat]
    entry = plan.get(space) if plan else None
    return None if entry is None else entry["card"]


def card_lost(s: dict, seat: int, prov: str) -> bool:
    return [seat, prov] in s["round"]["lost"]


def can_build(s: dict, seat: int, prov: str, kind: str) -> bool:
    """Normal building rules: own province, free site, one of each type, a tile left."""
    p = s["provinces"].get(prov)
    if p is None or p["owner"] != seat or p[kind] or s["tiles"][kind] <= 0:
        return False
    return len(buildings(p)) < data.PROVINCES[prov]["sites"]


def protected(s: dict, attacker: int, prov: str, letter: str) -> bool:
    """May `attacker` not target `prov` with Attack/Move `letter`? Temple event and the
    immunity favours protect only other players' provinces (Appendix R #8, #24)."""
    p = s["provinces"][prov]
    owner = p["owner"]
    if owner is None or owner == attacker:
        return False
    if event(s).get("effect") == "temple_immune" and p["temple"]:
        return True
    return letter in s["players"][owner]["immune"]
