"""Figures on the move: summon / place / move, kills (Mercy, Justice,
Righteousness, Imperial Poets count), "enters a province" monsters (Oni of Hate,
Oni of Spite) and the after-Summon upgrades (Paths of the Kenin, Ninja, Monkey,
Spirit, Patron, Warlord) and end-of-Recruit upgrades (Light, Samurai)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .data import PROVINCES
from .frames import Steps, pop, prompt, push
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
    higher,
    is_daimyo_like,
    kind_of,
    lose_honor,
    lose_vp,
    matches_type,
    reserve,
)
from .timing import own_order, simultaneous


def on_map(f: Figure) -> bool:
    return f["at"] in PROVINCES


def put(s: State, fid: str, loc: str) -> None:
    """Summon, place or move a figure; monsters entering a province trigger."""
    s["figures"][fid]["at"] = loc
    if loc in PROVINCES:
        enter(s, fid, loc)


def enter(s: State, fid: str, prov: str) -> None:
    f = s["figures"][fid]
    owner = f["owner"]
    if f["name"] == "Oni of Spite":
        # steal up to 2 VP from each higher-Honor clan with Force there (one
        # effect: the stolen VP are one gain instance for Loyalty)
        stolen = 0
        for q in by_honor(s, range(s["player_count"])):
            if q != owner and higher(s, q, owner) and force(s, q, prov) > 0:
                stolen += lose_vp(s, q, 2)
        gain_vp(s, owner, stolen)
    if f["name"] == "Oni of Hate":
        victims = [
            q
            for q in by_honor(s, range(s["player_count"]))
            if q != owner and higher(s, q, owner) and _hate_kinds(s, q, prov)
        ]
        if victims:
            push(s, "hate", owner=owner, province=prov, victims=victims, picked=[])


def _hate_kinds(s: State, q: int, prov: str) -> list[str]:
    kinds = {
        kind_of(s["figures"][fid])
        for fid in figs_at(s, prov, q)
        if matches_type(s["figures"][fid], "bushi") or matches_type(s["figures"][fid], "shinto")
    }
    return sorted(kinds)


def hate_step(s: State, f: Frame, steps: Steps) -> None:
    while f["victims"]:
        q = f["victims"][0]
        kinds = _hate_kinds(s, q, f["province"])
        if len(kinds) > 1:
            prompt(s, f["owner"], "oni_of_hate", kinds, victim=q)
            return
        f["victims"].pop(0)
        if kinds:
            f["picked"].append(_one(s, q, f["province"], kinds[0]))
    pop(s)
    request_kill(s, f["picked"], f["owner"])


def on_oni_of_hate(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    f = s["position"][-1]
    f["victims"].pop(0)
    f["picked"].append(_one(s, p["victim"], f["province"], choice))


def _one(s: State, owner: int, loc: str, kind: str) -> str:
    return sorted(fid for fid in figs_at(s, loc, owner) if kind_of(s["figures"][fid]) == kind)[0]


# ---------------------------------------------------------------- killing


def request_kill(s: State, fids: list[str], killer: int | None) -> None:
    if fids:
        push(s, "kill", figures=list(fids), killer=killer)


def kill_step(s: State, f: Frame, steps: Steps) -> None:
    pop(s)
    fids = [x for x in f["figures"] if on_map(s["figures"][x]) or s["figures"][x]["at"].startswith("shrine:")]
    killer = f["killer"]
    foes = [x for x in fids if s["figures"][x]["owner"] != killer]
    if killer is not None and foes and copies(s, killer, "Mercy"):
        prompt(s, killer, "mercy", ["kill", "spare"], figures=fids)
        return
    do_kill(s, fids, killer)


def on_mercy(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    killer = p["seat"]
    fids = p["figures"]
    if choice == "spare":
        gain_vp(s, killer, 2 * copies(s, killer, "Mercy"))
        fids = [x for x in fids if s["figures"][x]["owner"] == killer]
    do_kill(s, fids, killer)


def do_kill(s: State, fids: list[str], killer: int | None) -> None:
    """Kill now: figures go back to their owner's reserve."""
    fids = [x for x in fids if on_map(s["figures"][x]) or s["figures"][x]["at"].startswith("shrine:")]
    if not fids:
        return
    b = s.get("battle")
    victims: dict[int, int] = {}
    for fid in fids:
        f = s["figures"][fid]
        if b and f["at"] == b["province"]:
            b["killed"] += 1
        f["at"] = "reserve"
        victims[f["owner"]] = victims.get(f["owner"], 0) + 1
    for q in by_honor(s, victims):
        gain_vp(s, q, victims[q] * copies(s, q, "Righteousness"))
    if killer is not None:
        lower = [q for q in victims if q != killer and higher(s, killer, q)]
        gain_vp(s, killer, 3 * len(lower) * copies(s, killer, "Justice"))


