"""The toy's rules catalogue (`GET /rulesets/toy-auction/catalogue` in tests):
its factions, the prize and the labels of its commands and prompts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.rules import cataloguing
from games.rules.i18n import Texts

from .setup import FACTIONS
from .state import AWARD, BID

DATA = Path(__file__).parent / "data"
COLOURS = {"red": "#d55e00", "blue": "#0072b2", "green": "#009e73", "yellow": "#f0e442"}


def build(lang: str) -> dict[str, Any]:
    words = Texts(DATA / "i18n", lang)
    factions = [
        {
            "id": faction,
            "name": words(f"colour.{faction}"),
            "colour": COLOURS[faction],
            "letter": faction[0].upper(),
        }
        for faction in FACTIONS
    ]
    prizes = [
        {
            "id": f"prize:{points}",
            "kind": "prize",
            "name": words("prize.name", points=points),
            "text": words("prize.text"),
        }
        for points in range(1, 7)
    ]
    return {
        "ruleset": "toy-auction",
        "language": words.lang,
        "map": {"view_box": None, "provinces": [], "sea_routes": []},
        "factions": factions,
        "figures": [],
        "cards": prizes,
        "commands": cataloguing.commands(words, DATA),
        "choices": cataloguing.choices(words),
        "prompts": cataloguing.prompts(words, (BID, AWARD)),
    }
