"""Who must act next, declared as data: the kit decision of each position kind."""

from __future__ import annotations

from games.rules.kit import Command, Decision

from . import auction
from .state import AWARD, BID, State


def _awarding(state: State) -> list[int]:
    return [] if state["awarding"] is None else [state["awarding"]]


def _bid_default(state: State, seat: int) -> Command | None:
    return {"type": "bid", "amount": 0}


def _award_default(state: State, seat: int) -> Command | None:
    return {"type": "keep"}


DECISIONS: dict[str, Decision[State]] = {
    BID: Decision(
        pending=auction.bidders_pending,
        legal=auction.bids,
        decide=auction.bid,
        default=_bid_default,
        commands=frozenset({"bid"}),
    ),
    AWARD: Decision(
        pending=_awarding,
        legal=auction.awards,
        decide=auction.award,
        default=_award_default,
        commands=frozenset({"keep", "give"}),
    ),
}
