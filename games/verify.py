"""The standalone verifier: audit an exported game without Django or a database.

    python -m games.verify GAME.jsonl [--ruleset-module tests.support.toy:RULES] [--json]

Input is a game's JSON Lines export (``GET /api/v1/games/{id}/export``): one
event object per line, ``{seq, type, version, payload, prev_hash, hash, ...}``
plus ``cause``/``visible_to``/``actor`` where the exporter could see them.
Checks, each reported separately (see docs/audit.md for the exact rules):

1. **chain** — every link and hash: ``hash = sha256_hex(prev_hash +
   canonical_json({seq, type, version, payload}))``, genesis = 64 zeros.
   Redacted lines (another seat's private event in a running game's export)
   can only be checked for their links.
2. **seed** — ``sha256_hex(seed) == core.GameStarted.seed_commitment`` once a
   ``core.SeedRevealed`` event publishes the seed; nothing may follow it.
3. **commitments** — every ``core.ChoiceCommitted`` against the private event
   carrying its choice and salt, and every item of every ``payload["reveals"]``
   against the latest commitment of its key (a re-commit replaces the earlier);
   a finished game has revealed every commitment of the game itself (seat -1).
4. **salts** — every event private to some seats carries ``payload.salt``
   (32 lowercase hex characters), no two private events share a salt, and a
   private platform (``core.*``) event's salt is ``Rng(seed, seq,
   "core:salt").salt()`` once the seed is known (an engine's salts, and those
   of the private ``core.ChoiceCommitted`` of a secret offer, which the engine
   emits, are checked by the replay, which re-derives them).
5. **replay** — with the revealed seed: faction draw and ``rules.start`` for
   the setup batch, then ``rules.decide(state, seat, command,
   rng_factory(seed, first_seq))`` for every recorded command (``cause``),
   comparing type, version, payload and visibility with the recorded batch,
   and folding the recorded events (skipping batches undone by
   ``core.TakebackAccepted``); finally ``rules.outcome`` against
   ``core.GameFinished``.

Exit status: 0 when every check that could run passed, 1 on any mismatch,
2 when the file cannot be read or its ruleset is unknown.

Imports only the standard library, ``games.rules.*`` and ``events.codec``
(which itself imports only ``games.rules.base``): never Django.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from events.codec import GENESIS_HASH, Upcasters, chain_hash, platform_salt, salt_problem, upcast
from games import core_events
from games.core_events import (
    REDACTED_TYPE,
    BadCoreEvent,
    ChoiceCommitted,
    GameAborted,
    GameFinished,
    GameStarted,
    SeedRevealed,
    TakebackAccepted,
    is_core,
)
from games.rules import registry
from games.rules.base import (
    GAME_SEAT,
    Event,
    Rng,
    RulesError,
    Ruleset,
    canonical_json,
    commitment_of,
    rng_factory,
    sha256_hex,
)

STARTED, FINISHED, ABORTED, SEED = GameStarted.TYPE, GameFinished.TYPE, GameAborted.TYPE, SeedRevealed.TYPE
FACTIONS_PURPOSE = "core:factions"


class VerifyError(Exception):
    """The input cannot be verified at all (unreadable file, unknown ruleset)."""


@dataclass(frozen=True)
class Problem:
    seq: int | None
    check: str  # chain | seed | commitment | salt | replay | format
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
    commitments: list[dict] = field(default_factory=list)
    reveals_ok: bool = True
    salts_ok: bool = True
    replayed: bool | None = None  # None: replay could not run (see notes)
    batches: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, seq: int | None, check: str, detail: str) -> None:
        self.problems.append(Problem(seq, check, detail))

    def as_json(self) -> dict:
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
            "commitments": self.commitments,
            "reveals_ok": self.reveals_ok,
            "salts_ok": self.salts_ok,
            "replayed": self.replayed,
            "batches": self.batches,
            "problems": [vars(p) for p in self.problems],
            "notes": self.notes,
        }


# ---------------------------------------------------------------------------
# Reading


def load_jsonl(path: str) -> list[dict]:
    """The lines of an export as dicts, or VerifyError naming the bad line."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise VerifyError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return parse_lines(text.splitlines())


def parse_lines(lines: Iterable[str]) -> list[dict]:
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise VerifyError(f"line {n} is not JSON: {exc.msg}") from exc
        if not isinstance(row, dict):
            raise VerifyError(f"line {n} is not a JSON object")
        rows.append(row)
    if not rows:
        raise VerifyError("the file holds no events")
    return rows


