"""Season setup, War Phase (start-of-war upgrades, Koi, province by province),
season cleanup and Winter scoring. Battles themselves are in battle.py."""

from __future__ import annotations

from .data import CARDS, CLANS, PROVINCES, SEASONS, season_deck, set_bonus
from .frames import Steps, pop, push
from .state import (
    Frame,
    Result,
    State,
    best_by,
    by_honor,
    clan,
    copies,
    force,
    gain_coins,
    gain_coins_together,
    gain_vp,
    higher,
    lose_vp,
    owned_monsters,
    present,
)
from .timing import own_order, simultaneous

VIRTUES = [n for n, c in CARDS.items() if c["type"] == "virtue"]


def distinct_virtues(s: State, seat: int) -> int:
    return len({c for c in s["players"][seat]["cards"] if c in VIRTUES})


# -------------------------------------------------------------- season setup


def season_start_step(s: State, f: Frame, steps: Steps) -> None:
    pop(s)
    season = SEASONS[s["season"]]
    s["phase"] = "setup"
    s["war_provinces"] = steps.shuffled(s, "war-tokens", list(PROVINCES))[: s["player_count"] + 2]
    s["display"] = season_deck(season, s["season_set"])
    for p in s["players"]:
        p["coins"] = 0
    for seat in range(s["player_count"]):
        s["players"][seat]["coins"] = CLANS[clan(s, seat)]["income"]
    return_hostages(s)
    s["alliances"] = [None] * s["player_count"]
    s["proposals"] = []
    s["phase"] = "tea"
    push(s, "political", step=0)
    push(s, "tea", done=[])


def return_hostages(s: State) -> None:
    back: dict[int, int] = {}
    for f in s["figures"].values():
        if f["at"].startswith("hostage:"):
            captor = int(f["at"].split(":")[1])
            back[captor] = back.get(captor, 0) + 1
            f["at"] = "reserve"
    # one simultaneous step: +1 coin per hostage to each captor (no order)
    gain_coins_together(s, back)


# ---------------------------------------------------------------- war phase

WAR_UPGRADES = [n for n, c in CARDS.items() if c["type"] == "war_upgrade"]
# the War Upgrades that do something at the start of the War Phase (Way of the
# Katana is a passive Force modifier, see state.fig_force)
START_OF_WAR = [
    "Way of the Shogun",
    "Way of the Moneylender",
    "Way of the Ronin",
    "Way of Bushido",
    "Way of the Righteous",
]


def war_start_step(s: State, f: Frame, steps: Steps) -> None:
    s["phase"] = "war"
    if not f.get("upgrades"):
        # War Upgrades of several players trigger at the same moment: timing
        # conflict (Honor order fixed now, the highest-Honor owner goes first or
        # last; each owner orders his own cards) (rulebook "Otras reglas", R 3, 20a)
        f["upgrades"] = True
        owners = [q for q in range(s["player_count"]) if any(copies(s, q, c) for c in START_OF_WAR)]
        simultaneous(s, "war_upgrade", owners)
        return
    pop(s)
    # then Koi converts all its Ronin, including those just gained (R 20b)
    for seat in range(s["player_count"]):
        if clan(s, seat) == "Koi" and s["players"][seat]["ronin"]:
            n = s["players"][seat]["ronin"]
            s["players"][seat]["ronin"] = 0
            gain_coins(s, seat, n)
    push(s, "war", step=0)


def war_upgrades_of(s: State, seat: int) -> None:
    own_order(s, seat, "war_upgrade", [c for c in START_OF_WAR for _ in range(copies(s, seat, c))])


def resolve_war_upgrade(s: State, seat: int, card: str) -> None:
    p = s["players"][seat]
    if card == "Way of the Shogun":
        gain_coins(s, seat, 3)
    elif card == "Way of the Moneylender":
        gain_coins(s, seat, 5)
    elif card == "Way of the Ronin":
        p["ronin"] += 2
    elif card == "Way of Bushido":
        k = distinct_virtues(s, seat)
        gain_coins(s, seat, 2 * k)
        gain_vp(s, seat, 2 * k)
    elif card == "Way of the Righteous":
        for q in range(s["player_count"]):
            if q != seat and higher(s, seat, q) and s["players"][q]["coins"] > 0:
                s["players"][q]["coins"] -= 1
                p["coins"] += 1


