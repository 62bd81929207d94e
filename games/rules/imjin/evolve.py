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
def _set_up(state: State, payload: dict[str, Any]) -> None:
    whole = cast(dict[str, Any], state)  # the table replaces everything, whatever it was
    whole.clear()
    table = copy(dict(payload["table"]))
    # the stored table names a flow record and a prompt queue: laid out as position frames
    flow, queue = table.pop("flow"), table.pop("queue")
    whole.update(table)
    state["position"] = [stage_frame(flow), *reversed(queue)]


@evolves(ev.FLOW_CHANGED)
def _flow(state: State, payload: dict[str, Any]) -> None:
    if "flow" in payload:
        state["position"] = [stage_frame(payload["flow"]), *state["position"][1:]]
    if "queue" in payload:
        set_prompts(state, payload["queue"])
    if "act" in payload:
        state["act"] = payload["act"]


@evolves(ev.SUPPLY_CHANGED, mutates=("supply",))
def _supply(state: State, payload: dict[str, Any]) -> None:
    state["supply"][payload["seat"]] = max(0, min(99, state["supply"][payload["seat"]] + payload["delta"]))


@evolves(ev.WHEEL_ADVANCED, mutates=("wheel",))
def _wheel(state: State, payload: dict[str, Any]) -> None:
    state["wheel"][payload["side"]] = payload["to"]


@evolves(ev.UNITS_CHANGED, mutates=("units",))
def _units(state: State, payload: dict[str, Any]) -> None:
    for uid, unit in payload["units"].items():
        if unit is None:
            state["units"].pop(uid, None)
        else:
            state["units"][uid] = cast(Unit, dict(unit))
            state["next_uid"] = max(state["next_uid"], int(uid[1:]) + 1)


@evolves(ev.CONTROL_CHANGED, mutates=("control",))
def _control(state: State, payload: dict[str, Any]) -> None:
    state["control"][payload["area"]] = payload["side"]


@evolves(ev.GENERALS_CHANGED, mutates=("generals",))
def _generals(state: State, payload: dict[str, Any]) -> None:
    for gid, rec in payload["generals"].items():
        if rec is None:
            state["generals"].pop(gid, None)
        else:
            state["generals"][gid] = cast(GeneralRecord, dict(rec))


@evolves(
    ev.LEGENDARY_CHOSEN,
    mutates=(
        "legendary",
        "hands",
        "supply",
    ),
)
def _legendary(state: State, payload: dict[str, Any]) -> None:
    seat, gid = payload["seat"], payload["general"]
    if gid is not None:
        state["legendary"][state["side"][seat]] = gid
        state["hands"][seat].append(gid)
        state["supply"][seat] = max(0, state["supply"][seat] - payload["penalty"])


@evolves(ev.GENERAL_PICKED, mutates=("picks",))
def _picked(state: State, payload: dict[str, Any]) -> None:
    state["picks"][payload["seat"]].append(payload["general"])


@evolves(
    ev.HAND_CARD_SEALED,
    mutates=(
        "hands",
        "secrets",
    ),
)
def _sealed(state: State, payload: dict[str, Any]) -> None:
    seat, gid = payload["seat"], payload["choice"]
    if gid not in state["hands"][seat]:
        state["hands"][seat].append(gid)
    if payload["salt"] is not None:  # None: a card everybody knows (4p army leader)
        state["secrets"][seat][gid] = {"key": payload["key"], "salt": payload["salt"]}


@evolves(
    ev.GENERAL_DEPLOYED,
    mutates=(
        "hands",
        "secrets",
        "generals",
        "units",
    ),
)
def _deployed(state: State, payload: dict[str, Any]) -> None:
    seat, gid, uid = payload["seat"], payload["general"], payload["unit"]
    if gid in state["hands"][seat]:
        state["hands"][seat].remove(gid)
    state["secrets"][seat].pop(gid, None)
    state["generals"][gid] = {"owner": seat, "where": "map", "unit": uid, "damage": payload.get("damage", 0)}
    state["units"][uid]["general"] = gid


