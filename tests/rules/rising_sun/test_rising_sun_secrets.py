"""Secrets that stay secret (issue 10 item 1, rules version 3): every private
event carries a salt, and an alliance proposal leaves no public trace naming
its proposer or target unless it is accepted (seed 002 p.8: "Las ofertas se
pueden hacer en secreto"; Appendix R 21). Issue 31 (rules version 5): not even
that a proposal was made, nor how many: its commitment is private to the two
players and no public counter moves."""

import re

import pytest

from games.rules.base import COMMITTED, Event, IllegalCommand, canonical_json, commitment_of, fold
from games.rules.rising_sun import events as ev
from games.rules.rising_sun.describe import describe
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
    assert old.rules_version == 2 and RULES.rules_version == 6
    assert (
        RULES.for_rules_version(6) is RULES
        and RULES.for_rules_version(5).rules_version == 5
        and RULES.for_rules_version(4).rules_version == 4
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


def _play(actions, done_first=(), version=4) -> tuple[Game, list]:
    g = Game(FIVE, version=version)
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


V4 = {"version": 4}  # the anonymous public commitment of rules versions 3 and 4


@pytest.mark.parametrize("done_first", [(), (1,), (0, 1)])
@pytest.mark.parametrize("name", [n for n in SCENARIOS if n != "none"])
def test_a_proposal_leaves_no_public_trace_before_the_end(name, done_first):
    """Versions 3 and 4 (the anonymous public commitment stays)."""
    base, _ = _play([], done_first)
    g, snapshots = _play(SCENARIOS[name], done_first)
    calm = (
        list(Game(FIVE, **V4).pending())
        if not done_first
        else [p for p in Game(FIVE, **V4).pending() if p[0] not in done_first]
    )
    for pending, views in snapshots:  # after each step of the proposal
        assert pending == calm  # receiving (or making, declining...) changes no pending seat
        before = Game(FIVE, **V4)
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
    c = Game(FIVE, **V4)
    c.do(2, type="propose_alliance", to=3).do(3, type="decline_alliance", **{"from": 2})
    d = Game(FIVE, **V4)
    d.do(2, type="propose_alliance", to=4).do(2, type="withdraw_alliance", to=4)
    assert [x[0] for x in _public(c)] == [x[0] for x in _public(a)][: len(_public(c))]
    assert _views(c, [0, 1, None]) == _views(d, [0, 1, None]) == _views(Game(FIVE, **V4), [0, 1, None])


BOTH = pytest.mark.parametrize("version", [4, 5])


def _proposer(version: int, seat: int) -> int:
    """The seat of a proposal's commitment and reveals: nobody's while the
    commitment was public (versions 3-4), the proposer's since it is private (5)."""
    return ANONYMOUS if version < 5 else seat


@BOTH
def test_every_secret_tea_batch_starts_with_a_private_event(version):
    """The platform shows a batch's actor and cause on its first event: for a
    proposal, a decline or a withdrawal that event is private to the players."""
    g = Game(FIVE, version=version)
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


@BOTH
def test_a_done_player_is_not_asked_but_may_still_answer(version):
    g = Game(FIVE, version=version)
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
    assert reveal[0]["seat"] == _proposer(version, 0) and reveal[0]["choice"] == {"from": 0, "to": 1}
    commit = next(e for e in g.events if e.type == COMMITTED)
    assert commitment_of(reveal[0]["salt"], reveal[0]["choice"]) == commit.payload["commitment"]


@BOTH
def test_acceptance_reveals_only_the_accepted_proposal(version):
    g = Game(FIVE, version=version)
    g.do(2, type="propose_alliance", to=1).do(0, type="propose_alliance", to=1).do(
        3, type="propose_alliance", to=4
    )
    g.do(1, type="accept_alliance", **{"from": 0})
    reveals = g.shown()[-1].payload["reveals"]
    assert [r["choice"] for r in reveals] == [{"from": 0, "to": 1}]  # 2 -> 1 stays secret
    assert [(p["from"], p["to"]) for p in g.s["closed_proposals"]] == [(2, 1)]
    assert RULES.view(g.s, 2)["proposals"] == [] and RULES.view(g.s, 4)["proposals"] == [{"from": 3, "to": 4}]


@BOTH
def test_an_unanswered_proposal_lapses_when_everybody_is_done(version):
    g = Game(FIVE, version=version)
    g.do(0, type="propose_alliance", to=1)
    for q in range(5):
        g.do(q, type="tea_done")
    assert g.s["phase"] == "politics" and g.s["proposals"] == []
    assert [(p["from"], p["to"]) for p in g.s["closed_proposals"]] == [(0, 1)]
    with pytest.raises(IllegalCommand):
        g.do(1, type="accept_alliance", **{"from": 0})


@BOTH
def test_closed_proposals_are_revealed_when_the_game_ends(version):
    g = Game(FIVE, version=version)
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
        assert r["seat"] == _proposer(version, r["choice"]["from"])
        assert commitment_of(r["salt"], r["choice"]) == commitment
    assert sorted((r["choice"]["from"], r["choice"]["to"]) for k, r in reveals.items() if k in keys) == [
        (0, 1),
        (2, 3),
    ]


# --------------------------------------- issue 31: no trace at all (version 5)

OTHERS = (2, 3, 4, None)  # neither proposer nor target (seats 0 and 1), and a spectator


def _masked(value):
    """A payload with its random nonces masked (salts and commitments come from
    the batch's random stream, which depends on its seq, so they differ between
    two games of different lengths even when nothing else does)."""
    if isinstance(value, dict):
        return {k: "<nonce>" if k in ("salt", "commitment") else _masked(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_masked(v) for v in value]
    return value


class _Table(Game):
    """A game that keeps its batches (the state before each, and its events),
    so each viewer's feed and game log can be rebuilt as the platform builds them."""

    def __init__(self, version: int):
        super().__init__(FIVE, version=version)
        self.batches: list[tuple[dict, list[Event]]] = []

    def do(self, clan, **cmd):
        before, n = self.s, len(self.events)
        super().do(clan, **cmd)
        self.batches.append((before, self.events[n:]))
        return self


def _trace(t: _Table, viewer: int | None) -> list:
    """What `viewer` gets beyond the redacted entries every private event leaves:
    the events it may see (nonces masked) and the game log line of each batch in
    which it sees any."""
    out = []
    for before, events in t.batches:
        seen = [e for e in events if e.visible_to is None or viewer in e.visible_to]
        if seen:
            out.append(([(e.type, _masked(dict(e.payload))) for e in seen], describe(before, seen, "en")))
    return out


def _observed(t: _Table) -> tuple:
    """Pending seats, views of the others and the spectator, and their default commands."""
    return (
        list(t.pending()),
        _views(t, OTHERS),
        [RULES.default_command(t.s, q) for q in range(5)],
    )


def _table(actions, done_first=(), version=5) -> tuple[_Table, list]:
    """The Tea Ceremony with `actions`, everybody done, then the first mandate
    chosen: a public commitment whose key would show a counter moved."""
    t = _Table(version)
    for q in done_first:
        t.do(q, type="tea_done")
    observed = []
    for seat, cmd in actions:
        t.do(seat, **cmd)
        observed.append(_observed(t))
    for q in range(5):
        if q not in done_first:
            t.do(q, type="tea_done")
    assert t.s["phase"] == "politics"
    holder = t.pending()[0][0]
    t.do(holder, **t.legal(holder)[0])
    return t, observed


def _check_no_trace(name, done_first, version):
    base, _ = _table([], done_first, version)
    t, observed = _table(SCENARIOS[name], done_first, version)
    calm = _Table(version)
    for q in done_first:
        calm.do(q, type="tea_done")
    # after each step of the proposal: pending seats, defaults, other views as if nothing happened
    assert observed == [_observed(calm)] * len(observed)
    for viewer in OTHERS:
        # every batch of the proposal is redacted whole for them: no public event,
        # no game log line; and the rest of the game reads exactly as without it
        # (the first mandate's public commitment key included: no counter moved)
        assert _trace(t, viewer) == _trace(base, viewer), viewer
    assert _views(t, OTHERS) == _views(base, OTHERS)
    keys = [e.payload["key"] for e in t.events if e.type == COMMITTED and e.visible_to is None]
    assert keys == [e.payload["key"] for e in base.events if e.type == COMMITTED and e.visible_to is None]
    assert not any(e.type == COMMITTED and "alliance" in e.payload["key"] for e in t.events if e.public)


@pytest.mark.parametrize("done_first", [(), (1,), (0, 1)])
@pytest.mark.parametrize("name", [n for n in SCENARIOS if n != "none"])
def test_others_see_no_trace_of_a_proposal(name, done_first):
    _check_no_trace(name, done_first, 5)


def test_version_4_games_keep_their_public_anonymous_commitment():
    """Games started under version 4 replay as they were played: there the
    proposal's commitment is public (and its key counts), which issue 31 fixed."""
    with pytest.raises(AssertionError):
        _check_no_trace("0 to 1, declined", (), 4)
    t, _ = _table(SCENARIOS["0 to 1, unanswered"], (), 4)
    public = [e for e in t.events if e.type == COMMITTED and e.public]
    assert public[0].payload["key"] == "alliance:0" and public[1].payload["key"] == "mandate:1"


def test_both_players_see_the_commitment_and_can_check_it():
    t, _ = _table(SCENARIOS["0 to 1, unanswered"])
    (made,) = [e for e in t.events if e.type == ev.PROPOSAL_MADE]
    (committed,) = [e for e in t.events if e.type == COMMITTED and e.payload["key"] == made.payload["key"]]
    assert committed.visible_to == (0, 1) and made.visible_to == (0,)
    assert committed.payload["seat"] == 0 and SALT.match(committed.payload["salt"])
    assert committed.payload["salt"] != made.payload["salt"]
    assert commitment_of(made.payload["salt"], made.payload["choice"]) == committed.payload["commitment"]
    # the key is a secret random name, not a count anybody could follow
    assert re.fullmatch(r"alliance:[0-9a-f]{16}", made.payload["key"])
    for seat in (0, 1):
        mine = _trace(t, seat)
        assert any(COMMITTED in [x[0] for x in events] for events, _ in mine)
        assert any("Koi" in line and "Lotus" in line for _, line in mine)  # the log tells them
        assert RULES.view(t.s, seat)["proposals"] == []  # it lapsed with the ceremony


def test_an_accepted_proposal_becomes_public_with_its_commitment_opened():
    t = _Table(5)
    t.do(2, type="propose_alliance", to=3).do(0, type="propose_alliance", to=1)
    t.do(1, type="accept_alliance", **{"from": 0})
    assert t.s["alliances"][:2] == [1, 0] and RULES.view(t.s, None)["alliances"][:2] == [1, 0]
    (reveal,) = t.shown()[-1].payload["reveals"]  # 2 -> 3 stays secret
    assert reveal["seat"] == 0 and reveal["choice"] == {"from": 0, "to": 1}
    (committed,) = [e for e in t.events if e.type == COMMITTED and e.payload["key"] == reveal["key"]]
    assert committed.visible_to == (0, 1)
    assert commitment_of(reveal["salt"], reveal["choice"]) == committed.payload["commitment"]
    assert "allies with" in describe(t.batches[-1][0], [e for e in t.batches[-1][1] if e.public], "en")
