#!/usr/bin/env bash
# Makes sure the services the test suite talks to are up: PostgreSQL on
# 127.0.0.1:5432, user postgres, trust auth. Starts the local cluster when it
# is stopped and installs PostgreSQL from Debian when it is missing. Prints
# nothing when all is well; exits 1 with a reason when it cannot help, because
# a test run without PostgreSQL would test only half of the code.
#
# FIELDHUB_TEST_POSTGRES (an admin URL) points the tests at another server;
# then this script only checks that it answers.
set -euo pipefail

HOST=127.0.0.1
PORT=5432

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

if [ -n "${FIELDHUB_TEST_POSTGRES:-}" ]; then
	command -v psql >/dev/null 2>&1 || die "psql is needed to check FIELDHUB_TEST_POSTGRES (apt-get install postgresql-client)"
	psql "$FIELDHUB_TEST_POSTGRES" -w -qAtc 'select 1' >/dev/null 2>&1 ||
		die "PostgreSQL at FIELDHUB_TEST_POSTGRES does not answer: $(psql "$FIELDHUB_TEST_POSTGRES" -w -qAtc 'select 1' 2>&1 | head -n 1)"
	exit 0
fi

installed() {
	command -v pg_isready >/dev/null 2>&1 && command -v pg_ctlcluster >/dev/null 2>&1 &&
		[ -n "$(ls /etc/postgresql 2>/dev/null)" ]
}

ready() { pg_isready -q -h "$HOST" -p "$PORT" >/dev/null 2>&1; }

can_login() { psql -h "$HOST" -p "$PORT" -U postgres -d postgres -w -qAtc 'select 1' >/dev/null 2>&1; }

# cluster_version prints the newest installed major version, e.g. 15.
cluster_version() { ls /etc/postgresql | sort -n | tail -n 1; }

start_cluster() {
	local v
	v=$(cluster_version)
	say "PostgreSQL is not answering on $HOST:$PORT; starting cluster $v/main"
	as_root pg_ctlcluster --skip-systemctl-redirect "$v" main start >&2 || true
	for _ in $(seq 1 30); do
		ready && return 0
		sleep 1
	done
	return 1
}

# trust_loopback lets user postgres in from loopback without a password, as
# the tests expect; only done on a cluster this script has just installed.
trust_loopback() {
	local v hba
	v=$(cluster_version)
	hba=/etc/postgresql/$v/main/pg_hba.conf
	say "setting trust auth for 127.0.0.1 and ::1 in $hba"
	as_root sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
	as_root pg_ctlcluster --skip-systemctl-redirect "$v" main reload >&2
	sleep 1
}

fresh=0
if ! installed; then
	say "PostgreSQL is not installed; installing it from Debian (apt-get install postgresql)"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 || die "apt-get install postgresql failed"
	installed || die "PostgreSQL still missing after apt-get install postgresql"
	fresh=1
fi

if ! ready; then
	start_cluster || die "PostgreSQL does not answer on $HOST:$PORT after starting cluster $(cluster_version)/main (see /var/log/postgresql/)"
fi

if ! can_login; then
	if [ "$fresh" -eq 1 ]; then
		trust_loopback
	fi
	can_login || die "PostgreSQL answers on $HOST:$PORT but user postgres cannot log in without a password: \
$(psql -h "$HOST" -p "$PORT" -U postgres -d postgres -w -qAtc 'select 1' 2>&1 | head -n 1). \
The tests need 'host all all 127.0.0.1/32 trust' at the top of pg_hba.conf."
fi
