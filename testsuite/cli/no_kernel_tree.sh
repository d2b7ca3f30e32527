. "$(dirname "$0")/lib.sh"
expect_rc 1 "$STAP" -p4 -r 0.0.0-nonexistent -e 'probe begin { exit() }'
contains "stap: no kernel build tree for 0.0.0-nonexistent (/lib/modules/0.0.0-nonexistent/build is missing)"
contains "apt-get install linux-headers-0.0.0-nonexistent"
