#!/bin/sh
d=$(echo /proc/systemtap/*)
ls -l $d/big $d/hello | sed "s/ .*[0-9] / /; s|/proc/systemtap/[^/]*/||"
cat $d/hello
echo hi > $d/hello
cat $d/hello
wc -l < $d/big
tail -1 $d/big
