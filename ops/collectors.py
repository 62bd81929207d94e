"""Metrics read from the database at scrape time (so they are right whichever
process changed the data): games by ruleset and status, the after-commit
backlog, heartbeat ages and the broker queue length."""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.db.models import Count, F, Max, Q
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from games.models import Game, SweeperState
from heartbeats.models import Heartbeat

log = logging.getLogger(__name__)
ROLES = ("worker", "scheduler")


class DatabaseCollector:
    def describe(self):
        return []

    def collect(self):
        games = GaugeMetricFamily(
            "sengoku_games", "Games by ruleset and status", labels=["ruleset", "status"]
        )
        for row in (
            Game.objects.values("ruleset", "status").annotate(n=Count("id")).order_by("ruleset", "status")
        ):
            games.add_metric([row["ruleset"], row["status"]], row["n"])
        yield games

        # Commits whose after-commit work (deadline sync, notifications) has not
        # run yet: the sweep's catch-up repairs them; a growing value means the
        # worker (or the inline hooks) cannot keep up or keeps failing.
        lagging = (
            Game.objects.exclude(status=Game.Status.OPEN)
            .filter(
                Q(pbem_cursor__isnull=True)
                | Q(pbem_cursor__synced_version__lt=F("version"))
                | Q(pbem_cursor__notified_version__lt=F("version"))
            )
            .count()
        )
        yield GaugeMetricFamily(
            "sengoku_after_commit_queue_depth",
            "Games whose latest commit still awaits its after-commit work",
            value=lagging,
        )

        now = timezone.now()
        ages = GaugeMetricFamily(
            "sengoku_heartbeat_age_seconds",
            "Seconds since the freshest heartbeat of each background component (+Inf: never seen)",
            labels=["component"],
        )
        latest = dict(Heartbeat.objects.values("role").annotate(at=Max("beat_at")).values_list("role", "at"))
        sweep = SweeperState.objects.filter(id=1).values_list("last_run_at", flat=True).first()
        for role, at in [*((r, latest.get(r)) for r in ROLES), ("sweeper", sweep)]:
            ages.add_metric([role], max(0.0, (now - at).total_seconds()) if at else float("inf"))
        yield ages

        depth = _broker_queue_length()
        if depth is not None:
            yield GaugeMetricFamily(
                "sengoku_celery_queue_length", "Messages waiting in the Celery queue", value=depth
            )


def _broker_queue_length() -> int | None:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return None
    try:
        return int(redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1).llen("celery"))
    except Exception:
        log.debug("broker queue length unavailable", exc_info=True)
        return None
