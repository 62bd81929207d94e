"""Figures on the move: summon / place / move, kills (Mercy, Justice,
Righteousness, Imperial Poets count), "enters a province" monsters (Oni of Hate,
Oni of Spite) and the after-Summon upgrades (Paths of the Kenin, Ninja, Monkey,
Spirit, Patron, Warlord) and end-of-Recruit upgrades (Light, Samurai)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .data import PROVINCES
from .frames import Steps, pop, prompt, push
from .named import FigureKilled, FigureMoved, FigurePlaced, emit
from .state import (
    Figure,
    Frame,
    State,
    by_honor,
    copies,
    figs_at,
    force,
    gain_coins,
    gain_vp,
    give_coins,
    higher,
    is_daimyo_like,
    kind_of,
    lose_honor,
    lose_vp,
    matches_type,
    reserve,
    top,
)
from .timing import own_order, simultaneous


def on_map(figure: Figure) -> bool:
    return figure["at"] in PROVINCES


def put(state: State, fid: str, loc: str, reason: str) -> None:
    """Summon, place or move a figure; monsters entering a province trigger."""
    source = state["figures"][fid]["at"]
    if source == "reserve":
        emit(state, FigurePlaced(figure=fid, at=loc, reason=reason))
    else:
        emit(state, FigureMoved(figure=fid, source=source, destination=loc, reason=reason))
    if loc in PROVINCES:
        enter(state, fid, loc)


def enter(state: State, fid: str, prov: str) -> None:
    f = state["figures"][fid]
    owner = f["owner"]
    if f["name"] == "Oni of Spite":
        # steal up to 2 VP from each higher-Honor clan with Force there (one
        # effect: the stolen VP are one gain instance for Loyalty)
        stolen = 0
        for q in by_honor(state, range(state["player_count"])):
            if q != owner and higher(state, q, owner) and force(state, q, prov) > 0:
                stolen += lose_vp(state, q, 2, "Oni of Spite")
        gain_vp(state, owner, stolen, "Oni of Spite")
    if f["name"] == "Oni of Hate":
        victims = [
            q
            for q in by_honor(state, range(state["player_count"]))
            if q != owner and higher(state, q, owner) and _hate_kinds(state, q, prov)
        ]
        if victims:
            push(state, "hate", owner=owner, province=prov, victims=victims, picked=[])


def _hate_kinds(state: State, seat: int, prov: str) -> list[str]:
    kinds = {
        kind_of(state["figures"][fid])
        for fid in figs_at(state, prov, seat)
        if matches_type(state["figures"][fid], "bushi") or matches_type(state["figures"][fid], "shinto")
    }
    return sorted(kinds)


def hate_step(state: State, frame: Frame, steps: Steps) -> None:
    while frame["victims"]:
        q = frame["victims"][0]
        kinds = _hate_kinds(state, q, frame["province"])
        if len(kinds) > 1:
            prompt(state, frame["owner"], "oni_of_hate", kinds, victim=q)
            return
        frame["victims"].pop(0)
        if kinds:
            frame["picked"].append(_one(state, q, frame["province"], kinds[0]))
    pop(state)
    request_kill(state, frame["picked"], frame["owner"])


def on_oni_of_hate(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    f = state["position"][-1]
    f["victims"].pop(0)
    f["picked"].append(_one(state, prompted["victim"], f["province"], choice))


def _one(state: State, owner: int, loc: str, kind: str) -> str:
    return sorted(fid for fid in figs_at(state, loc, owner) if kind_of(state["figures"][fid]) == kind)[0]


# ---------------------------------------------------------------- killing


def request_kill(state: State, fids: list[str], killer: int | None) -> None:
    if fids:
        push(state, "kill", figures=list(fids), killer=killer)


def kill_step(state: State, frame: Frame, steps: Steps) -> None:
    pop(state)
    fids = [
        x
        for x in frame["figures"]
        if on_map(state["figures"][x]) or state["figures"][x]["at"].startswith("shrine:")
    ]
    killer = frame["killer"]
    foes = [x for x in fids if state["figures"][x]["owner"] != killer]
    if killer is not None and foes and copies(state, killer, "Mercy"):
        prompt(state, killer, "mercy", ["kill", "spare"], figures=fids)
        return
    do_kill(state, fids, killer, _kill_reason(state))


def on_mercy(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    killer = prompted["seat"]
    fids = prompted["figures"]
    if choice == "spare":
        gain_vp(state, killer, 2 * copies(state, killer, "Mercy"), "Mercy")
        fids = [x for x in fids if state["figures"][x]["owner"] == killer]
    do_kill(state, fids, killer, _kill_reason(state))


def _kill_reason(state: State) -> str:
    """What kills (the kill frame names only the killer; frames of recorded games never change)."""
    if state["phase"] == "war":
        return "battle"
    below = top(state)
    return "Path of the Ninja" if below is not None and below["kind"] == "lose_honor" else "Oni of Hate"


def do_kill(state: State, fids: list[str], killer: int | None, reason: str) -> None:
    """Kill now: figures go back to their owner's reserve."""
    fids = [x for x in fids if on_map(state["figures"][x]) or state["figures"][x]["at"].startswith("shrine:")]
    if not fids:
        return
    b = state.get("battle")
    victims: dict[int, int] = {}
    for fid in fids:
        f = state["figures"][fid]
        if b and f["at"] == b["province"]:
            b["killed"] += 1
        emit(state, FigureKilled(figure=fid, at=f["at"], reason=reason))
        victims[f["owner"]] = victims.get(f["owner"], 0) + 1
    for q in by_honor(state, victims):
        gain_vp(state, q, victims[q] * copies(state, q, "Righteousness"), "Righteousness")
    if killer is not None:
        lower = [q for q in victims if q != killer and higher(state, killer, q)]
        gain_vp(state, killer, 3 * len(lower) * copies(state, killer, "Justice"), "Justice")


