. "$(dirname "$0")/lib.sh"
# Pass 5 on a host that cannot run the module must say why and how.
r=$(uname -r)
if [ -e /proc/modules ] && [ -e "/lib/modules/$r/build/Makefile" ] && [ "$(id -u)" = 0 ]; then
	echo "this host can load modules: the refusal path is not reachable here"; exit 77
fi
expect_rc 1 "$STAP" -e 'probe begin { exit() }'
contains "--vm"
