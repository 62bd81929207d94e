"""evolve(state, event) -> new state: one small function per event type.

Never validates, never draws randomness: every random outcome is in the payload. The
input state is never mutated: each handler declares the top-level keys it changes and
only those are deep-copied (the kit's copy-on-write; `test_evolve_never_mutates_its_input`). Payloads may come back from
the JSON store with lists for tuples and string keys only, so handlers read lists.
"""

from __future__ import annotations

from typing import Any, cast

from games.rules.base import Event
from games.rules.kit import Evolver, position

from . import data
from . import events as ev
from .options import option
from .state import (
    Draft,
    Payload,
    Province,
    State,
    Tower,
    draft_of,
    enter,
    phase_of,
    plans_of,
    raw,
    raw_province,
    round_of,
    samurai_pending,
    winter_of,
)

evolves: Evolver[State] = Evolver("shogun")
"""Event type -> handler and the top-level keys it mutates (the kit deep-copies only
those; an unknown event type raises `UnknownEvent`)."""


def evolve(state: State, event: Event) -> State:
    """The state after `event` (the input state is never mutated)."""
    return evolves.evolve(state, event)


def _neutral() -> Province:
    return {"owner": None, "armies": 0, "castle": False, "temple": False, "theatre": False, "markers": 0}


def _reveal(s: State, reveals: list[dict[str, Any]] | None) -> None:
    for r in reveals or ():
        space = r["key"].rsplit(":", 1)[1]
        round_of(s)["revealed"][r["seat"]][space] = r["choice"]


def p_owner(prov: Province) -> int:
    """The owner of a province that has one (a marker is placed only on an owned one)."""
    owner = prov["owner"]
    assert owner is not None
    return owner


def _lose(s: State, seat: int, prov: str) -> None:
    if s.get("round") and [seat, prov] not in round_of(s)["lost"]:
        round_of(s)["lost"].append([seat, prov])


# --- setup ------------------------------------------------------------------------------


@evolves(ev.GAME_STARTED)
def _started(s: State, p: Payload) -> None:
    n = len(p["colours"])
    raw(s).clear()
    s.update(
        {
            "position": [position.frame("setup")],
            "opts": dict(p["opts"]),
            "n": n,
            "colours": list(p["colours"]),
            "year": 1,
            "season": 0,
            "in_play": list(p["in_play"]),
            "provinces": {name: _neutral() for name in p["in_play"]},
            "players": [
                {
                    "money": p["money"],
                    "rice": 0,
                    "vp": 0,
                    "officials": data.OFFICIALS,
                    "vestibule": 0,
                    "hall": 0,
                    "samurai": 1,
                    "fav4": False,
                    "immune": [],
                    "special": None,
                }
                for _ in range(n)
            ],
            "tiles": dict(data.SETUP["building_tiles"]),
            "tower": {"l1": [], "l2": [], "tray": []},
            "year_events": [],
            "used_events": [],
            "event": None,
            "event_cancelled": False,
            "favour_pool": list(data.FAVOUR_IDS),
            "round": None,
            "plans": None,
            "last_battle": None,
            "famine": [],
            "last_scoring": None,
            "result": None,
        }
    )


@evolves(ev.TOWER_SEEDED, mutates=("players",))
def _seeded(s: State, p: Payload) -> None:
    s["tower"] = _thrown(s, p["tower"])
    for seat, k in enumerate(p["officials"]):
        s["players"][seat]["officials"] -= k
        s["players"][seat]["vestibule"] += k


@evolves(ev.YEAR_BEGAN, mutates=("players",))
def _year(s: State, p: Payload) -> None:
    s["year"] = p["year"]
    s["year_events"] = list(p["events"])
    s["past_events"] = s.get("past_events", []) + list(p["events"])
    s["used_events"] = []
    s["season"] = 0
    for pl in s["players"]:
        pl["rice"] = 0  # rice is reset each year [sbw][imr]
    enter(s, "season_start")


@evolves(ev.PROVINCES_DEALT, mutates=("provinces",))
def _dealt(s: State, p: Payload) -> None:
    for prov, seat, armies in p["placements"]:
        _occupy(s["provinces"][prov], seat, armies)


def _occupy(prov: Province, seat: int, armies: int) -> None:
    prov["owner"], prov["armies"] = seat, armies


