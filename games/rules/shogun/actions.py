"""Executing the 10 actions (reference section 7, Appendix R #10 #12 #16 #24).

Actions run in action-card order; for each, every player in turn order reveals his card on
that space. A province card he still holds (and did not lose this season) lets him execute
the action there - or decline it (Appendix R #12). Anything else is a blank.
Decisions: ``execute`` / ``decline`` for builds, collections and recruits; Recruit 1 + move
is two optional parts (recruit, then ``move``); Attack/Move A and B take
``{"type": "move", "to": province, "armies": k}`` (own target: move; else battle).
Options: `forced_execution` (R #12) takes ``decline`` away wherever the step can be carried
out (builds, collections and recruits then run by themselves); `recruit1: mandatory`
([imr], R #10) allows the move of Recruit 1 + move only after its recruit.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand

from . import data, revolts
from . import events as ev
from . import state as shogun_state
from .base_reveal import reveal_space
from .battle import fight
from .context import Ctx
from .court import calms
from .options import option
from .state import State
from .tower_secret import publish


def actor(state: State) -> tuple[int, str, str] | None:
    """(seat, action, sub-step) of the player who must decide now, else None."""
    if shogun_state.phase_of(state) != "actions":
        return None
    r = shogun_state.round_of(state)
    cur = r["cur"]
    sub = cur["sub"]
    if cur["i"] >= 10 or cur["j"] >= len(r["order"]) or sub is None or sub == "end":
        return None
    return r["order"][cur["j"]], r["actions"][cur["i"]], sub


def recruit_size(state: State, seat: int, action: str) -> int:
    """Armies of a recruit: shortage event first, the Recruit-6 special last (R #23)."""
    a = data.ACTIONS[action]
    n = a["armies"]
    if shogun_state.event(state).get("effect") == "shortage":
        n = shogun_state.event(state).get(action, n)
    return int(shogun_state.special(state, seat).get(f"{action}_armies", n))


def can_recruit(state: State, seat: int, action: str) -> bool:
    return state["players"][seat]["money"] >= data.ACTIONS[action]["cost"] and shogun_state.supply(
        state, seat
    ) >= recruit_size(state, seat, action)


def move_targets(state: State, seat: int, action: str, prov: str) -> list[str]:
    """Where armies of `prov` may go with this action (origin keeps >= 1 army)."""
    if state["provinces"][prov]["armies"] < 2:
        return []
    out = []
    for t in data.ADJ[prov]:
        p = state["provinces"].get(t)
        if p is None:  # not in play (3 players)
            continue
        if action == "recruit1":
            if p["owner"] == seat:
                out.append(t)
        elif not shogun_state.protected(state, seat, t, data.ACTIONS[action]["letter"]):
            out.append(t)
    return out


def first_step(state: State, seat: int, action: str, card: str | None) -> tuple[str, str]:
    """The sub-step a revealed card leads to, and why not ("end") when it is blank."""
    if card is None or not data.is_province(card):
        return "end", "blank"
    p = state["provinces"].get(card)
    if p is None or p["owner"] != seat or shogun_state.card_lost(state, seat, card):
        return "end", "province lost"
    a = data.ACTIONS[action]
    if "build" in a:
        ok = (
            shogun_state.can_build(state, seat, card, a["build"])
            and state["players"][seat]["money"] >= a["cost"]
        )
        return ("execute", "") if ok else ("end", "cannot build")
    if "collect" in a:
        return "execute", ""
    if action in ("recruit5", "recruit3"):
        return ("execute", "") if can_recruit(state, seat, action) else ("end", "cannot recruit")
    if action == "recruit1":
        if can_recruit(state, seat, action):
            return "recruit", ""
        if option(state, "recruit1") == "mandatory":  # [imr]: no move without the recruit
            return "end", "cannot recruit"
        return ("move", "") if move_targets(state, seat, action, card) else ("end", "cannot act")
    return ("attack", "") if move_targets(state, seat, action, card) else ("end", "cannot move")


def auto(ctx: Ctx) -> bool:
    s = ctx.state
    r = shogun_state.round_of(s)
    cur = r["cur"]
    if cur["i"] >= 10:
        ctx.emit(ev.SEASON_ENDED, {"year": s["year"], "season": s["season"]})
        return True
    action = r["actions"][cur["i"]]
    if cur["j"] >= len(r["order"]):
        nxt = ctx.stream("action-card").choice(r["pool"]) if r["pool"] else None
        ctx.emit(ev.ACTION_COMPLETED, {"action": action, "next": nxt})
        return True
    seat = r["order"][cur["j"]]
    if cur["sub"] is None:
        card = shogun_state.plan_card(s, seat, action)
        nxt, why = first_step(s, seat, action, card)
        ctx.emit(
            ev.SPACE_REVEALED,
            {
                "seat": seat,
                "space": action,
                "card": card,
                "next": nxt,
                "reason": why,
                "reveals": reveal_space(s, seat, action),
            },
        )
        return True
    if cur["sub"] == "end" or (
        cur["sub"] == "move"
        and not move_targets(s, seat, "recruit1", shogun_state.planned_province(s, seat, action))
    ):
        ctx.emit(ev.ACTION_TURN_ENDED, {"seat": seat, "space": action})
        return True
    if cur["sub"] in ("execute", "recruit") and option(s, "forced_execution"):
        execute(ctx, seat, action)  # nothing left to choose (R #12 option)
        return True
    return False


def forced(state: State, sub: str) -> bool:
    """May this step not be declined? With `forced_execution` (R #12 option) a build,
    collection, recruit or attack/move that can be executed must be; the move after
    Recruit 1 stays optional (R #10: the card's second part is a "may")."""
    return sub in ("execute", "recruit", "attack") and bool(option(state, "forced_execution"))


# --- decisions --------------------------------------------------------------------------


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    a = actor(state)
    if a is None or a[0] != seat:
        return []
    _, action, sub = a
    decline = [] if forced(state, sub) else [{"type": "decline"}]
    if sub in ("execute", "recruit"):
        return [{"type": "execute"}, *decline]
    prov = shogun_state.planned_province(state, seat, action)
    armies = state["provinces"][prov]["armies"]
    moves = [
        {"type": "move", "to": t, "armies": k}
        for t in move_targets(state, seat, action if sub == "attack" else "recruit1", prov)
        for k in range(1, armies)
    ]
    return moves + decline


def _need(state: State, seat: int, subs: tuple[str, ...]) -> tuple[str, str]:
    a = actor(state)
    if a is None or a[0] != seat:
        raise IllegalCommand("you have no action to execute now")
    if a[2] not in subs:
        raise IllegalCommand(
            f"this step expects: {'move or decline' if a[2] in ('move', 'attack') else 'execute or decline'}"
        )
    return a[1], a[2]


def decide_decline(ctx: Ctx, seat: int) -> None:
    a = actor(ctx.state)
    if a is None or a[0] != seat:
        raise IllegalCommand("you have no action to execute now")
    if forced(ctx.state, a[2]):
        raise IllegalCommand("a revealed action that can be executed must be (forced execution)")
    ctx.emit(ev.ACTION_DECLINED, {"seat": seat, "space": a[1], "part": a[2]})


def decide_execute(ctx: Ctx, seat: int) -> None:
    action, _ = _need(ctx.state, seat, ("execute", "recruit"))
    execute(ctx, seat, action)


def execute(ctx: Ctx, seat: int, action: str) -> None:
    """Carry out a build, collection or recruit on the seat's planned province."""
    s = ctx.state
    prov = shogun_state.planned_province(s, seat, action)
    a = data.ACTIONS[action]
    if "build" in a:
        ctx.emit(
            ev.BUILT,
            {
                "seat": seat,
                "province": prov,
                "building": a["build"],
                "cost": a["cost"],
                "calmed": calms(s, prov, a["build"]),
            },
        )
    elif "collect" in a:
        revolts.collect(ctx, seat, prov, a["collect"])
    else:
        ctx.emit(
            ev.RECRUITED,
            {
                "seat": seat,
                "province": prov,
                "space": action,
                "armies": recruit_size(s, seat, action),
                "cost": a["cost"],
            },
        )


def decide_move(ctx: Ctx, seat: int, to: str, armies: int) -> None:
    s = ctx.state
    action, sub = _need(s, seat, ("move", "attack"))
    prov = shogun_state.planned_province(s, seat, action)
    if to not in move_targets(s, seat, action if sub == "attack" else "recruit1", prov):
        raise IllegalCommand(f"armies of {prov} cannot go to {to} with this action")
    if not 1 <= armies < s["provinces"][prov]["armies"]:
        raise IllegalCommand("move at least 1 army and leave at least 1 behind")
    owner = s["provinces"][to]["owner"]
    if owner == seat:
        ctx.emit(ev.ARMIES_MOVED, {"seat": seat, "from": prov, "to": to, "armies": armies})
        return
    kind = "neutral" if owner is None else "attack"
    battle = fight(
        s, ctx.stream("tower"), kind, to, attacker=seat, origin=prov, moving=armies, version=ctx.version
    )
    ctx.emit(ev.BATTLE_FOUGHT, publish(ctx, battle))
