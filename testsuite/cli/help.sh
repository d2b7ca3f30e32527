. "$(dirname "$0")/lib.sh"
expect_rc 0 "$STAP" --help
contains "Usage: stap [options]"
contains "--vm"
expect_rc 0 "$STAP" -V
contains "GPL-2.0-or-later"