def read_core(row: Mapping[str, Any]) -> Any:
    """The typed platform event (games.core_events) of an exported row;
    BadCoreEvent when it does not fit its type."""
    return core_events.read(row.get("type"), row.get("version"), row.get("payload"))


def _payload(row: Mapping[str, Any]) -> dict:
    p = row.get("payload")
    return p if isinstance(p, dict) else {}


def is_redacted(row: Mapping[str, Any]) -> bool:
    return bool(row.get("redacted")) or "payload" not in row


def _command_of(row: Mapping[str, Any]) -> tuple[int, dict] | None:
    """(seat, command) when this row starts a batch caused by a command."""
    cause = row.get("cause")
    if (
        isinstance(cause, dict)
        and isinstance(cause.get("command"), dict)
        and isinstance(cause.get("seat"), int)
    ):
        return cause["seat"], cause["command"]
    return None


# ---------------------------------------------------------------------------
# 1. Chain


def check_chain(rows: list[Mapping[str, Any]], report: Report) -> None:
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


# ---------------------------------------------------------------------------
# 2. Seed


def check_seed(rows: list[Mapping[str, Any]], report: Report, seed: str | None = None) -> None:
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


def _check_revealed(rows: list[Mapping[str, Any]], r: Mapping[str, Any], report: Report) -> None:
    """The seed is revealed last, and only once the game ended or was aborted."""
    try:
        report.seed = read_core(r).seed
    except BadCoreEvent as exc:
        report.add(r.get("seq"), "format", str(exc))
    if r is not rows[-1]:
        report.add(r.get("seq"), "seed", "events were recorded after the seed was revealed")
    if not any(x.get("type") in (FINISHED, ABORTED) for x in rows[:-1]):
        report.add(r.get("seq"), "seed", "the seed was revealed before the game ended or was aborted")


# ---------------------------------------------------------------------------
# 3. Commitments


def check_commitments(rows: list[Mapping[str, Any]], report: Report) -> None:
    current: dict[str, dict] = {}
    private: dict[str, tuple[int, Any, Any]] = {}  # key -> (seq, choice, salt) of the latest private event
    hidden = 0  # commitments in redacted lines (another seat's secret offer, in a running game's export)
    for r in rows:
        seq, p = r.get("seq"), _payload(r)
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


def _game_secrets_revealed(rows: list[Mapping[str, Any]], report: Report) -> None:
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


def _commitment(report: Report, current: dict, private: dict, seq: int, row: Mapping[str, Any]) -> None:
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


def _reveal(report: Report, current: dict, seq: int, item: Any, hidden: int = 0) -> None:
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


# ---------------------------------------------------------------------------
# 4. Salts: a private event's hash is public, so its payload needs 128 secret bits.


def check_salts(rows: list[Mapping[str, Any]], report: Report, salted_since: int = 1) -> None:
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
        p = r.get("payload")
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
            and p["salt"] != platform_salt(report.seed, seq)
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


# ---------------------------------------------------------------------------
# 5. Replay: re-derive setup and re-decide every batch.


def engine_for(rules: Ruleset, rules_version: Any) -> Ruleset:
    """The engine that plays games started under `rules_version`: a ruleset that
    changed behaviour keeps the old one reachable through `for_rules_version(v)`."""
    pick = getattr(rules, "for_rules_version", None)
    if pick is not None and isinstance(rules_version, int):
        return pick(rules_version)
    return rules


def _norm_new(e: Event) -> dict:
    return {
        "type": e.type,
        "version": e.version,
        "payload": json.loads(canonical_json(dict(e.payload))),
        "visible_to": None if e.visible_to is None else sorted(e.visible_to),
    }


def rules_upcasters(rules: Ruleset) -> Upcasters:
    """The ruleset's `upcasters` (a member of games.rules.base.Ruleset)."""
    return rules.upcasters


def _engine_event(row: Mapping[str, Any], rules: Ruleset) -> Event:
    version, payload = upcast(row["type"], row["version"], dict(row["payload"]), rules_upcasters(rules))
    vis = row.get("visible_to")
    return Event(row["type"], payload, version, None if vis is None else tuple(vis))


def _norm_row(row: Mapping[str, Any], rules: Ruleset) -> dict:
    e = _engine_event(row, rules)
    return {
        "type": e.type,
        "version": e.version,
        "payload": e.payload,
        "visible_to": None if e.visible_to is None else sorted(e.visible_to),
    }


