#!/usr/bin/env bash
# Makes sure Debian's redis-server is on the PATH for this package's tests and benchmark, installing
# it with apt-get when it is missing (the tests start and stop their own servers on free loopback
# ports; nothing here starts one). Run by `pnpm test` and `pnpm bench` before vitest or the bench.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
  echo "ensure-redis-server: $(redis-server --version | cut -d' ' -f1-3) is installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-redis-server: redis-server is missing; run as root: apt-get update && apt-get install -y redis-server" >&2
  exit 1
fi

echo "ensure-redis-server: installing redis-server with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq redis-server
redis-server --version
