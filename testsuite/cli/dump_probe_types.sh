. "$(dirname "$0")/lib.sh"
# stap --dump-probe-types: the probe point forms of every family
# (probes/forms.c), in SystemTap's order.  dump_probe_types.ref is
# SystemTap 4.8's list (stap -r 6.1.0-56-amd64 --dump-probe-types).  The
# forms both list must come in the same order, none of ours may go
# missing, and ours has only the extras below (forms 4.8 spells as an
# alias or does not combine).  4.8's forms we lack are listed, not
# failed: they are features still to build (module(...).function(number)
# and .statement(number), module callees, process(PID).statement(ADDR)
# .absolute).
ref=$(dirname "$0")/dump_probe_types.ref
expect_rc 0 "$STAP" --dump-probe-types
ours=$out
both_ref=$(grep -Fxf <(printf '%s\n' "$ours") "$ref")
both_ours=$(grep -Fxf "$ref" <<<"$ours")
[ "$both_ref" = "$both_ours" ] || fail "not in SystemTap's order: $(diff <(echo "$both_ref") <(echo "$both_ours") | head)"
n=$(wc -l <<<"$both_ours")
[ "$n" -ge 158 ] || fail "only $n of SystemTap's forms are listed"
extras=$(grep -Fxvf "$ref" <<<"$ours")
want='perf.type(number).config(number).hz(number).process
perf.type(number).config(number).hz(number).process(string)
perf.type(number).config(number).process.counter(string)
perf.type(number).config(number).sample(number).process
perf.type(number).config(number).sample(number).process(string)
process(number).library(string).function(number)
process(number).library(string).function(number).call
process(number).library(string).function(number).exported
process(number).library(string).function(number).return
process(number).library(string).function(string)
process(number).library(string).function(string).call
process(number).library(string).function(string).callee(string)
process(number).library(string).function(string).callee(string).call
process(number).library(string).function(string).callee(string).return
process(number).library(string).function(string).callees
process(number).library(string).function(string).callees(number)
process(number).library(string).function(string).exported
process(number).library(string).function(string).inline
process(number).library(string).function(string).label(string)
process(number).library(string).function(string).return
process(number).library(string).mark(string)
process(number).library(string).plt
process(number).library(string).plt.return
process(number).library(string).plt(string)
process(number).library(string).plt(string).return
process(number).library(string).provider(string).mark(string)
process(number).library(string).statement(number)
process(number).library(string).statement(number).nearest
process(number).library(string).statement(string)
process(number).library(string).statement(string).nearest
timer.profile'
[ "$extras" = "$want" ] || fail "forms SystemTap does not list: $(diff <(echo "$want") <(echo "$extras"))"
# Each listed once.
[ -z "$(sort <<<"$ours" | uniq -d)" ] || fail "listed twice: $(sort <<<"$ours" | uniq -d)"
exit 0
