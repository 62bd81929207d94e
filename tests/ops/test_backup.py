"""Backups that verify: `manage.py backup` while a writer plays, `restore`
into another database, `verify_all` (chain, head, published heads, the
backup's manifest) with a non-zero exit on tampering. SQLite runs in
subprocesses on real files; PostgreSQL in-process against the test database."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]


# ---- SQLite: file copy while running ------------------------------------------------------


def _env(var: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env.update(
        SENGOKU_VAR_DIR=str(var),
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    return env


def _manage(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def _helper(env, *args) -> subprocess.CompletedProcess:
    r = subprocess.run(
        [sys.executable, "-m", "tests.ops.backup_helper", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return r


def _verify_cmd(env, *extra) -> subprocess.CompletedProcess:
    # the toy ruleset is registered only in the tests: verify_all does not need engines
    return _manage(env, "verify_all", "--no-progress", *extra)


@pytest.fixture(scope="module")
def sqlite_backup(tmp_path_factory):
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("the SQLite backup is tested in the SQLite pass (it runs on its own files)")
    base = tmp_path_factory.mktemp("backup")
    live = _env(base / "live")
    assert _manage(live, "migrate", "--noinput").returncode == 0
    _helper(live, "setup", "4")
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.ops.backup_helper", "play", "300", str(base / "stop")],
        cwd=ROOT,
        env=live,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(1.5)  # the writer is committing games now
        path = base / "copy.sqlite3"
        r = _manage(live, "backup", str(path))
        assert r.returncode == 0, r.stderr[-2000:]
    finally:
        (base / "stop").touch()  # the writer plays one more game, so the live database outgrows the copy
        _, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err[-2000:]
    return base, live, path, r.stdout


def test_backup_while_writing_then_restore_verifies(sqlite_backup):
    base, live, path, out = sqlite_backup
    assert path.exists() and Path(str(path) + ".heads.json").exists() and "backup written" in out
    manifest = json.loads(Path(str(path) + ".heads.json").read_text())
    assert len(manifest["games"]) >= 4 and manifest["database"] == "sqlite"
    restored = _env(base / "restored")
    assert _manage(restored, "migrate", "--noinput").returncode == 0
    r = _manage(restored, "restore", str(path), "--noinput")
    assert r.returncode == 0, r.stdout + r.stderr[-2000:]
    assert "0 game(s) with problems" in r.stdout and "manifest head(s)" in r.stdout
    n_backup = int(_helper(restored, "count").stdout)
    n_live = int(_helper(live, "count").stdout)
    assert 0 < n_backup < n_live  # the copy is a moment of a database that went on being written
    assert _verify_cmd(live).returncode == 0  # the live one is fine too


def test_verify_all_fails_on_a_tampered_restore(sqlite_backup):
    base, _live, path, _ = sqlite_backup
    env = _env(base / "tampered")
    assert _manage(env, "migrate", "--noinput").returncode == 0
    assert _manage(env, "restore", str(path), "--noinput", "--no-verify").returncode == 0
    gid = _helper(env, "tamper").stdout.strip()
    r = _verify_cmd(env)
    assert r.returncode != 0
    assert f"PROBLEM game {gid}" in r.stdout and "[chain]" in r.stdout


def test_verify_all_fails_when_a_manifest_head_is_missing(sqlite_backup, tmp_path):
    base, live, path, _ = sqlite_backup
    manifest = json.loads(Path(str(path) + ".heads.json").read_text())
    gid = next(iter(manifest["games"]))
    manifest["games"][gid][1] = "0" * 64  # a head the backup never had
    manifest["games"]["00000000-0000-0000-0000-00000000beef"] = [3, "f" * 64]
    bad = tmp_path / "bad.heads.json"
    bad.write_text(json.dumps(manifest))
    r = _verify_cmd(live, "--manifest", str(bad))
    assert r.returncode != 0
    assert "the backup manifest published head" in r.stdout and "not in the database" in r.stdout


def test_restore_refuses_a_file_that_is_not_a_backup(sqlite_backup, tmp_path):
    base, *_ = sqlite_backup
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    r = _manage(_env(base / "live"), "restore", str(junk), "--noinput")
    assert r.returncode != 0 and "not a Sengoku SQLite backup" in r.stderr


# ---- in-process: progress bar, published heads (either database) ---------------------------


@pytest.mark.django_db(transaction=True)
def test_verify_all_checks_published_heads_with_a_progress_bar(api, host, player, running_game):
    from games.models import Notification

    out, err = io.StringIO(), io.StringIO()
    call_command("verify_all", "--progress", stdout=out, stderr=err)
    assert "[#" in err.getvalue() and "1/1" in err.getvalue()
    assert "verified 1 game(s)" in out.getvalue() and "0 game(s) with problems" in out.getvalue()
    published = int(out.getvalue().split("event(s), ")[1].split(" published")[0])
    assert published >= 2  # "game started" to both players
    n = Notification.objects.filter(game_id=running_game["id"]).first()
    n.payload = {**n.payload, "game": {**n.payload["game"], "chain_head": "ab" * 32}}
    n.save(update_fields=["payload"])
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_all", "--no-progress", stdout=out)
    assert f"notification {n.id} published head abababababab" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_verify_all_catches_a_game_row_ahead_of_its_stream(running_game):
    from games.models import Game

    Game.objects.filter(id=running_game["id"]).update(version=running_game["version"] + 5)
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_all", "--no-progress", stdout=out)
    assert "[head]" in out.getvalue()


# ---- PostgreSQL: pg_dump / pg_restore -------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_backup_restore_verify_on_postgres(tmp_path, api, host, player, running_game):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    from events.models import StoredEvent
    from games.models import Game

    gid = running_game["id"]
    url = f"/api/v1/games/{gid}/commands"
    assert api.as_(host).post(url, {"command": {"type": "bid", "amount": 2}}).status_code == 201
    path = tmp_path / "sengoku.pgdump"
    out = io.StringIO()
    call_command("backup", str(path), stdout=out)
    assert path.stat().st_size > 0 and "postgresql" in out.getvalue()
    at_backup = StoredEvent.objects.filter(stream=gid).count()
    # life goes on after the backup: a command and a new game
    assert api.as_(player).post(url, {"command": {"type": "bid", "amount": 1}}).status_code == 201
    api.as_(host).post("/api/v1/games", {"ruleset": "toy-auction", "players": 2})
    assert Game.objects.count() == 2

    out = io.StringIO()
    call_command("restore", str(path), interactive=False, stdout=out)
    assert "0 game(s) with problems" in out.getvalue() and "1 manifest head(s)" in out.getvalue()
    assert StoredEvent.objects.filter(stream=gid).count() == at_backup and Game.objects.count() == 1

    with connection.cursor() as c:  # below the append-only trigger, as a superuser could
        c.execute("SET session_replication_role = replica")
        c.execute(
            "UPDATE events_storedevent SET payload = '{\"forged\": 1}' WHERE stream = %s AND seq = 1", [gid]
        )
        c.execute("SET session_replication_role = DEFAULT")
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_all", "--no-progress", stdout=out)
    assert f"PROBLEM game {gid}" in out.getvalue()


@pytest.mark.django_db
def test_restore_refuses_junk_on_this_database(tmp_path):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00garbage" * 64)
    with pytest.raises(CommandError, match="not a"):
        call_command("restore", str(junk), interactive=False)
