# stap -l / -L 'kernel.function("PATTERN")' on every kernel with debuginfo
# in /usr/lib/debug/boot, through the DWARF index (translator/dwarf.c).
#
# Cost: the first run on a kernel build indexes its vmlinux into
# ${XDG_CACHE_HOME:-$HOME/.cache}/stap-ng/dwarf/<build-id>.v<schema>.db, about 2-5 s
# per kernel on 2 cores (in the background when the first query is an exact
# name); later runs only query that file (a few ms each).  The real cache is
# used on purpose, so the suite indexes once per machine.
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

# A release without debuginfo: say which package provides it.
expect_rc 1 "$STAP" -l 'kernel.function("ksys_read")' -r 0.0.0-nosuch
contains "stap: dwarf: no debuginfo for kernel 0.0.0-nosuch: none of /usr/lib/debug/boot/vmlinux-0.0.0-nosuch /usr/lib/debug/lib/modules/0.0.0-nosuch/vmlinux exists"
contains "hint: install linux-image-0.0.0-nosuch-dbg"

# Other points are resolved as in a script and listed by their
# canonical names, as SystemTap 4.8 lists them (checked with /usr/bin/stap).
for pt in 'perf.type(1).config(0)' 'timer.s(1)' begin never 'procfs("x").read' 'timer.profile'; do
	expect_rc 0 "$STAP" -l "$pt" -r 0.0.0-nosuch
	is "$pt"
done
expect_rc 1 "$STAP" -l 'timer.fortnight(1)' -r 0.0.0-nosuch
contains "<input>:1:13: error: unknown timer probe 'timer.fortnight'"

cache=${XDG_CACHE_HOME:-$HOME/.cache}/stap-ng/dwarf
for r in $kernels; do
	# First run: may index (once per build); the cache file then exists.
	expect_rc 0 "$STAP" -v -l 'kernel.function("ksys_read")' -r "$r"
	grep -qE '^kernel\.function\("ksys_read@fs/read_write\.c:[0-9]+"\)$' <<<"$out" ||
		fail "$r: no ksys_read@fs/read_write.c: $out"
	db=$(sed -n 's/^dwarf: .*, index \(.*\.db\)\( (being built.*)\)\{0,1\}$/\1/p' <<<"$out")
	# On a cold cache the name was indexed alone, and a detached child
	# builds the whole index: it must appear.
	for i in $(seq 180); do [ -s "$db" ] && break; sleep 1; done
	[ -n "$db" ] && [ -s "$db" ] && [ "${db%/*}" = "$cache" ] || fail "$r: no index file in $cache: $out"
	line=$(sed -n 's/^kernel\.function("ksys_read@fs\/read_write\.c:\([0-9]*\)")$/\1/p' <<<"$out")

	# Second run: from the cache, no indexing.
	expect_rc 0 "$STAP" -l 'kernel.function("ksys_read")' -r "$r"
	[ "$out" = "kernel.function(\"ksys_read@fs/read_write.c:$line\")" ] ||
		fail "$r: second run printed: $out"

	# Globs on name and file, @file:line, suffix match on the file.
	expect_rc 0 "$STAP" -l 'kernel.function("*@fs/read_write.c")' -r "$r"
	contains "kernel.function(\"ksys_write@fs/read_write.c:"
	contains "kernel.function(\"vfs_read@fs/read_write.c:"
	grep -v '@fs/read_write\.c:' <<<"$out" && fail "$r: other files listed"
	expect_rc 0 "$STAP" -l "kernel.function(\"ksys_rea?@read_write.c:$line\")" -r "$r"
	[ "$out" = "kernel.function(\"ksys_read@fs/read_write.c:$line\")" ] || fail "$r: @file:line: $out"
	expect_rc 1 "$STAP" -l "kernel.function(\"ksys_read@fs/read_write.c:$((line + 1))\")" -r "$r"
	[ -z "$out" ] || fail "$r: wrong line matched: $out"
	expect_rc 0 "$STAP" -l 'kernel.function("vfs_*").return' -r "$r"
	contains "kernel.function(\"vfs_read@fs/read_write.c:"
	contains "\").return"
	# Inline-only functions from headers are listed too.
	expect_rc 0 "$STAP" -l 'kernel.function("*@include/linux/*.h").inline' -r "$r"
	[ "$(wc -l <<<"$out")" -gt 100 ] || fail "$r: few inline functions: $out"

	# -L: parameters and types as SystemTap prints them; locals only
	# where they have a location at the probe address (none here yet).
	expect_rc 0 "$STAP" -L 'kernel.function("ksys_read")' -r "$r"
	[ "$out" = "kernel.function(\"ksys_read@fs/read_write.c:$line\") \$fd:unsigned int \$buf:char* \$count:size_t" ] ||
		fail "$r: -L printed: $out"
	# .return: $return, then the parameters (read at entry).
	expect_rc 0 "$STAP" -L 'kernel.function("ksys_read").return' -r "$r"
	[ "$out" = "kernel.function(\"ksys_read@fs/read_write.c:$line\").return \$return:ssize_t \$fd:unsigned int \$buf:char* \$count:size_t" ] ||
		fail "$r: -L .return printed: $out"
	expect_rc 0 "$STAP" -L 'kernel.function("vfs_write")' -r "$r"
	contains "\$file:struct file* \$buf:char const* \$count:size_t \$pos:loff_t*"
	expect_rc 1 "$STAP" -l 'kernel.function("no_such_function_xyz*")' -r "$r"
done

# Debuginfo of another build than /boot/vmlinuz-R: refused, with the hint.
set -- $kernels
if [ $# -ge 2 ] && [ -e "/boot/vmlinuz-$1" ]; then
	root=$(mktemp -d)
	trap 'rm -rf "$root"' EXIT
	mkdir -p "$root/boot"
	ln -s "/usr/lib/debug/boot/vmlinux-$2" "$root/boot/vmlinux-$1"
	expect_rc 1 env STAP_NG_DEBUGINFO_DIR="$root" "$STAP" -l 'kernel.function("ksys_read")' -r "$1"
	contains "stap: dwarf: $root/boot/vmlinux-$1 (build-id "
	contains ") does not match /boot/vmlinuz-$1 (build-id "
	contains "hint: install the matching linux-image-$1-dbg"
fi
exit 0
