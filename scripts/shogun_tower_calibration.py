"""Calibrate (and report on) the Shogun cube tower's capacity model.

    .venv/bin/python scripts/shogun_tower_calibration.py report     # figures of the models in data
    .venv/bin/python scripts/shogun_tower_calibration.py calibrate  # grid search, prints the best

The model and its parameters live in `games/rules/shogun/data/tables.yaml` (`tower`); this
script runs the engine's own `tower.drop` with a fast seeded stream (random.Random; the
engine's HMAC stream gives the same distributions, only slower).

Why, with the measurements and history: docs/modules.md, `scripts/shogun_tower_calibration.py`.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
from itertools import product

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.rules.shogun import data  # noqa: E402
from games.rules.shogun.tower import Model, drop, empty, model_from_data  # noqa: E402

EXAMPLE_OUT = 7
BATTLE = 7  # cubes of a typical battle throw used for the steady-state targets


class FastRng:
    """randbelow / shuffled over random.Random: exact uniform integers, seeded."""

    def __init__(self, seed: int):
        self._r = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self._r.randrange(n)

    def shuffled(self, items):
        out = list(items)
        self._r.shuffle(out)
        return out


def seeding_outs(model: Model, players: int, throws: int, start: int = 0) -> list[int]:
    cubes = [seat for seat in range(players) for _ in range(7)] + [data.GREEN] * 10
    return [len(drop(empty(), cubes, FastRng(start + i), model)["tray"]) for i in range(throws)]


def percentile_of(outs: list[int], x: int) -> tuple[float, float, float]:
    """P(X < x), P(X <= x), and the mid-rank percentile."""
    below = sum(o < x for o in outs) / len(outs)
    upto = sum(o <= x for o in outs) / len(outs)
    return below, upto, (below + upto) / 2


def battle_run(model: Model, players: int, games: int, throws: int, size: int, start: int = 10**6):
    """Seed the tower, then `throws` battles of `size` fresh cubes (the tray emptied after
    each, as when every cube out belongs to the parties). Per throw index: lists of
    (out, own cubes out, earlier cubes out, stuck after)."""
    rows: list[list[tuple[int, int, int, int]]] = [[] for _ in range(throws)]
    for g in range(games):
        rng = FastRng(start + g)
        # cubes are tagged (throw, i) so a throw's own cubes can be told from older ones
        seed = [(-1, i) for i in range(7 * players + 10)]
        tower = drop(empty(), seed, rng, model)
        tower["tray"] = []
        stuck0 = len(tower["l1"]) + len(tower["l2"])
        for b in range(throws):
            tower = drop(tower, [(b, i) for i in range(size)], rng, model)
            out = tower["tray"]
            own = sum(1 for c in out if c[0] == b)
            rows[b].append((len(out), own, len(out) - own, len(tower["l1"]) + len(tower["l2"]) - stuck0))
            tower["tray"] = []
    return rows


def mean(xs) -> float:
    return statistics.fmean(xs)


def steady(model: Model, games: int) -> tuple[float, float]:
    """(own share of a 7-cube throw over throws 3..8, stuck drift after 8 throws)."""
    rows = battle_run(model, 3, games, 8, BATTLE)
    share = mean(r[1] for b in range(2, 8) for r in rows[b]) / BATTLE
    return share, mean(r[3] for r in rows[7])


def capacity_model(shape: int, catch, k1: int, k2: int, dislodge) -> Model:
    levels = [{"capacity": k, "catch": list(catch), "dislodge": list(dislodge)} for k in (k1, k2)]
    return model_from_data("capacity", {"shape": shape, "levels": levels})


def calibrate() -> None:
    fixed = model_from_data("fixed", data.TABLES["tower"]["models"]["fixed"])
    target_share, _ = steady(fixed, 400)
    print(f"fixed model: own share of a {BATTLE}-cube throw in steady play = {target_share:.3f}")
    scored = []
    grid = product((1, 2, 3), ((9, 10), (4, 5)), range(10, 22, 2), range(10, 22, 2),
                   ((1, 100), (1, 70), (1, 50)))  # fmt: skip
    for shape, catch, k1, k2, dislodge in grid:
        model = capacity_model(shape, catch, k1, k2, dislodge)
        mid = percentile_of(seeding_outs(model, 3, 80), EXAMPLE_OUT)[2]
        if abs(mid - 0.5) > 0.15:
            continue
        share, drift = steady(model, 25)
        score = abs(mid - 0.5) / 0.05 + abs(share - target_share) / 0.03 + abs(drift) / 1
        scored.append((score, (shape, catch, k1, k2, dislodge)))
    scored.sort()
    print(f"{len(scored)} candidates; the 8 best re-measured (20,000 seedings, 400 games of battles):")
    final = []
    for _, params in scored[:8]:
        model = capacity_model(*params)
        outs = seeding_outs(model, 3, 20000)
        below, upto, mid = percentile_of(outs, EXAMPLE_OUT)
        share, drift = steady(model, 400)
        score = abs(mid - 0.5) / 0.05 + abs(share - target_share) / 0.03 + abs(drift) / 1
        final.append((score, params, mean(outs), below, upto, share, drift))
    for score, params, m, below, upto, share, drift in sorted(final):
        print(
            f"  score {score:5.2f}  shape={params[0]} catch={params[1]} capacities={params[2]},{params[3]} "
            f"dislodge={params[4]}: seeding mean {m:.2f}, P(<7)={below:.3f} P(<=7)={upto:.3f}; "
            f"own share {share:.3f}, drift {drift:+.2f}"
        )


def report() -> None:
    for name, spec in data.TABLES["tower"]["models"].items():
        model = model_from_data(name, spec)
        print(f"== model {name}")
        for players in (3, 4, 5):
            outs = seeding_outs(model, players, 20000)
            below, upto, mid = percentile_of(outs, EXAMPLE_OUT)
            q = statistics.quantiles(outs, n=10)
            print(
                f"seeding {players}p ({7 * players + 10} cubes): out mean {mean(outs):.2f} sd "
                f"{statistics.pstdev(outs):.2f}, deciles 10%={q[0]:.0f} 50%={q[4]:.0f} 90%={q[8]:.0f}, "
                f"min {min(outs)} max {max(outs)}; P(out<7)={below:.3f} P(out<=7)={upto:.3f}; "
                f"officials per player ~{mean(outs) * 7 / (7 * players + 10):.1f}"
            )
        for size in (5, 7, 10):
            rows = battle_run(model, 4, 1000, 8, size)
            for b, label in ((0, "first battle after a 4p seeding"), (7, "8th battle")):
                r = rows[b]
                print(
                    f"throw of {size:2d} ({label}): out {mean(x[0] for x in r):.2f} = own "
                    f"{mean(x[1] for x in r):.2f} + earlier {mean(x[2] for x in r):.2f}; "
                    f"P(no own cube out) {mean(x[1] == 0 for x in r):.3f}; stuck vs after seeding "
                    f"{mean(x[3] for x in r):+.2f}"
                )


if __name__ == "__main__":
    {"calibrate": calibrate, "report": report}[sys.argv[1] if len(sys.argv) > 1 else "report"]()
