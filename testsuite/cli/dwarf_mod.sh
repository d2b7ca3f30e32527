# module("NAME").function/.statement probes (translator/probes/dwarf_mod.c)
# against the test module testsuite/kmod/stp_test.ko, built for every
# kernel with a kbuild tree (cached per kernel build), and the errors:
# unknown module, module without debuginfo, no such function.
. "$(dirname "$0")/lib.sh"

# Checked before anything is built or run.
expect_rc 1 "$STAP" -p2 --vm-insmod /nonexistent/stp_test.ko -e 'probe begin { }'
contains "stap: --vm-insmod: cannot read /nonexistent/stp_test.ko: No such file or directory"
expect_rc 1 "$STAP" -p2 --vm-insmod "$TOP/README" -e 'probe begin { }'
contains "is not a kernel module file (NAME.ko or NAME.ko.xz)"
# Arguments are checked before any module is looked for.
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe module("m").function("f").retrun { }'
contains "error: unexpected 'retrun' after module(...).function(...)"
contains "hint: did you mean '.return'?"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe module("m").statement("f@m.c") { }'
contains 'error: statement needs a line: "FUNC@FILE:LINE", LINE a number, N-M or *'
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe module("m") { }'
contains "error: module(\"m\") needs a function or statement: module(\"m\").function(\"PATTERN\")"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe module("m").function(0x10) { }'
contains "<input>:1:28: error: module(...).function(ADDRESS) is not supported: a module's addresses are offsets in sections the loader places apart"
contains 'hint: name the function or line: module("m").function("NAME")'
# An optional point naming no module is dropped.
expect_rc 0 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe module("nosuch").function("f") ?, begin { }'

