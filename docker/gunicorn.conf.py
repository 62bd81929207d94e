"""gunicorn settings for the container (env-driven).

uvicorn workers serving config.asgi: a live stream (SSE) is an async task fed
by the process's one shared listener (api/live/hub.py), not a thread, so a few
processes carry thousands of open streams; ordinary requests run Django's
sync views in its thread pool.
"""

import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
worker_class = "uvicorn_worker.UvicornWorker"
workers = int(os.environ.get("WEB_WORKERS", "2"))
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 10
keepalive = 5
errorlog = "-"
# Behind the compose/Kubernetes proxy the client address comes from X-Forwarded-For,
# trusted only from these addresses (compose: the internal network; the web port is not published).
# Default: trust nobody (a direct client could otherwise name its own address).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "")
control_socket_disable = True  # no admin socket in $HOME inside the container
# Our middleware logs one structured line per request (with its request id);
# set ACCESS_LOG=- for gunicorn's own access log as well.
accesslog = os.environ.get("ACCESS_LOG") or None


def child_exit(server, worker):
    """Prometheus multi-process mode: drop the live gauges of a dead worker."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
