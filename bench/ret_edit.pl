#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Edits a copy of ../shared/tools/bench/overhead.sh (stdin to stdout),
# after ncpu_edit.pl, so that bench/entry_overhead.sh can measure
# .return probes (issue #14, item 0):
#   ret    : stap `.return { n++ }`               bpftrace kretprobe `@n = count()`
#   retval : stap `.return { n++; r += $return }` bpftrace kretprobe `@n = count(); @r = sum(retval)`
# and one more tracer, bpftrace_fexit: the bpftrace program with kfunc:/
# kretfunc: (a BPF trampoline on the function, fexit-style for .return)
# on $BT_FEXIT_FUNC instead of kprobe:/kretprobe: on __x64_sys_getppid.
# Each edit must match exactly once, or this fails: a changed
# overhead.sh is reported rather than measured wrongly.
use strict;
use warnings;
local $/;
my $s = <STDIN>;
my @edits = (
	# The stap bodies: the probe point with .return appended.
	['    printf) echo "probe $2 { printf(\"%d\\\\n\", pid()) }";;
',
	 '    printf) echo "probe $2 { printf(\"%d\\\\n\", pid()) }";;
    ret)    echo "global n; probe $2.return { n++ } probe end { printf(\"count n=%d\\\\n\", n) }";;
    retval) echo "global n, r; probe $2.return { n++; r += \$return } probe end { printf(\"count n=%d ret=%d\\\\n\", n, r) }";;
'],
	# The bpftrace bodies.
	# (the end of body_bt: its other lines follow BPFTRACE_PROBE)
	['  esac
}
cfgs=()
',
	 '    ret)    echo \'kretprobe:__x64_sys_getppid { @n = count(); }\';;
    retval) echo \'kretprobe:__x64_sys_getppid { @n = count(); @r = sum(retval); }\';;
  esac
}
cfgs=()
'],
	['for body in count stat printf; do
',
	 'for body in count stat printf ret retval; do
'],
	['stap48_noov bpftrace; do
',
	 'stap48_noov bpftrace bpftrace_fexit; do
'],
	# bpftrace_fexit: the same program on the BPF trampoline.
	['    bpftrace)    body_bt $body > "$T/$m.bt"; files+=("$T/$m.bt")
',
	 '    bpftrace_fexit) body_bt $body | sed -e "s/^kprobe:__x64_sys_getppid/kfunc:$BT_FEXIT_FUNC/" \
                   -e "s/^kretprobe:__x64_sys_getppid/kretfunc:$BT_FEXIT_FUNC/" > "$T/$m.bt"; files+=("$T/$m.bt")
                 echo "build $name: bpftrace program: $(cat "$T/$m.bt")"
                 cmd[$name]="$BT $T/$m.bt"; built+=("$c"); continue;;
    bpftrace)    body_bt $body > "$T/$m.bt"; files+=("$T/$m.bt")
'],
	# Both bpftrace configurations are ready once bpftrace says so.
	['if [ $tool != bpftrace ] || grep -q Attaching $o.out; then',
	 'if [ "${tool#bpftrace}" = "$tool" ] || grep -q Attaching $o.out; then'],
);
for my $e (@edits) {
	my ($from, $to) = @$e;
	my $n = () = $s =~ /\Q$from\E/g;
	die "ret_edit: overhead.sh changed: " . (split /\n/, $from)[0] . " found $n times\n"
		if $n != 1;
	$s =~ s/\Q$from\E/$to/;
}
# A kfunc/kretfunc probe is a BPF trampoline: ready once the function
# shows in enabled_functions, which the readiness check already reads.
print $s;
