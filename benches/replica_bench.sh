#!/usr/bin/env bash
# Replica benchmark (docs/replicas.md "Benchmark"): one ADD INDEX on a
# ROWS-row table, on the replica pairs of scripts/replica-pair (MariaDB
# 3406 -> 3407, MySQL 9.7 3408 -> 3409), per scenario:
#
#   raw  the ALTER run by hand with the client on the primary (the baseline:
#        its time, then the replica's catch-up by GTID)
#   a    catalog apply, no --replica (what apply did before the guard)
#   b    catalog apply --replica (the guard)
#   c0   as a, with a 15 s read transaction open on the replica
#   c    as b, with a 15 s read transaction open on the replica
#   d    MariaDB only: the ALTER with a session binlog_alter_two_phase=1,
#        d-par with slave_parallel_threads=4 on the replica, d-single with
#        the replica's default single applier thread (apply has no flag for
#        it yet: the raw ALTER drives it)
#   e    pt-online-schema-change --max-lag 1 (the peer that throttles on
#        replica lag; Debian's percona-toolkit, installed with apt if missing)
#
# Measured per scenario (benches/replica_probe.py, running from 1.5 s
# before the tool until the replica has caught up): heartbeat lag sampled
# on the replica every 100 ms (max, p99; the heartbeat is written on the
# primary every 200 ms with the primary's clock), the tool's wall time and
# exit code, the time from its exit to the first passing `catalog verify`
# on the replica (0: the first, immediate verify passed), the time from its
# exit to the replica executing the primary's GTID position, and the
# longest wait of a point SELECT probe on the replica every 100 ms, and
# how many 1 s looks found the replica's applier stopped or delayed by
# someone else (the pairs are shared with the test suites: such a row is
# not a measurement of the tool; rerun it).
#
# Usage: benches/replica_bench.sh [--rows N] [--8m] [mariadb] [mysql]
#        (default: 2,000,000 rows, both pairs; from any directory)
# Env:   SCENARIOS ("raw a b c0 c d e"), LOCK_WAIT (2), BUSY_TIMEOUT (60),
#        HOLD (15, seconds of the replica transaction), CARGO_TARGET_DIR,
#        CATALOG_BIN (a catalog binary to use instead of building one),
#        RESULTS (directory for the raw outputs; default /tmp/replica_bench.PID)
# Needs: root (scripts/replica-pair, apt), the mariadb client (it talks to
#        MySQL 9.7 too), jq, python3 + pip (PyMySQL is installed if missing).
# Prints the Markdown table on stdout; progress and raw JSON paths on stderr.
# Uniquely named schemas (sc_rbench_PID_*), dropped at the end; any replica
# setting changed (slave_parallel_threads) is restored by a trap.
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=2000000
PAIRS=()
while [ $# -gt 0 ]; do
	case $1 in
	--rows) ROWS=$2; shift 2 ;;
	--8m) ROWS=8000000; shift ;;
	mariadb | mysql) PAIRS+=("$1"); shift ;;
	*) echo "usage: $0 [--rows N] [--8m] [mariadb] [mysql]" >&2; exit 2 ;;
	esac
