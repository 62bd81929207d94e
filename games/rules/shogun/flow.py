"""Phase sequencing: who must act next (`pending`) and the automatic part of the game loop.

After every command (and at start) `advance` runs every step that needs no player decision -
reveals, court conversions, blank action spaces, battles' bookkeeping, winter - until some
seat must decide or the game is over. Each step emits events through the `Ctx`, so replay
never re-decides. The phase modules never import this one (it imports them), which keeps
the import graph free of circles.
"""

from __future__ import annotations

from games.rules.base import Pending

from . import actions, bidding, court, data, draft, planning, winter
from . import events as E
from . import state as S
from .context import Ctx
from .state import State


def pending(state: State) -> list[Pending]:
    """The seats that must decide now, with the decision's kind."""
    phase = state.get("phase")
    if phase == "draft" and S.draft_of(state)["offered"]:
        return [Pending(draft.drafter(state), "draft")]
    if phase == "samurai":
        return [Pending(x, "samurai") for x in state["samurai_pending"]]
    if phase == "plan":
        return [Pending(x, "plan") for x in range(state["n"]) if not S.round_of(state)["planned"][x]]
    chooser = bidding.chooser(state) if phase == "special" else None
    if chooser is not None:
        return [Pending(chooser, "choose_special")]
    taker = court.current(state) if phase == "favour" else None
    if taker is not None:
        return [Pending(taker, "favour")]
    starving = winter.chooser(state) if phase == "winter" else None
    if starving is not None:
        return [Pending(starving, "famine_order")]
    a = actions.actor(state)
    if a is not None:
        return [Pending(a[0], f"{a[1]}:{a[2]}")]
    return []


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
        step = steps.get(ctx.s["phase"])
        if step is None or not step(ctx):
            return
    raise RuntimeError("automatic steps did not settle")


def regions_held(s: State, seat: int) -> int:
    return len({S.region_of(s, p) for p in S.owned(s, seat)})


def begin_season(ctx: Ctx) -> bool:
    """Reveal 5 action cards (the other 5 stay face down: drawn when needed), lay the
    special cards on the turn-order slots, reveal 3 favour cards, turn Samurai cards."""
    s = ctx.s
    acts = ctx.rng("actions").shuffled(data.ACTION_IDS)
    shown = acts[: data.CARDS["face_up_actions"]]
    specials = ctx.rng("specials").shuffled(data.SPECIAL_IDS)
    favours = []
    if s["opts"]["tennos_court"]:
        picks = ctx.rng("favours").shuffled(s["favour_pool"])[: len(data.FAVOUR_COSTS)]
        favours = [
            [cost, card] for cost, card in zip(data.FAVOUR_COSTS, sorted(picks, reverse=True), strict=True)
        ]
    samurai = []
    if s["opts"]["samurai"]:
        for seat in range(s["n"]):
            if regions_held(s, seat) >= data.CARDS["samurai_regions"]:
                samurai.append([seat, min(s["players"][seat]["samurai"] + 1, len(data.SAMURAI))])
    ctx.emit(
        E.SEASON_BEGAN,
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
