#!/usr/bin/env bash
# Makes sure an InfluxDB 1.x answers on 127.0.0.1:8086 for the time-series
# tests: installs Debian's influxdb package when influxd is missing and starts
# influxd on loopback with its data in a folder of its own under the system's
# temporary folder (not the packaged service's /var/lib/influxdb). Idempotent:
# prints nothing and does nothing when InfluxDB already answers /ping. Exits 1
# with a reason when it cannot help, because the influx backend's tests fail
# (they do not skip) without a server.
#
# FIELDHUB_TEST_INFLUX (a URL such as http://user:pass@host:8086) points the
# tests at another server; then this script only checks that it answers.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# ping succeeds when an InfluxDB answers /ping with 204 at base URL $1. It
# uses bash's /dev/tcp when curl is missing, so the script needs no client.
ping() {
	local base=$1
	if command -v curl >/dev/null 2>&1; then
		[ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$base/ping")" = 204 ]
		return
	fi
	local hostport=${base#*://}
	hostport=${hostport#*@}
	hostport=${hostport%%/*}
	local host=${hostport%:*} port=${hostport##*:}
	local answer
	answer=$(
		exec 3<>"/dev/tcp/$host/$port" || exit 1
		printf 'GET /ping HTTP/1.0\r\nHost: %s\r\n\r\n' "$hostport" >&3
		timeout 2 head -n 1 <&3
	) 2>/dev/null || return 1
	[[ $answer == *" 204 "* ]]
}

if [ -n "${FIELDHUB_TEST_INFLUX:-}" ]; then
	ping "$FIELDHUB_TEST_INFLUX" || die "InfluxDB at FIELDHUB_TEST_INFLUX ($FIELDHUB_TEST_INFLUX) does not answer /ping with 204"
	exit 0
fi

BASE=http://127.0.0.1:8086
ping "$BASE" && exit 0

if ! command -v influxd >/dev/null 2>&1; then
	say "influxd is not installed; installing it from Debian (apt-get install influxdb)"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
	# The package's maintainer scripts try to start the system service; where
	# there is no init system that fails harmlessly, and policy-rc.d is not ours
	# to change, so the exit status of a started service is not relied on.
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq influxdb >&2 || die "apt-get install influxdb failed"
	command -v influxd >/dev/null 2>&1 || die "influxd still missing after apt-get install influxdb"
	# The packaged service (if an init system started it) listens on all
	# interfaces with its data under /var/lib; give it a moment, then use it
	# only if it answers on loopback.
	for _ in $(seq 1 5); do
		ping "$BASE" && exit 0
		sleep 1
	done
fi

dir=${TMPDIR:-/tmp}/fieldhub-influxdb
mkdir -p "$dir/meta" "$dir/data" "$dir/wal"
conf=$dir/influxdb.conf
cat >"$conf" <<EOF
# Written by scripts/ensure-influxdb.sh: a loopback-only InfluxDB for tests.
reporting-disabled = true
bind-address = "127.0.0.1:8088"

[meta]
  dir = "$dir/meta"

[data]
  dir = "$dir/data"
  wal-dir = "$dir/wal"
  query-log-enabled = false

[http]
  enabled = true
  bind-address = "127.0.0.1:8086"
  auth-enabled = false
  log-enabled = false

[logging]
  level = "warn"

[monitor]
  store-enabled = false

[continuous_queries]
  enabled = false
EOF

say "starting influxd on 127.0.0.1:8086 with data in $dir (log: $dir/influxd.log)"
# setsid detaches it from this shell's session so that it outlives the test
# run that started it, as the PostgreSQL cluster does.
setsid influxd -config "$conf" -pidfile "$dir/influxd.pid" >>"$dir/influxd.log" 2>&1 </dev/null &
for _ in $(seq 1 30); do
	ping "$BASE" && exit 0
	sleep 1
done
tail -n 20 "$dir/influxd.log" >&2 || true
die "influxd does not answer http://127.0.0.1:8086/ping after 30 s (log above, config $conf)"
