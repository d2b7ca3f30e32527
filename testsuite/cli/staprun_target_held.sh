. "$(dirname "$0")/lib.sh"
# staprun -c forks the command before loading the module but holds it
# until the session starts: when the module cannot be loaded, the command
# must never run (and no child is left behind).
staprun="$TOP/staprun/staprun"
mark="$PWD/target_ran"
rm -f "$mark"
echo 'not a module' >fake.ko
expect_rc 1 "$staprun" -c "touch '$mark'" fake.ko
case $out in
*debugfs:*) echo "staprun cannot mount debugfs here: $out"; exit 77 ;;
esac
contains "module: cannot load"
sleep 0.2
[ ! -e "$mark" ] || fail "the -c command ran although the session never started"
