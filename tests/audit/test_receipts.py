"""Signed checkpoints and receipts (issue 34): a game played through the API
yields checkpoints that verify with GET /api/v1/keys; the verifier holds kept
receipts against an export and says INCONSISTENT when the operator rewrote
history and rebuilt the chain; key rotation keeps old checkpoints verifiable."""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.contrib.auth.models import User
from django.core.management import call_command

from accounts.models import profile_of
from events.codec import b64url, checkpoint_message, from_b64url, key_id
from games import verify
from games.pbem import emails
from games.services import notify, signing
from games.services.lobby import get_game
from games.verify import receipts

from .conftest import TOY, export, rehash

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT_KEYS = {"game", "version", "head", "issued_at", "kid", "signature"}


@pytest.fixture(autouse=True)
def _own_key(settings, tmp_path):
    """Each test signs with a key of its own (tmp_path), so a rotation here touches nothing else."""
    settings.SIGNING_KEY_FILE = tmp_path / "var" / "signing-key.json"
    signing._registered.clear()


def keys_of(api) -> dict:
    response = api.get("/api/v1/keys")
    assert response.status_code == 200, response.content
    return response.json()


def check(checkpoint: dict, keys: dict) -> None:
    """Verify a checkpoint with `cryptography` alone, from the /keys document (raises when bad)."""
    assert set(checkpoint) == CHECKPOINT_KEYS
    [key] = [k for k in keys["keys"] if k["kid"] == checkpoint["kid"]]
    public = Ed25519PublicKey.from_public_bytes(from_b64url(key["public_key"]))
    message = (
        f"sengoku-checkpoint/1\n{checkpoint['game']}\n{checkpoint['version']}\n"
        f"{checkpoint['head']}\n{checkpoint['issued_at']}\n"
    ).encode()
    public.verify(from_b64url(checkpoint["signature"]), message)


def play_through_api(api, host, player, gid) -> list[dict]:
    """Play the toy auction to its end through the API; the checkpoints of every answer and view."""
    kept = []
    for _ in range(200):
        game = api.as_(host).get(f"/api/v1/games/{gid}").json()
        kept.append(game["checkpoint"])
        if game["status"] != "running":
            return kept
        for who in (host, player):
            legal = api.as_(who).get(f"/api/v1/games/{gid}/legal-commands").json()
            if not legal["pending"]:
                continue
            command = (legal["commands"] or legal["samples"])[0]
            answer = api.as_(who).post(f"/api/v1/games/{gid}/commands", {"command": command})
            assert answer.status_code == 201, answer.content
            body = answer.json()
            assert body["checkpoint"]["version"] == body["events"][-1]["seq"]
            assert body["checkpoint"]["head"] == body["events"][-1]["hash"]
            kept.append(body["checkpoint"])
            view = api.as_(who).get(f"/api/v1/games/{gid}/view").json()
            assert view["checkpoint"]["version"] == view["version"]
            kept.append(view["checkpoint"])
            break
    raise AssertionError("the toy game did not finish")


@pytest.fixture
def played(api, host, player, running_game):
    gid = running_game["id"]
    return gid, play_through_api(api, host, player, gid)


