#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Edits a copy of ../shared/tools/bench/overhead.sh (stdin to stdout) so
# that its CPU modes may be any NCPU (1cpu, 2cpu, 4cpu, ...): N sysloops
# pinned to CPUs 0..N-1, and a table that averages N processes where it
# averaged two (bench/entry_overhead.sh runs the copy).  Each edit must
# match exactly once, or this fails: a changed overhead.sh is reported
# rather than measured wrongly.
use strict;
use warnings;
local $/;
my $s = <STDIN>;
my @edits = (
	# The guest's loops: N of them, one per CPU, where it started two.
	['      pin 0 $SL $N > $O/a.txt & p1=$!
      pin 1 $SL $N > $O/b.txt & p2=$!
      wait $p1; wait $p2
      v=$(cat $O/a.txt); echo "$1 $2 $3 $r cpu0 ${v%% *}"
      v=$(cat $O/b.txt); echo "$1 $2 $3 $r cpu1 ${v%% *}"
',
	 '      k=0; ps=; while [ $k -lt ${3%cpu} ]; do pin $k $SL $N > $O/l$k.txt & ps="$ps $!"; k=$((k+1)); done
      wait $ps
      k=0; while [ $k -lt ${3%cpu} ]; do v=$(cat $O/l$k.txt); echo "$1 $2 $3 $r cpu$k ${v%% *}"; k=$((k+1)); done
'],
	# The table: every mode the raw output has, in CPU order.
	['  nm = split("1cpu 2cpu", modes, " ")
',
	 '  nm = 0; for (k in planned) { split(k, q, " "); if (!(q[2] in hasmode)) { hasmode[q[2]] = 1; modes[++nm] = q[2] } }
  for (k in seen) { split(k, q, " "); if (!(q[2] in hasmode)) { hasmode[q[2]] = 1; modes[++nm] = q[2] } }
  for (i = 1; i <= nm; i++) for (j = i + 1; j <= nm; j++) if (modes[j] + 0 < modes[i] + 0) { t = modes[i]; modes[i] = modes[j]; modes[j] = t }
'],
	['      m0 = med(v[c " " m " cpu0"]); m1 = med(v[c " " m " cpu1"])
      mean[c " " m] = (m == "2cpu" && m1 != "") ? (m0 + m1) / 2 : m0
      show[c " " m] = (m == "2cpu" && m1 != "") ? sprintf("%.0f/%.0f", m0, m1) : sprintf("%.0f", m0)
',
	 '      sum = 0; got = 0; sh = ""
      for (ci = 0; ci < m + 0; ci++) { x = med(v[c " " m " cpu" ci]); if (x == "") continue
        sum += x; got++; sh = sh (sh == "" ? "" : "/") sprintf("%.0f", x) }
      mean[c " " m] = got ? sum / got : 0; show[c " " m] = sh
'],
	['      if (key in hasb) { b0 = med(bv[key " cpu0"]); b1 = med(bv[key " cpu1"]); base[key] = (m == "2cpu" && b1 != "") ? (b0 + b1) / 2 : b0 }
',
	 '      if (key in hasb) { sum = 0; got = 0
        for (ci = 0; ci < m + 0; ci++) { x = med(bv[key " cpu" ci]); if (x != "") { sum += x; got++ } }
        base[key] = got ? sum / got : 0 }
'],
	['      else { made = (m == "2cpu" ? 2 : 1) * RUNS * N
',
	 '      else { made = (m + 0) * RUNS * N
'],
);
for my $e (@edits) {
	my ($from, $to) = @$e;
	my $n = () = $s =~ /\Q$from\E/g;
	die "ncpu_edit: overhead.sh changed: " . (split /\n/, $from)[0] . " found $n times\n"
		if $n != 1;
	$s =~ s/\Q$from\E/$to/;
}
print $s;