# ---------------------------------------------------------- after Summon


def after_summon(s: State, seat: int) -> None:
    """One Summon instance of `seat` happened (at least one figure summoned)."""
    push(s, "after_summon", seat=seat)


AFTER_SUMMON = [
    "Path of the Warlord",
    "Path of the Patron",
    "Path of the Spirit",
    "Path of the Monkey",
    "Path of the Ninja",
    "Path of the Kenin",
]


def after_summon_step(s: State, f: Frame, steps: Steps) -> None:
    """The player's after-Summon cards trigger together: he orders them freely
    (timing.own_order); the optional ones are prompts whose first option declines."""
    pop(s)
    seat = f["seat"]
    own_order(s, seat, "after_summon", [c for c in AFTER_SUMMON for _ in range(copies(s, seat, c))])


def after_summon_card(s: State, seat: int, card: str) -> None:
    effect = _AFTER_SUMMON_EFFECTS.get(card)
    if effect is not None:
        effect(s, seat, [q for q in range(s["player_count"]) if q != seat])


def _warlord(s: State, seat: int, others: list[int]) -> None:
    gain_coins(s, seat, 1)


def _patron(s: State, seat: int, others: list[int]) -> None:
    if sum(1 for q in others if higher(s, seat, q)) >= 2:
        gain_coins(s, seat, 2)


def _spirit(s: State, seat: int, others: list[int]) -> None:
    if s["honor"][0] == seat:
        gain_coins(s, seat, 2)
        gain_vp(s, seat, 2)


def _monkey_card(s: State, seat: int, others: list[int]) -> None:
    if any(s["players"][q]["coins"] for q in others):
        prompt(s, seat, "path_of_the_monkey", ["pass", "take"])


def _ninja_card(s: State, seat: int, others: list[int]) -> None:
    targets = ninja_targets(s, seat)
    if targets:
        prompt(s, seat, "path_of_the_ninja", ["pass"] + targets)


def _kenin_card(s: State, seat: int, others: list[int]) -> None:
    targets = kenin_targets(s, seat)
    if targets:
        prompt(s, seat, "path_of_the_kenin", ["pass"] + targets)


_AFTER_SUMMON_EFFECTS: dict[str, Callable[[State, int, list[int]], None]] = {
    "Path of the Warlord": _warlord,
    "Path of the Patron": _patron,
    "Path of the Spirit": _spirit,
    "Path of the Monkey": _monkey_card,
    "Path of the Ninja": _ninja_card,
    "Path of the Kenin": _kenin_card,
}


def ninja_targets(s: State, seat: int) -> list[str]:
    out = set()
    for f in s["figures"].values():
        if f["type"] == "bushi" and f["owner"] != seat and on_map(f):
            out.add(f"{f['owner']}:{f['at']}")
    return sorted(out)


def kenin_targets(s: State, seat: int) -> list[str]:
    if not any(s["figures"][x]["type"] == "bushi" for x in reserve(s, seat)):
        return []
    return sorted(set(s["players"][seat]["strongholds"]))