# ---------------------------------------------------------- after Summon


def after_summon(state: State, seat: int) -> None:
    """One Summon instance of `seat` happened (at least one figure summoned)."""
    push(state, "after_summon", seat=seat)


AFTER_SUMMON = [
    "Path of the Warlord",
    "Path of the Patron",
    "Path of the Spirit",
    "Path of the Monkey",
    "Path of the Ninja",
    "Path of the Kenin",
]


def after_summon_step(state: State, frame: Frame, steps: Steps) -> None:
    """The player's after-Summon cards trigger together: he orders them freely
    (timing.own_order); the optional ones are prompts whose first option declines."""
    pop(state)
    seat = frame["seat"]
    own_order(state, seat, "after_summon", [c for c in AFTER_SUMMON for _ in range(copies(state, seat, c))])


def after_summon_card(state: State, seat: int, card: str) -> None:
    effect = _AFTER_SUMMON_EFFECTS.get(card)
    if effect is not None:
        effect(state, seat, [q for q in range(state["player_count"]) if q != seat])


def _warlord(state: State, seat: int, others: list[int]) -> None:
    gain_coins(state, seat, 1, "Path of the Warlord")


def _patron(state: State, seat: int, others: list[int]) -> None:
    if sum(1 for q in others if higher(state, seat, q)) >= 2:
        gain_coins(state, seat, 2, "Path of the Patron")


def _spirit(state: State, seat: int, others: list[int]) -> None:
    if state["honor"][0] == seat:
        gain_coins(state, seat, 2, "Path of the Spirit")
        gain_vp(state, seat, 2, "Path of the Spirit")


def _monkey_card(state: State, seat: int, others: list[int]) -> None:
    if any(state["players"][q]["coins"] for q in others):
        prompt(state, seat, "path_of_the_monkey", ["pass", "take"])


def _ninja_card(state: State, seat: int, others: list[int]) -> None:
    targets = ninja_targets(state, seat)
    if targets:
        prompt(state, seat, "path_of_the_ninja", ["pass"] + targets)


def _kenin_card(state: State, seat: int, others: list[int]) -> None:
    targets = kenin_targets(state, seat)
    if targets:
        prompt(state, seat, "path_of_the_kenin", ["pass"] + targets)


_AFTER_SUMMON_EFFECTS: dict[str, Callable[[State, int, list[int]], None]] = {
    "Path of the Warlord": _warlord,
    "Path of the Patron": _patron,
    "Path of the Spirit": _spirit,
    "Path of the Monkey": _monkey_card,
    "Path of the Ninja": _ninja_card,
    "Path of the Kenin": _kenin_card,
}


def ninja_targets(state: State, seat: int) -> list[str]:
    out = set()
    for f in state["figures"].values():
        if f["type"] == "bushi" and f["owner"] != seat and on_map(f):
            out.add(f"{f['owner']}:{f['at']}")
    return sorted(out)


def kenin_targets(state: State, seat: int) -> list[str]:
    if not any(state["figures"][x]["type"] == "bushi" for x in reserve(state, seat)):
        return []
    return sorted(set(state["players"][seat]["strongholds"]))


