# A wildcard in a probe point's component names stands for every alias
# and every probe family form it matches (probes/forms.c, issue #12 item
# 6): process.* is process.begin, process.end, ... of the utask family,
# as in SystemTap 4.8's -p2.  Before, a wildcard point that no alias
# matched never reached the families ("unknown probe point").
. "$(dirname "$0")/lib.sh"

points() { grep -o '^[^ ]* /\* <-' <<<"$out" | sed 's| /\* <-||'; }

expect_rc 0 "$STAP" -p2 -e 'probe process.* { }'
out=$(points)
is $'process.begin\nprocess.end\nprocess.syscall'
expect_rc 0 "$STAP" -p2 -e 'probe process.thread.*, process.sys*.ret* { }'
out=$(points)
is $'process.thread.begin\nprocess.thread.end\nprocess.syscall.return'
# The first component may be the wildcard; arguments stay as written
# (-p2 lists probes by priority: begin(5) last).
expect_rc 0 "$STAP" -p2 -e 'probe *.profile, beg*(5), timer.m*s(100).rand*(10) { }'
out=$(points)
is $'timer.profile\ntimer.ms(100).randomize(10)\nbegin(5)'
# A form that needs an argument is not matched without one.
expect_rc 1 "$STAP" -p2 -e 'probe timer.m* { }'
contains "unknown probe point 'timer.m*'"
