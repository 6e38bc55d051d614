#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests
# (webapp/e2e, Playwright drives it; it never downloads a browser of its own).
# Prints nothing when it is already there; installs it with apt-get (after an
# apt-get update) when it is missing; exits 1 with a reason when it cannot.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

works() { [ -x "$CHROMIUM" ] && "$CHROMIUM" --headless --no-sandbox --version >/dev/null 2>&1; }

if works; then
	exit 0
fi

command -v apt-get >/dev/null 2>&1 || die "$CHROMIUM is missing and there is no apt-get to install it (install Debian's chromium package)"
say "$CHROMIUM is missing; installing it from Debian (apt-get install chromium)"
as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-liberation >&2 ||
	die "apt-get install chromium failed"
works || die "$CHROMIUM still does not run after apt-get install chromium: $("$CHROMIUM" --headless --no-sandbox --version 2>&1 | head -n 1)"
say "installed $("$CHROMIUM" --version 2>/dev/null)"
