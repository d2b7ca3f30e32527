# The VM runner's own failure handling (kernel WARN and oops reported,
# exact output bytes, hung job hitting the timeout, no QEMU left behind):
# scripts/vm-selftest.sh on every provisioned kernel.
. "$(dirname "$0")/lib.sh"
[ -n "$(first_kernel)" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing: run ./bootstrap.sh"; exit 77; }
bash "$TOP/scripts/vm-selftest.sh"
