"""The standalone verifier on recorded games: every forgery is caught, without
Django (these tests need no database)."""

from __future__ import annotations

import copy
import glob
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games import verify
from games.rules.base import commitment_of

from .conftest import TOY, rehash

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "games"
TOY_GAME = FIXTURES / "toy-auction-2p-a.jsonl"


def rows_of(path=TOY_GAME) -> list[dict]:
    return verify.load_jsonl(str(path))


def problems(rows) -> list[str]:
    return [p.check for p in verify.verify(rows).problems]


@pytest.mark.parametrize("path", sorted(glob.glob(str(FIXTURES / "*.jsonl"))), ids=os.path.basename)
def test_every_recorded_game_verifies(path):
    report = verify.verify(verify.load_jsonl(path))
    assert report.ok, verify.format_report(report)
    assert report.chain_ok and report.seed_ok and report.reveals_ok and report.replayed
    assert report.batches > 0


def test_the_report_names_every_check():
    text = verify.format_report(verify.verify(rows_of()))
    for word in ("chain", "seed", "commitments", "replay", "VERIFIED"):
        assert word in text


def test_an_edited_payload_breaks_the_chain():
    rows = rows_of()
    prize = next(r for r in rows if r["type"] == "toy.PrizeDrawn")
    prize["payload"]["prize"] = 7 - prize["payload"]["prize"]
    report = verify.verify(rows)
    assert not report.chain_ok and report.first_bad_seq == prize["seq"]


def test_a_rehashed_random_outcome_is_caught_by_rederiving_it():
    rows = rows_of()
    prize = [r for r in rows if r["type"] == "toy.PrizeDrawn"][1]
    prize["payload"]["prize"] = prize["payload"]["prize"] % 6 + 1
    report = verify.verify(rehash(rows))
    assert report.chain_ok and not report.ok
    assert [p.check for p in report.problems] == ["replay"] and report.problems[0].seq == prize["seq"]


def test_a_rehashed_setup_draw_is_caught():
    rows = rows_of()
    rows[2]["payload"]["prize"] = rows[2]["payload"]["prize"] % 6 + 1
    report = verify.verify(rehash(rows))
    assert "setup" in report.problems[0].detail


def test_an_edited_salt_breaks_the_commitment():
    rows = rows_of()
    private = next(r for r in rows if r["type"] == "toy.BidPlaced")
    private["payload"]["salt"] = "0" * 32
    assert "commitment" in problems(rehash(rows))


def test_a_changed_revealed_bid_is_caught():
    rows = rows_of()
    reveal = next(r for r in rows if r["type"] == "toy.BidsRevealed")
    reveal["payload"]["reveals"][0]["choice"]["amount"] += 1
    report = verify.verify(rehash(rows))
    assert not report.reveals_ok and "commitment" in [p.check for p in report.problems]


def test_a_consistent_lie_about_a_bid_still_fails_the_replay():
    """Forge bid, salt, commitment and reveal together: the recorded command disagrees."""
    rows = rows_of()
    private = next(r for r in rows if r["type"] == "toy.BidPlaced")
    key, salt = private["payload"]["key"], private["payload"]["salt"]
    fake = {"amount": private["payload"]["choice"]["amount"] + 1}
    private["payload"]["choice"] = fake
    for r in rows:
        p = r["payload"]
        if r["type"] == "core.ChoiceCommitted" and p["key"] == key:
            p["commitment"] = commitment_of(salt, fake)
        for item in p.get("reveals", []):
            if item["key"] == key:
                item["choice"] = fake
    report = verify.verify(rehash(rows))
    assert report.reveals_ok and not report.ok and report.problems[0].check == "replay"


def test_a_swapped_seed_fails_against_its_commitment():
    rows = rows_of()
    rows[-1]["payload"]["seed"] = "f" * 64
    report = verify.verify(rehash(rows))
    assert report.seed_ok is False and "seed" in [p.check for p in report.problems]


def test_a_new_seed_with_a_new_commitment_fails_the_replay():
    from games.rules.base import sha256_hex

    rows = rows_of()
    rows[-1]["payload"]["seed"] = "f" * 64
    rows[0]["payload"]["seed_commitment"] = sha256_hex("f" * 64)
    report = verify.verify(rehash(rows))
    assert report.seed_ok and report.problems and report.problems[0].check == "replay"


def test_a_forged_command_fails_the_replay():
    rows = rows_of()
    award = next(r for r in rows if (r.get("cause") or {}).get("command", {}).get("type") in ("keep", "give"))
    award["cause"]["command"] = (
        {"type": "give", "to": 1 - award["cause"]["seat"]}
        if award["cause"]["command"]["type"] == "keep"
        else {"type": "keep"}
    )
    assert problems(rows) == ["replay"]


@pytest.mark.parametrize("edit", ["drop", "swap", "extra"])
def test_missing_reordered_or_invented_events_are_caught(edit):
    rows = rows_of()
    if edit == "drop":
        del rows[5]
    elif edit == "swap":
        rows[5], rows[6] = rows[6], rows[5]
    else:
        rows.insert(5, copy.deepcopy(rows[4]))
    for i, r in enumerate(rows, 1):
        r["seq"] = i
    assert not verify.verify(rehash(rows)).ok


