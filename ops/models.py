"""Operations tables: heartbeats of the background processes."""

from __future__ import annotations

from django.db import models


class Heartbeat(models.Model):
    """The last sign of life of one background process. `role` is `worker`
    (a Celery worker's main process, every HEARTBEAT_SECONDS) or `scheduler`
    (Celery beat, whenever it sends the deadline sweep). `/metrics` reports
    the age of the freshest row per role (ops/collectors.py); a supervisor
    of its own may write rows too through `ops.heartbeat.beat`."""

    role = models.CharField(max_length=20)
    name = models.CharField(max_length=200)  # celery hostname, or host:pid
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["role", "name"], name="heartbeat_role_name_unique")]

    def __str__(self) -> str:
        return f"{self.role} {self.name} at {self.at:%Y-%m-%d %H:%M:%S}"
