#!/usr/bin/env bash
# Project-local PostgreSQL 15 + Redis on loopback, for tests and benchmarks.
#
#   scripts/services.sh up       install (apt-get) what is missing, start both, write the env file
#   scripts/services.sh down     stop both (safe to call when nothing runs)
#   scripts/services.sh status   say what runs
#   scripts/services.sh env      print the env file path (source it to get DATABASE_URL/REDIS_URL)
#
# Everything lives under $SERVICES_DIR (default var/ci-services): the cluster,
# logs, pid files and `env`, which holds
#     export DATABASE_URL=postgres://postgres@127.0.0.1:<port>/sengoku
#     export REDIS_URL=redis://127.0.0.1:<port>/0
# Ports are picked free at `up` time. Nothing is installed as a system service
# and nothing listens beyond 127.0.0.1.
#
# Knobs (environment):
#   SERVICES_DIR=var/ci-services   where the cluster lives (use another dir for a second set)
#   SERVICES_DURABLE=0             1 = PostgreSQL's default fsync/synchronous_commit (benchmarks);
#                                  0 = fsync off (tests: faster, data is throwaway)
#   SERVICES_REDIS=1               0 = do not install/start Redis
#   PG_PORT / REDIS_PORT           fixed ports instead of free ones
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=${SERVICES_DIR:-$ROOT/var/ci-services}
case "$DIR" in /*) ;; *) DIR=$ROOT/$DIR ;; esac
DURABLE=${SERVICES_DURABLE:-0}
WANT_REDIS=${SERVICES_REDIS:-1}
DBNAME=sengoku
PGUSER_NAME=postgres

log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

is_root() { [ "$(id -u)" = 0 ]; }

pg_bindir() {
  local d
  for d in /usr/lib/postgresql/15/bin /usr/lib/postgresql/1[6-9]/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
  done
  if command -v pg_config >/dev/null 2>&1; then
    d=$(pg_config --bindir 2>/dev/null || true)
    [ -n "$d" ] && [ -x "$d/initdb" ] && { echo "$d"; return 0; }
  fi
  return 1
}

redis_bin() { command -v redis-server 2>/dev/null || { [ -x /usr/bin/redis-server ] && echo /usr/bin/redis-server; }; }

apt_install() {
  # Install Debian packages without letting their maintainer scripts start
  # system-wide services (we run our own instances on free ports).
  is_root || die "need $* but not root: install them yourself (sudo apt-get install -y $*)"
  command -v apt-get >/dev/null 2>&1 || die "need $* and there is no apt-get on this machine"
  local created_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && created_policy=1
  fi
  log "apt-get install -y $* (one-time; takes a minute)"
  local ok=0
  if DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
     && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2; then
    ok=1
  fi
  [ "$created_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
  [ "$ok" = 1 ] || die "apt-get install $* failed"
}

ensure_installed() {
  local need=()
  pg_bindir >/dev/null || need+=(postgresql-15)
  command -v psql >/dev/null 2>&1 || need+=(postgresql-client-15)
  if [ "$WANT_REDIS" = 1 ] && [ -z "$(redis_bin)" ]; then need+=(redis-server); fi
  if [ ${#need[@]} -gt 0 ]; then
    apt_install "${need[@]}"
  fi
  pg_bindir >/dev/null || die "PostgreSQL server binaries not found after install"
}

free_port() {
  python3 - <<'PY'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
}

# Run a PostgreSQL binary as the cluster owner (initdb/postgres refuse root).
as_pg() {
  if is_root; then runuser -u "$PGUSER_NAME" -- "$@"; else "$@"; fi
}

pg_running() { [ -f "$(pg_home)/pg/postmaster.pid" ] && as_pg "$(pg_bindir)/pg_ctl" -D "$(pg_home)/pg" status >/dev/null 2>&1; }
redis_running() { [ -f "$DIR/redis.pid" ] && kill -0 "$(cat "$DIR/redis.pid")" 2>/dev/null; }

ensure_pg_user() {
  is_root || return 0
  if ! id -u "$PGUSER_NAME" >/dev/null 2>&1; then
    log "creating system user $PGUSER_NAME"
    useradd --system --home-dir /var/lib/postgresql --shell /bin/bash "$PGUSER_NAME" 2>/dev/null \
      || adduser --system --group --home /var/lib/postgresql "$PGUSER_NAME" >/dev/null
  fi
}

# Where the cluster lives: $DIR/pg normally; a dir under /tmp when the cluster
# owner cannot reach $DIR (a clone under a private home directory).
pg_home() {
  if [ -f "$DIR/pghome" ]; then cat "$DIR/pghome"; else echo "$DIR"; fi
}

start_pg() {
  local bin port home
  bin=$(pg_bindir)
  ensure_pg_user
  mkdir -p "$DIR"
  if [ ! -f "$DIR/pghome" ]; then
    home=$DIR
    if is_root; then
      chown "$PGUSER_NAME" "$DIR"
      if ! runuser -u "$PGUSER_NAME" -- test -w "$DIR"; then
        home=$(mktemp -d /tmp/sengoku-pg.XXXXXX)
        chown "$PGUSER_NAME" "$home"
        log "$DIR is not reachable by $PGUSER_NAME; keeping the cluster in $home"
      fi
    fi
    echo "$home" >"$DIR/pghome"
  fi
  home=$(pg_home)
  if [ ! -f "$home/pg/PG_VERSION" ]; then
    mkdir -p "$home/pg"
    is_root && chown "$PGUSER_NAME" "$home/pg"
    chmod 700 "$home/pg"
    log "initdb $home/pg"
    as_pg "$bin/initdb" -D "$home/pg" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$DIR/initdb.log" 2>&1 \
      || as_pg "$bin/initdb" -D "$home/pg" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$DIR/initdb.log" 2>&1 \
      || { cat "$DIR/initdb.log" >&2; die "initdb failed"; }
  fi
  port=${PG_PORT:-$(free_port)}
  local opts="-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories= -c max_connections=200"
  if [ "$DURABLE" = 1 ]; then
    opts="$opts -c fsync=on -c synchronous_commit=on -c full_page_writes=on"
  else
    opts="$opts -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  fi
  touch "$home/postgres.log"; is_root && chown "$PGUSER_NAME" "$home/postgres.log"
  log "starting PostgreSQL on 127.0.0.1:$port (durable=$DURABLE)"
  as_pg "$bin/pg_ctl" -D "$home/pg" -l "$home/postgres.log" -o "$opts" -w -t 60 start >/dev/null \
    || { tail -n 30 "$home/postgres.log" >&2; die "PostgreSQL did not start"; }
  echo "$port" >"$DIR/pg.port"
  # the application database (tests create test_<name> beside it)
  if ! psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$DBNAME'" | grep -q 1; then
    psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -qc "CREATE DATABASE $DBNAME" >/dev/null
  fi
}

start_redis() {
  local bin port
  bin=$(redis_bin)
  port=${REDIS_PORT:-$(free_port)}
  mkdir -p "$DIR/redis"
  log "starting Redis on 127.0.0.1:$port"
  "$bin" --bind 127.0.0.1 --port "$port" --daemonize yes --pidfile "$DIR/redis.pid" \
    --logfile "$DIR/redis.log" --dir "$DIR/redis" --save '' --appendonly no --protected-mode yes \
    || die "redis-server did not start"
  local i
  for i in $(seq 1 50); do
    if redis_running && python3 - "$port" <<'PY' 2>/dev/null; then
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1)
s.sendall(b"PING\r\n")
sys.exit(0 if s.recv(16).startswith(b"+PONG") else 1)
PY
      echo "$port" >"$DIR/redis.port"
      return 0
    fi
    sleep 0.1
  done
  tail -n 20 "$DIR/redis.log" >&2 || true
  die "Redis did not answer PING"
}

write_env() {
  {
    echo "# written by scripts/services.sh up -- source this file"
    echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$(cat "$DIR/pg.port")/$DBNAME"
    if [ "$WANT_REDIS" = 1 ] && [ -f "$DIR/redis.port" ]; then
      echo "export REDIS_URL=redis://127.0.0.1:$(cat "$DIR/redis.port")/0"
    fi
  } >"$DIR/env"
}

cmd_up() {
  ensure_installed
  mkdir -p "$DIR"
  if pg_running; then log "PostgreSQL already running on port $(cat "$DIR/pg.port")"; else start_pg; fi
  if [ "$WANT_REDIS" = 1 ]; then
    if redis_running; then log "Redis already running on port $(cat "$DIR/redis.port")"; else start_redis; fi
  fi
  write_env
  sed 's/^/[services] /' "$DIR/env" | grep export >&2
}

cmd_down() {
  local bin
  local home
  home=$(pg_home)
  if [ -f "$home/pg/postmaster.pid" ] && bin=$(pg_bindir); then
    log "stopping PostgreSQL"
    as_pg "$bin/pg_ctl" -D "$home/pg" -m fast -w -t 30 stop >/dev/null 2>&1 \
      || as_pg "$bin/pg_ctl" -D "$home/pg" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if redis_running; then
    log "stopping Redis"
    local pid i
    pid=$(cat "$DIR/redis.pid")
    kill "$pid" 2>/dev/null || true
    for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$DIR/redis.pid" "$DIR/env"
}

cmd_status() {
  if pg_running; then echo "postgres: running on 127.0.0.1:$(cat "$DIR/pg.port")"; else echo "postgres: stopped"; fi
  if redis_running; then echo "redis: running on 127.0.0.1:$(cat "$DIR/redis.port")"; else echo "redis: stopped"; fi
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  env) echo "$DIR/env" ;;
  *) echo "usage: $0 up|down|status|env" >&2; exit 2 ;;
esac
