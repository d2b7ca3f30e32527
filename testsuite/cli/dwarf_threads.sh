# The kernel index is the same whichever worker thread takes which
# compile unit (translator/dwarf_index.c, merge_rec): a function with
# copies in several units (a header's static inline) lists the variables
# of its lowest-DIE copy.  Built cold with one and with four threads,
# -L of the header functions (where copies differ: about 65 of them on
# 6.1 differed when each thread's first copy won) must be identical.
# Scheduling decides the split, so a regression shows in most runs, not
# all.  On the first kernel with debuginfo (two cold builds, seconds).
. "$(dirname "$0")/lib.sh"

r=$(debug_kernels | head -n 1)
[ -n "$r" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
list() {	# THREADS
	STAP_NG_INDEX=whole STAP_NG_DWARF_THREADS=$1 XDG_CACHE_HOME=$tmp/t$1 \
		"$STAP" -r "$r" -L 'kernel.function("*@include/*")' 2>"$tmp/err$1" >"$tmp/L$1" ||
		fail "-L with $1 threads: $(cat "$tmp/err$1")"
}
list 1
list 4
[ "$(wc -l <"$tmp/L1")" -gt 1000 ] || fail "too few functions listed: $(wc -l <"$tmp/L1")"
cmp -s "$tmp/L1" "$tmp/L4" || fail "-L differs between 1 and 4 threads: $(diff "$tmp/L1" "$tmp/L4" | head -10)"
exit 0
