"""Season setup, War Phase (start-of-war upgrades, Koi, province by province),
season cleanup and Winter scoring. Battles themselves are in battle.py."""

from __future__ import annotations

from .data import CARDS, CLANS, PROVINCES, SEASONS, season_deck, set_bonus
from .frames import Steps, pop, push
from .named import AlliancesEnded, CoinsGained, FigureMoved, SeasonCardsDealt, WarTokenWon, emit
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
    gain_ronin,
    gain_vp,
    give_coins,
    higher,
    lose_vp,
    owned_monsters,
    pay_coins,
    pay_ronin,
    present,
)
from .timing import own_order, simultaneous

VIRTUES = [n for n, c in CARDS.items() if c["type"] == "virtue"]


def distinct_virtues(state: State, seat: int) -> int:
    return len({c for c in state["players"][seat]["cards"] if c in VIRTUES})


# -------------------------------------------------------------- season setup


def season_start_step(state: State, frame: Frame, steps: Steps) -> None:
    pop(state)
    season = SEASONS[state["season"]]
    state["phase"] = "setup"
    state["war_provinces"] = steps.shuffled(state, "war-tokens", list(PROVINCES))[: state["player_count"] + 2]
    emit(state, SeasonCardsDealt(cards=season_deck(season, state["season_set"])))
    for seat, player in enumerate(state["players"]):
        pay_coins(state, seat, player["coins"], "season start")
    for seat in range(state["player_count"]):
        income = CLANS[clan(state, seat)]["income"]
        if income:
            emit(state, CoinsGained(seat=seat, coins=income, reason="income"))
    return_hostages(state)
    emit(state, AlliancesEnded(season=season))
    state["proposals"] = []
    state["phase"] = "tea"
    push(state, "political", step=0)
    push(state, "tea", done=[])


def return_hostages(state: State) -> None:
    back: dict[int, int] = {}
    for fid, f in state["figures"].items():
        if f["at"].startswith("hostage:"):
            captor = int(f["at"].split(":")[1])
            back[captor] = back.get(captor, 0) + 1
            emit(
                state,
                FigureMoved(figure=fid, source=f["at"], destination="reserve", reason="hostage returned"),
            )
    # one simultaneous step: +1 coin per hostage to each captor (no order)
    gain_coins_together(state, back, "hostage returned")


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


def war_start_step(state: State, frame: Frame, steps: Steps) -> None:
    state["phase"] = "war"
    if not frame.get("upgrades"):
        # War Upgrades of several players trigger at the same moment: timing
        # conflict (Honor order fixed now, the highest-Honor owner goes first or
        # last; each owner orders his own cards) (rulebook "Otras reglas", R 3, 20a)
        frame["upgrades"] = True
        owners = [q for q in range(state["player_count"]) if any(copies(state, q, c) for c in START_OF_WAR)]
        simultaneous(state, "war_upgrade", owners)
        return
    pop(state)
    # then Koi converts all its Ronin, including those just gained (R 20b)
    for seat in range(state["player_count"]):
        if clan(state, seat) == "Koi" and state["players"][seat]["ronin"]:
            n = state["players"][seat]["ronin"]
            pay_ronin(state, seat, n, "Koi")
            gain_coins(state, seat, n, "Koi")
    push(state, "war", step=0)


def war_upgrades_of(state: State, seat: int) -> None:
    own_order(state, seat, "war_upgrade", [c for c in START_OF_WAR for _ in range(copies(state, seat, c))])


def resolve_war_upgrade(state: State, seat: int, card: str) -> None:
    if card == "Way of the Shogun":
        gain_coins(state, seat, 3, card)
    elif card == "Way of the Moneylender":
        gain_coins(state, seat, 5, card)
    elif card == "Way of the Ronin":
        gain_ronin(state, seat, 2, card)
    elif card == "Way of Bushido":
        k = distinct_virtues(state, seat)
        gain_coins(state, seat, 2 * k, card)
        gain_vp(state, seat, 2 * k, card)
    elif card == "Way of the Righteous":
        for q in range(state["player_count"]):
            if q != seat and higher(state, seat, q) and state["players"][q]["coins"] > 0:
                give_coins(state, q, seat, 1, card)


def award(state: State, seat: int, prov: str, souls: list[int]) -> None:
    """`seat` takes the War Province token of `prov`."""
    emit(state, WarTokenWon(seat=seat, province=prov, season=SEASONS[state["season"]]))
    gain_vp(state, seat, 2 * copies(state, seat, "Courage"), "Courage")
    if seat in souls:
        gain_vp(state, seat, 2 * owned_monsters(state, seat, oni_only=True), "Oni of Souls")


