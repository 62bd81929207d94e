"""What a seat (or a spectator) sees: everything but the other seats' bids until
the game is over, under the kit's common view header."""

from __future__ import annotations

from typing import Any

from games.rules.kit import view_header

from .state import State, kind


def view(state: State, seat: int | None, pending: list[int], rules_version: int) -> dict[str, Any]:
    mine = [amount for bidder, amount, _ in state["bids"] if bidder == seat or state["over"]]
    return {
        "header": view_header(
            ruleset="toy-auction",
            rules_version=rules_version,
            phase=kind(state) or ("over" if state["over"] else "setup"),
            to_act=pending,
            seat=seat,
            ended=state["over"],
            scores=state["points"],
            order=range(state["players"]),
            private=["my_bid"] if seat is not None and not state["over"] and mine else [],
        ),
        "round": state["round"],
        "prize": state["prize"],
        "coins": list(state["coins"]),
        "points": list(state["points"]),
        "bidders": list(state["bidders"]),
        "my_bid": mine[0] if mine and seat is not None else None,
        "awarding": state["awarding"],
        "factions": list(state["factions"]),
        "over": state["over"],
    }
