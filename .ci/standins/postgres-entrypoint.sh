#!/bin/bash
# The official postgres image's start, for what compose.yaml asks of it: on an
# empty data folder, initdb with POSTGRES_USER as superuser and POSTGRES_PASSWORD
# as its password, then POSTGRES_DB created; password (scram) logins from other
# hosts; then the server in the foreground, listening on every address, as
# the postgres user.
set -euo pipefail

: "${PGDATA:=/var/lib/postgresql/data}"
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
export PGDATA

if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "error: the database is uninitialized and POSTGRES_PASSWORD is not set" >&2
        exit 1
    fi
    initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
        --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    printf '\nhost all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
    if [ "$POSTGRES_DB" != postgres ]; then
        # on the socket only, as the official image does: no client sees it half made
        pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
        psql -v ON_ERROR_STOP=1 --username="$POSTGRES_USER" --dbname=postgres \
            --set=db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";' >/dev/null
        pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    fi
    echo "PostgreSQL init process complete; ready for start up."
fi

if [ "${1:-}" = postgres ]; then
    shift
    exec postgres -c listen_addresses='*' "$@"
fi
exec "$@"
