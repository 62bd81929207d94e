"""Container and Kubernetes probes (no curl in slim images).

    python docker/healthcheck.py web        GET /api/v1/health?probe=live answers 2xx
    python docker/healthcheck.py ready      GET /api/v1/health?probe=ready answers 2xx (database, broker)
    python docker/healthcheck.py full       GET /api/v1/health answers 2xx (also the worker's and beat's heartbeats)
    python docker/healthcheck.py worker     this pod's Celery worker wrote a heartbeat recently
    python docker/healthcheck.py scheduler  this pod's beat wrote a heartbeat recently

The heartbeat checks read the same rows /health reads (heartbeats app)."""

import os
import socket
import sys
import urllib.request


def http(path: str) -> int:
    url = f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/api/v1/health{path}"
    try:
        with urllib.request.urlopen(url, timeout=4) as response:  # noqa: S310 - fixed loopback URL
            return 0 if 200 <= response.status < 300 else 1
    except Exception as exc:  # any failure means unhealthy
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


def heartbeat(role: str) -> int:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from datetime import timedelta

    from django.conf import settings
    from django.utils import timezone

    from heartbeats.models import Heartbeat

    fresh = timezone.now() - timedelta(seconds=settings.HEARTBEAT_STALE_SECONDS)
    host = socket.gethostname()
    ok = Heartbeat.objects.filter(role=role, node__contains=host, beat_at__gte=fresh).exists()
    if not ok:
        print(f"unhealthy: no fresh {role} heartbeat from {host}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "web"
    if what in ("worker", "scheduler"):
        sys.exit(heartbeat(what))
    sys.exit(http({"full": "", "ready": "?probe=ready"}.get(what, "?probe=live")))