def souls_present(state: State, prov: str) -> list[int]:
    return sorted(
        {f["owner"] for f in state["figures"].values() if f["name"] == "Oni of Souls" and f["at"] == prov}
    )


def war_step(state: State, frame: Frame, steps: Steps) -> None:
    if frame["step"] >= len(state["war_provinces"]):
        pop(state)
        push(state, "cleanup")
        return
    prov = state["war_provinces"][frame["step"]]
    frame["step"] += 1
    parts = present(state, prov)
    if not parts:
        return
    allied_pair = len(parts) == 2 and state["alliances"][parts[0]] == parts[1]
    if len(parts) == 1 or allied_pair:
        # no battle takes place: Oni of Souls (which pays for a battle won where
        # it took part) does not trigger; Courage does (it pays per token)
        winner = best_by(state, {q: force(state, q, prov) for q in parts}, minimum=0)
        assert winner is not None  # parts is not empty
        award(state, winner, prov, [])
        return
    state["battle"] = {
        "province": prov,
        "participants": parts,
        "bids": {},
        "revealed": False,
        "hired_ronin": {},
        "killed": 0,
        "souls": souls_present(state, prov),
        "winner": None,
    }
    push(state, "battle", step=0)
    push(state, "bidding")


# ------------------------------------------------------------------ cleanup


def cleanup_step(state: State, frame: Frame, steps: Steps) -> None:
    pop(state)
    for seat, player in enumerate(state["players"]):
        pay_coins(state, seat, player["coins"], "season end")
        pay_ronin(state, seat, player["ronin"], "season end")
    for fid, fig in state["figures"].items():
        if fig["at"].startswith("shrine:"):
            emit(state, FigureMoved(figure=fid, source=fig["at"], destination="reserve", reason="season end"))
    emit(state, SeasonCardsDealt(cards=[]))
    tiles = state["mandate_deck"] + [t["tile"] for t in state["track"]]
    state["mandate_deck"] = steps.shuffled(state, "mandates", tiles, hidden=True)
    state["lotus_tiles"] = state.get("lotus_tiles", []) + [t for t in state["track"] if t["face_down"]]
    state["track"] = []
    state["season"] += 1
    state["phase"] = "setup"
    push(state, "winter" if state["season"] >= len(SEASONS) else "season_start")


# ------------------------------------------------------------------- winter


def winter_vp(state: State, seat: int) -> dict[str, int]:
    p = state["players"][seat]
    parts = {
        "Form of the Kitsune": 3 * len(p["strongholds"]) * copies(state, seat, "Form of the Kitsune"),
        "Form of the Phoenix": 3 * distinct_virtues(state, seat) * copies(state, seat, "Form of the Phoenix"),
        "Form of the Demon": 3 * owned_monsters(state, seat, True) * copies(state, seat, "Form of the Demon"),
        "Form of the Beast": 3 * owned_monsters(state, seat) * copies(state, seat, "Form of the Beast"),
        "Form of the Kindred": 3
        * len(set(p["alliance_seasons"]))
        * copies(state, seat, "Form of the Kindred"),
        "tokens": sum({"spring": 1, "summer": 2, "autumn": 3}[t[1]] for t in p["war_tokens"]),
        "set_bonus": set_bonus(len({t[0] for t in p["war_tokens"]})),
    }
    return parts


def winter_step(state: State, frame: Frame, steps: Steps) -> None:
    pop(state)
    state["phase"] = "winter"
    return_hostages(state)
    scored: dict[str, dict[str, int]] = {}
    state["winter"] = scored
    for seat in by_honor(state, range(state["player_count"])):
        parts = winter_vp(state, seat)
        scored[str(seat)] = parts
        gain_vp(state, seat, sum(parts.values()), "winter")
    state["result"] = final_result(state)
    state["phase"] = "over"


def final_result(state: State) -> Result:
    vps = {q: state["players"][q]["vp"] for q in range(state["player_count"])}
    best = max(vps.values())
    tied = by_honor(state, [q for q in vps if vps[q] == best])
    winners = [tied[0]]
    ally = state["alliances"][tied[0]]
    if ally is not None and ally in tied:
        winners.append(ally)
    return {"winners": sorted(winners), "scores": {str(q): v for q, v in vps.items()}}


__all__ = ["lose_vp", "award"]
