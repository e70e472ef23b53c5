#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the docs browser test, installing it
# with apt-get when it is missing (the package's `test` script runs it first, so the README's test
# command works on a fresh machine; the vitest file itself installs nothing). Never `npx playwright install`: that download is not reachable here.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "ensure-chromium: $(/usr/bin/chromium --version 2>/dev/null || echo chromium) is installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: /usr/bin/chromium is missing; run as root: apt-get update && apt-get install -y chromium" >&2
  exit 1
fi

echo "ensure-chromium: installing chromium with apt-get"
export DEBIAN_FRONTEND=noninteractive
# One apt-get at a time: `pnpm test` may install Chromium and redis-server at once (apt-get
# fails at once on a held lock). The same lock file in both ensure scripts.
exec 9>/var/lock/forms-api-apt-get.lock
flock 9
apt-get update -qq
apt-get install -y -qq chromium
/usr/bin/chromium --version
