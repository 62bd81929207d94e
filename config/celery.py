"""The Celery app. Broker: CELERY_BROKER_URL, else REDIS_URL, else kombu's
filesystem transport under var/ (the embedded default needs no server)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("sengoku")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Log context per task and heartbeats of the worker and beat (docs/deployment.md).
from config.logs import celery_signals  # noqa: E402
from ops.heartbeat import connect as _heartbeats  # noqa: E402

celery_signals()
_heartbeats()
