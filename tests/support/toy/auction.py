"""The one rule area: every seat bids secretly for the prize; the winner keeps
it or gives it away; after the last round the game ends. Decisions act on a
kit `Context` (emit -> fold), draws come from the platform's named streams."""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand, Template, commit, reveal_entry
from games.rules.kit import Command, Context

from . import events
from .state import ROUNDS, State


def bidders_pending(state: State) -> list[int]:
    return [seat for seat in range(state["players"]) if seat not in state["bidders"]]


def bids(state: State, seat: int) -> list[Command]:
    return [{"type": "bid", "amount": amount} for amount in range(state["coins"][seat] + 1)]


def bid_template(state: State, seat: int) -> Template:
    schema = {
        "type": "object",
        "required": ["type", "amount"],
        "properties": {
            "type": {"const": "bid"},
            "amount": {"type": "integer", "minimum": 0, "maximum": state["coins"][seat]},
        },
    }
    return Template("bid", schema, "bid any number of your coins")


def bid(context: Context[State], seat: int, command: Command) -> None:
    """A secret bid (commit now, reveal when every seat has bid)."""
    state = context.state
    amount = command["amount"]
    if seat in state["bidders"]:
        raise IllegalCommand("you cannot bid now")
    if not 0 <= amount <= state["coins"][seat]:
        raise IllegalCommand(f"you can bid from 0 to {state['coins'][seat]} coins")
    key = f"bid:r{state['round']}:s{seat}"
    private, public = commit(
        context.factory, seat, key, {"amount": amount}, events.BID_PLACED, {"seat": seat}
    )
    context.add(private)
    context.add(public)
    if not bidders_pending(context.state):
        _reveal(context)


def _reveal(context: Context[State]) -> None:
    state = context.state
    placed = sorted(state["bids"])
    best = max(amount for _, amount, _ in placed)
    winner = min(seat for seat, amount, _ in placed if amount == best)
    reveals = [
        reveal_entry(seat, f"bid:r{state['round']}:s{seat}", {"amount": amount}, salt)
        for seat, amount, salt in placed
    ]
    payload: dict[str, Any] = {
        "bids": [[seat, amount] for seat, amount, _ in placed],
        "winner": winner,
        "paid": best,
        "reveals": reveals,
    }
    context.emit(events.BIDS_REVEALED, payload)


def awards(state: State, seat: int) -> list[Command]:
    gives: list[Command] = [
        {"type": "give", "to": other} for other in range(state["players"]) if other != seat
    ]
    return [{"type": "keep"}, *gives]


def award(context: Context[State], seat: int, command: Command) -> None:
    """Keep the prize or give it to another seat; then the next prize, or the end."""
    state = context.state
    if state["awarding"] != seat:
        raise IllegalCommand("you have no prize to award")
    to = seat
    if command["type"] == "give":
        to = command["to"]
        if not 0 <= to < state["players"] or to == seat:
            raise IllegalCommand("give needs `to`: another seat")
    context.emit(events.PRIZE_AWARDED, {"seat": to, "points": state["prize"]})
    if state["round"] == ROUNDS:
        context.emit(events.ENDED, {})
    else:
        prize = context.factory("prize").randint(1, 6)
        context.emit(events.PRIZE_DRAWN, {"round": state["round"] + 1, "prize": prize})
