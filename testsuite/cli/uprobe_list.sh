# User-space probe points of testsuite/uprog (translator/probes/uprobe.c):
# stap -l/-L of functions (DWARF ones and the symbol table's startup code,
# as SystemTap 4.8 lists them: the expected -L text is its output, but
# for lifecycle's $what, which GCC optimized out of lifecycle's only
# (inlined) copy: SystemTap leaves it out, ours lists the parameters of
# the abstract function, as it does for the kernel) and of
# SDT markers; -p2 resolution; the errors for a missing file, a name that
# matches nothing, a line without code, and a marker argument that does
# not exist; and a
# stripped copy, whose functions come from the symbol table alone.
. "$(dirname "$0")/lib.sh"

uprog=$(cd "$(dirname "$0")/.." && pwd)/uprog
[ -x "$uprog" ] || { echo "testsuite/uprog is not built: run make check"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

expect_rc 0 "$STAP" -L "process(\"$uprog\").function(\"*\")"
out=${out//$uprog/UPROG}
is 'process("UPROG").function("__do_global_dtors_aux")
process("UPROG").function("_fini")
process("UPROG").function("_init")
process("UPROG").function("_start")
process("UPROG").function("add@testsuite/uprog.c:43") $a:int $b:int
process("UPROG").function("atoi@/usr/include/stdlib.h:362") $__nptr:char const*
process("UPROG").function("deregister_tm_clones")
process("UPROG").function("fib@testsuite/uprog.c:55") $n:int
process("UPROG").function("frame_dummy")
process("UPROG").function("greet@testsuite/uprog.c:60") $who:char const* $buf:char[]
process("UPROG").function("lifecycle@testsuite/uprog.c:74") $what:char const*
process("UPROG").function("main@testsuite/uprog.c:100") $argc:int $argv:char** $pt:struct point
process("UPROG").function("register_tm_clones")
process("UPROG").function("scale@testsuite/uprog.c:48") $p:struct point* $k:long int $r:long int
process("UPROG").function("thread_main@testsuite/uprog.c:68") $arg:void*'

expect_rc 0 "$STAP" -L "process(\"$uprog\").mark(\"*\")"
out=${out//$uprog/UPROG}
is 'process("UPROG").mark("ping") $arg1:long
process("UPROG").mark("tick") $arg1:long $arg2:long $arg3:long $arg4:long'
expect_rc 1 "$STAP" -l "process(\"$uprog\").provider(\"nosuch\").mark(\"*\")"
is ''
expect_rc 0 "$STAP" -l "process(\"$uprog\").function(\"[af]*\").return"
out=${out//$uprog/UPROG}
is 'process("UPROG").function("add@testsuite/uprog.c:43").return
process("UPROG").function("fib@testsuite/uprog.c:55").return
process("UPROG").function("frame_dummy").return'

# -p2: one probe per match, named as -l names it; a marker by its address.
expect_rc 0 "$STAP" -p2 -e "probe process(\"$uprog\").function(\"add\"), process(\"$uprog\").mark(\"tick\") { print(1) }"
out=${out//$uprog/UPROG}
contains 'process("UPROG").function("add@testsuite/uprog.c:43") /* <- <input>:1:7 */'
grep -qE '^process\("UPROG"\)\.statement\(0x[0-9a-f]+\) /\* <- <input>:1:' <<<"$out" ||
	fail "no marker probe: $out"

# Errors name the place and say what to do.
expect_rc 1 "$STAP" -p2 -e 'probe process("/nonexistent/prog").function("main") { }'
contains "<input>:1:15: error: cannot find '/nonexistent/prog'"
expect_rc 1 "$STAP" -p2 -e "probe process(\"$uprog\").function(\"ad\") { }"
contains "error: no function in $uprog matches 'ad'"
contains "hint: did you mean 'add'?"
# A line without code: the lines either side that have, as 4.8's "try
# :105 or :107"; .nearest resolves it (run/uprobe_nearest).
expect_rc 1 "$STAP" -p2 -e "probe process(\"$uprog\").statement(\"main@*:106\") { }"
contains "error: no statement in $uprog matches 'main@*:106'"
contains "hint: nearest lines with code: 105 and 107; or add .nearest"
# A function's lines are those of its own file: atoi's, inlined into
# main from stdlib.h, are not main's (4.8 lists only uprog.c's).
expect_rc 0 "$STAP" -l "process(\"$uprog\").statement(\"main@*:*\")"
grep -q 'main@testsuite/uprog.c:' <<<"$out" || fail "main's lines: $out"
! grep -v 'main@testsuite/uprog.c:' <<<"$out" || fail "lines of other files in main's"
# stap -l names the line asked for, as SystemTap 4.8's does.
expect_rc 0 "$STAP" -l "process(\"$uprog\").statement(\"main@*:106\").nearest"
is "process(\"$uprog\").statement(\"main@testsuite/uprog.c:106\").nearest"
expect_rc 1 "$STAP" -p2 -e "probe process(\"$uprog\").statement(\"main@*:106\").nearest.return { }"
contains "error: unexpected 'return' after .nearest"
expect_rc 1 "$STAP" -p2 -e "probe process(\"$uprog\").mark(\"tick\") { print(\$arg5) }"
contains "error: marker uprog:tick has 4 arguments: no \$arg5"
expect_rc 1 "$STAP" -p2 -e 'probe process.function("main") { }'
contains "error: process needs a path or a pid without -c"

# Stripped: the symbol table's functions only, at their entry, no variables.
cp "$uprog" "$tmp/stripped"
strip --strip-debug "$tmp/stripped"
expect_rc 0 "$STAP" -L "process(\"$tmp/stripped\").function(\"add\")"
is "process(\"$tmp/stripped\").function(\"add\")"
expect_rc 1 "$STAP" -p2 -e "probe process(\"$tmp/stripped\").function(\"add\") { print(\$a) }"
contains "has no debuginfo for target variables here"

# PLT entries: -l lists them by the name of the function each calls.
expect_rc 0 "$STAP" -l "process(\"$uprog\").plt(\"f*\")"
is "process(\"$uprog\").plt(\"fork\")
process(\"$uprog\").plt(\"fprintf\")"
expect_rc 0 "$STAP" -l "process(\"$uprog\").plt.return"
contains "process(\"$uprog\").plt(\"waitpid\").return"
expect_rc 1 "$STAP" -l "process(\"$uprog\").pltx"
contains "error: unknown probe point 'process(\"$uprog\").pltx'"
contains "hint: did you mean 'process(\"$uprog\").plt'?"
# Forms the index does not list are resolved as in a script (list.c).
expect_rc 0 "$STAP" -l "process(\"$uprog\").function(\"*\").exported"
contains "process(\"$uprog\").function(\"main@testsuite/uprog.c:100\").exported"
grep -q thread_main <<<"$out" && fail ".exported listed static thread_main: $out"
expect_rc 0 "$STAP" -l "process(\"$uprog\").begin"
is "process(\"$uprog\").begin"

# .library("LIB"): each library by its path after the program, as
# SystemTap 4.8's -l and -L print them (checked against /usr/bin/stap).
uplib=$TOP/testsuite/uplib
if [ -x "$uplib" ]; then
	expect_rc 0 "$STAP" -L "process(\"$uplib\").library(\"libulib.so\").function(\"ulib*\")"
	is "process(\"$uplib\").library(\"$TOP/testsuite/libulib.so\").function(\"ulib_twice@testsuite/ulib.c:7\") \$i:int"
	expect_rc 1 "$STAP" -l "process(\"$uplib\").library(\"libnosuch.so\").function(\"*\")"
	is "stap: no library of $uplib matches 'libnosuch.so'"
fi
# $STAP_NG_DEBUGINFO_DIR for user files: an empty directory hides libc6-dbg,
# and libc's functions come from its symbol table (bench/uprobe_libc.sh).
libc=/lib/x86_64-linux-gnu/libc.so.6
if [ -r "$libc" ]; then
	mkdir "$tmp/nodebug"
	expect_rc 0 env STAP_NG_DEBUGINFO_DIR="$tmp/nodebug" "$STAP" -L "process(\"$libc\").function(\"strtol\")"
	is "process(\"$libc\").function(\"strtol\")"
fi
echo ok