def _difference(want: dict, got: dict) -> str:
    for k in ("type", "version", "visible_to", "payload"):
        if want[k] != got[k]:
            path, w, g = _first_diff(want[k], got[k], k)
            return f"{path}: engine {_short(w)}, recorded {_short(g)}"
    return "identical"


def _first_diff(w: Any, g: Any, path: str) -> tuple[str, Any, Any]:
    """The deepest path where two JSON values part, e.g. payload.queue[2].what."""
    if isinstance(w, dict) and isinstance(g, dict):
        for k in sorted(set(w) | set(g), key=str):
            if w.get(k, _MISSING) != g.get(k, _MISSING):
                if k in w and k in g:
                    return _first_diff(w[k], g[k], f"{path}.{k}")
                return f"{path}.{k}", w.get(k, "(absent)"), g.get(k, "(absent)")
    if isinstance(w, list) and isinstance(g, list) and len(w) == len(g):
        for i, (a, b) in enumerate(zip(w, g, strict=True)):
            if a != b:
                return _first_diff(a, b, f"{path}[{i}]")
    return path, w, g


_MISSING = object()


def _short(v: Any) -> str:
    s = canonical_json(v)
    return s if len(s) <= 80 else s[:77] + "..."


def expected_factions(rules: Ruleset, players: int, options: Mapping, chosen: list, seed: str) -> list:
    """The platform's faction draw (lobby.start): free factions shuffled with
    Rng(seed, 1, "core:factions") and handed out in seat order."""
    allowed = list(rules.factions(players, options))
    free = Rng(seed, 1, FACTIONS_PURPOSE).shuffled([f for f in allowed if f not in {c for c in chosen if c}])
    return [c or free.pop(0) for c in chosen]


class _Diverged(Exception):
    def __init__(self, seq: int | None, detail: str):
        super().__init__(detail)
        self.seq, self.detail = seq, detail


def replay(
    rows: list[Mapping[str, Any]],
    rules: Ruleset,
    seed: str,
    report: Report,
    on_state: Callable[[int, Any], None] | None = None,
) -> Any:
    """Re-derive and re-decide everything; returns the final engine state (or None).
    `on_state(seq, state)` sees the folded engine state after every event."""
    current = getattr(rules, "rules_version", None)
    if report.rules_version != current:
        report.notes.append(
            f"recorded under rules version {report.rules_version}, the engine is at {current}"
            + (" (it keeps old versions)" if hasattr(rules, "for_rules_version") else "")
        )
    try:
        state = _replay(rows, engine_for(rules, report.rules_version), seed, report, on_state or _nothing)
    except _Diverged as exc:
        report.replayed = False
        report.add(exc.seq, "replay", exc.detail)
        return None
    report.replayed = True
    return state


def _compare_batch(rows: list, at: int, produced: list[Event], rules: Ruleset, what: str) -> None:
    for j, e in enumerate(produced):
        if at + j >= len(rows):
            raise _Diverged(
                None, f"{what}: the engine produces {len(produced)} events, the log ends after {j}"
            )
        row = rows[at + j]
        want, got = _norm_new(e), _norm_row(row, rules)
        if want != got:
            raise _Diverged(
                row["seq"], f"{what}: event {j + 1} of the batch differs — {_difference(want, got)}"
            )
    nxt = rows[at + len(produced)] if at + len(produced) < len(rows) else None
    if nxt is not None and not is_core(nxt["type"]) and _command_of(nxt) is None:
        raise _Diverged(
            nxt["seq"], f"{what}: the log has more engine events than the engine produces ({len(produced)})"
        )


def _nothing(seq: int, state: Any) -> None:
    return None


def _replay(rows: list, rules: Ruleset, seed: str, report: Report, on_state: Callable) -> Any:
    setup = _setup(rows, rules, seed, report)
    state = rules.initial_state()
    before: tuple[int, Any] | None = None  # (first seq, state before) of the latest batch
    finished: dict | None = None
    i = 1
    while i < len(rows):
        row = rows[i]
        cmd = _command_of(row)
        if i > len(setup) and cmd is not None:
            before = (row["seq"], state)
            state, i = _replay_batch(rows, i, rules, state, cmd, seed, on_state)
            report.batches += 1
            continue
        if row["type"] == TakebackAccepted.TYPE:
            state = _undo(row, before, state, rows)
            before = None
        elif row["type"] == FINISHED:
            finished = _outcome_of(row)
        elif i > len(setup) and (not is_core(row["type"]) or row["type"] == ChoiceCommitted.TYPE):
            raise _Diverged(row["seq"], f"{row['type']} has no recorded command that produced it")
        elif not is_core(row["type"]):
            state = rules.evolve(state, _engine_event(row, rules))
        on_state(row["seq"], state)
        i += 1
    _check_outcome(rules, state, finished, rows)
    return state