def _tower(t: dict[str, list[int]]) -> Tower:
    return {"l1": list(t["l1"]), "l2": list(t["l2"]), "tray": list(t["tray"])}


def _thrown(s: State, t: dict[str, list[int]]) -> Tower:
    """The tower after a throw's public event: the whole tower it carries (rules
    versions 1-3), or, when the levels are hidden (version 4 on), the levels set by the
    `TowerSettled` just before it and the tray it carries (a new tower: the old one may
    be shared with the state before)."""
    if "l1" in t:
        return _tower(t)
    return {"l1": list(s["tower"]["l1"]), "l2": list(s["tower"]["l2"]), "tray": list(t["tray"])}


@evolves(ev.TOWER_SETTLED, mutates=("tower",))
def _settled(s: State, p: Payload) -> None:
    """The hidden contents after a throw, and their commitment kept for the end."""
    s["tower"]["l1"] = list(p["choice"]["l1"])
    s["tower"]["l2"] = list(p["choice"]["l2"])
    choice = {"l1": list(p["choice"]["l1"]), "l2": list(p["choice"]["l2"])}
    # a new list (the old one stays shared with the state before)
    s["tower_commits"] = [*s.get("tower_commits", []), {"key": p["key"], "choice": choice, "salt": p["salt"]}]


evolves.ignores(ev.TOWER_REVEALED)  # the levels are in the state already; the end view shows them


def _take_from_deck(d: Draft, card: str) -> None:
    for pile in (d["pool"], d["bottom"]):
        if card in pile:
            pile.remove(card)
            return


@evolves(ev.DRAFT_BEGAN)
def _draft_began(s: State, p: Payload) -> None:
    d: Draft = {
        "first": p["first"],
        "turn": 0,
        "display": list(p["display"]),
        "pool": sorted(s["in_play"]),
        "bottom": [],
        "villages": [list(v) for v in p["villages"]],
        "last_offer": [None] * s["n"],
        "offered": False,
    }
    for c in p["display"]:
        _take_from_deck(d, c)
    enter(s, "draft", **d)


@evolves(ev.DRAFT_DISPLAY_RECYCLED, mutates=(position.POSITION,))
def _recycled(s: State, p: Payload) -> None:
    d = draft_of(s)
    d["bottom"].extend(p["recycled"])
    d["display"] = list(p["display"])
    for c in p["display"]:
        _take_from_deck(d, c)


@evolves(ev.DRAFT_TURN_BEGAN, mutates=(position.POSITION,))
def _draft_turn(s: State, p: Payload) -> None:
    d = draft_of(s)
    d["last_offer"][p["seat"]] = sorted(p["display"])
    d["offered"] = True


@evolves(
    ev.PROVINCE_DRAFTED,
    mutates=(
        position.POSITION,
        "provinces",
    ),
)
def _drafted(s: State, p: Payload) -> None:
    d = draft_of(s)
    prov, seat = p["province"], p["seat"]
    if prov in d["display"]:
        d["display"].remove(prov)
    else:
        _take_from_deck(d, prov)
    _occupy(s["provinces"][prov], seat, p["armies"])
    d["villages"][seat].remove(p["armies"])
    for c in p["refill"]:
        _take_from_deck(d, c)
        d["display"].append(c)
    d["turn"] += 1
    d["offered"] = False
    if not any(d["villages"]):
        enter(s, "season_start")


# --- season -----------------------------------------------------------------------------


@evolves(
    ev.SEASON_BEGAN,
    mutates=(
        "players",
        "favour_pool",
    ),
)
def _season(s: State, p: Payload) -> None:
    n = s["n"]
    s["season"] = p["season"]
    s["event"], s["event_cancelled"] = None, False
    favours = [list(f) for f in p["favours"]]
    for _, card in favours:
        s["favour_pool"].remove(card)
    s["plans"] = [{} for _ in range(n)]  # secret: see view.py
    s["round"] = {
        "actions": list(p["actions"]),
        "pool": list(p["pool"]),
        "specials": list(p["specials"]),
        "favours": favours,
        "cur": {"i": 0, "j": 0, "sub": None},
        "planned": [False] * n,
        "revealed": [{} for _ in range(n)],
        "lost": [],
        "bids": None,
        "queue": [],
        "chosen": [None] * n,
        "order": [],
        "court_queue": [],
    }
    for pl in s["players"]:
        pl["special"], pl["immune"] = None, []
    pending = []
    for seat, card in p["samurai"]:
        s["players"][seat]["samurai"] = card
        if data.SAMURAI[card - 1]:
            pending.append(seat)
    if pending:
        enter(s, "samurai", seats=pending)
    else:
        enter(s, "plan")


