"""manage.py import_game: verifies chain, commitments and replay before
accepting; rejects forged files with a clear message and a non-zero exit."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from events.models import StoredEvent
from games.models import Game
from games.rules.base import commitment_of
from games.services import audit

from . import driver
from .conftest import rehash
from .test_verifier import FIXTURES, rows_of

pytestmark = pytest.mark.django_db
GOOD = FIXTURES / "toy-auction-2p-a.jsonl"


def write(tmp_path, rows, name="game.jsonl"):
    path = tmp_path / name
    driver.write_jsonl(rows, path)
    return str(path)


def run(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command("import_game", *args, stdout=out)
    return out.getvalue()


def test_import_a_recorded_game(tmp_path):
    rows = rows_of(GOOD)
    out = run(str(GOOD))
    game = Game.objects.get()
    assert f"imported game {game.id}" in out
    assert game.status == "finished" and game.version == len(rows) and game.chain_head == rows[-1]["hash"]
    assert game.outcome == rows[-2]["payload"]["outcome"]
    assert list(StoredEvent.objects.filter(stream=game.id).values_list("hash", flat=True)) == [
        r["hash"] for r in rows
    ]
    users = [s.user for s in game.seats.order_by("index")]
    assert [u.username for u in users] == ["imported-hana", "imported-kenji"]
    assert not any(u.is_active or u.has_usable_password() for u in users)
    result = audit.audit(game)
    assert result["ok"] and result["seed"] == rows[-1]["payload"]["seed"]
    # The imported game exports exactly what was imported (content and hashes).
    again = driver.full_export(game)
    assert [(r["type"], r["payload"], r["hash"]) for r in again] == [
        (r["type"], r["payload"], r["hash"]) for r in rows
    ]


def test_import_maps_users_and_refuses_a_second_copy(tmp_path):
    alice = get_user_model().objects.create(username="alice")
    run(str(GOOD), "--map", "hana=alice", "--name", "rematch")
    game = Game.objects.get()
    assert game.name == "rematch" and game.creator == alice and game.seats.get(index=0).user == alice
    with pytest.raises(CommandError, match="already here"):
        run(str(GOOD))
    with pytest.raises(CommandError, match="no user 'nobody'"):
        run(str(FIXTURES / "toy-auction-3p-b.jsonl"), "--map", "hana=nobody")


def test_import_takeback_and_aborted_games():
    run(str(FIXTURES / "toy-auction-2p-takeback.jsonl"))
    run(str(FIXTURES / "toy-auction-2p-aborted.jsonl"))
    assert sorted(Game.objects.values_list("status", flat=True)) == ["aborted", "finished"]
    for g in Game.objects.all():
        assert audit.audit(g)["ok"]


def forge_bid(rows):
    """Change a bid consistently (choice, commitment, reveal) and rebuild the chain."""
    private = next(r for r in rows if r["type"] == "toy.BidPlaced")
    key, salt = private["payload"]["key"], private["payload"]["salt"]
    fake = {"amount": private["payload"]["choice"]["amount"] + 1}
    private["payload"]["choice"] = fake
    for r in rows:
        if r["type"] == "core.ChoiceCommitted" and r["payload"]["key"] == key:
            r["payload"]["commitment"] = commitment_of(salt, fake)
        for item in r["payload"].get("reveals", []):
            if item["key"] == key:
                item["choice"] = fake
    return rehash(rows)


FORGERIES = {
    "edited payload": (lambda rows: rows[3]["payload"].update(round=2) or rows, "chain"),
    "rebuilt chain, new prize": (
        lambda rows: rehash(
            [
                *rows[:2],
                {**rows[2], "payload": {**rows[2]["payload"], "prize": rows[2]["payload"]["prize"] % 6 + 1}},
                *rows[3:],
            ]
        ),
        "setup",
    ),
    "consistent bid lie": (forge_bid, "replay"),
    "wrong seed": (lambda rows: rehash(rows[:-1] + [{**rows[-1], "payload": {"seed": "0" * 64}}]), "seed"),
    "redacted": (
        lambda rows: [*rows[:3], {k: rows[3][k] for k in ("seq", "type", "prev_hash", "hash")}, *rows[4:]],
        "redacted",
    ),
    "running game": (lambda rows: rows[:10], "seed is not revealed"),
}


@pytest.mark.parametrize("name", list(FORGERIES))
def test_forged_files_are_rejected(tmp_path, name):
    forge, why = FORGERIES[name]
    path = write(tmp_path, forge(rows_of(GOOD)))
    with pytest.raises(CommandError) as exc:
        run(path)
    assert "rejected" in str(exc.value) and why in str(exc.value)
    assert not Game.objects.exists() and not StoredEvent.objects.exists()


def test_unreadable_files_are_rejected_with_a_non_zero_exit(tmp_path, capsys):
    from django.core.management import execute_from_command_line

    bad = tmp_path / "bad.jsonl"
    bad.write_text("this is not json\n")
    with pytest.raises(SystemExit) as exc:
        execute_from_command_line(["manage.py", "import_game", str(bad)])
    assert exc.value.code != 0
    assert "line 1 is not JSON" in capsys.readouterr().err
    forged = write(tmp_path, FORGERIES["consistent bid lie"][0](rows_of(GOOD)), "forged.jsonl")
    with pytest.raises(SystemExit) as exc:
        execute_from_command_line(["manage.py", "import_game", forged])
    assert exc.value.code != 0
    assert "does not verify" in capsys.readouterr().err
    assert json.loads(json.dumps(rows_of(GOOD)))  # the good file is untouched


def test_import_the_largest_recorded_game():
    path = max(FIXTURES.glob("*.jsonl"), key=lambda p: p.stat().st_size)
    run(str(path))
    game = Game.objects.get()
    assert game.version == len(rows_of(path)) and audit.audit(game)["ok"]