def _setup(rows: list, rules: Ruleset, seed: str, report: Report) -> list[Event]:
    """Re-derive the faction draw and the engine's setup from core.GameStarted and
    the seed; the setup events must be the ones recorded after it."""
    try:
        started = read_core(rows[0])
    except BadCoreEvent as exc:
        raise _Diverged(1, str(exc)) from exc
    factions, options = list(started.factions), started.options
    chosen = list(started.chosen_factions)
    if len(chosen) == len(factions):
        want = expected_factions(rules, len(factions), options, chosen, seed)
        if want != factions:
            raise _Diverged(1, f"faction draw: the seed gives {want}, recorded {factions}")
    else:
        report.notes.append("chosen_factions and factions differ in length: faction draw not re-derived")
    try:
        setup = rules.start(factions, options, rng_factory(seed, 1))
    except RulesError as exc:
        raise _Diverged(1, f"setup refused by the engine: {exc.reason}") from exc
    _compare_batch(rows, 1, setup, rules, "setup")
    return setup


def _replay_batch(
    rows: list, i: int, rules: Ruleset, state: Any, cmd: tuple[int, dict], seed: str, on_state: Callable
) -> tuple[Any, int]:
    """Re-decide the command that starts the batch at rows[i] and compare it with
    the recorded events; returns the state after the batch and the next index."""
    produced = _decide(rules, state, cmd, seed, rows[i]["seq"])
    _compare_batch(rows, i, produced, rules, f"command {canonical_json(cmd[1])[:60]} of seat {cmd[0]}")
    for e in produced:
        state = state if is_core(e.type) else rules.evolve(state, _engine_event(rows[i], rules))
        on_state(rows[i]["seq"], state)
        i += 1
    return state, i


def _decide(rules: Ruleset, state: Any, cmd: tuple[int, dict], seed: str, seq: int) -> list[Event]:
    try:
        return list(rules.decide(state, cmd[0], cmd[1], rng_factory(seed, seq)))
    except RulesError as exc:
        raise _Diverged(
            seq, f"the engine refuses the recorded command of seat {cmd[0]}: {exc.reason}"
        ) from exc
    except Exception as exc:  # an engine crash on a recorded command is a divergence, not a verifier crash
        raise _Diverged(
            seq, f"the engine fails on the recorded command of seat {cmd[0]}: {type(exc).__name__}: {exc}"
        ) from exc


def _undo(row: Mapping[str, Any], before: tuple[int, Any] | None, state: Any, rows: list) -> Any:
    """A takeback restores the state before the latest batch, which must hold no reveal
    and no event private to another seat than its author (docs/audit.md)."""
    try:
        accepted = read_core(row)
    except BadCoreEvent as exc:
        raise _Diverged(row["seq"], str(exc)) from exc
    frm, to, seat = accepted.undo_from_seq, accepted.undo_to_seq, accepted.seat
    if before is None or before[0] != frm or not isinstance(to, int):
        raise _Diverged(row["seq"], f"takeback of seq {frm}, which is not the latest command's batch")
    for r in rows[frm - 1 : to]:
        vis = r.get("visible_to")
        if _payload(r).get("reveals") or (vis is not None and seat not in vis):
            raise _Diverged(row["seq"], f"takeback undoes seq {r['seq']}, which revealed something to others")
    return before[1]


def _outcome_of(row: Mapping[str, Any]) -> dict:
    try:
        return read_core(row).outcome.as_json()
    except BadCoreEvent as exc:
        raise _Diverged(row["seq"], str(exc)) from exc


