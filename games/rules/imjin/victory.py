"""Victory (§3.7): instant victories and the final count after the third Reset."""

from __future__ import annotations

from games.rules.base import reveal_entry

from . import data
from . import events as ev
from .context import Ctx
from .state import State, income, lands_of, side_in


def instant(state: State) -> tuple[str, str] | None:
    iw = data.rules()["instant_win"]
    for side in ("japan", "allies"):
        if lands_of(state, side) >= iw["lands"]:
            return side, f"{side} controls {iw['lands']} land territories"
    if sum(1 for a in iw["japan_any_2_of"] if state["control"].get(a) == "japan") >= 2:
        return "japan", "Japan controls two of 平安西道/黃海右道/京畿右道"
    if all(side_in(state, a) == "allies" for a in iw["allies_all_of"]):
        return "allies", "the allies occupy both Tsushima channels"
    return None


def final(state: State) -> tuple[str | None, str]:
    """More lands, then more enemy generals killed, then higher income, then higher
    stock (4p: team sum, R #17); else a draw."""
    keys = {}
    for side in ("japan", "allies"):
        stock = sum(state["supply"][x] for x in state["order"] if state["side"][x] == side)
        keys[side] = (lands_of(state, side), len(state["killed"][side]), income(state, side), stock)
    names = ["lands", "generals killed", "income", "supply stock"]
    for i, name in enumerate(names):
        a, b = keys["japan"][i], keys["allies"][i]
        if a != b:
            return ("japan" if a > b else "allies"), f"more {name} after the third Reset ({a} vs {b})"
    return None, "complete tie after the third Reset"


def end(ctx: Ctx, winner: str | None, reason: str) -> None:
    s = ctx.state
    winners = [x for x in range(s["n"]) if s["side"][x] == winner]
    scores = {str(x): (1.0 if x in winners else (0.5 if winner is None else 0.0)) for x in range(s["n"])}
    # a finished game has no secrets: open every hand card still sealed, so the
    # audit can check every commitment
    reveals = [
        reveal_entry(seat, sec["key"], gid, sec["salt"])
        for seat in range(s["n"])
        for gid, sec in sorted(s["secrets"][seat].items())
    ]
    ctx.emit(
        ev.GAME_ENDED,
        {"winners": winners, "winner_side": winner, "reason": reason, "scores": scores, "reveals": reveals},
    )


def check_instant(ctx: Ctx) -> bool:
    if ctx.state.get("result") is not None or ctx.state.get("stage") != "play":
        return ctx.state.get("result") is not None
    found = instant(ctx.state)
    if found:
        end(ctx, found[0], found[1])
        return True
    return False
