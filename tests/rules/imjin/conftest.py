"""Helpers for the Imjin engine tests: build games and scenarios, script dice."""

from __future__ import annotations

import json

import pytest

from games.rules.base import Event, Rng, canonical_json, fold, rng_factory
from games.rules.imjin.combat import FACES
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import copy

ZH = {"馬": "horse", "船": "ship", "砲": "cannon", "車": "cart", "徽": "crest", "將": "general"}


def faces(text: str) -> list[str]:
    return [ZH[c] for c in text if c in ZH]


class Scripted(Rng):
    """An rng whose randbelow(6) calls return scripted die faces (in order), and
    whose other draws come from a real seeded stream."""

    def __init__(self, dice: list[str], seq: int, purpose: str):
        super().__init__("test-seed", seq, purpose)
        self.dice = dice

    def randbelow(self, n: int) -> int:
        if n == 6 and self.dice:
            return FACES.index(self.dice.pop(0))
        return super().randbelow(n)


def scripted(*rolls: str):
    """An rng factory giving these faces (zh text) to dice rolls, in order."""
    dice = [f for r in rolls for f in faces(r)]
    return lambda purpose: Scripted(dice, 1, purpose)


def rt(e: Event) -> Event:
    return Event(e.type, json.loads(canonical_json(dict(e.payload))), e.version, e.visible_to)


class Game:
    """A state plus the events that made it; `do` decides and folds."""

    def __init__(self, n: int = 2, factions=None, options=None, seed: str = "t"):
        factions = factions or (["japan", "allies"] if n == 2 else ["kato", "joseon", "konishi", "ming"])
        self.events = [rt(e) for e in RULES.start(factions, options or {}, rng_factory(seed, 1))]
        self.state = fold(RULES, self.events)
        self.seed = seed

    def do(self, seat: int, cmd: dict, rng=None) -> list[Event]:
        rng = rng or rng_factory(self.seed, len(self.events) + 1)
        new = RULES.decide(self.state, seat, cmd, rng)
        for e in new:
            e = rt(e)
            self.events.append(e)
            if not e.type.startswith("core."):
                self.state = RULES.evolve(self.state, e)
        return new

    @property
    def head(self) -> dict:
        return self.state["queue"][0]

    def legal(self, seat: int) -> list[dict]:
        return [dict(c) for c in RULES.legal_commands(self.state, seat).commands]

    def skip_setup(self, hands=None, placements=None):
        """Decline legendaries, pick hands (default: first legal), place generals."""
        s = self.state
        for seat in list(s["order"]):
            if self.state["queue"] and self.head["kind"] == "choose_legendary":
                self.do(self.head["seat"], {"type": "choose_legendary", "general": None})
        hands = hands or {}
        for seat in range(s["n"]):
            wanted = list(hands.get(seat, []))
            while seat in self.head.get("seats", []):
                opts = [c["general"] for c in self.legal(seat)]
                g = next((w for w in wanted if w in opts), opts[0])
                if g in wanted:
                    wanted.remove(g)
                self.do(seat, {"type": "pick_general", "general": g})
        placements = list(placements or [])
        while self.head["kind"] == "place_general":
            seat = self.head["seat"]
            mine = [p for p in placements if p[0] == seat]
            cmd = ({"type": "place_general", "general": mine[0][1], "unit": mine[0][2]}
                   if mine else self.legal(seat)[0])
            if mine:
                placements.remove(mine[0])
            self.do(seat, cmd)
        return self

    # -- scenario surgery (tests only: put the table in a wanted position) -----

    def edit(self, fn):
        s = copy(self.state)
        fn(s)
        self.state = s
        return self


def clear_board(s, keep_generals=False):
    s["units"] = {}
    if not keep_generals:
        s["generals"] = {g: r for g, r in s["generals"].items() if r["where"] != "map"}


def put(s, uid, owner, area, troops, general=None, damage=0):
    s["units"][uid] = {"owner": owner, "area": area, "troops": troops, "general": general}
    s["next_uid"] = max(s["next_uid"], int(uid[1:]) + 1)
    if general:
        for hand in s["hands"]:
            if general in hand:
                hand.remove(general)
        for sec in s["secrets"]:
            sec.pop(general, None)
        s["generals"][general] = {"owner": owner, "where": "map", "unit": uid, "damage": damage}


def prompt(s, p, turn=None, action="move_battle", act=None):
    """Make `p` the only pending decision, during `turn`'s action."""
    t = p["seat"] if turn is None else turn
    s["flow"] = {"stage": "turn", "turn": t, "step": "act", "action": action}
    s["queue"] = [p]
    s["act"] = act or {}


def in_hand(s, seat, *gids):
    for g in gids:
        if g not in s["hands"][seat]:
            s["hands"][seat].append(g)


@pytest.fixture
def game():
    return Game(2).skip_setup()
