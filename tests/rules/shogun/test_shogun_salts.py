"""Issue 10 item 1 for Shogun: every private event (``visible_to`` set) carries
``payload["salt"]``, 32 lowercase hex characters drawn from the decision's rng, unique in
the game - so its hash in the public feed cannot be brute-forced from a few candidates.

A property test over seeded random games (3-5 players, any option values) plays every
decision as the platform does (rng bound to the seq of the decision's first event) and
checks every private event of the game."""

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import canonical_json, fold, rng_factory
from games.rules.shogun.options import OPTIONS
from games.rules.shogun.rules import RULES
from games.rules.testing import pick, roundtrip

HEX32 = re.compile(r"[0-9a-f]{32}")
# the engine's private event types: a seat's planned card, and (rules version 4) the cubes
# stuck inside the tower, private to no seat
PRIVATE_TYPES = {"shogun.CardPlanned", "shogun.TowerSettled"}

options = st.fixed_dictionaries({}, optional={k: st.sampled_from(o.choices) for k, o in OPTIONS.items()})


def play(players: int, opts: dict, seed: int) -> list[tuple[int, object]]:
    """A random game; returns (seq of the decision's first event, event) for every event."""
    rnd = random.Random(seed)
    game_seed = f"salt-{seed}"
    out = [(1, e) for e in map(roundtrip, RULES.start([None] * players, opts, rng_factory(game_seed, 1)))]
    state = fold(RULES, [e for _, e in out])
    while RULES.outcome(state) is None:
        p = rnd.choice(RULES.pending(state))
        cmd = json.loads(canonical_json(dict(pick(RULES.legal_commands(state, p.seat), rnd))))
        seq = len(out) + 1
        for e in map(roundtrip, RULES.decide(state, p.seat, cmd, rng_factory(game_seed, seq))):
            out.append((seq, e))
            if not e.type.startswith("core."):
                state = RULES.evolve(state, e)
    return out


def check_salts(seed_label: str, events: list) -> int:
    salts = []
    for seq, e in events:
        if e.visible_to is None:
            continue
        assert e.type in PRIVATE_TYPES, f"unexpected private event {e.type}"
        salt = e.payload.get("salt")
        assert isinstance(salt, str) and HEX32.fullmatch(salt), f"{e.type} at {seq}: salt {salt!r}"
        # drawn from the decision's rng (base.commit: purpose "salt:<key>")
        assert salt == rng_factory(seed_label, seq)(f"salt:{e.payload['key']}").salt()
        salts.append(salt)
    assert len(set(salts)) == len(salts), "a salt repeats within the game"
    return len(salts)


@settings(max_examples=6, deadline=None, derandomize=True)
@given(players=st.integers(3, 5), opts=options, seed=st.integers(0, 10**6))
def test_every_private_event_is_salted_from_the_decision_rng(players, opts, seed):
    events = play(players, opts, seed)
    n = check_salts(f"salt-{seed}", events)
    planned = sum(1 for _, e in events if e.type == "shogun.CardPlanned")
    settled = [e for _, e in events if e.type == "shogun.TowerSettled"]
    assert n == planned + len(settled) and planned > 0  # every season's plan is private, and each is salted
    assert settled and all(e.visible_to == () for e in settled)  # the seeding at least; seen by nobody


def test_an_unsalted_or_repeated_salt_fails_the_check():
    events = play(3, {"setup": "beginner"}, 7)
    private = [(seq, e) for seq, e in events if e.visible_to is not None]
    seq, e = private[0]
    bad = type(e)(e.type, {**e.payload, "salt": "ABC"}, e.version, e.visible_to)
    for broken in ([(seq, bad)], [private[0], private[0]]):
        try:
            check_salts("salt-7", broken)
        except AssertionError:
            continue
        raise AssertionError("the check accepted a bad salt")