@evolves(
    ev.SAMURAI_BONUS_TAKEN,
    mutates=(
        "players",
        "tower",
        position.POSITION,
    ),
)
def _samurai(s: State, p: Payload) -> None:
    pl = s["players"][p["seat"]]
    bonus, amount = p["bonus"], p["amount"]
    if bonus == "chests":
        pl["money"] += amount
    elif bonus == "rice":
        pl["rice"] += amount
    elif bonus == "vp":
        pl["vp"] += amount
    elif bonus == "tray":
        s["tower"]["tray"].extend([p["seat"]] * amount)
    waiting = samurai_pending(s)
    waiting.remove(p["seat"])
    if not waiting:
        enter(s, "plan")


@evolves(
    ev.CARD_PLANNED,
    mutates=(
        "round",
        "plans",
    ),
)
def _planned(s: State, p: Payload) -> None:
    r = round_of(s)
    seat = p["seat"]
    plans_of(s)[seat][p["space"]] = {"card": p["choice"], "salt": p["salt"]}
    if len(plans_of(s)[seat]) == p["of"]:
        r["planned"][seat] = True


@evolves(ev.EVENT_REVEALED, mutates=("used_events",))
def _event(s: State, p: Payload) -> None:
    s["event"] = p["event"]
    s["used_events"].append(p["event"])


@evolves(
    ev.BIDS_REVEALED,
    mutates=(
        "round",
        "players",
    ),
)
def _bids(s: State, p: Payload) -> None:
    r = round_of(s)
    _reveal(s, p["reveals"])
    r["bids"] = list(p["bids"])
    for seat, paid in enumerate(p["paid"]):
        s["players"][seat]["money"] -= paid
    r["queue"] = list(p["order"])
    enter(s, "special")


@evolves(
    ev.SPECIAL_CHOSEN,
    mutates=(
        "round",
        "players",
    ),
)
def _special(s: State, p: Payload) -> None:
    r = round_of(s)
    seat, slot = p["seat"], p["slot"]
    r["chosen"][seat] = slot
    s["players"][seat]["special"] = r["specials"][slot - 1]
    r["queue"].remove(seat)
    if not r["queue"]:
        r["order"] = sorted(range(s["n"]), key=lambda x: r["chosen"][x] or 0)
        enter(s, "court" if s["opts"]["tennos_court"] else "actions")


# --- Tenno's Court ----------------------------------------------------------------------


@evolves(
    ev.COURT_CONVERTED,
    mutates=(
        "round",
        "provinces",
        "tower",
        "players",
    ),
)
def _converted(s: State, p: Payload) -> None:
    _reveal(s, p["reveals"])
    if not p["done"]:
        return
    seat, k = p["seat"], p["n"]
    if p["province"]:
        s["provinces"][p["province"]]["armies"] -= k
    else:
        tray = s["tower"]["tray"]
        for _ in range(k):
            tray.remove(seat)
    pl = s["players"][seat]
    pl["officials"] -= k
    pl["vestibule"] += k


@evolves(ev.COURT_RANKED, mutates=("round",))
def _ranked(s: State, p: Payload) -> None:
    round_of(s)["court_queue"] = list(p["queue"])
    enter(s, "favour")


def _to_hall(s: State, seat: int) -> None:
    pl = s["players"][seat]
    pl["hall"] += pl["vestibule"]
    pl["vestibule"] = 0
    round_of(s)["court_queue"].remove(seat)


@evolves(
    ev.COURT_PASSED,
    mutates=(
        "players",
        "round",
    ),
)
def _passed(s: State, p: Payload) -> None:
    _to_hall(s, p["seat"])


