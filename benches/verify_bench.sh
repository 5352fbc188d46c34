#!/usr/bin/env bash
# Benchmark of `catalog verify` on a noisy server (issue 3, "Performance").
#
#   benches/verify_bench.sh [URL]            set up (idempotent) and measure
#   benches/verify_bench.sh --cleanup [URL]  drop every schema this script created
#   benches/verify_bench.sh --rebuild [URL]  drop, set up from scratch, measure
#
# URL: the server, e.g. mysql://root@127.0.0.1:3307 for the MySQL 9.7 of
# scripts/mysql-server (default BENCH_DATABASE_URL, else
# mysql://root@127.0.0.1:3306). Every result line names the flavor.
#
# Server state: 5 schemas x 1,000 unrelated InnoDB tables, a clean target
# holding only the shipped catalog, and a noisy target holding the shipped
# catalog plus 2,000 unmanaged tables. Both targets are brought to the
# catalog with `catalog apply`. Then, side by side:
#   1. `catalog verify` process wall time, median/min/max of RUNS runs
#      (interleaved clean/noisy, after one warm-up each), and the ratio;
#   2. statements per verify from SHOW GLOBAL STATUS deltas (minimum over
#      several tries, minus the cost of reading the counters, so concurrent
#      clients on a shared server can only be filtered out, never added);
#   3. one index's exactness the old way (anti-join over the global
#      information_schema.STATISTICS) vs the new single-index read, timed
#      the same way (process wall time of the SQL client, median of RUNS),
#      with EXPLAIN and the rows the server scanned.
#
# Environment: SQL_CLIENT (default `mariadb`), RUNS (31, at least 7),
# NOISE_SCHEMAS (5), NOISE_TABLES (1000), UNMANAGED (2000) for smaller runs,
# CATALOG_BIN (target/release/catalog; built with `cargo build --release -p
# schema-catalog-cli` when missing).
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."

RUNS=${RUNS:-31}
CATALOG_BIN=${CATALOG_BIN:-target/release/catalog}
PREFIX=scbench
NOISE_SCHEMAS=${NOISE_SCHEMAS:-5}
NOISE_TABLES=${NOISE_TABLES:-1000}
UNMANAGED=${UNMANAGED:-2000}
CLEAN=${PREFIX}_clean
NOISY=${PREFIX}_noisy
INDEX_TABLE=_System_FileUploadOperation
INDEX_NAME=idx_file_upload_lifecycle

# shellcheck source=benches/common.sh
. benches/common.sh
MODE=
for arg in "$@"; do
	case $arg in
	mysql://*) BENCH_DATABASE_URL=$arg ;;
	*) MODE=$arg ;;
	esac
done
bench_server
# Hidden indexes and EXPLAIN's table layout per flavor.
if [ "$FLAVOR" = mariadb ]; then HIDDEN=IGNORED EXPLAIN=EXPLAIN; else HIDDEN=IS_VISIBLE EXPLAIN="EXPLAIN FORMAT=TRADITIONAL"; fi

drop_all() {
	local s
	for s in $(sql -e "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '${PREFIX}\\_%'"); do
		echo "dropping $s"
		sql -e "DROP DATABASE \`$s\`"
	done
}

case "$MODE" in
--cleanup)
	drop_all
	exit 0
	;;
--rebuild) drop_all ;;
"") ;;
*)
	echo "usage: $0 [--cleanup|--rebuild] [mysql://user@host:port]" >&2
	exit 2
	;;
esac

table_count() {
	sql -e "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '$1' AND TABLE_NAME LIKE '$2'"
}

# Creates schema $1 with $2 tables named $3_NNNNN in one piped batch, unless
# it already holds exactly that many (idempotent).
fill_schema() {
	local schema=$1 n=$2 stem=$3
	if [ "$(table_count "$schema" "${stem}\\_%")" = "$n" ]; then
		echo "$schema: $n ${stem}_* tables present"
		return
	fi
	echo "$schema: creating $n tables"
	{
		echo "CREATE DATABASE IF NOT EXISTS \`$schema\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;"
		echo "USE \`$schema\`;"
		awk -v n="$n" -v stem="$stem" 'BEGIN { for (i = 1; i <= n; i++) printf "CREATE TABLE IF NOT EXISTS %s_%05d (id bigint NOT NULL PRIMARY KEY, k varchar(64) NOT NULL, v int, created datetime(6), KEY ix_k (k, v)) ENGINE=InnoDB;\n", stem, i }'
	} | sql
}

