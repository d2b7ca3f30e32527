# stap --dump-functions: every public function of the tapset library, one
# "name:type (arg:type, ...)" line each, sorted; with -v each line carries
# its description, and every function must have one.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "$STAP" --dump-functions
contains "ctime:string (epochsecs:long)"
contains "kernel_string:string (addr:long)"
contains "print_backtrace:unknown ()"
contains "str_replace:string (prnt_str:string, srch_str:string, rplc_str:string)"
contains "pid:long ()"
# Overloads by arity, and the translator's own exit() and error().
contains "kernel_string:string (addr:long, err_msg:string)"
contains "ctime:string ()"
contains "exit:unknown ()"
contains "error:unknown (msg:string)"
# Guru-only functions are part of the library too.
contains "set_kernel_long:unknown (addr:long, val:long)"
bad=$(grep -vE '^[A-Za-z_][A-Za-z0-9_]*:(long|string|unknown) \(([A-Za-z_][A-Za-z0-9_]*:(long|string|unknown)(, )?)*\)$' <<<"$out")
[ -z "$bad" ] || fail "lines not in the name:type (args) form: $bad"
cut -d: -f1 <<<"$out" | LC_ALL=C sort -c 2>/dev/null || fail "not sorted by name"
n=$(wc -l <<<"$out")

# Every "function NAME" defined in a tapset file is listed (private ones
# are not public).
for f in "$TOP"/tapsets/*.stp; do
	for name in $(sed -n 's/^function \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$f"); do
		grep -q "^$name:" <<<"$out" || fail "$name (in ${f##*/}) is not listed"
	done
done

expect_rc 0 "$STAP" -v --dump-functions
[ "$(wc -l <<<"$out")" = "$n" ] || fail "-v lists a different number of functions: $out"
contains "errno_str:string (err:long) - Return the name of an error number"
grep -q "(undocumented)" <<<"$out" && fail "functions without a doc comment: $(grep '(undocumented)' <<<"$out")"
exit 0
