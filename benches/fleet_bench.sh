#!/usr/bin/env bash
# Benchmark of `catalog ... --fleet` (issue 23) against a shell loop of
# single `catalog` runs on the same schemas.
#
#   benches/fleet_bench.sh            set up, measure, drop everything
#   benches/fleet_bench.sh --cleanup  drop every schema this script created
#
# Servers: MariaDB on 127.0.0.1:3306 and MySQL on 127.0.0.1:3307 (root, no
# password; FLEET_SERVERS="3306 3307" to change the ports). TENANTS schemas
# (default 1,000), half on each server, each holding the shipped catalog.
# Measured, each as process wall time:
#   1. setup: the shipped catalog rendered into every schema (or, with
#      GREENFIELD=1, a timed greenfield `apply --fleet`);
#   2. `verify --fleet` (median of RUNS) vs a loop of `catalog verify`;
#   3. no-op `apply --fleet` (median of RUNS) vs a loop of `catalog apply`;
#   4. an upgrade from a legacy revision: every tenant also holds a legacy
#      `BenchJobs` table (1,000 rows) lacking a column and an index of the
#      bench catalog (shipped catalog + BenchJobs): `apply --fleet` vs a loop
#      (the legacy shape restored between the two), each followed by a
#      `verify --fleet` that must pass (every target exact);
#   5. `skeema diff` over the same schemas, when skeema is installed.
# The machine's load average is printed before and after.
#
# Environment: TENANTS (1000), RUNS (3), PARALLEL_PER_SERVER (4), LOOPS (1;
# 0 skips the shell loops: the fleet figures only, e.g. at 1,000 tenants
# where the loops take most of an hour), UPGRADE (1; 0 skips steps 4 and 5),
# KEEP (0; 1 leaves the schemas in place at the end, for profiling by
# hand: `--cleanup` drops them), TIMEOUT
# (--timeout of every catalog run, fleet and loop alike: 30 s, for a
# loaded machine), GREENFIELD
# (1: time the greenfield apply --fleet as step 1; default: set up by SQL),
# CATALOG_BIN (target/release/catalog when built, else target/debug/catalog),
# SQL_CLIENT (mariadb), PREFIX (scfleetbench_: the schemas' name prefix; another
# prefix lets two benches share the servers without dropping each other's),
# READERS (2: application
# readers per server during the fleet upgrade, each a loop of point reads
# of BenchJobs in tenants spread over the run; their worst read latency is
# printed per server: the busy rules' stall bound, docs/apply.md, is
# --lock-wait (2 s) + 0.5 s; 0 runs none).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."

TENANTS=${TENANTS:-1000}
RUNS=${RUNS:-3}
PER_SERVER=${PARALLEL_PER_SERVER:-4}
LOOPS=${LOOPS:-1}
UPGRADE=${UPGRADE:-1}
KEEP=${KEEP:-0}
TIMEOUT=${TIMEOUT:-30}
SERVERS=(${FLEET_SERVERS:-3306 3307})
SQL_CLIENT=${SQL_CLIENT:-mariadb}
PREFIX=${PREFIX:-scfleetbench_}
if [ -z "${CATALOG_BIN:-}" ]; then
	CATALOG_BIN=target/release/catalog
	[ -x "$CATALOG_BIN" ] || CATALOG_BIN=target/debug/catalog
