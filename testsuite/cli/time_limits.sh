. "$(dirname "$0")/lib.sh"
# --suppress-time-limits needs guru mode (SystemTap 4.8's wording; it also
# wants -g first, we take it anywhere) and takes no argument.
expect_rc 1 "$STAP" --suppress-time-limits -p2 -e 'probe begin {}'
is "stap: --suppress-time-limits requires guru mode (-g)"
expect_rc 1 "$STAP" -g --suppress-time-limits=1 -p2 -e 'probe begin {}'
is "stap: option '--suppress-time-limits' takes no argument"
expect_rc 0 "$STAP" -g --suppress-time-limits -p2 -e 'probe begin {}'
expect_rc 0 "$STAP" --suppress-time-limits -g -p2 -e 'probe begin {}'
# Options missing their argument say so.
expect_rc 1 "$STAP" -D
is "stap: option -D requires an argument"
expect_rc 1 "$STAP" --vm-timeout
is "stap: option '--vm-timeout' requires an argument"

# What the option turns into, for the module (stp_limits.h, and
# script_params.h, which the script's C includes after it): no overload
# check, no MAXACTION, MAXTRYLOCK without bound, whatever -D said.  The
# kernel headers script_params.h names are empty stand-ins here.
fake=$(mktemp -d "${TMPDIR:-/tmp}/time_limits.XXXXXX")
trap 'rm -rf "$fake"' EXIT
mkdir "$fake/linux"
touch "$fake/linux/module.h" "$fake/linux/moduleparam.h"
limits() {	# cc flags...
	printf '%s\n' '#include "stp_limits.h"' '#define STP_SCRIPT_C' '#include "script_params.h"' \
		'long long a = MAXACTION_INTERRUPTIBLE, t = MAXTRYLOCK;' \
		'#ifdef STP_NO_OVERLOAD' 'int no_overload = 1;' '#else' \
		'long long ov = STP_OVERLOAD_THRESHOLD, iv = STP_OVERLOAD_INTERVAL;' '#endif' |
		cc -E -P -I"$fake" -I"$(dirname "$0")/../../runtime" "$@" - |
		grep -E '^(long long|int no_overload)'
}
out=$(limits -DMAXACTION=5)
is $'long long a = (5 * 10), t = 1000;\nlong long ov = 500000000LL, iv = 1000000000LL;'
out=$(limits -DMAXACTION=5 -DSTP_SUPPRESS_TIME_LIMITS)
is $'long long a = 0x7fffffffffffffffL, t = 0x7fffffffffffLL;\nint no_overload = 1;'
out=$(limits -DSTP_NO_OVERLOAD)
is $'long long a = (1000 * 10), t = 1000;\nint no_overload = 1;'
