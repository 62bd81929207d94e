"""The Samurai option (reference 13 / 15.12, fallback 16.3): at the start of each action
season a player holding provinces in at least 4 regions turns his next Samurai card (card 1
starts face up and offers nothing; after card 4 he keeps using card 4) and takes ONE bonus
shown on it: chests, rice, armies from his supply into the tower tray, or VP."""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand

from . import data
from . import events as ev
from . import state as shogun_state
from .context import Ctx
from .state import State, samurai_pending


def bonuses(state: State, seat: int) -> dict[str, Any]:
    return data.SAMURAI[state["players"][seat]["samurai"] - 1]


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in samurai_pending(state):
        return []
    return [{"type": "samurai", "bonus": b} for b in bonuses(state, seat)]


def decide(ctx: Ctx, seat: int, bonus: str) -> None:
    s = ctx.state
    if seat not in samurai_pending(s):
        raise IllegalCommand("you have no Samurai bonus to take now")
    offer = bonuses(s, seat)
    if bonus not in offer:
        raise IllegalCommand(f"your Samurai card offers: {', '.join(offer)}")
    amount = offer[bonus]
    if bonus == "tray":
        amount = min(amount, shogun_state.supply(s, seat))  # only armies you have
    ctx.emit(
        ev.SAMURAI_BONUS_TAKEN,
        {"seat": seat, "bonus": bonus, "amount": amount, "card": s["players"][seat]["samurai"]},
    )