def award(s: State, seat: int, prov: str, souls: list[int]) -> None:
    """`seat` takes the War Province token of `prov`."""
    s["players"][seat]["war_tokens"].append([prov, SEASONS[s["season"]]])
    gain_vp(s, seat, 2 * copies(s, seat, "Courage"))
    if seat in souls:
        gain_vp(s, seat, 2 * owned_monsters(s, seat, oni_only=True))


def souls_present(s: State, prov: str) -> list[int]:
    return sorted(
        {f["owner"] for f in s["figures"].values() if f["name"] == "Oni of Souls" and f["at"] == prov}
    )


def war_step(s: State, f: Frame, steps: Steps) -> None:
    if f["step"] >= len(s["war_provinces"]):
        pop(s)
        push(s, "cleanup")
        return
    prov = s["war_provinces"][f["step"]]
    f["step"] += 1
    parts = present(s, prov)
    if not parts:
        return
    allied_pair = len(parts) == 2 and s["alliances"][parts[0]] == parts[1]
    if len(parts) == 1 or allied_pair:
        # no battle takes place: Oni of Souls (which pays for a battle won where
        # it took part) does not trigger; Courage does (it pays per token)
        winner = best_by(s, {q: force(s, q, prov) for q in parts}, minimum=0)
        assert winner is not None  # parts is not empty
        award(s, winner, prov, [])
        return
    s["battle"] = {
        "province": prov,
        "participants": parts,
        "bids": {},
        "revealed": False,
        "hired_ronin": {},
        "killed": 0,
        "souls": souls_present(s, prov),
        "winner": None,
    }
    push(s, "battle", step=0)
    push(s, "bidding")


# ------------------------------------------------------------------ cleanup


def cleanup_step(s: State, f: Frame, steps: Steps) -> None:
    pop(s)
    for p in s["players"]:
        p["coins"] = 0
        p["ronin"] = 0
    for fig in s["figures"].values():
        if fig["at"].startswith("shrine:"):
            fig["at"] = "reserve"
    s["display"] = []
    tiles = s["mandate_deck"] + [t["tile"] for t in s["track"]]
    s["mandate_deck"] = steps.shuffled(s, "mandates", tiles, hidden=True)
    s["lotus_tiles"] = s.get("lotus_tiles", []) + [t for t in s["track"] if t["face_down"]]
    s["track"] = []
    s["season"] += 1
    s["phase"] = "setup"
    push(s, "winter" if s["season"] >= len(SEASONS) else "season_start")


# ------------------------------------------------------------------- winter


def winter_vp(s: State, seat: int) -> dict[str, int]:
    p = s["players"][seat]
    parts = {
        "Form of the Kitsune": 3 * len(p["strongholds"]) * copies(s, seat, "Form of the Kitsune"),
        "Form of the Phoenix": 3 * distinct_virtues(s, seat) * copies(s, seat, "Form of the Phoenix"),
        "Form of the Demon": 3 * owned_monsters(s, seat, True) * copies(s, seat, "Form of the Demon"),
        "Form of the Beast": 3 * owned_monsters(s, seat) * copies(s, seat, "Form of the Beast"),
        "Form of the Kindred": 3 * len(set(p["alliance_seasons"])) * copies(s, seat, "Form of the Kindred"),
        "tokens": sum({"spring": 1, "summer": 2, "autumn": 3}[t[1]] for t in p["war_tokens"]),
        "set_bonus": set_bonus(len({t[0] for t in p["war_tokens"]})),
    }
    return parts


def winter_step(s: State, f: Frame, steps: Steps) -> None:
    pop(s)
    s["phase"] = "winter"
    return_hostages(s)
    scored: dict[str, dict[str, int]] = {}
    s["winter"] = scored
    for seat in by_honor(s, range(s["player_count"])):
        parts = winter_vp(s, seat)
        scored[str(seat)] = parts
        gain_vp(s, seat, sum(parts.values()))
    s["result"] = final_result(s)
    s["phase"] = "over"


def final_result(s: State) -> Result:
    vps = {q: s["players"][q]["vp"] for q in range(s["player_count"])}
    best = max(vps.values())
    tied = by_honor(s, [q for q in vps if vps[q] == best])
    winners = [tied[0]]
    ally = s["alliances"][tied[0]]
    if ally is not None and ally in tied:
        winners.append(ally)
    return {"winners": sorted(winners), "scores": {str(q): v for q, v in vps.items()}}


__all__ = ["lose_vp", "award"]
