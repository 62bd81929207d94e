"""What the seat's view says about this season's wars: Force per clan and
province (the engine's own Force rules, `fig_force`, read on a table rebuilt
from the view, so no secret is ever read; `force_map` equals the engine's
`force` everywhere), the provinces still to be fought, what winning each
one is worth, and how a change of Force moves the seat's expected war VP.

The rule-based decisions (plan.py, bids.py, mandates.py) all price their
options with `Table.gain`: expected VP of the wars still to come."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from games.rules.rising_sun.data import BOARD, PROVINCES, SEASONS, set_bonus
from games.rules.rising_sun.state import State, fig_force, turtle_strongholds

SEASON_VP = (1, 2, 3)
LAST_SEASON = 2
NEW_PROVINCE = 4.0  # a token of a province not yet held: the set bonus (10 VP per 2-3 new ones)
# chance to take a province by Force margin (mine - best rival, +-0.5 for the
# Honor tie-break): random rivals still move, bid Hostage and hire Ronin
WIN_BY_MARGIN = ((-2.0, 0.05), (-1.0, 0.15), (-0.5, 0.3), (0.5, 0.7), (1.0, 0.8), (2.0, 0.92), (3.0, 0.97))
ALONE = 0.98  # nobody else there (yet)
FIGURE_LATER = (1.0, 0.7, 0.3)  # a figure on the map, by season: the wars after this one, harvests
DENY = 0.5  # share of the leading rival's token counted when the seat takes it from him
HARVEST_WEIGHT = 0.15  # a province's harvest reward is won only when a Harvest is ours


def table_of(view: Mapping[str, Any]) -> dict[str, Any]:
    """A state-shaped dict with only what the view shows (what `force` reads)."""
    b = view.get("battle")
    battle = None
    if b:
        battle = {
            "province": b["province"],
            "participants": b["participants"],
            "hired_ronin": b["hired_ronin"],
        }
    return {
        "phase": view["phase"],
        "player_count": len(view["clans"]),
        "clans": view["clans"],
        "honor": view["honor"],
        "players": view["players"],
        "figures": view["figures"],
        "battle": battle,
    }


def remaining_wars(view: Mapping[str, Any]) -> list[str]:
    """This season's war provinces not yet fought (the one being fought included)."""
    wars = list(view["war_provinces"])
    if view["phase"] != "war" or "war_step" not in view:
        return wars
    step = view["war_step"]
    if view.get("battle"):
        step -= 1  # the war frame counts the province being fought as done
    return wars[step:]


def standing(view: Mapping[str, Any], q: int) -> float:
    """VP plus what the seat's war tokens would score in Winter."""
    p = view["players"][q]
    tokens = sum(SEASON_VP[SEASONS.index(t[1])] for t in p["war_tokens"])
    return float(p["vp"] + tokens + set_bonus(len({t[0] for t in p["war_tokens"]})))


def new_province_worth(held: int, season: int) -> float:
    """What a token of a province not yet held adds to the set bonus. In the
    last season, exactly: the next threshold's 10 VP shared by the new
    provinces still needed to reach it; before, an average."""
    if season < LAST_SEASON:
        return NEW_PROVINCE
    for need in (1, 2, 3):
        jump = set_bonus(held + need) - set_bonus(held)
        if jump > 0:
            return jump / need
    return 0.0


def win_chance(mine: float, best_rival: float, rivals: int) -> float:
    if mine <= 0:
        return 0.0
    if rivals == 0:
        return ALONE
    margin = mine - best_rival
    out = WIN_BY_MARGIN[0][1]
    for edge, p in WIN_BY_MARGIN:
        if margin >= edge:
            out = p
    return out


def force_map(s: Mapping[str, Any]) -> dict[str, list[float]]:
    """`force(s, q, p)` for every clan and province, in one pass over the figures."""
    n = s["player_count"]
    out: dict[str, list[float]] = {p: [0] * n for p in PROVINCES}
    for f in s["figures"].values():
        if f["at"] in out:
            out[f["at"]][f["owner"]] += fig_force(s, f, f["at"])  # type: ignore[arg-type]
    for q in range(n):
        for p in set(s["players"][q]["strongholds"]):
            out[p][q] += turtle_strongholds(s, q, p)  # type: ignore[arg-type]
    b = s.get("battle")
    if b:
        for q, r in b["hired_ronin"].items():
            out[b["province"]][int(q)] += r
    return out


