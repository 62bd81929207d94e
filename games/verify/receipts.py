"""Receipts: signed checkpoints a player kept, held against an export's chain.

    check_receipts(rows, receipts, keys, report)

A receipt is a checkpoint `{game, version, head, issued_at, kid, signature}`;
`keys` is the `GET /api/v1/keys` document. A receipt whose signature does not
check is a `signature` problem (it proves nothing); a validly signed one whose
head differs from the export's hash at that version, or names a version the
export does not reach, is a `receipt` problem: the report is INCONSISTENT, the
server signed a history other than the one it exports. The checkpoints the export
carries (on each commit's last line) are checked the same way. Signatures are
checked with `cryptography` alone (docs/audit.md, "Receipts").
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.codec import checkpoint_message, from_b64url

from .report import Report, VerifyError

FIELDS = ("game", "version", "head", "issued_at", "kid", "signature")


def load_keys(path: str) -> dict[str, Ed25519PublicKey]:
    """The public keys of a `/keys` document by `kid`, or VerifyError."""
    document = _read_json(path)
    listed = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(listed, list):
        raise VerifyError(f'{path} is not a keys document ({{"keys": [...]}})')
    keys: dict[str, Ed25519PublicKey] = {}
    for entry in listed:
        if (
            not isinstance(entry, dict)
            or entry.get("alg") != "Ed25519"
            or not isinstance(entry.get("kid"), str)
        ):
            raise VerifyError(f"{path}: every key needs a kid and alg Ed25519")
        try:
            keys[entry["kid"]] = Ed25519PublicKey.from_public_bytes(from_b64url(entry.get("public_key", "")))
        except (ValueError, TypeError) as exc:
            raise VerifyError(f"{path}: key {entry['kid']} has no valid public_key") from exc
    return keys


def load_receipts(path: str) -> list[dict[str, Any]]:
    """The checkpoints of a JSON Lines file, or VerifyError naming the bad line."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        raise VerifyError(f"cannot read {path}: {exc.strerror or exc}") from exc
    receipts = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            receipt = json.loads(line)
        except json.JSONDecodeError as exc:
            raise VerifyError(f"{path} line {number} is not JSON: {exc.msg}") from exc
        if not isinstance(receipt, dict):
            raise VerifyError(f"{path} line {number} is not a JSON object")
        receipts.append(receipt)
    return receipts


def _read_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise VerifyError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise VerifyError(f"{path} is not JSON: {exc.msg}") from exc


def signature_problem(receipt: Mapping[str, Any], keys: Mapping[str, Ed25519PublicKey]) -> str | None:
    """Why `receipt` is not a validly signed checkpoint under `keys`, or None."""
    missing = [name for name in FIELDS if name not in receipt]
    if missing:
        return f"not a checkpoint: no {', '.join(missing)}"
    game, version, head, issued_at = (receipt[name] for name in FIELDS[:4])
    if not all(isinstance(value, str) for value in (game, head, issued_at)) or type(version) is not int:
        return "not a checkpoint: game, head and issued_at are strings, version an integer"
    key = keys.get(receipt["kid"]) if isinstance(receipt["kid"], str) else None
    if key is None:
        return f"signed with key {receipt['kid']!r}, which the keys file does not list"
    try:
        key.verify(from_b64url(receipt["signature"]), checkpoint_message(game, version, head, issued_at))
    except (InvalidSignature, ValueError, TypeError):
        return "bad signature"
    return None


def carried(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The checkpoints an export carries on its lines."""
    return [dict(row["checkpoint"]) for row in rows if isinstance(row.get("checkpoint"), dict)]


def check_receipts(
    rows: Sequence[Mapping[str, Any]],
    receipts: Sequence[Mapping[str, Any]],
    keys: Mapping[str, Ed25519PublicKey],
    report: Report,
) -> None:
    """Hold every receipt (and every checkpoint the export carries) against the
    export's hashes; problems go to `report` (checks `signature` and `receipt`)."""
    hashes = {row.get("seq"): row.get("hash") for row in rows}
    last = max((seq for seq in hashes if isinstance(seq, int)), default=0)
    own = carried(rows)
    games = {c["game"] for c in own if isinstance(c.get("game"), str)}
    checked = inconsistent = 0
    for where, receipt in [("export", c) for c in own] + [("receipt", r) for r in receipts]:
        version = receipt.get("version")
        seq = version if type(version) is int else None
        problem = signature_problem(receipt, keys)
        if problem is not None:
            report.add(seq, "signature", f"{where} for version {version}: {problem}")
            continue
        if games and receipt["game"] not in games:
            report.notes.append(f"a receipt for another game ({receipt['game']}) was skipped")
            continue
        checked += 1
        if seq is None or seq > last:
            inconsistent += 1
            report.add(
                seq,
                "receipt",
                f"a validly signed {where} names version {version} with head {receipt['head']}, "
                f"but the export ends at version {last}",
            )
        elif hashes.get(seq) != receipt["head"]:
            inconsistent += 1
            report.add(
                seq,
                "receipt",
                f"a validly signed {where} says the head at version {seq} was {receipt['head']}, "
                f"the export's chain has {hashes.get(seq)}",
            )
    report.receipts_checked = checked
    report.receipts_ok = inconsistent == 0
