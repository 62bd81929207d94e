"""Signed checkpoints: the server's Ed25519 word that a game's chain had `head` at `version`.

    checkpoint(game, version, head, committed_at) -> {game, version, head, issued_at, kid, signature}

`issued_at` is the time the version was committed (its events' `recorded_at`) and
Ed25519 signatures are deterministic, so a checkpoint is signed on demand from
what is stored and the same version always gets the same checkpoint under one key:
nothing new is written on the command path. The key is a file (settings.
SIGNING_KEY_FILE), created at first use when missing; its public half is recorded
in `SigningKey` so `GET /api/v1/keys` lists it, retired ones included. The signed
bytes and the `kid` derivation are `events.codec` (shared with the verifier).
"""

from __future__ import annotations

import functools
import json
import logging
import os
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from events.codec import b64url, checkpoint_message, from_b64url, key_id
from events.models import StoredEvent

from ..models import Game, SigningKey
from .present import iso

log = logging.getLogger(__name__)

ALGORITHM = "Ed25519"


@dataclass(frozen=True)
class Key:
    """The current signing key: its private half (never logged, never serialized
    but to its own file), `kid`, the public half in base64url, and when it was made."""

    private: Ed25519PrivateKey
    kid: str
    public_key: str
    created: str


def _public_raw(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def new_key_document() -> dict[str, str]:
    """A fresh key as its file holds it: {alg, kid, public_key, private_key, created}."""
    private = Ed25519PrivateKey.generate()
    public = _public_raw(private)
    return {
        "alg": ALGORITHM,
        "kid": key_id(public),
        "public_key": b64url(public),
        "private_key": b64url(private.private_bytes_raw()),
        "created": iso(timezone.now()),
    }


def write_key_file(path: Path, document: dict[str, str], replace: bool = False) -> bool:
    """Write a key file readable by its owner only (0600), atomically: a temporary
    file linked into place, so no reader sees half a key. Without `replace` an
    existing file wins (two processes starting at once keep the first key);
    returns whether this document is now the file's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(document, handle)
            handle.write("\n")
        if replace:
            os.replace(temporary, path)
            return True
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        return True
    finally:
        temporary.unlink(missing_ok=True)


def _read_key(path: Path) -> Key:
    document = json.loads(path.read_text(encoding="utf-8"))
    private = Ed25519PrivateKey.from_private_bytes(from_b64url(document["private_key"]))
    public = _public_raw(private)
    return Key(private, key_id(public), b64url(public), str(document["created"]))


@functools.lru_cache(maxsize=4)
def _loaded(path: str, modified: int) -> Key:
    """The key in `path` as of its modification time (a rotation by another
    process is picked up at the next signature: one stat per checkpoint)."""
    del modified  # part of the cache key only
    return _read_key(Path(path))


# How often a process looks at the key file again (a rotation elsewhere shows within this).
RECHECK_SECONDS = 1.0
_checked: dict[str, tuple[float, Key]] = {}


def current_key() -> Key:
    """The key checkpoints are signed with now; made at first use when the file is
    missing. The file is looked at again at most every RECHECK_SECONDS."""
    path = Path(settings.SIGNING_KEY_FILE)
    now = time.monotonic()
    seen = _checked.get(str(path))
    if seen is not None and now - seen[0] < RECHECK_SECONDS:
        return seen[1]
    try:
        modified = path.stat().st_mtime_ns
    except FileNotFoundError:
        if write_key_file(path, new_key_document()):
            log.info("created a checkpoint signing key at %s", path)
        modified = path.stat().st_mtime_ns
    key = _loaded(str(path), modified)
    _checked[str(path)] = (now, key)
    return key


def register(key: Key) -> bool:
    """Record the public half of `key` (once) and retire any other key still
    marked current: whichever key a process signs with is listed by /keys.
    Processes starting together may race here: the row's key decides, and a
    failure (a database that refuses the write) is logged and retried at the
    next signature instead of failing the answer. Returns whether it is recorded."""
    try:
        if SigningKey.objects.filter(kid=key.kid).exists():
            return True
        with transaction.atomic():  # a savepoint inside a caller's transaction
            SigningKey.objects.filter(retired__isnull=True).exclude(kid=key.kid).update(
                retired=timezone.now()
            )
            row = SigningKey(
                kid=key.kid, public_key=key.public_key, created=datetime.fromisoformat(key.created)
            )
            SigningKey.objects.bulk_create([row], ignore_conflicts=True)
    except DatabaseError:
        log.warning("could not record the signing key %s yet", key.kid, exc_info=True)
        return False
    return True


_registered: set[str] = set()


def signer() -> Key:
    """The current key, recorded in the database the first time this process uses it."""
    key = current_key()
    _by_kid[key.kid] = key.private
    if key.kid not in _registered and register(key):
        _registered.add(key.kid)
    return key


def rotate() -> tuple[Key, Key]:
    """Retire the current key and sign with a new one from now on: (old, new).
    The old key's public half stays listed with its `retired` time, so every
    checkpoint it signed still verifies; its private half is gone with its file.
    Every step is safe to repeat: a process that signs later registers the key
    it finds, which retires the others."""
    old = current_key()
    register(old)
    path = Path(settings.SIGNING_KEY_FILE)
    write_key_file(path, new_key_document(), replace=True)
    _checked.clear()  # this process signs with the new key at once
    new = current_key()
    register(new)
    log.info("rotated the checkpoint signing key: %s retired, %s in use", old.kid, new.kid)
    return old, new


def keys_document() -> dict[str, Any]:
    """`GET /api/v1/keys`: every key that ever signed a checkpoint, oldest first."""
    register(current_key())  # a fresh database (or a test's) lists the key in use
    return {
        "keys": [
            {
                "kid": row.kid,
                "alg": ALGORITHM,
                "public_key": row.public_key,
                "created": iso(row.created),
                "retired": iso(row.retired),
            }
            for row in SigningKey.objects.order_by("created", "kid")
        ]
    }


_by_kid: dict[str, Ed25519PrivateKey] = {}


@functools.lru_cache(maxsize=4096)
def _signed(game: str, version: int, head: str, issued_at: str, kid: str) -> str:
    """A signature, kept for the next reader of the same version (a view, a feed
    page and a stream frame often ask for the same checkpoint)."""
    message = checkpoint_message(game, version, head, issued_at)
    return b64url(_by_kid[kid].sign(message))


def checkpoint(game: uuid.UUID | str, version: int, head: str, committed_at: datetime) -> dict[str, Any]:
    """The signed checkpoint of `game` at `version` whose last event hashes to
    `head` and was committed at `committed_at`."""
    key = signer()
    issued_at = iso(committed_at)
    game_id = str(game)
    return {
        "game": game_id,
        "version": version,
        "head": head,
        "issued_at": issued_at,
        "kid": key.kid,
        "signature": _signed(game_id, version, head, issued_at, key.kid),
    }


def of_row(row: Any) -> dict[str, Any]:
    """The checkpoint at a stored event's version (a `StoredEvent` or a `store.Recorded`:
    its stream, seq, hash and recorded_at)."""
    return checkpoint(row.stream, row.seq, row.hash, row.recorded_at)


def of_game(game: Game) -> dict[str, Any] | None:
    """The checkpoint at the game's current version (None before its first event).
    The row keeps the head's commit time; a game committed before it did reads it
    from the head event."""
    if not game.version or not game.chain_head:
        return None
    committed_at = game.head_at
    if committed_at is None:
        committed_at = (
            StoredEvent.objects.filter(stream=game.id, seq=game.version)
            .values_list("recorded_at", flat=True)
            .first()
        )
        if committed_at is None:
            return None
    return checkpoint(game.id, game.version, game.chain_head, committed_at)


UNKNOWN = object()
"""`following` when the row after the last one is not known (a page cut short):
the last row is taken for the middle of a commit, its checkpoint left to the next read."""


def batch_ends(rows: Sequence[Any], following: Any = None) -> list[int]:
    """Indexes of the rows that end a commit: every event of one commit shares its
    `recorded_at`, so a row ends one when the next row (or `following`, the row
    after these; None at the stream's end) was recorded at another time."""
    ends = []
    for index, row in enumerate(rows):
        after = rows[index + 1] if index + 1 < len(rows) else following
        if after is UNKNOWN:
            continue
        if after is None or after.recorded_at != row.recorded_at:
            ends.append(index)
    return ends


def mark_batches(rows: Sequence[Any], out: list[dict[str, Any]], following: Any = None) -> None:
    """Set `out[i]["checkpoint"]` on every presented event that ends a commit."""
    for index in batch_ends(rows, following):
        out[index]["checkpoint"] = of_row(rows[index])
