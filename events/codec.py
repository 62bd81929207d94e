"""Event codec: the hash chain and upcasting old event versions. (Checking a
whole chain is `games.verify.check_chain`, shared by the audit endpoint, import
and the standalone verifier.)

Type names are stable strings ("rising_sun.BidsRevealed", "core.GameStarted"),
never import paths. A payload stored at version N is upcast on load through
``upcasters[(type, N)]``, ``upcasters[(type, N+1)]``… until no upcaster applies;
the hash chain always covers the payload *as stored*.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.rules.base import canonical_json, sha256_hex

GENESIS_HASH = "0" * 64

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
Upcasters = Mapping[tuple[str, int], Upcaster]


def chain_hash(prev_hash: str, seq: int, type_: str, version: int, payload: Any) -> str:
    """sha256_hex(prev_hash + canonical_json({seq, type, version, payload})) — api.md."""
    return sha256_hex(prev_hash + chain_body(seq, type_, version, canonical_json(payload)))


def chain_body(seq: int, type_: str, version: int, payload_json: str) -> str:
    """canonical_json({seq, type, version, payload}) from the payload's canonical
    JSON text, so the store encodes a payload once for the hash and the row.
    The keys in sorted order: payload, seq, type, version."""
    return (f'{{"payload":{payload_json},"seq":{int(seq)},"type":{canonical_json(type_)},'
            f'"version":{int(version)}}}')


def upcast(type_: str, version: int, payload: dict[str, Any], upcasters: Upcasters) -> tuple[int, dict]:
    while (type_, version) in upcasters:
        payload = upcasters[(type_, version)](dict(payload))
        version += 1
    return version, payload

