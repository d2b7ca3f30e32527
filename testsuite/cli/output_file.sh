. "$(dirname "$0")/lib.sh"
# stap -o FILE: strftime(3) conversions in FILE are expanded (as
# SystemTap documents), and a file that cannot be written is an error,
# not silent loss.  Runs in the VM (stap writes -o there itself).
k=$(debug_kernels | head -n 1)
[ -n "$k" ] || { echo "no provisioned kernel: run ./bootstrap.sh"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
year=$(date +%Y)
expect_rc 0 "$STAP" --vm -r "$k" -o "$tmp/out-%Y.txt" -e 'probe begin { printf("hi\n"); exit() }'
[ -f "$tmp/out-$year.txt" ] || fail "no $tmp/out-$year.txt: $(ls "$tmp")"
[ "$(cat "$tmp/out-$year.txt")" = hi ] || fail "out-$year.txt holds: $(cat "$tmp/out-$year.txt")"
expect_rc 1 "$STAP" --vm -r "$k" -o /dev/full -e 'probe begin { printf("hi\n"); exit() }'
contains "stap: cannot write /dev/full: No space left on device"
