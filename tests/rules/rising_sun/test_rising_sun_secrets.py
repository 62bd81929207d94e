"""Secrets that stay secret (issue 10 item 1, rules version 3): every private
event carries a salt, and an alliance proposal leaves no public trace naming
its proposer or target unless it is accepted (seed 002 p.8: "Las ofertas se
pueden hacer en secreto"; Appendix R 21)."""

import re

import pytest

from games.rules.base import COMMITTED, Event, IllegalCommand, canonical_json, commitment_of, fold
from games.rules.rising_sun import events as ev
from games.rules.rising_sun.rules import ANONYMOUS, RULES
from games.rules.testing import play_random_game
from tests.rules.rising_sun.testkit import Game

SALT = re.compile(r"^[0-9a-f]{32}$")
FIVE = ["Koi", "Lotus", "Turtle", "Dragonfly", "Bonsai"]  # seats 0..4


# ------------------------------------------------------------------ salts

GAMES = [
    (3, {}, 1),
    (4, {"season_set": "horseman"}, 2),
    (5, {"season_set": "teapot", "shrines": "first_game"}, 3),
    (3, {"season_set": "random", "shrines": "random"}, 4),
    (4, {"season_set": "archway"}, 5),
    (5, {"season_set": "random"}, 6),
    (3, {"season_set": "teapot"}, 7),
    (5, {"season_set": "horseman"}, 8),
]


@pytest.fixture(scope="module")
def random_games():
    return [
        play_random_game(RULES, [None] * n, opts, seed=5000 + k, check_every=10000, check_views=False)
        for n, opts, k in GAMES
    ]


def test_every_private_event_carries_a_unique_128_bit_salt(random_games):
    seen_types = set()
    for out in random_games:
        salts = []
        for e in out.events:
            if e.visible_to is None:
                continue
            seen_types.add(e.type)
            salt = e.payload.get("salt")
            assert isinstance(salt, str) and SALT.match(salt), (e.type, e.payload)
            salts.append(salt)
        assert len(salts) == len(set(salts)), "a salt is used twice in one game"
    # the property was exercised on every kind of private event random play makes
    assert {
        ev.HIDDEN_CHANGED,
        ev.TILES_SEEN,
        ev.MANDATE_CHOSEN,
        ev.BID_PLACED,
        ev.PROPOSAL_MADE,
        ev.PROPOSAL_RECEIVED,
        ev.PROPOSAL_DECLINED,
        ev.PROPOSAL_WITHDRAWN,
    } <= seen_types


def test_salts_do_not_change_the_state(random_games):
    """evolve ignores the new salts (a commitment's salt is part of the choice
    kept for its reveal): folding the events without them gives the same state."""
    new = {
        ev.MANDATES_SHUFFLED,
        ev.TILES_SEEN,
        ev.PROPOSAL_RECEIVED,
        ev.PROPOSAL_DECLINED,
        ev.PROPOSAL_WITHDRAWN,
        ev.HIDDEN_CHANGED,
    }
    for out in random_games[:3]:
        bare = [
            Event(
                e.type,
                {k: v for k, v in e.payload.items() if k != "salt" or e.type not in new},
                e.version,
                e.visible_to,
            )
            for e in out.events
        ]
        assert fold(RULES, bare) == out.state


def test_version_2_games_keep_their_unsalted_events():
    old = RULES.for_rules_version(2)
    assert old.rules_version == 2 and RULES.rules_version == 4
    assert (
        RULES.for_rules_version(4) is RULES
        and RULES.for_rules_version(3).rules_version == 3
        and old.for_rules_version(2) is old
    )
    out = play_random_game(old, [None] * 3, {}, seed=77, check_every=10000, check_views=False)
    shuffles = [e for e in out.events if e.type == ev.MANDATES_SHUFFLED]
    assert shuffles and all("salt" not in e.payload for e in shuffles)
    assert not any(e.type in (ev.PROPOSAL_DECLINED, ev.PROPOSAL_WITHDRAWN) for e in out.events)


# ------------------------------------------------------- alliance traces


