#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the browser tests (webapp/e2e,
# Playwright drives it; it never downloads a browser of its own): the headless
# shell at /usr/bin/chromium-headless-shell, which the tests run by default,
# and the full browser at /usr/bin/chromium (FIELDHUB_E2E_CHROMIUM runs the
# tests in it instead). Both come from Debian's chromium source package, of
# the same version (docs/decisions.md, "Browser tests"). Prints nothing when
# they are there; installs the missing ones with apt-get (after an apt-get
# update); exits 1 with a reason when it cannot.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# Each binary and the Debian package that installs it.
declare -A PACKAGE=([/usr/bin/chromium]=chromium [/usr/bin/chromium-headless-shell]=chromium-headless-shell)

works() { [ -x "$1" ] && "$1" --headless --no-sandbox --version >/dev/null 2>&1; }

missing=()
for bin in "${!PACKAGE[@]}"; do
	works "$bin" || missing+=("${PACKAGE[$bin]}")
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

command -v apt-get >/dev/null 2>&1 || die "${missing[*]} missing and there is no apt-get to install them (install Debian's packages ${missing[*]})"
say "installing ${missing[*]} from Debian (apt-get install)"
as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" fonts-liberation >&2 ||
	die "apt-get install ${missing[*]} failed"
for bin in "${!PACKAGE[@]}"; do
	works "$bin" || die "$bin still does not run after apt-get install: $("$bin" --headless --no-sandbox --version 2>&1 | head -n 1)"
done
say "installed $(/usr/bin/chromium --version 2>/dev/null)"
