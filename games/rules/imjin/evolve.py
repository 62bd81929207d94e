"""evolve: one small function per event type (the kit's `@evolves`). Never validates,
never draws."""

from __future__ import annotations

from typing import Any, cast

from games.rules.base import Event
from games.rules.kit import Evolver, position

from . import events as ev
from .state import GeneralRecord, State, Taunt, TimedEffect, Unit, copy, set_prompts, stage, stage_frame

evolves: Evolver[State] = Evolver("imjin", copy_payload=True)
"""Event type -> handler and the top-level keys it mutates (deep-copied by the kit;
the rest is shared with the input state). Payloads are deep-copied too: handlers
store parts of them in the state."""


@evolves(ev.GAME_SET_UP)
def _set_up(s: State, p: dict[str, Any]) -> None:
    whole = cast(dict[str, Any], s)  # the table replaces everything, whatever it was
    whole.clear()
    table = copy(dict(p["table"]))
    # the stored table names a flow record and a prompt queue: laid out as position frames
    flow, queue = table.pop("flow"), table.pop("queue")
    whole.update(table)
    s["position"] = [stage_frame(flow), *reversed(queue)]


@evolves(ev.FLOW_CHANGED)
def _flow(s: State, p: dict[str, Any]) -> None:
    if "flow" in p:
        s["position"] = [stage_frame(p["flow"]), *s["position"][1:]]
    if "queue" in p:
        set_prompts(s, p["queue"])
    if "act" in p:
        s["act"] = p["act"]


@evolves(ev.SUPPLY_CHANGED, mutates=("supply",))
def _supply(s: State, p: dict[str, Any]) -> None:
    s["supply"][p["seat"]] = max(0, min(99, s["supply"][p["seat"]] + p["delta"]))


@evolves(ev.WHEEL_ADVANCED, mutates=("wheel",))
def _wheel(s: State, p: dict[str, Any]) -> None:
    s["wheel"][p["side"]] = p["to"]


@evolves(ev.UNITS_CHANGED, mutates=("units",))
def _units(s: State, p: dict[str, Any]) -> None:
    for uid, unit in p["units"].items():
        if unit is None:
            s["units"].pop(uid, None)
        else:
            s["units"][uid] = cast(Unit, dict(unit))
            s["next_uid"] = max(s["next_uid"], int(uid[1:]) + 1)


@evolves(ev.CONTROL_CHANGED, mutates=("control",))
def _control(s: State, p: dict[str, Any]) -> None:
    s["control"][p["area"]] = p["side"]


@evolves(ev.GENERALS_CHANGED, mutates=("generals",))
def _generals(s: State, p: dict[str, Any]) -> None:
    for gid, rec in p["generals"].items():
        if rec is None:
            s["generals"].pop(gid, None)
        else:
            s["generals"][gid] = cast(GeneralRecord, dict(rec))


@evolves(
    ev.LEGENDARY_CHOSEN,
    mutates=(
        "legendary",
        "hands",
        "supply",
    ),
)
def _legendary(s: State, p: dict[str, Any]) -> None:
    seat, gid = p["seat"], p["general"]
    if gid is not None:
        s["legendary"][s["side"][seat]] = gid
        s["hands"][seat].append(gid)
        s["supply"][seat] = max(0, s["supply"][seat] - p["penalty"])


@evolves(ev.GENERAL_PICKED, mutates=("picks",))
def _picked(s: State, p: dict[str, Any]) -> None:
    s["picks"][p["seat"]].append(p["general"])


@evolves(
    ev.HAND_CARD_SEALED,
    mutates=(
        "hands",
        "secrets",
    ),
)
def _sealed(s: State, p: dict[str, Any]) -> None:
    seat, gid = p["seat"], p["choice"]
    if gid not in s["hands"][seat]:
        s["hands"][seat].append(gid)
    if p["salt"] is not None:  # None: a card everybody knows (4p army leader)
        s["secrets"][seat][gid] = {"key": p["key"], "salt": p["salt"]}