if [ ! -x "$CATALOG_BIN" ]; then
	echo "building $CATALOG_BIN"
	cargo build --release -p schema-catalog-cli
fi

echo "== setup (idempotent): $FLAVOR $SERVER_VERSION at $DB_HOST:$DB_PORT"
for i in $(seq 1 $NOISE_SCHEMAS); do
	fill_schema "${PREFIX}_noise_$i" $NOISE_TABLES noise &
done
fill_schema "$NOISY" $UNMANAGED unmanaged &
sql -e "CREATE DATABASE IF NOT EXISTS \`$CLEAN\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
wait
for target in "$CLEAN" "$NOISY"; do
	"$CATALOG_BIN" --database-url "$(url "$target")" apply >/dev/null
	"$CATALOG_BIN" --database-url "$(url "$target")" verify >/dev/null
done
total_tables=$(sql -e "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA LIKE '${PREFIX}\\_%'")
catalog_tables=$("$CATALOG_BIN" --format json render | grep -c 'CREATE TABLE' || true)
echo "tables in ${PREFIX}_* schemas: $total_tables; catalog tables: $catalog_tables"

now_ns() { date +%s%N; }

# median/min/max in ms (one decimal) of the numbers (ns) on stdin.
stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		printf "%.1f %.1f %.1f\n", m / 1e6, v[1] / 1e6, v[NR] / 1e6 }'
}

time_verify() {
	local t0 t1
	t0=$(now_ns)
	"$CATALOG_BIN" --database-url "$(url "$1")" verify >/dev/null
	t1=$(now_ns)
	echo $((t1 - t0))
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); server: $FLAVOR $SERVER_VERSION"
echo "== 1. catalog verify wall time (process), $RUNS runs each, interleaved"
time_verify "$CLEAN" >/dev/null
time_verify "$NOISY" >/dev/null
clean_ns=()
noisy_ns=()
for _ in $(seq 1 "$RUNS"); do
	clean_ns+=("$(time_verify "$CLEAN")")
	noisy_ns+=("$(time_verify "$NOISY")")
done
read -r c_med c_min c_max < <(printf '%s\n' "${clean_ns[@]}" | stats)
read -r n_med n_min n_max < <(printf '%s\n' "${noisy_ns[@]}" | stats)
printf '%-8s %10s %10s %10s\n' target median_ms min_ms max_ms
printf '%-8s %10s %10s %10s\n' clean "$c_med" "$c_min" "$c_max"
printf '%-8s %10s %10s %10s\n' noisy "$n_med" "$n_min" "$n_max"
ratio=$(awk -v a="$n_med" -v b="$c_med" 'BEGIN { printf "%.2f", a / b }')
echo "[$FLAVOR] ratio noisy/clean (median): $ratio (target <= 1.10)"

echo "== 2. statements per verify (SHOW GLOBAL STATUS deltas)"
COUNTERS="'Com_stmt_execute','Com_stmt_prepare','Com_stmt_close','Questions','Com_select'"
status() { sql -e "SHOW GLOBAL STATUS WHERE Variable_name IN ($COUNTERS)" | sort; }
# delta of two status dumps as "name delta" lines
delta() { join <(echo "$1") <(echo "$2") | awk '{ print $1, $3 - $2 }'; }
min_delta() { # min per counter over the given delta dumps
	cat | awk '{ if (!($1 in m) || $2 < m[$1]) m[$1] = $2 } END { for (k in m) print k, m[k] }' | sort
}
overheads=""
verifies=""
for _ in 1 2 3 4 5; do
	a=$(status)
	b=$(status)
	overheads+="$(delta "$a" "$b")"$'\n'
	a=$(status)
	"$CATALOG_BIN" --database-url "$(url "$NOISY")" verify >/dev/null
	b=$(status)
	verifies+="$(delta "$a" "$b")"$'\n'
