#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# many_probes.sh -- registering and unregistering thousands of kernel
# probes (issue #15, item 5): ours against SystemTap 4.8, in ONE VM boot.
#
#   make && make testsuite/workload      # ./stap, staprun, the workload
#   bench/many_probes.sh                 # kernel.function("*@fs/*.c") on 6.1
#   POINT='kernel.function("*@kernel/locking/*.c")' bench/many_probes.sh
#   KVER=6.12.117+deb12-amd64 bench/many_probes.sh   # ours only (4.8 does not build)
#
# Each tool builds one module with the point (an n++ body), a timer probe
# that prints "ready" once and an end probe that prints the count, and a
# module with only the timer and end probes.  Both tools run begin probes
# before registering the others and timer probes only once the session
# runs, so in the guest, for each tool in turn:
#   register   = staprun's start until "ready", less the same for the
#                timer-only module (loading, transport);
#   workload   = testsuite/workload's fs mode under the probes, its hits;
#   unregister = SIGINT until staprun exits, less the same baseline.
# Then what is left behind (kprobes, ftrace functions, the module) and the
# kernel log's BUG/Oops/WARNING/hung-task lines.  Times are TCG times
# (/proc/uptime, 10 ms) on a shared host: compare them within one boot.
#   NO_S48=1              ours only
#   OURS_FLAGS=-DSTP_KPROBE_TIMING   ours reports its phases (stderr)
#   GUEST_PRE='...'       shell commands the guest runs first
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
tools=$here/../shared/tools
[ -d "$tools" ] || tools=/work/shared/tools
KVER=${KVER:-$("$tools/kver.sh" 6.1)}
POINT=${POINT:-'kernel.function("*@fs/*.c")'}
VMT=${VMT:-1500}
S48=/usr/bin/stap
T=$(mktemp -d /tmp/many_probes.XXXXXX)
trap 'rm -rf "$T"' EXIT
staprun=$(cd "$here" && "$tools/staprun-path.sh")
[ -x "$here/stap" ] && [ -x "$staprun" ] && [ -x "$here/testsuite/workload" ] ||
	{ echo "build ./stap, staprun and testsuite/workload first"; exit 1; }

# Both tools run begin probes before registering the others, and timer
# probes only once the session runs: "ready" marks the end of registration.
ready='global ready; probe timer.ms(50) { if (!ready) { ready = 1; printf("ready\n") } }'
script="global n; $ready probe $POINT { n++ } probe end { printf(\"end n=%d\\n\", n) }"
base="$ready probe end { printf(\"end n=0\\n\") }"
files=("$here/testsuite/workload" "$staprun")
tools_run=""
build() {	# NAME STAP RUNNER SCRIPT [OPTIONS]
	local s=$(date +%s)
	if (cd "$T" && timeout 900 "$2" -r "$KVER" -p4 ${5:-} -m "$1" -e "$4") > "$T/$1.build" 2>&1; then
		echo "built $1 in $(($(date +%s) - s)) s: $(grep -c . "$T/$1.build") lines of messages"
		files+=("$T/$1.ko")
		tools_run="$tools_run $1:$3"
	else
		echo "cannot build $1:"; tail -5 "$T/$1.build"
	fi
}
echo "== many_probes.sh: $POINT, kernel $KVER"
n=$("$here/stap" -r "$KVER" -p2 -e "probe $POINT {}" 2>/dev/null | grep -c '^kernel\|^module')
echo "ours: $n probes at pass 2"
build mp_ours_base "$here/stap" "$staprun" "$base"
build mp_ours "$here/stap" "$staprun" "$script" "${OURS_FLAGS:-}"
if [ -x $S48 ] && [[ $KVER == 6.1.* ]] && [ -z "${NO_S48:-}" ]; then
	n=$(cd "$T" && $S48 -r "$KVER" -p2 -e "probe $POINT { n++ } global n" 2>/dev/null | grep -c '^kernel\|^module')
	echo "SystemTap 4.8: $n probes at pass 2"
	build mp_s48_base $S48 /usr/bin/staprun "$base"
	build mp_s48 $S48 /usr/bin/staprun "$script"
	files+=(/usr/bin/staprun /usr/lib/systemtap/stapio)
