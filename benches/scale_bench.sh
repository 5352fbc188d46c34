#!/usr/bin/env bash
# Scale benchmark (issue 22, "Cost grows with the work"): how the offline
# commands grow with the catalog, and how the live ones grow with the schema.
#
#   benches/scale_bench.sh                 offline and live (both servers)
#   benches/scale_bench.sh --offline       offline only (no server)
#   benches/scale_bench.sh --live          live only
#   benches/scale_bench.sh --cleanup       drop every schema this script creates
#
# Generated catalogs: N tables t00001..tN, each with 5 columns, a primary key
# and 2 indexes (revision a). Revision b: every 10th table gains a column and
# every 10th (another tenth) gains an index. The dump is revision a rendered
# as CREATE TABLE statements.
#
# Offline (N in OFFLINE_NS, default 1024 2048 4096 8192): `check` and `render`
# of a, `plan --against` dump-a with catalog b, `diff --from a --to b`,
# `import --from` dump-a; peak RSS and CPU time of each at the largest N
# (/usr/bin/time).
#
# Live (N in LIVE_NS, default 64 256 1024, on every URL of LIVE_URLS, default
# the MariaDB at 3306 and the MySQL at 3307): schema scscale_N holds
# revision a (created from the rendered DDL through the SQL client); then
# `verify` of catalog a, `verify` of a 10-table catalog (first 10 tables),
# `plan` of catalog b, a no-op `apply` of catalog a, `import` of the schema,
# and `skeema diff` of the same schema when `skeema` is installed (its ratio
# to verify goes in the table).
#
# Each cell is the median of RUNS (default 3, at least 3) process wall times
# in seconds. The machine's load average is printed before and after.
# Every schema created here is dropped on exit (trap), also on error or ^C.
#
# Environment: RUNS, OFFLINE_NS, LIVE_NS, LIVE_URLS, SQL_CLIENT (default
# `mariadb`), CATALOG_BIN (default target/release/catalog; built with
# `cargo build --release -p schema-catalog-cli` when missing), TIMEOUT
# (--timeout for the live commands, default 120 s), LIVE_IMPORT (1; 0 skips
# the live import column, which takes minutes at 1,024 tables), IMPORT_INTO
# (new; `existing`: `import --from` into an existing empty directory).
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
[ "$RUNS" -lt 3 ] && RUNS=3
OFFLINE_NS=${OFFLINE_NS:-1024 2048 4096 8192}
LIVE_NS=${LIVE_NS:-64 256 1024}
LIVE_URLS=${LIVE_URLS:-mysql://root@127.0.0.1:3306 mysql://root@127.0.0.1:3307}
CATALOG_BIN=${CATALOG_BIN:-target/release/catalog}
TIMEOUT=${TIMEOUT:-120}
LIVE_IMPORT=${LIVE_IMPORT:-1}
PREFIX=scscale
WORK=$(mktemp -d "${TMPDIR:-/tmp}/scale_bench.XXXXXX")

# shellcheck source=benches/common.sh
. benches/common.sh

MODE=all
case "${1:-}" in
--offline) MODE=offline ;;
--live) MODE=live ;;
--cleanup) MODE=cleanup ;;
"") ;;
*)
	echo "usage: $0 [--offline|--live|--cleanup]" >&2
	exit 2
	;;
esac

