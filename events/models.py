"""Append-only event streams (one per game) and snapshots of folded state.

Nothing here is ever updated or deleted: `StoredEvent.save` refuses updates and
`delete` refuses always (SQLite); on PostgreSQL a trigger (migration 0002)
refuses UPDATE and DELETE at the database itself.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.db import models


class AppendOnlyError(RuntimeError):
    pass


class StoredEventQuerySet(models.QuerySet["StoredEvent"]):
    def update(self, **kwargs: Any) -> NoReturn:  # noqa: ARG002 - refused whatever the arguments
        raise AppendOnlyError("events are append-only: no UPDATE")

    def delete(self) -> NoReturn:
        raise AppendOnlyError("events are append-only: no DELETE")


class StoredEvent(models.Model):
    stream = models.UUIDField(db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=80)
    version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    # Who caused it: {"seat": 2} / {"user": 7} / {"system": "deadline"}; null for follow-up events.
    actor = models.JSONField(null=True)
    # The command that produced this batch (first event of a batch only), so the
    # standalone verifier can re-run the engine; shown under the same visibility.
    cause = models.JSONField(null=True)
    # null = public; a list of seat indices = private to them (until the game ends).
    visible_to = models.JSONField(null=True)
    recorded_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    objects = StoredEventQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["stream", "seq"], name="event_stream_seq_unique")]
        ordering = ["stream", "seq"]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("events are append-only: no UPDATE")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("events are append-only: no DELETE")

    def __repr__(self) -> str:
        return f"<StoredEvent {self.stream}#{self.seq} {self.type}>"


class Snapshot(models.Model):
    """Folded engine state at `version`, pickled. A cache: it can always be rebuilt
    from the events, and a test proves loading from it equals a full replay."""

    stream = models.UUIDField()
    version = models.PositiveIntegerField()
    rules_version = models.PositiveIntegerField()
    state = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stream", "version", "rules_version"], name="snapshot_unique")
        ]
        indexes = [models.Index(fields=["stream", "-version"])]
