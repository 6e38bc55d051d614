#!/usr/bin/env bash
# Makes sure LibreOffice Calc runs headless for the reports module's test that
# opens a mailed .xlsx the way a customer's office suite does
# (modules/reports/libreoffice_test.go). Prints nothing when `libreoffice`
# already runs; installs Debian's libreoffice-calc-nogui with apt-get (after an
# apt-get update) when it is missing; exits 1 with a reason when it cannot,
# because that test fails (it does not skip) on CI without it.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

works() { command -v libreoffice >/dev/null 2>&1 && libreoffice --headless --version >/dev/null 2>&1; }

if works; then
	exit 0
fi

command -v apt-get >/dev/null 2>&1 || die "libreoffice is missing and there is no apt-get to install it (install Debian's libreoffice-calc-nogui package)"
say "libreoffice is missing; installing it from Debian (apt-get install libreoffice-calc-nogui)"
as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui >&2 ||
	die "apt-get install libreoffice-calc-nogui failed"
works || die "libreoffice still does not run after apt-get install libreoffice-calc-nogui"
say "installed $(libreoffice --headless --version 2>/dev/null | head -n 1)"
