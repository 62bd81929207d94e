"""Whole random games watched command by command: the seed's season step order (R #13),
no court step in winter and a favour deck that never runs short (R #4), the conservation
rules (armies, officials, tiles; R #20 #21) and the secrecy of the plans (views show a
seat another seat's card only after a public event revealed it)."""

import json
import random

import pytest

from games.rules.base import canonical_json, fold, rng_factory
from games.rules.shogun import data
from games.rules.shogun import state as shogun_state
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import phase_of
from games.rules.testing import pick

SEASON_STEPS = [
    "SeasonBegan",  # action cards, special cards, favour cards
    "CardPlanned",  # secret planning (base board + extension board)
    "EventRevealed",  # the event
    "BidsRevealed",  # player order ...
    "SpecialChosen",  # ... via the special cards
    "CourtConverted",  # court step 1
    "CourtRanked",  # court step 2
    "CourtEnded",
    "SpaceRevealed",  # the 10 actions
    "SeasonEnded",
]


def _invariants(s):
    for x in range(s["n"]):
        pl = s["players"][x]
        assert pl["officials"] + pl["vestibule"] + pl["hall"] == data.OFFICIALS
        assert min(pl["officials"], pl["vestibule"], pl["hall"]) >= 0
        assert 0 <= shogun_state.supply(s, x) <= data.ARMIES
        assert pl["money"] >= 0 and pl["rice"] >= 0
        if phase_of(s) != "favour":
            assert pl["hall"] == 0
    for name, p in s["provinces"].items():
        if p["owner"] is None:  # neutral provinces never hold armies, buildings or markers
            assert p["armies"] == 0 and not shogun_state.buildings(p) and p["markers"] == 0
        else:
            assert p["armies"] >= 1
        assert len(shogun_state.buildings(p)) <= data.PROVINCES[name]["sites"]
    for kind, total in data.SETUP["building_tiles"].items():
        assert s["tiles"][kind] + sum(p[kind] for p in s["provinces"].values()) == total


def _season_segments(types):
    segs, cur = [], None
    for t in types:
        if t == "SeasonBegan":
            cur = []
            segs.append(cur)
        if cur is not None:
            cur.append(t)
        if t == "SeasonEnded":
            cur = None
    return segs


def _fold_checked(state, e, public: set) -> dict:
    """Fold one event, checking the favour display and noting what it reveals."""
    name = e.type.split(".", 1)[1]
    if name == "SeasonBegan":
        public.clear()
        assert len(state["favour_pool"]) >= 3  # R #4: never short, never reshuffled
        favours = e.payload["favours"]
        assert [c for c, _ in favours] == [4, 3, 2]
        assert [f for _, f in favours] == sorted((f for _, f in favours), reverse=True)
    if not e.type.startswith("core."):
        state = RULES.evolve(state, e)
    if e.visible_to is None:
        for r in e.payload.get("reveals") or ():
            public.add((r["seat"], r["key"].rsplit(":", 1)[1]))
    if name == "SpaceRevealed":
        public.add((e.payload["seat"], e.payload["space"]))
    return state


def _check_views(state, n: int, public: set) -> None:
    """No view shows a plan before it is public, nor another seat's plans."""
    for viewer in [None, *range(n)]:
        r = RULES.view(state, viewer)["round"]
        assert set(r["plans"]) <= ({str(viewer)} if viewer is not None else set())
        for x in range(n):
            for space, card in r["revealed"][x].items():
                assert (x, space) in public, (viewer, x, space)
                assert card == shogun_state.plan_card(state, x, space)


def _check_seasons(types: list[str], n: int) -> None:
    segs = _season_segments(types)
    assert len(segs) == 6  # spring, summer, autumn of two years; winter adds no season
    for seg in segs:
        firsts = [seg.index(t) for t in SEASON_STEPS]
        assert firsts == sorted(firsts), firsts
        last = {t: max(i for i, u in enumerate(seg) if u == t) for t in set(seg)}
        assert last["CardPlanned"] < seg.index("EventRevealed")  # planning locked first (R #13)
        assert last["SpecialChosen"] < seg.index("CourtConverted")
        for t in ("FavourTaken", "CourtPassed"):
            if t in last:
                assert last[t] < seg.index("CourtEnded") < seg.index("SpaceRevealed")
        assert seg.count("CourtConverted") == 3 * n  # spaces 3, 2, 1 of every player
    # winter: no favour reveal and no court step (seed: "中间回合(冬季)不变")
    for i, t in enumerate(types):
        if t == "WinterRiceLost":
            nxt = next((j for j in range(i, len(types)) if types[j] == "SeasonBegan"), len(types))
            assert not {"CourtConverted", "FavourTaken", "CourtRanked"} & set(types[i:nxt])


@pytest.mark.parametrize("n,opts,seed", [(3, {}, 11), (5, {"samurai": True}, 12)])
def test_random_game_flow_secrecy_and_invariants(n, opts, seed):
    rnd = random.Random(seed)
    gseed = f"flow-{seed}"
    events = list(RULES.start([None] * n, opts, rng_factory(gseed, 1)))
    state = fold(RULES, events)
    public = set()  # (seat, space) revealed by a public event this season
    while RULES.outcome(state) is None:
        p = rnd.choice(RULES.pending(state))
        cmd = json.loads(canonical_json(dict(pick(RULES.legal_commands(state, p.seat), rnd))))
        new = RULES.decide(state, p.seat, cmd, rng_factory(gseed, len(events) + 1))
        for e in new:
            state = _fold_checked(state, e, public)
        events += new
        _invariants(state)
        if phase_of(state) != "over" and state.get("round"):
            _check_views(state, n, public)
    _check_seasons([e.type.split(".", 1)[1] for e in events], n)
    assert fold(RULES, events) == state
