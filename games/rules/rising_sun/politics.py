"""Political Phase: the 3-2-2 track, mandate turns (draw 4, play 1, Lotus face
down) and the five mandates with their all-players part and bonus."""

from __future__ import annotations

from typing import Any

from ..base import IllegalCommand
from .data import BOARD, CARDS, MANDATES, PROVINCES, TRACK
from .figures import after_summon, end_of_recruit, put  # noqa: F401
from .frames import Command, Steps, pop, prompt, push
from .movement import do_move, move_commands
from .named import (
    AllianceBroken,
    CardGained,
    CoinsGained,
    FigureMoved,
    MonsterRecruited,
    StrongholdBuilt,
    emit,
)
from .state import (
    Frame,
    State,
    best_by,
    by_honor,
    clan,
    clockwise_from_left,
    copies,
    force,
    gain_coins,
    gain_honor,
    gain_ronin,
    gain_vp,
    is_daimyo_like,
    kind_of,
    left_of,
    lose_honor,
    matches_type,
    pay_coins,
    pay_cost,
    reserve,
    type_classes,
)

BOARD_STRONGHOLDS = 4


def political_step(state: State, frame: Frame, steps: Steps) -> None:
    if frame["step"] >= len(TRACK):
        pop(state)
        push(state, "war_start")
        return
    step = TRACK[frame["step"]]
    frame["step"] += 1
    if step == "M":
        push(state, "choose_mandate", seat=state["holder"])
    else:
        push(state, "kami", step=0)


# ------------------------------------------------------------ mandate turn


def drawn(state: State) -> list[str]:
    return state["mandate_deck"][:4]


def choose_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    tiles = sorted(set(drawn(state)))
    if clan(state, seat) == "Lotus":
        return [{"type": "choose_mandate", "tile": t, "declare": m} for t in tiles for m in MANDATES]
    return [{"type": "choose_mandate", "tile": t} for t in tiles]


def check_choice(state: State, seat: int, cmd: Command) -> str:
    f = state["position"][-1]
    if f["kind"] != "choose_mandate" or f["seat"] != seat:
        raise IllegalCommand("it is not your mandate turn")
    if cmd.get("tile") not in drawn(state):
        raise IllegalCommand("that tile is not among the 4 you drew")
    declare = cmd.get("declare")
    if clan(state, seat) == "Lotus":
        if declare not in MANDATES:
            raise IllegalCommand("Lotus must declare one of the 5 mandates")
        return str(declare)
    if declare not in (None, cmd["tile"]):
        raise IllegalCommand("only Lotus may declare another mandate")
    return str(cmd["tile"])


def choose_tile(state: State, seat: int, tile: str, key: str, salt: str) -> None:
    """The secret part: the tile leaves the deck (the 3 others keep their order)."""
    deck = state["mandate_deck"]
    deck.pop(deck.index(tile, 0, 4))
    state["track"].append(
        {
            "seat": seat,
            "tile": tile,
            "key": key,
            "salt": salt,
            "face_down": clan(state, seat) == "Lotus",
            "mandate": None,
        }
    )


def play_mandate(state: State, seat: int, declared: str) -> None:
    """The public part: the mandate is announced and executed."""
    pop(state)
    state["track"][-1]["mandate"] = declared
    ally = state["alliances"][seat]
    if ally is not None and declared != "betray":
        gain_vp(state, seat, 2 * copies(state, seat, "Honesty"), "Honesty")
    if declared == "betray" and ally is not None:
        emit(state, AllianceBroken(seats=[seat, ally], reason="betray"))
        lose_honor(state, seat)
    if declared == "train":
        order = [seat] + clockwise_from_left(state, seat)[:-1]
    elif declared == "betray":
        order = [seat]
    else:
        order = clockwise_from_left(state, seat)
    push(state, "mandate", mandate=declared, chooser=seat, order=order, step=0)


def mandate_step(state: State, frame: Frame, steps: Steps) -> None:
    if frame["step"] >= len(frame["order"]):
        pop(state)
        state["holder"] = left_of(state, frame["chooser"])
        if frame["mandate"] == "recruit":
            end_of_recruit(state)
        return
    seat = frame["order"][frame["step"]]
    frame["step"] += 1
    bonus = seat == frame["chooser"] or state["alliances"][frame["chooser"]] == seat
    START[frame["mandate"]](state, seat, bonus)


