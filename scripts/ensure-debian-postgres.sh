#!/usr/bin/env bash
# `npm run test:postgres` and `npm run test:pooler` run this first: their tests run on Debian's
# packaged Postgres server (a second, separate server from the embedded one;
# test/helpers/postgresServer.ts), use its pg_dump/pg_restore, and put Debian's PgBouncer in
# front of it (test/helpers/pgBouncer.ts). Installs what is missing, on Debian/Ubuntu.
set -euo pipefail

have_postgres() { ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; }
have_pgbouncer() { [ -x /usr/sbin/pgbouncer ]; }
if have_postgres && have_pgbouncer; then exit 0; fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "npm run test:postgres needs Debian's postgresql and pgbouncer packages." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "npm run test:postgres needs Debian's postgresql and pgbouncer: run 'apt-get install postgresql pgbouncer' as root." >&2
    exit 1
  fi
fi
# One helper for every package: no recommends, no questions.
apt_install() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "$@" >&2; }

echo "Installing Debian's postgresql/pgbouncer for npm run test:postgres…" >&2
$SUDO apt-get update -q >&2
# The servers' binaries only: no cluster is created or started, and no PgBouncer service runs
# (the tests start their own, on ports of their own).
if ! have_postgres; then
  apt_install postgresql-common
  echo "create_main_cluster = false" | $SUDO tee -a /etc/postgresql-common/createcluster.conf >/dev/null
  apt_install postgresql
fi
if ! have_pgbouncer; then
  apt_install pgbouncer
  # Debian's package starts a service on 6432; the tests need only the binary.
  if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl disable --now pgbouncer >/dev/null 2>&1 || true; fi
fi
