"""Phase sequencing: who must act next (`pending`) and the automatic part of the game loop.

After every command (and at start) `advance` runs every step that needs no player decision -
reveals, court conversions, blank action spaces, battles' bookkeeping, winter - until some
seat must decide or the game is over. Each step emits events through the `Ctx`, so replay
never re-decides. The phase modules never import this one (it imports them), which keeps
the import graph free of circles.
"""

from __future__ import annotations

from collections.abc import Callable

from games.rules.base import Pending
from games.rules.kit import Command, Decision, decision_of

from . import actions, bidding, court, data, draft, planning, samurai, winter
from . import events as ev
from .context import Ctx
from .state import State, draft_of, owned, phase_of, region_of, round_of, samurai_pending

# ---------------------------------------------------------------------------
# The decision table: phase -> Decision. The kit's four roles take, here:
# pending(state) -> seats; legal(state, seat, version) -> commands;
# decide(ctx, seat, cmd); default(state, seat, version) -> command.


def _one(seat: int | None) -> list[int]:
    return [] if seat is None else [seat]


def _draft_pending(s: State) -> list[int]:
    return [draft.drafter(s)] if draft_of(s)["offered"] else []


def _plan_pending(s: State) -> list[int]:
    return [x for x in range(s["n"]) if not round_of(s)["planned"][x]]


def _actor(s: State) -> list[int]:
    a = actions.actor(s)
    return [] if a is None else [a[0]]


def _unlisted(s: State, seat: int, version: int) -> list[Command]:
    """Planning has too many commands to list: `rules.legal_commands` gives a template."""
    return []


def _plan_default(s: State, seat: int, version: int) -> Command:
    return {"type": "plan", "spaces": planning.default(s, seat)}


def _pass(s: State, seat: int, version: int) -> Command:
    return {"type": "pass"}


def _listed_default(s: State, seat: int, version: int) -> Command | None:
    """Decline when the rules allow it; a forced execution moves within the seat's own
    provinces rather than into a battle; otherwise the first listed command."""
    listed = DECISIONS[phase_of(s)].legal(s, seat, version)
    if any(c["type"] == "decline" for c in listed):
        return {"type": "decline"}
    safe = [c for c in listed if c["type"] == "move" and s["provinces"][c["to"]]["owner"] == seat]
    return (safe or listed)[0] if listed else None


def _version_free(legal: Callable[[State, int], list[Command]]) -> Callable[[State, int, int], list[Command]]:
    return lambda s, seat, version: legal(s, seat)


DECISIONS: dict[str, Decision] = {
    "draft": Decision(
        pending=_draft_pending,
        legal=_version_free(draft.legal),
        decide=lambda ctx, seat, cmd: draft.decide(ctx, seat, cmd),
        default=_listed_default,
        commands=frozenset({"draft"}),
    ),
    "samurai": Decision(
        pending=lambda s: list(samurai_pending(s)),
        legal=_version_free(samurai.legal),
        decide=lambda ctx, seat, cmd: samurai.decide(ctx, seat, cmd["bonus"]),
        default=_listed_default,
        commands=frozenset({"samurai"}),
    ),
    "plan": Decision(
        pending=_plan_pending,
        legal=_unlisted,
        decide=lambda ctx, seat, cmd: planning.decide(ctx, seat, cmd["spaces"]),
        default=_plan_default,
        commands=frozenset({"plan"}),
    ),
    "special": Decision(
        pending=lambda s: _one(bidding.chooser(s)),
        legal=_version_free(bidding.legal),
        decide=lambda ctx, seat, cmd: bidding.decide(ctx, seat, cmd["slot"]),
        default=_listed_default,
        commands=frozenset({"special"}),
        name="choose_special",
    ),
    "favour": Decision(
        pending=lambda s: _one(court.current(s)),
        legal=court.legal,
        decide=lambda ctx, seat, cmd: _favour(ctx, seat, cmd),
        default=_pass,
        commands=frozenset({"favour", "pass"}),
    ),
    "actions": Decision(
        pending=_actor,
        legal=_version_free(actions.legal),
        decide=lambda ctx, seat, cmd: _action(ctx, seat, cmd),
        default=_listed_default,
        commands=frozenset({"execute", "decline", "move"}),
    ),
    "winter": Decision(
        pending=lambda s: _one(winter.chooser(s)),
        legal=_version_free(winter.legal),
        decide=lambda ctx, seat, cmd: winter.decide(ctx, seat, cmd["province"]),
        default=_listed_default,
        commands=frozenset({"revolt"}),
        name="famine_order",
    ),
}


