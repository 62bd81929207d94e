"""Winter (reference 10, Appendix R #17 #18): rice loss of the year's 4th event card,
famine revolts, scoring, revolt markers removed, next year's events; the game ends after
the second winter (tied players share the win).

Famine: shortfall = provinces - rice; the table gives how many distinct provinces (drawn
at random; all of them if he has fewer) revolt with (extra + markers) green cubes each.
Players resolve famine in the autumn turn order; a player's revolts run in drawn order.
No special card or event modifies winter battles.
"""

from __future__ import annotations

from . import catalog as C
from . import events as E
from . import state as S
from .revolts import revolt
from .scoring import score


def fourth_event(s: dict) -> str:
    left = [e for e in s["year_events"] if e not in s["used_events"]]
    return left[0]


def auto(ctx) -> bool:
    s = ctx.s
    ev = fourth_event(s)
    loss = C.EVENTS[ev]["rice_loss"]
    ctx.emit(
        E.WINTER_RICE_LOST,
        {"event": ev, "loss": loss, "losses": [min(loss, pl["rice"]) for pl in s["players"]]},
    )
    for seat in ctx.s["round"]["order"]:
        famine(ctx, seat)
    s = ctx.s
    ctx.emit(E.SCORED, {"year": s["year"], "scores": score(s)})
    ctx.emit(E.MARKERS_CLEARED, {})
    s = ctx.s
    if s["year"] >= 2:
        vps = [pl["vp"] for pl in s["players"]]
        best = max(vps)
        ctx.emit(E.GAME_ENDED, {"scores": vps, "winners": [x for x in range(s["n"]) if vps[x] == best]})
    else:
        from .setup import year_events

        ctx.emit(E.YEAR_BEGAN, {"year": s["year"] + 1, "events": year_events(ctx, s["past_events"])})
    return True


def famine(ctx, seat: int) -> None:
    s = ctx.s
    provs = sorted(S.owned(s, seat))
    short = len(provs) - s["players"][seat]["rice"]
    if short <= 0:
        return
    revolts, extra = C.famine_row(short)
    picks = ctx.rng("famine").shuffled(provs)[:revolts]
    ctx.emit(
        E.FAMINE_STRUCK,
        {"seat": seat, "shortfall": short, "revolts": revolts, "extra": extra, "provinces": picks},
    )
    for prov in picks:
        if ctx.s["provinces"][prov]["owner"] == seat:
            revolt(ctx, prov, extra + ctx.s["provinces"][prov]["markers"], kind="famine")
