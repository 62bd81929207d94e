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
