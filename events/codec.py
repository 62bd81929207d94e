"""Event codec: the hash chain, the salt rule for private events and upcasting
old event versions. (Checking a
whole chain is `games.verify.check_chain`, shared by the audit endpoint, import
and the standalone verifier.)

Type names are stable strings ("rising-sun.WarBidsRevealed", "core.GameStarted"),
never import paths. A payload stored at version N is upcast on load through
``upcasters[(type, N)]``, ``upcasters[(type, N+1)]``… until no upcaster applies;
the hash chain always covers the payload *as stored*. Engine events use their
ruleset's ``upcasters`` (games.rules.base.Ruleset), platform events
``games.core_events.UPCASTERS``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable, Mapping
from typing import Any

# canonical_json and sha256_hex are re-exported: the store hashes through this module
from games.rules.base import Rng
from games.rules.base import canonical_json as canonical_json
from games.rules.base import sha256_hex as sha256_hex

GENESIS_HASH = "0" * 64

# Every event private to some seats carries payload.salt: 128 secret bits, so its
# public hash cannot be brute-forced from a few guessable payloads (docs/audit.md).
SALT_RE = re.compile(r"[0-9a-f]{32}")
PLATFORM_SALT_PURPOSE = "core:salt"

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
Upcasters = Mapping[tuple[str, int], Upcaster]


def chain_hash(prev_hash: str, seq: int, type_: str, version: int, payload: Any) -> str:
    """sha256_hex(prev_hash + canonical_json({seq, type, version, payload})) — api.md."""
    return sha256_hex(prev_hash + chain_body(seq, type_, version, canonical_json(payload)))


def chain_body(seq: int, type_: str, version: int, payload_json: str) -> str:
    """canonical_json({seq, type, version, payload}) from the payload's canonical
    JSON text, so the store encodes a payload once for the hash and the row.
    The keys in sorted order: payload, seq, type, version."""
    return (
        f'{{"payload":{payload_json},"seq":{int(seq)},"type":{canonical_json(type_)},'
        f'"version":{int(version)}}}'
    )


def salt_problem(payload: Any) -> str | None:
    """Why a private event's payload fails the salt rule, or None when it passes."""
    salt = payload.get("salt") if isinstance(payload, Mapping) else None
    if salt is None:
        return "a private event without payload.salt"
    if not isinstance(salt, str) or not SALT_RE.fullmatch(salt):
        return "payload.salt is not 32 lowercase hex characters"
    return None


def platform_salt(seed: str, seq: int) -> str:
    """The salt of a private platform (core.*) event at `seq`: secret while the
    seed is, re-derivable by the auditor once it is revealed."""
    return Rng(seed, seq, PLATFORM_SALT_PURPOSE).salt()


def upcast(
    type_: str, version: int, payload: dict[str, Any], upcasters: Upcasters
) -> tuple[int, dict[str, Any]]:
    """(version, payload) after every upcaster that applies, from `version` on."""
    while (type_, version) in upcasters:
        payload = upcasters[(type_, version)](dict(payload))
        version += 1
    return version, payload


# Signed checkpoints (docs/audit.md, "Receipts"): the server's word that a game's
# chain had `head` at `version`. Shared by the signer (games/services/signing.py)
# and the standalone verifier (games/verify/receipts.py), so both read one format.
CHECKPOINT_PREFIX = "sengoku-checkpoint/1\n"


def checkpoint_message(game: str, version: int, head: str, issued_at: str) -> bytes:
    """Exactly the bytes an Ed25519 checkpoint signature covers (version in decimal)."""
    return f"{CHECKPOINT_PREFIX}{game}\n{int(version)}\n{head}\n{issued_at}\n".encode()


def b64url(raw: bytes) -> str:
    """Base64url without padding (RFC 4648 section 5), as keys and signatures are written."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def from_b64url(text: str) -> bytes:
    """The bytes of a base64url text with or without padding; ValueError when it is not one."""
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


def key_id(public_key: bytes) -> str:
    """A signing key's `kid`: base64url of the first 8 bytes of sha256(raw 32-byte public key)."""
    return b64url(hashlib.sha256(public_key).digest()[:8])
