"""Kami turns: the 4 shrines left to right; the clan with most figures on a
shrine (ties: Honor, read again at each shrine) gets that Kami's gift."""

from __future__ import annotations

from ..base import IllegalCommand
from .data import PROVINCES
from .figures import after_summon, put
from .frames import Command, Steps, pop, push
from .movement import do_move, move_commands
from .politics import start_train
from .state import Frame, State, best_by, figs_at, gain_coins, gain_vp, honor_to_top, reserve


def shrine_winner(s: State, shrine: str) -> int | None:
    scores: dict[int, int] = {}
    for fid in figs_at(s, "shrine:" + shrine):
        o = s["figures"][fid]["owner"]
        scores[o] = scores.get(o, 0) + 1
    return best_by(s, scores, minimum=1)


def kami_step(s: State, f: Frame, steps: Steps) -> None:
    if f["step"] >= len(s["shrines"]):
        pop(s)
        return
    shrine = s["shrines"][f["step"]]
    f["step"] += 1
    seat = shrine_winner(s, shrine)
    if seat is not None:
        GIFTS[shrine](s, seat)


def _amaterasu(s: State, seat: int) -> None:
    honor_to_top(s, seat)


def _hachiman(s: State, seat: int) -> None:
    s["players"][seat]["ronin"] += 2


def _tsukuyomi(s: State, seat: int) -> None:
    gain_coins(s, seat, 2)


def _susanoo(s: State, seat: int) -> None:
    gain_vp(s, seat, len(s["players"][seat]["strongholds"]))


def _fujin(s: State, seat: int) -> None:
    frame = push(s, "fujin", seat=seat, moves=2, toll=False)
    if not move_commands(s, seat, None, None, False):
        s["position"].remove(frame)


def _raijin(s: State, seat: int) -> None:
    if any(s["figures"][x]["type"] == "bushi" for x in reserve(s, seat)):
        push(s, "raijin", seat=seat)


def _ryujin(s: State, seat: int) -> None:
    start_train(s, seat, False, ryujin=True)


GIFTS = {
    "Amaterasu": _amaterasu,
    "Fujin": _fujin,
    "Hachiman": _hachiman,
    "Raijin": _raijin,
    "Ryujin": _ryujin,
    "Susanoo": _susanoo,
    "Tsukuyomi": _tsukuyomi,
}


def fujin_legal(s: State, f: Frame, seat: int) -> list[Command]:
    return move_commands(s, seat, None, None, f["toll"]) + [{"type": "done"}]


def fujin_apply(s: State, f: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd["type"] == "done":
        pop(s)
        return
    if cmd["type"] != "move":
        raise IllegalCommand("move a figure or say done")
    f["moves"] -= 1
    if f["moves"] <= 0:
        pop(s)
    do_move(s, seat, cmd, None, None, f)
    if f["moves"] > 0 and f in s["position"] and not move_commands(s, seat, None, None, f["toll"]):
        s["position"].remove(f)


def raijin_legal(s: State, f: Frame, seat: int) -> list[Command]:
    return [{"type": "summon", "kind": "bushi", "province": p} for p in PROVINCES] + [{"type": "done"}]


def raijin_apply(s: State, f: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    pop(s)
    if cmd["type"] == "done":
        return
    if cmd.get("type") != "summon" or cmd.get("kind") != "bushi" or cmd.get("province") not in PROVINCES:
        raise IllegalCommand("summon a Bushi in a province or say done")
    fid = sorted(x for x in reserve(s, seat) if s["figures"][x]["type"] == "bushi")[0]
    after_summon(s, seat)
    put(s, fid, cmd["province"])
