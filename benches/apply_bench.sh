#!/usr/bin/env bash
# Benchmark of `catalog apply` (issue 4, "Performance"). Rerunnable.
#
# 1. Warm upgrade of a ROWS-row legacy table (3 nullable columns, 2 indexes
#    missing): `catalog apply` wall time vs the same DDL statements run by
#    hand with the SQL client, each on an identical fresh copy, RUNS
#    times each (order alternated), medians reported.
# 2. No-op apply on the converged schema: statements it issues (deltas of
#    SHOW GLOBAL STATUS Questions / Com_stmt_prepare / Com_stmt_execute,
#    minus the cost of reading them) and wall time, NOOP_RUNS times.
#
# Usage: benches/apply_bench.sh [URL]      (from the repo root)
#        URL: the server, e.g. mysql://root@127.0.0.1:3307 for the MySQL 9.7 of
#        scripts/mysql-server (default BENCH_DATABASE_URL, else
#        mysql://root@127.0.0.1:3306). The report names the flavor.
# Env:   ROWS (1000000) RUNS (3) NOOP_RUNS (7) SETTLE (3 s after each copy) CATALOG_BIN (target/release/catalog)
#        SQL_CLIENT (mariadb)
# Needs: the mariadb client (it talks to MySQL too), jq;
#        builds target/release/catalog when it is missing.
# Global status counts every client of the server: run it with nothing else
# connected, or read the minimum column (noise only adds).
set -euo pipefail

ROWS=${ROWS:-1000000}
RUNS=${RUNS:-3}
NOOP_RUNS=${NOOP_RUNS:-7}
SETTLE=${SETTLE:-3}
BIN=${CATALOG_BIN:-target/release/catalog}

cd "$(dirname "$0")/.."
# shellcheck source=benches/common.sh
. benches/common.sh
[ -n "${1:-}" ] && BENCH_DATABASE_URL=$1
bench_server
if [[ ! -x $BIN ]]; then
    cargo build --release -p schema-catalog-cli >&2
fi