# Drops this script's schemas on the server bench_server last selected.
drop_all() {
	local s
	for s in $(sql -e "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '${PREFIX}\\_%'"); do
		sql -e "DROP DATABASE \`$s\`"
	done
}
cleanup() {
	local u
	if [ "$MODE" != offline ]; then
		for u in $LIVE_URLS; do
			BENCH_DATABASE_URL=$u
			bench_server 2>/dev/null && drop_all || echo "cleanup: cannot reach $u" >&2
		done
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$MODE" = cleanup ]; then exit 0; fi

if [ ! -x "$CATALOG_BIN" ]; then
	echo "building $CATALOG_BIN"
	cargo build --release -p schema-catalog-cli
fi

# Writes catalog directories $WORK/N/a and $WORK/N/b.
gen_catalog() {
	local n=$1 dir=$WORK/$1
	mkdir -p "$dir/a" "$dir/b"
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		for (rev = 0; rev < 2; rev++) {
			d = dir "/" (rev ? "b" : "a")
			printf "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n" > (d "/catalog.yaml")
			close(d "/catalog.yaml")
			for (i = 1; i <= n; i++) {
				f = sprintf("%s/t%05d.yaml", d, i)
				printf "table: t%05d\ncolumns:\n", i > f
				printf "  - name: Id\n    type: bigint unsigned\n    nullable: false\n" > f
				printf "  - name: TenantId\n    type: bigint unsigned\n    nullable: false\n" > f
				printf "  - name: Name\n    type: varchar(128)\n    nullable: false\n" > f
				printf "  - name: State\n    type: varchar(32)\n    nullable: false\n" > f
				printf "  - name: CreatedAt\n    type: datetime(6)\n    nullable: false\n" > f
				if (rev && i % 10 == 0) printf "  - name: Note\n    type: varchar(255)\n" > f
				printf "primary_key: [Id]\nindexes:\n" > f
				printf "  - name: idx_tenant_name\n    columns: [TenantId, Name]\n" > f
				printf "  - name: idx_state_created\n    columns: [State, CreatedAt]\n" > f
				if (rev && i % 10 == 5) printf "  - name: idx_created\n    columns: [CreatedAt]\n" > f
				close(f)
			}
		}
	}'
}

# Writes the first 10 tables of catalog a as $WORK/N/small.
gen_small() {
	local dir=$WORK/$1
	mkdir -p "$dir/small"
	cp "$dir/a/catalog.yaml" "$dir"/a/t0000[1-9].yaml "$dir/a/t00010.yaml" "$dir/small/"
}

# Seconds (3 decimals) of one run of the command, output discarded; exit
# codes 0 and 1 (drift, not deployable) count, anything else aborts.
time_once() {
	local t0 t1 rc=0
	t0=$(date +%s%N)
	"$@" >/dev/null 2>"$WORK/stderr" || rc=$?
	t1=$(date +%s%N)
	if [ $rc -gt 1 ]; then
		echo "failed ($rc): $*" >&2
		cat "$WORK/stderr" >&2
		exit 1
	fi
	awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f\n", d / 1e9 }'
}

