"""Turn sequencing: after every command, `settle` runs the automatic steps
(action start/end effects, queued automatic items, next turn) until some seat
must decide or the game is over; `DECISIONS` (at the end) declares every
decision a seat can be asked for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.rules.base import IllegalCommand
from games.rules.kit import Command, Context, Decision
from games.rules.kit.decisions import DecideRole, LegalRole

from . import (
    battle,
    commands,
    data,
    event_cards,
    movement,
    recruit,
    resolution,
    setup,
    supply,
    victory,
    wheel,
)
from . import events as ev
from .context import Ctx
from .generals import damage, owner_on_map
from .state import (
    State,
    adjacent,
    head_prompt,
    hp_left,
    prompts,
    reserve,
    stage,
    timed_active,
    troop_cap,
    unit_of,
)

KUKI, YU, YI_EOK, NONGAE = "kuki_yoshitaka", "yu_seongryong", "yi_eokgi", "nongae"
KOBAYAKAWA = "kobayakawa_takakage"


def settle(ctx: Ctx) -> None:
    for _ in range(500):
        if victory.check_instant(ctx):
            return
        more = _queued_step(ctx) if prompts(ctx.state) else _turn_step(ctx)
        if not more:
            return
    raise AssertionError("settle did not converge")


def _queued_step(ctx: Ctx) -> bool:
    """Run the automatic item at the head of the queue (False: a seat must decide)."""
    s = ctx.state
    head = head_prompt(s)
    if head["kind"] == "choose_general" and not event_cards.choose_options(s, head):
        ctx.pop()  # nobody qualifies: that side's part has no effect (R #19)
        return True
    if head["kind"] != "auto":
        return False
    item = ctx.pop()
    AUTO[item["what"]](ctx, item)
    return True


def _turn_step(ctx: Ctx) -> bool:
    """Move the turn on by one step (False: the game is not in a turn, or the
    player must advance the wheel)."""
    f = stage(ctx.state)
    if f["kind"] != "turn":
        return False
    step = f["step"]
    if step == "wheel":
        ctx.push({"kind": "advance_wheel", "seat": f["turn"]})
        return False
    if step == "begin":
        if ctx.facts():
            ctx.emit(ev.ACTION_STARTED, {"seat": f["turn"], "action": f["action"]})
        else:
            ctx.set_flow(step="act")
            ctx.flow(act={})
        BEGIN[f["action"]](ctx, f["turn"])
    elif step == "act":
        ctx.step(ev.ACTION_ENDED, "closing")
        if f["action"] == "move_battle":
            end_move_battle(ctx, f["turn"])
    else:
        end_turn(ctx)
    return True


def end_turn(ctx: Ctx) -> None:
    s = ctx.state
    f = stage(s)
    if f.get("ending"):
        winner, reason = victory.final(s)
        victory.end(ctx, winner, reason)
        return
    order = s["order"]
    nxt = order[(order.index(f["turn"]) + 1) % len(order)]
    ctx.begin_turn(nxt)


# ---------------------------------------------------------------------------
# Move/Battle action: start (九鬼, forced taunt attack), steps, end (柳成龍, 李億祺).


def begin_move_battle(ctx: Ctx, seat: int) -> None:
    ctx.push({"kind": "auto", "what": "kuki"}, front=False)
    ctx.push({"kind": "auto", "what": "taunt_check"}, front=False)
    ctx.push({"kind": "auto", "what": "kobayakawa_check"}, front=False)
    ctx.push({"kind": "auto", "what": "move_step"}, front=False)
    ctx.push({"kind": "declare", "seat": seat, "draft": None}, front=False)


def _kuki(ctx: Ctx, item: dict[str, Any]) -> None:
    s = ctx.state
    seat = stage(s)["turn"]
    if owner_on_map(s, seat, KUKI):
        uid = unit_of(s, KUKI)
        if not data.is_land(s["units"][uid]["area"]):
            ctx.supply(seat, 5, "kuki")


def forced_taunt(state: State) -> dict[str, Any] | None:
    """論介's taunt: the taunted unit must attack her unit first, if it can and the
    attack is affordable and legal (A-41, R #5, R #22)."""
    t = state["taunt"]
    seat = stage(state)["turn"]
    if t is None or not owner_on_map(state, seat, t["general"]) or not owner_on_map_any(state, NONGAE):
        return None
    uid = t["unit"]
    her = unit_of(state, NONGAE)
    if uid not in state["units"] or state["units"][uid]["general"] != t["general"]:
        return None
    if timed_active(state, "peace_talks") or not adjacent(
        state["units"][uid]["area"], state["units"][her]["area"]
    ):
        return None
    if timed_active(state, "typhoon") and not data.is_land(state["units"][uid]["area"]):
        return None
    if state["units"][uid]["troops"] * battle.mult(state) > state["supply"][seat]:
        return None
    return {"target": her, "main": uid, "via": None, "mode": "normal", "supports": [], "forced": True}


def owner_on_map_any(state: State, gid: str) -> bool:
    rec = state["generals"].get(gid)
    return rec is not None and rec["where"] == "map"


def _taunt_check(ctx: Ctx, item: dict[str, Any]) -> None:
    draft = forced_taunt(ctx.state)
    if draft is not None:
        ctx.push({"kind": "declare", "seat": stage(ctx.state)["turn"], "draft": draft, "forced": True})


def _kobayakawa_check(ctx: Ctx, item: dict[str, Any]) -> None:
    """小早川隆景 (移動戰鬥時可選擇): his controller picks option 1 (normal; his side's
    徽 heal him) or option 2 (內訌 instead of his unit's attack) for this Move/Battle
    action, after the forced taunt attack (which precedes 移動戰鬥) and before moving.
    Not asked when nothing could come of option 2 (和談, or his unit already fought)."""
    s = ctx.state
    seat = stage(s)["turn"]
    if not owner_on_map(s, seat, KOBAYAKAWA) or battle.peace(s):
        return
    uid = s["generals"][KOBAYAKAWA]["unit"]
    if uid in s["act"].get("used", []):
        return
    ctx.push({"kind": "kobayakawa", "seat": seat, "unit": uid})


def decide_kobayakawa(ctx: Ctx, seat: int, option: int) -> None:
    ctx.pop()
    if ctx.facts():
        ctx.emit(ev.KOBAYAKAWA_CHOSE, {"seat": seat, "option": option})
    else:
        ctx.set_act(kobayakawa=option)


def _move_step(ctx: Ctx, item: dict[str, Any]) -> None:
    seat = stage(ctx.state)["turn"]
    if ctx.facts():  # the move prompt goes before the declare prompt
        movement.begin(ctx, seat, front=True)
        return
    movement.begin(ctx, seat)
    # begin appends the move prompt at the end; bring it before the declare prompt
    q = prompts(ctx.state)
    move = q.pop()
    ctx.flow(queue=[move] + q)


def end_move_battle(ctx: Ctx, seat: int) -> None:
    s = ctx.state
    if owner_on_map(s, seat, YU):
        ctx.supply(seat, 5, "yu_seongryong")
    if owner_on_map(s, seat, YI_EOK):
        uid = unit_of(s, YI_EOK)
        if (
            not data.is_land(s["units"][uid]["area"])
            and hp_left(s, YI_EOK) >= 2
            and s["units"][uid]["troops"] < troop_cap(s, uid)
            and reserve(s, s["side"][seat]) > 0
        ):
            ctx.push({"kind": "sacrifice", "seat": seat, "unit": uid})


def decide_sacrifice(ctx: Ctx, seat: int, go: bool) -> None:
    s = ctx.state
    prompt = ctx.pop()
    if not go:
        return
    uid = prompt["unit"]
    damage(ctx, YI_EOK, 1, "japan")
    add = min(2, troop_cap(s, uid) - s["units"][uid]["troops"], reserve(s, s["side"][seat]))
    ctx.troops(uid, s["units"][uid]["troops"] + add, "yi_eokgi")


BEGIN = {
    "supply_general": supply.begin,
    "recruit_reorganize": recruit.begin,
    "move_battle": begin_move_battle,
}

AUTO = {
    "kuki": _kuki,
    "taunt_check": _taunt_check,
    "kobayakawa_check": _kobayakawa_check,
    "move_step": _move_step,
    "reset_after": lambda ctx, item: event_cards.reset_after(ctx),
    "offer_advance": resolution.offer_advance,
    "offer_taunt": resolution.offer_taunt,
    "offer_second": resolution.offer_second,
}


# ---------------------------------------------------------------------------
# The decision table. Every decision is a prompt frame on top of the position
# (`kit.position`, above the stage frame); the kit's four typed roles read it:
# pending(state) -> seats; legal(state, seat) -> commands; decide(context, seat,
# command); default(state, seat), one for every kind (the rules-faithful "do
# nothing" among the legal ones).

Prompt = dict[str, Any]
Legal = Callable[[State, Prompt], list[Command]]
Decide = Callable[[Ctx, int, Command], None]


def _one_seat(state: State) -> list[int]:
    return [head_prompt(state)["seat"]]


def _asked(legal: Legal) -> LegalRole[State]:
    """A `legal` role from one that only needs the prompt (it names the one seat asked)."""
    return lambda state, seat: legal(state, head_prompt(state))


def _on_ctx(decide: Decide) -> DecideRole[State]:
    """A `decide` role from one that uses Imjin's shorthands (`Ctx`, the kit's `Context`
    with Imjin's facts): `rules.decide` always hands it an Imjin `Ctx`."""

    def role(context: Context[State], seat: int, command: Command) -> None:
        assert isinstance(context, Ctx), "Imjin decides through its own Ctx"
        decide(context, seat, command)

    return role


def _gwak_legal(state: State, prompt: Prompt) -> list[Command]:
    out = movement.legal(state, prompt)
    uid = prompt["unit"]
    if uid in state["units"] and not battle.peace(state):
        here = state["units"][uid]["area"]
        for target in battle.targets(state, prompt["seat"]):
            if state["units"][target]["area"] in data.adjacency()[here]:
                out.append({"type": "attack", "target": target, "main": uid, "via": None, "mode": "normal"})
    return out


def _gwak_decide(ctx: Ctx, seat: int, cmd: Command) -> None:
    s = ctx.state
    p = head_prompt(s)
    if cmd["type"] != "attack":
        movement.decide(ctx, seat, cmd)
        return
    c = {
        "type": "attack",
        "target": commands.unit(cmd, "target"),
        "main": commands.unit(cmd, "main"),
        "via": commands.area(cmd, "via", optional=True),
        "mode": commands.text(cmd, "mode"),
    }
    if c not in _gwak_legal(s, p):
        raise IllegalCommand("郭再佑's unit may attack only an adjacent enemy unit, without supports")
    ctx.pop()
    battle.add_battle(ctx, {"target": c["target"], "main": c["main"], "supports": []}, "normal")
    resolution.start(ctx, ctx.state["act"]["battles"][-1])


def _sacrifice(ctx: Ctx, seat: int, cmd: Command) -> None:
    decide_sacrifice(ctx, seat, commands.boolean(cmd, "go"))


def _kobayakawa(ctx: Ctx, seat: int, cmd: Command) -> None:
    option = commands.integer(cmd, "option")
    if option not in (1, 2):
        raise IllegalCommand("小早川隆景: option 1 (normal, crest heals him) or 2 (內訌)")
    decide_kobayakawa(ctx, seat, option)


def _yes_no(answer: str, decide: Decide) -> Decision[State]:
    return Decision(
        pending=_one_seat,
        legal=lambda state, seat: resolution.yes_no(answer),
        decide=_on_ctx(decide),
        default=default,
        commands=frozenset({answer}),
    )


def _listed(legal: Legal, decide: Decide, *types: str) -> Decision[State]:
    return Decision(
        pending=_one_seat,
        legal=_asked(legal),
        decide=_on_ctx(decide),
        default=default,
        commands=frozenset(types),
    )


def _pickers(state: State) -> list[int]:
    return list(head_prompt(state)["seats"])


def _pick_legal(state: State, seat: int) -> list[Command]:
    return [{"type": "pick_general", "general": general} for general in setup.pick_options(state, seat)]


def _legendary_legal(state: State, prompt: Prompt) -> list[Command]:
    options = setup.legendary_options(state, prompt["seat"])
    return [{"type": "choose_legendary", "general": general} for general in options]


def _place_legal(state: State, prompt: Prompt) -> list[Command]:
    options = setup.place_options(state, prompt["seat"])
    return [{"type": "place_general", "general": general, "unit": unit} for general, unit in options]


def _choose_legal(state: State, prompt: Prompt) -> list[Command]:
    options = event_cards.choose_options(state, prompt)
    return [{"type": "choose_general", "general": general} for general in options]


def _kobayakawa_legal(state: State, prompt: Prompt) -> list[Command]:
    return [{"type": "kobayakawa", "option": 1}, {"type": "kobayakawa", "option": 2}]


def _wheel_legal(state: State, prompt: Prompt) -> list[Command]:
    return wheel.legal(state, prompt["seat"])


def head(state: State) -> Prompt | None:
    """The decision asked now (None: nothing to decide, or the game is over)."""
    if state.get("stage") != "play" or state.get("result") is not None or not prompts(state):
        return None
    return head_prompt(state)


def pending_seats(state: State) -> list[int]:
    """The seats asked now (none when nothing is to decide, nor in the middle of a
    batch, where an automatic item can be at the head of the queue)."""
    prompt = head(state)
    decision = None if prompt is None else DECISIONS.get(prompt["kind"])
    return [] if decision is None else decision.pending(state)


def legal(state: State, seat: int) -> list[Command]:
    """What `seat` may do now (nothing when it is not asked)."""
    if seat not in pending_seats(state):
        return []
    return DECISIONS[head_prompt(state)["kind"]].legal(state, seat)


_NOTHING: list[Command] = [
    {"type": "done"},
    {"type": "pass"},
    {"type": "fight"},
    {"type": "reroll", "dice": []},
    {"type": "choose_legendary", "general": None},
]


def default(state: State, seat: int) -> Command | None:
    """The rules-faithful "do nothing": done/pass/decline/no reroll; keep all of a
    split; mandatory choices (picks, placements, 流言/暗殺/軍醫, resolve order,
    forced taunt) take the first listed option; the wheel moves 1 step. None when
    `seat` is not asked."""
    listed = legal(state, seat)
    if not listed:
        return None
    for nothing in _NOTHING:
        if nothing in listed:
            return nothing
    for command in listed:
        if (
            command["type"] in ("second_attack", "taunt", "advance_into", "sacrifice", "splash")
            and command["go"] is False
        ):
            return command
        if command["type"] == "cancel" or command["type"] == "confirm" and head_prompt(state).get("forced"):
            return command
    if head_prompt(state)["kind"] == "split":
        return listed[-1]  # keep (or bear) all that may be
    return listed[0]


DECISIONS: dict[str, Decision[State]] = {
    "pick_generals": Decision(
        pending=_pickers,
        legal=_pick_legal,
        decide=_on_ctx(setup.decide_pick),
        default=default,
        commands=frozenset({"pick_general"}),
    ),
    "choose_legendary": _listed(_legendary_legal, setup.decide_legendary, "choose_legendary"),
    "place_general": _listed(_place_legal, setup.decide_place, "place_general"),
    "advance_wheel": _listed(_wheel_legal, wheel.decide, "advance"),
    "split": _listed(event_cards.split_legal, event_cards.decide_split, "split"),
    "choose_general": _listed(_choose_legal, event_cards.decide_choose, "choose_general"),
    "reset_deploy": _listed(
        event_cards.reset_deploy_options, event_cards.decide_reset_deploy, "deploy", "pass"
    ),
    "manage": _listed(supply.legal, supply.decide, "deploy", "deploy_gwak", "replace", "recall", "done"),
    "gwak_action": _listed(_gwak_legal, _gwak_decide, "move", "attack", "done"),
    "recruit": _listed(recruit.legal, recruit.decide, "recruit", "done"),
    "reorganize": _listed(recruit.reorganize_legal, recruit.reorganize_decide, "reorganize", "done"),
    "move": _listed(movement.legal, movement.decide, "move", "swap", "done"),
    "declare": _listed(
        battle.legal, battle.decide, "attack", "support", "confirm", "cancel", "discord", "fight"
    ),
    "resolve": _listed(resolution.resolve_legal, resolution.decide_resolve, "resolve"),
    "reroll": _listed(resolution.reroll_legal, resolution.decide_reroll, "reroll"),
    "second_attack": _yes_no("second_attack", resolution.decide_second),
    "taunt": _yes_no("taunt", resolution.decide_taunt),
    "advance": _yes_no("advance_into", resolution.decide_advance),
    "sacrifice": _yes_no("sacrifice", _sacrifice),
    "splash": _yes_no("splash", resolution.decide_splash),
    "kobayakawa": _listed(_kobayakawa_legal, _kobayakawa, "kobayakawa"),
}
