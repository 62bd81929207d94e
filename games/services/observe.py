"""Metrics and log context for the game services, as one-line calls (so the
services stay about games): `with observe.command(...)` around `play.apply`,
`events_committed` from the after-commit hook, `deadline_fired` from the
sweeper, `notification` from delivery. Counting happens on commit where a
rollback could otherwise count what never happened."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import structlog
from django.db import transaction
from django.utils import timezone

from telemetry import metrics

from .errors import Conflict, Invalid, Unprocessable

log = structlog.get_logger("sengoku.games")


@contextlib.contextmanager
def command(game: Any, seat: Any, command: Mapping[str, Any] | Any) -> Iterator[None]:
    """Around one `play.apply`: bind game id, seat and command type for every log
    line inside, and count a refusal per ruleset (`accepted` counts the success)."""
    ctype = command.get("type") if isinstance(command, Mapping) else None
    ctx = {
        "game_id": str(game.id),
        "seat": getattr(seat, "index", None),
        "command_type": str(ctype)[:80] if ctype is not None else None,
    }
    with structlog.contextvars.bound_contextvars(**ctx):
        try:
            yield
        except Conflict as exc:
            _count(game.ruleset, "conflict", exc)
            raise
        except (Invalid, Unprocessable) as exc:
            _count(game.ruleset, "illegal", exc)
            raise


def accepted(game: Any, rows: Sequence[Any]) -> None:
    """Count an accepted command (inside `command`, so the log line carries its context)."""
    _count(
        game.ruleset,
        "accepted",
        None,
        version=rows[-1].seq if rows else None,
        events=[row.type for row in rows],
    )


def _count(ruleset: str, outcome: str, exc: Exception | None, **fields: Any) -> None:
    metrics.commands.labels(ruleset, outcome).inc()
    if exc is not None:
        fields["code"] = getattr(exc, "code", type(exc).__name__)
    log.info("command " + outcome, outcome=outcome, ruleset=ruleset, **fields)


def events_committed(game: Any, rows: Sequence[Any]) -> None:
    """Count a commit's events once its transaction commits."""
    ruleset, count = game.ruleset, len(rows)
    transaction.on_commit(lambda: metrics.events_appended.labels(ruleset).inc(count))


def deadline_fired(deadline: Any) -> None:
    """Log a fired deadline; count it and its lateness once the firing commits."""
    due = deadline.due_at

    def _count() -> None:
        metrics.deadlines_fired.inc()
        if due is not None:
            metrics.deadline_lateness.observe(max(0.0, (timezone.now() - due).total_seconds()))

    log.info("deadline fired", game_id=str(deadline.game_id), seat=deadline.seat, decision=deadline.kind)
    transaction.on_commit(_count)


def notification(channel: str, outcome: str, n: int = 1) -> None:
    """outcome: sent, failed, skipped or retry (a failed attempt that will be retried)."""
    if n:
        metrics.notifications.labels(str(channel), "retry" if outcome == "pending" else str(outcome)).inc(n)