kernels=$(build_kernels)
[ -n "$kernels" ] || { echo "no kernel build tree (/lib/modules/*/build)"; exit 77; }
for r in $kernels; do
	ko=$("$TOP/testsuite/kmod/build.sh" "$r") || fail "$r: the test module did not build"
	m=(-r "$r" --vm-insmod "$ko")

	# Listing: every function of the module, with its variables.
	expect_rc 0 "$STAP" "${m[@]}" -L 'module("stp_test").function("stp_test_return")'
	[ "$out" = 'module("stp_test").function("stp_test_return@stp_test.c:88") $x:long int' ] ||
		fail "$r: -L: $out"
	expect_rc 0 "$STAP" "${m[@]}" -l 'module("stp-test").function("stp_test_*").inline'
	[ "$out" = 'module("stp_test").function("stp_test_inline@stp_test.c:110").inline' ] ||
		fail "$r: -l .inline: $out"

	# One probe per match, registered as "MODULE:SYMBOL"+offset.
	expect_rc 0 "$STAP" -p2 "${m[@]}" -e 'probe module("stp_test").function("stp_test_st*").call { }'
	[ "$(grep -c '^module("stp_test").function("stp_test_st' <<<"$out")" = 4 ] ||
		fail "$r: stp_test_st* should match step, stmt, string and struct: $out"
	expect_rc 0 "$STAP" -p3 "${m[@]}" -e 'probe module("stp_test").function("stp_test_return") { }'
	contains '.symbol = "stp_test:stp_test_return", .offset = 0x0, .maxactive = -1, .group = 0, .flags = STP_KPROBE_FENTRY }'
	expect_rc 0 "$STAP" -p3 "${m[@]}" -e 'probe module("stp_test").function("stp_test_return").return { }'
	contains '.symbol = "stp_test:stp_test_return", .offset = 0x0, .maxactive = -1, .group = 0, .flags = STP_KPROBE_RETURN }'
	# The module file itself names the module, no --vm-insmod needed.
	expect_rc 0 "$STAP" -p2 -r "$r" -e "probe module(\"$ko\").statement(\"stp_test_stmt@stp_test.c:104\") { }"
	contains 'module("stp_test").statement("stp_test_stmt@stp_test.c:104") /* <- <input>:1:7 */'
	# .nearest: line 102 has no code, 101 and 103 have, and a tie takes
	# the later; stap -l names the line asked for, as SystemTap 4.8's does.
	expect_rc 0 "$STAP" -p2 "${m[@]}" -e 'probe module("stp_test").statement("stp_test_stmt@stp_test.c:102").nearest { }'
	contains 'module("stp_test").statement("stp_test_stmt@stp_test.c:103") /* <- <input>:1:7 */'
	expect_rc 0 "$STAP" "${m[@]}" -l 'module("stp_test").statement("stp_test_stmt@*:102").nearest'
	is 'module("stp_test").statement("stp_test_stmt@stp_test.c:102").nearest'
	expect_rc 1 "$STAP" -p2 "${m[@]}" -e 'probe module("stp_test").statement("stp_test_stmt@stp_test.c:102") { }'
	contains "hint: nearest lines with code: 101 and 103; or add .nearest"

	# Errors: the exact messages and their hints.
	expect_rc 1 "$STAP" -p2 "${m[@]}" -e 'probe module("stp_tset").function("stp_test_return") { }'
	contains "<input>:1:14: error: no module matches 'stp_tset' for kernel $r"
	contains "hint: did you mean 'stp_test'?"
	expect_rc 1 "$STAP" -p2 "${m[@]}" -e 'probe module("stp_test").function("stp_test_retrun") { }'
	contains "<input>:1:35: error: no function in module stp_test matches 'stp_test_retrun'"
	contains "hint: did you mean 'stp_test_return'?"
	expect_rc 1 "$STAP" -p2 "${m[@]}" -e 'probe module("stp_test").statement("stp_test_stmt@stp_test.c:1") { }'
	contains "error: no statement in module stp_test matches 'stp_test_stmt@stp_test.c:1'"
	expect_rc 1 "$STAP" -p2 "${m[@]}" -e 'probe module("stp_test").function("stp_test_init") { }'
	contains "error: cannot probe 'stp_test_init' in module stp_test: its code in 'stp_test_init' is in .init.text, which the kernel frees once the module is loaded"
	expect_rc 1 "$STAP" -p2 "${m[@]}" -e 'probe module("stp_test").function("stp_test_inline").call { }'
	contains "error: no out-of-line copy of 'stp_test_inline' in module stp_test to probe"
	expect_rc 1 "$STAP" -p2 "${m[@]}" -e 'probe module("stp_test").function("stp_test_inline").return { }'
	contains "error: no out-of-line copy of 'stp_test_inline' in module stp_test to probe the return of (1 inlined copy skipped)"

	# A module without DWARF: out of tree, the hint says how to build it.
	tmp=$(mktemp -d)
	objcopy --strip-debug "$ko" "$tmp/stp_test.ko" || fail "objcopy failed"
	expect_rc 1 "$STAP" -p2 -r "$r" --vm-insmod "$tmp/stp_test.ko" -e 'probe module("stp_test").function("stp_test_return") { }'
	rm -rf "$tmp"
	contains "error: dwarf: no debuginfo for module stp_test: $tmp/stp_test.ko has no DWARF"
	contains "hint: rebuild the module with debug info (-g, or a kernel with CONFIG_DEBUG_INFO)"
	# A distribution module: its DWARF is in the -dbg package (not installed here).
	ext4=$(grep -m1 '/ext4\.ko' "/lib/modules/$r/modules.dep" | cut -d: -f1)
	if [ -n "$ext4" ] && [ ! -e "/usr/lib/debug/lib/modules/$r/${ext4%.xz}" ]; then
		expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe module("ext4").function("ext4_sync_fs") { }'
		contains "<input>:1:14: error: dwarf: no debuginfo for module ext4: /lib/modules/$r/$ext4 has no DWARF and there is none in /usr/lib/debug/lib/modules/$r/${ext4%.xz}"
		contains "hint: install linux-image-$r-dbg"
	fi
done

# The module not loaded when the script starts: its points wait for it
# (run/kmod_deferred loads it), the script runs, no error (one VM boot,
# first kernel).
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing"; exit 77; }
r=$(first_kernel)
ko=$("$TOP/testsuite/kmod/build.sh" "$r") || fail "$r: the test module did not build"
expect_rc 0 "$STAP" --vm -r "$r" -e "probe module(\"$ko\").function(\"stp_test_return\") { } probe begin { exit() } probe end { println(\"end\") }"
[ "$out" = end ] || fail "a module not loaded: $out"
exit 0