def _public(g: Game, start: int = 0) -> list:
    """The events as another seat sees them: public ones whole (the random
    commitment value masked), private ones as their type only."""
    out = []
    for e in g.events[start:]:
        if e.visible_to is not None:
            out.append(("redacted", e.type))
        elif e.type == COMMITTED:
            out.append((e.type, {**e.payload, "commitment": "<nonce>"}))
        else:
            out.append((e.type, canonical_json(dict(e.payload))))
    return out


def _without_proposals(public: list) -> list:
    """Drop the anonymous commitments and the redacted rows: what is left must
    not depend on whether (or between whom) proposals were made."""
    return [x for x in public if x[0] not in ("redacted", COMMITTED)]


def _views(g: Game, seats) -> dict:
    return {q: canonical_json(RULES.view(g.s, q)) for q in seats}


SCENARIOS = {
    "none": [],
    "0 to 1, declined": [
        (0, {"type": "propose_alliance", "to": 1}),
        (1, {"type": "decline_alliance", "from": 0}),
    ],
    "0 to 1, withdrawn": [
        (0, {"type": "propose_alliance", "to": 1}),
        (0, {"type": "withdraw_alliance", "to": 1}),
    ],
    "1 to 0, declined": [
        (1, {"type": "propose_alliance", "to": 0}),
        (0, {"type": "decline_alliance", "from": 1}),
    ],
    "0 to 1, unanswered": [(0, {"type": "propose_alliance", "to": 1})],
}


def _play(actions, done_first=()) -> tuple[Game, list]:
    g = Game(FIVE)
    for q in done_first:
        g.do(q, type="tea_done")
    snapshots = []
    for seat, cmd in actions:
        g.do(seat, **cmd)
        snapshots.append((list(g.pending()), _views(g, [2, 3, 4, None])))
    for q in range(5):
        if q not in done_first:
            g.do(q, type="tea_done")
    return g, snapshots


@pytest.mark.parametrize("done_first", [(), (1,), (0, 1)])
@pytest.mark.parametrize("name", [n for n in SCENARIOS if n != "none"])
def test_a_proposal_leaves_no_public_trace_before_the_end(name, done_first):
    base, _ = _play([], done_first)
    g, snapshots = _play(SCENARIOS[name], done_first)
    calm = (
        list(Game(FIVE).pending())
        if not done_first
        else [p for p in Game(FIVE).pending() if p[0] not in done_first]
    )
    for pending, views in snapshots:  # after each step of the proposal
        assert pending == calm  # receiving (or making, declining...) changes no pending seat
        before = Game(FIVE)
        for q in done_first:
            before.do(q, type="tea_done")
        assert views == _views(before, [2, 3, 4, None])
    # after the ceremony: the same public state for everybody but the two players…
    assert g.s["phase"] == base.s["phase"] == "politics"
    assert _views(g, [2, 3, 4, None]) == _views(base, [2, 3, 4, None])
    # …and the same public events, but for the anonymous commitment
    assert _without_proposals(_public(g)) == _without_proposals(_public(base))
    for e in g.events:
        if e.type == COMMITTED and e.payload["key"].startswith("alliance"):
            assert e.payload["seat"] == ANONYMOUS and set(e.payload) == {"seat", "key", "commitment"}
        if e.visible_to is None and e.type != COMMITTED:
            assert "reveals" not in e.payload  # nothing revealed before the game ends


def test_who_proposed_to_whom_gives_the_same_public_stream():
    a, _ = _play(SCENARIOS["0 to 1, declined"])
    b, _ = _play(SCENARIOS["1 to 0, declined"])
    assert _public(a) == _public(b)
    c = Game(FIVE)
    c.do(2, type="propose_alliance", to=3).do(3, type="decline_alliance", **{"from": 2})
    d = Game(FIVE)
    d.do(2, type="propose_alliance", to=4).do(2, type="withdraw_alliance", to=4)
    assert [x[0] for x in _public(c)] == [x[0] for x in _public(a)][: len(_public(c))]
    assert _views(c, [0, 1, None]) == _views(d, [0, 1, None]) == _views(Game(FIVE), [0, 1, None])


