# A foreach over a global array reads it: an array that only a foreach
# reads and nothing assigns is warned of as never assigned, as SystemTap
# 4.8 warns ("never-assigned global variable 'a'" at 1:8, stap -p2 on
# 6.1; 4.8 then fails to infer its type, which ours takes from the
# loop).  Assigned, it is not warned of.
. "$(dirname "$0")/lib.sh"
w() { out=$("$STAP" -p2 "$@" 2>&1 >/dev/null); }
w -e 'global a
probe begin { foreach (v = [k] in a) println(k + v) }'
is "<input>:1:8: warning: global array 'a' is never assigned: it is always empty
global a
       ^"
w -e 'global a
probe begin { a[1] = 2; foreach (v = [k] in a) println(k + v) }'
is ""
exit 0
