"""RULES: the Ruleset object wiring the contract (games/rules/base.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..base import (
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
    reveal_entry,
)
from ..kit import Context, Decided
from . import battle, flow, politics, tea
from . import events as ev
from .batches import assemble, recording, setup_batch
from .commands import parse
from .data import CLAN_NAMES, EVENT_SCHEMAS
from .evolve import evolve as _evolve
from .evolve_legacy import evolve_legacy
from .frames import Command, Steps
from .outcomes import restate
from .setup import OPTIONS_SCHEMA
from .setup import initial_state as _initial
from .setup import start as _start
from .state import ADVANTAGES, Player, Proposal, State, clone, current_battle, top, version
from .view import RULESET
from .view import view as _view

ADV: tuple[str, ...] = ADVANTAGES  # the War Advantages as plain names (command fields)
BID_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["type"],
    "properties": {"type": {"const": "bid"}, **{a: {"type": "integer", "minimum": 0} for a in ADV}},
}
GIFT_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["type", "to"],
    "properties": {
        "type": {"const": "gift"},
        "to": {"type": "integer", "minimum": 0},
        "coins": {"type": "integer", "minimum": 0},
        "ronin": {"type": "integer", "minimum": 0},
    },
}


RULES_VERSION = 6
ANONYMOUS = -1
"""The `seat` of a version-3/4 alliance proposal's public commitment: nobody's, so
it does not name the proposer; its choice `{from, to}` names both once revealed.
From version 5 the commitment is private to the two players and names the proposer."""


def _key(state: State, what: str) -> str:
    return f"{what}:{state['commit_count']}"


def _salt(rng: RngFactory, purpose: str) -> dict[str, str]:
    return {"salt": rng(f"salt:{purpose}").salt()}


class RisingSun:
    """Rules versions (a game keeps the version it started under; the state
    records it, see `state.version`): 1 - first release; 2 - optional Serpent,
    timing-conflict prompts, Oni of Souls in battles only; 3 - every private
    event carries a salt, alliance proposals leave no public trace unless
    accepted (anonymous commitment, pending seats unchanged, revealed at the
    end), Take Hostage moves each hostage's VP at once; 4 - events state facts:
    `decide` computes the outcome once and the batch's public event carries it
    (plus a hidden `HiddenStateChanged` with the secret part), `evolve` applies
    it without rules code (facts.py, outcomes.py); 5 - a proposal's commitment
    is private to the two players and its key is not numbered by the public
    `commit_count` (issue 31: no public trace of how many proposals were made);
    6 - the phase modules emit named facts (named.py), each folded by its own
    handler; the position and public bookkeeping follow as `PositionChanged`,
    secrets stay in `HiddenStateChanged` (batches.py)."""

    upcasters = NO_UPCASTERS  # rules versions change events by `evolve_legacy`, not by upcasting

    id = RULESET
    name = "Rising Sun"
    min_players = 3
    max_players = 5
    options_schema = OPTIONS_SCHEMA
    event_schemas = (
        EVENT_SCHEMAS  # payload JSON Schemas by event type (data/schemas/events.json), versions 4-6
    )
    salted_since = 3  # first rules version whose private events all carry payload.salt (issue 10)
    # The shape of the pickled state: 2 = full-word keys with TypedDicts (1 had
    # `figs`, `n`, `o`/`t`/`n`/`loc`...); 3 = the step frames in the kit's
    # Position (`state["position"]`, was `state["stack"]`). Events are unchanged;
    # a snapshot taken under another schema must be re-folded from the events, never loaded.
    state_schema = 3

    def __init__(self, version: int = RULES_VERSION):
        self.rules_version = version

    def for_rules_version(self, version: int) -> RisingSun:
        """The engine for a game started under `version` (versions 1 and 2 share
        one engine: version 1 games were re-recorded; 3 keeps command-style
        events; 4 has public proposal commitments; 5 states outcomes as diffs;
        newer or unknown: current)."""
        if not isinstance(version, int) or version >= RULES_VERSION:
            return RULES
        version = max(2, version)
        if version not in _OLD:
            _OLD[version] = RisingSun(version)
        return _OLD[version]

    # ------------------------------------------------------------ setup
    def factions(self, players: int, options: Mapping[str, Any]) -> Sequence[str]:
        return list(CLAN_NAMES)

    def start(
        self, factions: Sequence[str | None], options: Mapping[str, Any], rng: RngFactory
    ) -> list[Event]:
        out = _start(factions, options, rng, self.rules_version)
        if self.rules_version < 4:
            return out
        if self.rules_version >= 6:
            return setup_batch(self.initial_state(), out, rng)
        # the setup is computed here once (with the rules code of the version
        # that recorded it); its events state the resulting board
        s = start = self.initial_state()
        for e in out:
            s = evolve_legacy(s, e)
        return restate(start, s, out, rng, "setup")

    def initial_state(self) -> State:
        return _initial(self.rules_version)

    def evolve(self, state: State, event: Event) -> State:
        return _evolve(state, event)

    # ------------------------------------------------------------ decide

    def decide_folded(
        self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory
    ) -> Decided[State]:
        """`decide` and the state after its events (kit.Decided): the rules run on a
        private copy (`Steps`), then the batch is emitted into the kit's `Context`,
        which folds each event as it comes; its state is the one returned (the
        platform folds nothing again). The fold, not the rules' working copy, is the
        state: a replay from the store computes exactly that one, dict order included."""
        context = Context(state, rng, self.evolve)
        for event in self.decide(state, seat, command, rng):
            context.add(event)
        return Decided(context.events, context.state)

    def decide(self, state: State, seat: int, command: Mapping[str, Any], rng: RngFactory) -> list[Event]:
        cmd = parse(command)
        if "player_count" not in state or not isinstance(seat, int) or not 0 <= seat < state["player_count"]:
            raise BadCommand("no such seat")
        if state["result"] is not None:
            raise IllegalCommand("the game is over")
        s = recording(state) if version(state) >= 6 else clone(state)
        out = self._decide(state, s, seat, cmd, rng)
        if version(state) < 4:
            return out
        if version(state) < 6:
            return restate(state, s, out, rng, "decide")
        return assemble(state, s, out, rng, "decide")

    def _decide(self, state: State, working: State, seat: int, cmd: Command, rng: RngFactory) -> list[Event]:
        """The batch of events; `working` (a copy of `state`) ends as the state after it."""
        steps = Steps(working, rng=rng)
        t = cmd["type"]
        before = top(state)
        if t == "gift":
            tea.check_gift(working, seat, cmd)
            tea.apply_gift(working, seat, cmd)
            return [Event(ev.GIFT_GIVEN, {"seat": seat, "cmd": cmd})]
        if t == "propose_alliance":
            return self._propose(working, seat, cmd, rng)
        if t in ("decline_alliance", "withdraw_alliance") and version(working) >= 3:
            return self._answer_in_secret(working, seat, cmd, rng)
        if t == "choose_mandate":
            out = self._choose_mandate(working, seat, cmd, rng, steps)
        elif t == "bid":
            out = self._bid(working, seat, cmd, rng, steps)
        else:
            tea_step = before is not None and before["kind"] == "tea"
            answered = tea.answered_proposals(working, seat, cmd) if tea_step else []
            old = list(working["proposals"])
            flow.apply_input(steps, seat, cmd)
            payload = {"seat": seat, "cmd": cmd, "draws": steps.draws}
            if version(working) >= 3:
                # only an accepted proposal is revealed now (the alliance is public)
                gone = [
                    p
                    for p in answered
                    if t == "accept_alliance" and (p["from"], p["to"]) == (cmd["from"], seat)
                ]
                reveals = [_proposal_reveal(working, p) for p in gone]
            else:
                gone = [p for p in old if p not in working["proposals"]] if answered or tea_step else []
                reveals = [reveal_entry(p["from"], p["key"], p["to"], p["salt"]) for p in gone]
            if reveals:
                payload["reveals"] = reveals
            out = [Event(ev.COMMAND_APPLIED, payload)]
        return self._wrap(state, working, steps, out, rng)

    def _wrap(
        self, old: State, working: State, steps: Steps, out: list[Event], rng: RngFactory
    ) -> list[Event]:
        salted = version(working) >= 3
        if working["result"] is not None and old["result"] is None:
            # the game is over: Lotus's face-down tiles (and, from version 3, the
            # proposals that were never accepted) are revealed for the audit
            tiles = working.get("lotus_tiles", []) + [t for t in working["track"] if t["face_down"]]
            extra = [reveal_entry(t["seat"], t["key"], t["tile"], t["salt"]) for t in tiles]
            extra += [_proposal_reveal(working, p) for p in working.get("closed_proposals", [])]
            if extra:
                i = max(i for i, e in enumerate(out) if e.type in ev.COMMAND_EVENTS)
                e = out[i]
                out[i] = Event(e.type, {**e.payload, "reveals": list(e.payload.get("reveals", [])) + extra})
        if steps.hidden:
            salt = _salt(rng, "mandates-shuffled") if salted else {}
            hidden = Event(ev.MANDATES_SHUFFLED, {"orders": steps.hidden, **salt}, visible_to=())
            i = next(i for i, e in enumerate(out) if e.type in ev.COMMAND_EVENTS)
            out.insert(i, hidden)
        f = top(working)
        if f is not None and f["kind"] == "choose_mandate" and working["result"] is None:
            was = top(old)
            if not (was and was["kind"] == "choose_mandate" and len(old["track"]) == len(working["track"])):
                salt = _salt(rng, f"tiles-seen:{f['seat']}") if salted else {}
                out.append(
                    Event(
                        ev.TILES_SEEN,
                        {"seat": f["seat"], "tiles": working["mandate_deck"][:4], **salt},
                        visible_to=(f["seat"],),
                    )
                )
        return out

    def _propose(self, state: State, seat: int, cmd: Command, rng: RngFactory) -> list[Event]:
        tea.check_proposal(state, seat, cmd["to"])
        if version(state) < 3:
            key = _key(state, "alliance")
            priv, pub = commit(rng, seat, key, cmd["to"], ev.PROPOSAL_MADE, extra={"seat": seat})
            _store_proposal(state, seat, cmd["to"], priv)
            told = Event(ev.PROPOSAL_RECEIVED, {"from": seat, "to": cmd["to"]}, visible_to=(cmd["to"],))
            return [priv, pub, told]
        choice = {"from": seat, "to": cmd["to"]}
        if version(state) < 5:
            # the public commitment names nobody: its choice names proposer and target
            key = _key(state, "alliance")
            priv, pub = commit(rng, seat, key, choice, ev.PROPOSAL_MADE, extra={"seat": seat})
            pub = Event(pub.type, {**pub.payload, "seat": ANONYMOUS})
        else:
            # issue 31: a public commitment, even anonymous, told everybody that a
            # proposal was made, when, and (by its key, numbered by the public
            # commit_count) how many. Now only the two players see the commitment,
            # and its key is a secret random name, not a count.
            key = "alliance:" + rng("proposal-key").salt()[:16]
            priv, pub = commit(
                rng, seat, key, choice, ev.PROPOSAL_MADE, extra={"seat": seat}, viewers=(seat, cmd["to"])
            )
        _store_proposal(state, seat, cmd["to"], priv)
        told = Event(
            ev.PROPOSAL_RECEIVED,
            {"from": seat, "to": cmd["to"], **_salt(rng, f"{key}:received")},
            visible_to=(cmd["to"],),
        )
        return [priv, pub, told]

    def _answer_in_secret(self, state: State, seat: int, cmd: Command, rng: RngFactory) -> list[Event]:
        """Version 3: a decline or a withdrawal is seen by the two players only
        (it changes nothing public: not the pending seats, not the ceremony's end)."""
        f = top(state)
        if f is None or f["kind"] != "tea":
            raise IllegalCommand("alliances are only answered during the Tea Ceremony")
        if cmd["type"] == "decline_alliance":
            kind, pair = ev.PROPOSAL_DECLINED, (cmd["from"], seat)
        else:
            kind, pair = ev.PROPOSAL_WITHDRAWN, (seat, cmd["to"])
        flow.apply_input(Steps(state, rng=rng), seat, cmd)
        if top(state) is not f:  # pragma: no cover - v3 tea never ends on a decline or withdrawal
            raise RuntimeError("a secret tea answer changed the public flow")
        salt = _salt(rng, f"tea-answer:{pair[0]}:{pair[1]}")
        return [Event(kind, {"seat": seat, "cmd": cmd, **salt}, visible_to=tuple(sorted(set(pair))))]

    def _choose_mandate(
        self, state: State, seat: int, cmd: Command, rng: RngFactory, steps: Steps
    ) -> list[Event]:
        declared = politics.check_choice(state, seat, cmd)
        key = _key(state, "mandate")
        priv, pub = commit(rng, seat, key, cmd["tile"], ev.MANDATE_CHOSEN, extra={"seat": seat})
        state["commit_count"] += 1
        politics.choose_tile(state, seat, cmd["tile"], key, priv.payload["salt"])
        lotus = state["track"][-1]["face_down"]
        politics.play_mandate(state, seat, declared)
        flow.run(steps)
        payload = {"seat": seat, "declared": declared, "draws": steps.draws}
        if not lotus:
            payload["reveals"] = [reveal_entry(seat, key, cmd["tile"], priv.payload["salt"])]
        return [priv, pub, Event(ev.MANDATE_PLAYED, payload)]

    def _bid(self, state: State, seat: int, cmd: Command, rng: RngFactory, steps: Steps) -> list[Event]:
        bid = battle.check_bid(state, seat, cmd)
        key = _key(state, "bid")
        priv, pub = commit(rng, seat, key, bid, ev.BID_PLACED, extra={"seat": seat})
        state["commit_count"] += 1
        if not battle.store_bid(state, seat, bid, key, priv.payload["salt"]):
            return [priv, pub]
        b = current_battle(state)
        reveals = [
            reveal_entry(int(q), x["key"], {a: x[a] for a in ADVANTAGES}, x["salt"])
            for q, x in b["bids"].items()
        ]
        battle.reveal(state)
        flow.run(steps)
        return [
            priv,
            pub,
            Event(ev.BIDS_REVEALED, {"province": b["province"], "reveals": reveals, "draws": steps.draws}),
        ]

    # ------------------------------------------------------------ queries
    def pending(self, state: State) -> list[Pending]:
        if "player_count" not in state:
            return []
        return [Pending(q, k) for q, k in flow.pending(state)]

    def legal_commands(self, state: State, seat: int) -> LegalSet:
        if "player_count" not in state or state["result"] is not None:
            return LegalSet()
        f = top(state)
        gifts = tea.gifts_open(state) and (state["players"][seat]["coins"] or state["players"][seat]["ronin"])
        if f is not None and f["kind"] == "bidding":
            if seat not in flow.DECISIONS["bidding"].pending(state):
                return LegalSet()
            coins = state["players"][seat]["coins"]
            zero = {"type": "bid", **{a: 0 for a in ADV}}
            tmpl = Template(
                "bid",
                BID_SCHEMA,
                f"Split at most {coins} coins (all you hold) over the 4 War "
                "Advantages; coins not bid stay outside the war board.",
            )
            return LegalSet((zero,), (tmpl,), lambda rnd: _random_bid(rnd, coins))
        if f is not None and f["kind"] == "choose_mandate":
            cmds = politics.choose_legal(state, f, seat) if seat == f["seat"] else []
        else:
            cmds = flow.legal(state, seat)
        if not gifts:
            return LegalSet(tuple(cmds))
        p = state["players"][seat]
        tmpl = Template(
            "gift",
            GIFT_SCHEMA,
            f"Give another player up to {p['coins']} coins and/or "
            f"{p['ronin']} Ronin (at least 1 in all). Never binding; Tea Ceremony and "
            "Political Phase only.",
        )
        if not cmds:
            # nothing is asked of this seat: gifts are described, but a naive bot
            # is not invited to spend its turns on them (no sampler)
            return LegalSet((), (tmpl,), None)
        left = state["seating"][(state["seating"].index(seat) + 1) % state["player_count"]]
        return LegalSet(tuple(cmds), (tmpl,), lambda rnd: _random_gift(rnd, cmds, p, left))

    def default_command(self, state: State, seat: int) -> Mapping[str, Any] | None:
        return flow.default(state, seat)

    def view(self, state: State, seat: int | None) -> Any:
        return _view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if r is None:
            return None
        return Outcome(
            tuple(r["winners"]),
            {int(q): float(v) for q, v in r["scores"].items()},
            "most Victory Points after Winter (ties: Honor; tied allies share)",
        )


def _store_proposal(state: State, seat: int, to: int, priv: Event) -> None:
    """What the proposal's private commitment does (evolve_legacy's `_proposal`).
    From version 5 a proposal is not counted in the public `commit_count` (the
    next public commitment's key would show that one was made)."""
    if version(state) < 5:
        state["commit_count"] += 1
    tea.store_proposal(state, seat, to, str(priv.payload["key"]), str(priv.payload["salt"]))


def _proposal_reveal(state: State, proposal: Proposal) -> dict[str, Any]:
    """The reveal item of a proposal: the anonymous seat of its public commitment
    (versions 3-4), or the proposer's of its private one (5)."""
    seat = ANONYMOUS if version(state) < 5 else proposal["from"]
    return reveal_entry(
        seat, proposal["key"], {"from": proposal["from"], "to": proposal["to"]}, proposal["salt"]
    )


def _random_bid(rnd: random.Random, coins: int) -> Command:
    spend = rnd.randint(0, coins)
    bid = {a: 0 for a in ADV}
    for _ in range(spend):
        bid[rnd.choice(ADV)] += 1
    return {"type": "bid", **bid}


def _random_gift(rnd: random.Random, cmds: list[Command], player: Player, left: int) -> Command:
    """Mostly a listed command; sometimes one small gift (1 coin, or 1 Ronin, to
    the left neighbour), so random play keeps moving forward."""
    if rnd.random() < 0.9:
        return dict(rnd.choice(cmds))
    if player["coins"]:
        return {"type": "gift", "to": left, "coins": 1, "ronin": 0}
    return {"type": "gift", "to": left, "coins": 0, "ronin": 1}


RULES = RisingSun()
_OLD: dict[int, RisingSun] = {}  # engines of older rules versions, made on demand
