"""The 18 event cards (§7) and the secret deck.

The deck is drawn lazily: the next card is drawn at random when it is revealed,
from the cards that could still be there (the 7 (4p: 9) of 17 taken into the deck
are never seen until drawn, so drawing uniformly from the unseen ones has exactly
the physical deck's distribution), and the Reset card is drawn at a bottom-three
position with probability 1/remaining. Nobody, not even the server state, knows
the order in advance, so it cannot leak.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.rules.base import IllegalCommand

from . import commands, data
from . import events as ev
from .context import Ctx
from .generals import damage, deploy, heal, leave, management_blocked, side_generals_on_map
from .state import State, head_prompt, hp_left, income, other, rules_version, stage, team_chooser
from .supply import deploy_targets

TIMED_LIFE = 2  # "until the card after next is revealed"


def sides_from_turn(state: State) -> list[str]:
    first = state["side"][stage(state)["turn"]]
    return [first, other(first)]


def seats_from_turn(state: State) -> list[int]:
    order = state["order"]
    i = order.index(stage(state)["turn"])
    return order[i:] + order[:i]


def draw(ctx: Ctx) -> str:
    d = ctx.state["deck"]
    remaining = d["size"] - d["drawn"]
    r = ctx.factory(f"event-draw:{ctx.state['resets']}:{d['drawn']}")
    window = data.rules()["deck"]["reset_window"]
    if d["reset_in"] and remaining <= window and r.randbelow(remaining) == 0:
        return "reset"
    return d["pool"][r.randbelow(len(d["pool"]))]


def reveal(ctx: Ctx) -> None:
    s = ctx.state
    card = draw(ctx)
    ctx.emit(
        ev.EVENT_REVEALED, {"card": card, "position": s["deck"]["drawn"] + 1, "zh": data.events()[card]["zh"]}
    )
    timed = [{"card": t["card"], "left": t["left"] - 1} for t in s["timed"] if t["left"] > 1]
    if data.events()[card]["timed"]:
        timed.append({"card": card, "left": TIMED_LIFE})
    if timed != s["timed"]:
        ctx.emit(ev.TIMED_CHANGED, {"timed": timed})
    START[card](ctx)


# ---------------------------------------------------------------------------
# Instant supply cards and their 4p split.


def side_supply(ctx: Ctx, side: str, amount: int, reason: str) -> None:
    s = ctx.state
    if amount == 0:
        return
    if s["n"] == 2:
        seat = next(x for x in s["order"] if s["side"][x] == side)
        ctx.supply(seat, amount, reason)
        return
    ctx.push(
        {
            "kind": "split",
            "seat": team_chooser(s, side),
            "total": abs(amount),
            "sign": 1 if amount > 0 else -1,
            "min_mine": 0,
            "reason": reason,
        },
        front=False,
    )


def _supply_card(side: str, amount: int) -> Callable[[Ctx], None]:
    return lambda ctx: side_supply(ctx, side, amount, "event")


def _harvest(ctx: Ctx) -> None:
    for side in sides_from_turn(ctx.state):
        side_supply(ctx, side, income(ctx.state, side), "bumper_harvest")


def _nothing(ctx: Ctx) -> None:
    """Timed cards act through the timed list only."""


def _choose(card: str) -> Callable[[Ctx], None]:
    def start(ctx: Ctx) -> None:
        for side in sides_from_turn(ctx.state):
            ctx.push(
                {"kind": "choose_general", "seat": team_chooser(ctx.state, side), "side": side, "card": card},
                front=False,
            )

    return start


def _reinforcements(ctx: Ctx) -> None:
    s = ctx.state
    if s["n"] == 2:
        for side in sides_from_turn(s):
            ctx.push(
                {
                    "kind": "recruit",
                    "seat": team_chooser(s, side),
                    "mode": "event",
                    "max_areas": 2,
                    "count": 0,
                    "areas": {},
                },
                front=False,
            )
        return
    for seat in seats_from_turn(s):
        ctx.push(
            {
                "kind": "recruit",
                "seat": seat,
                "mode": "event",
                "max_areas": 1,
                "count": 0,
                "areas": {},
                "team_distinct": True,
            },
            front=False,
        )


def _great(ctx: Ctx) -> None:
    for seat in seats_from_turn(ctx.state):
        ctx.push(
            {"kind": "recruit", "seat": seat, "mode": "event", "max_areas": None, "count": 0, "areas": {}},
            front=False,
        )


def _redeploy(ctx: Ctx) -> None:
    for seat in seats_from_turn(ctx.state):
        ctx.push({"kind": "move", "seat": seat, "mode": "redeploy", "budget": 8, "moved": []}, front=False)


def _plague(ctx: Ctx) -> None:
    s = ctx.state
    for uid in sorted(s["units"], key=lambda uid: int(uid[1:])):
        d = s["units"][uid]
        if data.is_land(d["area"]) and d["troops"] > 3:
            ctx.troops(uid, 3, "plague")


def _reset(ctx: Ctx) -> None:
    """Step 1: each side may deploy one general for 5. At 4p hands are private, so each
    team-mate decides about his own hand only (he plays it, onto his own unit, and
    pays): the team's first seat (the turn player, else the side's next seat) may
    deploy or pass; if he passes, his team-mate may. One deploy per side."""
    s = ctx.state
    for side in sides_from_turn(s):
        first = team_chooser(s, side)
        order = seats_from_turn(s)
        rest = [
            x
            for x in order[order.index(first) :] + order[: order.index(first)]
            if s["side"][x] == side and x != first
        ]
        ctx.push({"kind": "reset_deploy", "seat": first, "side": side, "then": rest}, front=False)
    ctx.push({"kind": "auto", "what": "reset_after"}, front=False)


def reset_after(ctx: Ctx) -> None:
    s = ctx.state
    if s["resets"] >= data.rules()["deck"]["end_on_reset_draw"]:
        ctx.step(ev.FINAL_TURN, stage(s)["step"], ending=True)  # the turn is finished first
        return
    pool = sorted(e for e in data.events() if e != "reset")
    ctx.emit(ev.DECK_REBUILT, {"size": s["deck"]["size"], "pool": pool})
    reveal(ctx)


START = {
    "court_granary": _supply_card("allies", 5),
    "crop_blight": _supply_card("allies", -5),
    "military_farms": _supply_card("japan", 5),
    "fleet_wreck": _supply_card("japan", -5),
    "rumours": _choose("rumours"),
    "peace_talks": _nothing,
    "draft_dodging": _nothing,
    "torrential_rain": _nothing,
    "bumper_harvest": _harvest,
    "reinforcements": _reinforcements,
    "great_reinforcements": _great,
    "assassination": _choose("assassination"),
    "army_surgeon": _choose("army_surgeon"),
    "typhoon": _nothing,
    "redeployment": _redeploy,
    "plague": _plague,
    "infighting": _nothing,
    "reset": _reset,
}


# ---------------------------------------------------------------------------
# Choosing a general (流言 / 暗殺 / 軍醫): mandatory when one qualifies (A-54, R #19).


def choose_options(state: State, prompt: dict[str, Any]) -> list[str]:
    side, card = prompt["side"], prompt["card"]
    if card == "army_surgeon":
        return [g for g in side_generals_on_map(state, side) if state["generals"][g]["damage"] > 0]
    enemy = side_generals_on_map(state, other(side))
    if card == "assassination":
        return [g for g in enemy if hp_left(state, g) > 1]
    return enemy


def decide_choose(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    prompt = head_prompt(ctx.state)
    gid = commands.general(cmd)
    if gid not in choose_options(ctx.state, prompt):
        raise IllegalCommand("that general cannot be chosen for this card")
    ctx.pop()
    if prompt["card"] == "rumours":
        leave(ctx, gid, "hand")
    elif prompt["card"] == "assassination":
        damage(ctx, gid, 1, prompt["side"])
    else:
        heal(ctx, gid, 1)


# ---------------------------------------------------------------------------
# 4p split of a side's supply between the team-mates.


def split_amount(state: State, prompt: dict[str, Any]) -> tuple[int, int, int]:
    """(amount, least, most) the chooser may keep/bear. Rules version 3: the side
    gains or loses the whole amount (「朝明勢力-5補給」: 5, or all it has if less;
    a gain stops only when both stocks reach the track's end), split freely (I-16);
    each share fits its player's stock, so no share is floored away. Version 2: any
    share of the nominal amount, each stock clamped on its own."""
    total = prompt["total"]
    if rules_version(state) < 3:
        return total, prompt["min_mine"], total
    seat = prompt["seat"]
    mate = team_mate(state, seat)
    top = data.rules()["supply"]["max"]

    def room(seat: int) -> int:
        return state["supply"][seat] if prompt["sign"] < 0 else top - state["supply"][seat]

    amount = min(total, room(seat) + room(mate))
    most = min(amount, room(seat))
    least = min(most, max(prompt["min_mine"], amount - room(mate)))
    return amount, least, most


def team_mate(state: State, seat: int) -> int:
    return next(x for x in state["order"] if state["side"][x] == state["side"][seat] and x != seat)


def split_legal(state: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    _, least, most = split_amount(state, prompt)
    return [{"type": "split", "mine": k} for k in range(least, most + 1)]


def decide_split(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    prompt = head_prompt(s)
    mine = commands.integer(cmd, "mine")
    amount, least, most = split_amount(s, prompt)
    if not least <= mine <= most:
        raise IllegalCommand(f"keep (or bear) between {least} and {most} of {amount}")
    ctx.pop()
    mate = team_mate(s, seat)
    ctx.supply(seat, prompt["sign"] * mine, prompt["reason"])
    ctx.supply(mate, prompt["sign"] * (amount - mine), prompt["reason"])


def reset_deploy_options(state: State, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    """Only the deciding seat's own hand, onto his own units, paid by him (4p team-mates'
    hands are private: a seat never sees or plays its team-mate's cards)."""
    out: list[dict[str, Any]] = [{"type": "pass"}]
    seat = prompt["seat"]
    if management_blocked(state) or state["supply"][seat] < data.rules()["costs"]["deploy"]:
        return out
    for gid, uid in deploy_targets(state, seat, set(), set()):
        out.append({"type": "deploy", "general": gid, "unit": uid})
    return out


def decide_reset_deploy(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    prompt = dict(head_prompt(s))
    if cmd["type"] == "pass":
        rest = list(prompt.get("then", []))
        if rest:  # the team-mate may deploy from his own hand instead
            prompt["seat"], prompt["then"] = rest[0], rest[1:]
            ctx.set_head(prompt)
        else:
            ctx.pop()
        return
    c: dict[str, Any] = {"type": "deploy", "general": commands.general(cmd), "unit": commands.unit(cmd)}
    if c not in reset_deploy_options(s, prompt):
        raise IllegalCommand(
            "that general cannot be deployed now (your own hand, your own unit "
            "without a general, 5 supply; not under 內鬥)"
        )
    ctx.pop()  # one general per side
    deploy(ctx, seat, c["general"], c["unit"], data.rules()["costs"]["deploy"], "reset")
