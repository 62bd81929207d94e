"""A battle: secret simultaneous bids on the 4 War Advantages, then left to
right Seppuku, Take Hostage, Hire Ronin, the battle outcome, Imperial Poets and
War Reparations. The bid itself is committed in rules.decide (commit-reveal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import IllegalCommand
from .figures import do_kill, request_kill
from .frames import Command, Steps, pop, prompt
from .state import (
    ADVANTAGES,
    Advantage,
    Battle,
    Frame,
    State,
    best_by,
    by_honor,
    clan,
    copies,
    current_battle,
    figs_at,
    force,
    gain_honor,
    gain_vp,
    is_daimyo_like,
    kind_of,
    lose_vp,
    loyalty,
    version,
)
from .war import award


def allocated(b: Battle, seat: int) -> int:
    bid = b["bids"].get(str(seat))
    return sum(bid[a] for a in ADVANTAGES) if bid else 0


def check_bid(s: State, seat: int, cmd: Command) -> dict[str, int]:
    b = s.get("battle")
    if not b or s["position"][-1]["kind"] != "bidding":
        raise IllegalCommand("no battle is waiting for bids")
    if seat not in b["participants"] or str(seat) in b["bids"]:
        raise IllegalCommand("you have no bid to place in this battle")
    bid: dict[str, int] = {a: cmd.get(a, 0) for a in ADVANTAGES}
    for a, v in bid.items():
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise IllegalCommand(f"{a}: a bid is a whole number of coins >= 0")
    if sum(bid.values()) > s["players"][seat]["coins"]:
        raise IllegalCommand("you cannot bid more coins than you have")
    return bid


def store_bid(s: State, seat: int, bid: dict[str, int], key: str, salt: str) -> bool:
    """Record a secret bid; True when every participant has bid."""
    b = current_battle(s)
    b["bids"][str(seat)] = {
        "seppuku": bid["seppuku"],
        "hostage": bid["hostage"],
        "ronin": bid["ronin"],
        "poets": bid["poets"],
        "key": key,
        "salt": salt,
    }
    return len(b["bids"]) == len(b["participants"])


def reveal(s: State) -> None:
    current_battle(s)["revealed"] = True
    pop(s)  # the bidding frame


def bidding_pending(s: State, f: Frame) -> list[int]:
    b = current_battle(s)
    return [q for q in b["participants"] if str(q) not in b["bids"]]


def bidding_legal(s: State, f: Frame, seat: int) -> list[Command]:
    """Bids are secret and too many to list: the zero bid (rules.py adds a template)."""
    return [{"type": "bid", "seppuku": 0, "hostage": 0, "ronin": 0, "poets": 0}]


def adv_winner(s: State, adv: Advantage) -> int | None:
    b = current_battle(s)
    return best_by(s, {q: b["bids"][str(q)][adv] for q in b["participants"]}, minimum=1)


def hostage_targets(s: State, seat: int) -> list[str]:
    b = current_battle(s)
    out = set()
    for fid in figs_at(s, b["province"]):
        f = s["figures"][fid]
        if f["owner"] != seat and not is_daimyo_like(f):
            out.add(f"{f['owner']}:{kind_of(f)}")
    return sorted(out)


def ronin_amount(s: State, seat: int) -> int:
    n = s["players"][seat]["ronin"]
    if clan(s, seat) == "Koi":
        n += s["players"][seat]["coins"] - allocated(current_battle(s), seat)
    return n


def _ask_seppuku(s: State) -> None:
    w = adv_winner(s, "seppuku")
    if w is not None:
        prompt(s, w, "seppuku", ["decline", "commit"])


def _ask_hostage(s: State) -> None:
    w = adv_winner(s, "hostage")
    if w is not None:
        prompt(
            s,
            w,
            "take_hostage",
            ["decline"] + hostage_targets(s, w),
            left=1 + copies(s, w, "Respect"),
            got=0,
        )


def _ask_ronin(s: State) -> None:
    w = adv_winner(s, "ronin")
    if w is not None and ronin_amount(s, w) > 0:
        prompt(s, w, "hire_ronin", ["decline", "hire"])


def _ask_poets(s: State) -> None:
    w = adv_winner(s, "poets")
    if w is not None and current_battle(s)["killed"] > 0:
        prompt(s, w, "imperial_poets", ["decline", "compose"])


def battle_step(s: State, f: Frame, steps: Steps) -> None:
    """One step of a battle (frame `step`): the War Advantages in rulebook order,
    the outcome, then reparations; the battle ends after the last one."""
    step = f["step"]
    f["step"] += 1
    if step < len(_BATTLE_STEPS):
        _BATTLE_STEPS[step](s)
    else:
        pop(s)
        s["battle"] = None


def on_seppuku(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    if choice != "commit":
        return
    seat = p["seat"]
    mine = figs_at(s, current_battle(s)["province"], seat)
    do_kill(s, mine, None)
    gain_vp(s, seat, len(mine))
    for _ in mine:
        gain_honor(s, seat)


def on_take_hostage(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    """One hostage per prompt (Respect: 1 more per copy); the VP stolen by the
    whole Take Hostage advantage are one gain instance (Loyalty, §6). From rules
    version 3 each stolen VP moves to the captor with its hostage (so the VP on
    the table add up between two prompts) and Loyalty is added once at the end;
    before, they were all credited at the end."""
    seat = p["seat"]
    got = p["got"]
    moving = version(s) >= 3
    if choice != "decline":
        owner, kind = choice.split(":", 1)
        owner = int(owner)
        fid = sorted(
            x for x in figs_at(s, current_battle(s)["province"], owner) if kind_of(s["figures"][x]) == kind
        )[0]
        s["figures"][fid]["at"] = f"hostage:{seat}"
        taken = lose_vp(s, owner, 1)
        got += taken
        if moving:
            s["players"][seat]["vp"] += taken
        more = hostage_targets(s, seat)
        if p["left"] > 1 and more:
            prompt(s, seat, "take_hostage", ["decline"] + more, left=p["left"] - 1, got=got)
            return
    if not moving:
        gain_vp(s, seat, got)
    elif got > 0:
        loyalty(s, seat)


def on_hire_ronin(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    if choice == "hire":
        current_battle(s)["hired_ronin"][str(p["seat"])] = ronin_amount(s, p["seat"])


def on_imperial_poets(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    if choice == "compose":
        gain_vp(s, p["seat"], current_battle(s)["killed"])


def _outcome(s: State) -> None:
    b = current_battle(s)
    prov = b["province"]
    forces = {q: force(s, q, prov) for q in b["participants"]}
    winner = best_by(s, forces, minimum=1)
    if winner is None:
        winner = by_honor(s, b["participants"])[0]
    b["winner"] = winner
    award(s, winner, prov, b["souls"])
    dead = [
        fid
        for fid in figs_at(s, prov)
        if s["figures"][fid]["owner"] != winner and s["alliances"][winner] != s["figures"][fid]["owner"]
    ]
    request_kill(s, dead, winner)


def _reparations(s: State) -> None:
    b = current_battle(s)
    winner = b["winner"]
    assert winner is not None  # _outcome ran before
    losers = by_honor(s, [q for q in b["participants"] if q != winner])
    for q in losers:
        s["players"][q]["coins"] -= allocated(b, q)
    pot = allocated(b, winner)
    s["players"][winner]["coins"] -= pot
    if not losers:
        return
    share, rem = divmod(pot, len(losers))
    for q in losers:
        s["players"][q]["coins"] += share
    if rem:
        prompt(s, winner, "reparations", [str(q) for q in losers], left=rem)


def on_reparations(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    s["players"][int(choice)]["coins"] += 1
    rest = [o for o in p["options"] if o != choice]
    if p["left"] > 1 and rest:
        prompt(s, p["seat"], "reparations", rest, left=p["left"] - 1)


__all__ = ["check_bid", "store_bid", "reveal", "IllegalCommand"]


_BATTLE_STEPS: tuple[Callable[[State], None], ...] = (
    _ask_seppuku,
    _ask_hostage,
    _ask_ronin,
    _outcome,
    _ask_poets,
    _reparations,
)
