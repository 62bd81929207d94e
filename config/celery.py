"""The Celery app. Broker: CELERY_BROKER_URL, else REDIS_URL, else kombu's
SQLAlchemy transport on a SQLite file under var/ (config/broker.py; the
embedded default needs no server)."""

import os

from celery import Celery

from . import broker  # noqa: F401  (registers the embedded transport's alias)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("sengoku")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Log context per task and the worker's metrics exporter (docs/deployment.md);
# heartbeats are connected by the heartbeats app (heartbeats/apps.py).
from ops.worker_exporter import connect as _worker_exporter  # noqa: E402
from telemetry.logs import celery_signals  # noqa: E402

celery_signals()
_worker_exporter()