def _check_outcome(rules: Ruleset, state: Any, finished: dict | None, rows: list) -> None:
    out = rules.outcome(state)
    ended = [r for r in rows if r["type"] == FINISHED]
    if out is None:
        if ended:
            raise _Diverged(
                ended[0]["seq"], "core.GameFinished recorded, but the engine says the game goes on"
            )
        return
    mine = {
        "winners": list(out.winners),
        "scores": {str(k): v for k, v in out.scores.items()},
        "reason": out.reason,
    }
    if not ended and not any(r["type"] == ABORTED for r in rows):
        raise _Diverged(None, "the engine says the game is over, but no core.GameFinished was recorded")
    if ended and json.loads(canonical_json(mine)) != finished:
        raise _Diverged(
            ended[0]["seq"], f"outcome differs — engine {_short(mine)}, recorded {_short(finished)}"
        )


# ---------------------------------------------------------------------------
# Everything together


def verify(
    rows: list[Mapping[str, Any]],
    rules: Ruleset | None = None,
    seed: str | None = None,
    deep: bool = True,
    on_state: Callable[[int, Any], None] | None = None,
) -> Report:
    """Run every check that the rows allow. `rules` defaults to the registry's
    engine for core.GameStarted's ruleset; `seed` may be given for a running
    game by whoever holds it (the server)."""
    report = Report(events=len(rows))
    check_chain(rows, report)
    check_seed(rows, report, seed)
    check_commitments(rows, report)
    known = (
        rules
        if rules is not None
        else (registry.get(report.ruleset) if isinstance(report.ruleset, str) else None)
    )
    check_salts(rows, report, getattr(known, "salted_since", 1))
    if not deep or report.problems and any(p.check == "format" for p in report.problems):
        return report
    if any(is_redacted(r) for r in rows):
        report.notes.append("redacted events: replay needs the full export of a finished game")
        return report
    if not report.seed_ok:
        return report
    if rules is None:
        rules = registry.get(report.ruleset) if isinstance(report.ruleset, str) else None
        if rules is None:
            raise VerifyError(
                f"ruleset {report.ruleset!r} is not available here "
                f"(known: {registry.available()}; add one with --ruleset-module)"
            )
    try:
        replay(rows, rules, report.seed, report, on_state)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        report.replayed = False
        report.add(None, "format", f"malformed event during replay: {type(exc).__name__}: {exc}")
    except Exception as exc:  # an engine crash on a recorded history is a finding, not a verifier crash
        report.replayed = False
        report.add(None, "replay", f"the engine failed while replaying: {type(exc).__name__}: {exc}")
    return report


def format_report(report: Report, name: str = "") -> str:
    def mark(ok: bool | None) -> str:
        return "ok" if ok else ("not checked" if ok is None else "FAILED")

    lines = [
        f"Sengoku audit of {name or 'game'}: {report.events} events, ruleset {report.ruleset} "
        f"(rules version {report.rules_version})",
        f"  chain        {mark(report.chain_ok)}  head {report.chain_head}",
        f"  seed         {mark(report.seed_ok)}  commitment {report.seed_commitment}",
        f"  commitments  {mark(report.reveals_ok)}  {len(report.commitments)} committed, "
        f"{sum(c['revealed'] for c in report.commitments)} revealed",
        f"  salts        {mark(report.salts_ok)}  every visible private event salted, no salt reused",
        f"  replay       {mark(report.replayed)}  {report.batches} command batches re-decided",
    ]
    lines += [f"  note: {n}" for n in report.notes]
    lines += [f"  PROBLEM {p}" for p in report.problems]
    lines.append("VERIFIED" if report.ok else f"NOT VERIFIED: {len(report.problems)} problem(s)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.verify", description=__doc__.split("\n\n")[0])
    ap.add_argument("file", help="a game's JSON Lines export")
    ap.add_argument(
        "--ruleset-module",
        action="append",
        default=[],
        metavar="MODULE:ATTR",
        help="register an extra engine object, e.g. tests.support.toy:RULES (repeatable)",
    )
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--shallow", action="store_true", help="chain, seed and commitments only (no replay)")
    args = ap.parse_args(argv)
    try:
        for target in args.ruleset_module:
            register_module(target)
        rows = load_jsonl(args.file)
        report = verify(rows, deep=not args.shallow)
    except VerifyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report.as_json(), indent=2) if args.json else format_report(report, args.file))
    return 0 if report.ok else 1


def register_module(target: str) -> None:
    """Register the engine object at MODULE:ATTR under its own `id`."""
    module, _, attr = target.partition(":")
    if not module or not attr:
        raise VerifyError(f"--ruleset-module wants MODULE:ATTR, not {target!r}")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise VerifyError(f"cannot load {target}: {exc}") from exc
    registry.register(obj.id, target)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
