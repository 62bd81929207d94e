"""What the verifier found: a `Report` of every check, its `Problem`s, and its text form.

A report says, check by check (chain, seed, commitments, salts, replay), whether
it passed, failed or could not run, with notes on what could not be checked
(redacted lines, a seed not revealed yet). `python -m games.verify` prints
`format_report` or `Report.as_json`; the audit endpoint (games/services/audit.py)
and `manage.py import_game` / `replay_all` read the same report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class VerifyError(Exception):
    """The input cannot be verified at all (unreadable file, unknown ruleset)."""


@dataclass(frozen=True)
class Problem:
    seq: int | None
    check: str  # chain | seed | commitment | salt | replay | format | signature | receipt
    detail: str

    def __str__(self) -> str:
        where = f"seq {self.seq}" if self.seq is not None else "game"
        return f"[{self.check}] {where}: {self.detail}"


@dataclass
class Report:
    events: int = 0
    ruleset: str | None = None
    rules_version: int | None = None
    chain_ok: bool = True
    chain_head: str | None = None
    first_bad_seq: int | None = None
    seed_commitment: str | None = None
    seed: str | None = None
    seed_ok: bool | None = None  # None: seed not revealed (yet)
    entropy: list[dict[str, Any]] = field(default_factory=list)  # the seats' contributions
    stream_seed: str | None = None  # the random streams' key: the seed mixed with `entropy`
    anchor_ok: bool | None = None  # None: no anchor in the export (anchors.py)
    anchored_at: str | None = None  # the TSA's time, once its token checked
    commitments: list[dict[str, Any]] = field(default_factory=list)
    reveals_ok: bool = True
    salts_ok: bool = True
    replayed: bool | None = None  # None: replay could not run (see notes)
    batches: int = 0
    receipts_checked: int | None = None  # None: no keys given (receipts.py)
    receipts_ok: bool | None = None
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def inconsistent_versions(self) -> list[int | None]:
        """Versions where a validly signed checkpoint contradicts the export (receipts.py)."""
        return [p.seq for p in self.problems if p.check == "receipt"]

    def add(self, seq: int | None, check: str, detail: str) -> None:
        self.problems.append(Problem(seq, check, detail))

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "events": self.events,
            "ruleset": self.ruleset,
            "rules_version": self.rules_version,
            "chain_ok": self.chain_ok,
            "chain_head": self.chain_head,
            "first_bad_seq": self.first_bad_seq,
            "seed_commitment": self.seed_commitment,
            "seed": self.seed,
            "seed_ok": self.seed_ok,
            "entropy": self.entropy,
            "anchor_ok": self.anchor_ok,
            "anchored_at": self.anchored_at,
            "commitments": self.commitments,
            "reveals_ok": self.reveals_ok,
            "salts_ok": self.salts_ok,
            "replayed": self.replayed,
            "batches": self.batches,
            "receipts_checked": self.receipts_checked,
            "receipts_ok": self.receipts_ok,
            "inconsistent_versions": self.inconsistent_versions,
            "problems": [vars(p) for p in self.problems],
            "notes": self.notes,
        }


def format_report(report: Report, name: str = "") -> str:
    def mark(ok: bool | None) -> str:
        return "ok" if ok else ("not checked" if ok is None else "FAILED")

    lines = [
        f"Sengoku audit of {name or 'game'}: {report.events} events, ruleset {report.ruleset} "
        f"(rules version {report.rules_version})",
        f"  chain        {mark(report.chain_ok)}  head {report.chain_head}",
        f"  seed         {mark(report.seed_ok)}  commitment {report.seed_commitment}, "
        f"{len(report.entropy)} seat contribution(s) mixed in",
        f"  commitments  {mark(report.reveals_ok)}  {len(report.commitments)} committed, "
        f"{sum(c['revealed'] for c in report.commitments)} revealed",
        f"  salts        {mark(report.salts_ok)}  every visible private event salted, no salt reused",
        f"  replay       {mark(report.replayed)}  {report.batches} command batches re-decided",
    ]
    if report.receipts_checked is not None:
        lines.append(
            f"  receipts     {mark(report.receipts_ok)}  {report.receipts_checked} signed checkpoints "
            f"held against the chain"
        )
    if report.anchor_ok is not None:
        lines.append(
            f"  anchor       {mark(report.anchor_ok)}  timestamped {report.anchored_at or '(not checked)'}"
        )
    lines += [f"  note: {n}" for n in report.notes]
    lines += [f"  PROBLEM {p}" for p in report.problems]
    if report.inconsistent_versions:
        versions = ", ".join(str(v) for v in report.inconsistent_versions)
        lines.append(f"INCONSISTENT: the server signed another history at version {versions}")
    else:
        lines.append("VERIFIED" if report.ok else f"NOT VERIFIED: {len(report.problems)} problem(s)")
    return "\n".join(lines)
