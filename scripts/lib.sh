# Helpers the scripts/ensure-*.sh share; source it, it runs nothing.

# say writes a line to standard error, named after the calling script.
say() { echo "$(basename "$0" .sh): $*" >&2; }

# die says what went wrong and stops the script.
die() {
	say "ERROR: $*"
	exit 1
}

# as_root runs a command as root, through sudo when needed.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root to run '$*' (neither root nor sudo)"
	fi
}
