"""RULES: the Ruleset object wiring the contract (games/rules/base.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import (
    BadCommand,
    Event,
    IllegalCommand,
    LegalSet,
    Outcome,
    Pending,
    RngFactory,
    Template,
    commit,
    reveal_entry,
)
from . import battle, engine, kami, politics, tea, war  # noqa: F401  (registers frames)
from . import events as ev
from .commands import parse
from .data import CLAN_NAMES
from .evolve import evolve as _evolve
from .setup import OPTIONS_SCHEMA
from .setup import initial_state as _initial
from .setup import start as _start
from .state import State, clone, top
from .view import view as _view

ADV = ("seppuku", "hostage", "ronin", "poets")

BID_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["type"],
    "properties": {"type": {"const": "bid"}, **{a: {"type": "integer", "minimum": 0} for a in ADV}},
}
GIFT_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["type", "to"],
    "properties": {"type": {"const": "gift"}, "to": {"type": "integer", "minimum": 0},
                   "coins": {"type": "integer", "minimum": 0}, "ronin": {"type": "integer", "minimum": 0}},
}


def _key(s: State, what: str) -> str:
    return f"{what}:{s['commits']}"


class RisingSun:
    id = "rising-sun"
    name = "Rising Sun"
    min_players = 3
    max_players = 5
    rules_version = 2  # 2: optional Serpent, timing-conflict prompts, Oni of Souls in battles only
    options_schema = OPTIONS_SCHEMA

    # ------------------------------------------------------------ setup
    def factions(self, players: int, options: Mapping[str, Any]) -> Sequence[str]:
        return list(CLAN_NAMES)

    def start(self, factions, options, rng: RngFactory) -> list[Event]:
        return _start(factions, options, rng)

    def initial_state(self) -> State:
        return _initial()

    def evolve(self, state: State, event: Event) -> State:
        return _evolve(state, event)

    # ------------------------------------------------------------ decide
    def decide(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory) -> list[Event]:
        cmd = parse(command)
        if "n" not in state or not isinstance(seat, int) or not 0 <= seat < state["n"]:
            raise BadCommand("no such seat")
        if state["result"] is not None:
            raise IllegalCommand("the game is over")
        s = clone(state)
        ctx = engine.Ctx(rng=rng)
        t = cmd["type"]
        before = top(state)
        if t == "gift":
            tea.check_gift(s, seat, cmd)
            return [Event(ev.GIFT_GIVEN, {"seat": seat, "cmd": cmd})]
        if t == "propose_alliance":
            return self._propose(s, seat, cmd, rng)
        if t == "choose_mandate":
            out = self._choose_mandate(s, seat, cmd, rng, ctx)
        elif t == "bid":
            out = self._bid(s, seat, cmd, rng, ctx)
        else:
            answered = tea.answered_proposals(s, seat, cmd) if before and before["k"] == "tea" else []
            old = list(s["proposals"])
            engine.apply_input(s, seat, cmd, ctx)
            gone = [p for p in old if p not in s["proposals"]] if answered or before["k"] == "tea" else []
            payload = {"seat": seat, "cmd": cmd, "draws": ctx.draws}
            if gone:
                payload["reveals"] = [reveal_entry(p["from"], p["key"], p["to"], p["salt"]) for p in gone]
            out = [Event(ev.COMMAND_APPLIED, payload)]
        return self._wrap(state, s, ctx, out)

    def _wrap(self, old: State, s: State, ctx, out: list[Event]) -> list[Event]:
        if s["result"] is not None and old["result"] is None:
            # the game is over: Lotus's face-down tiles are revealed for the audit
            tiles = s.get("lotus_tiles", []) + [t for t in s["track"] if t["face_down"]]
            if tiles:
                i = max(i for i, e in enumerate(out) if e.type in ev.COMMAND_EVENTS)
                e = out[i]
                extra = [reveal_entry(t["seat"], t["key"], t["tile"], t["salt"]) for t in tiles]
                out[i] = Event(e.type, {**e.payload, "reveals": list(e.payload.get("reveals", [])) + extra})
        if ctx.hidden:
            hidden = Event(ev.MANDATES_SHUFFLED, {"orders": ctx.hidden}, visible_to=())
            i = next(i for i, e in enumerate(out) if e.type in ev.COMMAND_EVENTS)
            out.insert(i, hidden)
        f = top(s)
        if f is not None and f["k"] == "choose_mandate" and s["result"] is None:
            was = top(old)
            if not (was and was["k"] == "choose_mandate" and len(old["track"]) == len(s["track"])):
                out.append(Event(ev.TILES_SEEN, {"seat": f["seat"], "tiles": s["mandate_deck"][:4]},
                                 visible_to=(f["seat"],)))
        return out

    def _propose(self, s, seat, cmd, rng) -> list[Event]:
        tea.check_proposal(s, seat, cmd["to"])
        priv, pub = commit(rng, seat, _key(s, "alliance"), cmd["to"], ev.PROPOSAL_MADE, extra={"seat": seat})
        told = Event(ev.PROPOSAL_RECEIVED, {"from": seat, "to": cmd["to"]}, visible_to=(cmd["to"],))
        return [priv, pub, told]

    def _choose_mandate(self, s, seat, cmd, rng, ctx) -> list[Event]:
        declared = politics.check_choice(s, seat, cmd)
        key = _key(s, "mandate")
        priv, pub = commit(rng, seat, key, cmd["tile"], ev.MANDATE_CHOSEN, extra={"seat": seat})
        s["commits"] += 1
        politics.choose_tile(s, seat, cmd["tile"], key, priv.payload["salt"])
        lotus = s["track"][-1]["face_down"]
        politics.play_mandate(s, seat, declared)
        engine.run(s, ctx)
        payload = {"seat": seat, "declared": declared, "draws": ctx.draws}
        if not lotus:
            payload["reveals"] = [reveal_entry(seat, key, cmd["tile"], priv.payload["salt"])]
        return [priv, pub, Event(ev.MANDATE_PLAYED, payload)]

    def _bid(self, s, seat, cmd, rng, ctx) -> list[Event]:
        bid = battle.check_bid(s, seat, cmd)
        key = _key(s, "bid")
        priv, pub = commit(rng, seat, key, bid, ev.BID_PLACED, extra={"seat": seat})
        s["commits"] += 1
        if not battle.store_bid(s, seat, bid, key, priv.payload["salt"]):
            return [priv, pub]
        b = s["battle"]
        reveals = [reveal_entry(int(q), x["key"], {a: x[a] for a in ADV}, x["salt"]) for q, x in b["bids"].items()]
        battle.reveal(s)
        engine.run(s, ctx)
        return [priv, pub, Event(ev.BIDS_REVEALED, {"province": b["prov"], "reveals": reveals, "draws": ctx.draws})]

    # ------------------------------------------------------------ queries
    def pending(self, state: State) -> list[Pending]:
        if "n" not in state:
            return []
        return [Pending(q, k) for q, k in engine.pending(state)]

    def legal_commands(self, state: State, seat: int) -> LegalSet:
        if "n" not in state or state["result"] is not None:
            return LegalSet()
        f = top(state)
        gifts = tea.gifts_open(state) and (state["players"][seat]["coins"] or state["players"][seat]["ronin"])
        if f is not None and f["k"] == "bidding":
            if seat not in engine.INPUT["bidding"].pending(state, f):
                return LegalSet()
            coins = state["players"][seat]["coins"]
            zero = {"type": "bid", **{a: 0 for a in ADV}}
            tmpl = Template("bid", BID_SCHEMA, f"Split at most {coins} coins (all you hold) over the 4 War "
                            "Advantages; coins not bid stay outside the war board.")
            return LegalSet((zero,), (tmpl,), lambda rnd: _random_bid(rnd, coins))
        if f is not None and f["k"] == "choose_mandate":
            cmds = politics._choose_legal(state, f, seat) if seat == f["seat"] else []
        else:
            cmds = engine.legal(state, seat)
        if not gifts:
            return LegalSet(tuple(cmds))
        p = state["players"][seat]
        tmpl = Template("gift", GIFT_SCHEMA, f"Give another player up to {p['coins']} coins and/or "
                        f"{p['ronin']} Ronin (at least 1 in all). Never binding; Tea Ceremony and "
                        "Political Phase only.")
        if not cmds:
            # nothing is asked of this seat: gifts are described, but a naive bot
            # is not invited to spend its turns on them (no sampler)
            return LegalSet((), (tmpl,), None)
        left = state["seating"][(state["seating"].index(seat) + 1) % state["n"]]
        return LegalSet(tuple(cmds), (tmpl,), lambda rnd: _random_gift(rnd, cmds, p, left))

    def default_command(self, state: State, seat: int) -> Mapping[str, Any] | None:
        if seat not in [q for q, _ in engine.pending(state)]:
            return None
        f = top(state)
        k = f["k"]
        if k == "tea":
            inc = tea.incoming(state, seat)
            if inc:
                return {"type": "decline_alliance", "from": inc[0]["from"]}
            return {"type": "tea_done"}
        if k == "bidding":
            return {"type": "bid", **{a: 0 for a in ADV}}
        if k == "choose_mandate":
            t = politics.drawn(state)[0]
            cmd = {"type": "choose_mandate", "tile": t}
            if state["clans"][seat] == "Lotus":
                cmd["declare"] = t
            return cmd
        if k == "prompt":
            return {"type": "choose", "choice": f["opts"][0]}
        if k == "place_monster":
            return engine.legal(state, seat)[0]
        return {"type": "done"}

    def view(self, state: State, seat: int | None) -> Any:
        return _view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if r is None:
            return None
        return Outcome(tuple(r["winners"]), {int(q): float(v) for q, v in r["scores"].items()},
                       "most Victory Points after Winter (ties: Honor; tied allies share)")


def _random_bid(rnd, coins: int) -> dict:
    spend = rnd.randint(0, coins)
    bid = {a: 0 for a in ADV}
    for _ in range(spend):
        bid[rnd.choice(ADV)] += 1
    return {"type": "bid", **bid}


def _random_gift(rnd, cmds, p, left: int) -> dict:
    """Mostly a listed command; sometimes one small gift (1 coin, or 1 Ronin, to
    the left neighbour), so random play keeps moving forward."""
    if rnd.random() < 0.9:
        return rnd.choice(cmds)
    if p["coins"]:
        return {"type": "gift", "to": left, "coins": 1, "ronin": 0}
    return {"type": "gift", "to": left, "coins": 0, "ronin": 1}


RULES = RisingSun()
