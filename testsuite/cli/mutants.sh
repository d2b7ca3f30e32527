# scripts/mutants.sh, on a toy tree (a one-file "stap" and a two-test
# run.sh): all six mutants of toy.c are planted; the three in big() are
# killed by the toy tests, the three in spare() (which no test checks)
# survive, in the order the seed gives.  Afterwards toy.c must be byte-identical, no backup left and
# the toy stap rebuilt from it; a run stopped by SIGTERM in the middle
# of a stage must restore the file as well.
. "$(dirname "$0")/lib.sh"
script=$TOP/scripts/mutants.sh
[ -x "$script" ] || fail "no $script"
command -v cc >/dev/null || { echo "no C compiler"; exit 77; }
rm -rf toy; mkdir -p toy/translator toy/testsuite
cat >toy/translator/toy.c <<'C'
#include <stdlib.h>
static int big(int n)
{
	return n > 10;
}
static int spare(int n)
{
	return n < 3;
}
int main(int argc, char **argv) { return big(atoi(argv[argc - 1])) + 0 * spare(0); }
C
printf 'stap: translator/toy.c\n\tcc -o stap translator/toy.c\n' >toy/Makefile
# The toy runner: the interface mutants.sh relies on (TESTS glob,
# "FAIL: name" lines, non-zero exit on a failure).
cat >toy/testsuite/run.sh <<'SH'
[ -n "${TOY_HANG:-}" ] && { touch "$TOY_HANG"; sleep 60; }
fail=0
t() { [[ toy/$1 == $TESTS ]] || return 0; ./stap "$2"; [ $? = "$3" ] || { echo "FAIL: toy/$1"; fail=1; }; }
t ten 10 0
t eleven 11 1
exit $fail
SH
cp toy/translator/toy.c toy.c.orig
expect_rc 0 env MUTANTS_TOP=$PWD/toy "$script" -n 100 -g 'toy/*' translator/toy.c
is 'translator/toy.c:4: [cmp] `>` -> `>=`: killed by toy/ten
translator/toy.c:8: [lit] `3` -> `4`: SURVIVED
translator/toy.c:8: [lit] `3` -> `2`: SURVIVED
translator/toy.c:8: [cmp] `<` -> `<=`: SURVIVED
translator/toy.c:4: [lit] `10` -> `11`: killed by toy/eleven
translator/toy.c:4: [lit] `10` -> `9`: killed by toy/ten
3 of 6 killed (3 survived; 0 of 6 did not compile)'
cmp -s toy.c.orig toy/translator/toy.c || fail "toy.c left mutated: $(diff toy.c.orig toy/translator/toy.c)"
ls toy/translator | grep -q backup && fail "a backup is left: $(ls toy/translator)"
(cd toy && ./stap 10 && ! ./stap 11) || fail "toy stap not rebuilt from the restored toy.c"

# -l lists the same sample, -f picks from it.
expect_rc 0 env MUTANTS_TOP=$PWD/toy "$script" -l -n 100 -f 'toy.c:8: lit' translator/toy.c
is 'translator/toy.c:8: lit: `3` -> `4`
translator/toy.c:8: lit: `3` -> `2`'

# Stopped in the middle of a stage: restored at once.
rm -f toy/hang
MUTANTS_TOP=$PWD/toy TOY_HANG=$PWD/toy/hang "$script" -n 1 -g 'toy/*' translator/toy.c >/dev/null 2>&1 &
pid=$!
for i in $(seq 100); do [ -e toy/hang ] && break; sleep 0.1; done
[ -e toy/hang ] || { kill $pid; fail "the first stage never started"; }
cmp -s toy.c.orig toy/translator/toy.c && { kill $pid; fail "toy.c not mutated while its tests run"; }
kill -TERM $pid; wait $pid; rc=$?
[ $rc != 0 ] || fail "interrupted run exited 0"
cmp -s toy.c.orig toy/translator/toy.c || fail "interrupted run left toy.c mutated: $(diff toy.c.orig toy/translator/toy.c)"
ls toy/translator | grep -q backup && fail "an interrupted run left a backup: $(ls toy/translator)"
(cd toy && ./stap 10 && ! ./stap 11) || fail "toy stap not rebuilt after the interrupted run"
exit 0