fi
[ -x "$CATALOG_BIN" ] || cargo build -p schema-catalog-cli
WORK=$(mktemp -d)
PER=$((TENANTS / ${#SERVERS[@]}))

# shellcheck source=benches/common.sh
. benches/common.sh # skeema_flavor; its sql() is replaced by the one below
sql() { $SQL_CLIENT --protocol=tcp -h127.0.0.1 -P"$1" -uroot --batch --skip-column-names -e "$2"; }

names() { for i in $(seq -f '%04g' 1 "$PER"); do echo "$PREFIX$i"; done; }

drop_all() {
	local port s
	for port in "${SERVERS[@]}"; do
		s=$(sql "$port" "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '${PREFIX//_/\\_}%'" |
			sed 's/.*/DROP DATABASE `&`;/')
		[ -n "$s" ] && sql "$port" "$s"
	done
	return 0
}

cleanup() {
	[ "$KEEP" = 1 ] || drop_all
	rm -rf "$WORK"
}

if [ "${1:-}" = --cleanup ]; then
	drop_all
	exit 0
fi
trap cleanup EXIT

# Runs a command (its output to $WORK/last.out): wall seconds in $T, exit code in $RC.
# CPU seconds (user + system) the local servers' processes have used.
server_cpu() {
	local pid sum=0
	for pid in $(pgrep -x 'mariadbd|mysqld'); do
		sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
	done
	echo "$sum"
}

# CPU seconds of this shell's finished children (the timed command).
client_cpu() { awk '{print $16 + $17}' "/proc/$$/stat"; }

# Runs "$@": RC its exit code, T its wall time, CPU what the local servers
# and the command itself spent meanwhile (a 2-core machine gives at most 2
# CPU seconds a second: the floor under the wall time).
timed() {
	local t0 t1 s0 c0 hz
	hz=$(getconf CLK_TCK)
	s0=$(server_cpu)
	c0=$(client_cpu)
	t0=$(date +%s.%N)
	set +e
	"$@" >"$WORK/last.out" 2>"$WORK/last.err"
	RC=$?
	set -e
	t1=$(date +%s.%N)
	T=$(echo "$t1 - $t0" | bc)
	CPU="CPU: servers $(echo "scale=2; ($(server_cpu) - $s0) / $hz" | bc) s, client $(echo "scale=2; ($(client_cpu) - $c0) / $hz" | bc) s"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

fleet_file() {
	local port
	echo "servers:"
	for port in "${SERVERS[@]}"; do
		printf "  - url: mysql://root@127.0.0.1:%s\n    schemas: {like: '%s%%'}\n" "$port" "${PREFIX//_/\\_}"
	done
	echo "parallel: {servers: ${#SERVERS[@]}, per_server: $PER_SERVER}"
}

# The loop a user writes today: one process per schema.
loop() {
	local cmd=$1 catalog=$2 port s rc=0
	for port in "${SERVERS[@]}"; do
		for s in $(names); do
			$CATALOG_BIN "$cmd" --catalog "$catalog" --timeout "$TIMEOUT" --database-url "mysql://root@127.0.0.1:$port/$s" >/dev/null 2>&1 || rc=$?
		done
	done
	return $rc
}

# `timed_loop ...`, or with LOOPS=0 nothing (T=skipped).
timed_loop() {
	if [ "$LOOPS" = 0 ]; then
		T=skipped RC=-
	else
		timed loop "$@"
	fi
}

echo "fleet_bench: $TENANTS tenants ($PER on each of ${SERVERS[*]}), binary $CATALOG_BIN, parallel ${#SERVERS[@]} x $PER_SERVER"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (nproc $(nproc))"
load() { echo "[load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S)]"; }
drop_all
for port in "${SERVERS[@]}"; do
	sql "$port" "$(names | sed 's/.*/CREATE DATABASE `&` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;/')"
done
fleet_file >"$WORK/fleet.yaml"

if [ "${GREENFIELD:-0}" = 1 ]; then
	timed $CATALOG_BIN apply --catalog catalog --fleet "$WORK/fleet.yaml" --timeout "$TIMEOUT"
	[ "$RC" = 0 ] || { tail -5 "$WORK/last.out"; echo "greenfield apply failed: $RC"; exit 1; }
	echo "1. greenfield apply --fleet (shipped catalog, $TENANTS targets): $T s"
else
	# Setup without measuring: the shipped catalog's CREATE TABLEs as
	# `catalog render` prints them for each server's flavor, one batch per server.
	for port in "${SERVERS[@]}"; do
		case $(sql "$port" "SELECT VERSION()") in *MariaDB*) flavor=mariadb ;; *) flavor=mysql ;; esac
		$CATALOG_BIN render --catalog catalog --flavor "$flavor" >"$WORK/render.sql"
		for s in $(names); do
			echo "USE \`$s\`;"
			cat "$WORK/render.sql"
		done >"$WORK/setup-$port.sql"
		$SQL_CLIENT --protocol=tcp -h127.0.0.1 -P"$port" -uroot <"$WORK/setup-$port.sql" &
	done
	wait
	echo "1. setup: the shipped catalog rendered into $TENANTS schemas (GREENFIELD=1 times apply --fleet instead) $(load)"
fi

: >"$WORK/v"
for _ in $(seq "$RUNS"); do
	timed $CATALOG_BIN verify --catalog catalog --fleet "$WORK/fleet.yaml" --timeout "$TIMEOUT"
	[ "$RC" = 0 ] || { tail -5 "$WORK/last.out"; echo "verify --fleet failed: $RC"; exit 1; }
	echo "$T" >>"$WORK/v"
done
vcpu=$CPU
timed_loop verify catalog
echo "2. verify --fleet: $(median <"$WORK/v") s (median of $RUNS: $(paste -sd' ' "$WORK/v"); last run's $vcpu); loop of catalog verify: $T s (exit $RC) $(load)"

: >"$WORK/a"
for _ in $(seq "$RUNS"); do
	timed $CATALOG_BIN apply --catalog catalog --fleet "$WORK/fleet.yaml" --timeout "$TIMEOUT"
	[ "$RC" = 0 ] || { tail -5 "$WORK/last.out"; echo "no-op apply --fleet failed: $RC"; exit 1; }
	echo "$T" >>"$WORK/a"
done
acpu=$CPU
timed_loop apply catalog
echo "3. no-op apply --fleet: $(median <"$WORK/a") s (median of $RUNS: $(paste -sd' ' "$WORK/a"); last run's $acpu); loop of catalog apply: $T s (exit $RC) $(load)"

if [ "$UPGRADE" = 0 ]; then
	echo "4. upgrade: skipped (UPGRADE=0)"
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
	exit 0
fi

# 4. The upgrade: the bench catalog is the shipped one plus BenchJobs.
mkdir "$WORK/catalog"
cp catalog/*.yaml "$WORK/catalog/"
cat >"$WORK/catalog/bench_jobs.yaml" <<'YAML'
table: BenchJobs
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
    auto_increment: true
  - name: State
    type: varchar(32)
    nullable: false
  - name: Payload
    type: varchar(255)
  - name: Note
    type: varchar(64)
primary_key: [Id]
indexes:
  - name: idx_bench_jobs_state
    columns: [State]
YAML
legacy() {
	local port s stmts
	for port in "${SERVERS[@]}"; do
		stmts=$(for s in $(names); do
			printf 'DROP TABLE IF EXISTS `%s`.BenchJobs; CREATE TABLE `%s`.BenchJobs (Id bigint unsigned NOT NULL AUTO_INCREMENT, State varchar(32) COLLATE utf8mb4_bin NOT NULL, Payload varchar(255) COLLATE utf8mb4_bin, PRIMARY KEY (Id)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin; INSERT INTO `%s`.BenchJobs (State, Payload) SELECT ELT(1 + seq %% 3, %s), CONCAT(%s, seq) FROM (SELECT a.n * 100 + b.n * 10 + c.n AS seq FROM (SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) a, (SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) b, (SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) c) d;\n' \
				"$s" "$s" "$s" "'new', 'leased', 'done'" "'payload-'"
		done)
		# On stdin: 1,000 statements do not fit an argument list.
		printf '%s\n' "$stmts" | $SQL_CLIENT --protocol=tcp -h127.0.0.1 -P"$port" -uroot --batch
	done
}
# An application reader: one client session reading BenchJobs by range of
# primary key, round robin over every 10th tenant of its server, a read
# about every 50 ms, until $WORK/stop exists. Each read reports when the
# server started it (SYSDATE(6)); the widest gap between two reads, less
# the pacing, is the longest an application read waited. One session, no
# process per read: the reader must not load the machine it measures.
reader() {
	local port=$1 first=$2 s
	local tenants=($(names | awk -v f="$first" 'NR % 10 == f % 10'))
	while [ ! -e "$WORK/stop" ]; do
		for s in "${tenants[@]}"; do
			[ -e "$WORK/stop" ] && break
			echo "SELECT UNIX_TIMESTAMP(SYSDATE(6)), COUNT(*) FROM \`$s\`.BenchJobs WHERE Id BETWEEN 100 AND 200;"
			sleep 0.05
		done
	done | $SQL_CLIENT --protocol=tcp -h127.0.0.1 -P"$port" -uroot --batch --skip-column-names --force \
		>"$WORK/reader-$port-$first.out" 2>>"$WORK/reader-$port.err"
}
READERS=${READERS:-2}
legacy
rm -f "$WORK/stop"
pids=()
for port in "${SERVERS[@]}"; do
	: >"$WORK/reader-$port.err"
	for r in $(seq "$READERS"); do
		reader "$port" "$r" &
		pids+=($!)
	done
done
timed $CATALOG_BIN apply --catalog "$WORK/catalog" --fleet "$WORK/fleet.yaml" --timeout "$TIMEOUT"
touch "$WORK/stop"
for p in "${pids[@]}"; do wait "$p" || true; done
[ "$RC" = 0 ] || { tail -5 "$WORK/last.out"; echo "upgrade apply --fleet failed: $RC"; exit 1; }
t=$T
echo "   (upgrade apply --fleet: $t s, $CPU $(load))"
if [ "$READERS" != 0 ]; then
	for port in "${SERVERS[@]}"; do
		gaps=$(for f in "$WORK"/reader-"$port"-*.out; do awk 'NR > 1 {printf "%d\n", ($1 - p) * 1000} {p = $1}' "$f"; done | sort -n |
			awk '{a[NR]=$1} END {printf "%d reads, gap between reads p50 %d ms, p99 %d ms, max %d ms", NR + 0, a[int(NR*0.5)+1], a[int(NR*0.99)+1], a[NR]}')
		echo "   application reads on $port during it: $gaps (pacing 50 ms), $(grep -c . "$WORK/reader-$port.err" || true) errors"
	done
fi
timed $CATALOG_BIN verify --catalog "$WORK/catalog" --fleet "$WORK/fleet.yaml" --timeout "$TIMEOUT"
[ "$RC" = 0 ] || { echo "verify after the fleet upgrade failed: $RC"; exit 1; }
rows=$(sql "${SERVERS[0]}" "SELECT COUNT(*) FROM \`${PREFIX}0001\`.BenchJobs")
if [ "$LOOPS" = 0 ]; then
	l=skipped lrc=- RC=-
else
	legacy
	timed loop apply "$WORK/catalog"
	l=$T lrc=$RC
	echo "   (upgrade loop of catalog apply: $l s, $CPU)"
	timed $CATALOG_BIN verify --catalog "$WORK/catalog" --fleet "$WORK/fleet.yaml" --timeout "$TIMEOUT"
fi
echo "4. upgrade (2 steps per target, $rows rows per BenchJobs): apply --fleet $t s; loop of catalog apply $l s (exit $lrc); verify --fleet after each: exit 0 / $RC $(load)"

if command -v skeema >/dev/null; then
	# Skeema's multi-tenant form: one directory per server holding one
	# schema's definition, `schema=` listing every tenant it applies to.
	mkdir -p "$WORK/skeema"
	list=$(names | paste -sd, -)
	for port in "${SERVERS[@]}"; do
		(cd "$WORK/skeema" && skeema init -d "p$port" --host 127.0.0.1 --port "$port" --user root --schema "${PREFIX}0001" >>"$WORK/skeema-init.log" 2>&1) || echo "skeema init on $port failed: $(tail -1 "$WORK/skeema-init.log")"
		sed -i "s/^schema=.*/schema=$list/" "$WORK/skeema/p$port/.skeema"
		skeema_flavor "$WORK/skeema/p$port" "$(sql "$port" 'SELECT VERSION()')"
	done
	t0=$(date +%s.%N)
	src=0
	for port in "${SERVERS[@]}"; do (cd "$WORK/skeema/p$port" && skeema diff >/dev/null 2>>"$WORK/skeema.err") || src=$?; done
	[ "$src" = 0 ] || grep -E "\[(ERROR|WARN)\]" "$WORK/skeema.err" | grep -v "vendor/version" | sort | uniq -c | sort -rn | head -5 >&2
	schemas_seen=$(grep -c "No differences found" "$WORK/skeema.err" || true)
	t1=$(date +%s.%N)
	echo "5. skeema diff over the same schemas: $(echo "$t1 - $t0" | bc) s (exit $src, $schemas_seen schemas with no differences; $(skeema version 2>&1 | head -1))"
else
	echo "5. skeema: not installed"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
