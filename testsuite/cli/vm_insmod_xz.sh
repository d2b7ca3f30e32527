. "$(dirname "$0")/lib.sh"
# --vm-insmod takes a NAME.ko.xz (Debian's 6.12 ships its modules so): it
# goes to the guest as NAME.ko, which its busybox insmod decompresses and
# loads, and rmmod unloads by that name after the run.
# (module("NAME") probes find its DWARF in /usr/lib/debug, as for the
# distribution's stripped modules, not in the .ko.xz itself.)  Another
# suffix is refused before anything runs.
t=$(mktemp -d "${TMPDIR:-/tmp}/vm_insmod_xz.XXXXXX")
trap 'rm -rf "$t"' EXIT
: >"$t/m.ko.gz"
expect_rc 1 "$STAP" -p2 --vm-insmod "$t/m.ko.gz" -e 'probe begin { }'
contains "stap: --vm-insmod: '$t/m.ko.gz' is not a kernel module file (NAME.ko or NAME.ko.xz)"
k=$(debug_kernels | head -n 1)
[ -n "$k" ] || { echo "no provisioned kernel: run ./bootstrap.sh"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing"; exit 77; }
command -v xz >/dev/null || { echo "xz missing: apt-get install xz-utils"; exit 77; }
ko=$("$TOP/testsuite/kmod/build.sh" "$k") || fail "$k: the test module did not build"
xz -c "$ko" >"$t/stp_test.ko.xz"
# Loaded in the guest (a module that does not load fails the run), and
# unloaded after it.
expect_rc 0 "$STAP" --vm --vm-timeout=90 -r "$k" --vm-insmod "$t/stp_test.ko.xz" \
	-e 'probe begin { println("ran"); exit() }'
is "ran"
