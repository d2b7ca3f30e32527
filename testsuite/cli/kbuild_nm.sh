# kbuild runs nm on every object it compiles (exported symbols, their
# CRCs).  Without a target, nm loads every BFD plugin in
# /usr/lib/bfd-plugins first, and clang's LLVMgold there (bootstrap.sh
# installs clang for fuzz/) loads libLLVM: 70 ms of CPU a run, four
# runs a module.  stap hands kbuild an nm that names the object format
# (translator/build.c): checked with an nm on PATH that logs its
# arguments and runs the real one; a kprobe module on every kernel with a
# kbuild tree must build, and every nm run must carry --target.
# Likewise no pahole: where the headers ship vmlinux (Debian's 6.12),
# kbuild would make BTF of each module with it, a sixth of a small
# module's build, and nothing reads our modules' BTF.
. "$(dirname "$0")/lib.sh"
[ -n "$(build_kernels)" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
case $(uname -m) in x86_64|aarch64) ;; *) echo "no object format known for $(uname -m)"; exit 77 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
real=$(command -v nm) || { echo "nm missing: apt-get install binutils"; exit 77; }
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "$*" >>%s/nm.log\nexec %s "$@"\n' "$tmp" "$real" >"$tmp/bin/nm"
chmod +x "$tmp/bin/nm"
# kbuild asks every pahole its version (pahole-flags.sh): the real one answers.
printf '#!/bin/sh\n[ "$*" = --version ] && exec %s "$@"\necho "$*" >>%s/pahole.log\nexit 1\n' \
	"$(command -v pahole || echo false)" "$tmp" >"$tmp/bin/pahole"
chmod +x "$tmp/bin/pahole"
cd "$tmp" || exit 1
for r in $(build_kernels); do
	: >nm.log
	expect_rc 0 env PATH="$tmp/bin:$PATH" "$STAP" -p4 -r "$r" -m kbuild_nm \
		-e 'global n probe kernel.function("vfs_read") { n++ } probe end { println(n) }'
	[ -f kbuild_nm.ko ] || fail "$r: no module built: $out"
	rm -f kbuild_nm.ko
	[ -s nm.log ] || fail "$r: kbuild ran no nm from PATH (did it change how it finds nm?)"
	plain=$(grep -v -- '--target=' nm.log)
	[ -z "$plain" ] || fail "$r: nm ran without a target (it loads every BFD plugin): $plain"
	[ ! -e pahole.log ] || fail "$r: kbuild ran pahole (BTF for our module): $(cat pahole.log)"
done
exit 0
