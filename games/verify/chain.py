"""Check 1, the hash chain: every link and every hash of an export.

``hash = sha256_hex(prev_hash + canonical_json({seq, type, version, payload}))``,
the genesis ``prev_hash`` is 64 zeros (docs/audit.md, "The hash chain"). A
redacted line (another seat's private event in a running game's export) has no
payload, so only its link can be checked. `check_chain` is also what
`ops/verify.py` and the audit endpoint run on a stored game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from events.codec import GENESIS_HASH, chain_hash

from .reading import is_redacted
from .report import Report


def check_chain(rows: Sequence[Mapping[str, Any]], report: Report) -> None:
    prev = GENESIS_HASH
    redacted = 0
    for i, r in enumerate(rows, 1):
        seq = r.get("seq")
        try:
            if seq != i:
                raise ValueError(f"expected seq {i}, found {seq!r}")
            if r.get("prev_hash") != prev:
                raise ValueError("prev_hash does not link to the previous event's hash")
            if is_redacted(r):
                redacted += 1  # no payload: only the link can be checked
                h = r.get("hash")
                if not isinstance(h, str):
                    raise ValueError("redacted event without a hash")
            else:
                h = chain_hash(prev, seq, r["type"], r["version"], r["payload"])
                if h != r.get("hash"):
                    raise ValueError("hash does not match the event's content")
        except (KeyError, TypeError, ValueError) as exc:
            report.chain_ok = False
            report.first_bad_seq = seq if isinstance(seq, int) else i
            report.add(
                report.first_bad_seq,
                "chain",
                str(exc) if not isinstance(exc, KeyError) else f"missing field {exc}",
            )
            break
        prev = h
    report.chain_head = prev if report.chain_ok else None
    if redacted:
        report.notes.append(f"{redacted} redacted event(s): links checked, hashes not recomputable")
