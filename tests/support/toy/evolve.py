"""One handler per toy event (kit `Evolver`: only the declared keys are copied)."""

from __future__ import annotations

from typing import Any

from games.rules.kit import Evolver, position

from . import events
from .state import AWARD, BID, State

evolves: Evolver[State] = Evolver("toy")
Payload = dict[str, Any]


@evolves(events.STARTED, mutates=("factions", "coins", "points"))
def _started(state: Any, payload: Payload) -> None:
    players = len(payload["factions"])
    state["players"] = players
    state["factions"] = list(payload["factions"])
    state["coins"] = [payload["coins"]] * players
    state["points"] = [0] * players


@evolves(events.PRIZE_DRAWN, mutates=("bids", "bidders", "position"))
def _prize_drawn(state: Any, payload: Payload) -> None:
    state["round"], state["prize"] = payload["round"], payload["prize"]
    state["bids"], state["bidders"], state["awarding"] = [], [], None
    position.start(state, BID)


@evolves(events.BID_PLACED, mutates=("bids", "bidders"))
def _bid_placed(state: Any, payload: Payload) -> None:
    state["bids"].append([payload["seat"], payload["choice"]["amount"], payload["salt"]])
    state["bidders"].append(payload["seat"])


@evolves(events.BIDS_REVEALED, mutates=("coins", "bids", "position"))
def _bids_revealed(state: Any, payload: Payload) -> None:
    state["coins"][payload["winner"]] -= payload["paid"]
    state["awarding"], state["bids"] = payload["winner"], []
    position.start(state, AWARD, seat=payload["winner"])


@evolves(events.PRIZE_AWARDED, mutates=("points", "position"))
def _prize_awarded(state: Any, payload: Payload) -> None:
    state["points"][payload["seat"]] += payload["points"]
    state["awarding"] = None
    position.clear(state)


@evolves(events.ENDED, mutates=("position",))
def _ended(state: Any, payload: Payload) -> None:
    state["over"] = True
    position.clear(state)


def evolve(state: State, event: Any) -> State:
    return evolves.evolve(state, event)