def write_lines(path: Path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def run_verifier(
    tmp_path: Path, rows: list[dict], keys: dict, kept: list[dict]
) -> subprocess.CompletedProcess:
    (tmp_path / "keys.json").write_text(json.dumps(keys))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "games.verify",
            write_lines(tmp_path / "game.jsonl", rows),
            "--ruleset-module",
            TOY,
            "--keys",
            str(tmp_path / "keys.json"),
            "--receipts",
            write_lines(tmp_path / "receipts.jsonl", kept),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_the_keys_document(api, db):
    keys = keys_of(api)
    assert list(keys) == ["keys"]
    [key] = keys["keys"]
    assert set(key) == {"kid", "alg", "public_key", "created", "retired"}
    assert key["alg"] == "Ed25519" and key["retired"] is None and key["created"].endswith("Z")
    raw = from_b64url(key["public_key"])
    assert len(raw) == 32 and "=" not in key["public_key"]
    assert key["kid"] == key_id(raw) == b64url(hashlib.sha256(raw).digest()[:8])
    assert "public" in api.get("/api/v1/keys").headers["Cache-Control"]


def test_the_key_file_is_private_and_made_once(db, settings):
    first = signing.current_key()
    path = Path(settings.SIGNING_KEY_FILE)
    assert path.stat().st_mode & 0o777 == 0o600
    assert signing.current_key().kid == first.kid  # read again, not made again


def test_a_game_played_through_the_api_yields_checkpoints_that_verify(api, host, player, played):
    gid, kept = played
    keys = keys_of(api)
    assert len(kept) > 5 and all(c is not None for c in kept)
    for checkpoint in kept:
        check(checkpoint, keys)
    rows = export(api, host, gid)
    by_seq = {row["seq"]: row for row in rows}
    for checkpoint in kept:
        assert checkpoint["game"] == gid and by_seq[checkpoint["version"]]["hash"] == checkpoint["head"]
        assert by_seq[checkpoint["version"]]["checkpoint"] == checkpoint  # the export carries it
    # the feed marks each commit's last event, and every event batch is covered
    feed = api.as_(host).get(f"/api/v1/games/{gid}/events?limit=1000").json()["results"]
    marked = [event["checkpoint"] for event in feed if "checkpoint" in event]
    assert marked == [row["checkpoint"] for row in rows if "checkpoint" in row]
    assert feed[-1]["checkpoint"]["version"] == rows[-1]["seq"]
    inbox = api.as_(player).get("/api/v1/accounts/me/games").json()["results"]
    check(inbox[0]["checkpoint"], keys)


def test_a_tampered_checkpoint_does_not_verify(api, played):
    _, kept = played
    keys = keys_of(api)
    forged = dict(kept[-1], head="0" * 64)
    with pytest.raises(InvalidSignature):
        check(forged, keys)


def test_the_verifier_says_verified_with_every_receipt(api, host, played, tmp_path):
    gid, kept = played
    done = run_verifier(tmp_path, export(api, host, gid), keys_of(api), kept)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "receipts     ok" in done.stdout and done.stdout.rstrip().endswith("VERIFIED")


def test_a_rewritten_history_is_inconsistent_with_the_receipts(api, host, played, tmp_path):
    """The operator's forgery: one event rewritten, the chain rebuilt from there and
    every checkpoint in the export signed again with the server's own key. The export
    alone verifies; the player's receipts prove the rewrite."""
    gid, kept = played
    rows = export(api, host, gid)
    prize = next(row for row in rows if row["type"] == "toy.PrizeDrawn")
    forged = rehash(copy.deepcopy(rows))
    target = next(row for row in forged if row["seq"] == prize["seq"])
    target["payload"] = dict(target["payload"], note="rewritten")
    rehash(forged)
    key = signing.current_key()
    for row in forged:
        if "checkpoint" in row:
            issued_at = datetime.fromisoformat(row["checkpoint"]["issued_at"])
            row["checkpoint"] = signing.checkpoint(gid, row["seq"], row["hash"], issued_at)
    assert verify.verify(copy.deepcopy(forged), rules=None).chain_ok  # self-consistent: the chain holds
    done = run_verifier(tmp_path, forged, keys_of(api), kept)
    assert done.returncode == 1, done.stdout + done.stderr
    first = min(c["version"] for c in kept if c["version"] >= prize["seq"])
    assert "INCONSISTENT" in done.stdout and f"version {first}" in done.stdout, done.stdout
    assert key.kid in json.dumps(kept)


def test_a_bad_signature_is_reported_as_such(api, host, played, tmp_path):
    gid, kept = played
    bad = dict(kept[-1], signature=b64url(b"\x01" * 64))
    done = run_verifier(tmp_path, export(api, host, gid), keys_of(api), [*kept, bad])
    assert done.returncode == 1
    assert "[signature]" in done.stdout and "bad signature" in done.stdout
    assert "INCONSISTENT" not in done.stdout


def test_a_receipt_of_a_key_nobody_published_proves_nothing(api, host, played):
    gid, kept = played
    stranger = Ed25519PrivateKey.generate()
    last = kept[-1]
    message = checkpoint_message(gid, last["version"], "f" * 64, last["issued_at"])
    fake = dict(last, head="f" * 64, kid="stranger", signature=b64url(stranger.sign(message)))
    report = verify.verify(export(api, host, gid), deep=False)
    keys = {
        k["kid"]: Ed25519PublicKey.from_public_bytes(from_b64url(k["public_key"]))
        for k in keys_of(api)["keys"]
    }
    receipts.check_receipts(export(api, host, gid), [fake], keys, report)
    assert [p.check for p in report.problems] == ["signature"] and not report.inconsistent_versions


def test_rotation_keeps_old_checkpoints_verifiable(api, host, played, capsys):
    gid, kept = played
    old_kid = kept[-1]["kid"]
    call_command("rotate_signing_key")
    assert "retired" in capsys.readouterr().out
    keys = keys_of(api)
    listed = {k["kid"]: k for k in keys["keys"]}
    assert listed[old_kid]["retired"] is not None and len(listed) == 2
    for checkpoint in kept:
        check(checkpoint, keys)  # signed by the retired key
    fresh = api.as_(host).get(f"/api/v1/games/{gid}").json()["checkpoint"]
    assert fresh["kid"] != old_kid and listed[fresh["kid"]]["retired"] is None
    check(fresh, keys)


def test_no_key_material_in_exports_or_logs(api, host, caplog, settings, tmp_path):
    settings.SIGNING_KEY_FILE = tmp_path / "fresh" / "signing-key.json"
    with caplog.at_level(logging.DEBUG):
        gid = api.as_(host).post("/api/v1/games", {"ruleset": "toy-auction", "players": 2}).json()["id"]
        key = signing.signer()
        call_command("rotate_signing_key")
    secret = json.loads(Path(settings.SIGNING_KEY_FILE).read_text())["private_key"]
    old_secret = b64url(key.private.private_bytes_raw())
    logged = caplog.text + "".join(str(record.args) for record in caplog.records)
    assert "created a checkpoint signing key" in logged
    for text in (secret, old_secret):
        assert text not in logged
        assert text not in api.as_(host).get(f"/api/v1/games/{gid}/export").content.decode()
        assert text not in json.dumps(keys_of(api))


def test_notifications_webhooks_and_emails_carry_the_checkpoint(api, host, played):
    """Every notification's `game` (stream notices, webhook bodies, emails) carries a
    signed checkpoint at the game's version, and the email's footer prints it as one JSON line."""
    gid, _ = played
    game = get_game(gid)
    shown = notify.game_payload(game)
    check(shown["checkpoint"], keys_of(api))
    assert (shown["checkpoint"]["version"], shown["checkpoint"]["head"]) == (game.version, game.chain_head)
    user = User.objects.get(username=host.name)
    mail = emails.build(user, profile_of(user), {"kind": "game_started", "seat": 0, "game": shown})
    line = json.dumps(shown["checkpoint"], sort_keys=True, separators=(",", ":"))
    assert f"Signed checkpoint (keep it to check the game later): {line}" in mail.body
