"""evolve: one small function per event type. Never validates, never draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from games.rules.base import Event

from . import events as ev
from .state import GeneralRecord, State, Taunt, TimedEffect, Unit, copy


def _set_up(s: State, p: dict[str, Any]) -> None:
    whole = cast(dict[str, Any], s)  # the table replaces everything, whatever it was
    whole.clear()
    whole.update(copy(dict(p["table"])))


def _flow(s: State, p: dict[str, Any]) -> None:
    for key in ("flow", "queue", "act"):
        if key in p:
            s[key] = p[key]


def _supply(s: State, p: dict[str, Any]) -> None:
    s["supply"][p["seat"]] = max(0, min(99, s["supply"][p["seat"]] + p["delta"]))


def _wheel(s: State, p: dict[str, Any]) -> None:
    s["wheel"][p["side"]] = p["to"]


def _units(s: State, p: dict[str, Any]) -> None:
    for uid, unit in p["units"].items():
        if unit is None:
            s["units"].pop(uid, None)
        else:
            s["units"][uid] = cast(Unit, dict(unit))
            s["next_uid"] = max(s["next_uid"], int(uid[1:]) + 1)


def _control(s: State, p: dict[str, Any]) -> None:
    s["control"][p["area"]] = p["side"]


def _generals(s: State, p: dict[str, Any]) -> None:
    for gid, rec in p["generals"].items():
        if rec is None:
            s["generals"].pop(gid, None)
        else:
            s["generals"][gid] = cast(GeneralRecord, dict(rec))


def _legendary(s: State, p: dict[str, Any]) -> None:
    seat, gid = p["seat"], p["general"]
    if gid is not None:
        s["legendary"][s["side"][seat]] = gid
        s["hands"][seat].append(gid)
        s["supply"][seat] = max(0, s["supply"][seat] - p["penalty"])


def _picked(s: State, p: dict[str, Any]) -> None:
    s["picks"][p["seat"]].append(p["general"])


def _sealed(s: State, p: dict[str, Any]) -> None:
    seat, gid = p["seat"], p["choice"]
    if gid not in s["hands"][seat]:
        s["hands"][seat].append(gid)
    if p["salt"] is not None:  # None: a card everybody knows (4p army leader)
        s["secrets"][seat][gid] = {"key": p["key"], "salt": p["salt"]}


def _deployed(s: State, p: dict[str, Any]) -> None:
    seat, gid, uid = p["seat"], p["general"], p["unit"]
    if gid in s["hands"][seat]:
        s["hands"][seat].remove(gid)
    s["secrets"][seat].pop(gid, None)
    s["generals"][gid] = {"owner": seat, "where": "map", "unit": uid, "damage": p.get("damage", 0)}
    s["units"][uid]["general"] = gid


def _left(s: State, p: dict[str, Any]) -> None:
    gid = p["general"]
    rec = s["generals"][gid]
    uid = rec["unit"]
    if uid is not None and uid in s["units"] and s["units"][uid]["general"] == gid:
        s["units"][uid]["general"] = None
    if p["to"] == "hand":
        s["generals"][gid] = {"owner": rec["owner"], "where": "hand", "unit": None, "damage": 0}
        s["hands"][rec["owner"]].append(gid)
    else:
        s["generals"][gid] = {"owner": rec["owner"], "where": "dead", "unit": None, "damage": rec["damage"]}
        s["killed"][p["killer_side"]].append(gid)
    if s["taunt"] and s["taunt"]["general"] == gid:
        s["taunt"] = None


def _revealed(s: State, p: dict[str, Any]) -> None:
    d = s["deck"]
    d["drawn"] += 1
    card = p["card"]
    if card == "reset":
        d["reset_in"] = False
        s["resets"] += 1
    else:
        d["pool"].remove(card)
    s["last_card"] = card
    s["revealed"].append(card)


def _rebuilt(s: State, p: dict[str, Any]) -> None:
    s["deck"] = {"size": p["size"], "drawn": 0, "pool": list(p["pool"]), "reset_in": True}


def _timed(s: State, p: dict[str, Any]) -> None:
    s["timed"] = [TimedEffect(card=t["card"], left=t["left"]) for t in p["timed"]]


def _taunt(s: State, p: dict[str, Any]) -> None:
    t = p["taunt"]
    s["taunt"] = None if t is None else Taunt(unit=t["unit"], general=t["general"])


def _battle(s: State, p: dict[str, Any]) -> None:
    s["last_battle"] = {k: p[k] for k in ("battle", "attacker_dice", "defender_dice", "result")}


# -- facts of rules version 4 -------------------------------------------------


def _formed(s: State, p: dict[str, Any]) -> None:
    uid = p["unit"]
    s["units"][uid] = {"owner": p["owner"], "area": p["area"], "troops": p["troops"], "general": None}
    s["next_uid"] = max(s["next_uid"], int(uid[1:]) + 1)


def _moved(s: State, p: dict[str, Any]) -> None:
    for m in p["moves"]:
        s["units"][m["unit"]]["area"] = m["to"]


def _troops(s: State, p: dict[str, Any]) -> None:
    s["units"][p["unit"]]["troops"] = p["troops"]


def _destroyed(s: State, p: dict[str, Any]) -> None:
    s["units"].pop(p["unit"], None)


def _damage(s: State, p: dict[str, Any]) -> None:
    s["generals"][p["general"]]["damage"] = p["damage"]


def _killed(s: State, p: dict[str, Any]) -> None:
    _left(s, {"general": p["general"], "to": "dead", "killer_side": p["killer_side"]})


# -- facts of rules version 4: the decision queue and the turn -------------------


def _queued(s: State, p: dict[str, Any]) -> None:
    if p["at"] == "front":
        s["queue"].insert(0, p["prompt"])
    else:
        s["queue"].append(p["prompt"])


def _taken(s: State, p: dict[str, Any]) -> None:
    s["queue"].pop(0)


def _updated(s: State, p: dict[str, Any]) -> None:
    s["queue"][0] = p["prompt"]


def _turn(s: State, p: dict[str, Any]) -> None:
    s["flow"] = {"stage": "turn", "turn": p["seat"], "step": "wheel"}
    s["act"] = {}


def _chosen(s: State, p: dict[str, Any]) -> None:
    s["flow"]["step"] = "begin"
    s["flow"]["action"] = p["action"]


def _started(s: State, p: dict[str, Any]) -> None:
    s["flow"]["step"] = "act"
    s["act"] = {}


def _action_ended(s: State, p: dict[str, Any]) -> None:
    s["flow"]["step"] = "closing"


def _final_turn(s: State, p: dict[str, Any]) -> None:
    s["flow"]["ending"] = True


def _declared(s: State, p: dict[str, Any]) -> None:
    b = p["battle"]
    act = s["act"]
    act["battles"] = act.get("battles", []) + [b]
    act["used"] = act.get("used", []) + [b["main"], *b["supports"]]


def _discord(s: State, p: dict[str, Any]) -> None:
    act = s["act"]
    act["immune"] = act.get("immune", []) + [p["defender"]]
    act["used"] = act.get("used", []) + [p["unit"]]


def _second(s: State, p: dict[str, Any]) -> None:
    s["act"]["fukushima_used"] = True


def _kobayakawa(s: State, p: dict[str, Any]) -> None:
    s["act"]["kobayakawa"] = p["option"]


def _battle_started(s: State, p: dict[str, Any]) -> None:
    battles = [dict(b) for b in s["act"]["battles"]]
    battles[p["battle"]]["done"] = True
    s["act"]["battles"] = battles


def _marked_moved(s: State, p: dict[str, Any]) -> None:
    act = s["act"]
    act["moved"] = act.get("moved", []) + [p["unit"]]
    act["li_fight"] = act.get("li_fight", []) + ([p["unit"]] if p["may_fight"] else [])


def _noted(s: State, p: dict[str, Any]) -> None:
    s["act"].update(p["changes"])


def _ended(s: State, p: dict[str, Any]) -> None:
    s["result"] = {"winners": list(p["winners"]), "reason": p["reason"], "scores": dict(p["scores"])}


HANDLERS: dict[str, Callable[[State, dict[str, Any]], None]] = {
    ev.GAME_SET_UP: _set_up,
    ev.FLOW_CHANGED: _flow,
    ev.SUPPLY_CHANGED: _supply,
    ev.WHEEL_ADVANCED: _wheel,
    ev.UNITS_CHANGED: _units,
    ev.CONTROL_CHANGED: _control,
    ev.GENERALS_CHANGED: _generals,
    ev.LEGENDARY_CHOSEN: _legendary,
    ev.GENERAL_PICKED: _picked,
    ev.HAND_CARD_SEALED: _sealed,
    ev.GENERAL_DEPLOYED: _deployed,
    ev.GENERAL_LEFT_MAP: _left,
    ev.EVENT_REVEALED: _revealed,
    ev.DECK_REBUILT: _rebuilt,
    ev.TIMED_CHANGED: _timed,
    ev.TAUNT_CHANGED: _taunt,
    ev.BATTLE_RESOLVED: _battle,
    ev.GAME_ENDED: _ended,
    ev.UNIT_FORMED: _formed,
    ev.UNITS_MOVED: _moved,
    ev.TROOPS_CHANGED: _troops,
    ev.UNIT_DESTROYED: _destroyed,
    ev.GENERAL_WOUNDED: _damage,
    ev.GENERAL_HEALED: _damage,
    ev.GENERAL_KILLED: _killed,
    ev.DECISION_QUEUED: _queued,
    ev.DECISION_TAKEN: _taken,
    ev.DECISION_UPDATED: _updated,
    ev.TURN_BEGAN: _turn,
    ev.ACTION_CHOSEN: _chosen,
    ev.ACTION_STARTED: _started,
    ev.ACTION_ENDED: _action_ended,
    ev.FINAL_TURN: _final_turn,
    ev.BATTLE_DECLARED: _declared,
    ev.ACTION_NOTED: _noted,
    ev.DISCORD_DECLARED: _discord,
    ev.SECOND_ATTACK_DECLARED: _second,
    ev.KOBAYAKAWA_CHOSE: _kobayakawa,
    ev.BATTLE_STARTED: _battle_started,
    ev.UNIT_MARKED_MOVED: _marked_moved,
}


def evolve(state: State, event: Event) -> State:
    """Copy, then apply; round-tripped payloads (lists for tuples) are fine here."""
    new = copy(state)
    HANDLERS[event.type](new, copy(dict(event.payload)))
    return new


def apply_in_place(state: State, event: Event) -> None:
    """decide's scratch fold: the scratch state is its own, so no copy is needed."""
    HANDLERS[event.type](state, copy(dict(event.payload)))


def handles(event_type: str) -> bool:
    return event_type in HANDLERS