def on_path_of_the_monkey(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    seat = p["seat"]
    if choice != "take":
        return
    others = [q for q in range(s["player_count"]) if q != seat]
    richest = max(s["players"][q]["coins"] for q in others)
    if richest <= 0:
        return
    for q in others:
        if s["players"][q]["coins"] == richest:
            s["players"][q]["coins"] -= 1
            s["players"][seat]["coins"] += 1
    lose_honor(s, seat)


def on_path_of_the_ninja(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    if choice == "pass":
        return
    owner, prov = choice.split(":")
    seat = p["seat"]
    cands = sorted(x for x in figs_at(s, prov, int(owner)) if s["figures"][x]["type"] == "bushi")
    if cands:
        # "you may kill 1 Bushi; if you do, lose Honor": the kill (and what it
        # triggers, e.g. Justice) comes first, then the Honor loss
        push(s, "lose_honor", seat=seat)
        request_kill(s, cands[:1], seat)


def lose_honor_step(s: State, f: Frame, steps: Steps) -> None:
    pop(s)
    lose_honor(s, f["seat"])


def on_path_of_the_kenin(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    if choice == "pass":
        return
    place_from_reserve(s, p["seat"], "bushi", choice)


def place_from_reserve(s: State, seat: int, want: str, loc: str) -> bool:
    """Place (not a Summon) one figure of a type from the reserve."""
    cands = sorted(x for x in reserve(s, seat) if matches_type(s["figures"][x], want))
    if not cands:
        return False
    # prefer the plain figure over a Komainu when placing a Shinto
    cands.sort(key=lambda x: s["figures"][x]["type"] != want)
    put(s, cands[0], loc)
    return True


# ------------------------------------------------------ end of a Recruit


def end_of_recruit(s: State) -> None:
    """Path of the Samurai / Path of the Light of every owner trigger together at
    the end of the Recruit Mandate: a timing conflict (timing.simultaneous)."""
    seats = [q for q in range(s["player_count"]) if _samurai_ok(s, q) or _light_opts(s, q)]
    simultaneous(s, "end_of_recruit", seats)


def _samurai_ok(s: State, seat: int) -> bool:
    return bool(copies(s, seat, "Path of the Samurai")) and any(
        s["figures"][x]["type"] == "bushi" for x in reserve(s, seat)
    )


def _light_opts(s: State, seat: int) -> list[str]:
    """Shrine names (places a Shinto, else the Komainu); "Komainu:<shrine>" when
    both a Shinto and the Komainu (which counts as a Shinto) are in reserve."""
    if not copies(s, seat, "Path of the Light"):
        return []
    kinds = {s["figures"][x]["type"] for x in reserve(s, seat) if matches_type(s["figures"][x], "shinto")}
    if not kinds:
        return []
    opts = list(s["shrines"])
    if kinds == {"shinto", "monster"}:
        opts += ["Komainu:" + sh for sh in s["shrines"]]
    return opts


def end_of_recruit_of(s: State, seat: int) -> None:
    # pushed in reverse: the Samurai prompts resolve first (the order of one
    # player's placements cannot change anything)
    for _ in range(copies(s, seat, "Path of the Light")):
        if _light_opts(s, seat):
            prompt(s, seat, "path_of_the_light", ["pass"] + _light_opts(s, seat))
    for _ in range(copies(s, seat, "Path of the Samurai")):
        if _samurai_ok(s, seat):
            prompt(s, seat, "path_of_the_samurai", ["pass"] + list(PROVINCES))


def on_path_of_the_samurai(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    if choice != "pass":
        place_from_reserve(s, p["seat"], "bushi", choice)


def on_path_of_the_light(s: State, p: Frame, choice: Any, steps: Steps) -> None:
    if choice == "pass":
        return
    if choice.startswith("Komainu:"):
        fid = next(x for x in sorted(reserve(s, p["seat"])) if s["figures"][x]["name"] == "Komainu")
        put(s, fid, "shrine:" + choice.split(":", 1)[1])
        return
    place_from_reserve(s, p["seat"], "shinto", "shrine:" + choice)


def movable_kinds(s: State, seat: int, prov: str, moved: list[str]) -> list[str]:
    return sorted({kind_of(s["figures"][x]) for x in figs_at(s, prov, seat) if x not in moved})


def daimyo_like(s: State, fid: str) -> bool:
    return is_daimyo_like(s["figures"][fid])
