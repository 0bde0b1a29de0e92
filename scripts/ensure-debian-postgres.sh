#!/usr/bin/env bash
# `npm run test:postgres` runs this first: its tests run on Debian's packaged Postgres server
# (a second, separate server from the embedded one; test/helpers/postgresServer.ts). Installs
# it when missing, on Debian/Ubuntu.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "npm run test:postgres needs Debian's postgresql package (/usr/lib/postgresql/N/bin)." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "npm run test:postgres needs Debian's postgresql: run 'apt-get install postgresql' as root." >&2
    exit 1
  fi
fi
echo "Installing Debian's postgresql for npm run test:postgres…" >&2
$SUDO apt-get update -q >&2
# The server's binaries only: no cluster is created or started (the tests start their own).
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends postgresql-common >&2
echo "create_main_cluster = false" | $SUDO tee -a /etc/postgresql-common/createcluster.conf >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends postgresql >&2
