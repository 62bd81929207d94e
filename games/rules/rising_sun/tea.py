"""Tea Ceremony (alliances, Appendix R item 21) and gifts of coins / Ronin
(Tea Ceremony and Political Phase only, item 22). Proposals are secret: the
proposal itself is committed in rules.decide. Up to rules version 2 it is
revealed when answered; from version 3 only an accepted proposal is revealed at
once, the others (declined, withdrawn, cancelled) wait in `closed_proposals`
for the end of the game, and nothing public (pending seats included) changes
when a proposal is made, declined or withdrawn (seed 002 p.8: "Las ofertas se
pueden hacer en secreto"; Appendix R 21: only the two players see it)."""

from __future__ import annotations

from typing import Any

from ..base import IllegalCommand
from .data import SEASONS
from .frames import Command, Steps, pop
from .named import AllianceFormed, RoninGained, RoninPaid, emit
from .state import Frame, Proposal, State, give_coins, version


def unallied(state: State) -> list[int]:
    return [q for q in range(state["player_count"]) if state["alliances"][q] is None]


def incoming(state: State, seat: int) -> list[Proposal]:
    return [p for p in state["proposals"] if p["to"] == seat]


def outgoing(state: State, seat: int) -> list[Proposal]:
    return [p for p in state["proposals"] if p["from"] == seat]


def tea_pending(state: State, frame: Frame) -> list[int]:
    if version(state) >= 3:
        # who has a proposal is secret: a seat that said tea_done may still answer
        # one while the ceremony lasts, but it is not asked to (not pending)
        return [q for q in range(state["player_count"]) if q not in frame["done"]]
    return [q for q in range(state["player_count"]) if q not in frame["done"] or incoming(state, q)]


def tea_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    cmds = []
    if state["alliances"][seat] is None:
        cmds += [{"type": "accept_alliance", "from": p["from"]} for p in incoming(state, seat)]
        cmds += [{"type": "decline_alliance", "from": p["from"]} for p in incoming(state, seat)]
    if state["alliances"][seat] is None:
        # a player who said tea_done may still propose or withdraw: that makes
        # him active again (he has to say tea_done again) (Appendix R 21)
        sent = {p["to"] for p in outgoing(state, seat)}
        cmds += [{"type": "withdraw_alliance", "to": q} for q in sorted(sent)]
        cmds += [
            {"type": "propose_alliance", "to": q} for q in unallied(state) if q != seat and q not in sent
        ]
    if seat not in frame["done"]:
        cmds.append({"type": "tea_done"})
    return cmds


def check_proposal(state: State, seat: int, to: Any) -> None:
    f = state["position"][-1] if state["position"] else None
    if not f or f["kind"] != "tea":
        raise IllegalCommand("alliances are only proposed during the Tea Ceremony")
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < state["player_count"] or to == seat:
        raise IllegalCommand("propose to another player")
    if state["alliances"][seat] is not None or state["alliances"][to] is not None:
        raise IllegalCommand("both players must be unallied")
    if any(p["from"] == seat and p["to"] == to for p in state["proposals"]):
        raise IllegalCommand("you already proposed to that player")


def store_proposal(state: State, seat: int, to: int, key: str, salt: str) -> None:
    state["proposals"].append({"from": seat, "to": to, "key": key, "salt": salt})
    _active_again(state, seat)


def _active_again(state: State, seat: int) -> None:
    if version(state) >= 3:
        return  # a public change that would name the proposer
    f = state["position"][-1]
    if seat in f["done"]:
        f["done"].remove(seat)


def find_proposal(state: State, frm: Any, to: Any) -> Proposal:
    for p in state["proposals"]:
        if p["from"] == frm and p["to"] == to:
            return p
    raise IllegalCommand("there is no such proposal")


def tea_apply(state: State, frame: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    t = cmd["type"]
    if t == "tea_done":
        if seat in frame["done"]:
            raise IllegalCommand("you already finished the Tea Ceremony")
        frame["done"].append(seat)
    elif t == "accept_alliance":
        p = find_proposal(state, cmd.get("from"), seat)
        a, b = p["from"], seat
        emit(state, AllianceFormed(seats=[a, b], season=SEASONS[state["season"]]))
        _close(state, [x for x in state["proposals"] if x is not p and {x["from"], x["to"]} & {a, b}])
        state["proposals"].remove(p)
        frame["done"] = []
    elif t == "decline_alliance":
        _close(state, [find_proposal(state, cmd.get("from"), seat)])
    elif t == "withdraw_alliance":
        if state["alliances"][seat] is not None:
            raise IllegalCommand("you are already allied")
        _close(state, [find_proposal(state, seat, cmd.get("to"))])
        _active_again(state, seat)
    else:
        raise IllegalCommand("that is not a Tea Ceremony action")
    _maybe_end(state, frame)


def _close(state: State, proposals: list[Proposal]) -> None:
    """Proposals that end without an alliance: from version 3 they stay secret
    until the game ends (rules.py reveals `closed_proposals` then)."""
    for p in proposals:
        state["proposals"].remove(p)
        if version(state) >= 3:
            state["closed_proposals"].append(p)


def _maybe_end(state: State, frame: Frame) -> None:
    # version 3: open proposals do not hold the ceremony open (that would show
    # that one exists); the proposer keeps it open by not saying tea_done
    everyone_done = all(q in frame["done"] for q in range(state["player_count"])) and (
        version(state) >= 3 or not state["proposals"]
    )
    if everyone_done or len(unallied(state)) < 2:
        _close(state, list(state["proposals"]))
        pop(state)
        state["phase"] = "politics"


def answered_proposals(state: State, seat: int, cmd: Command) -> list[Proposal]:
    """The proposals a tea command answers or cancels (they get revealed)."""
    t = cmd["type"]
    if t == "accept_alliance":
        a, b = cmd.get("from"), seat
        return [x for x in state["proposals"] if {x["from"], x["to"]} & {a, b}]
    if t == "decline_alliance":
        return [x for x in state["proposals"] if x["from"] == cmd.get("from") and x["to"] == seat]
    if t == "withdraw_alliance":
        return [x for x in state["proposals"] if x["from"] == seat and x["to"] == cmd.get("to")]
    return []


# -------------------------------------------------------------------- gifts


def gifts_open(state: State) -> bool:
    return state["result"] is None and state["phase"] in ("tea", "politics")


def check_gift(state: State, seat: int, cmd: Command) -> None:
    if not gifts_open(state):
        raise IllegalCommand("gifts are only allowed in the Tea Ceremony and the Political Phase")
    to, coins, ronin = cmd.get("to"), cmd.get("coins", 0), cmd.get("ronin", 0)
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < state["player_count"] or to == seat:
        raise IllegalCommand("give to another player")
    p = state["players"][seat]
    if coins > p["coins"] or ronin > p["ronin"] or coins + ronin == 0:
        raise IllegalCommand("give at least 1 coin or Ronin that you have")


def apply_gift(state: State, seat: int, cmd: Command) -> None:
    give_coins(state, seat, cmd["to"], cmd.get("coins", 0), "gift")
    if cmd.get("ronin", 0):
        emit(state, RoninPaid(seat=seat, ronin=cmd["ronin"], reason="gift"))
        emit(state, RoninGained(seat=cmd["to"], ronin=cmd["ronin"], reason="gift"))
