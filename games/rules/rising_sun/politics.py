"""Political Phase: the 3-2-2 track, mandate turns (draw 4, play 1, Lotus face
down) and the five mandates with their all-players part and bonus."""

from __future__ import annotations

from typing import Any

from ..base import IllegalCommand
from .data import BOARD, CARDS, MANDATES, PROVINCES, TRACK
from .figures import after_summon, end_of_recruit, put  # noqa: F401
from .frames import Command, Steps, pop, prompt, push
from .movement import do_move, move_commands
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
    gain_vp,
    is_daimyo_like,
    kind_of,
    left_of,
    lose_honor,
    matches_type,
    pay_cost,
    reserve,
    type_classes,
)

BOARD_STRONGHOLDS = 4


def political_step(s: State, f: Frame, steps: Steps) -> None:
    if f["step"] >= len(TRACK):
        pop(s)
        push(s, "war_start")
        return
    step = TRACK[f["step"]]
    f["step"] += 1
    if step == "M":
        push(s, "choose_mandate", seat=s["holder"])
    else:
        push(s, "kami", step=0)


# ------------------------------------------------------------ mandate turn


def drawn(s: State) -> list[str]:
    return s["mandate_deck"][:4]


def choose_legal(s: State, f: Frame, seat: int) -> list[Command]:
    tiles = sorted(set(drawn(s)))
    if clan(s, seat) == "Lotus":
        return [{"type": "choose_mandate", "tile": t, "declare": m} for t in tiles for m in MANDATES]
    return [{"type": "choose_mandate", "tile": t} for t in tiles]


def check_choice(s: State, seat: int, cmd: Command) -> str:
    f = s["position"][-1]
    if f["kind"] != "choose_mandate" or f["seat"] != seat:
        raise IllegalCommand("it is not your mandate turn")
    if cmd.get("tile") not in drawn(s):
        raise IllegalCommand("that tile is not among the 4 you drew")
    declare = cmd.get("declare")
    if clan(s, seat) == "Lotus":
        if declare not in MANDATES:
            raise IllegalCommand("Lotus must declare one of the 5 mandates")
        return str(declare)
    if declare not in (None, cmd["tile"]):
        raise IllegalCommand("only Lotus may declare another mandate")
    return str(cmd["tile"])


def choose_tile(s: State, seat: int, tile: str, key: str, salt: str) -> None:
    """The secret part: the tile leaves the deck (the 3 others keep their order)."""
    deck = s["mandate_deck"]
    deck.pop(deck.index(tile, 0, 4))
    s["track"].append(
        {
            "seat": seat,
            "tile": tile,
            "key": key,
            "salt": salt,
            "face_down": clan(s, seat) == "Lotus",
            "mandate": None,
        }
    )


def play_mandate(s: State, seat: int, declared: str) -> None:
    """The public part: the mandate is announced and executed."""
    pop(s)
    s["track"][-1]["mandate"] = declared
    ally = s["alliances"][seat]
    if ally is not None and declared != "betray":
        gain_vp(s, seat, 2 * copies(s, seat, "Honesty"))
    if declared == "betray" and ally is not None:
        s["alliances"][seat] = s["alliances"][ally] = None
        lose_honor(s, seat)
    if declared == "train":
        order = [seat] + clockwise_from_left(s, seat)[:-1]
    elif declared == "betray":
        order = [seat]
    else:
        order = clockwise_from_left(s, seat)
    push(s, "mandate", mandate=declared, chooser=seat, order=order, step=0)


def mandate_step(s: State, f: Frame, steps: Steps) -> None:
    if f["step"] >= len(f["order"]):
        pop(s)
        s["holder"] = left_of(s, f["chooser"])
        if f["mandate"] == "recruit":
            end_of_recruit(s)
        return
    seat = f["order"][f["step"]]
    f["step"] += 1
    bonus = seat == f["chooser"] or s["alliances"][f["chooser"]] == seat
    START[f["mandate"]](s, seat, bonus)


