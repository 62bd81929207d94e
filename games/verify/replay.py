"""Check 5, the replay: re-derive the setup and re-decide every recorded command.

With the revealed seed: the faction draw and ``rules.start`` for the setup
batch, then ``rules.decide(state, seat, command, rng_factory(seed, first_seq))``
for every recorded command (``cause``), comparing type, version, payload and
visibility with the recorded batch, and folding the recorded events through
the fold the services use (games/rules/replay.py: a ``core.TakebackAccepted``
puts back the state before the undone batch); finally ``rules.outcome``
against ``core.GameFinished``. The engine is the one of the export's rules
version (games.rules.registry.engine_for).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from events.codec import upcast
from games.core_events import BadCoreEvent, ChoiceCommitted, TakebackAccepted, is_core
from games.rules import registry
from games.rules.base import Event, Rng, RulesError, Ruleset, canonical_json, rng_factory
from games.rules.replay import Fold, Step

from .reading import ABORTED, FINISHED, command_of, payload_of, read_core
from .report import Report

FACTIONS_PURPOSE = "core:factions"


def _norm_new(e: Event) -> dict[str, Any]:
    return {
        "type": e.type,
        "version": e.version,
        "payload": json.loads(canonical_json(dict(e.payload))),
        "visible_to": None if e.visible_to is None else sorted(e.visible_to),
    }


def _engine_event(row: Mapping[str, Any], rules: Ruleset) -> Event:
    version, payload = upcast(
        row["type"], row["version"], dict(row["payload"]), registry.rules_upcasters(rules)
    )
    vis = row.get("visible_to")
    return Event(row["type"], payload, version, None if vis is None else tuple(vis))


def _norm_row(row: Mapping[str, Any], rules: Ruleset) -> dict[str, Any]:
    e = _engine_event(row, rules)
    return {
        "type": e.type,
        "version": e.version,
        "payload": e.payload,
        "visible_to": None if e.visible_to is None else sorted(e.visible_to),
    }


def _difference(want: dict[str, Any], got: dict[str, Any]) -> str:
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


def expected_factions(
    rules: Ruleset, players: int, options: Mapping[str, Any], chosen: list[Any], seed: str
) -> list[Any]:
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
    rows: Sequence[Mapping[str, Any]],
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
        state = _replay(
            rows, registry.engine_for(rules, report.rules_version), seed, report, on_state or _nothing
        )
    except _Diverged as exc:
        report.replayed = False
        report.add(exc.seq, "replay", exc.detail)
        return None
    report.replayed = True
    return state


def _compare_batch(
    rows: Sequence[Mapping[str, Any]], at: int, produced: list[Event], rules: Ruleset, what: str
) -> None:
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
    if nxt is not None and not is_core(nxt["type"]) and command_of(nxt) is None:
        raise _Diverged(
            nxt["seq"], f"{what}: the log has more engine events than the engine produces ({len(produced)})"
        )


def _nothing(seq: int, state: Any) -> None:
    return None


def _replay(
    rows: Sequence[Mapping[str, Any]],
    rules: Ruleset,
    seed: str,
    report: Report,
    on_state: Callable[[int, Any], None],
) -> Any:
    setup = _setup(rows, rules, seed, report)
    fold = Fold.start(rules)
    finished: dict[str, Any] | None = None
    i = 1
    while i < len(rows):
        row = rows[i]
        cmd = command_of(row)
        if i > len(setup) and cmd is not None:
            fold.step(Step(row["seq"], starts_batch=True))
            i = _replay_batch(rows, i, fold, cmd, seed, on_state)
            report.batches += 1
            continue
        if row["type"] == TakebackAccepted.TYPE:
            _undo(row, fold, rows)
        elif row["type"] == FINISHED:
            finished = _outcome_of(row)
        elif i > len(setup) and (not is_core(row["type"]) or row["type"] == ChoiceCommitted.TYPE):
            raise _Diverged(row["seq"], f"{row['type']} has no recorded command that produced it")
        elif not is_core(row["type"]):
            fold.step(Step(row["seq"], _engine_event(row, rules)))
        on_state(row["seq"], fold.state)
        i += 1
    _check_outcome(rules, fold.state, finished, rows)
    return fold.state


def _setup(rows: Sequence[Mapping[str, Any]], rules: Ruleset, seed: str, report: Report) -> list[Event]:
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
    rows: Sequence[Mapping[str, Any]],
    i: int,
    fold: Fold,
    cmd: tuple[int, dict[str, Any]],
    seed: str,
    on_state: Callable[[int, Any], None],
) -> int:
    """Re-decide the command that starts the batch at rows[i], compare it with the
    recorded events and fold them (the batch's start is already marked in `fold`);
    returns the index after the batch."""
    rules = fold.rules
    produced = _decide(rules, fold.state, cmd, seed, rows[i]["seq"])
    _compare_batch(rows, i, produced, rules, f"command {canonical_json(cmd[1])[:60]} of seat {cmd[0]}")
    for e in produced:
        if not is_core(e.type):
            fold.state = rules.evolve(fold.state, _engine_event(rows[i], rules))
        on_state(rows[i]["seq"], fold.state)
        i += 1
    return i


def _decide(rules: Ruleset, state: Any, cmd: tuple[int, dict[str, Any]], seed: str, seq: int) -> list[Event]:
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


def _undo(row: Mapping[str, Any], fold: Fold, rows: Sequence[Mapping[str, Any]]) -> None:
    """A takeback restores the state before the latest batch, which must hold no reveal
    and no event private to another seat than its author (docs/audit.md)."""
    try:
        accepted = read_core(row)
    except BadCoreEvent as exc:
        raise _Diverged(row["seq"], str(exc)) from exc
    frm, to, seat = accepted.undo_from_seq, accepted.undo_to_seq, accepted.seat
    # the verifier folds the whole log, so a batch it has not seen is a forged takeback
    if fold.step(Step(row["seq"], undoes_from=frm)) is not None or not isinstance(to, int):
        raise _Diverged(row["seq"], f"takeback of seq {frm}, which is not the latest command's batch")
    for r in rows[frm - 1 : to]:
        vis = r.get("visible_to")
        if payload_of(r).get("reveals") or (vis is not None and seat not in vis):
            raise _Diverged(row["seq"], f"takeback undoes seq {r['seq']}, which revealed something to others")


def _outcome_of(row: Mapping[str, Any]) -> dict[str, Any]:
    try:
        outcome: dict[str, Any] = read_core(row).outcome.as_json()
        return outcome
    except BadCoreEvent as exc:
        raise _Diverged(row["seq"], str(exc)) from exc


def _check_outcome(
    rules: Ruleset, state: Any, finished: dict[str, Any] | None, rows: Sequence[Mapping[str, Any]]
) -> None:
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
