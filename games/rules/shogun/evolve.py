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


def _reveal(state: State, reveals: list[dict[str, Any]] | None) -> None:
    for r in reveals or ():
        space = r["key"].rsplit(":", 1)[1]
        round_of(state)["revealed"][r["seat"]][space] = r["choice"]


def p_owner(prov: Province) -> int:
    """The owner of a province that has one (a marker is placed only on an owned one)."""
    owner = prov["owner"]
    assert owner is not None
    return owner


def _lose(state: State, seat: int, prov: str) -> None:
    if state.get("round") and [seat, prov] not in round_of(state)["lost"]:
        round_of(state)["lost"].append([seat, prov])


# --- setup ------------------------------------------------------------------------------


@evolves(ev.GAME_STARTED)
def _started(state: State, payload: Payload) -> None:
    n = len(payload["colours"])
    raw(state).clear()
    state.update(
        {
            "position": [position.frame("setup")],
            "opts": dict(payload["opts"]),
            "n": n,
            "colours": list(payload["colours"]),
            "year": 1,
            "season": 0,
            "in_play": list(payload["in_play"]),
            "provinces": {name: _neutral() for name in payload["in_play"]},
            "players": [
                {
                    "money": payload["money"],
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
def _seeded(state: State, payload: Payload) -> None:
    state["tower"] = _thrown(state, payload["tower"])
    for seat, k in enumerate(payload["officials"]):
        state["players"][seat]["officials"] -= k
        state["players"][seat]["vestibule"] += k


@evolves(ev.YEAR_BEGAN, mutates=("players",))
def _year(state: State, payload: Payload) -> None:
    state["year"] = payload["year"]
    state["year_events"] = list(payload["events"])
    state["past_events"] = state.get("past_events", []) + list(payload["events"])
    state["used_events"] = []
    state["season"] = 0
    for pl in state["players"]:
        pl["rice"] = 0  # rice is reset each year [sbw][imr]
    enter(state, "season_start")


@evolves(ev.PROVINCES_DEALT, mutates=("provinces",))
def _dealt(state: State, payload: Payload) -> None:
    for prov, seat, armies in payload["placements"]:
        _occupy(state["provinces"][prov], seat, armies)


def _occupy(prov: Province, seat: int, armies: int) -> None:
    prov["owner"], prov["armies"] = seat, armies


def _tower(tower: dict[str, list[int]]) -> Tower:
    return {"l1": list(tower["l1"]), "l2": list(tower["l2"]), "tray": list(tower["tray"])}


def _thrown(state: State, tower: dict[str, list[int]]) -> Tower:
    """The tower after a throw's public event: the whole tower it carries (rules
    versions 1-3), or, when the levels are hidden (version 4 on), the levels set by the
    `TowerSettled` just before it and the tray it carries (a new tower: the old one may
    be shared with the state before)."""
    if "l1" in tower:
        return _tower(tower)
    return {"l1": list(state["tower"]["l1"]), "l2": list(state["tower"]["l2"]), "tray": list(tower["tray"])}


@evolves(ev.TOWER_SETTLED, mutates=("tower",))
def _settled(state: State, payload: Payload) -> None:
    """The hidden contents after a throw, and their commitment kept for the end."""
    state["tower"]["l1"] = list(payload["choice"]["l1"])
    state["tower"]["l2"] = list(payload["choice"]["l2"])
    choice = {"l1": list(payload["choice"]["l1"]), "l2": list(payload["choice"]["l2"])}
    # a new list (the old one stays shared with the state before)
    state["tower_commits"] = [
        *state.get("tower_commits", []),
        {"key": payload["key"], "choice": choice, "salt": payload["salt"]},
    ]


evolves.ignores(ev.TOWER_REVEALED)  # the levels are in the state already; the end view shows them


def _take_from_deck(deck: Draft, card: str) -> None:
    for pile in (deck["pool"], deck["bottom"]):
        if card in pile:
            pile.remove(card)
            return


@evolves(ev.DRAFT_BEGAN)
def _draft_began(state: State, payload: Payload) -> None:
    d: Draft = {
        "first": payload["first"],
        "turn": 0,
        "display": list(payload["display"]),
        "pool": sorted(state["in_play"]),
        "bottom": [],
        "villages": [list(v) for v in payload["villages"]],
        "last_offer": [None] * state["n"],
        "offered": False,
    }
    for c in payload["display"]:
        _take_from_deck(d, c)
    enter(state, "draft", **d)


@evolves(ev.DRAFT_DISPLAY_RECYCLED, mutates=(position.POSITION,))
def _recycled(state: State, payload: Payload) -> None:
    d = draft_of(state)
    d["bottom"].extend(payload["recycled"])
    d["display"] = list(payload["display"])
    for c in payload["display"]:
        _take_from_deck(d, c)


@evolves(ev.DRAFT_TURN_BEGAN, mutates=(position.POSITION,))
def _draft_turn(state: State, payload: Payload) -> None:
    d = draft_of(state)
    d["last_offer"][payload["seat"]] = sorted(payload["display"])
    d["offered"] = True


@evolves(
    ev.PROVINCE_DRAFTED,
    mutates=(
        position.POSITION,
        "provinces",
    ),
)
def _drafted(state: State, payload: Payload) -> None:
    d = draft_of(state)
    prov, seat = payload["province"], payload["seat"]
    if prov in d["display"]:
        d["display"].remove(prov)
    else:
        _take_from_deck(d, prov)
    _occupy(state["provinces"][prov], seat, payload["armies"])
    d["villages"][seat].remove(payload["armies"])
    for c in payload["refill"]:
        _take_from_deck(d, c)
        d["display"].append(c)
    d["turn"] += 1
    d["offered"] = False
    if not any(d["villages"]):
        enter(state, "season_start")


# --- season -----------------------------------------------------------------------------


@evolves(
    ev.SEASON_BEGAN,
    mutates=(
        "players",
        "favour_pool",
    ),
)
def _season(state: State, payload: Payload) -> None:
    n = state["n"]
    state["season"] = payload["season"]
    state["event"], state["event_cancelled"] = None, False
    favours = [list(f) for f in payload["favours"]]
    for _, card in favours:
        state["favour_pool"].remove(card)
    state["plans"] = [{} for _ in range(n)]  # secret: see view.py
    state["round"] = {
        "actions": list(payload["actions"]),
        "pool": list(payload["pool"]),
        "specials": list(payload["specials"]),
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
    for pl in state["players"]:
        pl["special"], pl["immune"] = None, []
    pending = []
    for seat, card in payload["samurai"]:
        state["players"][seat]["samurai"] = card
        if data.SAMURAI[card - 1]:
            pending.append(seat)
    if pending:
        enter(state, "samurai", seats=pending)
    else:
        enter(state, "plan")


@evolves(
    ev.SAMURAI_BONUS_TAKEN,
    mutates=(
        "players",
        "tower",
        position.POSITION,
    ),
)
def _samurai(state: State, payload: Payload) -> None:
    pl = state["players"][payload["seat"]]
    bonus, amount = payload["bonus"], payload["amount"]
    if bonus == "chests":
        pl["money"] += amount
    elif bonus == "rice":
        pl["rice"] += amount
    elif bonus == "vp":
        pl["vp"] += amount
    elif bonus == "tray":
        state["tower"]["tray"].extend([payload["seat"]] * amount)
    waiting = samurai_pending(state)
    waiting.remove(payload["seat"])
    if not waiting:
        enter(state, "plan")


@evolves(
    ev.CARD_PLANNED,
    mutates=(
        "round",
        "plans",
    ),
)
def _planned(state: State, payload: Payload) -> None:
    r = round_of(state)
    seat = payload["seat"]
    plans_of(state)[seat][payload["space"]] = {"card": payload["choice"], "salt": payload["salt"]}
    if len(plans_of(state)[seat]) == payload["of"]:
        r["planned"][seat] = True


@evolves(ev.EVENT_REVEALED, mutates=("used_events",))
def _event(state: State, payload: Payload) -> None:
    state["event"] = payload["event"]
    state["used_events"].append(payload["event"])


@evolves(
    ev.BIDS_REVEALED,
    mutates=(
        "round",
        "players",
    ),
)
def _bids(state: State, payload: Payload) -> None:
    r = round_of(state)
    _reveal(state, payload["reveals"])
    r["bids"] = list(payload["bids"])
    for seat, paid in enumerate(payload["paid"]):
        state["players"][seat]["money"] -= paid
    r["queue"] = list(payload["order"])
    enter(state, "special")


@evolves(
    ev.SPECIAL_CHOSEN,
    mutates=(
        "round",
        "players",
    ),
)
def _special(state: State, payload: Payload) -> None:
    r = round_of(state)
    seat, slot = payload["seat"], payload["slot"]
    r["chosen"][seat] = slot
    state["players"][seat]["special"] = r["specials"][slot - 1]
    r["queue"].remove(seat)
    if not r["queue"]:
        r["order"] = sorted(range(state["n"]), key=lambda seat: r["chosen"][seat] or 0)
        enter(state, "court" if state["opts"]["tennos_court"] else "actions")


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
def _converted(state: State, payload: Payload) -> None:
    _reveal(state, payload["reveals"])
    if not payload["done"]:
        return
    seat, k = payload["seat"], payload["n"]
    if payload["province"]:
        state["provinces"][payload["province"]]["armies"] -= k
    else:
        tray = state["tower"]["tray"]
        for _ in range(k):
            tray.remove(seat)
    pl = state["players"][seat]
    pl["officials"] -= k
    pl["vestibule"] += k


@evolves(ev.COURT_RANKED, mutates=("round",))
def _ranked(state: State, payload: Payload) -> None:
    round_of(state)["court_queue"] = list(payload["queue"])
    enter(state, "favour")


def _to_hall(state: State, seat: int) -> None:
    pl = state["players"][seat]
    pl["hall"] += pl["vestibule"]
    pl["vestibule"] = 0
    round_of(state)["court_queue"].remove(seat)


@evolves(
    ev.COURT_PASSED,
    mutates=(
        "players",
        "round",
    ),
)
def _passed(state: State, payload: Payload) -> None:
    _to_hall(state, payload["seat"])


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
def _favour(state: State, payload: Payload) -> None:
    seat, card = payload["seat"], payload["card"]
    _to_hall(state, seat)
    pl = state["players"][seat]
    pl["hall"] -= payload["cost"]
    pl["officials"] += payload["cost"]
    r = round_of(state)
    r["favours"] = [f for f in r["favours"] if f[1] != card]
    if payload["use"]:
        _apply_favour(state, seat, data.FAVOURS[card], payload)


_COUNTERS = {"chests": "money", "rice": "rice", "vp": "vp"}  # favour type -> player counter


def _apply_favour(state: State, seat: int, fav: dict[str, Any], payload: Payload) -> None:
    pl, t, prov = state["players"][seat], fav["type"], payload.get("province")
    if t == "cancel_event":
        state["event_cancelled"] = True
    elif t in _COUNTERS:
        cast(dict[str, Any], pl)[_COUNTERS[t]] += fav["amount"]
    elif t == "tray":
        state["tower"]["tray"].extend([seat] * payload["n"])
    elif t == "immunity":
        pl["immune"] = sorted(set(pl["immune"]) | set(fav["letters"]))
    elif t == "remove_marker":
        if prov:
            state["provinces"][prov]["markers"] -= 1
        else:
            pl["fav4"] = True  # kept until the next marker on his provinces
    elif t == "building" and prov:
        _build(state, prov, fav["building"], payload.get("calmed", False))
    elif t == "free_armies" and prov:
        state["provinces"][prov]["owner"] = seat
        state["provinces"][prov]["armies"] += payload["n"]


def _build(state: State, prov: str, kind: str, calmed: bool) -> None:
    p = state["provinces"][prov]
    raw_province(p)[kind] = True
    state["tiles"][kind] -= 1
    if calmed:  # Nô-theatre event: the peasants calm down (all markers, or one: option)
        p["markers"] = 0 if option(state, "theatre_calms") == "all" else max(0, p["markers"] - 1)


@evolves(
    ev.COURT_ENDED,
    mutates=(
        "players",
        "round",
    ),
)
def _court_ended(state: State, payload: Payload) -> None:
    for pl in state["players"]:
        pl["vestibule"] += pl["hall"]
        pl["hall"] = 0
    round_of(state)["favours"] = []
    enter(state, "actions")


# --- actions ----------------------------------------------------------------------------


def _sub(state: State, value: str) -> None:
    if phase_of(state) == "actions":
        round_of(state)["cur"]["sub"] = value


@evolves(ev.SPACE_REVEALED, mutates=("round",))
def _space(state: State, payload: Payload) -> None:
    _reveal(state, payload["reveals"])
    round_of(state)["revealed"][payload["seat"]][payload["space"]] = payload["card"]
    _sub(state, payload["next"])


@evolves(ev.ACTION_DECLINED, mutates=("round",))
def _declined(state: State, payload: Payload) -> None:
    # Declining the recruit of Recruit 1 + move leaves the move, unless the move needs
    # the recruit (option recruit1: mandatory).
    then_move = payload["part"] == "recruit" and option(state, "recruit1") == "optional"
    _sub(state, "move" if then_move else "end")


@evolves(
    ev.BUILT,
    mutates=(
        "players",
        "provinces",
        "tiles",
        "round",
    ),
)
def _built(state: State, payload: Payload) -> None:
    state["players"][payload["seat"]]["money"] -= payload["cost"]
    _build(state, payload["province"], payload["building"], payload["calmed"])
    _sub(state, "end")


@evolves(
    ev.COLLECTED,
    mutates=(
        "players",
        "round",
    ),
)
def _collected(state: State, payload: Payload) -> None:
    pl = state["players"][payload["seat"]]
    pl["rice" if payload["what"] == "rice" else "money"] += payload["amount"]
    _sub(state, "end")


@evolves(
    ev.MARKER_PLACED,
    mutates=(
        "provinces",
        "players",
    ),
)
def _marker(state: State, payload: Payload) -> None:
    prov = state["provinces"][payload["province"]]
    if payload["cancelled"]:
        state["players"][p_owner(prov)]["fav4"] = False
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
def _recruited(state: State, payload: Payload) -> None:
    state["players"][payload["seat"]]["money"] -= payload["cost"]
    state["provinces"][payload["province"]]["armies"] += payload["armies"]
    _sub(state, "move" if payload["space"] == "recruit1" else "end")


@evolves(
    ev.ARMIES_MOVED,
    mutates=(
        "provinces",
        "round",
    ),
)
def _moved(state: State, payload: Payload) -> None:
    state["provinces"][payload["from"]]["armies"] -= payload["armies"]
    state["provinces"][payload["to"]]["armies"] += payload["armies"]
    _sub(state, "end")


@evolves(
    ev.BATTLE_FOUGHT,
    mutates=(
        "provinces",
        "tiles",
        "round",
        position.POSITION,
    ),
)
def _battle(state: State, payload: Payload) -> None:
    if payload["from"]:
        state["provinces"][payload["from"]]["armies"] -= payload["armies"]
    state["provinces"][payload["province"]] = cast(Province, dict(payload["after"]))
    state["tower"] = _thrown(state, payload["tower"])
    for kind in payload["tiles"]:
        state["tiles"][kind] += 1
    if payload.get("lost"):
        _lose(state, *payload["lost"])
        _reveal(state, payload.get("reveals"))
    state["last_battle"] = {
        k: payload[k] for k in ("kind", "province", "attacker", "defender", "thrown", "out", "result")
    }
    if payload["kind"] in ("attack", "neutral"):
        _sub(state, "end")
    if payload["kind"] == "famine" and payload["province"] in winter_of(state)["left"]:
        winter_of(state)["left"].remove(payload["province"])


@evolves(ev.ACTION_TURN_ENDED, mutates=("round",))
def _turn_ended(state: State, payload: Payload) -> None:
    cur = round_of(state)["cur"]
    cur["j"] += 1
    cur["sub"] = None


@evolves(ev.ACTION_COMPLETED, mutates=("round",))
def _action_done(state: State, payload: Payload) -> None:
    r = round_of(state)
    r["cur"] = {"i": r["cur"]["i"] + 1, "j": 0, "sub": None}
    if payload["next"]:
        r["actions"].append(payload["next"])
        r["pool"].remove(payload["next"])


@evolves(
    ev.SEASON_ENDED,
    mutates=(
        "players",
        "round",
    ),
)
def _season_ended(state: State, payload: Payload) -> None:
    for pl in state["players"]:
        pl["special"], pl["immune"] = None, []  # specials returned, immunities discarded
    state["event"], state["event_cancelled"] = None, False
    round_of(state)["cur"] = {"i": 10, "j": 0, "sub": None}
    if state["season"] == 2:
        state["season"] = 3
        enter(state, "winter")
    else:
        state["season"] += 1
        enter(state, "season_start")


# --- winter -----------------------------------------------------------------------------


@evolves(ev.WINTER_RICE_LOST, mutates=("players",))
def _rice_lost(state: State, payload: Payload) -> None:
    state["famine"] = []
    for seat, loss in enumerate(payload["losses"]):
        state["players"][seat]["rice"] -= loss
    enter(state, "winter", queue=list(payload["starving"]), seat=None, left=[], extra=0)


@evolves(
    ev.FAMINE_STRUCK,
    mutates=(
        "famine",
        position.POSITION,
    ),
)
def _famine(state: State, payload: Payload) -> None:
    state["famine"].append({k: payload[k] for k in ("seat", "shortfall", "revolts", "extra", "provinces")})
    w = winter_of(state)
    w["queue"].remove(payload["seat"])
    w["seat"], w["left"], w["extra"] = payload["seat"], list(payload["provinces"]), payload["extra"]


@evolves(ev.SCORED, mutates=("players",))
def _scored(state: State, payload: Payload) -> None:
    for seat, sc in enumerate(payload["scores"]):
        state["players"][seat]["vp"] += sc["total"]
    state["last_scoring"] = list(payload["scores"])


@evolves(ev.MARKERS_CLEARED, mutates=("provinces",))
def _cleared(state: State, payload: Payload) -> None:
    for prov in state["provinces"].values():
        prov["markers"] = 0


@evolves(ev.GAME_ENDED)
def _ended(state: State, payload: Payload) -> None:
    position.clear(raw(state))
    state["result"] = {"winners": list(payload["winners"]), "scores": list(payload["scores"])}