def test_events_after_the_seed_is_revealed_are_refused():
    rows = rows_of()
    extra = copy.deepcopy(rows[-2])
    extra["seq"] = len(rows) + 1
    rows.append(extra)
    assert "seed" in problems(rehash(rows))


def test_a_takeback_game_replays_and_a_forged_takeback_is_caught():
    rows = rows_of(FIXTURES / "toy-auction-2p-takeback.jsonl")
    assert verify.verify(rows).ok
    accepted = next(r for r in rows if r["type"] == "core.TakebackAccepted")
    accepted["payload"]["undo_from_seq"] -= 1
    assert "replay" in problems(rehash(rows))


def test_a_running_games_redacted_export_checks_links_only():
    rows = rows_of()[:8]
    for i in (3, 5):  # the two private bids, as the other seat's export shows them
        assert rows[i]["type"] == "toy.BidPlaced"
        rows[i] = {k: rows[i][k] for k in ("seq", "type", "prev_hash", "hash")} | {"redacted": True}
    report = verify.verify(rows)
    assert report.ok and report.replayed is None and report.seed is None
    assert any("redacted" in n for n in report.notes)


# -- the command line, in a fresh interpreter ------------------------------------------------


def run_cli(*args, env_extra=None):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "games.verify", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_imports_no_django():
    others = [str(p) for p in sorted(FIXTURES.glob("*.jsonl")) if "toy-auction" not in p.name][:1]
    code = (
        "import sys; from games import verify; "
        f"rc = verify.main([{str(TOY_GAME)!r}, '--ruleset-module', {TOY!r}]); "
        f"rc = rc or sum(verify.main([p]) for p in {others!r}); "
        "assert 'django' not in sys.modules, 'django imported'; "
        "assert not any(m.startswith(('rest_framework', 'celery')) for m in sys.modules); sys.exit(rc)"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "VERIFIED" in r.stdout


def test_cli_exit_codes(tmp_path):
    ok = run_cli(str(TOY_GAME), "--ruleset-module", TOY, "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["ok"] is True
    rows = rows_of()
    rows[3]["payload"]["round"] = 9
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(r) + "\n" for r in rows))
    bad = run_cli(str(forged), "--ruleset-module", TOY)
    assert bad.returncode == 1 and "NOT VERIFIED" in bad.stdout and "[chain] seq 4" in bad.stdout
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("{not json\n")
    assert run_cli(str(garbage)).returncode == 2
    unknown = run_cli(str(TOY_GAME))  # the toy ruleset is not registered without the option
    assert unknown.returncode == 2 and "toy-auction" in unknown.stderr


# -- the salt rule (issue 10 item 1): a private event's hash is public ---------------------


def _private_bids(rows):
    return [r for r in rows if r["type"] == "toy.BidPlaced"]


def _salt_problems(rows) -> list[verify.Problem]:
    report = verify.verify(rehash(rows), deep=False)
    assert report.salts_ok is not any(p.check == "salt" for p in report.problems)
    return [p for p in report.problems if p.check == "salt"]


def test_an_unsalted_private_event_is_a_problem():
    rows = rows_of()
    bid = _private_bids(rows)[0]
    del bid["payload"]["salt"]
    found = _salt_problems(rows)
    assert [(p.seq, p.detail) for p in found] == [(bid["seq"], "a private event without payload.salt")]
    assert "salts        FAILED" in verify.format_report(verify.verify(rows))


@pytest.mark.parametrize("salt", ["0" * 31, "A" * 32, "g" * 32, 7, None])
def test_a_malformed_salt_is_a_problem(salt):
    rows = rows_of()
    bid = _private_bids(rows)[0]
    bid["payload"]["salt"] = salt
    assert [p.seq for p in _salt_problems(rows)] == [bid["seq"]]


def test_a_salt_reused_within_the_game_is_a_problem():
    rows = rows_of()
    first, later = _private_bids(rows)[0], _private_bids(rows)[-1]
    later["payload"]["salt"] = first["payload"]["salt"]
    found = _salt_problems(rows)
    assert [p.seq for p in found] == [later["seq"]] and f"seq {first['seq']}" in found[0].detail
    assert first["payload"]["salt"] not in found[0].detail  # problems name seqs, never salts


def test_a_private_platform_event_salt_must_rederive_from_the_seed():
    rows = rows_of()
    ended = next(i for i, r in enumerate(rows) if r["type"] == "core.GameFinished")
    seed = rows[-1]["payload"]["seed"]
    for salt, ok in ((verify.platform_salt(seed, ended + 1), True), ("ab" * 16, False)):
        forged = copy.deepcopy(rows)
        forged.insert(
            ended,
            {
                "seq": ended + 1,
                "type": "core.MessageSent",
                "version": 1,
                "visible_to": [0, 1],
                "payload": {"from": 0, "to": [1], "text": "yes", "salt": salt},
            },
        )
        for i, r in enumerate(forged, 1):
            r["seq"] = i
        assert (not _salt_problems(forged)) is ok


def test_private_events_of_every_fixture_are_salted_where_the_engine_salts_them():
    """Toy and Shogun salt every private event (Rising Sun and Imjin fixtures are
    re-recorded with their engines' salts: test_every_recorded_game_verifies)."""
    for path in sorted(glob.glob(str(FIXTURES / "*.jsonl"))):
        if "toy-auction" in path or "shogun" in path:
            assert verify.verify(rows_of(path), deep=False).salts_ok, path
