"""A small test-only ruleset ("toy-auction"), never registered in production.

Each of 3 rounds a prize (1..6, drawn with the game's RNG) is shown; every seat
bids secretly (commit-reveal) from its coins; when all bids are in they are
revealed, the highest bid wins (ties: lower seat), pays its bid and then chooses
to keep the prize or give it to another seat. Most points wins; ties share.
It exercises every platform path: randomness, simultaneous secret choices,
single-seat decisions, defaults and outcome. Declared like the real rulesets:
`RULES` for the engine registry and `PLUGINS`, its record of parts
(games/plugins.py), which has none: no catalogue, game log, board or bot hooks
(so its search bots play as `random`). tests/conftest.py registers both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.bots.base import NO_PARTS
from games.plugins import Plugins
from games.rules.base import (
    NO_UPCASTERS,
    BadCommand,
    Event,
    IllegalCommand,
    LegalSet,
    Outcome,
    Pending,
    RngFactory,
    Template,
    commit,
    fold,
    reveal_entry,
)
from games.rules.kit import Decided

ROUNDS = 3


@dataclass(frozen=True)
class State:
    players: int = 0
    factions: tuple[str, ...] = ()
    round: int = 0
    prize: int = 0
    coins: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    bids: tuple[tuple[int, int, str], ...] = ()  # (seat, bid, salt), private until revealed
    bidders: tuple[int, ...] = ()  # public: who has bid
    awarding: int | None = None  # seat that must keep or give the prize
    over: bool = False


class ToyRules:
    id = "toy-auction"
    name = "Toy auction (test only)"
    min_players = 2
    max_players = 4
    rules_version = 1
    upcasters = NO_UPCASTERS
    options_schema = {
        "type": "object",
        "properties": {"coins": {"type": "integer", "minimum": 1, "maximum": 30, "default": 10}},
        "additionalProperties": False,
    }

    def factions(self, players, options):
        return ("red", "blue", "green", "yellow")[:players]

    def initial_state(self):
        return State()

    def start(self, factions, options, rng: RngFactory):
        free = [f for f in self.factions(len(factions), options) if f not in factions]
        free = rng("factions").shuffled(free)
        final = [f if f else free.pop() for f in factions]
        return [
            Event("toy.Started", {"factions": final, "coins": options.get("coins", 10)}),
            Event("toy.PrizeDrawn", {"round": 1, "prize": rng("prize").randint(1, 6)}),
        ]

    # -- decide ------------------------------------------------------------------------------

    def decide_folded(
        self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory
    ) -> Decided[State]:
        """`decide` and the state after its events (kit.Decided)."""
        events = self.decide(state, seat, command, rng)
        return Decided(events, fold(self, events, state))

    def decide(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory):
        kind = command.get("type")
        if kind == "bid":
            return self._bid(state, seat, command, rng)
        if kind in ("keep", "give"):
            return self._award(state, seat, command, rng)
        raise BadCommand(f"unknown command type {kind!r}")

    def _bid(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory):
        amount = command.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise BadCommand("bid needs an integer `amount`")
        if state.awarding is not None or state.over or seat in state.bidders:
            raise IllegalCommand("you cannot bid now")
        if not 0 <= amount <= state.coins[seat]:
            raise IllegalCommand(f"you can bid from 0 to {state.coins[seat]} coins")
        key = f"bid:r{state.round}:s{seat}"
        private, public = commit(rng, seat, key, {"amount": amount}, "toy.BidPlaced", {"seat": seat})
        out = [private, public]
        if len(state.bidders) + 1 == state.players:
            bids = [(s, b, salt) for s, b, salt in state.bids] + [(seat, amount, private.payload["salt"])]
            out.append(self._reveal(state, bids))
        return out

    def _award(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory):
        if state.awarding != seat:
            raise IllegalCommand("you have no prize to award")
        to = seat
        if command["type"] == "give":
            to = command.get("to")
            if not isinstance(to, int) or not 0 <= to < state.players or to == seat:
                raise IllegalCommand("give needs `to`: another seat")
        out = [Event("toy.PrizeAwarded", {"seat": to, "points": state.prize})]
        if state.round == ROUNDS:
            out.append(Event("toy.Ended", {}))
        else:
            out.append(
                Event("toy.PrizeDrawn", {"round": state.round + 1, "prize": rng("prize").randint(1, 6)})
            )
        return out

    def _reveal(self, state, bids):
        bids = sorted(bids)
        best = max(b for _, b, _ in bids)
        winner = min(s for s, b, _ in bids if b == best)
        return Event(
            "toy.BidsRevealed",
            {
                "bids": [[s, b] for s, b, _ in bids],
                "winner": winner,
                "paid": best,
                "reveals": [
                    reveal_entry(s, f"bid:r{state.round}:s{s}", {"amount": b}, salt) for s, b, salt in bids
                ],
            },
        )

    # -- evolve ------------------------------------------------------------------------------
    def evolve(self, state: State, event: Event) -> State:
        p = event.payload
        if event.type == "toy.Started":
            n = len(p["factions"])
            return replace(
                state, players=n, factions=tuple(p["factions"]), coins=(p["coins"],) * n, points=(0,) * n
            )
        if event.type == "toy.PrizeDrawn":
            return replace(state, round=p["round"], prize=p["prize"], bids=(), bidders=(), awarding=None)
        if event.type == "toy.BidPlaced":
            return replace(
                state,
                bids=state.bids + ((p["seat"], p["choice"]["amount"], p["salt"]),),
                bidders=state.bidders + (p["seat"],),
            )
        if event.type == "toy.BidsRevealed":
            coins = list(state.coins)
            coins[p["winner"]] -= p["paid"]
            return replace(state, coins=tuple(coins), awarding=p["winner"], bids=())
        if event.type == "toy.PrizeAwarded":
            points = list(state.points)
            points[p["seat"]] += p["points"]
            return replace(state, points=tuple(points), awarding=None)
        if event.type == "toy.Ended":
            return replace(state, over=True)
        return state

    # -- queries -----------------------------------------------------------------------------
    def pending(self, state: State):
        if state.over or not state.players:
            return []
        if state.awarding is not None:
            return [Pending(state.awarding, "award")]
        return [Pending(s, "bid") for s in range(state.players) if s not in state.bidders]

    def legal_commands(self, state: State, seat: int) -> LegalSet:
        kinds = {p.seat: p.kind for p in self.pending(state)}
        if kinds.get(seat) == "bid":
            cmds = tuple({"type": "bid", "amount": a} for a in range(state.coins[seat] + 1))
            return LegalSet(
                commands=cmds,
                templates=(
                    Template(
                        "bid",
                        {
                            "type": "object",
                            "required": ["type", "amount"],
                            "properties": {
                                "type": {"const": "bid"},
                                "amount": {"type": "integer", "minimum": 0, "maximum": state.coins[seat]},
                            },
                        },
                        "bid any number of your coins",
                    ),
                ),
            )
        if kinds.get(seat) == "award":
            gives = tuple({"type": "give", "to": s} for s in range(state.players) if s != seat)
            return LegalSet(commands=({"type": "keep"},) + gives)
        return LegalSet()

    def default_command(self, state: State, seat: int):
        kinds = {p.seat: p.kind for p in self.pending(state)}
        return {"bid": {"type": "bid", "amount": 0}, "award": {"type": "keep"}}.get(kinds.get(seat))

    def view(self, state: State, seat: int | None):
        mine = [b for s, b, _ in state.bids if s == seat or state.over]
        return {
            "round": state.round,
            "prize": state.prize,
            "coins": list(state.coins),
            "points": list(state.points),
            "bidders": list(state.bidders),
            "my_bid": mine[0] if mine and seat is not None else None,
            "awarding": state.awarding,
            "factions": list(state.factions),
            "over": state.over,
        }

    def outcome(self, state: State):
        if not state.over:
            return None
        best = max(state.points)
        return Outcome(
            winners=tuple(s for s, p in enumerate(state.points) if p == best),
            scores=dict(enumerate(state.points)),
            reason="most points after 3 prizes",
        )


RULES = ToyRules()

PLUGINS = Plugins(key=ToyRules.id, rules=RULES, catalogue=None, describe=None, board=None, bots=NO_PARTS)