@evolves(
    ev.FAVOUR_TAKEN,
    mutates=(
        "players",
        "round",
        "tower",
        "provinces",
        "tiles",
    ),
)
def _favour(s: State, p: Payload) -> None:
    seat, card = p["seat"], p["card"]
    _to_hall(s, seat)
    pl = s["players"][seat]
    pl["hall"] -= p["cost"]
    pl["officials"] += p["cost"]
    r = round_of(s)
    r["favours"] = [f for f in r["favours"] if f[1] != card]
    if p["use"]:
        _apply_favour(s, seat, data.FAVOURS[card], p)


_COUNTERS = {"chests": "money", "rice": "rice", "vp": "vp"}  # favour type -> player counter


def _apply_favour(s: State, seat: int, fav: dict[str, Any], p: Payload) -> None:
    pl, t, prov = s["players"][seat], fav["type"], p.get("province")
    if t == "cancel_event":
        s["event_cancelled"] = True
    elif t in _COUNTERS:
        cast(dict[str, Any], pl)[_COUNTERS[t]] += fav["amount"]
    elif t == "tray":
        s["tower"]["tray"].extend([seat] * p["n"])
    elif t == "immunity":
        pl["immune"] = sorted(set(pl["immune"]) | set(fav["letters"]))
    elif t == "remove_marker":
        if prov:
            s["provinces"][prov]["markers"] -= 1
        else:
            pl["fav4"] = True  # kept until the next marker on his provinces
    elif t == "building" and prov:
        _build(s, prov, fav["building"], p.get("calmed", False))
    elif t == "free_armies" and prov:
        s["provinces"][prov]["owner"] = seat
        s["provinces"][prov]["armies"] += p["n"]


def _build(s: State, prov: str, kind: str, calmed: bool) -> None:
    p = s["provinces"][prov]
    raw_province(p)[kind] = True
    s["tiles"][kind] -= 1
    if calmed:  # Nô-theatre event: the peasants calm down (all markers, or one: option)
        p["markers"] = 0 if option(s, "theatre_calms") == "all" else max(0, p["markers"] - 1)


@evolves(
    ev.COURT_ENDED,
    mutates=(
        "players",
        "round",
    ),
)
def _court_ended(s: State, p: Payload) -> None:
    for pl in s["players"]:
        pl["vestibule"] += pl["hall"]
        pl["hall"] = 0
    round_of(s)["favours"] = []
    enter(s, "actions")


# --- actions ----------------------------------------------------------------------------


def _sub(s: State, value: str) -> None:
    if phase_of(s) == "actions":
        round_of(s)["cur"]["sub"] = value


@evolves(ev.SPACE_REVEALED, mutates=("round",))
def _space(s: State, p: Payload) -> None:
    _reveal(s, p["reveals"])
    round_of(s)["revealed"][p["seat"]][p["space"]] = p["card"]
    _sub(s, p["next"])


@evolves(ev.ACTION_DECLINED, mutates=("round",))
def _declined(s: State, p: Payload) -> None:
    # Declining the recruit of Recruit 1 + move leaves the move, unless the move needs
    # the recruit (option recruit1: mandatory).
    then_move = p["part"] == "recruit" and option(s, "recruit1") == "optional"
    _sub(s, "move" if then_move else "end")


@evolves(
    ev.BUILT,
    mutates=(
        "players",
        "provinces",
        "tiles",
        "round",
    ),
)
def _built(s: State, p: Payload) -> None:
    s["players"][p["seat"]]["money"] -= p["cost"]
    _build(s, p["province"], p["building"], p["calmed"])
    _sub(s, "end")


@evolves(
    ev.COLLECTED,
    mutates=(
        "players",
        "round",
    ),
)
def _collected(s: State, p: Payload) -> None:
    pl = s["players"][p["seat"]]
    pl["rice" if p["what"] == "rice" else "money"] += p["amount"]
    _sub(s, "end")


@evolves(
    ev.MARKER_PLACED,
    mutates=(
        "provinces",
        "players",
    ),
)
def _marker(s: State, p: Payload) -> None:
    prov = s["provinces"][p["province"]]
    if p["cancelled"]:
        s["players"][p_owner(prov)]["fav4"] = False
    else:
        prov["markers"] += 1


