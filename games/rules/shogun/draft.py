"""The province draft (reference section 2.3): two face-up province cards; in turn each
player takes one of them or the top card blind and moves one of his start villages' armies
there; the display is refilled to two. A player offered exactly the pair he was offered on
his previous turn puts both under the deck and reveals two new ones.

The deck order is never stored: a draw picks uniformly from the cards not yet seen
("pool"), and only after the pool is empty from the cards put under the deck ("bottom",
in order) - the same distribution as a shuffled deck, without a secret order in state.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand, Rng

from . import data
from . import events as ev
from .context import Ctx
from .state import State, draft_of, frame_of

DISPLAY = data.SETUP["draft_display"]


def drafter(state: State) -> int:
    d = draft_of(state)
    return (d["first"] + d["turn"]) % state["n"]


def draw(pool: list[str], bottom: list[str], count: int, rng: Rng) -> list[str]:
    """Draw k cards (without replacement) from copies of the deck piles."""
    pool, bottom, out = list(pool), list(bottom), []
    for _ in range(count):
        if pool:
            out.append(pool.pop(rng.randbelow(len(pool))))
        elif bottom:
            out.append(bottom.pop(0))
    return out


def begin(ctx: Ctx) -> None:
    """Emit DraftBegan: a random first player and the first two face-up cards."""
    s = ctx.state
    villages = [list(data.SETUP["start_villages"][s["n"]]) for _ in range(s["n"])]
    first = ctx.stream("draft-first").randbelow(s["n"])
    display = draw(sorted(s["in_play"]), [], DISPLAY, ctx.stream("draft-deck"))
    ctx.emit(ev.DRAFT_BEGAN, {"first": first, "display": display, "villages": villages})


def auto(ctx: Ctx) -> bool:
    """Start the next drafter's turn (with the repeated-pair rule). False = wait."""
    s = ctx.state
    d = draft_of(s)
    if d["offered"]:
        return False
    seat = drafter(s)
    if d["last_offer"][seat] is not None and d["last_offer"][seat] == sorted(d["display"]):
        bottom = d["bottom"] + d["display"]
        new = draw(d["pool"], bottom, DISPLAY, ctx.stream("draft-deck"))
        ctx.emit(ev.DRAFT_DISPLAY_RECYCLED, {"recycled": list(d["display"]), "display": new})
    ctx.emit(ev.DRAFT_TURN_BEGAN, {"seat": seat, "display": list(draft_of(ctx.state)["display"])})
    return True


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    if frame_of(state, "draft") is None or not draft_of(state)["offered"] or drafter(state) != seat:
        return []
    d = draft_of(state)
    sizes = sorted(set(d["villages"][seat]), reverse=True)
    cards = list(d["display"]) + (["blind"] if d["pool"] or d["bottom"] else [])
    return [{"type": "draft", "card": c, "village": v} for c in cards for v in sizes]


def decide(ctx: Ctx, seat: int, cmd: dict[str, Any]) -> None:
    s = ctx.state
    if frame_of(s, "draft") is None or drafter(s) != seat:
        raise IllegalCommand("it is not your turn to draft a province")
    d = draft_of(s)
    if cmd["village"] not in d["villages"][seat]:
        raise IllegalCommand("you have no start village with that many armies left")
    pool, bottom = list(d["pool"]), list(d["bottom"])
    if cmd["card"] == "blind":
        if not pool and not bottom:
            raise IllegalCommand("the province deck is empty")
        prov = draw(pool, bottom, 1, ctx.stream("draft-blind"))[0]
        source = "blind"
        pool = [c for c in pool if c != prov]
        bottom = [c for c in bottom if c != prov]
    elif cmd["card"] in d["display"]:
        prov, source = cmd["card"], "display"
    else:
        raise IllegalCommand(f"{cmd['card']} is not a face-up province card")
    shown = len(d["display"]) - (1 if source == "display" else 0)
    refill = draw(pool, bottom, DISPLAY - shown, ctx.stream("draft-deck"))
    ctx.emit(
        ev.PROVINCE_DRAFTED,
        {"seat": seat, "province": prov, "armies": cmd["village"], "source": source, "refill": refill},
    )
