"""Reads a ruleset's board geometry (data/geometry/board.json) once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"


@dataclass(frozen=True)
class Board:
    width: float
    height: float
    provinces: dict[str, dict[str, Any]]  # id -> {d, kind, label_at}
    routes: list[dict[str, Any]]  # {a, b, kind, d}
    context: list[dict[str, Any]]  # land that is not on the board: {name, d}


@cache
def load(package: str) -> Board:
    raw = json.loads((RULES_DIR / package / "data" / "geometry" / "board.json").read_text(encoding="utf-8"))
    _, _, w, h = raw["viewBox"]
    return Board(w, h, raw["provinces"], raw["routes"], raw["context"])
