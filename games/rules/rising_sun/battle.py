"""A battle: secret simultaneous bids on the 4 War Advantages, then left to
right Seppuku, Take Hostage, Hire Ronin, the battle outcome, Imperial Poets and
War Reparations. The bid itself is committed in rules.decide (commit-reveal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import IllegalCommand
from .figures import do_kill, request_kill
from .frames import Command, Steps, pop, prompt
from .named import CoinsGained, FigureTakenHostage, VictoryPointsScored, emit
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
    pay_coins,
    version,
)
from .war import award


def allocated(battle: Battle, seat: int) -> int:
    bid = battle["bids"].get(str(seat))
    return sum(bid[a] for a in ADVANTAGES) if bid else 0


def check_bid(state: State, seat: int, cmd: Command) -> dict[str, int]:
    b = state.get("battle")
    if not b or state["position"][-1]["kind"] != "bidding":
        raise IllegalCommand("no battle is waiting for bids")
    if seat not in b["participants"] or str(seat) in b["bids"]:
        raise IllegalCommand("you have no bid to place in this battle")
    bid: dict[str, int] = {a: cmd.get(a, 0) for a in ADVANTAGES}
    for a, v in bid.items():
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise IllegalCommand(f"{a}: a bid is a whole number of coins >= 0")
    if sum(bid.values()) > state["players"][seat]["coins"]:
        raise IllegalCommand("you cannot bid more coins than you have")
    return bid


def store_bid(state: State, seat: int, bid: dict[str, int], key: str, salt: str) -> bool:
    """Record a secret bid; True when every participant has bid."""
    b = current_battle(state)
    b["bids"][str(seat)] = {
        "seppuku": bid["seppuku"],
        "hostage": bid["hostage"],
        "ronin": bid["ronin"],
        "poets": bid["poets"],
        "key": key,
        "salt": salt,
    }
    return len(b["bids"]) == len(b["participants"])


def reveal(state: State) -> None:
    current_battle(state)["revealed"] = True
    pop(state)  # the bidding frame


def bidding_pending(state: State, frame: Frame) -> list[int]:
    b = current_battle(state)
    return [q for q in b["participants"] if str(q) not in b["bids"]]


def bidding_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    """Bids are secret and too many to list: the zero bid (rules.py adds a template)."""
    return [{"type": "bid", "seppuku": 0, "hostage": 0, "ronin": 0, "poets": 0}]


def adv_winner(state: State, adv: Advantage) -> int | None:
    b = current_battle(state)
    return best_by(state, {q: b["bids"][str(q)][adv] for q in b["participants"]}, minimum=1)


def hostage_targets(state: State, seat: int) -> list[str]:
    b = current_battle(state)
    out = set()
    for fid in figs_at(state, b["province"]):
        f = state["figures"][fid]
        if f["owner"] != seat and not is_daimyo_like(f):
            out.add(f"{f['owner']}:{kind_of(f)}")
    return sorted(out)


def ronin_amount(state: State, seat: int) -> int:
    n = state["players"][seat]["ronin"]
    if clan(state, seat) == "Koi":
        n += state["players"][seat]["coins"] - allocated(current_battle(state), seat)
    return n


def _ask_seppuku(state: State) -> None:
    w = adv_winner(state, "seppuku")
    if w is not None:
        prompt(state, w, "seppuku", ["decline", "commit"])


def _ask_hostage(state: State) -> None:
    w = adv_winner(state, "hostage")
    if w is not None:
        prompt(
            state,
            w,
            "take_hostage",
            ["decline"] + hostage_targets(state, w),
            left=1 + copies(state, w, "Respect"),
            got=0,
        )


def _ask_ronin(state: State) -> None:
    w = adv_winner(state, "ronin")
    if w is not None and ronin_amount(state, w) > 0:
        prompt(state, w, "hire_ronin", ["decline", "hire"])


def _ask_poets(state: State) -> None:
    w = adv_winner(state, "poets")
    if w is not None and current_battle(state)["killed"] > 0:
        prompt(state, w, "imperial_poets", ["decline", "compose"])


def battle_step(state: State, frame: Frame, steps: Steps) -> None:
    """One step of a battle (frame `step`): the War Advantages in rulebook order,
    the outcome, then reparations; the battle ends after the last one."""
    step = frame["step"]
    frame["step"] += 1
    if step < len(_BATTLE_STEPS):
        _BATTLE_STEPS[step](state)
    else:
        pop(state)
        state["battle"] = None


def on_seppuku(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    if choice != "commit":
        return
    seat = prompted["seat"]
    mine = figs_at(state, current_battle(state)["province"], seat)
    do_kill(state, mine, None, "Seppuku")
    gain_vp(state, seat, len(mine), "Seppuku")
    for _ in mine:
        gain_honor(state, seat)


def on_take_hostage(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    """One hostage per prompt (Respect: 1 more per copy); the VP stolen by the
    whole Take Hostage advantage are one gain instance (Loyalty, §6). From rules
    version 3 each stolen VP moves to the captor with its hostage (so the VP on
    the table add up between two prompts) and Loyalty is added once at the end;
    before, they were all credited at the end."""
    seat = prompted["seat"]
    got = prompted["got"]
    moving = version(state) >= 3
    if choice != "decline":
        owner, kind = choice.split(":", 1)
        owner = int(owner)
        fid = sorted(
            x
            for x in figs_at(state, current_battle(state)["province"], owner)
            if kind_of(state["figures"][x]) == kind
        )[0]
        emit(state, FigureTakenHostage(figure=fid, at=state["figures"][fid]["at"], captor=seat))
        taken = lose_vp(state, owner, 1, "Take Hostage")
        got += taken
        if moving and taken:
            emit(state, VictoryPointsScored(seat=seat, points=taken, reason="Take Hostage"))
        more = hostage_targets(state, seat)
        if prompted["left"] > 1 and more:
            prompt(state, seat, "take_hostage", ["decline"] + more, left=prompted["left"] - 1, got=got)
            return
    if not moving:
        gain_vp(state, seat, got, "Take Hostage")
    elif got > 0:
        loyalty(state, seat)


def on_hire_ronin(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    if choice == "hire":
        current_battle(state)["hired_ronin"][str(prompted["seat"])] = ronin_amount(state, prompted["seat"])


def on_imperial_poets(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    if choice == "compose":
        gain_vp(state, prompted["seat"], current_battle(state)["killed"], "Imperial Poets")


def _outcome(state: State) -> None:
    b = current_battle(state)
    prov = b["province"]
    forces = {q: force(state, q, prov) for q in b["participants"]}
    winner = best_by(state, forces, minimum=1)
    if winner is None:
        winner = by_honor(state, b["participants"])[0]
    b["winner"] = winner
    award(state, winner, prov, b["souls"])
    dead = [
        fid
        for fid in figs_at(state, prov)
        if state["figures"][fid]["owner"] != winner
        and state["alliances"][winner] != state["figures"][fid]["owner"]
    ]
    request_kill(state, dead, winner)


def _reparations(state: State) -> None:
    b = current_battle(state)
    winner = b["winner"]
    assert winner is not None  # _outcome ran before
    losers = by_honor(state, [q for q in b["participants"] if q != winner])
    for q in losers:
        pay_coins(state, q, allocated(b, q), "war bid")
    pot = allocated(b, winner)
    pay_coins(state, winner, pot, "war bid")
    if not losers:
        return
    share, rem = divmod(pot, len(losers))
    for q in losers:
        if share:
            emit(state, CoinsGained(seat=q, coins=share, reason="reparations"))
    if rem:
        prompt(state, winner, "reparations", [str(q) for q in losers], left=rem)


def on_reparations(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    emit(state, CoinsGained(seat=int(choice), coins=1, reason="reparations"))
    rest = [o for o in prompted["options"] if o != choice]
    if prompted["left"] > 1 and rest:
        prompt(state, prompted["seat"], "reparations", rest, left=prompted["left"] - 1)


__all__ = ["check_bid", "store_bid", "reveal", "IllegalCommand"]


_BATTLE_STEPS: tuple[Callable[[State], None], ...] = (
    _ask_seppuku,
    _ask_hostage,
    _ask_ronin,
    _outcome,
    _ask_poets,
    _reparations,
)
