"""Helpers for the board-picture tests: seeded engine games (no database) and
reading an SVG back into pieces."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from typing import Any

from games.bots import choose
from games.rules import registry
from games.rules.base import fold, rng_factory
from games.rules.testing import roundtrip

SVG_NS = "{http://www.w3.org/2000/svg}"


def states(ruleset: str, players: int, seed: int, options: dict | None = None) -> Iterator[tuple[int, Any]]:
    """Every state of a bot-played game, with its command count (the last is the end)."""
    rules = registry.load_strict(ruleset)
    rnd = random.Random(seed)
    opts = options or {}
    factions = list(rules.factions(players, opts))[:players]
    events = list(rules.start(factions, opts, rng_factory(f"s{seed}", 1)))
    st, n, c = fold(rules, events), len(events), 0
    yield c, st
    while rules.outcome(st) is None:
        p = rnd.choice(rules.pending(st))
        cmd = json.loads(json.dumps(choose(rules, st, p.seat, rnd)))
        for e in rules.decide(st, p.seat, cmd, rng_factory(f"s{seed}", n + 1)):
            if not e.type.startswith("core."):
                st = rules.evolve(st, roundtrip(e))  # as the store gives it back
            n += 1
        c += 1
        yield c, st


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def provinces(root: ET.Element) -> Counter:
    return Counter(el.get("data-province") for el in root.iter() if el.get("data-province") is not None)


def pieces(root: ET.Element, kinds: set[str] | None = None, where: str = "map") -> Counter:
    """(kind, seat, province) -> count, for chips on the map (where="map") or in the panel."""
    out: Counter = Counter()
    for el in root.iter(f"{SVG_NS}g"):
        kind = el.get("data-piece")
        if kind is None or (kinds is not None and kind not in kinds):
            continue
        at = el.get("data-at")
        if (where == "map") != (at is not None):
            continue
        seat = el.get("data-seat")
        out[(kind, None if seat is None else int(seat), at)] += int(el.get("data-count", "1"))
    return out


def attrs(root: ET.Element, kind: str) -> list[dict[str, str]]:
    return [dict(el.attrib) for el in root.iter(f"{SVG_NS}g") if el.get("data-piece") == kind]
