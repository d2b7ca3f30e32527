. "$(dirname "$0")/lib.sh"
expect_rc 0 "$STAP" --help
contains "Usage: stap [options]"
contains "--vm"
expect_rc 0 "$STAP" -V
contains "GPL-2.0-or-later"
# Each option man stap documents and stap-ng takes is in --help.
expect_rc 0 "$STAP" --help
for o in --vp --disable-cache --poison-cache --clean-cache --privilege --unprivileged \
	--example --rlimit-as --rlimit-fsize --save-uprobes --dump-probe-types \
	--dump-probe-aliases --dump-functions --skip-badvars --suppress-handler-errors \
	--compatible --modinfo --monitor --target-namespaces --color "-B NAME" "-R DIR" \
	"-m NAME" "-S SIZE" "-G NAME" "-D NAME" "-T SECS"; do
	contains "$o"
done
