"""Reading an export: its JSON lines, its platform events and the parts of a row the checks need.

An export (``GET /api/v1/games/{id}/export``) is one event object per line,
``{seq, type, version, payload, prev_hash, hash, ...}`` plus ``cause``,
``visible_to`` and ``actor`` where the exporter could see them. A redacted line
(another seat's private event in a running game) has no payload.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from games import core_events
from games.core_events import GameAborted, GameFinished, GameStarted, SeedRevealed

from .report import VerifyError

STARTED, FINISHED, ABORTED, SEED = GameStarted.TYPE, GameFinished.TYPE, GameAborted.TYPE, SeedRevealed.TYPE


def load_jsonl(path: str) -> list[dict[str, Any]]:
    """The lines of an export as dicts, or VerifyError naming the bad line."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise VerifyError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return parse_lines(text.splitlines())


def parse_lines(lines: Iterable[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
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
    # read checks the shapes itself (BadCoreEvent for a missing or ill-typed field)
    type_: Any = row.get("type")
    version: Any = row.get("version")
    payload: Any = row.get("payload")
    return core_events.read(type_, version, payload)


def payload_of(row: Mapping[str, Any]) -> dict[str, Any]:
    p = row.get("payload")
    return p if isinstance(p, dict) else {}


def is_redacted(row: Mapping[str, Any]) -> bool:
    return bool(row.get("redacted")) or "payload" not in row


def command_of(row: Mapping[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """(seat, command) when this row starts a batch caused by a command."""
    cause = row.get("cause")
    if (
        isinstance(cause, dict)
        and isinstance(cause.get("command"), dict)
        and isinstance(cause.get("seat"), int)
    ):
        return cause["seat"], cause["command"]
    return None