def test_every_secret_tea_batch_starts_with_a_private_event():
    """The platform shows a batch's actor and cause on its first event: for a
    proposal, a decline or a withdrawal that event is private to the players."""
    g = Game(FIVE)
    for seat, cmd in [
        (0, {"type": "propose_alliance", "to": 1}),
        (1, {"type": "decline_alliance", "from": 0}),
        (2, {"type": "propose_alliance", "to": 3}),
        (2, {"type": "withdraw_alliance", "to": 3}),
    ]:
        n = len(g.events)
        g.do(seat, **cmd)
        first = g.events[n]
        assert first.visible_to is not None and seat in first.visible_to
    declined = [e for e in g.events if e.type == ev.PROPOSAL_DECLINED]
    withdrawn = [e for e in g.events if e.type == ev.PROPOSAL_WITHDRAWN]
    assert declined[0].visible_to == (0, 1) and withdrawn[0].visible_to == (2, 3)
    assert RULES.view(g.s, 0)["proposals"] == RULES.view(g.s, 1)["proposals"] == []


def test_a_done_player_is_not_asked_but_may_still_answer():
    g = Game(FIVE)
    g.do(1, type="tea_done")
    g.do(0, type="propose_alliance", to=1)
    assert (1, "tea_ceremony") not in g.pending() and RULES.default_command(g.s, 1) is None
    assert {"type": "accept_alliance", "from": 0} in g.legal(1)
    assert RULES.view(g.s, 1)["proposals"] == [{"from": 0, "to": 1}]
    g.do(0, type="tea_done")
    assert (0, "tea_ceremony") not in g.pending()  # proposing did not make the proposer active again
    g.do(1, type="accept_alliance", **{"from": 0})
    assert g.s["alliances"][:2] == [1, 0]
    reveal = g.shown()[-1].payload["reveals"]
    assert reveal[0]["seat"] == ANONYMOUS and reveal[0]["choice"] == {"from": 0, "to": 1}
    commit = next(e for e in g.events if e.type == COMMITTED)
    assert commitment_of(reveal[0]["salt"], reveal[0]["choice"]) == commit.payload["commitment"]


def test_acceptance_reveals_only_the_accepted_proposal():
    g = Game(FIVE)
    g.do(2, type="propose_alliance", to=1).do(0, type="propose_alliance", to=1).do(
        3, type="propose_alliance", to=4
    )
    g.do(1, type="accept_alliance", **{"from": 0})
    reveals = g.shown()[-1].payload["reveals"]
    assert [r["choice"] for r in reveals] == [{"from": 0, "to": 1}]  # 2 -> 1 stays secret
    assert [(p["from"], p["to"]) for p in g.s["closed_proposals"]] == [(2, 1)]
    assert RULES.view(g.s, 2)["proposals"] == [] and RULES.view(g.s, 4)["proposals"] == [{"from": 3, "to": 4}]


def test_an_unanswered_proposal_lapses_when_everybody_is_done():
    g = Game(FIVE)
    g.do(0, type="propose_alliance", to=1)
    for q in range(5):
        g.do(q, type="tea_done")
    assert g.s["phase"] == "politics" and g.s["proposals"] == []
    assert [(p["from"], p["to"]) for p in g.s["closed_proposals"]] == [(0, 1)]
    with pytest.raises(IllegalCommand):
        g.do(1, type="accept_alliance", **{"from": 0})


def test_closed_proposals_are_revealed_when_the_game_ends():
    g = Game(FIVE)
    g.do(0, type="propose_alliance", to=1).do(1, type="decline_alliance", **{"from": 0})
    g.do(2, type="propose_alliance", to=3)
    for q in range(5):
        g.do(q, type="tea_done")
    keys = {e.payload["key"]: e.payload["commitment"] for e in g.events if e.type == COMMITTED}
    assert len(keys) == 2
    # straight to the last battle of autumn: its bids end the game
    g.s["season"] = 2
    g.clear().put(0, "bushi", "Edo").put(1, "bushi", "Edo").war_phase(["Edo"])
    before = len(g.events)
    g.bid(0).bid(1)
    assert RULES.outcome(g.s) is not None
    reveals = {
        r["key"]: r for e in g.events[before:] if e.visible_to is None for r in e.payload.get("reveals", ())
    }
    for key, commitment in keys.items():
        r = reveals[key]
        assert r["seat"] == ANONYMOUS and commitment_of(r["salt"], r["choice"]) == commitment
    assert sorted((r["choice"]["from"], r["choice"]["to"]) for k, r in reveals.items() if k in keys) == [
        (0, 1),
        (2, 3),
    ]
