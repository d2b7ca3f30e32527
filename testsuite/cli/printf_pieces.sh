# printf with %m/%M (memory) or %b (binary) prints in pieces: the text and
# conversions before each such conversion must be printed (flushed) before
# it, the rest after, in the format's order (translator/emit.c
# format_call).  Checked on the generated C (-p3): the VM's run/printf_mem
# and run/printf_binary see the same order at run time, this in seconds.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "$STAP" -p3 -e 'probe begin { printf("a%d%mb%1bc\n", 1, 0, 2) }'
out=$(grep -o '_stp_print[a-z_]*(c, [^;]*' <<<"$out" | sed 's/&l->t[0-9]*/\&TEMP/')
is '_stp_printf(c, "a%lld", (long long)((int64_t)1LL))
_stp_print_mem(c, ((int64_t)0LL), -1, (int)-1, false, false, false)
_stp_printf(c, "b")
_stp_print_n(c, (const char *)&TEMP, 1)
_stp_printf(c, "c\n")'
