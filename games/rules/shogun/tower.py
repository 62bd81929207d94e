"""The cube tower as a seeded stochastic model (reference 8.3 / 15.13).

Cubes are seat numbers (0..4) or GREEN (-1). The tower has two baffle levels holding
stuck cubes and a tray. A throw takes the new cubes plus everything lying in the tray,
shuffles them and passes them one by one through level 1 then level 2: a passing cube
falls through with p = 17/20, else it sticks; each time a cube falls through a level,
every cube stuck there is knocked loose with p = 1/40 and falls on with it. What leaves
level 2 lands in the tray. Only `decide`/`start` call `drop` (it draws randomness); the
resulting tower is written into the event payload and `evolve` just copies it.
"""

from __future__ import annotations

from . import catalog as C

_FALL = C.TABLES["tower"]["fall"]
_LOOSE = C.TABLES["tower"]["dislodge"]


def _through(cube: int, stuck: list[int], rng) -> list[int]:
    """Pass one cube through one level; return the cubes that leave it (in order)."""
    if rng.randbelow(_FALL[1]) >= _FALL[0]:
        stuck.append(cube)
        return []
    falling = [cube]
    still: list[int] = []
    for c in stuck:
        (falling if rng.randbelow(_LOOSE[1]) < _LOOSE[0] else still).append(c)
    stuck[:] = still
    return falling


def drop(tower: dict, new_cubes: list[int], rng) -> dict:
    """Throw `new_cubes` plus the tray into the tower. Returns the new tower
    ``{l1, l2, tray}`` whose tray holds every cube that fell out of this throw."""
    batch = rng.shuffled(list(tower["tray"]) + list(new_cubes))
    l1, l2, out = list(tower["l1"]), list(tower["l2"]), []
    for cube in batch:
        for c in _through(cube, l1, rng):
            out.extend(_through(c, l2, rng))
    return {"l1": l1, "l2": l2, "tray": out}


def empty() -> dict:
    return {"l1": [], "l2": [], "tray": []}
