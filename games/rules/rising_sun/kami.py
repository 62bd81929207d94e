"""Kami turns: the 4 shrines left to right; the clan with most figures on a
shrine (ties: Honor, read again at each shrine) gets that Kami's gift."""

from __future__ import annotations

from ..base import IllegalCommand
from .data import PROVINCES
from .figures import after_summon, put
from .frames import Command, Steps, pop, push
from .movement import do_move, move_commands
from .politics import start_train
from .state import Frame, State, best_by, figs_at, gain_coins, gain_ronin, gain_vp, honor_to_top, reserve


def shrine_winner(state: State, shrine: str) -> int | None:
    scores: dict[int, int] = {}
    for fid in figs_at(state, "shrine:" + shrine):
        o = state["figures"][fid]["owner"]
        scores[o] = scores.get(o, 0) + 1
    return best_by(state, scores, minimum=1)


def kami_step(state: State, frame: Frame, steps: Steps) -> None:
    if frame["step"] >= len(state["shrines"]):
        pop(state)
        return
    shrine = state["shrines"][frame["step"]]
    frame["step"] += 1
    seat = shrine_winner(state, shrine)
    if seat is not None:
        GIFTS[shrine](state, seat)


def _amaterasu(state: State, seat: int) -> None:
    honor_to_top(state, seat)


def _hachiman(state: State, seat: int) -> None:
    gain_ronin(state, seat, 2, "Hachiman")


def _tsukuyomi(state: State, seat: int) -> None:
    gain_coins(state, seat, 2, "Tsukuyomi")


def _susanoo(state: State, seat: int) -> None:
    gain_vp(state, seat, len(state["players"][seat]["strongholds"]), "Susanoo")


def _fujin(state: State, seat: int) -> None:
    frame = push(state, "fujin", seat=seat, moves=2, toll=False)
    if not move_commands(state, seat, None, None, False):
        state["position"].remove(frame)


def _raijin(state: State, seat: int) -> None:
    if any(state["figures"][x]["type"] == "bushi" for x in reserve(state, seat)):
        push(state, "raijin", seat=seat)


def _ryujin(state: State, seat: int) -> None:
    start_train(state, seat, False, ryujin=True)


GIFTS = {
    "Amaterasu": _amaterasu,
    "Fujin": _fujin,
    "Hachiman": _hachiman,
    "Raijin": _raijin,
    "Ryujin": _ryujin,
    "Susanoo": _susanoo,
    "Tsukuyomi": _tsukuyomi,
}


def fujin_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    return move_commands(state, seat, None, None, frame["toll"]) + [{"type": "done"}]


def fujin_apply(state: State, frame: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd["type"] == "done":
        pop(state)
        return
    if cmd["type"] != "move":
        raise IllegalCommand("move a figure or say done")
    frame["moves"] -= 1
    if frame["moves"] <= 0:
        pop(state)
    do_move(state, seat, cmd, None, None, frame)
    if (
        frame["moves"] > 0
        and frame in state["position"]
        and not move_commands(state, seat, None, None, frame["toll"])
    ):
        state["position"].remove(frame)


def raijin_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    return [{"type": "summon", "kind": "bushi", "province": p} for p in PROVINCES] + [{"type": "done"}]


def raijin_apply(state: State, frame: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    pop(state)
    if cmd["type"] == "done":
        return
    if cmd.get("type") != "summon" or cmd.get("kind") != "bushi" or cmd.get("province") not in PROVINCES:
        raise IllegalCommand("summon a Bushi in a province or say done")
    fid = sorted(x for x in reserve(state, seat) if state["figures"][x]["type"] == "bushi")[0]
    after_summon(state, seat)
    put(state, fid, cmd["province"], "Raijin")