done
[ ${#PAIRS[@]} -eq 0 ] && PAIRS=(mariadb mysql)
SCENARIOS=${SCENARIOS:-"raw a b c0 c d e"}
LOCK_WAIT=${LOCK_WAIT:-2}
BUSY_TIMEOUT=${BUSY_TIMEOUT:-60}
HOLD=${HOLD:-15}
BATCH=200000
[ $((ROWS % BATCH)) -eq 0 ] || { echo "--rows must be a multiple of $BATCH" >&2; exit 2; }

log() { echo "# $(date -u +%T) $*" >&2; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
secs() { awk -v ms="$1" 'BEGIN { if (ms == "") print "-"; else printf "%.2f", ms / 1000 }'; }

# --- tools -----------------------------------------------------------------
BIN=${CATALOG_BIN:-}
if [ -z "$BIN" ]; then
	cargo build --release -p schema-catalog-cli >&2
	BIN=${CARGO_TARGET_DIR:-target}/release/catalog
fi
python3 -c 'import pymysql' 2>/dev/null || python3 -m pip install -q pymysql >&2
if [[ " $SCENARIOS " == *" e "* ]] && ! command -v pt-online-schema-change >/dev/null; then
	log "installing percona-toolkit"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq percona-toolkit >&2 \
		|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq percona-toolkit >&2; }
fi

WORK=$(mktemp -d)
P= R= VENDOR= SCHEMA= HB= PROBE_PID= RESTORE_THREADS=
psql() { mariadb --protocol=tcp -h127.0.0.1 -P"$P" -uroot --batch --skip-column-names "$@"; }
rsql() { mariadb --protocol=tcp -h127.0.0.1 -P"$R" -uroot --batch --skip-column-names "$@"; }

# MariaDB replica: stop both threads, set the applier threads, start again
# (slave_parallel_threads can only change while the slave is stopped).
set_parallel() { rsql -e "STOP SLAVE; SET GLOBAL slave_parallel_threads = $1; START SLAVE"; }

cleanup() {
	set +e
	[ -n "$PROBE_PID" ] && kill "$PROBE_PID" 2>/dev/null && wait "$PROBE_PID" 2>/dev/null
	if [ -n "$RESTORE_THREADS" ]; then
		log "restoring slave_parallel_threads=$RESTORE_THREADS on 127.0.0.1:$R"
		set_parallel "$RESTORE_THREADS"
	fi
	if [ -n "$SCHEMA" ]; then
		psql -e "DROP DATABASE IF EXISTS \`$SCHEMA\`; DROP DATABASE IF EXISTS \`$HB\`"
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The primary's GTID position, and a wait on the replica for it (exit 1 if
# not executed within $1 seconds).
primary_pos() {
	if [ "$VENDOR" = mariadb ]; then psql -e 'SELECT @@gtid_binlog_pos'
	else psql -e "SELECT REPLACE(@@gtid_executed, '\n', '')"; fi
}
wait_replica() {
	local pos r
	pos=$(primary_pos)
	if [ "$VENDOR" = mariadb ]; then
		r=$(rsql -e "SELECT MASTER_GTID_WAIT('$pos', $1)")
	else
		r=$(rsql -e "SELECT WAIT_FOR_EXECUTED_GTID_SET('$pos', $1)")
	fi
	[ "$r" = 0 ]
}

catalog() { "$BIN" --catalog "$WORK/catalog" "$@"; }
INDEX=idx_events_account_created
ALTER="ALTER TABLE Events ADD INDEX $INDEX (Account, CreatedAt), ALGORITHM=INPLACE, LOCK=NONE"

build_table() {
	log "$VENDOR: building $SCHEMA.Events, $ROWS rows (replicated)"
	psql -e "CREATE DATABASE \`$SCHEMA\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
		CREATE DATABASE \`$HB\`;
		CREATE TABLE \`$HB\`.heartbeat (id INT PRIMARY KEY, ts DATETIME(6) NOT NULL);
		INSERT INTO \`$HB\`.heartbeat VALUES (1, NOW(6));
		CREATE TABLE \`$HB\`.dsns (id INT AUTO_INCREMENT PRIMARY KEY, parent_id INT NULL, dsn VARCHAR(255) NOT NULL);
		INSERT INTO \`$HB\`.dsns (dsn) VALUES ('h=127.0.0.1,P=$R,u=root');
		CREATE TABLE \`$HB\`.seq (n INT PRIMARY KEY);
		INSERT INTO \`$HB\`.seq WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000) SELECT n FROM s;
		CREATE TABLE \`$SCHEMA\`.Events (
		  Id bigint unsigned NOT NULL AUTO_INCREMENT,
		  Account int NOT NULL,
		  Kind varchar(32) NOT NULL,
		  Payload varchar(64) NOT NULL,
		  CreatedAt datetime(6) NOT NULL,
		  PRIMARY KEY (Id)
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	local b
	for ((b = 0; b < ROWS / BATCH; b++)); do
		psql "$SCHEMA" -e "INSERT INTO Events (Account, Kind, Payload, CreatedAt)
			SELECT (a.n * 7919 + c.n * 31 + $b) % 100000, ELT(1 + (a.n + c.n) % 4, 'open', 'closed', 'held', 'lost'),
			  LEFT(SHA2(CONCAT(a.n, '-', c.n, '-', $b), 256), 64),
			  TIMESTAMP('2026-01-01') + INTERVAL ((a.n * 1000 + c.n) * 7 + $b) SECOND
			FROM \`$HB\`.seq a JOIN \`$HB\`.seq c WHERE a.n <= $((BATCH / 1000))"
	done
	psql "$SCHEMA" -e "ANALYZE TABLE Events" >/dev/null
	wait_replica 1200 || { log "the replica did not catch up with the build"; exit 1; }
	log "$VENDOR: built; $(psql -e "SELECT ROUND((DATA_LENGTH + INDEX_LENGTH) / 1048576) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '$SCHEMA' AND TABLE_NAME = 'Events'") MB on the primary"
}

write_catalog() {
	mkdir -p "$WORK/catalog"
	cat >"$WORK/catalog/catalog.yaml" <<'EOF'
defaults:
  engine: InnoDB
  charset: utf8mb4
  collation: utf8mb4_bin
EOF
	cat >"$WORK/catalog/events.yaml" <<EOF
table: Events
columns:
  - {name: Id, type: bigint unsigned, nullable: false, auto_increment: true}
  - {name: Account, type: int, nullable: false}
  - {name: Kind, type: varchar(32), nullable: false}
  - {name: Payload, type: varchar(64), nullable: false}
  - {name: CreatedAt, type: datetime(6), nullable: false}
primary_key: [Id]
indexes:
  - {name: $INDEX, columns: [Account, CreatedAt]}
EOF
}

# Drop the index (if there) and wait for the replica, so each scenario starts alike.
reset_index() {
	local n
	n=$(psql -e "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = '$SCHEMA' AND TABLE_NAME = 'Events' AND INDEX_NAME = '$INDEX'")
	[ "$n" != 0 ] && psql "$SCHEMA" -e "ALTER TABLE Events DROP INDEX $INDEX"
	# pt-osc leaves nothing behind on success; after a failure its triggers or _Events_new may stay.
	psql "$SCHEMA" -e "DROP TABLE IF EXISTS _Events_new; DROP TRIGGER IF EXISTS pt_osc_${SCHEMA}_Events_ins;
		DROP TRIGGER IF EXISTS pt_osc_${SCHEMA}_Events_upd; DROP TRIGGER IF EXISTS pt_osc_${SCHEMA}_Events_del"
	wait_replica 600 || { log "the replica did not catch up"; exit 1; }
	scripts/replica-pair status "$VENDOR" >/dev/null 2>&1 || log "WARNING: $VENDOR pair status not ok before the scenario"
}

# The tool of each scenario, run in the foreground; its output in $WORK/$1.out.
tool() {
	local s=$1 out=$WORK/$VENDOR-$1.out
	local primary=mysql://root@127.0.0.1:$P/$SCHEMA replica=mysql://root@127.0.0.1:$R
	case $s in
	raw) psql "$SCHEMA" -e "$ALTER" >"$out" 2>&1 ;;
	a | c0) catalog --database-url "$primary" --format json apply --lock-wait "$LOCK_WAIT" --busy-timeout "$BUSY_TIMEOUT" >"$out" 2>"$out.err" ;;
	b | c) catalog --database-url "$primary" --format json apply --lock-wait "$LOCK_WAIT" --busy-timeout "$BUSY_TIMEOUT" --replica "$replica" >"$out" 2>"$out.err" ;;
	d-par | d-single) psql "$SCHEMA" -e "SET SESSION binlog_alter_two_phase = 1; $ALTER" >"$out" 2>&1 ;;
	e) pt-online-schema-change --no-version-check --alter "ADD INDEX $INDEX (Account, CreatedAt)" \
		--max-lag 1 --check-interval 1 --recursion-method "dsn=D=$HB,t=dsns" \
		--execute "h=127.0.0.1,P=$P,u=root,D=$SCHEMA,t=Events" >"$out" 2>&1 ;;
	esac
}

ROWS_MD=()
RAW_ALTER_MS= RAW_CATCHUP_MS=
run_scenario() {
	local s=$1 hold=0 note=
	case $s in c0 | c) hold=$HOLD ;; esac
	reset_index
	log "$VENDOR: scenario $s"
	python3 benches/replica_probe.py --primary "$P" --replica "$R" --hb-schema "$HB" \
		--schema "$SCHEMA" --table Events --max-id "$ROWS" --hold "$hold" >"$WORK/$VENDOR-$s.probe" &
	PROBE_PID=$!
	# Baseline samples before the tool starts; with a replica transaction,
	# it is 2-3 s old when the tool starts (MariaDB's busy check without
	# METADATA_LOCK_INFO counts a transaction from 1 s of age).
	sleep 1.5
	[ "$hold" != 0 ] && sleep 1.5
	local t0 t1 rc=0
	t0=$(now_ms)
	tool "$s" || rc=$?
	t1=$(now_ms)
	local wall=$((t1 - t0))
	# From the tool's exit: the first passing verify on the replica, and
	# the replica executing the primary's position.
	local verify_ms= caught_ms= deadline=$((t1 + 600000)) tv tries=0 n
	while [ "$(now_ms)" -lt "$deadline" ]; do
		tv=$(now_ms)
		tries=$((tries + 1))
		if catalog --database-url "mysql://root@127.0.0.1:$R/$SCHEMA" verify >/dev/null 2>&1; then
			# 0 when the first verify, run at once, passed; else from the
			# exit to the start of the passing one.
			verify_ms=0
			[ $tries -gt 1 ] && verify_ms=$((tv - t1))
			break
		fi
		if [ "$rc" != 0 ]; then # the tool failed: unless the primary has the index, verify never passes
			n=$(psql -e "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = '$SCHEMA' AND TABLE_NAME = 'Events' AND INDEX_NAME = '$INDEX'")
			[ "$n" = 0 ] && break
		fi
		sleep 0.05
	done
	wait_replica 600 && caught_ms=$(($(now_ms) - t1))
	[ "$hold" != 0 ] && while [ $(($(now_ms) - t0)) -lt $((HOLD * 1000)) ]; do sleep 0.2; done
	sleep 1
	kill "$PROBE_PID"
	wait "$PROBE_PID" || true
	PROBE_PID=
	local p=$WORK/$VENDOR-$s.probe
	cp "$p" "$RESULTS/$VENDOR-$s.probe.json"
	cp "$WORK/$VENDOR-$s.out" "$RESULTS/$VENDOR-$s.out" 2>/dev/null || true
	[ -f "$WORK/$VENDOR-$s.out.err" ] && cp "$WORK/$VENDOR-$s.out.err" "$RESULTS/$VENDOR-$s.err"
	case $s in
	raw) RAW_ALTER_MS=$wall RAW_CATCHUP_MS=$caught_ms ;;
	a | b | c0 | c)
		note=$(jq -r '[.outcome.kind // .outcome // empty | tostring] + [(.steps // [])[] | "step \(.ms) ms, waited \(.waited_ms) ms" + (if (.replicas | length) > 0 then ", replica caught up \(.replicas[0].caught_up_ms) ms, read back \(.replicas[0].read_back)" else "" end)] | join("; ")' "$WORK/$VENDOR-$s.out" 2>/dev/null || echo "no JSON report")
		;;
	e) [ "$rc" != 0 ] && note="fails: $(grep -m1 -iE 'error|failed|DBD' "$WORK/$VENDOR-$s.out" | cut -c1-160 | tr '|' '/')" ;;
	esac
	[ "$s" = raw ] || [ "$s" = d-par ] || [ "$s" = d-single ] && [ "$rc" != 0 ] && note="$(head -c 160 "$WORK/$VENDOR-$s.out" | tr '\n|' ' /')"
	local hold_note=
	[ "$hold" != 0 ] && hold_note=" (replica txn held ${HOLD} s)"
	ROWS_MD+=("| $VENDOR | $s$hold_note | $rc | $(secs $wall) | $(secs "$RAW_ALTER_MS") + $(secs "$RAW_CATCHUP_MS") | $(secs "$verify_ms") | $(secs "$caught_ms") | $(jq -r .lag_max_s "$p") | $(jq -r .lag_p99_s "$p") | $(jq -r .probe_max_s "$p") | $(jq -r '.error_count' "$p") | $(jq -r '.replica_disturbed_count // 0' "$p") | $note |")
	log "${ROWS_MD[-1]}"
}

RESULTS=${RESULTS:-/tmp/replica_bench.$$}
mkdir -p "$RESULTS"
log "raw outputs in $RESULTS; nproc $(nproc); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
write_catalog
exec 9>/tmp/schema-catalog-replica-bench.lock
flock 9
for VENDOR in "${PAIRS[@]}"; do
	scripts/replica-pair start "$VENDOR" >&2
	read -r P R <<<"$(case $VENDOR in mariadb) echo 3406 3407 ;; mysql) echo 3408 3409 ;; esac)"
	SCHEMA=sc_rbench_$$_$VENDOR HB=sc_rbench_hb_$$_$VENDOR
	RAW_ALTER_MS= RAW_CATCHUP_MS=
	build_table
	for s in $SCENARIOS; do
		if [ "$s" = d ]; then
			[ "$VENDOR" = mariadb ] || continue
			orig=$(rsql -e 'SELECT @@slave_parallel_threads')
			RESTORE_THREADS=$orig
			set_parallel 4
			run_scenario d-par
			set_parallel 0
			run_scenario d-single
			set_parallel "$orig"
			RESTORE_THREADS=
		else
			run_scenario "$s"
		fi
	done
	psql -e "DROP DATABASE IF EXISTS \`$SCHEMA\`; DROP DATABASE IF EXISTS \`$HB\`"
	SCHEMA=
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

echo "$ROWS rows, one ADD INDEX; \`nproc\` $(nproc); load average before $LOAD_BEFORE, after $LOAD_AFTER; --lock-wait $LOCK_WAIT --busy-timeout $BUSY_TIMEOUT."
echo
echo "| pair | scenario | exit | wall s | raw ALTER s + replica catch-up s | exit -> verify passes on replica s | exit -> replica executed primary's GTIDs s | lag max s | lag p99 s | probe max wait s | probe errors | replica disturbed s | notes |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS_MD[@]}"