@evolves(
    ev.GENERAL_DEPLOYED,
    mutates=(
        "hands",
        "secrets",
        "generals",
        "units",
    ),
)
def _deployed(s: State, p: dict[str, Any]) -> None:
    seat, gid, uid = p["seat"], p["general"], p["unit"]
    if gid in s["hands"][seat]:
        s["hands"][seat].remove(gid)
    s["secrets"][seat].pop(gid, None)
    s["generals"][gid] = {"owner": seat, "where": "map", "unit": uid, "damage": p.get("damage", 0)}
    s["units"][uid]["general"] = gid


@evolves(
    ev.GENERAL_LEFT_MAP,
    mutates=(
        "units",
        "generals",
        "hands",
        "killed",
    ),
)
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


@evolves(
    ev.EVENT_REVEALED,
    mutates=(
        "deck",
        "revealed",
    ),
)
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


@evolves(ev.DECK_REBUILT)
def _rebuilt(s: State, p: dict[str, Any]) -> None:
    s["deck"] = {"size": p["size"], "drawn": 0, "pool": list(p["pool"]), "reset_in": True}


@evolves(ev.TIMED_CHANGED)
def _timed(s: State, p: dict[str, Any]) -> None:
    s["timed"] = [TimedEffect(card=t["card"], left=t["left"]) for t in p["timed"]]


@evolves(ev.TAUNT_CHANGED)
def _taunt(s: State, p: dict[str, Any]) -> None:
    t = p["taunt"]
    s["taunt"] = None if t is None else Taunt(unit=t["unit"], general=t["general"])


@evolves(ev.BATTLE_RESOLVED)
def _battle(s: State, p: dict[str, Any]) -> None:
    s["last_battle"] = {k: p[k] for k in ("battle", "attacker_dice", "defender_dice", "result")}


# -- facts of rules version 4 -------------------------------------------------


@evolves(ev.UNIT_FORMED, mutates=("units",))
def _formed(s: State, p: dict[str, Any]) -> None:
    uid = p["unit"]
    s["units"][uid] = {"owner": p["owner"], "area": p["area"], "troops": p["troops"], "general": None}
    s["next_uid"] = max(s["next_uid"], int(uid[1:]) + 1)


@evolves(ev.UNITS_MOVED, mutates=("units",))
def _moved(s: State, p: dict[str, Any]) -> None:
    for m in p["moves"]:
        s["units"][m["unit"]]["area"] = m["to"]


@evolves(ev.TROOPS_CHANGED, mutates=("units",))
def _troops(s: State, p: dict[str, Any]) -> None:
    s["units"][p["unit"]]["troops"] = p["troops"]


@evolves(ev.UNIT_DESTROYED, mutates=("units",))
def _destroyed(s: State, p: dict[str, Any]) -> None:
    s["units"].pop(p["unit"], None)


@evolves(ev.GENERAL_WOUNDED, ev.GENERAL_HEALED, mutates=("generals",))
def _damage(s: State, p: dict[str, Any]) -> None:
    s["generals"][p["general"]]["damage"] = p["damage"]


@evolves(
    ev.GENERAL_KILLED,
    mutates=(
        "units",
        "generals",
        "hands",
        "killed",
    ),
)
def _killed(s: State, p: dict[str, Any]) -> None:
    _left(s, {"general": p["general"], "to": "dead", "killer_side": p["killer_side"]})


# -- facts of rules version 4: the decision queue and the turn -------------------


def _stack(state: State) -> dict[str, Any]:
    """The state as the kit's position helpers take it (a TypedDict is no MutableMapping to mypy)."""
    return cast(dict[str, Any], state)


@evolves(ev.DECISION_QUEUED, mutates=("position",))
def _queued(s: State, p: dict[str, Any]) -> None:
    prompt = dict(p["prompt"])
    kind = prompt.pop("kind")
    if p["at"] == "front":
        position.push(_stack(s), kind, **prompt)
    else:  # after every queued prompt, before the stage frame (queue order kept)
        position.enqueue(_stack(s), kind, **prompt)