@evolves(
    ev.RECRUITED,
    mutates=(
        "players",
        "provinces",
        "round",
    ),
)
def _recruited(s: State, p: Payload) -> None:
    s["players"][p["seat"]]["money"] -= p["cost"]
    s["provinces"][p["province"]]["armies"] += p["armies"]
    _sub(s, "move" if p["space"] == "recruit1" else "end")


@evolves(
    ev.ARMIES_MOVED,
    mutates=(
        "provinces",
        "round",
    ),
)
def _moved(s: State, p: Payload) -> None:
    s["provinces"][p["from"]]["armies"] -= p["armies"]
    s["provinces"][p["to"]]["armies"] += p["armies"]
    _sub(s, "end")


@evolves(
    ev.BATTLE_FOUGHT,
    mutates=(
        "provinces",
        "tiles",
        "round",
        position.POSITION,
    ),
)
def _battle(s: State, p: Payload) -> None:
    if p["from"]:
        s["provinces"][p["from"]]["armies"] -= p["armies"]
    s["provinces"][p["province"]] = cast(Province, dict(p["after"]))
    s["tower"] = _thrown(s, p["tower"])
    for kind in p["tiles"]:
        s["tiles"][kind] += 1
    if p.get("lost"):
        _lose(s, *p["lost"])
        _reveal(s, p.get("reveals"))
    s["last_battle"] = {
        k: p[k] for k in ("kind", "province", "attacker", "defender", "thrown", "out", "result")
    }
    if p["kind"] in ("attack", "neutral"):
        _sub(s, "end")
    if p["kind"] == "famine" and p["province"] in winter_of(s)["left"]:
        winter_of(s)["left"].remove(p["province"])


@evolves(ev.ACTION_TURN_ENDED, mutates=("round",))
def _turn_ended(s: State, p: Payload) -> None:
    cur = round_of(s)["cur"]
    cur["j"] += 1
    cur["sub"] = None


@evolves(ev.ACTION_COMPLETED, mutates=("round",))
def _action_done(s: State, p: Payload) -> None:
    r = round_of(s)
    r["cur"] = {"i": r["cur"]["i"] + 1, "j": 0, "sub": None}
    if p["next"]:
        r["actions"].append(p["next"])
        r["pool"].remove(p["next"])


@evolves(
    ev.SEASON_ENDED,
    mutates=(
        "players",
        "round",
    ),
)
def _season_ended(s: State, p: Payload) -> None:
    for pl in s["players"]:
        pl["special"], pl["immune"] = None, []  # specials returned, immunities discarded
    s["event"], s["event_cancelled"] = None, False
    round_of(s)["cur"] = {"i": 10, "j": 0, "sub": None}
    if s["season"] == 2:
        s["season"] = 3
        enter(s, "winter")
    else:
        s["season"] += 1
        enter(s, "season_start")


# --- winter -----------------------------------------------------------------------------


@evolves(ev.WINTER_RICE_LOST, mutates=("players",))
def _rice_lost(s: State, p: Payload) -> None:
    s["famine"] = []
    for seat, loss in enumerate(p["losses"]):
        s["players"][seat]["rice"] -= loss
    enter(s, "winter", queue=list(p["starving"]), seat=None, left=[], extra=0)


@evolves(
    ev.FAMINE_STRUCK,
    mutates=(
        "famine",
        position.POSITION,
    ),
)
def _famine(s: State, p: Payload) -> None:
    s["famine"].append({k: p[k] for k in ("seat", "shortfall", "revolts", "extra", "provinces")})
    w = winter_of(s)
    w["queue"].remove(p["seat"])
    w["seat"], w["left"], w["extra"] = p["seat"], list(p["provinces"]), p["extra"]


@evolves(ev.SCORED, mutates=("players",))
def _scored(s: State, p: Payload) -> None:
    for seat, sc in enumerate(p["scores"]):
        s["players"][seat]["vp"] += sc["total"]
    s["last_scoring"] = list(p["scores"])


@evolves(ev.MARKERS_CLEARED, mutates=("provinces",))
def _cleared(s: State, p: Payload) -> None:
    for prov in s["provinces"].values():
        prov["markers"] = 0


@evolves(ev.GAME_ENDED)
def _ended(s: State, p: Payload) -> None:
    position.clear(raw(s))
    s["result"] = {"winners": list(p["winners"]), "scores": list(p["scores"])}
