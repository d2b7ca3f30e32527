. "$(dirname "$0")/lib.sh"
# Pass 5 on a host that cannot run the module must say why and how.
r=$(uname -r)
if [ -e /proc/modules ] && [ -e "/lib/modules/$r/build/Makefile" ] && [ "$(id -u)" = 0 ]; then
	echo "this host can load modules: the refusal path is not reachable here"; exit 77
fi
# No kbuild tree for the running kernel: stopped in pass 4, --vm offered.
if [ ! -e "/lib/modules/$r/build/Makefile" ]; then
	expect_rc 1 "$STAP" -e 'probe begin { exit() }'
	is "stap: no kernel build tree for $r (/lib/modules/$r/build is missing)
hint: install the headers: apt-get install linux-headers-$r; or use --vm to run in a VM with a provisioned kernel"
fi
# A module built for another kernel (-r): refused before loading it.
k=$(build_kernels | grep -vxF "$r" | head -n 1)
[ -n "$k" ] || { echo "no kernel headers for a release other than the host's: run ./bootstrap.sh"; exit 77; }
expect_rc 1 "$STAP" -r "$k" -e 'probe begin { exit() }'
is "stap: the module is built for $k but this host runs $r
hint: add --vm to run it in a VM booting $k"