SEED=sc_bench_seed_$$
TARGET=sc_bench_t_$$
WORK=$(mktemp -d)
cleanup() {
    sql -e "DROP DATABASE IF EXISTS \`$SEED\`; DROP DATABASE IF EXISTS \`$TARGET\`" || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# The catalog: the legacy table's columns plus 3 nullable columns, 2 indexes.
mkdir -p "$WORK/catalog"
cat >"$WORK/catalog/catalog.yaml" <<'EOF'
defaults:
  engine: InnoDB
  charset: utf8mb4
  collation: utf8mb4_bin
EOF
cat >"$WORK/catalog/jobs.yaml" <<'EOF'
table: Jobs
columns:
  - {name: Id, type: bigint unsigned, nullable: false, auto_increment: true}
  - {name: State, type: varchar(32), nullable: false}
  - {name: Payload, type: varchar(255)}
  - {name: CreatedAt, type: datetime(6), nullable: false}
  - {name: LeaseOwner, type: varchar(64)}
  - {name: LeaseUntil, type: datetime(6)}
  - {name: Attempts, type: int}
primary_key: [Id]
indexes:
  - {name: idx_jobs_state_created, columns: [State, CreatedAt]}
  - {name: idx_jobs_lease, columns: [LeaseOwner, LeaseUntil]}
EOF
URL=$(url "$TARGET")
catalog() { "$BIN" --catalog "$WORK/catalog" --database-url "$URL" "$@"; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
minimum() { sort -n | head -1; }

echo "# building the legacy seed table: $ROWS rows" >&2
sql -e "CREATE DATABASE \`$SEED\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
sql "$SEED" -e "CREATE TABLE Jobs (
  Id bigint unsigned NOT NULL AUTO_INCREMENT,
  State varchar(32) COLLATE utf8mb4_bin NOT NULL,
  Payload varchar(255) COLLATE utf8mb4_bin NULL,
  CreatedAt datetime(6) NOT NULL,
  PRIMARY KEY (Id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT INTO Jobs (State, Payload, CreatedAt) VALUES ('queued', 'payload-0', '2024-01-01 00:00:00.000001')"
have=1
while ((have < ROWS)); do
    add=$((have < ROWS - have ? have : ROWS - have))
    sql "$SEED" -e "SET SESSION unique_checks = 0;
      INSERT INTO Jobs (State, Payload, CreatedAt)
      SELECT ELT(1 + Id % 4, 'queued', 'running', 'done', 'failed'), CONCAT('payload-', Id),
             CreatedAt + INTERVAL Id SECOND FROM Jobs ORDER BY Id LIMIT $add"
    have=$((have + add))
done

fresh_copy() {
    sql -e "DROP DATABASE IF EXISTS \`$TARGET\`;
      CREATE DATABASE \`$TARGET\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
      CREATE TABLE \`$TARGET\`.Jobs LIKE \`$SEED\`.Jobs;
      SET SESSION unique_checks = 0;
      INSERT INTO \`$TARGET\`.Jobs SELECT * FROM \`$SEED\`.Jobs"
    sleep "$SETTLE" # let InnoDB flush and purge after the copy, for both sides alike
}

run_apply() {
    local t0 t1
    t0=$(now_ms)
    catalog --format json apply >"$WORK/apply.json"
    t1=$(now_ms)
    [[ $(jq -r .converged "$WORK/apply.json") == true ]] || { cat "$WORK/apply.json" >&2; exit 1; }
    # apply's time outside its steps (start, connect, lock, preflight, final verify)
    echo $((t1 - t0 - $(jq '[.steps[].ms] | add' "$WORK/apply.json"))) >>"$WORK/outside"
    echo $((t1 - t0))
}

run_hand() {
    local t0 t1
    t0=$(now_ms)
    sql "$TARGET" <"$WORK/hand.sql"
    t1=$(now_ms)
    echo $((t1 - t0))
}

# The statements apply executes, as it reports them (a first, untimed run).
fresh_copy
catalog --format json apply >"$WORK/apply.json"
jq -r '.steps[] | .sql + ";"' "$WORK/apply.json" >"$WORK/hand.sql"
echo "# DDL (the same statements both ways):" >&2
cat "$WORK/hand.sql" >&2

apply_ms=()
hand_ms=()
for ((i = 1; i <= RUNS; i++)); do
    if ((i % 2)); then
        fresh_copy; apply_ms+=("$(run_apply)")
        fresh_copy; hand_ms+=("$(run_hand)")
    else
        fresh_copy; hand_ms+=("$(run_hand)")
        fresh_copy; apply_ms+=("$(run_apply)")
    fi
    echo "# run $i: apply ${apply_ms[-1]} ms, by hand ${hand_ms[-1]} ms" >&2
done
apply_med=$(printf '%s\n' "${apply_ms[@]}" | median)
hand_med=$(printf '%s\n' "${hand_ms[@]}" | median)
outside_med=$(median <"$WORK/outside")
overhead=$(awk -v a="$apply_med" -v h="$hand_med" 'BEGIN {printf "%.1f", (a - h) * 100 / h}')

# No-op apply on the converged schema.
catalog apply >/dev/null
status() {
    sql -e "SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_stmt_prepare', 'Com_stmt_execute')" |
        awk '{v[$1]=$2} END {print v["Questions"], v["Com_stmt_prepare"], v["Com_stmt_execute"]}'
}
deltas() { # runs "$@" between two status reads; prints q p e deltas
    local b a
    b=($(status)); "$@"; a=($(status))
    echo $((a[0] - b[0])) $((a[1] - b[1])) $((a[2] - b[2]))
}
base=()
noop=()
noop_ms=()
quiet_apply() { catalog --format json apply >/dev/null; }
for ((i = 1; i <= NOOP_RUNS; i++)); do
    base+=("$(deltas true)")
    noop+=("$(deltas quiet_apply)")
done
for ((i = 1; i <= NOOP_RUNS; i++)); do
    t0=$(now_ms)
    catalog --format json apply >"$WORK/noop.json"
    t1=$(now_ms)
    [[ $(jq -r .server_ddl_count "$WORK/noop.json") == 0 ]] || { cat "$WORK/noop.json" >&2; exit 1; }
    noop_ms+=($((t1 - t0)))
done
col() { printf '%s\n' "${@:2}" | awk -v c="$1" '{print $c}'; }
report_counter() { # name column
    local bmin
    bmin=$(col "$2" "${base[@]}" | minimum)
    printf '| %s | %s | %s |\n' "$1" \
        "$(($(col "$2" "${noop[@]}" | minimum) - bmin))" \
        "$(($(col "$2" "${noop[@]}" | median) - bmin))"
}

cat <<EOF

## apply_bench [$FLAVOR]: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $FLAVOR $SERVER_VERSION

Warm upgrade, $ROWS-row legacy table, 5 steps (3 ADD COLUMN, 2 ADD INDEX), $RUNS runs each:

| | runs (ms) | median (ms) |
|---|---|---|
| \`catalog apply\` (process start to exit) | ${apply_ms[*]} | $apply_med |
| same DDL by hand (\`$SQL_CLIENT < ddl.sql\`) | ${hand_ms[*]} | $hand_med |
| overhead (median vs median) | | ${overhead}% |
| apply's time outside its 5 steps (start, connect, lock, preflight, final verify) | $(tr '\n' ' ' <"$WORK/outside") | $outside_med |

No-op apply on the converged schema ($NOOP_RUNS runs; statements = global
status delta minus the delta of reading status with nothing in between):

| counter | min | median |
|---|---|---|
$(report_counter Questions 1)
$(report_counter Com_stmt_prepare 2)
$(report_counter Com_stmt_execute 3)

no-op wall time (ms): $(printf '%s ' "${noop_ms[@]}")-> median $(printf '%s\n' "${noop_ms[@]}" | median) ms
EOF
