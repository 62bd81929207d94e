#!/usr/bin/env bash
# The whole test run behind `make test` (and `make check` with --checks-only):
#   1. checks: ruff, import-linter, mypy --strict (the engines; services, events, api, web with the
#      django/drf stubs), OpenAPI schema is current (schema.yml)
#   2. pytest on SQLite (the settings default: no DATABASE_URL / REDIS_URL)
#   3. pytest on PostgreSQL 15 + Redis started by scripts/services.sh (stopped again on exit)
# Every step runs even if an earlier one failed; the exit code is non-zero if
# any failed. pytest's exit code 5 (no tests collected) counts as success.
#
# Knobs: TEST_WORKERS (pytest-xdist workers, default 2; 1 = serial),
#        PYTEST_ARGS (extra pytest arguments), TEST_PASSES ("sqlite postgres"),
#        PASS_TIMEOUT (per pytest pass, default 35m).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
BIN=$ROOT/.venv/bin
export DJANGO_SETTINGS_MODULE=${DJANGO_SETTINGS_MODULE:-config.settings}
export PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH}
CHECKS_ONLY=0
[ "${1:-}" = "--checks-only" ] && CHECKS_ONLY=1
TEST_WORKERS=${TEST_WORKERS:-2}
TEST_PASSES=${TEST_PASSES:-sqlite postgres}
PASS_TIMEOUT=${PASS_TIMEOUT:-35m}

results=()
failed=0
trap 'echo "interrupted"; exit 130' INT TERM   # still runs the EXIT trap (services down)
t0=$(date +%s)

banner() { printf '\n=== %s ===\n' "$*"; }
record() {  # name rc [treat-5-as-ok] [summary]
  local name=$1 rc=$2 summary=${4:+: $4}
  if [ "$rc" = 0 ] || { [ "${3:-}" = 5ok ] && [ "$rc" = 5 ]; }; then
    [ "$rc" = 5 ] && results+=("ok    $name (no tests collected)") || results+=("ok    $name$summary")
  else
    results+=("FAIL  $name (exit $rc)$summary")
    failed=1
  fi
}
# pytest's closing line ("1203 passed, 6 skipped in 412.3s") from a pass's log, without the ='s.
pass_summary() {
  grep -E '^(=+ )?([0-9]+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?)|no tests ran)' "$1" \
    2>/dev/null | tail -n 1 \
    | sed -E 's/^=+ //; s/ =+$//'
}

check_schema() {
  if [ ! -f manage.py ]; then echo "no manage.py yet: skipped"; return 0; fi
  local tmp rc
  tmp=$(mktemp /tmp/sengoku-schema.XXXXXX.yml)
  "$BIN/python" manage.py spectacular --file "$tmp" --validate --fail-on-warn
  rc=$?
  if [ $rc != 0 ]; then rm -f "$tmp"; echo "spectacular reported errors/warnings"; return $rc; fi
  if [ ! -f schema.yml ]; then
    rm -f "$tmp"; echo "schema.yml is missing: run 'make schema' and commit it"; return 1
  fi
  if ! diff -u schema.yml "$tmp" >/tmp/sengoku-schema.diff; then
    head -n 60 /tmp/sengoku-schema.diff
    echo "schema.yml is stale: run 'make schema' and commit it"
    rm -f "$tmp"; return 1
  fi
  rm -f "$tmp"; echo "schema.yml is up to date"
}

pytest_cmd() {  # log-file: the output is shown and kept there for the summary line
  local log=$1 args=()
  # loadgroup: tests marked xdist_group (the multi-node servers) stay on one worker
  if [ "$TEST_WORKERS" -gt 1 ] 2>/dev/null; then args+=(-n "$TEST_WORKERS" --dist loadgroup); fi
  # -rs: why each test was skipped; --durations: the slowest tests
  # shellcheck disable=SC2206
  args+=(-rfEs --durations=15 ${PYTEST_ARGS:-})
  timeout --signal=TERM --kill-after=30s "$PASS_TIMEOUT" "$BIN/python" -m pytest "${args[@]}" 2>&1 | tee "$log"
}
PASS_LOG_DIR=$(mktemp -d /tmp/sengoku-test.XXXXXX)

# ---- 1. checks ------------------------------------------------------------
banner "ruff check ."
"$BIN/ruff" check .; record "ruff" $?
banner "ruff format --check ."
"$BIN/ruff" format --check .; record "ruff format" $?

banner "lint-imports (import-linter contracts)"
"$BIN/lint-imports"; record "import-linter" $?

banner "mypy --strict games/rules (the engines and their kit)"
"$BIN/mypy" --strict games/rules; record "mypy (engines)" $?

# pyproject's [tool.mypy]: the django-stubs and drf-stubs plugins, strict (issue 32)
banner "mypy --strict games/services events api web (with django-stubs, drf-stubs)"
"$BIN/mypy" --strict games/services events api web; record "mypy (services, events, api, web)" $?

banner "OpenAPI schema (manage.py spectacular --validate --fail-on-warn vs schema.yml)"
check_schema; record "openapi schema" $?

# ---- 2./3. test passes ------------------------------------------------------
if [ "$CHECKS_ONLY" = 0 ]; then
  # headless Chromium for the browser tests (tests/web, marker "browser"); they skip if it can't be had
  scripts/browser.sh install || true
  # axe-core (test-only, pinned by package-lock.json) for tests/web/test_browser_a11y.py:
  # npm ci installs exactly the lock; without npm or the registry that test skips, saying why
  if command -v npm >/dev/null 2>&1; then
    npm ci --no-audit --no-fund --loglevel=error || echo "npm ci failed: the accessibility test will skip"
  fi
  for pass in $TEST_PASSES; do
    case $pass in
      sqlite)
        banner "pytest on SQLite"
        ( unset DATABASE_URL REDIS_URL CELERY_BROKER_URL; pytest_cmd "$PASS_LOG_DIR/sqlite.log" )
        record "pytest (SQLite)" $? 5ok "$(pass_summary "$PASS_LOG_DIR/sqlite.log")"
        ;;
      postgres)
        banner "pytest on PostgreSQL 15 + Redis"
        trap 'scripts/services.sh down' EXIT
        if scripts/services.sh up; then
          ( # subshell: the service env does not leak into later steps
            # shellcheck disable=SC1090
            . "$(scripts/services.sh env)"
            unset CELERY_BROKER_URL
            pytest_cmd "$PASS_LOG_DIR/postgres.log"
          )
          record "pytest (PostgreSQL + Redis)" $? 5ok "$(pass_summary "$PASS_LOG_DIR/postgres.log")"
        else
          record "services up (PostgreSQL + Redis)" 1
        fi
        scripts/services.sh down
        trap - EXIT
        ;;
      *) echo "unknown pass '$pass'"; record "pass $pass" 2 ;;
    esac
  done
fi

banner "summary ($(( $(date +%s) - t0 ))s)"
printf '  %s\n' "${results[@]}"
rm -rf "$PASS_LOG_DIR"
exit $failed