else
	echo "SystemTap 4.8: not run (it builds for 6.1 only, or /usr/bin/stap is missing)"
fi

cat > "$T/guest.sh" <<EOF
#!/bin/sh
T=$T; W=$here/testsuite/workload; TOOLS="$tools_run"
EOF
# GUEST_PRE: shell commands the guest runs first (experiments, e.g.
# "echo 0 > /proc/sys/debug/kprobes-optimization").
echo "${GUEST_PRE:-}" >> "$T/guest.sh"
cat >> "$T/guest.sh" <<'EOF'
KL=/sys/kernel/debug/kprobes/list; EF=/sys/kernel/tracing/enabled_functions
now() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a=$1 -v b=$(now) 'BEGIN { printf "%.2f", b - a }'; }
counts() { echo "$(grep -c . $KL 2>/dev/null)/$(grep -c . $EF 2>/dev/null)"; }
alive() { [ -e /proc/$1/stat ] && [ "$(cut -d' ' -f3 /proc/$1/stat)" != Z ]; }
one() {	# NAME RUNNER
	o=/tmp/$1.out; t0=$(now)
	$2 $T/$1.ko > $o 2> /tmp/$1.err &
	pid=$!
	while alive $pid && ! grep -q ready $o; do sleep 0.05; done
	reg=$(since $t0); c1=$(counts)
	if alive $pid; then
		t1=$(now); mkdir -p /tmp/fs; $W fs /tmp/fs > /dev/null; wl=$(since $t1)
		c2=$(counts); t2=$(now); kill -INT $pid
		while alive $pid; do sleep 0.05; done
		unreg=$(since $t2)
	else
		wl=-; c2=-; unreg=-
	fi
	wait $pid; rc=$?
	left="$(grep -c . $KL 2>/dev/null)/$(grep -c . $EF 2>/dev/null)/$(grep -c "^$1 " /proc/modules)"
	echo "@@T $1 reg=$reg workload=$wl unreg=$unreg rc=$rc probes_at_begin=$c1 after_workload=$c2 left=$left $(grep end $o)"
	sed 's/^/  stderr: /' /tmp/$1.err | head -12
}
for t in $TOOLS; do one ${t%%:*} ${t#*:}; done
echo "@@DMESG $(dmesg | grep -cE 'BUG:|Oops|WARNING:|Call Trace:|RIP:|soft lockup|blocked for more than')"
dmesg | grep -E 'BUG:|Oops|WARNING:|RIP:|soft lockup|blocked for more than' | head -10
EOF
echo "== one VM boot (timeout $VMT s)"
s=$(date +%s)
KVER=$KVER "$tools/vmrun.sh" -t "$VMT" "${files[@]}" "$T/guest.sh" -- "sh $T/guest.sh" > "$T/vm.out" 2>&1
echo "VM: rc=$? in $(($(date +%s) - s)) s"
grep -v '^@@' "$T/vm.out" | head -20
# The table: register/unregister less the begin-only module's.
awk '
/^@@T / { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[$2, kv[1]] = kv[2] } names[++n] = $2 }
/^@@DMESG / { dm = $2 }
END {
	printf "\n%-14s %10s %10s %12s %10s %-16s %s\n", "tool", "register", "workload", "unregister", "hits", "kprobes/ftrace", "left (kprobes/ftrace/module)"
	for (i = 1; i <= n; i++) {
		t = names[i]; if (t ~ /_base$/) continue
		b = t "_base"
		r = v[t, "reg"] - v[b, "reg"]; u = v[t, "unreg"] - v[b, "unreg"]
		printf "%-14s %9.2fs %9.2fs %11.2fs %10s %-16s %s\n", t, r, v[t, "workload"], u, v[t, "n"], v[t, "probes_at_begin"], v[t, "left"]
	}
	printf "(begin-only modules: "
	for (i = 1; i <= n; i++) if (names[i] ~ /_base$/) printf "%s reg %.2fs unreg %.2fs; ", names[i], v[names[i], "reg"], v[names[i], "unreg"]
	printf ")\nkernel log BUG/Oops/WARNING lines: %s\n", dm == "" ? "not seen (guest died?)" : dm
}' "$T/vm.out"
