#!/usr/bin/env bash
# Load benchmark of authenticated GET /api/users/{id}, on SQLite and then on
# PostgreSQL (127.0.0.1:5432, started or installed by scripts/ensure-services.sh).
# Extra arguments go to bench/loadgen for both runs, e.g. -c 32 -d 30s.
# Results and the command that made them belong in docs/performance.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/ensure-services.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/fieldhub" .
go build -o "$tmp/loadgen" ./bench/loadgen
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -h | awk '/^Mem:/ {print $2}') memory"
for db in sqlite postgres; do
	"$tmp/loadgen" -bin "$tmp/fieldhub" -db "$db" "$@"
done
