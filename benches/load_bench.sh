#!/usr/bin/env bash
# Load benchmark of `catalog apply` on a busy table (issue 9). Rerunnable.
#
# Steady application traffic (4 writers: INSERT / UPDATE by id; 4 readers:
# point SELECT / 100-row range COUNT) on a 1,048,576-row table while
# `catalog apply --lock-wait 2` adds two nullable columns and an index,
# once without and once with a transaction that holds the table open for
# 8 s after apply starts. Prints, per pass, apply's wall time and the
# application's statement count, p50 / p99 / max latency and errors during
# the apply. Target: no error; max <= --lock-wait + 0.5 s = 2.5 s.
#
# It runs the load test (cli/tests/it/apply_load.rs) in release mode, so the
# figures come from the same code the test suite asserts on.
#
# Usage: benches/load_bench.sh [mysql://user@host:port]   (from the repo root)
# Env:   BENCH_DATABASE_URL (mysql://root@127.0.0.1:3306; MySQL 9.7 here:
#        mysql://root@127.0.0.1:3307), RUNS (1): passes of both scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == mysql://* ]]; then BENCH_DATABASE_URL=$1; fi
# shellcheck source=benches/common.sh
. benches/common.sh
bench_server
export CATALOG_TEST_DATABASE_URL="mysql://$DB_USER${DB_PASS:+:$DB_PASS}@$DB_HOST:$DB_PORT"
echo "server: $FLAVOR $SERVER_VERSION at $DB_HOST:$DB_PORT" >&2
RUNS=${RUNS:-1}
cargo test --release -p schema-catalog-cli --test it --no-run >&2
for _ in $(seq "$RUNS"); do
    cargo test --release -q -p schema-catalog-cli --test it apply_load:: -- --nocapture --test-threads 1 2>&1 \
        | grep -o 'load [a-z]* with.*' || { echo "load test failed; run it without the filter to see why" >&2; exit 1; }
done
