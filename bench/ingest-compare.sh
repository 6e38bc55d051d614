#!/usr/bin/env bash
# Compares two fieldhub binaries in bench/ingest: runs them alternately
# (A, B, A, B, ...) so that both see the same machine, and prints each run
# and the medians of uplinks/s and of the CPU that the server and PostgreSQL
# spend per uplink. On the 2-core machine of docs/performance.md one build's
# rate varies by ±15 % between runs, so compare medians of several rounds.
#
#   bench/ingest-compare.sh A.bin B.bin [rounds] [bench/ingest flags...]
#
# A_FLAGS and B_FLAGS add bench/ingest flags to one side only: one binary
# with and without alarm rules is
#   B_FLAGS="-alarm-rules 1000" bench/ingest-compare.sh X.bin X.bin 5 -c 256
#
# A binary of a commit: git worktree add /tmp/at-REV REV, copy webapp/dist and
# kernel/sandbox/wasm/*.wasm from a checkout where `just assets` ran, then
# go build -o /tmp/REV.bin . in the worktree.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ $# -lt 2 ]; then
	sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
a=$(realpath "$1") b=$(realpath "$2")
shift 2
rounds=3
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
	rounds=$1
	shift
fi
scripts/ensure-services.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/ingest" ./bench/ingest
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); A=$a ${A_FLAGS:-} B=$b ${B_FLAGS:-}"
for ((i = 1; i <= rounds; i++)); do
	for side in A B; do
		bin=$a side_flags=${A_FLAGS:-}
		[ "$side" = B ] && bin=$b side_flags=${B_FLAGS:-}
		# The last table row bench/ingest prints: | db | c | nodes | uplinks/s | p50 | p90 | p99 | errors |
		# server CPU | loadgen CPU | PostgreSQL CPU | machine CPU | ...
		# shellcheck disable=SC2086 # side_flags are words
		row=$("$tmp/ingest" -bin "$bin" -store-d 0 -copy-runs 1 "$@" $side_flags | grep '^  |' | tail -1)
		echo "$side $row"
		echo "$row" | awk -F'|' -v side="$side" '{ printf "%s %s %.1f\n", side, $5, ($10 + $12) / $5 * 1e6 }' >>"$tmp/runs"
	done
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for side in A B; do
	rate=$(awk -v s="$side" '$1 == s { print $2 }' "$tmp/runs" | median)
	cpu=$(awk -v s="$side" '$1 == s { print $3 }' "$tmp/runs" | median)
	echo "$side: median $rate uplinks/s, median $cpu µs of server and PostgreSQL CPU per uplink ($rounds runs)"
done
