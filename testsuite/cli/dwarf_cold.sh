# A first script on a cold cache (translator/dwarf.c, index_for): an exact
# function name is indexed alone, in memory, and must resolve exactly as
# through the whole index; a detached child then builds the whole index.
# Compared on every kernel with debuginfo: -L of .function and .return,
# and the generated C (-p3: kprobe symbols, offsets, target variables) for
#   vfs_read     one out-of-line copy, a target variable
#   kfree        declared in about a thousand units that call it
#   get_current  inline-only, from a header, thousands of inlined copies
#   type_show    a static name defined in many files
#   fls          a short name, also the tail of longer strings
# and a statement probe.  Also: STAP_NG_INDEX=name writes nothing, the
# default mode leaves the whole index and the image's build-id behind, and
# debuginfo of another build is refused on a cold cache too.
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Reference: the whole index, in the real cache (built here if missing).
whole() { STAP_NG_INDEX=whole "$STAP" "$@" 2>&1; }
# One name at a time, from an empty cache, nothing written.
alone() { STAP_NG_INDEX=name XDG_CACHE_HOME=$tmp/name "$STAP" "$@" 2>&1; }
same() {	# DESCRIPTION ARGS...
	local what=$1 a b; shift
	# notes of the whole index being built ("dwarf: indexing ...") aside
	a=$(alone "$@" | grep -v '^#line\|^dwarf: '); b=$(whole "$@" | grep -v '^#line\|^dwarf: ')
	[ -n "$b" ] || fail "$what: no output"
	[ "$a" = "$b" ] || fail "$what: indexed alone differs from the whole index: $(diff <(echo "$a") <(echo "$b") | head -20)"
}

for r in $kernels; do
	for f in vfs_read kfree get_current type_show fls; do
		same "$r -L $f" -r "$r" -L "kernel.function(\"$f\")"
	done
	for f in vfs_read kfree type_show; do	# get_current, fls: inline only
		same "$r -L $f.return" -r "$r" -L "kernel.function(\"$f\").return"
	done
	for f in vfs_read kfree get_current; do
		same "$r -p3 $f" -r "$r" -p3 -e "probe kernel.function(\"$f\") ? { printf(\"%s %d\\n\", pp(), @defined(\$count) ? \$count : 0) }"
	done
	same "$r -p3 statement" -r "$r" -p3 -e 'probe kernel.statement("vfs_read@fs/read_write.c:*") { printf("%s\n", pp()) }'
	out=$(alone -r "$r" -L 'kernel.function("vfs_read")')
	grep -q '^kernel\.function("vfs_read@fs/read_write\.c:[0-9]*") \$file:struct file\* ' <<<"$out" ||
		fail "$r: -L vfs_read: $out"
done
[ -z "$(ls "$tmp/name/stap-ng/dwarf" 2>/dev/null)" ] ||
	fail "STAP_NG_INDEX=name wrote: $(ls "$tmp/name/stap-ng/dwarf")"

# Default mode: the whole index and the image's build-id appear after a run.
set -- $kernels
r=$1
expect_rc 0 env XDG_CACHE_HOME="$tmp/bg" "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read") { }'
for i in $(seq 240); do
	[ -n "$(ls "$tmp"/bg/stap-ng/dwarf/*.db 2>/dev/null)" ] && break
	sleep 1
done
ls "$tmp"/bg/stap-ng/dwarf/*.db >/dev/null 2>&1 || fail "$r: no whole index 240 s after a cold run"
[ -s "$tmp/bg/stap-ng/dwarf/image-$r.id" ] || fail "$r: the image's build-id was not recorded"
expect_rc 0 env XDG_CACHE_HOME="$tmp/bg" "$STAP" -v -l 'kernel.function("vfs_read")' -r "$r"
grep -q "being built" <<<"$out" && fail "$r: second run still indexes alone: $out"

# Another build's debuginfo, on a cold cache: the banners differ, so the
# image's build-id is read and the mismatch reported.
if [ $# -ge 2 ]; then
	mkdir -p "$tmp/root/boot"
	ln -s "/usr/lib/debug/boot/vmlinux-$2" "$tmp/root/boot/vmlinux-$1"
	expect_rc 1 env XDG_CACHE_HOME="$tmp/mismatch" STAP_NG_DEBUGINFO_DIR="$tmp/root" \
		"$STAP" -l 'kernel.function("ksys_read")' -r "$1"
	contains "stap: dwarf: $tmp/root/boot/vmlinux-$1 (build-id "
	contains ") does not match /boot/vmlinuz-$1 (build-id "
	contains "hint: install the matching linux-image-$1-dbg"
fi
exit 0
