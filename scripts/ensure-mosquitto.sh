#!/usr/bin/env bash
# Makes sure an MQTT broker answers on 127.0.0.1:1883 for the MQTT tests of
# the ingest module: starts Debian's Mosquitto with its packaged
# configuration (mosquitto -d -c /etc/mosquitto/mosquitto.conf), and installs
# it first when mosquitto is missing. Idempotent: prints nothing and does
# nothing when the port already answers. Exits 1 with a reason when it
# cannot help, because the MQTT tests fail (they do not skip) without a
# broker.
#
# FIELDHUB_TEST_MQTT (a URL such as mqtt://user:pass@host:1883) points the
# tests at another broker; then this script only checks that it answers.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# answers succeeds when something accepts TCP connections on host $1, port $2.
answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

if [ -n "${FIELDHUB_TEST_MQTT:-}" ]; then
	hostport=${FIELDHUB_TEST_MQTT#*://}
	hostport=${hostport#*@}
	hostport=${hostport%%/*}
	host=${hostport%:*}
	port=${hostport##*:}
	[ "$port" = "$hostport" ] && port=1883
	answers "$host" "$port" || die "the MQTT broker at FIELDHUB_TEST_MQTT ($host:$port) does not answer"
	exit 0
fi

HOST=127.0.0.1
PORT=1883
answers "$HOST" "$PORT" && exit 0

CONF=/etc/mosquitto/mosquitto.conf
if ! command -v mosquitto >/dev/null 2>&1 && [ ! -x /usr/sbin/mosquitto ]; then
	say "mosquitto is not installed; installing it from Debian (apt-get install mosquitto)"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
	# The package's maintainer scripts try to start the system service; where
	# there is no init system that fails harmlessly, so the broker is started
	# below either way.
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto >&2 || die "apt-get install mosquitto failed"
	for _ in $(seq 1 3); do
		answers "$HOST" "$PORT" && exit 0
		sleep 1
	done
fi
bin=$(command -v mosquitto || echo /usr/sbin/mosquitto)
[ -x "$bin" ] || die "mosquitto still missing after apt-get install mosquitto"
[ -f "$CONF" ] || die "$CONF is missing (reinstall Debian's mosquitto package)"

# The packaged configuration writes its pid file under /run/mosquitto and its
# log under /var/log/mosquitto as user mosquitto; /run is empty after a boot
# without systemd.
as_root mkdir -p /run/mosquitto /var/log/mosquitto /var/lib/mosquitto
if id mosquitto >/dev/null 2>&1; then
	as_root chown mosquitto: /run/mosquitto /var/log/mosquitto /var/lib/mosquitto
fi
say "starting Mosquitto: $bin -d -c $CONF"
as_root "$bin" -d -c "$CONF" || die "mosquitto -d -c $CONF failed (see /var/log/mosquitto/mosquitto.log)"
for _ in $(seq 1 20); do
	answers "$HOST" "$PORT" && exit 0
	sleep 0.5
done
die "Mosquitto started but nothing answers on $HOST:$PORT; $CONF must have a listener there \
(Mosquitto 2 without any listener line listens on localhost:1883 only) — see /var/log/mosquitto/mosquitto.log"
