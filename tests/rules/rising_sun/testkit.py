"""Test-state builder: compact set-ups for rulebook examples and card tests.

    g = Game(["Koi", "Lotus", "Turtle", "Dragonfly"])   # Spring, Tea Ceremony
    g.clear()                                           # empty map, no strongholds
    g.put("Koi", "bushi", "Kansai").put("Koi", "Oni of Blood", "Oshu")
    g.mandate_turn("Dragonfly", ["marshal", "recruit", "train", "harvest"])
    g.do("Dragonfly", type="choose_mandate", tile="marshal")

Every command goes through decide + evolve (with the JSON round trip), so the
tests exercise the real contract. Pure helper: no pytest import.
"""

from __future__ import annotations

import json
from typing import Any

from games.rules.base import canonical_json, fold, rng_factory
from games.rules.rising_sun.events import HIDDEN_CHANGED
from games.rules.rising_sun.flow import AUTO, run
from games.rules.rising_sun.frames import Steps
from games.rules.rising_sun.named import NAMED_TYPES, PositionChanged
from games.rules.rising_sun.rules import RULES
from games.rules.rising_sun.state import force
from games.rules.testing import roundtrip


class Game:
    def __init__(
        self,
        clans: list[str],
        season_set: str = "archway",
        shrines: str = "first_game",
        seed: str = "t",
        version: int | None = None,
    ):
        self.rules = RULES if version is None else RULES.for_rules_version(version)
        events = [
            roundtrip(e)
            for e in self.rules.start(
                clans, {"season_set": season_set, "shrines": shrines}, rng_factory(seed, 1)
            )
        ]
        self.s = fold(self.rules, events)
        self.events = list(events)
        self.seed = seed

    # ---------------------------------------------------------------- who
    def seat(self, clan: str | int) -> int:
        return clan if isinstance(clan, int) else self.s["clans"].index(clan)

    # ------------------------------------------------------------ set-up
    def clear(self) -> Game:
        for f in self.s["figures"].values():
            f["at"] = "reserve"
        for p in self.s["players"]:
            p["strongholds"] = []
        return self

    def put(self, clan, kind: str, loc: str, n: int = 1) -> Game:
        """Move n figures of a kind from the reserve to loc (a province or
        "shrine:<Kami>"); a monster figure (and its card) is created if needed."""
        seat = self.seat(clan)
        for _ in range(n):
            cands = sorted(
                fid
                for fid, f in self.s["figures"].items()
                if f["owner"] == seat and f["at"] == "reserve" and (f["name"] == kind)
            )
            if not cands and kind not in ("bushi", "shinto", "daimyo"):
                fid = "m:" + kind
                self.s["figures"][fid] = {"owner": seat, "type": "monster", "name": kind, "at": "reserve"}
                self.s["players"][seat]["cards"].append(kind)
                cands = [fid]
            self.s["figures"][cands[0]]["at"] = loc
        return self

    def strongholds(self, clan, provinces: list[str]) -> Game:
        self.s["players"][self.seat(clan)]["strongholds"] = list(provinces)
        return self

    def set(self, clan, **kw) -> Game:
        self.s["players"][self.seat(clan)].update(kw)
        return self

    def card(self, clan, name: str, n: int = 1) -> Game:
        self.s["players"][self.seat(clan)]["cards"] += [name] * n
        return self

    def honor(self, *clans) -> Game:
        self.s["honor"] = [self.seat(c) for c in clans]
        return self

    def ally(self, a, b) -> Game:
        a, b = self.seat(a), self.seat(b)
        self.s["alliances"][a], self.s["alliances"][b] = b, a
        return self

    def shrines(self, *names) -> Game:
        self.s["shrines"] = list(names)
        return self

    def display(self, *cards) -> Game:
        self.s["display"] = list(cards)
        return self

    def _politics(self) -> None:
        self.s["phase"] = "politics"
        self.s["proposals"] = []
        self.s["position"] = [{"kind": "political", "step": 0}]

    def mandate_turn(self, clan, tiles: list[str]) -> Game:
        """It is `clan`'s mandate turn and these are the 4 tiles on top."""
        self._politics()
        deck = list(self.s["mandate_deck"])
        for t in tiles:
            deck.remove(t)
        self.s["mandate_deck"] = list(tiles) + deck
        self.s["position"].append({"kind": "choose_mandate", "seat": self.seat(clan)})
        return self

    def kami_turn(self) -> Game:
        self._politics()
        self.s["position"].append({"kind": "kami", "step": 0})
        return self.resume()

    def war_phase(self, provinces: list[str]) -> Game:
        self._politics()
        self.s["war_provinces"] = list(provinces)
        self.s["position"] = [{"kind": "war_start"}]
        return self.resume()

    def frame(self, k: str, **kw) -> Game:
        """Make `k` the only frame and run until someone must act."""
        self.s["position"] = [{"kind": k, **kw}]
        return self.resume()

    def auto(self, k: str, **kw) -> Game:
        """Execute exactly one automatic frame (no follow-up frames run)."""
        self.s["position"] = [{"kind": k, **kw}]
        AUTO[k](self.s, self.s["position"][-1], Steps(self.s, rng=rng_factory(self.seed, 998)))
        return self

    def until(self, k: str, **kw) -> Game:
        """Make `k` the only frame and run automatic frames until one of them
        pushes a "war" or "cleanup" frame, or someone must act."""
        self.s["position"] = [{"kind": k, **kw}]
        steps = Steps(self.s, rng=rng_factory(self.seed, 997))
        while self.s["position"] and self.s["position"][-1]["kind"] not in ("war", "cleanup"):
            fn = AUTO.get(self.s["position"][-1]["kind"])
            if fn is None:
                break
            fn(self.s, self.s["position"][-1], steps)
        return self

    def resume(self) -> Game:
        run(Steps(self.s, rng=rng_factory(self.seed, 999)))
        return self

    # ------------------------------------------------------------ play
    def do(self, clan, **cmd) -> Game:
        seat = self.seat(clan)
        cmd = json.loads(canonical_json(cmd))
        new = self.rules.decide(self.s, seat, cmd, rng_factory(self.seed, len(self.events) + 1))
        for e in new:
            e = roundtrip(e)
            self.events.append(e)
            if not e.type.startswith("core."):
                self.s = self.rules.evolve(self.s, e)
        return self

    def shown(self) -> list:
        """The events but the hidden outcomes (rules versions 4-6) and what follows a
        batch's public event at version 6 (its named facts and the new position)."""
        return [e for e in self.events if e.type not in (HIDDEN_CHANGED, PositionChanged.TYPE, *NAMED_TYPES)]

    def facts(self) -> list:
        """The named facts (rules version 6) emitted so far."""
        return [e for e in self.events if e.type in NAMED_TYPES]

    def choose(self, clan, choice) -> Game:
        return self.do(clan, type="choose", choice=choice)

    def done(self, clan) -> Game:
        return self.do(clan, type="done")

    def bid(self, clan, seppuku=0, hostage=0, ronin=0, poets=0) -> Game:
        return self.do(clan, type="bid", seppuku=seppuku, hostage=hostage, ronin=ronin, poets=poets)

    # ------------------------------------------------------------ read
    def p(self, clan) -> dict[str, Any]:
        return self.s["players"][self.seat(clan)]

    def vp(self, clan) -> int:
        return self.p(clan)["vp"]

    def coins(self, clan) -> int:
        return self.p(clan)["coins"]

    def force(self, clan, prov: str) -> int:
        return force(self.s, self.seat(clan), prov)

    def count(self, clan, loc: str, kind: str | None = None) -> int:
        seat = self.seat(clan)
        return sum(
            1
            for f in self.s["figures"].values()
            if f["owner"] == seat and f["at"] == loc and (kind is None or f["name"] == kind)
        )

    def rank(self, clan) -> int:
        return self.s["honor"].index(self.seat(clan))

    def top(self) -> dict | None:
        return self.s["position"][-1] if self.s["position"] else None

    def pending(self) -> list[tuple[int, str]]:
        return [(p.seat, p.kind) for p in self.rules.pending(self.s)]

    def legal(self, clan) -> list[dict]:
        return list(self.rules.legal_commands(self.s, self.seat(clan)).commands)
