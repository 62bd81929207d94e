"""Rising Sun determinizations. Secret for a seat (see the engine's view.py):
the mandate deck order (the drawer sees the top 4), Lotus's face-down tiles,
other seats' unrevealed war bids, proposals it is not part of, and salts."""

from __future__ import annotations

import pickle
import random
from typing import Any

from games.rules.rising_sun.state import ADVANTAGES

from ..worlds import BLANK_SALT, reshuffled


def sample(state: Any, seat: int, rng: random.Random) -> Any:
    s = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    if "player_count" not in s or s["result"] is not None:
        return s
    f = s["position"][-1] if s["position"] else None
    keep = 4 if f is not None and f["kind"] == "choose_mandate" and f.get("seat") == seat else 0
    seen, deck = s["mandate_deck"][:keep], s["mandate_deck"][keep:]
    # hidden tiles: the unseen deck and the face-down tiles of other seats
    hidden_slots = [t for t in s["track"] if t["face_down"] and t["seat"] != seat]
    hidden_slots += [t for t in s.get("lotus_tiles", []) if t["seat"] != seat]
    pool = reshuffled(deck + [t["tile"] for t in hidden_slots], rng)
    for t in hidden_slots:
        t["tile"] = pool.pop()
    s["mandate_deck"] = seen + pool
    s["secret_draws"] = [reshuffled(d, rng) for d in s["secret_draws"]]
    for t in s["track"] + s.get("lotus_tiles", []):
        if t["seat"] != seat:
            t["salt"] = BLANK_SALT
    s["proposals"] = [_blank(p) for p in s["proposals"] if seat in (p["from"], p["to"])]
    if "closed_proposals" in s:
        s["closed_proposals"] = [_blank(p) for p in s["closed_proposals"] if seat in (p["from"], p["to"])]
    b = s.get("battle")
    if b and not b["revealed"]:
        for q in sorted(b["bids"]):
            if q != str(seat):
                coins = s["players"][int(q)]["coins"]
                b["bids"][q] = {**_random_bid(coins, rng), "key": b["bids"][q]["key"], "salt": BLANK_SALT}
    return s


def _blank(p: dict[str, Any]) -> dict[str, Any]:
    return {**p, "salt": BLANK_SALT}


def _random_bid(coins: int, rng: random.Random) -> dict[str, int]:
    """A plausible bid: up to half the coins left on each advantage, in a random order."""
    bid: dict[str, int] = dict.fromkeys(ADVANTAGES, 0)
    left = coins
    for a in sorted(ADVANTAGES, key=lambda _: rng.random()):
        bid[a] = rng.randint(0, left // 2)
        left -= bid[a]
    return bid
