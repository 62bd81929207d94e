#!/bin/sh
# Container entrypoint. Shortcuts (anything else is run as given):
#   web      gunicorn with uvicorn workers on the ASGI app (the default CMD)
#   worker   celery worker
#   beat     celery beat (run exactly one)
#   migrate  apply migrations and exit (the compose `migrate` one-shot service)
set -e
# Compose defaults (docker/compose.yml's services), unless .env says otherwise.
if [ -z "${DATABASE_URL:-}" ] && [ -n "${POSTGRES_PASSWORD:-}" ]; then
  export DATABASE_URL="postgres://${POSTGRES_USER:-sengoku}:${POSTGRES_PASSWORD}@${POSTGRES_HOST:-postgres}:5432/${POSTGRES_DB:-sengoku}"
fi
export REDIS_URL="${REDIS_URL:-redis://redis:6379/0}"
# Metrics files of this container's processes: start empty (old pids' files would count twice).
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
  rm -rf "$PROMETHEUS_MULTIPROC_DIR" && mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
fi
case "${1:-web}" in
  web)     exec gunicorn config.asgi:application -c docker/gunicorn.conf.py ;;
  worker)  shift; exec celery -A config.celery:app worker --loglevel "${LOG_LEVEL:-INFO}" "$@" ;;
  beat)    shift; exec celery -A config.celery:app beat --loglevel "${LOG_LEVEL:-INFO}" \
             --schedule "${SENGOKU_VAR_DIR:-/app/var}/beat/celerybeat-schedule" --pidfile /tmp/celerybeat.pid "$@" ;;
  migrate) exec python manage.py migrate --noinput ;;
  *)       exec "$@" ;;
esac
