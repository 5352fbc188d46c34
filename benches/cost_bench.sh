#!/usr/bin/env bash
# Estimate vs actual for ADD INDEX (docs/cost.md, "Measured accuracy").
#
# For each server: `catalog stats --calibrate` measures the build rate,
# then for 200k, 2M and 8M rows a legacy table without the catalog's index
# is filled and analyzed, `catalog plan --stats CALIBRATION` gives the
# estimate of the ADD INDEX step, and `catalog apply` runs it (its step
# time is the actual). Prints a Markdown table; records `uptime` before and
# after (the machine is shared). Each run uses its own scratch schema and
# drops it.
#
#   benches/cost_bench.sh                 # both servers, 200k 2M 8M rows
#   PORTS=3306 SIZES="200000" benches/cost_bench.sh
#   CATALOG_BIN=target/release/catalog benches/cost_bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${CATALOG_BIN:-${CARGO_TARGET_DIR:-target}/debug/catalog}"
PORTS="${PORTS:-3306 3307}"
SIZES="${SIZES:-200000 2000000 8000000}"
CAL_ROWS="${CAL_ROWS:-500000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

sql() { # port, statements
  local port="$1"; shift
  if [ "$port" = 3307 ]; then
    scripts/mysql-server mysql --protocol=tcp -h127.0.0.1 -P3307 -uroot -N -e "$*"
  else
    mariadb --protocol=tcp -h127.0.0.1 -P"$port" -uroot -N -e "$*"
  fi
}

mkdir -p "$work/cat"
cat > "$work/cat/bench.yaml" <<'YAML'
table: bench
columns:
  - { name: id, type: bigint unsigned, nullable: false, auto_increment: true }
  - { name: k, type: varchar(64), nullable: false }
  - { name: n, type: int, nullable: false }
  - { name: at, type: datetime(6), nullable: false }
primary_key: [id]
indexes:
  - { name: ik, columns: [k] }
YAML

echo "uptime before: $(uptime)"
echo
echo "| server | rows | DATA_LENGTH | rate (calibrated) | estimate | actual | actual / estimate |"
echo "|---|---|---|---|---|---|---|"
for port in $PORTS; do
  schema="cost_bench_$$_$port"
  url="mysql://root@127.0.0.1:$port/$schema"
  sql "$port" "DROP DATABASE IF EXISTS $schema; CREATE DATABASE $schema"
  "$BIN" stats --catalog "$work/cat" --database-url "$url" --timeout 600 \
    --calibrate --rows "$CAL_ROWS" --out "$work/cal-$port.json" --format json >/dev/null
  rate=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['calibration']; print(f\"{c['mb_per_s']:.1f} MB/s + {c['overhead_seconds']:.2f} s\")" "$work/cal-$port.json")
  server=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['flavor'], d['version'])" "$work/cal-$port.json")
  for rows in $SIZES; do
    sql "$port" "USE $schema; DROP TABLE IF EXISTS bench, digits;
      CREATE TABLE digits (i int NOT NULL PRIMARY KEY);
      INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9);
      CREATE TABLE bench (id bigint unsigned NOT NULL AUTO_INCREMENT, k varchar(64) NOT NULL,
        n int NOT NULL, at datetime(6) NOT NULL, PRIMARY KEY (id))
        ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
      INSERT INTO bench (k, n, at) SELECT SHA2(s, 256), (s * 7919) % 1000003,
        TIMESTAMP('2020-01-01') + INTERVAL (s % 86400) SECOND
        FROM (SELECT a.i + 10*b.i + 100*c.i + 1000*d.i + 10000*e.i + 100000*f.i + 1000000*g.i AS s
              FROM digits a, digits b, digits c, digits d, digits e, digits f, digits g) x
        WHERE s < $rows;
      DROP TABLE digits; ANALYZE TABLE bench" >/dev/null
    "$BIN" plan --catalog "$work/cat" --database-url "$url" --timeout 600 \
      --stats "$work/cal-$port.json" --format json > "$work/plan.json" || true
    "$BIN" apply --catalog "$work/cat" --database-url "$url" --timeout 600 \
      --busy-timeout 600 --format json > "$work/apply.json"
    python3 - "$work/plan.json" "$work/apply.json" "$server" "$rows" "$rate" <<'PY'
import json, sys
plan, applied = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
step = next(s for s in plan["steps"] if s["kind"] == "add_index")
cost = step["cost"]
actual = next(s["ms"] for s in applied["steps"] if s["kind"] == "add_index")
est = cost["duration_ms"]
print(f"| {sys.argv[3]} | {int(sys.argv[4]):,} | {cost['table_bytes']/1e6:.0f} MB | {sys.argv[5]} "
      f"| {est/1000:.2f} s | {actual/1000:.2f} s | {actual/est:.2f} |")
PY
  done
  sql "$port" "DROP DATABASE IF EXISTS $schema"
done
echo
echo "uptime after: $(uptime)"
