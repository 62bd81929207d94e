"""The province draft: provinces that hang together (next to the seat's own, in
the regions it already holds: defence, and the regional building majorities
that score every winter), with building sites, taxes and rice; the largest start
village first. A lookahead cannot price a draft pick: the winter score counts
every province alike."""

from __future__ import annotations

from typing import Any

from games.rules.shogun import data

from .board import View

BLIND = 1.0  # an unseen card: about an average province, nothing known about its place


def pick_value(view: View, seat: int, prov: str) -> float:
    region = data.regions(view["opts"]["board"])
    mine = [n for n, p in view["provinces"].items() if p["owner"] == seat]
    info = data.PROVINCES[prov]
    value: float = 0.25 * info["sites"] + 0.05 * (info["tax"] + info["rice"])
    value += 0.5 * sum(1 for n in data.ADJ[prov] if n in mine)
    value += 0.3 * sum(1 for n in mine if region[n] == region[prov])
    return value


def draft(view: View, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    def worth(c: dict[str, Any]) -> tuple[float, int]:
        card = c["card"]
        return (BLIND if card == "blind" else pick_value(view, seat, card), c["village"])

    return max(legal, key=worth)