@evolves(ev.DECISION_TAKEN, mutates=("position",))
def _taken(s: State, p: dict[str, Any]) -> None:
    position.pop(_stack(s))


@evolves(ev.DECISION_UPDATED, mutates=("position",))
def _updated(s: State, p: dict[str, Any]) -> None:
    prompt = dict(p["prompt"])
    position.replace(_stack(s), prompt.pop("kind"), **prompt)


@evolves(ev.TURN_BEGAN, mutates=("position",))
def _turn(s: State, p: dict[str, Any]) -> None:
    s["position"][0] = position.frame("turn", turn=p["seat"], step="wheel")
    s["act"] = {}


@evolves(ev.ACTION_CHOSEN, mutates=("position",))
def _chosen(s: State, p: dict[str, Any]) -> None:
    stage(s)["step"] = "begin"
    stage(s)["action"] = p["action"]


@evolves(ev.ACTION_STARTED, mutates=("position",))
def _started(s: State, p: dict[str, Any]) -> None:
    stage(s)["step"] = "act"
    s["act"] = {}


@evolves(ev.ACTION_ENDED, mutates=("position",))
def _action_ended(s: State, p: dict[str, Any]) -> None:
    stage(s)["step"] = "closing"


@evolves(ev.FINAL_TURN, mutates=("position",))
def _final_turn(s: State, p: dict[str, Any]) -> None:
    stage(s)["ending"] = True


@evolves(ev.BATTLE_DECLARED, mutates=("act",))
def _declared(s: State, p: dict[str, Any]) -> None:
    b = p["battle"]
    act = s["act"]
    act["battles"] = act.get("battles", []) + [b]
    act["used"] = act.get("used", []) + [b["main"], *b["supports"]]


@evolves(ev.DISCORD_DECLARED, mutates=("act",))
def _discord(s: State, p: dict[str, Any]) -> None:
    act = s["act"]
    act["immune"] = act.get("immune", []) + [p["defender"]]
    act["used"] = act.get("used", []) + [p["unit"]]


@evolves(ev.SECOND_ATTACK_DECLARED, mutates=("act",))
def _second(s: State, p: dict[str, Any]) -> None:
    s["act"]["fukushima_used"] = True


@evolves(ev.KOBAYAKAWA_CHOSE, mutates=("act",))
def _kobayakawa(s: State, p: dict[str, Any]) -> None:
    s["act"]["kobayakawa"] = p["option"]


@evolves(ev.BATTLE_STARTED, mutates=("act",))
def _battle_started(s: State, p: dict[str, Any]) -> None:
    battles = [dict(b) for b in s["act"]["battles"]]
    battles[p["battle"]]["done"] = True
    s["act"]["battles"] = battles


@evolves(ev.UNIT_MARKED_MOVED, mutates=("act",))
def _marked_moved(s: State, p: dict[str, Any]) -> None:
    act = s["act"]
    act["moved"] = act.get("moved", []) + [p["unit"]]
    act["li_fight"] = act.get("li_fight", []) + ([p["unit"]] if p["may_fight"] else [])


@evolves(ev.ACTION_NOTED, mutates=("act",))
def _noted(s: State, p: dict[str, Any]) -> None:
    s["act"].update(p["changes"])


@evolves(ev.GAME_ENDED)
def _ended(s: State, p: dict[str, Any]) -> None:
    s["result"] = {"winners": list(p["winners"]), "reason": p["reason"], "scores": dict(p["scores"])}


def evolve(state: State, event: Event) -> State:
    """Copy what the event changes, then apply; round-tripped payloads (lists for
    tuples) are fine here. An unknown event type raises `UnknownEvent`."""
    return evolves.evolve(state, event)


def fold_in_place(state: State, event: Event) -> State:
    """decide's scratch fold: the scratch state is its own, so no copy is needed."""
    evolves.apply_in_place(state, event)
    return state
