#!/bin/sh
# The stand-in postgres image's entrypoint (tests/containers/postgres.Dockerfile): on the first start
# (no PG_VERSION in PGDATA) a cluster whose superuser is POSTGRES_USER with POSTGRES_PASSWORD and a
# database POSTGRES_DB, as the official image does; then the server as the postgres user.
set -eu
: "${POSTGRES_PASSWORD:?the stand-in needs POSTGRES_PASSWORD, as the official image does}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
as_postgres() { setpriv --reuid postgres --regid postgres --init-groups "$@"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.auto.conf"
  if [ "$db" != postgres ]; then
    as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    as_postgres psql -v ON_ERROR_STOP=1 -U "$user" -d postgres -c "CREATE DATABASE \"$db\"" >/dev/null
    as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "stand-in postgres: initialised $PGDATA (user $user, database $db)"
fi
if [ "$1" = postgres ]; then
  exec setpriv --reuid postgres --regid postgres --init-groups "$@"
fi
exec "$@"