# Median of RUNS runs (after the setup command $PREP, when set, before each).
median() {
	local i out=()
	for i in $(seq 1 "$RUNS"); do
		[ -n "${PREP:-}" ] && eval "$PREP"
		out+=("$(time_once "$@")")
	done
	printf '%s\n' "${out[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# Peak resident set size in MB and CPU seconds (user + system) of one run:
# `144 MB 0.61 s`. CPU time is the steadier figure on a loaded machine,
# where wall time is mostly waiting for a core.
peak_mb() {
	/usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '
		/Maximum resident set size/ { rss = $2 }
		/User time/ { cpu += $2 }
		/System time/ { cpu += $2 }
		END { printf "%.0f MB %.2f s", rss / 1024, cpu }'
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

# `import --from` dump a of $1 into a new empty directory. The outputs are
# removed only at the end: ext4 does not reuse an inode for some seconds
# after it is freed and rescans those inodes on every create
# (`recently_deleted` in `find_inode_bit`), so creating 8,193 files right
# after deleting the previous run's 8,193 took ~5 s of kernel time, which
# is the file system's cost of the bench's own `rm`, not the import's.
# The output directory is a new one (`--out catalog/` where there is none
# yet, the usual first import), which import writes whole beside it and
# renames into place; IMPORT_INTO=existing gives it an existing empty
# directory instead, where each file is moved into place on its own.
import_fresh() {
	local into
	into=$(mktemp -d "$1/imp.XXXXXX")
	[ "${IMPORT_INTO:-new}" = existing ] || into=$into/catalog
	"$CATALOG_BIN" import --from "$1/a.sql" --out "$into"
}

echo "scale bench: $(nproc) cores, $CATALOG_BIN, RUNS=$RUNS, load average $(load)"

if [ "$MODE" != live ]; then
	echo
	echo "== offline (seconds, median of $RUNS)"
	printf '| %6s | %7s | %7s | %14s | %7s | %13s |\n' N check render "plan --against" diff "import --from"
	printf '|%s|%s|%s|%s|%s|%s|\n' -------: --------: --------: ---------------: --------: --------------:
	last=
	for n in $OFFLINE_NS; do
		gen_catalog "$n"
		d=$WORK/$n
		"$CATALOG_BIN" --catalog "$d/a" render --flavor mysql >"$d/a.sql"
		c=$(median "$CATALOG_BIN" --catalog "$d/a" check)
		r=$(median "$CATALOG_BIN" --catalog "$d/a" render)
		p=$(median "$CATALOG_BIN" --catalog "$d/b" plan --against "$d/a.sql" --flavor mysql)
		df=$(median "$CATALOG_BIN" --catalog "$d/b" diff --from "$d/a")
		i=$(median import_fresh "$d")
		printf '| %6s | %7s | %7s | %14s | %7s | %13s |\n' "$n" "$c" "$r" "$p" "$df" "$i"
		last=$n
	done
	d=$WORK/$last
	echo
	echo "peak RSS and CPU time (user + system) at N=$last: check $(peak_mb "$CATALOG_BIN" --catalog "$d/a" check)," \
		"render $(peak_mb "$CATALOG_BIN" --catalog "$d/a" render)," \
		"plan --against $(peak_mb "$CATALOG_BIN" --catalog "$d/b" plan --against "$d/a.sql" --flavor mysql)," \
		"diff $(peak_mb "$CATALOG_BIN" --catalog "$d/b" diff --from "$d/a")," \
		"import --from $(peak_mb "$CATALOG_BIN" import --from "$d/a.sql" --out "$(mktemp -d "$d/imp.XXXXXX")")"
	rm -rf "$WORK"/[0-9]*
fi

if [ "$MODE" != offline ]; then
	have_skeema=
	command -v skeema >/dev/null && have_skeema=1
	for u in $LIVE_URLS; do
		BENCH_DATABASE_URL=$u
		bench_server
		drop_all
		echo
		echo "== live: $FLAVOR $SERVER_VERSION at $DB_HOST:$DB_PORT (seconds, median of $RUNS; load $(load))"
		printf '| %5s | %7s | %9s | %7s | %9s | %7s | %11s | %12s |\n' N verify "verify 10" plan "apply no-op" import "skeema diff" "skeema/verify"
		printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' ------: --------: ----------: --------: ----------: --------: ------------: -------------:
		for n in $LIVE_NS; do
			gen_catalog "$n"
			gen_small "$n"
			d=$WORK/$n
			s=${PREFIX}_$n
			{
				echo "CREATE DATABASE \`$s\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;"
				echo "USE \`$s\`;"
				"$CATALOG_BIN" --catalog "$d/a" render --flavor "$FLAVOR"
			} | sql
			db=$(url "$s")
			live() { "$CATALOG_BIN" --database-url "$db" --timeout "$TIMEOUT" "$@"; }
			"$CATALOG_BIN" --catalog "$d/a" --database-url "$db" --timeout "$TIMEOUT" verify >/dev/null # warm-up
			v=$(median live --catalog "$d/a" verify)
			v10=$(median live --catalog "$d/small" verify)
			p=$(median live --catalog "$d/b" plan)
			ap=$(median live --catalog "$d/a" apply)
			i=-
			[ "$LIVE_IMPORT" = 1 ] && i=$(PREP="rm -rf '$d/imp'" median live import --out "$d/imp")
			sk=- ratio=-
			if [ -n "$have_skeema" ]; then
				mkdir -p "$d/skeema"
				(cd "$d/skeema" && skeema init --host "$DB_HOST" --port "$DB_PORT" --user "$DB_USER" ${DB_PASS:+--password="$DB_PASS"} --schema "$s" --dir . >/dev/null 2>&1) || true
				if [ -f "$d/skeema/.skeema" ]; then
					skeema_flavor "$d/skeema" "$SERVER_VERSION"
					sk=$(cd "$d/skeema" && median skeema diff --allow-unsafe)
					ratio=$(awk -v a="$sk" -v b="$v" 'BEGIN { printf "%.1fx", a / b }')
				else
					sk="init failed"
				fi
			fi
			printf '| %5s | %7s | %9s | %7s | %11s | %7s | %11s | %13s |\n' "$n" "$v" "$v10" "$p" "$ap" "$i" "$sk" "$ratio"
			sql -e "DROP DATABASE \`$s\`"
			rm -rf "$d"
		done
	done
fi
echo
echo "load average at the end: $(load)"
