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
from .state import Frame, Proposal, State, version


def unallied(s: State) -> list[int]:
    return [q for q in range(s["player_count"]) if s["alliances"][q] is None]


def incoming(s: State, seat: int) -> list[Proposal]:
    return [p for p in s["proposals"] if p["to"] == seat]


def outgoing(s: State, seat: int) -> list[Proposal]:
    return [p for p in s["proposals"] if p["from"] == seat]


def tea_pending(s: State, f: Frame) -> list[int]:
    if version(s) >= 3:
        # who has a proposal is secret: a seat that said tea_done may still answer
        # one while the ceremony lasts, but it is not asked to (not pending)
        return [q for q in range(s["player_count"]) if q not in f["done"]]
    return [q for q in range(s["player_count"]) if q not in f["done"] or incoming(s, q)]


def tea_legal(s: State, f: Frame, seat: int) -> list[Command]:
    cmds = []
    if s["alliances"][seat] is None:
        cmds += [{"type": "accept_alliance", "from": p["from"]} for p in incoming(s, seat)]
        cmds += [{"type": "decline_alliance", "from": p["from"]} for p in incoming(s, seat)]
    if s["alliances"][seat] is None:
        # a player who said tea_done may still propose or withdraw: that makes
        # him active again (he has to say tea_done again) (Appendix R 21)
        sent = {p["to"] for p in outgoing(s, seat)}
        cmds += [{"type": "withdraw_alliance", "to": q} for q in sorted(sent)]
        cmds += [{"type": "propose_alliance", "to": q} for q in unallied(s) if q != seat and q not in sent]
    if seat not in f["done"]:
        cmds.append({"type": "tea_done"})
    return cmds


def check_proposal(s: State, seat: int, to: Any) -> None:
    f = s["position"][-1] if s["position"] else None
    if not f or f["kind"] != "tea":
        raise IllegalCommand("alliances are only proposed during the Tea Ceremony")
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < s["player_count"] or to == seat:
        raise IllegalCommand("propose to another player")
    if s["alliances"][seat] is not None or s["alliances"][to] is not None:
        raise IllegalCommand("both players must be unallied")
    if any(p["from"] == seat and p["to"] == to for p in s["proposals"]):
        raise IllegalCommand("you already proposed to that player")


def store_proposal(s: State, seat: int, to: int, key: str, salt: str) -> None:
    s["proposals"].append({"from": seat, "to": to, "key": key, "salt": salt})
    _active_again(s, seat)


def _active_again(s: State, seat: int) -> None:
    if version(s) >= 3:
        return  # a public change that would name the proposer
    f = s["position"][-1]
    if seat in f["done"]:
        f["done"].remove(seat)


def find_proposal(s: State, frm: Any, to: Any) -> Proposal:
    for p in s["proposals"]:
        if p["from"] == frm and p["to"] == to:
            return p
    raise IllegalCommand("there is no such proposal")


def tea_apply(s: State, f: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    t = cmd["type"]
    if t == "tea_done":
        if seat in f["done"]:
            raise IllegalCommand("you already finished the Tea Ceremony")
        f["done"].append(seat)
    elif t == "accept_alliance":
        p = find_proposal(s, cmd.get("from"), seat)
        a, b = p["from"], seat
        s["alliances"][a], s["alliances"][b] = b, a
        for q in (a, b):
            s["players"][q]["alliance_seasons"].append(SEASONS[s["season"]])
        _close(s, [x for x in s["proposals"] if x is not p and {x["from"], x["to"]} & {a, b}])
        s["proposals"].remove(p)
        f["done"] = []
    elif t == "decline_alliance":
        _close(s, [find_proposal(s, cmd.get("from"), seat)])
    elif t == "withdraw_alliance":
        if s["alliances"][seat] is not None:
            raise IllegalCommand("you are already allied")
        _close(s, [find_proposal(s, seat, cmd.get("to"))])
        _active_again(s, seat)
    else:
        raise IllegalCommand("that is not a Tea Ceremony action")
    _maybe_end(s, f)


def _close(s: State, proposals: list[Proposal]) -> None:
    """Proposals that end without an alliance: from version 3 they stay secret
    until the game ends (rules.py reveals `closed_proposals` then)."""
    for p in proposals:
        s["proposals"].remove(p)
        if version(s) >= 3:
            s["closed_proposals"].append(p)


def _maybe_end(s: State, f: Frame) -> None:
    # version 3: open proposals do not hold the ceremony open (that would show
    # that one exists); the proposer keeps it open by not saying tea_done
    everyone_done = all(q in f["done"] for q in range(s["player_count"])) and (
        version(s) >= 3 or not s["proposals"]
    )
    if everyone_done or len(unallied(s)) < 2:
        _close(s, list(s["proposals"]))
        pop(s)
        s["phase"] = "politics"


def answered_proposals(s: State, seat: int, cmd: Command) -> list[Proposal]:
    """The proposals a tea command answers or cancels (they get revealed)."""
    t = cmd["type"]
    if t == "accept_alliance":
        a, b = cmd.get("from"), seat
        return [x for x in s["proposals"] if {x["from"], x["to"]} & {a, b}]
    if t == "decline_alliance":
        return [x for x in s["proposals"] if x["from"] == cmd.get("from") and x["to"] == seat]
    if t == "withdraw_alliance":
        return [x for x in s["proposals"] if x["from"] == seat and x["to"] == cmd.get("to")]
    return []


# -------------------------------------------------------------------- gifts


def gifts_open(s: State) -> bool:
    return s["result"] is None and s["phase"] in ("tea", "politics")


def check_gift(s: State, seat: int, cmd: Command) -> None:
    if not gifts_open(s):
        raise IllegalCommand("gifts are only allowed in the Tea Ceremony and the Political Phase")
    to, coins, ronin = cmd.get("to"), cmd.get("coins", 0), cmd.get("ronin", 0)
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < s["player_count"] or to == seat:
        raise IllegalCommand("give to another player")
    p = s["players"][seat]
    if coins > p["coins"] or ronin > p["ronin"] or coins + ronin == 0:
        raise IllegalCommand("give at least 1 coin or Ronin that you have")


def apply_gift(s: State, seat: int, cmd: Command) -> None:
    p, q = s["players"][seat], s["players"][cmd["to"]]
    p["coins"] -= cmd.get("coins", 0)
    q["coins"] += cmd.get("coins", 0)
    p["ronin"] -= cmd.get("ronin", 0)
    q["ronin"] += cmd.get("ronin", 0)