# ----------------------------------------------------------------- recruit


def _start_recruit(s: State, seat: int, bonus: bool) -> None:
    strong = s["players"][seat]["strongholds"]
    if clan(s, seat) == "Dragonfly":
        f = {"slots": {}, "extra": 0, "any": len(strong) + int(bonus)}
    else:
        slots: dict[str, int] = {}
        for p in strong:
            slots[p] = slots.get(p, 0) + 1
        f = {"slots": slots, "extra": int(bonus and bool(strong)), "any": 0}
    frame = push(s, "recruit", seat=seat, count=0, **f)
    if not _can_summon(s, frame):
        pop(s)


def _can_summon(s: State, f: Frame) -> bool:
    left = sum(f["slots"].values()) + f["extra"] + f["any"]
    return left > 0 and bool(reserve(s, f["seat"]))


def summon_places(s: State, f: Frame) -> list[str]:
    if f["any"] > 0:
        return list(PROVINCES)
    return [p for p in PROVINCES if f["slots"].get(p, 0) > 0 or (f["extra"] and p in f["slots"])]


def recruit_legal(s: State, f: Frame, seat: int) -> list[Command]:
    kinds = sorted({kind_of(s["figures"][x]) for x in reserve(s, seat)})
    cmds = []
    for p in summon_places(s, f):
        for k in kinds:
            cmds.append({"type": "summon", "kind": k, "province": p})
            if k in ("shinto", "Komainu"):
                cmds += [{"type": "summon", "kind": k, "province": p, "shrine": sh} for sh in s["shrines"]]
    return cmds + [{"type": "done"}]