def on_path_of_the_monkey(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    seat = prompted["seat"]
    if choice != "take":
        return
    others = [q for q in range(state["player_count"]) if q != seat]
    richest = max(state["players"][q]["coins"] for q in others)
    if richest <= 0:
        return
    for q in others:
        if state["players"][q]["coins"] == richest:
            give_coins(state, q, seat, 1, "Path of the Monkey")
    lose_honor(state, seat)


def on_path_of_the_ninja(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    if choice == "pass":
        return
    owner, prov = choice.split(":")
    seat = prompted["seat"]
    cands = sorted(x for x in figs_at(state, prov, int(owner)) if state["figures"][x]["type"] == "bushi")
    if cands:
        # "you may kill 1 Bushi; if you do, lose Honor": the kill (and what it
        # triggers, e.g. Justice) comes first, then the Honor loss
        push(state, "lose_honor", seat=seat)
        request_kill(state, cands[:1], seat)


def lose_honor_step(state: State, frame: Frame, steps: Steps) -> None:
    pop(state)
    lose_honor(state, frame["seat"])


def on_path_of_the_kenin(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    if choice == "pass":
        return
    place_from_reserve(state, prompted["seat"], "bushi", choice, "Path of the Kenin")


def place_from_reserve(state: State, seat: int, want: str, loc: str, reason: str) -> bool:
    """Place (not a Summon) one figure of a type from the reserve."""
    cands = sorted(x for x in reserve(state, seat) if matches_type(state["figures"][x], want))
    if not cands:
        return False
    # prefer the plain figure over a Komainu when placing a Shinto
    cands.sort(key=lambda figure_id: state["figures"][figure_id]["type"] != want)
    put(state, cands[0], loc, reason)
    return True


# ------------------------------------------------------ end of a Recruit


def end_of_recruit(state: State) -> None:
    """Path of the Samurai / Path of the Light of every owner trigger together at
    the end of the Recruit Mandate: a timing conflict (timing.simultaneous)."""
    seats = [q for q in range(state["player_count"]) if _samurai_ok(state, q) or _light_opts(state, q)]
    simultaneous(state, "end_of_recruit", seats)


def _samurai_ok(state: State, seat: int) -> bool:
    return bool(copies(state, seat, "Path of the Samurai")) and any(
        state["figures"][x]["type"] == "bushi" for x in reserve(state, seat)
    )


def _light_opts(state: State, seat: int) -> list[str]:
    """Shrine names (places a Shinto, else the Komainu); "Komainu:<shrine>" when
    both a Shinto and the Komainu (which counts as a Shinto) are in reserve."""
    if not copies(state, seat, "Path of the Light"):
        return []
    kinds = {
        state["figures"][x]["type"]
        for x in reserve(state, seat)
        if matches_type(state["figures"][x], "shinto")
    }
    if not kinds:
        return []
    opts = list(state["shrines"])
    if kinds == {"shinto", "monster"}:
        opts += ["Komainu:" + sh for sh in state["shrines"]]
    return opts


def end_of_recruit_of(state: State, seat: int) -> None:
    # pushed in reverse: the Samurai prompts resolve first (the order of one
    # player's placements cannot change anything)
    for _ in range(copies(state, seat, "Path of the Light")):
        if _light_opts(state, seat):
            prompt(state, seat, "path_of_the_light", ["pass"] + _light_opts(state, seat))
    for _ in range(copies(state, seat, "Path of the Samurai")):
        if _samurai_ok(state, seat):
            prompt(state, seat, "path_of_the_samurai", ["pass"] + list(PROVINCES))


def on_path_of_the_samurai(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    if choice != "pass":
        place_from_reserve(state, prompted["seat"], "bushi", choice, "Path of the Samurai")


def on_path_of_the_light(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    if choice == "pass":
        return
    if choice.startswith("Komainu:"):
        fid = next(
            x for x in sorted(reserve(state, prompted["seat"])) if state["figures"][x]["name"] == "Komainu"
        )
        put(state, fid, "shrine:" + choice.split(":", 1)[1], "Path of the Light")
        return
    place_from_reserve(state, prompted["seat"], "shinto", "shrine:" + choice, "Path of the Light")


def movable_kinds(state: State, seat: int, prov: str, moved: list[str]) -> list[str]:
    return sorted({kind_of(state["figures"][x]) for x in figs_at(state, prov, seat) if x not in moved})


def daimyo_like(state: State, fid: str) -> bool:
    return is_daimyo_like(state["figures"][fid])