# ----------------------------------------------------------------- recruit


def _start_recruit(state: State, seat: int, bonus: bool) -> None:
    strong = state["players"][seat]["strongholds"]
    if clan(state, seat) == "Dragonfly":
        f = {"slots": {}, "extra": 0, "any": len(strong) + int(bonus)}
    else:
        slots: dict[str, int] = {}
        for p in strong:
            slots[p] = slots.get(p, 0) + 1
        f = {"slots": slots, "extra": int(bonus and bool(strong)), "any": 0}
    frame = push(state, "recruit", seat=seat, count=0, **f)
    if not _can_summon(state, frame):
        pop(state)


def _can_summon(state: State, frame: Frame) -> bool:
    left = sum(frame["slots"].values()) + frame["extra"] + frame["any"]
    return left > 0 and bool(reserve(state, frame["seat"]))


def summon_places(state: State, frame: Frame) -> list[str]:
    if frame["any"] > 0:
        return list(PROVINCES)
    return [p for p in PROVINCES if frame["slots"].get(p, 0) > 0 or (frame["extra"] and p in frame["slots"])]


def recruit_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    kinds = sorted({kind_of(state["figures"][x]) for x in reserve(state, seat)})
    cmds = []
    for p in summon_places(state, frame):
        for k in kinds:
            cmds.append({"type": "summon", "kind": k, "province": p})
            if k in ("shinto", "Komainu"):
                cmds += [
                    {"type": "summon", "kind": k, "province": p, "shrine": sh} for sh in state["shrines"]
                ]
    return cmds + [{"type": "done"}]


