#!/usr/bin/env bash
# Latency benchmark (issue 11): `catalog verify` and a no-op `catalog apply`
# through a TCP proxy that adds 0, 20 and 100 ms of round-trip time
# (examples/latency_proxy.rs), for the shipped catalog and a generated
# 50-table catalog. Reports the median process wall time of RUNS runs and
# the round trips the proxy counted per run (every time the client spoke
# after the server had: handshake included).
#
#   benches/latency_bench.sh            set up (idempotent) and measure
#   benches/latency_bench.sh --cleanup  drop the schemas this script created
#
# Target: verify at 20 ms RTT within handshake + 3 round trips of reads,
# under about 0.2 s, for both catalogs.
#
# Environment: MYSQL (client, default `mariadb`), DB_HOST (127.0.0.1),
# DB_PORT (3306), DB_USER (root), DB_PASS (empty), RTTS ("0 20 100"), RUNS
# (5), CATALOG_BIN (target/release/catalog), PROXY_BIN
# (target/release/examples/latency_proxy); both built when missing.
# The CLI connects only where the URL says (no switch to a local socket), so
# the traffic really crosses the proxy.
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."

MYSQL=${MYSQL:-mariadb}
DB_HOST=${DB_HOST:-127.0.0.1}
DB_PORT=${DB_PORT:-3306}
DB_USER=${DB_USER:-root}
DB_PASS=${DB_PASS:-}
RTTS=${RTTS:-0 20 100}
RUNS=${RUNS:-5}
CATALOG_BIN=${CATALOG_BIN:-target/release/catalog}
PROXY_BIN=${PROXY_BIN:-target/release/examples/latency_proxy}
PREFIX=sclat
WORK=$(mktemp -d)
PROXY_PID=

cleanup_work() {
	[ -n "$PROXY_PID" ] && kill "$PROXY_PID" 2>/dev/null && wait "$PROXY_PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup_work EXIT

sql() { MYSQL_PWD="$DB_PASS" "$MYSQL" -h"$DB_HOST" -P"$DB_PORT" -u"$DB_USER" --batch --skip-column-names "$@"; }

url() { # host port schema
	local auth=$DB_USER
	[ -n "$DB_PASS" ] && auth="$DB_USER:$DB_PASS"
	echo "mysql://$auth@$1:$2/$3"
}

if [ "${1:-}" = "--cleanup" ]; then
	for s in $(sql -e "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '${PREFIX}\\_%'"); do
		echo "dropping $s"
		sql -e "DROP DATABASE \`$s\`"
	done
	exit 0
fi

[ -x "$CATALOG_BIN" ] || cargo build --release -p schema-catalog-cli
[ -x "$PROXY_BIN" ] || cargo build --release -p schema-catalog --example latency_proxy

# The generated catalog: 50 tables of a key, two columns and one index.
GEN=$WORK/gen50
mkdir -p "$GEN"
cp catalog/catalog.yaml "$GEN/"
for i in $(seq -w 0 49); do
	cat >"$GEN/gen_$i.yaml" <<YAML
table: gen_0$i
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
  - name: Lane
    type: varchar(64)
    nullable: false
  - name: Note
    type: text
primary_key: [Id]
indexes:
  - name: idx_gen_0${i}_lane
    columns: [Lane]
YAML
done

declare -A CATALOGS=([shipped]=catalog [gen50]=$GEN)
for name in shipped gen50; do
	sql -e "CREATE DATABASE IF NOT EXISTS \`${PREFIX}_$name\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
	"$CATALOG_BIN" --catalog "${CATALOGS[$name]}" --database-url "$(url "$DB_HOST" "$DB_PORT" "${PREFIX}_$name")" apply >/dev/null
done

now_ns() { date +%s%N; }
median_ms() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f", m / 1e6 }'; }

# Waits (deadline 10 s) until every connection the proxy accepted has
# closed; prints the round trips of connections closed after line $1.
round_trips_since() {
	local from=$1 deadline=$((SECONDS + 10))
	while [ "$(grep -c '^accepted' "$WORK/proxy.log")" != "$(grep -c '^closed' "$WORK/proxy.log")" ]; do
		[ $SECONDS -lt $deadline ] || { echo "proxy connections did not close" >&2; exit 1; }
		read -r -t 0.05 <> <(:) || true
	done
	tail -n +"$((from + 1))" "$WORK/proxy.log" | sed -n 's/^closed .* round_trips=\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); server $(sql -e 'SELECT VERSION()')"
printf '%-8s %-8s %-7s %10s %12s\n' rtt_ms catalog command median_ms round_trips
for rtt in $RTTS; do
	: >"$WORK/proxy.log"
	"$PROXY_BIN" 0 "$DB_HOST:$DB_PORT" "$rtt" >"$WORK/proxy.log" &
	PROXY_PID=$!
	deadline=$((SECONDS + 10))
	until grep -q '^listening on' "$WORK/proxy.log"; do
		[ $SECONDS -lt $deadline ] || { echo "proxy did not start" >&2; exit 1; }
		read -r -t 0.05 <> <(:) || true
	done
	port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$WORK/proxy.log")
	for name in shipped gen50; do
		for cmd in verify apply; do
			times=()
			trips=
			for _ in $(seq 1 "$RUNS"); do
				from=$(wc -l <"$WORK/proxy.log")
				t0=$(now_ns)
				"$CATALOG_BIN" --catalog "${CATALOGS[$name]}" --database-url "$(url 127.0.0.1 "$port" "${PREFIX}_$name")" "$cmd" >/dev/null
				t1=$(now_ns)
				times+=($((t1 - t0)))
				trips=$(round_trips_since "$from")
			done
			printf '%-8s %-8s %-7s %10s %12s\n' "$rtt" "$name" "$cmd" "$(printf '%s\n' "${times[@]}" | median_ms)" "$trips"
		done
	done
	kill "$PROXY_PID"
	wait "$PROXY_PID" 2>/dev/null || true
	PROXY_PID=
done
