"""Winter (reference 10, Appendix R #17 #18): rice loss of the year's 4th event card,
famine revolts, scoring, revolt markers removed, next year's events; the game ends after
the second winter (tied players share the win).

Famine: shortfall = provinces - rice; the table gives how many distinct provinces (drawn
at random; all of them if he has fewer) revolt with (extra + markers) green cubes each.
Starving players are resolved in the autumn turn order; each chooses the order of his own
revolts [sbw pg11] (decision ``famine_order`` when two or more are left). No special card
or event modifies winter battles.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand

from . import data
from . import events as ev
from .context import Ctx
from .event_cards import year_events
from .revolts import revolt
from .scoring import score
from .state import State, owned, round_of, winter_of, winter_step
from .tower_secret import reveal as reveal_tower


def fourth_event(state: State) -> str:
    left = [e for e in state["year_events"] if e not in state["used_events"]]
    return left[0]


def shortfall(state: State, seat: int) -> int:
    return len(owned(state, seat)) - state["players"][seat]["rice"]


def auto(ctx: Ctx) -> bool:
    s = ctx.state
    w = winter_step(s)
    if w is None:
        event_card = fourth_event(s)
        loss = data.EVENTS[event_card]["rice_loss"]
        losses = [min(loss, pl["rice"]) for pl in s["players"]]
        starving = [
            x for x in round_of(s)["order"] if len(owned(s, x)) - (s["players"][x]["rice"] - losses[x]) > 0
        ]
        ctx.emit(
            ev.WINTER_RICE_LOST, {"event": event_card, "loss": loss, "losses": losses, "starving": starving}
        )
        return True
    if len(w["left"]) == 1:
        resolve(ctx, w["left"][0])
        return True
    if w["left"]:
        return False  # the starving player chooses the next revolt
    if w["queue"]:
        famine(ctx, w["queue"][0])
        return True
    finish(ctx)
    return True


def famine(ctx: Ctx, seat: int) -> None:
    s = ctx.state
    provs = sorted(owned(s, seat))
    short = shortfall(s, seat)
    revolts, extra = data.famine_row(short)
    picks = ctx.stream("famine").shuffled(provs)[:revolts]
    ctx.emit(
        ev.FAMINE_STRUCK,
        {"seat": seat, "shortfall": short, "revolts": revolts, "extra": extra, "provinces": picks},
    )


def resolve(ctx: Ctx, prov: str) -> None:
    s = ctx.state
    revolt(ctx, prov, winter_of(s)["extra"] + s["provinces"][prov]["markers"], kind="famine")


def finish(ctx: Ctx) -> None:
    s = ctx.state
    ctx.emit(ev.SCORED, {"year": s["year"], "scores": score(s)})
    ctx.emit(ev.MARKERS_CLEARED, {})
    s = ctx.state
    if s["year"] >= 2:
        vps = [pl["vp"] for pl in s["players"]]
        best = max(vps)
        reveal_tower(ctx)  # before the end: a finished game has no secrets left
        ctx.emit(ev.GAME_ENDED, {"scores": vps, "winners": [x for x in range(s["n"]) if vps[x] == best]})
    else:
        ctx.emit(ev.YEAR_BEGAN, {"year": s["year"] + 1, "events": year_events(ctx, s["past_events"])})


# --- the famine-order decision -------------------------------------------------------------


def chooser(state: State) -> int | None:
    w = winter_step(state)
    return w["seat"] if w and len(w["left"]) > 1 else None


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    if chooser(state) != seat:
        return []
    return [{"type": "revolt", "province": p} for p in winter_of(state)["left"]]


def decide(ctx: Ctx, seat: int, prov: str) -> None:
    s = ctx.state
    if chooser(s) != seat:
        raise IllegalCommand("you have no famine revolt to order now")
    if prov not in winter_of(s)["left"]:
        raise IllegalCommand(f"{prov} is not one of your revolting provinces")
    resolve(ctx, prov)