done
overhead=$(echo -n "$overheads" | grep . | min_delta)
per_verify=$(echo -n "$verifies" | grep . | min_delta)
printf '%-18s %8s\n' counter per_verify
join <(echo "$per_verify") <(echo "$overhead") | awk '{ printf "%-18s %8d\n", $1, $2 - $3 }'
execs=$(join <(echo "$per_verify") <(echo "$overhead") | awk '$1 == "Com_stmt_execute" { print $2 - $3 }')
echo "[$FLAVOR] prepared executions per catalog table: $(awk -v e="$execs" -v t="$catalog_tables" 'BEGIN { printf "%.2f", e / t }') (target <= 3, plus connection setup)"

echo "== 3. one index's exactness: old global anti-join vs new single-index read"
OLD_SQL="SELECT COUNT(*) FROM information_schema.STATISTICS s WHERE s.INDEX_NAME = '$INDEX_NAME' AND NOT EXISTS (SELECT 1 FROM information_schema.STATISTICS t WHERE t.TABLE_SCHEMA = s.TABLE_SCHEMA AND t.TABLE_NAME = s.TABLE_NAME AND t.INDEX_NAME = s.INDEX_NAME AND t.SEQ_IN_INDEX = s.SEQ_IN_INDEX + 1) AND s.SEQ_IN_INDEX <> 3"
NEW_SQL="SELECT INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, SUB_PART, COLLATION, INDEX_TYPE, $HIDDEN FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = '$NOISY' AND TABLE_NAME = '$INDEX_TABLE' AND INDEX_NAME = '$INDEX_NAME' ORDER BY SEQ_IN_INDEX"
time_sql() {
	local t0 t1
	t0=$(now_ns)
	sql -e "$1" >/dev/null
	t1=$(now_ns)
	echo $((t1 - t0))
}
scanned() { # rows the server read into/through I_S temp tables for one statement
	sql -e "$1; SHOW SESSION STATUS LIKE 'Handler_read_rnd_next'" | tail -1 | awk '{ print $2 }'
}
printf '%-10s %10s %10s %10s %14s\n' query median_ms min_ms max_ms rows_scanned
for which in baseline old new; do
	case $which in
	baseline) q="SELECT 1" ;;
	old) q=$OLD_SQL ;;
	new) q=$NEW_SQL ;;
	esac
	time_sql "$q" >/dev/null
	ns=()
	for _ in $(seq 1 "$RUNS"); do ns+=("$(time_sql "$q")"); done
	read -r med min max < <(printf '%s\n' "${ns[@]}" | stats)
	printf '%-10s %10s %10s %10s %14s\n' "$which" "$med" "$min" "$max" "$(scanned "$q")"
done
echo "EXPLAIN old (outer, inner):"
sql -e "$EXPLAIN $OLD_SQL" | awk -F'\t' '{ print "  " $3, "|", $NF }'
echo "EXPLAIN new:"
sql -e "$EXPLAIN $NEW_SQL" | awk -F'\t' '{ print "  " $3, "|", $NF }'
echo "== 4. rows the server scans per inspection read, prepared with bound parameters"
# The I_S lookup optimisation must apply to bound parameters, not only to
# literals: the rows scanned must not depend on how many tables exist.
printf '%-10s %8s %8s\n' read clean noisy
for which in TABLES COLUMNS STATISTICS; do
	row="$which"
	for target in "$CLEAN" "$NOISY"; do
		n=$(sql -e "SET @s = '$target', @t = '$INDEX_TABLE';
			PREPARE p FROM 'SELECT COUNT(*) FROM information_schema.$which WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?';
			EXECUTE p USING @s, @t;
			SHOW SESSION STATUS LIKE 'Handler_read_rnd_next'" | tail -1 | awk '{ print $2 }')
		row="$row $n"
	done
	printf '%-10s %8s %8s\n' $row
done
echo "(schemas are kept for reruns; drop them with: $0 --cleanup)"
