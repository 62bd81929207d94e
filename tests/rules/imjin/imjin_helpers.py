"""Helpers for the Imjin engine tests: build games and scenarios, script dice."""

from __future__ import annotations

import json

from games.rules.base import Event, Rng, canonical_json, fold, rng_factory
from games.rules.imjin.combat import FACES
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import copy, head_prompt, prompts, stage, stage_frame

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
        return head_prompt(self.state)

    def legal(self, seat: int) -> list[dict]:
        return [dict(c) for c in RULES.legal_commands(self.state, seat).commands]

    def skip_setup(self, hands=None, placements=None):
        """Decline legendaries, pick hands (default: first legal), place generals."""
        s = self.state
        for _seat in list(s["order"]):
            if prompts(self.state) and self.head["kind"] == "choose_legendary":
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
            cmd = (
                {"type": "place_general", "general": mine[0][1], "unit": mine[0][2]}
                if mine
                else self.legal(seat)[0]
            )
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
    s["position"] = [stage_frame({"stage": "turn", "turn": t, "step": "act", "action": action}), p]
    s["act"] = act or {}


def in_hand(s, seat, *gids):
    for g in gids:
        if g not in s["hands"][seat]:
            s["hands"][seat].append(g)


# ---------------------------------------------------------------------------
# Battle scenarios: an attacker (seat `att`) and a defender on a cleared board.

LAND = ("GG_R", "GW_W")  # attacker area, target area (adjacent lands)
SEA = ("DDB", "GGB")  # adjacent seas


def duel(
    att_general=None,
    def_general=None,
    att=1,
    land=True,
    att_troops=3,
    def_troops=3,
    extra=None,
    supply=(30, 30),
    att_damage=0,
    def_damage=0,
):
    """A game whose pending decision is `att`'s battle declaration: main u1 next to
    target u2 (u1 at LAND[0]/SEA[0], u2 at LAND[1]/SEA[1])."""
    g = Game(2, options={"legendary_generals": []}).skip_setup()
    a_area, t_area = LAND if land else SEA
    dfn = 1 - att

    def setup(s):
        clear_board(s)
        put(s, "u1", att, a_area, att_troops, att_general, att_damage)
        put(s, "u2", dfn, t_area, def_troops, def_general, def_damage)
        for spec in extra or []:
            put(s, *spec)
        s["supply"] = list(supply)
        sea = sorted(
            u
            for u, d in s["units"].items()
            if d["owner"] == att and d["area"] in ("DDB", "GGB", "YS", "WKB", "DMS", "SOJ", "TS_E", "TS_W")
        )
        prompt(s, {"kind": "declare", "seat": att, "draft": None}, act={"sea_start": sea})

    return g.edit(setup)


def fight(g, target="u2", main="u1", supports=(), via=None, mode="normal", dice=("", ""), seat=None):
    """Declare one battle, confirm, fight, resolve it with scripted dice; return the
    BattleResolved payload."""
    seat = g.head["seat"] if seat is None else seat
    g.do(seat, {"type": "attack", "target": target, "main": main, "via": via, "mode": mode})
    for u in supports:
        g.do(seat, {"type": "support", "unit": u})
    g.do(seat, {"type": "confirm"})
    g.do(seat, {"type": "fight"})
    g.do(seat, {"type": "resolve", "battle": len(g.state["act"]["battles"]) - 1}, rng=scripted(*dice))
    return [e for e in g.events if e.type == "imjin.BattleResolved"][-1].payload


def pools(g, target="u2", main="u1", supports=(), mode="normal"):
    from games.rules.imjin.combat import pools as _pools

    s = g.state
    t_area = s["units"][target]["area"]
    from games.rules.imjin.data import is_land

    b = {
        "target": target,
        "main": main,
        "supports": list(supports),
        "mode": mode,
        "area": t_area,
        "type": "land" if is_land(t_area) else "sea",
    }
    return _pools(s, b)


def force_card(g, card, resets=None):
    """Make `card` the next event revealed (reset: the last card of the deck)."""

    def setup(s):
        pool = sorted(e for e in s["deck"]["pool"] + [c for c in s["revealed"] if c != "reset"])
        pool = sorted(set(pool) | {card} - {"reset"})
        if card == "reset":
            s["deck"] = {"size": 8, "drawn": 7, "pool": pool, "reset_in": True}
        else:
            s["deck"] = {"size": 8, "drawn": 0, "pool": [card], "reset_in": True}
        if resets is not None:
            s["resets"] = resets

    return g.edit(setup)


def reveal_now(g, seat=None, wheel_from=2):
    """Have the turn player step onto a Move/Battle space (crossing a divider)."""
    from games.rules.imjin.rules import RULES  # noqa: F401

    seat = stage(g.state)["turn"] if seat is None else seat
    side = g.state["side"][seat]
    g.edit(lambda s: s["wheel"].__setitem__(side, wheel_from))
    g.do(seat, {"type": "advance", "steps": 1})
    return g


def run_defaults_until(g, kinds):
    from games.rules.imjin.rules import RULES

    for _ in range(200):
        if RULES.outcome(g.state) is not None or g.head["kind"] in kinds:
            return g
        seat = RULES.pending(g.state)[0].seat
        g.do(seat, dict(RULES.default_command(g.state, seat)))
    raise AssertionError("never reached " + str(kinds))


def play_checked(n: int, seed: int, options=None, rules=None, default_share: float = 0.0):
    """A seeded random game (mixing in default commands at `default_share`), the
    engine invariants asserted after every command; returns (events, state)."""
    import random

    from games.rules.imjin.invariants import problems
    from games.rules.imjin.rules import RULES
    from games.rules.testing import pick

    rules = rules or RULES
    rnd = random.Random(seed)
    gs = f"inv-{seed}"
    events = [rt(e) for e in rules.start([None] * n, options or {}, rng_factory(gs, 1))]
    state = fold(rules, events)
    steps = 0
    while rules.outcome(state) is None:
        p = rnd.choice(rules.pending(state))
        legal = rules.legal_commands(state, p.seat)
        cmd = rules.default_command(state, p.seat) if rnd.random() < default_share else pick(legal, rnd)
        cmd = json.loads(canonical_json(dict(cmd)))
        for e in rules.decide(state, p.seat, cmd, rng_factory(gs, len(events) + 1)):
            e = rt(e)
            events.append(e)
            if not e.type.startswith("core."):
                state = rules.evolve(state, e)
        bad = problems(state)
        assert not bad, f"after {cmd} (seat {p.seat}, step {steps}): {bad}"
        steps += 1
        assert steps < 5000, "game did not end"
    return events, state
