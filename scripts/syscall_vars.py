#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare the variables of our syscall.* aliases with SystemTap's.

Prints, per alias, the variables SystemTap's `stap -L 'syscall.*'` lists
that ours lacks ("-"), has with another type ("~"), or ours has extra
("+"), then the totals; the figure issue #12 tracks is "missing" over the
aliases both have (SystemTap also lists 32-bit and compat calls the
x86-64 table has not).  Calls only ia32 has (signal, uselib, ...; x86-64
number "-" in `stap --dump-syscalls`) are totalled apart: their arguments
are old forms (a sigset in a word, struct user_desc) few decoders know.
Register plumbing ($regs, $id, __tracepoint_arg_regs, __nr) is ignored.

usage: scripts/syscall_vars.py [-r RELEASE] [--ref FILE] [--ours FILE] [-q]
  --ref FILE   SystemTap's listing (default: run /usr/bin/stap -L, else
               /work/notes/systemtap48_syscall_L_<kernel>.txt)
  --ours FILE  our listing (default: run ./stap -L from the tree)
  -q           totals only
"""
import argparse
import os
import re
import subprocess
import sys

IGNORED = {"$regs", "$id", "__tracepoint_arg_regs", "__nr"}


def parse(text):
    """{alias: {var: type}} from stap -L lines."""
    out = {}
    for line in text.splitlines():
        # A type may have spaces ("$regs:struct pt_regs*"): split before "NAME:".
        words = re.split(r" (?=[$\w]+:)", line.strip())
        if not words or not words[0].startswith("syscall."):
            continue
        vars_ = {}
        for w in words[1:]:
            name, _, typ = w.partition(":")
            if name not in IGNORED:
                vars_[name] = typ
        # An alias defined twice (syscall.pipe: pipe and pipe2) has, for a
        # script, only the variables every definition sets.
        if words[0] in out:
            vars_ = {v: t for v, t in vars_.items() if v in out[words[0]]}
        out[words[0]] = vars_
    return out


def listing(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 and not r.stdout:
        sys.exit("%s failed: %s" % (" ".join(cmd), r.stderr.strip()))
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-r", dest="release", default="6.1.0-56-amd64")
    ap.add_argument("--ref")
    ap.add_argument("--ours")
    ap.add_argument("-q", action="store_true")
    a = ap.parse_args()
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if a.ref:
        ref = open(a.ref).read()
    elif os.access("/usr/bin/stap", os.X_OK):
        ref = listing(["/usr/bin/stap", "-L", "syscall.*", "-r", a.release])
    else:
        ref = open("/work/notes/systemtap48_syscall_L_%s.txt" % a.release).read()
    ours = open(a.ours).read() if a.ours else \
        listing([os.path.join(top, "stap"), "-L", "syscall.*", "-r", a.release])
    ref, ours = parse(ref), parse(ours)
    dump = listing([os.path.join(top, "stap"), "--dump-syscalls", "-r", a.release])
    ia32_only = {"syscall." + f[0] for f in
                 (l.split("\t") for l in dump.splitlines()) if len(f) > 3 and f[2] == "-1"}
    missing = retyped = extra = absent = missing32 = 0
    for alias in sorted(ref):
        if alias not in ours:
            if not a.q:
                print("%s: no such alias (%d variables)" % (alias, len(ref[alias])))
            absent += len(ref[alias])
            continue
        r, o = ref[alias], ours[alias]
        diffs = ["-%s:%s" % (v, t) for v, t in r.items() if v not in o]
        diffs += ["~%s:%s(ours %s)" % (v, t, o[v]) for v, t in r.items()
                  if v in o and o[v] != t]
        diffs += ["+%s:%s" % (v, t) for v, t in o.items() if v not in r]
        if alias in ia32_only:
            missing32 += sum(d[0] == "-" for d in diffs)
        else:
            missing += sum(d[0] == "-" for d in diffs)
        retyped += sum(d[0] == "~" for d in diffs)
        extra += sum(d[0] == "+" for d in diffs)
        if diffs and not a.q:
            print("%s: %s" % (alias, " ".join(diffs)))
    print("aliases: %d SystemTap, %d ours, %d of SystemTap's missing" %
          (len(ref), len(ours), sum(x not in ours for x in ref)))
    print("variables of the aliases both have: missing %d, retyped %d, extra %d" %
          (missing, retyped, extra))
    print("variables of the ia32-only aliases both have: missing %d" % missing32)
    print("variables of SystemTap's aliases we lack (32-bit, compat, removed): %d" % absent)


if __name__ == "__main__":
    main()
