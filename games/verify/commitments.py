"""Checks 2 to 4, the secrets: the seed, the commitments of secret choices, the salts.

- seed: ``sha256_hex(seed) == core.GameStarted.seed_commitment`` once a
  ``core.SeedRevealed`` publishes the seed, last and only after the game ended;
- commitments: every ``core.ChoiceCommitted`` against the private event holding
  its choice and salt, every item of every ``payload["reveals"]`` against the
  latest commitment of its key, and a finished game reveals the game's own;
- salts: every private event carries a unique 128-bit ``payload.salt``, and a
  private platform event's salt re-derives from the seed once it is known.
The exact rules are in docs/audit.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from events.codec import platform_salt, salt_problem
from games.core_events import REDACTED_TYPE, BadCoreEvent, ChoiceCommitted, is_core
from games.rules.base import GAME_SEAT, commitment_of, sha256_hex

from .entropy import check_entropy
from .reading import ABORTED, FINISHED, SEED, STARTED, is_redacted, payload_of, read_core
from .report import Report


def check_seed(rows: Sequence[Mapping[str, Any]], report: Report, seed: str | None = None) -> None:
    first = rows[0] if rows else {}
    if first.get("type") != STARTED:
        report.add(first.get("seq"), "format", f"the first event must be {STARTED}")
        return
    try:
        started = read_core(first)
    except BadCoreEvent as exc:
        report.add(first.get("seq"), "format", str(exc))
        return
    report.seed_commitment = started.seed_commitment
    report.ruleset, report.rules_version = started.ruleset, started.rules_version
    revealed = [r for r in rows if r.get("type") == SEED]
    if revealed:
        _check_revealed(rows, revealed[0], report)
    if seed is not None and report.seed is None:
        report.seed = seed  # given by the server (replay_all) for a running game
    check_entropy(started, report)  # the seats' contributions and the stream key (entropy.py)
    if report.seed is None:
        report.notes.append("seed not revealed: random outcomes not re-derived")
        return
    report.seed_ok = isinstance(report.seed, str) and sha256_hex(report.seed) == report.seed_commitment
    if not report.seed_ok:
        report.add(
            revealed[0].get("seq") if revealed else None,
            "seed",
            "sha256(seed) differs from the seed commitment published at start",
        )


def _check_revealed(rows: Sequence[Mapping[str, Any]], r: Mapping[str, Any], report: Report) -> None:
    """The seed is revealed last, and only once the game ended or was aborted."""
    try:
        report.seed = read_core(r).seed
    except BadCoreEvent as exc:
        report.add(r.get("seq"), "format", str(exc))
    if r is not rows[-1]:
        report.add(r.get("seq"), "seed", "events were recorded after the seed was revealed")
    if not any(x.get("type") in (FINISHED, ABORTED) for x in rows[:-1]):
        report.add(r.get("seq"), "seed", "the seed was revealed before the game ended or was aborted")


def check_commitments(rows: Sequence[Mapping[str, Any]], report: Report) -> None:
    current: dict[str, dict[str, Any]] = {}
    private: dict[
        str, tuple[int | None, Any, Any]
    ] = {}  # key -> (seq, choice, salt) of the latest private event
    hidden = 0  # commitments in redacted lines (another seat's secret offer, in a running game's export)
    for r in rows:
        seq, p = r.get("seq"), payload_of(r)
        if is_redacted(r):
            # Any redacted line may be a commitment: its type is not shown (REDACTED_TYPE).
            hidden += r.get("type") in (ChoiceCommitted.TYPE, REDACTED_TYPE)
            continue
        if r.get("visible_to") is not None and "salt" in p and "key" in p and "choice" in p:
            private[str(p["key"])] = (seq, p["choice"], p["salt"])
        if r.get("type") == ChoiceCommitted.TYPE:
            _commitment(report, current, private, seq, r)
        reveals = p.get("reveals")
        if reveals is None:
            continue
        if r.get("visible_to") is not None:
            report.add(seq, "commitment", "reveals must be in a public event")
        if not isinstance(reveals, list):
            report.add(seq, "commitment", "`reveals` is not a list")
            continue
        for item in reveals:
            _reveal(report, current, seq, item, hidden)
    _game_secrets_revealed(rows, report)
    report.reveals_ok = not any(pr.check == "commitment" for pr in report.problems)


def _game_secrets_revealed(rows: Sequence[Mapping[str, Any]], report: Report) -> None:
    """A commitment of the game itself (seat `GAME_SEAT`: what nobody at the table sees,
    such as the cubes inside Shogun's tower) is a promise to reveal it when the game
    ends, so that everyone can check it: a finished game that leaves one unrevealed
    fails. (An aborted game reveals none; its full export still holds their hidden
    events, checked against the commitments above and re-derived by the replay.)"""
    if not any(r.get("type") == FINISHED for r in rows):
        return
    for c in report.commitments:
        if c["seat"] == GAME_SEAT and not c["revealed"] and c["replaced_by"] is None:
            report.add(
                c["seq"], "commitment", f"{c['key']!r}, a secret of the game itself, was never revealed"
            )


def _commitment(
    report: Report,
    current: dict[str, dict[str, Any]],
    private: dict[str, tuple[int | None, Any, Any]],
    seq: int | None,
    row: Mapping[str, Any],
) -> None:
    try:
        c = read_core(row)
    except BadCoreEvent:
        c = None
    if (
        c is None
        or not isinstance(c.key, str)
        or not isinstance(c.commitment, str)
        or not isinstance(c.seat, int)
    ):
        report.add(seq, "commitment", "malformed commitment (needs seat, key, commitment)")
        return
    key, commitment = c.key, c.commitment
    old = current.get(key)
    if old is not None and not old["revealed"]:
        old["replaced_by"] = seq
    entry = {
        "seq": seq,
        "seat": c.seat,
        "key": key,
        "commitment": commitment,
        "revealed": False,
        "reveal_ok": None,
        "reveal_seq": None,
        "replaced_by": None,
        # a secret offer's commitment is private to its seats (the audit of a
        # running game lists only the public ones)
        "private": row.get("visible_to") is not None,
    }
    current[key] = entry
    report.commitments.append(entry)
    mine = private.pop(key, None)
    if mine is not None and (not isinstance(mine[2], str) or commitment_of(mine[2], mine[1]) != commitment):
        report.add(
            mine[0],
            "commitment",
            f"the private choice and salt of {key!r} do not match the public commitment at seq {seq}",
        )


def _reveal(
    report: Report, current: dict[str, dict[str, Any]], seq: int | None, item: Any, hidden: int = 0
) -> None:
    if not isinstance(item, dict) or not {"seat", "key", "choice", "salt"} <= set(item):
        report.add(seq, "commitment", "a reveal needs seat, key, choice and salt")
        return
    c = current.get(item["key"]) if isinstance(item["key"], str) else None
    if c is None and hidden:
        # a secret offer's commitment is private to its seats: in a redacted
        # export it is one of the redacted commitments, checked by whoever (or
        # once the game is over, everyone) holds the complete export
        report.notes.append(f"seq {seq}: reveal of {item['key']!r}, committed in a redacted line")
        return
    if c is None:
        report.add(seq, "commitment", f"reveal of {item['key']!r} which was never committed")
        return
    if c["revealed"]:
        report.add(seq, "commitment", f"{item['key']!r} revealed twice")
    good = (
        isinstance(item["salt"], str)
        and item["seat"] == c["seat"]
        and (commitment_of(item["salt"], item["choice"]) == c["commitment"])
    )
    c.update(revealed=True, reveal_ok=good, reveal_seq=seq)
    if not good:
        report.add(
            seq,
            "commitment",
            f"the revealed choice of {item['key']!r} does not match its commitment at seq {c['seq']}",
        )


def check_salts(rows: Sequence[Mapping[str, Any]], report: Report, salted_since: int = 1) -> None:
    """Every visible private event is salted, no salt repeats, and platform salts
    re-derive from the seed (when known). Problems name seqs, never salts.

    A game recorded under a rules version older than the ruleset's
    ``salted_since`` predates the salt rule: its engine events were legitimately
    written without salts, so a missing engine salt there is a note (the game's
    private content may be recoverable from its hashes), not a problem. A
    malformed or reused salt is a problem whatever the version."""
    legacy = isinstance(report.rules_version, int) and report.rules_version < salted_since
    first: dict[str, Any] = {}
    unsalted_legacy = 0
    for r in rows:
        vis, seq = r.get("visible_to"), r.get("seq")
        if vis is None or is_redacted(r):
            continue
        # Any: salt_problem(p) is None only for a dict holding a salt
        p: Any = r.get("payload")
        problem = salt_problem(p)
        if legacy and isinstance(p, dict) and "salt" not in p and not is_core(r.get("type")):
            unsalted_legacy += 1
            continue
        if problem is None and p["salt"] in first:
            problem = f"payload.salt repeats the salt of the private event at seq {first[p['salt']]}"
        if (
            problem is None
            and isinstance(report.seed, str)
            and is_core(r.get("type"))
            # a private commitment is the engine's event, salted from the decision's
            # stream like the engine's own; the replay re-derives that salt
            and r.get("type") != ChoiceCommitted.TYPE
            and isinstance(seq, int)
            and p["salt"] != platform_salt(report.stream_seed or report.seed, seq)
        ):
            problem = 'a private platform event\'s salt is not Rng(seed, seq, "core:salt").salt()'
        if problem is not None:
            report.add(seq, "salt", problem)
        elif isinstance(p, dict):
            first[p["salt"]] = seq
    if unsalted_legacy:
        report.notes.append(
            f"{unsalted_legacy} private engine events are unsalted: the game was recorded under "
            f"rules version {report.rules_version}, before the salt rule (version {salted_since})"
        )
    report.salts_ok = not any(pr.check == "salt" for pr in report.problems)
