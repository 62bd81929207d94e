"""Phase sequencing: who must act next (`pending`) and the automatic part of the game loop.

After every command (and at start) `advance` runs every step that needs no player decision -
reveals, court conversions, blank action spaces, battles' bookkeeping, winter - until some
seat must decide or the game is over. Each step emits events through the `Ctx`, so replay
never re-decides. The phase modules never import this one (it imports them), which keeps
the import graph free of circles.
"""

from __future__ import annotations

import functools

from games.rules.base import Pending
from games.rules.kit import Command, Context, Decision, decision_of
from games.rules.kit.decisions import DefaultRole, LegalRole

from . import actions, bidding, court, data, draft, planning, samurai, winter
from . import events as ev
from .context import Ctx
from .state import State, draft_of, owned, phase_of, region_of, round_of, samurai_pending

# ---------------------------------------------------------------------------
# The decision table: phase (the kind of the position's frame) -> Decision, with the
# kit's four typed roles: pending(state) -> seats; legal(state, seat) -> commands;
# decide(context, seat, command); default(state, seat) -> command. One table per
# rules version, since what a favour allows depends on it (court.must_apply).


def _one(seat: int | None) -> list[int]:
    return [] if seat is None else [seat]


def _draft_pending(state: State) -> list[int]:
    return [draft.drafter(state)] if draft_of(state)["offered"] else []


def _samurai_pending(state: State) -> list[int]:
    return list(samurai_pending(state))


def _plan_pending(state: State) -> list[int]:
    return [seat for seat in range(state["n"]) if not round_of(state)["planned"][seat]]


def _actor(state: State) -> list[int]:
    current = actions.actor(state)
    return [] if current is None else [current[0]]


def _chooser(state: State) -> list[int]:
    return _one(bidding.chooser(state))


def _courtier(state: State) -> list[int]:
    return _one(court.current(state))


def _starving(state: State) -> list[int]:
    return _one(winter.chooser(state))


def _unlisted(state: State, seat: int) -> list[Command]:
    """Planning has too many commands to list: `rules.legal_commands` gives a template."""
    return []


def _plan_default(state: State, seat: int) -> Command:
    return {"type": "plan", "spaces": planning.default(state, seat)}


def _pass(state: State, seat: int) -> Command:
    return {"type": "pass"}


def _listed_default(legal: LegalRole[State]) -> DefaultRole[State]:
    """Decline when the rules allow it; a forced execution moves within the seat's own
    provinces rather than into a battle; otherwise the first listed command."""

    def default(state: State, seat: int) -> Command | None:
        listed = legal(state, seat)
        if any(command["type"] == "decline" for command in listed):
            return {"type": "decline"}
        safe = [
            command
            for command in listed
            if command["type"] == "move" and state["provinces"][command["to"]]["owner"] == seat
        ]
        return (safe or listed)[0] if listed else None

    return default


def shogun_context(context: Context[State]) -> Ctx:
    """The Shogun context the rules built (it carries the game's rules version)."""
    assert isinstance(context, Ctx), "Shogun decides through its own Ctx"
    return context


def _draft(context: Context[State], seat: int, command: Command) -> None:
    draft.decide(shogun_context(context), seat, command)


def _samurai(context: Context[State], seat: int, command: Command) -> None:
    samurai.decide(shogun_context(context), seat, command["bonus"])


def _plan(context: Context[State], seat: int, command: Command) -> None:
    planning.decide(shogun_context(context), seat, command["spaces"])


def _special(context: Context[State], seat: int, command: Command) -> None:
    bidding.decide(shogun_context(context), seat, command["slot"])


def _favour(context: Context[State], seat: int, command: Command) -> None:
    ctx = shogun_context(context)
    if command["type"] == "pass":
        court.decide_pass(ctx, seat)
    else:
        court.decide_favour(ctx, seat, command["card"], command["use"], command["province"])


def _action(context: Context[State], seat: int, command: Command) -> None:
    ctx = shogun_context(context)
    if command["type"] == "execute":
        actions.decide_execute(ctx, seat)
    elif command["type"] == "decline":
        actions.decide_decline(ctx, seat)
    else:
        actions.decide_move(ctx, seat, command["to"], command["armies"])


def _famine_order(context: Context[State], seat: int, command: Command) -> None:
    winter.decide(shogun_context(context), seat, command["province"])


def _court_legal(version: int) -> LegalRole[State]:
    def legal(state: State, seat: int) -> list[Command]:
        return court.legal(state, seat, version)

    return legal


@functools.cache
def decisions(version: int) -> dict[str, Decision[State]]:
    """The decision table of a game started under rules `version`."""
    favour_legal = _court_legal(version)
    return {
        "draft": Decision(
            pending=_draft_pending,
            legal=draft.legal,
            decide=_draft,
            default=_listed_default(draft.legal),
            commands=frozenset({"draft"}),
        ),
        "samurai": Decision(
            pending=_samurai_pending,
            legal=samurai.legal,
            decide=_samurai,
            default=_listed_default(samurai.legal),
            commands=frozenset({"samurai"}),
        ),
        "plan": Decision(
            pending=_plan_pending,
            legal=_unlisted,
            decide=_plan,
            default=_plan_default,
            commands=frozenset({"plan"}),
        ),
        "special": Decision(
            pending=_chooser,
            legal=bidding.legal,
            decide=_special,
            default=_listed_default(bidding.legal),
            commands=frozenset({"special"}),
            name="choose_special",
        ),
        "favour": Decision(
            pending=_courtier,
            legal=favour_legal,
            decide=_favour,
            default=_pass,
            commands=frozenset({"favour", "pass"}),
        ),
        "actions": Decision(
            pending=_actor,
            legal=actions.legal,
            decide=_action,
            default=_listed_default(actions.legal),
            commands=frozenset({"execute", "decline", "move"}),
        ),
        "winter": Decision(
            pending=_starving,
            legal=winter.legal,
            decide=_famine_order,
            default=_listed_default(winter.legal),
            commands=frozenset({"revolt"}),
            name="famine_order",
        ),
    }


DECISIONS: dict[str, Decision[State]] = decisions(data.RULES_VERSION)
"""The table of the current rules version."""


def kind_of(state: State) -> str:
    """The name `pending` gives the decision of the current phase (an action's is
    `<action>:<sub-step>`)."""
    phase = phase_of(state)
    current = actions.actor(state) if phase == "actions" else None
    if current is not None:
        return f"{current[1]}:{current[2]}"
    return DECISIONS[phase].name or phase


def pending(state: State) -> list[Pending]:
    """The seats that must decide now, with the decision's kind."""
    decision = DECISIONS.get(phase_of(state))
    if decision is None:
        return []
    return [Pending(seat, kind_of(state)) for seat in decision.pending(state)]


def decide(ctx: Ctx, seat: int, command: Command) -> None:
    """Apply `command` through the decision of the current phase (refused if it does not
    understand that command type), then run the automatic steps."""
    decision = decision_of(decisions(ctx.version), phase_of(ctx.state), command["type"])
    assert decision.decide is not None  # every Shogun phase decides its own commands
    decision.decide(ctx, seat, command)
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


def regions_held(state: State, seat: int) -> int:
    return len({region_of(state, province) for province in owned(state, seat)})


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