def _favour(ctx: Ctx, seat: int, cmd: Command) -> None:
    if cmd["type"] == "pass":
        court.decide_pass(ctx, seat)
    else:
        court.decide_favour(ctx, seat, cmd["card"], cmd["use"], cmd["province"])


def _action(ctx: Ctx, seat: int, cmd: Command) -> None:
    if cmd["type"] == "execute":
        actions.decide_execute(ctx, seat)
    elif cmd["type"] == "decline":
        actions.decide_decline(ctx, seat)
    else:
        actions.decide_move(ctx, seat, cmd["to"], cmd["armies"])


def kind_of(state: State) -> str:
    """The name `pending` gives the decision of the current phase (an action's is
    `<action>:<sub-step>`)."""
    phase = phase_of(state)
    a = actions.actor(state) if phase == "actions" else None
    if a is not None:
        return f"{a[1]}:{a[2]}"
    return DECISIONS[phase].name or phase


def pending(state: State) -> list[Pending]:
    """The seats that must decide now, with the decision's kind."""
    decision = DECISIONS.get(phase_of(state))
    if decision is None:
        return []
    return [Pending(seat, kind_of(state)) for seat in decision.pending(state)]


def decide(ctx: Ctx, seat: int, cmd: Command) -> None:
    """Apply `cmd` through the decision of the current phase (refused if it does not
    understand that command type), then run the automatic steps."""
    decision = decision_of(DECISIONS, phase_of(ctx.state), cmd["type"])
    assert decision.decide is not None  # every Shogun phase decides its own commands
    decision.decide(ctx, seat, cmd)
    advance(ctx)


def advance(ctx: Ctx) -> None:
    steps = {
        "draft": draft.auto,
        "season_start": begin_season,
        "plan": planning.auto,
        "court": court.auto_convert,
        "favour": court.auto_favour,
        "actions": actions.auto,
        "winter": winter.auto,
    }
    for _ in range(100000):  # a guard; a real game needs a few hundred steps
        step = steps.get(phase_of(ctx.state))
        if step is None or not step(ctx):
            return
    raise RuntimeError("automatic steps did not settle")


def regions_held(s: State, seat: int) -> int:
    return len({region_of(s, p) for p in owned(s, seat)})


def begin_season(ctx: Ctx) -> bool:
    """Reveal 5 action cards (the other 5 stay face down: drawn when needed), lay the
    special cards on the turn-order slots, reveal 3 favour cards, turn Samurai cards."""
    s = ctx.state
    acts = ctx.stream("actions").shuffled(data.ACTION_IDS)
    shown = acts[: data.CARDS["face_up_actions"]]
    specials = ctx.stream("specials").shuffled(data.SPECIAL_IDS)
    favours = []
    if s["opts"]["tennos_court"]:
        picks = ctx.stream("favours").shuffled(s["favour_pool"])[: len(data.FAVOUR_COSTS)]
        favours = [
            [cost, card] for cost, card in zip(data.FAVOUR_COSTS, sorted(picks, reverse=True), strict=True)
        ]
    samurai = []
    if s["opts"]["samurai"]:
        for seat in range(s["n"]):
            if regions_held(s, seat) >= data.CARDS["samurai_regions"]:
                samurai.append([seat, min(s["players"][seat]["samurai"] + 1, len(data.SAMURAI))])
    ctx.emit(
        ev.SEASON_BEGAN,
        {
            "year": s["year"],
            "season": s["season"],
            "actions": shown,
            "pool": sorted(acts[len(shown) :]),
            "specials": specials,
            "favours": favours,
            "samurai": samurai,
        },
    )
    return True