@evolves(
    ev.GENERAL_LEFT_MAP,
    mutates=(
        "units",
        "generals",
        "hands",
        "killed",
    ),
)
def _left(state: State, payload: dict[str, Any]) -> None:
    gid = payload["general"]
    rec = state["generals"][gid]
    uid = rec["unit"]
    if uid is not None and uid in state["units"] and state["units"][uid]["general"] == gid:
        state["units"][uid]["general"] = None
    if payload["to"] == "hand":
        state["generals"][gid] = {"owner": rec["owner"], "where": "hand", "unit": None, "damage": 0}
        state["hands"][rec["owner"]].append(gid)
    else:
        state["generals"][gid] = {
            "owner": rec["owner"],
            "where": "dead",
            "unit": None,
            "damage": rec["damage"],
        }
        state["killed"][payload["killer_side"]].append(gid)
    if state["taunt"] and state["taunt"]["general"] == gid:
        state["taunt"] = None


@evolves(
    ev.EVENT_REVEALED,
    mutates=(
        "deck",
        "revealed",
    ),
)
def _revealed(state: State, payload: dict[str, Any]) -> None:
    d = state["deck"]
    d["drawn"] += 1
    card = payload["card"]
    if card == "reset":
        d["reset_in"] = False
        state["resets"] += 1
    else:
        d["pool"].remove(card)
    state["last_card"] = card
    state["revealed"].append(card)


@evolves(ev.DECK_REBUILT)
def _rebuilt(state: State, payload: dict[str, Any]) -> None:
    state["deck"] = {"size": payload["size"], "drawn": 0, "pool": list(payload["pool"]), "reset_in": True}


@evolves(ev.TIMED_CHANGED)
def _timed(state: State, payload: dict[str, Any]) -> None:
    state["timed"] = [TimedEffect(card=t["card"], left=t["left"]) for t in payload["timed"]]


@evolves(ev.TAUNT_CHANGED)
def _taunt(state: State, payload: dict[str, Any]) -> None:
    t = payload["taunt"]
    state["taunt"] = None if t is None else Taunt(unit=t["unit"], general=t["general"])


@evolves(ev.BATTLE_RESOLVED)
def _battle(state: State, payload: dict[str, Any]) -> None:
    state["last_battle"] = {k: payload[k] for k in ("battle", "attacker_dice", "defender_dice", "result")}


# -- facts of rules version 4 -------------------------------------------------


@evolves(ev.UNIT_FORMED, mutates=("units",))
def _formed(state: State, payload: dict[str, Any]) -> None:
    uid = payload["unit"]
    state["units"][uid] = {
        "owner": payload["owner"],
        "area": payload["area"],
        "troops": payload["troops"],
        "general": None,
    }
    state["next_uid"] = max(state["next_uid"], int(uid[1:]) + 1)


@evolves(ev.UNITS_MOVED, mutates=("units",))
def _moved(state: State, payload: dict[str, Any]) -> None:
    for m in payload["moves"]:
        state["units"][m["unit"]]["area"] = m["to"]


@evolves(ev.TROOPS_CHANGED, mutates=("units",))
def _troops(state: State, payload: dict[str, Any]) -> None:
    state["units"][payload["unit"]]["troops"] = payload["troops"]


@evolves(ev.UNIT_DESTROYED, mutates=("units",))
def _destroyed(state: State, payload: dict[str, Any]) -> None:
    state["units"].pop(payload["unit"], None)


@evolves(ev.GENERAL_WOUNDED, ev.GENERAL_HEALED, mutates=("generals",))
def _damage(state: State, payload: dict[str, Any]) -> None:
    state["generals"][payload["general"]]["damage"] = payload["damage"]


@evolves(
    ev.GENERAL_KILLED,
    mutates=(
        "units",
        "generals",
        "hands",
        "killed",
    ),
)
def _killed(state: State, payload: dict[str, Any]) -> None:
    _left(state, {"general": payload["general"], "to": "dead", "killer_side": payload["killer_side"]})


# -- facts of rules version 4: the decision queue and the turn -------------------


def _stack(state: State) -> dict[str, Any]:
    """The state as the kit's position helpers take it (a TypedDict is no MutableMapping to mypy)."""
    return cast(dict[str, Any], state)