class Table:
    """Force map of one view, and what a change of it is worth to `seat`."""

    def __init__(self, view: Mapping[str, Any], seat: int):
        self.view = view
        self.seat = seat
        # state-shaped (table_of): the engine's helpers read only the keys it fills
        self.s = cast(State, table_of(view))
        self.n = self.s["player_count"]
        self.force = force_map(self.s)
        self.wars = remaining_wars(view)
        season = min(view["season"], 2)
        held = {t[0] for t in view["players"][seat]["war_tokens"]}
        new = new_province_worth(len(held), season)
        self.worth = {
            p: SEASON_VP[season] + (new if p not in held else 0.0) if p in self.wars else 0.0
            for p in PROVINCES
        }
        self.ally = view["alliances"][seat]
        rivals = {q: standing(view, q) for q in range(self.n) if q not in (seat, self.ally)}
        self.leader = max(rivals, key=lambda q: rivals[q]) if rivals else None
        lead = (
            {t[0] for t in view["players"][self.leader]["war_tokens"]} if self.leader is not None else set()
        )
        self.leader_worth = {
            p: SEASON_VP[season] + (NEW_PROVINCE if p not in lead else 0.0) if p in self.wars else 0.0
            for p in PROVINCES
        }

    def on_map(self) -> float:
        """What one more figure on the map is worth beyond this season's wars."""
        return FIGURE_LATER[min(int(self.view["season"]), 2)]

    def rank(self, q: int) -> int:
        return int(self.s["honor"].index(q))

    def duel(
        self, prov: str, mine: float | None = None, rival_delta: Mapping[int, float] | None = None
    ) -> tuple[float, int | None]:
        """Chance that the seat takes `prov` with `mine` Force (default: now),
        and the rival it has to beat there (None: nobody)."""
        f = self.force[prov]
        me = f[self.seat] if mine is None else mine
        rivals = [
            (f[q] + (rival_delta or {}).get(q, 0), q)
            for q in range(self.n)
            if q != self.seat  # an ally too: allies fight for the token (the winner spares its ally)
        ]
        rivals = [(v, q) for v, q in rivals if v > 0]
        if not rivals:
            return win_chance(me, 0, 0), None
        best, who = max(rivals, key=lambda x: (x[0], -self.rank(x[1])))
        tie = 0.5 if self.rank(self.seat) < self.rank(who) else -0.5
        return win_chance(me, best + (0 if me != best else -tie), len(rivals)), who

    def chance(
        self, prov: str, mine: float | None = None, rival_delta: Mapping[int, float] | None = None
    ) -> float:
        return self.duel(prov, mine, rival_delta)[0]

    def value(
        self, prov: str, mine: float | None = None, rival_delta: Mapping[int, float] | None = None
    ) -> float:
        """Expected VP of the province for the seat: its war (if still to come),
        the token it keeps from the leading rival when that rival is the one
        to beat, and a little of its harvest reward."""
        p, who = self.duel(prov, mine, rival_delta)
        reward = BOARD["provinces"][prov]["reward"]
        harvest = reward.get("vp", 0) + 0.4 * reward.get("coins", 0) + 0.3 * reward.get("ronin", 0)
        deny = DENY * self.leader_worth[prov] if who is not None and who == self.leader else 0.0
        result: float = p * (self.worth[prov] + deny + HARVEST_WEIGHT * harvest)
        return result

    def gain(self, prov: str, delta: float, rival_delta: Mapping[int, float] | None = None) -> float:
        """How much the seat's expected VP in `prov` moves when its Force there
        changes by `delta` (and the rivals' by `rival_delta`)."""
        if prov not in self.force:
            return 0.0
        mine = self.force[prov][self.seat]
        return self.value(prov, mine + delta, rival_delta) - self.value(prov, mine)

    def move(self, prov: str, delta: float) -> None:
        """Record a change of the seat's Force (a greedy plan of several steps)."""
        self.force[prov][self.seat] += delta

    def figure_force(self, fid: str, prov: str) -> int:
        return fig_force(self.s, self.s["figures"][fid], prov)

    def kind_force(self, kind: str, prov: str, where: str = "reserve") -> int:
        """Force in `prov` of the seat's figure of `kind` now at `where`."""
        if kind == "stronghold":
            return 1 if turtle_strongholds(self.s, self.seat, where) else 0
        for fid, f in sorted(self.s["figures"].items()):
            if f["owner"] == self.seat and f["at"] == where and _kind(f) == kind:
                return self.figure_force(fid, prov)
        return 1


def _kind(f: Mapping[str, Any]) -> str:
    return str(f["name"] if f["type"] == "monster" else f["type"])
