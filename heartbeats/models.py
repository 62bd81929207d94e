from django.db import models


class Heartbeat(models.Model):
    """The last sign of life of one background process (one row per node name)."""

    class Role(models.TextChoices):
        WORKER = "worker"
        SCHEDULER = "scheduler"

    node = models.CharField(max_length=200, primary_key=True)  # "celery@host", "beat@host"
    role = models.CharField(max_length=10, choices=Role.choices)
    pid = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField()
    beat_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.node} ({self.role}) at {self.beat_at:%H:%M:%S}"
