"""Faction colours: the Okabe-Ito palette, distinguishable with the common
colour-vision deficiencies; every chip also carries a letter."""

from __future__ import annotations

ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, BLACK = (
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#F0E442",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
    "#000000",
)
BY_SEAT = [ORANGE, SKY, GREEN, YELLOW, PURPLE, BLUE, VERMILLION]
NAMED = {
    "orange": ORANGE,
    "blue": BLUE,
    "red": VERMILLION,
    "yellow": YELLOW,
    "green": GREEN,
    "purple": PURPLE,
    "black": BLACK,
    "white": "#FFFFFF",
}
NEUTRAL = "#FFFFFF"
DARK_TEXT_ON = {ORANGE, SKY, GREEN, YELLOW, PURPLE, NEUTRAL, "#FFFFFF"}


def ink(fill: str) -> str:
    """Text colour that reads on `fill`."""
    return "#000" if fill in DARK_TEXT_ON else "#fff"


def letters(names: list[str]) -> list[str]:
    """A distinct short letter cue per faction: the initial, or two letters on a clash."""
    first = [n[:1].upper() for n in names]
    return [f if first.count(f) == 1 else n[:2].title() for f, n in zip(first, names, strict=True)]