@evolves(ev.DECISION_QUEUED, mutates=("position",))
def _queued(state: State, payload: dict[str, Any]) -> None:
    prompt = dict(payload["prompt"])
    kind = prompt.pop("kind")
    if payload["at"] == "front":
        position.push(_stack(state), kind, **prompt)
    else:  # after every queued prompt, before the stage frame (queue order kept)
        position.enqueue(_stack(state), kind, **prompt)


@evolves(ev.DECISION_TAKEN, mutates=("position",))
def _taken(state: State, payload: dict[str, Any]) -> None:
    position.pop(_stack(state))


@evolves(ev.DECISION_UPDATED, mutates=("position",))
def _updated(state: State, payload: dict[str, Any]) -> None:
    prompt = dict(payload["prompt"])
    position.replace(_stack(state), prompt.pop("kind"), **prompt)


@evolves(ev.TURN_BEGAN, mutates=("position",))
def _turn(state: State, payload: dict[str, Any]) -> None:
    state["position"][0] = position.frame("turn", turn=payload["seat"], step="wheel")
    state["act"] = {}


@evolves(ev.ACTION_CHOSEN, mutates=("position",))
def _chosen(state: State, payload: dict[str, Any]) -> None:
    stage(state)["step"] = "begin"
    stage(state)["action"] = payload["action"]


@evolves(ev.ACTION_STARTED, mutates=("position",))
def _started(state: State, payload: dict[str, Any]) -> None:
    stage(state)["step"] = "act"
    state["act"] = {}


@evolves(ev.ACTION_ENDED, mutates=("position",))
def _action_ended(state: State, payload: dict[str, Any]) -> None:
    stage(state)["step"] = "closing"


@evolves(ev.FINAL_TURN, mutates=("position",))
def _final_turn(state: State, payload: dict[str, Any]) -> None:
    stage(state)["ending"] = True


@evolves(ev.BATTLE_DECLARED, mutates=("act",))
def _declared(state: State, payload: dict[str, Any]) -> None:
    b = payload["battle"]
    act = state["act"]
    act["battles"] = act.get("battles", []) + [b]
    act["used"] = act.get("used", []) + [b["main"], *b["supports"]]


@evolves(ev.DISCORD_DECLARED, mutates=("act",))
def _discord(state: State, payload: dict[str, Any]) -> None:
    act = state["act"]
    act["immune"] = act.get("immune", []) + [payload["defender"]]
    act["used"] = act.get("used", []) + [payload["unit"]]


@evolves(ev.SECOND_ATTACK_DECLARED, mutates=("act",))
def _second(state: State, payload: dict[str, Any]) -> None:
    state["act"]["fukushima_used"] = True


@evolves(ev.KOBAYAKAWA_CHOSE, mutates=("act",))
def _kobayakawa(state: State, payload: dict[str, Any]) -> None:
    state["act"]["kobayakawa"] = payload["option"]


@evolves(ev.BATTLE_STARTED, mutates=("act",))
def _battle_started(state: State, payload: dict[str, Any]) -> None:
    battles = [dict(b) for b in state["act"]["battles"]]
    battles[payload["battle"]]["done"] = True
    state["act"]["battles"] = battles


@evolves(ev.UNIT_MARKED_MOVED, mutates=("act",))
def _marked_moved(state: State, payload: dict[str, Any]) -> None:
    act = state["act"]
    act["moved"] = act.get("moved", []) + [payload["unit"]]
    act["li_fight"] = act.get("li_fight", []) + ([payload["unit"]] if payload["may_fight"] else [])


@evolves(ev.ACTION_NOTED, mutates=("act",))
def _noted(state: State, payload: dict[str, Any]) -> None:
    state["act"].update(payload["changes"])


@evolves(ev.GAME_ENDED)
def _ended(state: State, payload: dict[str, Any]) -> None:
    state["result"] = {
        "winners": list(payload["winners"]),
        "reason": payload["reason"],
        "scores": dict(payload["scores"]),
    }


def evolve(state: State, event: Event) -> State:
    """Copy what the event changes, then apply; round-tripped payloads (lists for
    tuples) are fine here. An unknown event type raises `UnknownEvent`."""
    return evolves.evolve(state, event)


def fold_in_place(state: State, event: Event) -> State:
    """decide's scratch fold: the scratch state is its own, so no copy is needed."""
    evolves.apply_in_place(state, event)
    return state
