# Functions probes must not go on (translator/probes/unsafe.c): a
# wildcard leaves them out and says how many with -v; a point with
# nothing else is an error, as SystemTap 4.8's blocklist makes it ("no
# match").  On 6.1 *@kernel/locking/*.c gives 249 probes here and in
# SystemTap 4.8 (one more inlined copy of __percpu_rwsem_trylock here).
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

for r in $kernels; do
	expect_rc 0 "$STAP" -p2 -v -r "$r" -e 'probe kernel.function("*@kernel/locking/*.c") { }'
	contains "functions that probes must not go on"
	contains "it is a locking primitive, which probe handlers use"
	grep -q '^kernel\.function("down@[^"]*kernel/locking/semaphore\.c:' <<<"$out" ||
		fail "$r: down is not probed: $out"
	# Nothing the rules name is left in the listing.
	bad=$(grep -oE '^kernel\.function\("[^@"]*' <<<"$out" | cut -d'"' -f2 |
	      grep -E 'spin_(lock|unlock|trylock)|mutex_.*lock|^rwsem_.*lock|(read|write)_(lock|unlock|trylock)|^atomic' | sort -u)
	[ -z "$bad" ] || fail "$r: unsafe functions probed: $bad"
	# Without -v, no note.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("*@kernel/locking/*.c") { }'
	! grep -q 'must not go on' <<<"$out" || fail "$r: a note without -v: $out"
	# -vv names each function left out.
	expect_rc 0 "$STAP" -p2 -vv -r "$r" -e 'probe kernel.function("*@kernel/locking/*.c") { }'
	contains "hint: skipped 'mutex_lock'"

	# Only unsafe functions: an error naming the first and why.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("*spin_lock*") { }'
	contains "error: cannot probe '*spin_lock*': '"
	contains "is a locking primitive, which probe handlers use"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("mutex_lock") { }'
	contains "error: cannot probe 'mutex_lock': 'mutex_lock' is a locking primitive"
	# ... and with '?', nothing.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("*spin_lock*") ?, begin { }'
	# Files: kprobes itself, whose functions the kernel also refuses.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("*@kernel/kprobes.c") { }'
	contains "error: cannot probe '*@kernel/kprobes.c'"
	# Functions the kernel refuses (NOKPROBE_SYMBOL) are counted with -v too.
	expect_rc 0 "$STAP" -p2 -v -r "$r" -e 'probe kernel.function("*@kernel/notifier.c") { }'
	contains "the kernel refuses kprobes in"
done
