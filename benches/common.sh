# Shared by the benchmarks: the server they measure, from one URL.
#
#   BENCH_DATABASE_URL  mysql://user[:pass]@host[:port] (default
#                       mysql://root@127.0.0.1:3306; a trailing /db is ignored).
#                       The first argument of a bench, when it is a URL, wins.
#   SQL_CLIENT          command-line client (default `mariadb`, which also
#                       talks to MySQL 9.7 with caching_sha2_password).
#
# Sets DB_USER DB_PASS DB_HOST DB_PORT and FLAVOR (mariadb|mysql|tidb, from
# VERSION()); defines sql() (batch, no column names) and url SCHEMA.
bench_server() {
	local u=${BENCH_DATABASE_URL:-mysql://root@127.0.0.1:3306}
	u=${u#mysql://}
	u=${u%%/*}
	local auth=${u%@*} hostport=${u##*@}
	[ "$auth" = "$u" ] && auth=root
	DB_USER=${auth%%:*}
	DB_PASS=
	[ "$auth" != "$DB_USER" ] && DB_PASS=${auth#*:}
	DB_HOST=${hostport%%:*}
	DB_PORT=3306
	[ "$hostport" != "$DB_HOST" ] && DB_PORT=${hostport#*:}
	SQL_CLIENT=${SQL_CLIENT:-mariadb}
	local version
	version=$(sql -e 'SELECT VERSION()')
	case $version in
	*-TiDB-*) FLAVOR=tidb ;;
	*MariaDB*) FLAVOR=mariadb ;;
	*) FLAVOR=mysql ;;
	esac
	SERVER_VERSION=$version
	export DB_USER DB_PASS DB_HOST DB_PORT FLAVOR SERVER_VERSION
}

sql() { MYSQL_PWD="$DB_PASS" $SQL_CLIENT --protocol=tcp -h"$DB_HOST" -P"$DB_PORT" -u"$DB_USER" --batch --skip-column-names "$@"; }

url() {
	local auth=$DB_USER
	[ -n "$DB_PASS" ] && auth="$DB_USER:$DB_PASS"
	echo "mysql://$auth@$DB_HOST:$DB_PORT/$1"
}

# Skeema 1.9 does not recognise MySQL 9.x ("Unable to determine database
# vendor/version") and then skips, as unsupported, every table whose SHOW
# CREATE TABLE it cannot reproduce (MySQL 9 prints `CHARACTER SET` beside
# each column's COLLATE), so `skeema diff` exits 1 having compared nothing
# of them. Pin the newest flavor it knows in the .skeema of DIR, for a
# server whose VERSION() is VERSION.
skeema_flavor() { # DIR VERSION
	case $2 in
	*MariaDB* | *TiDB*) ;;
	9.*) echo "flavor=mysql:8.4" >>"$1/.skeema" ;;
	esac
}
