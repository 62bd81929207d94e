"""What a ruleset layer hands the drawing routine: pieces per province, marks
and side-panel rows. Values only; `draw.py` decides where they go."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.rules.i18n import Texts


@dataclass(frozen=True)
class Piece:
    """One chip: `count` pieces of one kind of one seat (or none: a neutral
    piece or a building). `text` is the chip's letters (the second cue next to
    the colour), `title` its tooltip; `attrs` become extra data- attributes."""

    kind: str
    seat: int | None
    text: str
    title: str
    count: int = 1
    attrs: tuple[tuple[str, str], ...] = ()
    colour: str | None = None  # instead of the seat's (a side's control flag)


@dataclass(frozen=True)
class Row:
    """One side-panel line: an optional chip (or several), then text."""

    text: str
    chip: Piece | None = None
    chips: tuple[Piece, ...] = ()


@dataclass
class Scene:
    seats: list[tuple[str, str, str]]  # per seat: (faction name, letter, colour)
    title: str
    pieces: dict[str, list[Piece]] = field(default_factory=dict)  # province id -> chips
    fills: dict[str, str] = field(default_factory=dict)  # province id -> fill colour
    dimmed: set[str] = field(default_factory=set)  # provinces out of play
    panel: list[tuple[str, list[Row]]] = field(default_factory=list)  # (heading, rows)
    notice: str = ""  # a warning line under the title (e.g. an experimental board side)

    def add(self, province: str, piece: Piece) -> None:
        self.pieces.setdefault(province, []).append(piece)


@dataclass(frozen=True)
class Layer:
    """One ruleset's board: `package` is its folder under games/rules (holding
    data/geometry/board.json and data/i18n), `scene` maps a view to a Scene, `names`
    gives the default (English) province names. Each board module declares its
    `LAYER`; the ruleset's record (games/plugins.py) names it."""

    package: str
    scene: Callable[[Mapping[str, Any], Texts], Scene]
    names: Callable[[], dict[str, str]]


def word(t: Texts, key: str, raw: object) -> str:
    """The text of `key` in the viewer's language, or `raw` for a value the tables
    do not name (an id the engine invented, a number)."""
    return t(key) if t.has(key) else str(raw)


def turn(t: Texts, seats: list[tuple[str, str, str]], seat: int, kind: str) -> Piece:
    """The chip of a seat that must act now (`kind`: the ruleset's name of the decision,
    kept raw in `data-kind`; its tooltip names it in the viewer's language)."""
    title = t("board.turn", who=seats[seat][0], kind=word(t, f"prompt.{kind}", kind))
    return Piece("turn", seat, seats[seat][1], title, attrs=(("kind", kind),))
