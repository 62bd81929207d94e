#!/usr/bin/env bash
# `make bench`: benchmarks on a project-local PostgreSQL 15 (+ Redis) with
# PostgreSQL's default durability, then docs/benchmarks.md. Never part of `make test`.
#
# Knobs: BENCH_SECONDS (per event-store cell and round, default 5), BENCH_API_SECONDS (30),
#        BENCH_GAMES (engine games per ruleset, 5), BENCH_RULESETS (rising-sun:5,shogun:5,imjin:2),
#        BENCH_ONLY ("store api streams fairness replay engines bots"), BENCH_STREAMS_SECONDS (20),
#        BENCH_BOT_GAMES (heuristic vs random, games per ruleset and player count, 200),
#        BENCH_MCTS_GAMES (mcts at BENCH_MCTS_SECONDS=1 of CPU vs heuristic; 0 = play none, report the
#        committed log bench/records/mcts.jsonl: hours at 200),
#        BENCH_JOBS (bot games in parallel, 2). Bot games accumulate across runs of the same
#        code (bench/records/, committed): `make bench-bots` fills every table to 200, resuming.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=.venv/bin/python
export DJANGO_SETTINGS_MODULE=config.settings
export SERVICES_DIR=var/bench-services SERVICES_DURABLE=1
SECONDS_PER_CELL=${BENCH_SECONDS:-5}
API_SECONDS=${BENCH_API_SECONDS:-30}
GAMES=${BENCH_GAMES:-5}
ONLY=${BENCH_ONLY:-store api streams fairness replay web engines bots}
failed=()

# keep the results this run replaces: the report shows them beside the new ones
if compgen -G "var/bench/*.json" >/dev/null; then
  mkdir -p var/bench/previous && cp var/bench/*.json var/bench/previous/
fi

trap 'scripts/services.sh down' EXIT
scripts/services.sh up || exit 1
# shellcheck disable=SC1090
. "$(scripts/services.sh env)"
unset CELERY_BROKER_URL
base=${DATABASE_URL%/*}
# a fresh database every run (the events table refuses DELETE by design)
psql "$base/postgres" -qc "DROP DATABASE IF EXISTS sengoku_bench" -c "CREATE DATABASE sengoku_bench" || exit 1
export DATABASE_URL=$base/sengoku_bench

case " $ONLY " in *" store "*)
  echo "=== event store (${SECONDS_PER_CELL}s per cell) ==="
  $PY bench/event_store.py --seconds "$SECONDS_PER_CELL" || failed+=(event_store) ;;
esac
case " $ONLY " in *" api "*)
  echo "=== API under load (${API_SECONDS}s) ==="
  $PY bench/api_load.py --seconds "$API_SECONDS" || failed+=(api_load)
  echo "=== API under load, paced: 50 clients offering 150 cycles/s together (${API_SECONDS}s) ==="
  $PY bench/api_load.py --seconds "$API_SECONDS" --rate 150 --save-as api_paced || failed+=(api_paced)
  echo "=== API, one client alone (service time without queueing, 10s) ==="
  $PY bench/api_load.py --seconds 10 --clients 1 --games 2 --save-as api_single || failed+=(api_single)
  echo "=== API, POST-only (clients that know the legal commands; ${API_SECONDS}s of posting) ==="
  $PY bench/api_load.py --mode post-only --clients 50 --games 200 --seconds "$API_SECONDS" --save-as api_post_only || failed+=(api_post_only) ;;
esac
case " $ONLY " in *" streams "*)
  echo "=== live streams: 1,000 SSE streams over 100 users and 100 games while commands are posted ==="
  $PY bench/streams.py --seconds "${BENCH_STREAMS_SECONDS:-20}" || failed+=(streams) ;;
esac
case " $ONLY " in *" fairness "*)
  echo "=== background work: deadlines while 20 bot games play (30s) ==="
  $PY bench/fairness.py --seconds 30 || failed+=(fairness) ;;
esac
case " $ONLY " in *" replay "*)
  echo "=== range replay of a 5-player Shogun game on the embedded default (SQLite) ==="
  $PY bench/replay_range.py || failed+=(replay_range) ;;
esac
case " $ONLY " in *" web "*)
  echo "=== web pages: first paint and weight in headless Chromium (embedded default) ==="
  scripts/browser.sh install || true
  $PY bench/web_pages.py || failed+=(web_pages) ;;
esac
case " $ONLY " in *" engines "*)
  echo "=== engines ($GAMES games) ==="
  $PY bench/engines.py --games "$GAMES" --rulesets "${BENCH_RULESETS:-rising-sun:5,shogun:5,imjin:2}" || failed+=(engines) ;;
esac
case " $ONLY " in *" bots "*)
  echo "=== bots: heuristic vs random (${BENCH_BOT_GAMES:-200} games per table) ==="
  $PY bench/bots.py --mode heuristic --games "${BENCH_BOT_GAMES:-200}" --jobs "${BENCH_JOBS:-2}" || failed+=(bots)
  if [ "${BENCH_MCTS_GAMES:-0}" -gt 0 ]; then
    echo "=== bots: mcts (${BENCH_MCTS_SECONDS:-1} s) vs heuristic (${BENCH_MCTS_GAMES} games per table) ==="
    $PY bench/bots.py --mode mcts --games "$BENCH_MCTS_GAMES" --seconds "${BENCH_MCTS_SECONDS:-1}" \
      --clock cpu --jobs "${BENCH_JOBS:-2}" || failed+=(bots_mcts)
  else  # the mcts tables from the committed log alone (bench/records/mcts.jsonl): no game played
    $PY bench/bots.py --mode mcts --games 0 --seconds "${BENCH_MCTS_SECONDS:-1}" --clock cpu || failed+=(bots_mcts)
  fi ;;
esac

$PY bench/report.py
if [ ${#failed[@]} -gt 0 ]; then
  echo "benchmarks that failed to run: ${failed[*]} (their previous results, if any, are in the report)"
  exit 1
fi
