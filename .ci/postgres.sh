#!/usr/bin/env bash
# Start a throw-away PostgreSQL for the storage tests and print the URL they read.
#
#   eval "$(.ci/postgres.sh)"          # exports PORTES_TEST_POSTGRES_URL
#   .ci/postgres.sh stop               # stops it again (optional)
#
# The tests read PORTES_TEST_POSTGRES_URL (e.g. postgresql://postgres@127.0.0.1:54329/
# portes_test). Without it the PostgreSQL leg of tests/storage is skipped LOUDLY, unless CI=true,
# in which case a missing PostgreSQL fails the run.
#
# What it does: installs PostgreSQL from Debian packages if no server binaries are found
# (apt-get update; apt-get install -y postgresql), creates a cluster with initdb in
# $PORTES_PG_DIR (default /tmp/portes-pg) owned by the postgres user (initdb refuses root),
# starts it with pg_ctl on 127.0.0.1 and a free port (trust auth, fsync off: test data only),
# creates the database portes_test, and prints `export PORTES_TEST_POSTGRES_URL=...` on stdout
# (everything else goes to stderr). Run it again and it reuses the running server.
set -euo pipefail

PG_DIR="${PORTES_PG_DIR:-/tmp/portes-pg}"
DB_NAME="${PORTES_PG_DB:-portes_test}"
RUN_AS="${PORTES_PG_USER:-postgres}"

say() { echo "postgres.sh: $*" >&2; }

find_bindir() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [[ -n "$dir" && -x "$dir/initdb" ]]; then
        echo "$dir"
    fi
}

BINDIR="$(find_bindir)"
if [[ -z "$BINDIR" ]]; then
    say "PostgreSQL not found: installing it from Debian packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y postgresql >&2
    BINDIR="$(find_bindir)"
    [[ -n "$BINDIR" ]] || { say "installation failed: no initdb"; exit 1; }
fi

as_pg() {
    if [[ "$(id -u)" == "0" ]]; then
        runuser -u "$RUN_AS" -- "$@"
    else
        "$@"
    fi
}

if [[ "${1:-}" == "stop" ]]; then
    if [[ -f "$PG_DIR/data/postmaster.pid" ]]; then
        as_pg "$BINDIR/pg_ctl" -D "$PG_DIR/data" -m fast stop >&2
    fi
    exit 0
fi

if [[ "$(id -u)" == "0" ]] && ! id "$RUN_AS" >/dev/null 2>&1; then
    useradd --system --no-create-home "$RUN_AS"
fi

mkdir -p "$PG_DIR"
[[ "$(id -u)" == "0" ]] && chown "$RUN_AS" "$PG_DIR"

if [[ -f "$PG_DIR/port" ]] && as_pg "$BINDIR/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1; then
    PORT="$(cat "$PG_DIR/port")"
    say "reusing the server on 127.0.0.1:$PORT"
else
    PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    if [[ ! -f "$PG_DIR/data/PG_VERSION" ]]; then
        as_pg "$BINDIR/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 \
            --locale=C.UTF-8 >&2 2>/dev/null \
            || as_pg "$BINDIR/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >&2
    fi
    as_pg "$BINDIR/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-p $PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off \
            -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >&2
    echo "$PORT" | as_pg tee "$PG_DIR/port" >/dev/null
    say "started on 127.0.0.1:$PORT (data in $PG_DIR/data, log in $PG_DIR/server.log)"
fi

if ! as_pg "$BINDIR/psql" -h 127.0.0.1 -p "$PORT" -U postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'" | grep -q 1; then
    as_pg "$BINDIR/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB_NAME"
fi

URL="postgresql://postgres@127.0.0.1:$PORT/$DB_NAME"
echo "$URL" | as_pg tee "$PG_DIR/url" >/dev/null
echo "export PORTES_TEST_POSTGRES_URL=$URL"
