"""gunicorn settings for the container (env-driven).

gthread workers: every Server-Sent-Event stream holds one thread for as long
as the client listens, so threads, not processes, carry the concurrency.
"""

import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "8"))
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 10
keepalive = 5
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
control_socket_disable = True  # no admin socket in $HOME inside the container
# Our middleware logs one structured line per request (with its request id);
# set ACCESS_LOG=- for gunicorn's own access log as well.
accesslog = os.environ.get("ACCESS_LOG") or None


def child_exit(server, worker):
    """Prometheus multi-process mode: drop the live gauges of a dead worker."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