def recruit_apply(s: State, f: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd["type"] == "done":
        _finish_recruit(s, f)
        return
    if cmd["type"] != "summon":
        raise IllegalCommand("summon a figure or say done")
    kind, prov, shrine = cmd.get("kind"), cmd.get("province"), cmd.get("shrine")
    if prov not in summon_places(s, f):
        raise IllegalCommand(f"you cannot summon in {prov}")
    cands = sorted(x for x in reserve(s, seat) if kind_of(s["figures"][x]) == kind)
    if not cands:
        raise IllegalCommand(f"no {kind} in your reserve")
    if shrine is not None and (
        shrine not in s["shrines"] or "shinto" not in type_classes(s["figures"][cands[0]])
    ):
        raise IllegalCommand("only a Shinto (or Komainu) may go to a Shrine, and only to one in play")
    if f["any"]:
        f["any"] -= 1
    elif f["slots"].get(prov, 0) > 0:
        f["slots"][prov] -= 1
    else:
        f["extra"] -= 1
    f["count"] += 1
    put(s, cands[0], "shrine:" + shrine if shrine else prov)
    if not _can_summon(s, f):
        _finish_recruit(s, f)


def _finish_recruit(s: State, f: Frame) -> None:
    """The recruit frame becomes the after-Summon step, in place, so that any
    "enters a province" effect pushed above it resolves first."""
    i = s["position"].index(f)
    if f["count"]:
        s["position"][i] = {"kind": "after_summon", "seat": f["seat"]}
    else:
        s["position"].pop(i)


# ----------------------------------------------------------------- marshal


def _start_marshal(s: State, seat: int, bonus: bool) -> None:
    frame = push(s, "marshal", seat=seat, moved=[], strongholds_moved=[], bonus=bonus, toll=False)
    if not move_commands(s, seat, [], [], False):
        _end_marshal(s, frame)


def marshal_legal(s: State, f: Frame, seat: int) -> list[Command]:
    return move_commands(s, seat, f["moved"], f["strongholds_moved"], f["toll"]) + [{"type": "done"}]


def marshal_apply(s: State, f: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd["type"] == "done":
        _end_marshal(s, f)
        return
    if cmd["type"] != "move":
        raise IllegalCommand("move a figure or say done")
    do_move(s, seat, cmd, f["moved"], f["strongholds_moved"], f)
    if not move_commands(s, seat, f["moved"], f["strongholds_moved"], f["toll"]):
        _end_marshal(s, f)


def _end_marshal(s: State, f: Frame) -> None:
    """The marshal frame becomes the bonus build step in place, so that what the
    last move triggered (Oni of Hate, a Serpent toll) resolves before it."""
    i = s["position"].index(f)
    seat = f["seat"]
    if f["bonus"]:
        s["position"][i] = {"kind": "build_check", "seat": seat}
    else:
        s["position"].pop(i)


def build_check_step(s: State, f: Frame, steps: Steps) -> None:
    pop(s)
    if can_build(s, f["seat"]):
        push(s, "build", seat=f["seat"])


def can_build(s: State, seat: int) -> bool:
    p = s["players"][seat]
    return len(p["strongholds"]) < BOARD_STRONGHOLDS and p["coins"] >= pay_cost(s, seat, 3)


def build_legal(s: State, f: Frame, seat: int) -> list[Command]:
    builds = [{"type": "build", "province": p} for p in PROVINCES] if can_build(s, seat) else []
    return builds + [{"type": "done"}]


def build_apply(s: State, f: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    pop(s)
    if cmd["type"] == "done":
        return
    if cmd["type"] != "build" or cmd.get("province") not in PROVINCES:
        raise IllegalCommand("build in a province or say done")
    if not can_build(s, seat):
        raise IllegalCommand("you cannot pay for (or have no) Stronghold left to build")
    price = pay_cost(s, seat, 3)
    s["players"][seat]["coins"] -= price
    s["players"][seat]["strongholds"].append(cmd["province"])
    benevolence(s, seat, price)


def benevolence(s: State, seat: int, price: int) -> None:
    """Give 1 of the paid coins to another player: Honor + 2 VP (per copy)."""
    n = min(price, copies(s, seat, "Benevolence"))
    opts = ["keep"] + [str(q) for q in range(s["player_count"]) if q != seat]
    for _ in range(n):
        prompt(s, seat, "benevolence", opts)


def on_benevolence(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    if choice == "keep":
        return
    s["players"][int(choice)]["coins"] += 1
    gain_honor(s, p["seat"])
    gain_vp(s, p["seat"], 2)


# ------------------------------------------------------------------- train


def price_of(s: State, seat: int, card: str, discount: int) -> int:
    return pay_cost(s, seat, CARDS[card]["cost"], discount)


def start_train(s: State, seat: int, bonus: bool, ryujin: bool = False) -> None:
    frame = push(s, "train", seat=seat, discount=int(bonus), ryujin=ryujin)
    if not train_legal(s, frame, seat)[:-1]:
        pop(s)


def train_legal(s: State, f: Frame, seat: int) -> list[Command]:
    coins = s["players"][seat]["coins"]
    cards = sorted({c for c in s["display"] if price_of(s, seat, c, f["discount"]) <= coins})
    return [{"type": "buy", "card": c} for c in cards] + [{"type": "done"}]


def train_apply(s: State, f: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    pop(s)
    if cmd["type"] == "done":
        return
    card = cmd.get("card")
    if cmd["type"] != "buy" or card not in s["display"]:
        raise IllegalCommand("buy an available season card or say done")
    price = price_of(s, seat, card, f["discount"])
    if price > s["players"][seat]["coins"]:
        raise IllegalCommand("not enough coins")
    s["players"][seat]["coins"] -= price
    s["display"].remove(card)
    s["players"][seat]["cards"].append(card)
    if CARDS[card]["type"] == "monster":
        fid = "m:" + card
        s["figures"][fid] = {"owner": seat, "type": "monster", "name": card, "at": "reserve"}
        if monster_places(s, seat, fid):
            push(s, "place_monster", seat=seat, figure=fid)
    benevolence(s, seat, price)


def monster_places(s: State, seat: int, fid: str) -> list[Command]:
    provs = PROVINCES if clan(s, seat) == "Dragonfly" else sorted(set(s["players"][seat]["strongholds"]))
    out = [{"type": "place", "province": p} for p in provs]
    if s["figures"][fid]["name"] == "Komainu":
        out += [{"type": "place", "province": p, "shrine": sh} for p in provs for sh in s["shrines"]]
    return out


def place_monster_legal(s: State, f: Frame, seat: int) -> list[Command]:
    return monster_places(s, seat, f["figure"])


def place_monster_apply(s: State, f: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd not in monster_places(s, seat, f["figure"]):
        raise IllegalCommand("summon the monster where you have a Stronghold (or to a Shrine for Komainu)")
    pop(s)
    after_summon(s, seat)
    put(s, f["figure"], "shrine:" + cmd["shrine"] if cmd.get("shrine") else cmd["province"])


# ----------------------------------------------------------------- harvest


def _harvest(s: State, seat: int, bonus: bool) -> None:
    coins, vp, ronin = 1, 0, 0
    if bonus:
        for prov in PROVINCES:
            scores = {q: force(s, q, prov) for q in range(s["player_count"])}
            if best_by(s, scores, minimum=1) == seat:
                r = BOARD["provinces"][prov]["reward"]
                coins += r.get("coins", 0)
                vp += r.get("vp", 0)
                ronin += r.get("ronin", 0)
    gain_coins(s, seat, coins)
    gain_vp(s, seat, vp)
    s["players"][seat]["ronin"] += ronin


# ------------------------------------------------------------------ betray


def _start_betray(s: State, seat: int, bonus: bool) -> None:
    frame = push(
        s, "betray", seat=seat, base=2, extra=copies(s, seat, "Path of the Unrighteous"), targeted=[]
    )
    if len(betray_legal(s, frame, seat)) == 1:
        pop(s)


def _betray_targets(s: State, f: Frame, seat: int) -> list[Command]:
    mine: dict[str, set[str]] = {}
    for x in reserve(s, seat):
        for c in type_classes(s["figures"][x]):
            mine.setdefault(c, set()).add(kind_of(s["figures"][x]))
    out = []
    seen = set()
    for fid in sorted(s["figures"]):
        t = s["figures"][fid]
        if t["owner"] == seat or is_daimyo_like(t):
            continue
        on_shrine = t["at"].startswith("shrine:")
        if not (t["at"] in PROVINCES or on_shrine):
            continue
        base_ok = f["base"] > 0 and t["owner"] not in f["targeted"] and not on_shrine
        if not (base_ok or f["extra"] > 0):
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


def betray_legal(s: State, f: Frame, seat: int) -> list[Command]:
    return _betray_targets(s, f, seat) + [{"type": "done"}]


def betray_apply(s: State, f: Frame, seat: int, cmd: Command, steps: Steps) -> None:
    if cmd["type"] == "done":
        pop(s)
        return
    if cmd not in _betray_targets(s, f, seat):
        raise IllegalCommand("that figure cannot be replaced")
    owner, at = cmd["owner"], cmd["at"]
    if f["base"] > 0 and owner not in f["targeted"] and not at.startswith("shrine:"):
        f["base"] -= 1
        f["targeted"].append(owner)
    else:
        f["extra"] -= 1
    target = sorted(
        x
        for x in s["figures"]
        if s["figures"][x]["owner"] == owner
        and s["figures"][x]["at"] == at
        and kind_of(s["figures"][x]) == cmd["kind"]
    )[0]
    mine = sorted(x for x in reserve(s, seat) if kind_of(s["figures"][x]) == cmd["with"])[0]
    s["figures"][target]["at"] = "reserve"
    put(s, mine, at)
    if len(betray_legal(s, f, seat)) == 1:
        s["position"].remove(f)


START = {
    "recruit": _start_recruit,
    "marshal": _start_marshal,
    "train": start_train,
    "harvest": _harvest,
    "betray": _start_betray,
}

__all__ = ["START", "check_choice", "choose_tile", "play_mandate", "start_train", "by_honor", "matches_type"]
