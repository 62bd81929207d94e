"""The cube tower as a seeded stochastic model (reference 8.3 / 15.13, issue 12).

Cubes are seat numbers (0..4) or GREEN (-1). The tower has two baffle levels holding stuck
cubes, and a tray. A throw takes the new cubes plus everything lying in the tray, shuffles
them and passes them one by one through level 1, then level 2. At each level a passing
cube either sticks there or falls through; each time a cube falls through a level, every
cube stuck there is knocked loose with probability `dislodge` and falls on with it (cubes
knocked loose at level 1 go on through level 2). What leaves level 2 lands in the tray.

Why, with the measurements and history: docs/modules.md, `games/rules/shogun/tower.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from . import data
from .state import Tower


class _Rng(Protocol):
    def randbelow(self, bound: int) -> int: ...
    def shuffled(self, items: list[int]) -> list[int]: ...


@dataclass(frozen=True)
class Level:
    """One baffle level. `catch` / `dislodge` are (numerator, denominator); `capacity`
    None is the fixed model (catch is then the constant chance to stick)."""

    catch: tuple[int, int]
    dislodge: tuple[int, int]
    capacity: int | None = None
    shape: int = 1

    def sticks(self, held: int, rng: _Rng) -> bool:
        num, den = self.catch
        if self.capacity is None:
            # the fixed model's draw as versions 1-2 made it: falls iff below `fall`
            return bool(rng.randbelow(den) >= den - num)
        full = self.capacity**self.shape
        free = max(0, full - held**self.shape)
        return bool(rng.randbelow(den * full) < num * free)

    def loosened(self, rng: _Rng) -> bool:
        num, den = self.dislodge
        return rng.randbelow(den) < num


@dataclass(frozen=True)
class Model:
    name: str
    levels: tuple[Level, Level]


def model_from_data(name: str, spec: dict[str, Any]) -> Model:
    """A model from its `tables.yaml` entry (also used by the calibration script)."""
    if name == "fixed":
        fall, den = spec["fall"]
        level = Level(catch=(den - fall, den), dislodge=tuple(spec["dislodge"]))
        return Model(name, (level, level))
    shape = spec.get("shape", 1)
    levels = tuple(
        Level(catch=tuple(lv["catch"]), dislodge=tuple(lv["dislodge"]), capacity=lv["capacity"], shape=shape)
        for lv in spec["levels"]
    )
    return Model(name, (levels[0], levels[1]))


_MODELS = {name: model_from_data(name, spec) for name, spec in data.TABLES["tower"]["models"].items()}
_BY_VERSION: dict[int, str] = {int(v): name for v, name in data.TABLES["tower"]["by_rules_version"].items()}


def model_for(version: int) -> Model:
    """The model of the newest rules version not after `version`."""
    known = [v for v in _BY_VERSION if v <= version] or [min(_BY_VERSION)]
    return _MODELS[_BY_VERSION[max(known)]]


def _through(cube: int, stuck: list[int], level: Level, rng: _Rng) -> list[int]:
    """Pass one cube through one level; return the cubes that leave it (in order)."""
    if level.sticks(len(stuck), rng):
        stuck.append(cube)
        return []
    falling = [cube]
    still: list[int] = []
    for c in stuck:
        (falling if level.loosened(rng) else still).append(c)
    stuck[:] = still
    return falling


def drop(tower: Tower, new_cubes: list[int], rng: _Rng, model: Model | None = None) -> Tower:
    """Throw `new_cubes` plus the tray into the tower. Returns the new tower
    ``{l1, l2, tray}`` whose tray holds every cube that fell out of this throw."""
    first, second = (model or model_for(data.RULES_VERSION)).levels
    batch = rng.shuffled(list(tower["tray"]) + list(new_cubes))
    l1, l2, out = list(tower["l1"]), list(tower["l2"]), []
    for cube in batch:
        for c in _through(cube, l1, first, rng):
            out.extend(_through(c, l2, second, rng))
    return {"l1": l1, "l2": l2, "tray": out}


def empty() -> Tower:
    return {"l1": [], "l2": [], "tray": []}
