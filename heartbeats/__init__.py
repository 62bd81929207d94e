"""Liveness of the background processes: the Celery worker and beat each write
a timestamp every HEARTBEAT_SECONDS to the database (shared by every process,
also in the embedded default where the cache is per process); /health reads
them and answers 503 when either has been silent for HEARTBEAT_STALE_SECONDS."""
