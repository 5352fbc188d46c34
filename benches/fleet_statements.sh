#!/usr/bin/env bash
# Statements per target of an `apply --fleet` upgrade on MySQL (issue 23):
# N tenant schemas (default 20) on one MySQL server holding the shipped
# catalog plus a legacy `BenchJobs` (1,000 rows) lacking a column and an
# index of the bench catalog (as benches/fleet_bench.sh's upgrade: 2 steps
# per target), one `apply --fleet` on one lane, then the server's
# statement history (performance_schema.events_statements_history_long,
# whose consumer this script turns on) grouped by statement: count, per
# target, server time per target. A `verify --fleet` must pass after it.
#
#   benches/fleet_statements.sh            set up, measure, drop everything
#   benches/fleet_statements.sh --cleanup  drop every schema this script created
#
# Environment: N (20), PORT (3307; a MySQL server: MariaDB keeps no such
# history), PER_SERVER (4), CATALOG_BIN (target/release/catalog),
# SQL_CLIENT (mariadb). The history is the server's, shared with every
# other client: statements are those whose current schema is a tenant's
# (the fleet's chunk pre-read runs on a session without one and is left
# out, except its `SHOW CREATE TABLE`s, which name the schema).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."

N=${N:-20}
PORT=${PORT:-3307}
PER_SERVER=${PER_SERVER:-4}
CATALOG_BIN=${CATALOG_BIN:-target/release/catalog}
SQL_CLIENT=${SQL_CLIENT:-mariadb}
PREFIX=scstmtbench
WORK=$(mktemp -d)

sql() { $SQL_CLIENT --protocol=tcp -h127.0.0.1 -P"$PORT" -uroot --batch "$@"; }
names() { for i in $(seq -f '%04g' 1 "$N"); do echo "${PREFIX}_$i"; done; }
drop_all() {
	local s
	for s in $(sql --skip-column-names -e "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '${PREFIX}\\_%'"); do
		sql -e "DROP DATABASE \`$s\`"
	done
}
cleanup() {
	drop_all
	rm -rf "$WORK"
}
if [ "${1:-}" = --cleanup ]; then
	drop_all
	exit 0
fi
trap cleanup EXIT
[ -x "$CATALOG_BIN" ] || cargo build --release -p schema-catalog-cli

drop_all
$CATALOG_BIN render --catalog catalog --flavor mysql >"$WORK/render.sql"
for s in $(names); do
	echo "CREATE DATABASE \`$s\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin; USE \`$s\`;"
	cat "$WORK/render.sql"
	echo ";"
	printf 'CREATE TABLE BenchJobs (Id bigint unsigned NOT NULL AUTO_INCREMENT, State varchar(32) COLLATE utf8mb4_bin NOT NULL, Payload varchar(255) COLLATE utf8mb4_bin, PRIMARY KEY (Id)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n'
	printf "INSERT INTO BenchJobs (State, Payload) SELECT ELT(1 + seq %% 3, 'new', 'leased', 'done'), CONCAT('payload-', seq) FROM (SELECT a.n * 100 + b.n * 10 + c.n AS seq FROM %s a, %s b, %s c) d;\n" \
		"(SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)" \
		"(SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)" \
		"(SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)"
done | sql
mkdir "$WORK/catalog"
cp catalog/*.yaml "$WORK/catalog/"
# The bench catalog's BenchJobs: benches/fleet_bench.sh's.
sed -n '/^cat >"\$WORK\/catalog\/bench_jobs.yaml" <<.YAML.$/,/^YAML$/p' benches/fleet_bench.sh | sed '1d;$d' >"$WORK/catalog/bench_jobs.yaml"
printf "servers:\n  - url: mysql://root@127.0.0.1:%s\n    schemas: {like: '%s\\\\_%%'}\nparallel: {servers: 1, per_server: %s}\n" "$PORT" "$PREFIX" "$PER_SERVER" >"$WORK/fleet.yaml"

sql -e "UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME = 'events_statements_history_long'"
sql -e "TRUNCATE performance_schema.events_statements_history_long"
t0=$(date +%s.%N)
$CATALOG_BIN apply --catalog "$WORK/catalog" --fleet "$WORK/fleet.yaml" --timeout 30 >"$WORK/apply.out" || { tail -5 "$WORK/apply.out"; echo "apply --fleet failed"; exit 1; }
t1=$(date +%s.%N)
$CATALOG_BIN verify --catalog "$WORK/catalog" --fleet "$WORK/fleet.yaml" --timeout 30 >/dev/null || { echo "verify --fleet after the upgrade failed"; exit 1; }
echo "apply --fleet of $N targets: $(echo "$t1 - $t0" | bc) s, then verify --fleet exit 0; binary $CATALOG_BIN; load $(cut -d' ' -f1-3 /proc/loadavg)"
mine="CURRENT_SCHEMA LIKE '${PREFIX}\\_%' OR (CURRENT_SCHEMA IS NULL AND SQL_TEXT LIKE 'SHOW CREATE TABLE \`${PREFIX}\\_%')"
sql -e "SELECT COUNT(*) AS n, ROUND(COUNT(*) / $N, 1) AS per_target, ROUND(SUM(TIMER_WAIT) / 1e9 / $N, 1) AS ms_per_target,
  IF(SQL_TEXT LIKE 'SHOW CREATE TABLE%', 'SHOW CREATE TABLE', IF(SQL_TEXT LIKE 'USE %', 'USE', LEFT(REGEXP_REPLACE(COALESCE(DIGEST_TEXT, SQL_TEXT), '\\\\s+', ' '), 70))) AS statement
  FROM performance_schema.events_statements_history_long WHERE $mine GROUP BY statement ORDER BY ms_per_target DESC"
sql -e "SELECT COUNT(*) AS n, ROUND(COUNT(*) / $N, 1) AS per_target, ROUND(SUM(TIMER_WAIT) / 1e9 / $N, 1) AS ms_per_target
  FROM performance_schema.events_statements_history_long WHERE $mine"
