"""Pure battle arithmetic (§5, §8): dice pools, face meanings, general modifiers.

Everything here reads the state and returns numbers; battle.py applies them.
Abilities of a general apply only while its unit is the main attacking unit or
the target (A-24, A-30); a location tag looks at the area the unit stands in.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import Rng

from . import data
from .state import State

FACES = ["horse", "ship", "cannon", "cart", "crest", "general"]

# general id -> (land bonus, sea bonus) own dice
OWN_DICE = {
    "kato_kiyomasa": (2, 0),
    "fukushima_masanori": (1, 1),
    "ukita_hideie": (1, 0),
    "tachibana_ginchiyo": (1, 0),
    "shimazu_yoshihiro": (1, 2),
    "kuki_yoshitaka": (0, 1),
    "li_rusong": (2, 0),
    "xing_jie": (1, 1),
    "chen_lin": (0, 1),
    "yi_sunsin": (1, 2),
    "gwak_jaeu": (1, 0),
    "yi_eokgi": (0, 1),
    "seosan": (1, 0),
    "nurhaci": (2, 0),
    "qi_jiguang": (1, 1),
    "sanada_yukimura": (1, 1),
    "zheng_zhilong": (1, 0),
}
# general id -> (land, sea) dice taken from the opposing unit
ENEMY_DICE = {
    "konishi_yukinaga": (1, 0),
    "li_rusong": (1, 0),
    "zu_chengxun": (1, 1),
    "yi_sunsin": (1, 1),
    "yi_eokgi": (0, 1),
    "zheng_zhilong": (0, 2),
}


def where(state: State, uid: str) -> str:
    return "land" if data.is_land(state["units"][uid]["area"]) else "sea"


def gen(state: State, uid: str | None) -> str | None:
    return None if uid is None or uid not in state["units"] else state["units"][uid]["general"]


def own_bonus(state: State, uid: str) -> int:
    g = gen(state, uid)
    if g is None:
        return 0
    loc = where(state, uid)
    if g == "luo_shangzhi" and loc == "land" and state["units"][uid]["troops"] == 1:
        return 2
    land, sea = OWN_DICE.get(g, (0, 0))
    return land if loc == "land" else sea


def reduction(state: State, uid: str, opponent: str) -> int:
    """Dice the general of `uid` takes from the opposing unit `opponent`."""
    g = gen(state, uid)
    if g is None:
        return 0
    loc = where(state, uid)
    if g == "gwon_yul":
        return (2 if gen(state, opponent) else 1) if loc == "land" else 0
    land, sea = ENEMY_DICE.get(g, (0, 0))
    return land if loc == "land" else sea


def pools(state: State, battle: dict[str, Any]) -> tuple[int, int]:
    """(attacker dice, defender dice). Reductions hit only the opposing unit's own
    dice, never support dice (Appendix R #8); 立花宗茂 defending ignores them."""
    main, target = battle["main"], battle["target"]
    if battle["mode"] == "discord":
        return state["units"][main]["troops"], state["units"][target]["troops"]
    supports = len([u for u in battle["supports"] if u in state["units"]])
    att_own = state["units"][main]["troops"] + own_bonus(state, main) - reduction(state, target, main)
    a = max(0, att_own) + supports
    red = 0 if gen(state, target) == "tachibana_muneshige" else reduction(state, main, target)
    d = max(0, state["units"][target]["troops"] + own_bonus(state, target) - red)
    if gen(state, main) == "seosan" and where(state, main) == "land":
        d = 0
    if battle["mode"] == "forced_loss":
        a = 0
    return a, d


def crest_as(state: State, uid: str, attacking: bool) -> str | None:
    """What a 徽 rolled by the side of `uid` means (None: nothing)."""
    g, loc = gen(state, uid), where(state, uid)
    if g == "tachibana_muneshige":
        return "troop"
    if g == "chen_lin" and loc == "sea":
        return "troop"
    if g == "zheng_zhilong":
        if loc == "sea":
            return "troop"
        return "cart" if attacking else None
    if g == "shimazu_yoshihiro":
        return "general"
    if g == "konishi_yukinaga":
        return "heal_troop"
    if g == "kobayakawa_takakage":
        return "heal_hp"
    return None


def read(
    state: State,
    roller: str | None,
    receiver: str,
    faces: list[str],
    btype: str,
    attacking: bool,
    plain: bool = False,
) -> dict[str, Any]:
    """Results of one side's roll against `receiver` (§5.3 steps 6–8)."""
    hit_faces = {"cannon", "horse" if btype == "land" else "ship"}
    crest = None if plain or roller is None else crest_as(state, roller, attacking)
    if crest == "heal_hp" and state["act"].get("kobayakawa") == 2:
        crest = None  # 小早川 chose option 2 (內訌) for this action
    r = {"troop": 0, "cannon": 0, "general": 0, "cart": 0, "heal_troop": 0, "heal_hp": 0}
    for f in faces:
        if f in hit_faces:
            r["troop"] += 1
            r["cannon"] += f == "cannon"
        elif f == "general":
            r["general"] += 1
        elif f == "cart":
            r["cart"] += 0 if plain else 1
        elif f == "crest" and crest is not None:
            r[crest] += 1
    r["symbols"] = r["troop"]  # counted before the defender's filters (福島, A-32)
    if not plain:
        _filters(state, r, receiver, attacking)
        rg = gen(state, roller) if roller else None
        if rg == "qi_jiguang" and attacking:
            r["extra"] = r["cannon"]
    r.setdefault("extra", 0)
    return r


def _filters(state: State, counts: dict[str, Any], receiver: str, attacking: bool) -> None:
    g, loc = gen(state, receiver), where(state, receiver)
    defending = attacking  # the receiver defends when the roller attacks
    if g == "kim_simin" and loc == "land":
        counts["troop"] = counts["cannon"]
    ignore = 0
    if g == "kuroda_nagamasa" and defending:
        ignore = 2
    if g == "luo_shangzhi" and loc == "land":
        ignore = 2 if state["units"][receiver]["troops"] == 1 else 1
    # ignored hits are taken from the non-cannon hits first (interpretation I-9)
    non_cannon = counts["troop"] - counts["cannon"]
    skip_plain = min(ignore, non_cannon)
    counts["cannon"] = max(0, counts["cannon"] - (ignore - skip_plain))
    counts["troop"] = max(0, counts["troop"] - ignore)
    if g == "yi_sunsin":
        counts["general"] = max(0, counts["general"] - 1)


def roll(rng: Rng, count: int) -> list[str]:
    return [FACES[rng.randbelow(6)] for _ in range(count)]
