#!/bin/sh
# Container entrypoint. Shortcuts (anything else is run as given):
#   web      gunicorn with uvicorn workers on the ASGI app (the default CMD)
#   worker   celery worker
#   beat     celery beat (run exactly one)
#   migrate  apply migrations and exit (the compose `migrate` one-shot service)
set -e
case "${1:-web}" in
  web)     exec gunicorn config.asgi:application -c docker/gunicorn.conf.py ;;
  worker)  shift; exec celery -A config.celery:app worker --loglevel "${LOG_LEVEL:-INFO}" "$@" ;;
  beat)    shift; exec celery -A config.celery:app beat --loglevel "${LOG_LEVEL:-INFO}" \
             --schedule "${SENGOKU_VAR_DIR:-/app/var}/beat/celerybeat-schedule" --pidfile /tmp/celerybeat.pid "$@" ;;
  migrate) exec python manage.py migrate --noinput ;;
  *)       exec "$@" ;;
esac
