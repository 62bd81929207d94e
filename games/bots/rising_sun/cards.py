"""What a Season card is worth to the `heuristic` bot, in VP, before its price.

Cards that act every season (Force, coins at the start of each war, an effect
after each Summon) are worth their yearly value times the seasons left; the
Winter upgrades (Forms) what they would score with what the seat has now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.rising_sun.data import CARDS, ONI

FORCE = 0.9  # one point of Force for a season: a share of a war won
COIN = 0.4
# per season left, for cards whose worth is not Force, coins or a Form
PER_SEASON = {
    "Way of the Ronin": 0.6,
    "Righteousness": 0.8,
    "Justice": 1.2,
    "Benevolence": 0.8,
    "Path of the Kenin": 1.0,
    "Path of the Samurai": 1.0,
    "Path of the Light": 0.6,
    "Path of the Warlord": 0.5,
    "Path of the Patron": 0.4,
    "Path of the Spirit": 0.6,
    "Oni of Souls": 1.0,
    "Oni of Spite": 1.2,
    "Oni of Hate": 0.8,
    "Courage": 1.2,
    "Mercy": 0.5,
}
WAR_COINS = {"Way of the Shogun": 3, "Way of the Moneylender": 5}
DAIMYO_FORCE = {"Path of the Lion": 1, "Path of the Dragon": 3}
ONCE = 0.3  # any other card: a small one-off


def _mine(view: Mapping[str, Any], seat: int) -> list[Mapping[str, Any]]:
    return [f for f in view["figures"].values() if f["owner"] == seat]


def _virtues(view: Mapping[str, Any], seat: int) -> int:
    return len({c for c in view["players"][seat]["cards"] if CARDS[c]["type"] == "virtue"})


def form_value(view: Mapping[str, Any], seat: int, card: str) -> float:
    p = view["players"][seat]
    if card == "Form of the Kitsune":
        return 3.0 * len(p["strongholds"])
    if card == "Form of the Phoenix":
        return 3.0 * _virtues(view, seat)
    if card == "Form of the Beast":
        return 3.0 * sum(1 for f in _mine(view, seat) if f["type"] == "monster")
    if card == "Form of the Demon":
        return 3.0 * sum(1 for f in _mine(view, seat) if f["name"] in ONI)
    if card == "Form of the Kindred":
        return 3.0 * len(set(p["alliance_seasons"]))
    return 0.0


def card_value(view: Mapping[str, Any], seat: int, card: str) -> float:
    seasons = max(1, 3 - int(view["season"]))
    c = CARDS[card]
    if c["type"] == "winter_upgrade":
        return form_value(view, seat, card)
    per = PER_SEASON.get(card, 0.0)
    if c["type"] == "monster":
        per += FORCE * float(c.get("force", 1))
    if card in WAR_COINS:
        per += COIN * WAR_COINS[card]
    if card in DAIMYO_FORCE:
        per += FORCE * DAIMYO_FORCE[card]
    if card == "Way of the Katana":
        per += FORCE * sum(1 for f in _mine(view, seat) if f["type"] == "bushi" and f["at"] != "reserve")
    if card == "Way of Bushido":
        per += (2 + 2 * COIN) * _virtues(view, seat)
    return per * seasons if per else ONCE
