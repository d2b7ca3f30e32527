. "$(dirname "$0")/lib.sh"
r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
# A -D that breaks the C: kbuild must fail cleanly and leave no module.
expect_rc 1 "$STAP" -p4 -m broken -r "$r" -D MAXSTRINGLEN=nonsense -e 'probe begin { exit() }'
contains "stap: building the module for $r failed:"
contains "nonsense"
[ ! -e broken.ko ] || fail "a partial broken.ko was left behind"
ls /tmp/stap[A-Za-z0-9]* >/dev/null 2>&1 && [ -n "$(find /tmp -maxdepth 1 -name 'stap??????' -newer lib.sh 2>/dev/null)" ] && fail "temporary directory left behind"
exit 0
