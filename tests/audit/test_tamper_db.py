"""Tampering with stored rows (raw SQL: the model refuses UPDATE) is caught by
both the audit endpoint and the standalone verifier run on the export.
On PostgreSQL a trigger refuses the UPDATE itself, so these run on SQLite."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from events.codec import chain_hash
from games import verify
from games.rules.base import commitment_of, sha256_hex

from .conftest import audit_of, export

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL refuses UPDATE on events"),
]


def set_payload(game, seq, payload, rehash_from=None):
    with connection.cursor() as c:
        c.execute(
            "UPDATE events_storedevent SET payload = %s WHERE stream = %s AND seq = %s",
            [json.dumps(payload), game.id.hex, seq],
        )
    if rehash_from is not None:
        rehash_db(game)


def rehash_db(game):
    """A forger with database access rebuilds the chain and the game's published head."""
    from events.models import StoredEvent

    prev = "0" * 64
    with connection.cursor() as c:
        for r in StoredEvent.objects.filter(stream=game.id).order_by("seq"):
            h = chain_hash(prev, r.seq, r.type, r.version, r.payload)
            c.execute(
                "UPDATE events_storedevent SET prev_hash = %s, hash = %s WHERE id = %s", [prev, h, r.id]
            )
            prev = h
        c.execute("UPDATE games_game SET chain_head = %s WHERE id = %s", [prev, game.id.hex])


def row(game, type_, n=0):
    from events.models import StoredEvent

    return list(StoredEvent.objects.filter(stream=game.id, type=type_).order_by("seq"))[n]


def both_fail(api, who, game, check=None):
    a = audit_of(api, who, game.id)
    report = verify.verify(export(api, who, game.id))
    assert not a["ok"] and a["problems"], a
    assert not report.ok, verify.format_report(report)
    if check:
        assert check in {p["check"] for p in a["problems"]}
        assert check in {p.check for p in report.problems}
    return a, report


def test_untouched_game_is_clean(api, host, finished_toy):
    a = audit_of(api, host, finished_toy.id)
    assert a["ok"] and a["chain_ok"] and a["reveals_ok"] and a["seed_ok"] and a["replay_ok"]
    assert a["seed"] and sha256_hex(a["seed"]) == a["seed_commitment"]
    assert verify.verify(export(api, host, finished_toy.id)).ok


def test_edited_event_payload(api, host, finished_toy):
    r = row(finished_toy, "toy.PrizeAwarded")
    set_payload(finished_toy, r.seq, {**r.payload, "points": r.payload["points"] + 5})
    a, report = both_fail(api, host, finished_toy, "chain")
    assert a["chain_ok"] is False and a["first_bad_seq"] == r.seq == report.first_bad_seq


def test_edited_random_outcome_with_rebuilt_chain(api, host, finished_toy):
    r = row(finished_toy, "toy.PrizeDrawn", 1)
    set_payload(finished_toy, r.seq, {**r.payload, "prize": r.payload["prize"] % 6 + 1}, rehash_from=r.seq)
    a, _ = both_fail(api, host, finished_toy, "replay")
    assert a["chain_ok"] and a["replay_ok"] is False


def test_edited_salt(api, host, finished_toy):
    r = row(finished_toy, "toy.BidPlaced")
    set_payload(finished_toy, r.seq, {**r.payload, "salt": "00" * 16}, rehash_from=r.seq)
    a, _ = both_fail(api, host, finished_toy, "commitment")
    assert a["reveals_ok"] is False


def test_edited_reveal(api, host, finished_toy):
    r = row(finished_toy, "toy.BidsRevealed")
    p = json.loads(json.dumps(r.payload))
    p["reveals"][0]["salt"] = "ab" * 16
    set_payload(finished_toy, r.seq, p, rehash_from=r.seq)
    both_fail(api, host, finished_toy, "commitment")


def test_edited_commitment(api, host, finished_toy):
    r = row(finished_toy, "core.ChoiceCommitted")
    set_payload(
        finished_toy, r.seq, {**r.payload, "commitment": commitment_of("x", {"amount": 0})}, rehash_from=1
    )
    both_fail(api, host, finished_toy, "commitment")


def test_edited_revealed_seed(api, host, finished_toy):
    r = row(finished_toy, "core.SeedRevealed")
    set_payload(finished_toy, r.seq, {"seed": "1" * 64}, rehash_from=r.seq)
    a, _ = both_fail(api, host, finished_toy, "seed")
    assert a["seed_ok"] is False


def test_edited_seed_column_of_a_running_game(api, host, half_toy):
    with connection.cursor() as c:
        c.execute("UPDATE games_game SET seed = %s WHERE id = %s", ["2" * 64, half_toy.id.hex])
    a = audit_of(api, host, half_toy.id)
    assert not a["ok"] and a["seed_ok"] is False and a["seed"] is None
    assert "2" * 64 not in json.dumps(a)


def test_edited_command_in_cause(api, host, finished_toy):
    r = row(finished_toy, "toy.PrizeAwarded")
    from events.models import StoredEvent

    first = StoredEvent.objects.get(stream=finished_toy.id, seq=r.seq)
    cause = {
        **first.cause,
        "command": {"type": "give", "to": 1 - first.cause["seat"]}
        if first.cause["command"]["type"] == "keep"
        else {"type": "keep"},
    }
    with connection.cursor() as c:
        c.execute("UPDATE events_storedevent SET cause = %s WHERE id = %s", [json.dumps(cause), first.id])
    both_fail(api, host, finished_toy, "replay")


def test_a_rewritten_head_differs_from_the_published_one(api, host, finished_toy):
    r = row(finished_toy, "toy.PrizeAwarded")
    set_payload(finished_toy, r.seq, {**r.payload, "points": 0})
    with connection.cursor() as c:  # rebuild the chain but leave games_game.chain_head as published
        from events.models import StoredEvent

        prev = "0" * 64
        for e in StoredEvent.objects.filter(stream=finished_toy.id).order_by("seq"):
            h = chain_hash(prev, e.seq, e.type, e.version, e.payload)
            c.execute(
                "UPDATE events_storedevent SET prev_hash = %s, hash = %s WHERE id = %s", [prev, h, e.id]
            )
            prev = h
    a = audit_of(api, host, finished_toy.id)
    assert a["chain_ok"] and not a["published_head_ok"] and not a["ok"]


@pytest.mark.parametrize(
    "garbage", [[1, 2], "text", None, {"reveals": "not a list"}, {"reveals": [{"key": 5}]}]
)
def test_garbage_payloads_never_break_the_audit(api, host, finished_toy, garbage):
    for seq in (1, 8, finished_toy.version):
        set_payload(finished_toy, seq, garbage)
        a = audit_of(api, host, finished_toy.id)
        assert a["ok"] is False and a["chain_ok"] is False
        assert not verify.verify(export(api, host, finished_toy.id)).ok
