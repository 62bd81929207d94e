"""Tenno's Court in the plan: whether to turn armies into officials for this
season's favours. The officials in the vestibule persist and only the price of a
favour leaves it, so the seat converts just what the best favour on show still
lacks, from the provinces whose action spaces are worth least (tower cards are
free when its own cubes lie in the tray)."""

from __future__ import annotations

from games.rules.shogun import data

from . import board
from .board import MONEY, View

WON = 0.6  # chance the favour aimed at is still there when the seat's turn comes
ARMY_AWAY = 0.15  # VP per army taken off the map (it returns to the supply)


def favour_value(view: View, seat: int, card: int) -> float:
    """What a favour card is worth to the seat, in VP."""
    fav = data.FAVOURS[card]
    t = fav["type"]
    amount: float = fav.get("amount", 0)
    if t == "vp":
        return float(amount)
    if t == "chests":
        return MONEY * amount
    if t == "rice":
        return 0.4 * min(amount, max(0.0, board.rice_need(view, seat)))
    if t == "tray":
        return 0.2 * amount
    if t == "building":
        sites = [p for p in board.owned(view, seat) if board.can_build(view, seat, p, fav["building"])]
        gain = max((board.majority_gain(view, seat, p, fav["building"]) for p in sites), default=-1.0)
        return board.winters_left(view) * (1 + gain) if sites else 0.0
    if t == "free_armies":
        return 1.2
    return 0.3  # immunity, a cancelled event, a marker removed


# the court spaces that convert exactly n armies, fewest cards first
SPACES_FOR = {1: ["court1"], 2: ["court2"], 3: ["court3"], 4: ["court3", "court1"], 5: ["court3", "court2"]}


def court_cards(view: View, seat: int, actions: dict[str, str], worth: dict[str, float]) -> dict[str, str]:
    """Court space -> card. May take provinces off `actions` (space -> province,
    `worth` = what each space's province does there) when a favour is worth more."""
    player = view["players"][seat]
    target = max(
        ((favour_value(view, seat, c), cost) for cost, c in view["round"]["favours"]), default=(0.0, 0)
    )
    lacking = min(target[1] - player["vestibule"], player["officials"])
    out: dict[str, str] = {}
    if lacking > 0 and target[0] * WON > 1.0:
        _from_provinces(
            view, seat, actions, worth, SPACES_FOR.get(lacking, data.COURT_SPACES), target[0] * WON, out
        )
    spare = data.tower_cards() + [c for c in data.chest_cards() if c != "chest0"]
    for space in data.COURT_SPACES:
        if space not in out:
            out[space] = spare.pop(0)
    return out


def _from_provinces(
    view: View,
    seat: int,
    actions: dict[str, str],
    worth: dict[str, float],
    spaces: list[str],
    prize: float,
    out: dict[str, str],
) -> None:
    """Put province cards with armies to spare on `spaces` when the favour is worth
    more than what those provinces would have done on their action spaces."""
    by_action = {p: a for a, p in actions.items()}
    chosen: dict[str, str] = {}
    cost = 0.0
    for space in spaces:
        k = data.court_size(space)
        options = [
            (worth.get(by_action.get(p, ""), 0.0) + ARMY_AWAY * k, p)
            for p in board.owned(view, seat)
            if view["provinces"][p]["armies"] > k and p not in chosen.values()
        ]
        if not options:
            return
        c, prov = min(options)
        cost += c
        chosen[space] = prov
    if cost >= prize:
        return
    out.update(chosen)
    for prov in chosen.values():
        actions.pop(by_action.get(prov, ""), None)