def recruit_apply(state: State, frame: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd["type"] == "done":
        _finish_recruit(state, frame)
        return
    if cmd["type"] != "summon":
        raise IllegalCommand("summon a figure or say done")
    kind, prov, shrine = cmd.get("kind"), cmd.get("province"), cmd.get("shrine")
    if prov not in summon_places(state, frame):
        raise IllegalCommand(f"you cannot summon in {prov}")
    cands = sorted(x for x in reserve(state, seat) if kind_of(state["figures"][x]) == kind)
    if not cands:
        raise IllegalCommand(f"no {kind} in your reserve")
    if shrine is not None and (
        shrine not in state["shrines"] or "shinto" not in type_classes(state["figures"][cands[0]])
    ):
        raise IllegalCommand("only a Shinto (or Komainu) may go to a Shrine, and only to one in play")
    if frame["any"]:
        frame["any"] -= 1
    elif frame["slots"].get(prov, 0) > 0:
        frame["slots"][prov] -= 1
    else:
        frame["extra"] -= 1
    frame["count"] += 1
    put(state, cands[0], "shrine:" + shrine if shrine else prov, "Recruit")
    if not _can_summon(state, frame):
        _finish_recruit(state, frame)


def _finish_recruit(state: State, frame: Frame) -> None:
    """The recruit frame becomes the after-Summon step, in place, so that any
    "enters a province" effect pushed above it resolves first."""
    i = state["position"].index(frame)
    if frame["count"]:
        state["position"][i] = {"kind": "after_summon", "seat": frame["seat"]}
    else:
        state["position"].pop(i)


# ----------------------------------------------------------------- marshal


def _start_marshal(state: State, seat: int, bonus: bool) -> None:
    frame = push(state, "marshal", seat=seat, moved=[], strongholds_moved=[], bonus=bonus, toll=False)
    if not move_commands(state, seat, [], [], False):
        _end_marshal(state, frame)


def marshal_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    return move_commands(state, seat, frame["moved"], frame["strongholds_moved"], frame["toll"]) + [
        {"type": "done"}
    ]


def marshal_apply(state: State, frame: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd["type"] == "done":
        _end_marshal(state, frame)
        return
    if cmd["type"] != "move":
        raise IllegalCommand("move a figure or say done")
    do_move(state, seat, cmd, frame["moved"], frame["strongholds_moved"], frame)
    if not move_commands(state, seat, frame["moved"], frame["strongholds_moved"], frame["toll"]):
        _end_marshal(state, frame)


def _end_marshal(state: State, frame: Frame) -> None:
    """The marshal frame becomes the bonus build step in place, so that what the
    last move triggered (Oni of Hate, a Serpent toll) resolves before it."""
    i = state["position"].index(frame)
    seat = frame["seat"]
    if frame["bonus"]:
        state["position"][i] = {"kind": "build_check", "seat": seat}
    else:
        state["position"].pop(i)


def build_check_step(state: State, frame: Frame, steps: Steps) -> None:
    pop(state)
    if can_build(state, frame["seat"]):
        push(state, "build", seat=frame["seat"])


def can_build(state: State, seat: int) -> bool:
    p = state["players"][seat]
    return len(p["strongholds"]) < BOARD_STRONGHOLDS and p["coins"] >= pay_cost(state, seat, 3)


def build_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    builds = [{"type": "build", "province": p} for p in PROVINCES] if can_build(state, seat) else []
    return builds + [{"type": "done"}]


def build_apply(state: State, frame: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    pop(state)
    if cmd["type"] == "done":
        return
    if cmd["type"] != "build" or cmd.get("province") not in PROVINCES:
        raise IllegalCommand("build in a province or say done")
    if not can_build(state, seat):
        raise IllegalCommand("you cannot pay for (or have no) Stronghold left to build")
    price = pay_cost(state, seat, 3)
    pay_coins(state, seat, price, "build")
    emit(state, StrongholdBuilt(seat=seat, province=cmd["province"]))
    benevolence(state, seat, price)


def benevolence(state: State, seat: int, price: int) -> None:
    """Give 1 of the paid coins to another player: Honor + 2 VP (per copy)."""
    n = min(price, copies(state, seat, "Benevolence"))
    opts = ["keep"] + [str(q) for q in range(state["player_count"]) if q != seat]
    for _ in range(n):
        prompt(state, seat, "benevolence", opts)


def on_benevolence(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    if choice == "keep":
        return
    emit(state, CoinsGained(seat=int(choice), coins=1, reason="Benevolence"))
    gain_honor(state, prompted["seat"])
    gain_vp(state, prompted["seat"], 2, "Benevolence")


# ------------------------------------------------------------------- train


def price_of(state: State, seat: int, card: str, discount: int) -> int:
    return pay_cost(state, seat, CARDS[card]["cost"], discount)


def start_train(state: State, seat: int, bonus: bool, ryujin: bool = False) -> None:
    frame = push(state, "train", seat=seat, discount=int(bonus), ryujin=ryujin)
    if not train_legal(state, frame, seat)[:-1]:
        pop(state)


def train_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    coins = state["players"][seat]["coins"]
    cards = sorted({c for c in state["display"] if price_of(state, seat, c, frame["discount"]) <= coins})
    return [{"type": "buy", "card": c} for c in cards] + [{"type": "done"}]


def train_apply(state: State, frame: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    pop(state)
    if cmd["type"] == "done":
        return
    card = cmd.get("card")
    if cmd["type"] != "buy" or card not in state["display"]:
        raise IllegalCommand("buy an available season card or say done")
    price = price_of(state, seat, card, frame["discount"])
    if price > state["players"][seat]["coins"]:
        raise IllegalCommand("not enough coins")
    pay_coins(state, seat, price, "buy")
    emit(state, CardGained(seat=seat, card=card, reason="Ryujin" if frame["ryujin"] else "Train"))
    if CARDS[card]["type"] == "monster":
        fid = "m:" + card
        emit(state, MonsterRecruited(seat=seat, figure=fid, name=card))
        if monster_places(state, seat, fid):
            push(state, "place_monster", seat=seat, figure=fid)
    benevolence(state, seat, price)


def monster_places(state: State, seat: int, fid: str) -> list[Command]:
    provs = (
        PROVINCES if clan(state, seat) == "Dragonfly" else sorted(set(state["players"][seat]["strongholds"]))
    )
    out = [{"type": "place", "province": p} for p in provs]
    if state["figures"][fid]["name"] == "Komainu":
        out += [{"type": "place", "province": p, "shrine": sh} for p in provs for sh in state["shrines"]]
    return out


def place_monster_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    return monster_places(state, seat, frame["figure"])


def place_monster_apply(state: State, frame: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd not in monster_places(state, seat, frame["figure"]):
        raise IllegalCommand("summon the monster where you have a Stronghold (or to a Shrine for Komainu)")
    pop(state)
    after_summon(state, seat)
    put(state, frame["figure"], "shrine:" + cmd["shrine"] if cmd.get("shrine") else cmd["province"], "Train")


# ----------------------------------------------------------------- harvest


def _harvest(state: State, seat: int, bonus: bool) -> None:
    coins, vp, ronin = 1, 0, 0
    if bonus:
        for prov in PROVINCES:
            scores = {q: force(state, q, prov) for q in range(state["player_count"])}
            if best_by(state, scores, minimum=1) == seat:
                r = BOARD["provinces"][prov]["reward"]
                coins += r.get("coins", 0)
                vp += r.get("vp", 0)
                ronin += r.get("ronin", 0)
    gain_coins(state, seat, coins, "harvest")
    gain_vp(state, seat, vp, "harvest")
    gain_ronin(state, seat, ronin, "harvest")


# ------------------------------------------------------------------ betray


def _start_betray(state: State, seat: int, bonus: bool) -> None:
    frame = push(
        state, "betray", seat=seat, base=2, extra=copies(state, seat, "Path of the Unrighteous"), targeted=[]
    )
    if len(betray_legal(state, frame, seat)) == 1:
        pop(state)


def _betray_targets(state: State, frame: Frame, seat: int) -> list[Command]:
    mine: dict[str, set[str]] = {}
    for x in reserve(state, seat):
        for c in type_classes(state["figures"][x]):
            mine.setdefault(c, set()).add(kind_of(state["figures"][x]))
    out = []
    seen = set()
    for fid in sorted(state["figures"]):
        t = state["figures"][fid]
        if t["owner"] == seat or is_daimyo_like(t):
            continue
        on_shrine = t["at"].startswith("shrine:")
        if not (t["at"] in PROVINCES or on_shrine):
            continue
        base_ok = frame["base"] > 0 and t["owner"] not in frame["targeted"] and not on_shrine
        if not (base_ok or frame["extra"] > 0):
            continue
        withs = set()
        for c in type_classes(t):
            withs |= mine.get(c, set())
        for w in sorted(withs):
            key = (t["owner"], t["at"], kind_of(t), w)
            if key not in seen:
                seen.add(key)
                out.append(
                    {"type": "betray", "owner": t["owner"], "at": t["at"], "kind": kind_of(t), "with": w}
                )
    return out


def betray_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    return _betray_targets(state, frame, seat) + [{"type": "done"}]


def betray_apply(state: State, frame: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd["type"] == "done":
        pop(state)
        return
    if cmd not in _betray_targets(state, frame, seat):
        raise IllegalCommand("that figure cannot be replaced")
    owner, at = cmd["owner"], cmd["at"]
    if frame["base"] > 0 and owner not in frame["targeted"] and not at.startswith("shrine:"):
        frame["base"] -= 1
        frame["targeted"].append(owner)
    else:
        frame["extra"] -= 1
    target = sorted(
        x
        for x in state["figures"]
        if state["figures"][x]["owner"] == owner
        and state["figures"][x]["at"] == at
        and kind_of(state["figures"][x]) == cmd["kind"]
    )[0]
    mine = sorted(x for x in reserve(state, seat) if kind_of(state["figures"][x]) == cmd["with"])[0]
    emit(state, FigureMoved(figure=target, source=at, destination="reserve", reason="Betray"))
    put(state, mine, at, "Betray")
    if len(betray_legal(state, frame, seat)) == 1:
        state["position"].remove(frame)


START = {
    "recruit": _start_recruit,
    "marshal": _start_marshal,
    "train": start_train,
    "harvest": _harvest,
    "betray": _start_betray,
}

__all__ = ["START", "check_choice", "choose_tile", "play_mandate", "start_train", "by_honor", "matches_type"]
