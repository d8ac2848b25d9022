#!/usr/bin/env bash
# Start a throw-away PostgreSQL server on loopback for the store tests, and export its URL.
#
# Usage (as root on Debian):   source .ci/postgres.sh      (or run it and eval the last line)
# Result: STKIT_TEST_POSTGRES_URL=postgresql+psycopg://stkit:stkit@127.0.0.1:PORT/stkit_test is exported.
#
# - Installs PostgreSQL from Debian's packages when no server binaries are found.
# - Runs its own cluster in $STKIT_PG_DIR (default /tmp/stkit-pg) on $STKIT_PG_PORT (default 54329),
#   owned by the 'postgres' system user, listening on 127.0.0.1 only. The system cluster is left alone.
# - Idempotent: a second run reuses the running server, the role and the database.
# Safe to source: it does not change the caller's shell options.

_stkit_pg_main() {
    local dir="${STKIT_PG_DIR:-/tmp/stkit-pg}"
    local port="${STKIT_PG_PORT:-54329}"
    local user="stkit" password="stkit" db="stkit_test"
    local bindir=""

    _stkit_pg_bindir() {
        local d
        for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
            if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ]; then
                echo "$d"
                return 0
            fi
        done
        return 1
    }

    bindir="$(_stkit_pg_bindir)"
    if [ -z "$bindir" ]; then
        echo "postgres.sh: installing PostgreSQL from Debian's packages" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2 || {
            echo "postgres.sh: apt-get install postgresql failed" >&2
            return 1
        }
        bindir="$(_stkit_pg_bindir)" || { echo "postgres.sh: no PostgreSQL binaries after install" >&2; return 1; }
    fi

    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    local as_pg="runuser -u postgres --"
    if [ "$(id -u)" != "0" ]; then
        as_pg=""  # not root: run the cluster as the current user
    fi

    mkdir -p "$dir"
    [ -n "$as_pg" ] && chown postgres: "$dir"
    chmod 700 "$dir"

    if [ ! -f "$dir/data/PG_VERSION" ]; then
        echo "postgres.sh: initdb in $dir/data" >&2
        $as_pg "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null 2>&1 \
            || $as_pg "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null || {
                echo "postgres.sh: initdb failed" >&2
                return 1
            }
    fi

    if ! "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port"; then
        echo "postgres.sh: starting PostgreSQL on 127.0.0.1:$port" >&2
        $as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=100 -c fsync=off" start >/dev/null || {
                echo "postgres.sh: pg_ctl start failed; see $dir/server.log" >&2
                return 1
            }
    fi

    local psql="$bindir/psql"
    [ -x "$psql" ] || psql="$(command -v psql)"
    local q="$psql -X -q -t -A -h 127.0.0.1 -p $port -U postgres -d postgres"
    if [ "$($q -c "SELECT 1 FROM pg_roles WHERE rolname='$user'")" != "1" ]; then
        $q -c "CREATE ROLE $user LOGIN PASSWORD '$password'" || return 1
    fi
    if [ "$($q -c "SELECT 1 FROM pg_database WHERE datname='$db'")" != "1" ]; then
        $q -c "CREATE DATABASE $db OWNER $user" || return 1
    fi

    export STKIT_TEST_POSTGRES_URL="postgresql+psycopg://$user:$password@127.0.0.1:$port/$db"
    echo "STKIT_TEST_POSTGRES_URL=$STKIT_TEST_POSTGRES_URL"
    return 0
}

_stkit_pg_main "$@"
_stkit_pg_status=$?
unset -f _stkit_pg_main _stkit_pg_bindir
# `return` when sourced, `exit` when run.
return "$_stkit_pg_status" 2>/dev/null || exit "$_stkit_pg_status"
