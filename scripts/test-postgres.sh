#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the triage tests (PostgresTriageTests), from Debian's package.
# Usage: url=$(bash scripts/test-postgres.sh start)   prints postgresql://bletrace@127.0.0.1:PORT/bletrace_test
#        bash scripts/test-postgres.sh stop
# Trust authentication, listening on 127.0.0.1 only, data in $BLETRACE_PG_DIR (default /tmp/bletrace-test-postgres);
# as root the server runs as the postgres user. Installs postgresql when no initdb is found.
# One role, bletrace_pw (password bletrace-test-password), must give a password (scram-sha-256): the tests
# of PGPASSWORD and ~/.pgpass use it.
set -euo pipefail
dir=${BLETRACE_PG_DIR:-/tmp/bletrace-test-postgres}
port=${BLETRACE_PG_PORT:-54329}
sudo_cmd=()
run_as=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); else run_as=(runuser -u postgres --); fi

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

case "${1:-start}" in
  start)
    if [ -z "$(find_bin)" ]; then
      echo "test-postgres: installing postgresql" >&2
      "${sudo_cmd[@]}" apt-get update -qq
      DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq postgresql >/dev/null
    fi
    bin=$(find_bin)
    if [ -f "$dir/postmaster.pid" ]; then "${run_as[@]}" "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    "${run_as[@]}" "$bin/initdb" -D "$dir" -U bletrace --auth=trust >/dev/null
    hba=$(printf 'host all bletrace_pw 127.0.0.1/32 scram-sha-256\n'; cat "$dir/pg_hba.conf")
    printf '%s\n' "$hba" > "$dir/pg_hba.conf"
    "${run_as[@]}" "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -o "-c listen_addresses=127.0.0.1 -p $port -k $dir" -w start >/dev/null
    "${run_as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U bletrace bletrace_test
    "${run_as[@]}" "$bin/psql" -q -h 127.0.0.1 -p "$port" -U bletrace -d bletrace_test \
      -c "CREATE ROLE bletrace_pw LOGIN PASSWORD 'bletrace-test-password'" \
      -c "GRANT ALL ON SCHEMA public TO bletrace_pw" >/dev/null
    echo "postgresql://bletrace@127.0.0.1:$port/bletrace_test"
    ;;
  stop)
    bin=$(find_bin)
    [ -f "$dir/postmaster.pid" ] && "${run_as[@]}" "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
