. "$(dirname "$0")/lib.sh"
r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
# kbuild that fails outright (here: a make that refuses every module
# build) must stop stap with an error naming the kernel build, not read
# as "no feature compiles": that answer, cached, would break every later
# build for this kernel.  A private, empty cache shows what was kept.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kfeatures_broken.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/cache"
cat >"$tmp/bin/make" <<'MK'
#!/bin/sh
for a; do case $a in M=*) echo "make: *** simulated failure"; exit 2;; esac; done
exec /usr/bin/make "$@"
MK
chmod +x "$tmp/bin/make"
expect_rc 1 env PATH="$tmp/bin:$PATH" XDG_CACHE_HOME="$tmp/cache" \
	"$STAP" -p4 -m kfb -r "$r" -e 'probe begin { exit() }'
contains "stap: the kernel build of $r cannot compile a module"
contains "simulated failure"
contains "hint: check /lib/modules/$r/build"
kept=$(ls -A "$tmp/cache/stap-ng/kfeatures" 2>/dev/null)
[ -z "$kept" ] || fail "a failed detection was cached: $kept"
[ ! -e kfb.ko ] || fail "kfb.ko was built"
exit 0
