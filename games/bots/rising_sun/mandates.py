"""Which mandate the `heuristic` bot plays as the mandate holder, which Season
card it buys, and its Tea Ceremony. Every mandate is priced in expected VP
for the seat (board.Table: the wars it would win, the harvest it would take),
minus a little for what the same mandate gives every rival (Recruit, Train)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.rising_sun.data import BOARD, CARDS, LAND, PROVINCES, SEA
from games.rules.rising_sun.state import best_by, pay_cost

from .alliances import welcome
from .board import Table, standing
from .cards import card_value

Command = dict[str, Any]
COIN = 0.4  # a coin before the wars: a share of a bid or of a card
RIVAL_SUMMON = 0.25  # what one rival's summon costs the seat (a Recruit is everyone's)
RIVAL_CARD = 0.4  # what a rival's card costs the seat (a Train is everyone's)
# the Marshal bonus by season: a Stronghold (when its price is there), one more
# summon at every Recruit of the seasons left
BUILD = (4.0, 3.0, 1.5)
BETRAY_HONOR = 1.5  # betraying an ally: the alliance and 1 Honor


def _reserve(view: Mapping[str, Any], seat: int) -> int:
    return sum(1 for f in view["figures"].values() if f["owner"] == seat and f["at"] == "reserve")


def recruit_value(t: Table) -> float:
    """The seat's summons (one per Stronghold + the bonus), each where it helps
    most (or, at half its worth, where a later move could take it)."""
    strong = t.view["players"][t.seat]["strongholds"]
    places = PROVINCES if t.view["clans"][t.seat] == "Dragonfly" else sorted(set(strong))
    n = min(len(strong) + 1, _reserve(t.view, t.seat))
    total = 0.0
    for _ in range(n):
        gain, prov = max((t.gain(p, 1), p) for p in places)
        later = max(t.gain(p, 1) for p in PROVINCES) / 2
        total += max(gain, later) + t.on_map()
        t.move(prov, 1)
    rivals = sum(len(p["strongholds"]) for q, p in enumerate(t.view["players"]) if q != t.seat)
    result: float = total - RIVAL_SUMMON * rivals / max(1, t.n - 1)
    return result


def _reach(t: Table, frm: str) -> list[str]:
    if t.view["clans"][t.seat] == "Dragonfly":
        return [p for p in PROVINCES if p != frm]
    return sorted(LAND[frm] | SEA[frm])


def marshal_value(t: Table) -> float:
    """A greedy Marshal: each figure's best single move, best first."""
    mine = [
        (fid, f["at"])
        for fid, f in sorted(t.view["figures"].items())
        if f["owner"] == t.seat and f["at"] in PROVINCES
    ]
    total = 0.0
    for fid, frm in mine:
        options = [
            (t.gain(to, t.figure_force(fid, to)) + t.gain(frm, -t.figure_force(fid, frm)), to)
            for to in _reach(t, frm)
        ]
        gain, to = max(options, default=(0.0, frm))
        if gain > 0.05:
            total += gain
            t.move(frm, -t.figure_force(fid, frm))
            t.move(to, t.figure_force(fid, to))
    p = t.view["players"][t.seat]
    if p["coins"] >= pay_cost(t.s, t.seat, 3) and len(p["strongholds"]) < 4:
        total += BUILD[min(int(t.view["season"]), 2)]
    return total


def harvest_value(t: Table) -> float:
    total = COIN
    for prov in PROVINCES:
        # Force is fractional after a plan's moves; best_by (typed for the engine's ints) only compares it
        scores = {q: t.force[prov][q] for q in range(t.n)}
        if best_by(t.s, scores, minimum=1) == t.seat:  # type: ignore[arg-type]
            r = BOARD["provinces"][prov]["reward"]
            total += r.get("vp", 0) + COIN * r.get("coins", 0) + 0.3 * r.get("ronin", 0)
    return total


def train_value(t: Table) -> float:
    coins = t.view["players"][t.seat]["coins"]
    best = max(
        (
            _card_worth(t, c, 1)
            for c in set(t.view["display"])
            if pay_cost(t.s, t.seat, CARDS[c]["cost"], 1) <= coins
        ),
        default=0.0,
    )
    return max(0.0, best) - RIVAL_CARD


def betray_value(t: Table) -> float:
    """Two replacements (different owners): a rival's figure becomes one of ours."""
    if not any(
        f["owner"] == t.seat and f["at"] == "reserve" and f["type"] != "daimyo"
        for f in t.view["figures"].values()
    ):
        return 0.0
    gains: dict[int, float] = {}
    for f in t.view["figures"].values():
        if f["owner"] == t.seat or f["at"] not in PROVINCES or f["type"] == "daimyo" or f["name"] == "Yurei":
            continue
        g = t.gain(f["at"], 1, {f["owner"]: -int(CARDS.get(f["name"], {}).get("force", 1))})
        gains[f["owner"]] = max(gains.get(f["owner"], 0.0), g)
    total = sum(sorted(gains.values(), reverse=True)[:2])
    return total - (BETRAY_HONOR if t.ally is not None else 0.0)


VALUES = {
    "recruit": recruit_value,
    "marshal": marshal_value,
    "harvest": harvest_value,
    "train": train_value,
    "betray": betray_value,
}


def choose(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    """The drawn tile (Lotus: the declared mandate) worth most."""
    worth: dict[str, float] = {}

    def value(c: Command) -> float:
        m = str(c.get("declare", c["tile"]))
        if m not in worth:
            worth[m] = VALUES[m](Table(view, seat))
        return worth[m]

    return max(cmds, key=value) if cmds else None


def _card_worth(t: Table, card: str, discount: int) -> float:
    result: float = card_value(t.view, t.seat, card) - COIN * pay_cost(
        t.s, t.seat, CARDS[card]["cost"], discount
    )
    return result


def train(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    t = Table(view, seat)
    discount = 1 if _train_bonus(view, seat) else 0
    buys = [(_card_worth(t, c["card"], discount), c) for c in cmds if c["type"] == "buy"]
    best = max(buys, key=lambda x: x[0], default=None)
    if best is None or best[0] <= 0.2:
        return next((c for c in cmds if c["type"] == "done"), None)
    return best[1]


def _train_bonus(view: Mapping[str, Any], seat: int) -> bool:
    """The seat buys with the -1 of a Train bonus: it (or its ally) chose it."""
    track = view.get("track") or []
    if not track or track[-1]["mandate"] != "train":
        return False
    chooser = track[-1]["seat"]
    result: bool = chooser == seat or view["alliances"][chooser] == seat
    return result


def tea(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    """Seek an ally (its mandates then give us their bonus too) among the
    rivals but the leader: accept the weakest proposer, else propose to every
    such rival, weakest first, then done."""
    rivals = {q: standing(view, q) for q in range(len(view["clans"])) if q != seat}
    leader = max(rivals.values())
    # accepting: the same rule as a bot's answer outside its turn (alliances.py)
    accept = [c for c in cmds if c["type"] == "accept_alliance" and welcome(view, seat, c["from"])]
    offers = accept or [c for c in cmds if c["type"] == "propose_alliance" and rivals[c["to"]] < leader]
    if offers:
        return min(offers, key=lambda c: rivals[c["from"] if "from" in c else c["to"]])
    return next((c for c in cmds if c["type"] in ("tea_done", "decline_alliance")), None)
