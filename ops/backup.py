"""Backups that can be checked.

Why, with the measurements and history: docs/modules.md, `ops/backup.py`.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connections

from games.models import Game

MANIFEST_SUFFIX = ".heads.json"


class BackupError(Exception):
    pass


def vendor() -> str:
    return connections["default"].vendor  # "sqlite" or "postgresql"


def default_path() -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    ext = "sqlite3" if vendor() == "sqlite" else "pgdump"
    return Path(settings.VAR_DIR) / "backups" / f"sengoku-{stamp}.{ext}"


def heads() -> dict[str, list]:
    return {
        str(gid): [version, head]
        for gid, version, head in Game.objects.exclude(version=0).values_list("id", "version", "chain_head")
    }


def write_manifest(path: Path) -> Path:
    out = Path(str(path) + MANIFEST_SUFFIX)
    data = {
        "created_at": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "database": vendor(),
        "games": heads(),
    }
    out.write_text(json.dumps(data, indent=1, sort_keys=True))
    return out


def backup(path: Path) -> tuple[Path, Path]:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    manifest = write_manifest(path)
    tmp = path.with_name(path.name + ".partial")
    if vendor() == "sqlite":
        _sqlite_backup(tmp)
    else:
        _pg_dump(tmp)
    os.replace(tmp, path)
    return path, manifest


def restore(path: Path) -> None:
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path}: no such backup file")
    connections.close_all()
    if vendor() == "sqlite":
        _sqlite_restore(path)
    else:
        _pg_restore(path)
    connections.close_all()


# ---- SQLite -----------------------------------------------------------------------------------


def _live_sqlite() -> str:
    name = str(settings.DATABASES["default"]["NAME"])
    conn = connections["default"]
    if getattr(conn, "is_in_memory_db", lambda: False)():
        raise BackupError("an in-memory SQLite database cannot be backed up")
    return name


def _sqlite_backup(target: Path) -> None:
    src = sqlite3.connect(_live_sqlite(), timeout=30)
    dst = sqlite3.connect(str(target))
    try:
        # One step: a single read transaction (WAL: writers go on meanwhile). In
        # several steps, every write by another process would restart the copy.
        src.backup(dst)
    finally:
        src.close()
    try:
        _integrity(dst, target)
    finally:
        dst.close()


def _integrity(conn: sqlite3.Connection, path: Path) -> None:
    result = conn.execute("PRAGMA integrity_check").fetchone()[0]
    if result != "ok":
        raise BackupError(f"{path}: integrity check failed: {result}")


def _sqlite_restore(source: Path) -> None:
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        _integrity(src, source)
        src.execute("SELECT count(*) FROM events_storedevent").fetchone()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source}: not a Sengoku SQLite backup ({exc})") from exc
    dst = sqlite3.connect(_live_sqlite(), timeout=30)
    try:
        src.backup(dst)  # replaces every page of the live file, under its lock
    finally:
        src.close()
        dst.close()


# ---- PostgreSQL -------------------------------------------------------------------------------


def _pg_env() -> tuple[dict, list[str]]:
    db = settings.DATABASES["default"]
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [flag, str(db[key])]
    return env, [*args, "--dbname", connections["default"].settings_dict["NAME"]]


def _tool(name: str) -> str:
    found = shutil.which(name)
    if not found:
        raise BackupError(f"{name} is not installed (apt-get install postgresql-client)")
    return found


def _run(argv: list[str], env: dict) -> str:
    r = subprocess.run(argv, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise BackupError(f"{os.path.basename(argv[0])} failed ({r.returncode}): {r.stderr.strip()[-800:]}")
    return r.stdout


def _pg_dump(target: Path) -> None:
    env, conn = _pg_env()
    _run(
        [_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", "--file", str(target), *conn],
        env,
    )
    listing = _run([_tool("pg_restore"), "--list", str(target)], env)
    if "events_storedevent" not in listing:
        raise BackupError(f"{target}: the dump has no event table")


def _pg_restore(source: Path) -> None:
    env, conn = _pg_env()
    try:
        listing = _run([_tool("pg_restore"), "--list", str(source)], env)
    except BackupError as exc:
        raise BackupError(f"{source}: not a pg_dump custom-format archive ({exc})") from exc
    if "events_storedevent" not in listing:
        raise BackupError(f"{source}: not a Sengoku backup (no event table)")
    _run(
        [
            _tool("pg_restore"),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            *conn,
            str(source),
        ],
        env,
    )
