#!/usr/bin/env bash
# `npm test` runs this first: the browser tests drive Debian's Chromium through playwright-core
# (which never downloads a browser). Installs it when missing, on Debian/Ubuntu.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "${CHROMIUM_PATH}" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "The browser tests need Chromium: install it, or set CHROMIUM_PATH to its binary." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "The browser tests need Chromium: run 'apt-get install chromium' as root." >&2
    exit 1
  fi
fi
echo "Installing Debian's chromium for the browser tests…" >&2
$SUDO apt-get update -q >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium >&2
