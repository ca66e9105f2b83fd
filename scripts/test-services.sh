# Sourced by `./dev test`: start what the tests need on a fresh Debian machine.
#
# - Chromium for the browser tests: Debian's package (never `playwright install`,
#   which cannot download here); installed when missing and we are root.
# - PostgreSQL for the storage tests (issue 5, item 8): PostgreSQL 15 is installed
#   on the machine class but its cluster is down. Unless GREENFELT_TEST_PG already
#   names a database, start a throwaway cluster (initdb refuses root, so it runs as
#   the postgres user) on 127.0.0.1:55432 and stop it when the caller exits.

ensure_chromium() {
    if [ -x "${GREENFELT_CHROMIUM:-/usr/bin/chromium}" ]; then
        return
    fi
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "test: installing Debian's chromium for the browser tests" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "test: no /usr/bin/chromium; install it (apt-get install chromium) for the browser tests" >&2
    fi
}

start_postgres() {
    local port=${PG_PORT:-55432}
    local bin
    bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ] || [ "$(id -u)" != 0 ]; then
        echo "test: cannot start PostgreSQL here (needs root and /usr/lib/postgresql/*/bin);" \
            "set GREENFELT_TEST_PG=postgresql://... for the storage tests" >&2
        return
    fi
    PG_DIR=$(mktemp -d /tmp/greenfelt-pg.XXXXXX)
    trap stop_postgres EXIT
    chown postgres:postgres "$PG_DIR"
    su postgres -s /bin/sh -c \
        "$bin/initdb -D $PG_DIR/data -A trust -U postgres --no-sync -E UTF8 --locale=C.UTF-8" \
        >"$PG_DIR/initdb.log"
    su postgres -s /bin/sh -c \
        "$bin/pg_ctl -D $PG_DIR/data -o '-c listen_addresses=127.0.0.1 -p $port -k $PG_DIR -c fsync=off -c max_connections=200' -l $PG_DIR/log -w start" \
        >/dev/null
    export GREENFELT_TEST_PG="postgresql://postgres@127.0.0.1:$port/postgres"
    echo "test: PostgreSQL running at $GREENFELT_TEST_PG (data in $PG_DIR)" >&2
}

stop_postgres() {
    if [ -n "${PG_DIR:-}" ] && [ -f "$PG_DIR/data/postmaster.pid" ]; then
        kill -INT "$(head -1 "$PG_DIR/data/postmaster.pid")" 2>/dev/null || true
        for _ in $(seq 50); do
            [ -f "$PG_DIR/data/postmaster.pid" ] || break
            sleep 0.1
        done
    fi
    if [ -n "${PG_DIR:-}" ]; then rm -rf "$PG_DIR"; fi
}

ensure_chromium
if [ -z "${GREENFELT_TEST_PG:-}" ]; then
    start_postgres
fi
