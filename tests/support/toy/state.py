"""The toy's state (a plain dict, folded by evolve.py) and read-only queries on it."""

from __future__ import annotations

from typing import Any, TypedDict

from games.rules.kit import position

ROUNDS = 3
BID, AWARD = "bid", "award"  # the position's frame kinds: the two decisions


class State(TypedDict):
    players: int
    factions: list[str]
    round: int
    prize: int
    coins: list[int]
    points: list[int]
    bids: list[list[Any]]  # [seat, amount, salt]: private until revealed
    bidders: list[int]  # public: who has bid
    awarding: int | None  # the seat that must keep or give the prize
    over: bool
    position: list[dict[str, Any]]  # kit.position: a `bid` or an `award` frame


def initial() -> State:
    return State(
        players=0,
        factions=[],
        round=0,
        prize=0,
        coins=[],
        points=[],
        bids=[],
        bidders=[],
        awarding=None,
        over=False,
        position=[],
    )


def kind(state: State) -> str:
    """The decision the table waits for ("" before the start and after the end)."""
    return position.kind(state)
