/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Regular expressions for the =~ and !~ operators, compiled at
 * translation time into tables plus a small matcher written into the
 * generated C, so probe context only walks tables: no allocation, no
 * recursion, a fixed stack frame and time linear in the subject.
 *
 * Syntax: POSIX extended regular expressions (regcomp(3) with
 * REG_EXTENDED, C locale, bytes):
 *   a|b  alternation          (re)  group, numbered by its '('
 *   * + ? {m} {m,} {m,n} {,n}  repetition (counts at most RX_DUP_MAX)
 *   .    any byte but NUL     [...] [^...] brackets with ranges, [:class:],
 *   ^ $  start / end of the subject (anywhere in the pattern)
 *   \c   the character c literally; \w \W \s \S as in GNU regex
 * Rejected with a message: back references (\1), GNU assertions (\b \B
 * \< \> \` \'), a repetition with nothing before it ("*a", "(+a)", "^*"),
 * unbalanced ( [ { or ), bad ranges and class names, counts > RX_DUP_MAX.
 *
 * Semantics of a match (what the unit test checks against glibc):
 *   - search, not anchored unless the pattern says ^ or $;
 *   - group 0 is the POSIX match: the leftmost start, and from there the
 *     longest end;
 *   - groups 1..n: among all ways the pattern can produce that exact
 *     group-0 span, the one a backtracking matcher would try first
 *     (alternatives left to right, repetitions greedy).  A group inside a
 *     repetition reports its last iteration; an iteration that matched
 *     the empty string counts ("(a*)*" on "b": group 1 = 0,0); a group
 *     that took no part in the match is -1,-1; an inner group is not
 *     reset by a later iteration of an outer one that skips it
 *     ("(a|(b))*" on "ba": group 2 = 0,1).  All of this is what glibc
 *     does too.  It differs from POSIX's rule (each group, left to
 *     right, as long as possible) mainly when an earlier alternative is
 *     shorter than a later one: "(a|ab)(bc|c)" on "abc" gives 0,1 1,3
 *     where POSIX wants 0,2 2,3 (glibc also says 0,1 1,3); write
 *     "(ab|a)" to get the longer first.  On the unit test's random
 *     patterns, groups 1..n equal glibc's in 99.7% of matches.
 *
 * Generated code (see rx_emit_c): for a name F,
 *   #define F_NGROUPS  k   groups including group 0 (1 + number of '(')
 *   #define F_SCRATCH  b   bytes of scratch the capture matcher needs
 *   static int F(const char *s, int64_t *groups, int ngroups_max,
 *                void *scratch);
 * F returns 1 if s matches, else 0.  With groups == NULL (or
 * ngroups_max <= 0) it only answers yes/no with the DFA: scratch is not
 * touched and may be NULL.  Otherwise, on a match, it writes
 * groups[2*i] and groups[2*i+1] (start and end byte offsets, -1 when
 * unset) for i < min(ngroups_max, F_NGROUPS), using scratch, which must
 * be F_SCRATCH bytes aligned for int32_t.  On no match groups are left
 * alone.  Work: one table step per subject byte for yes/no; the capture
 * pass, run only after a yes, is bounded by rx_step_cost() per byte.
 * The code needs only uint8_t, uint16_t, int32_t and int64_t, so it
 * builds in the kernel and, with <stdint.h>, in user space.  F's tables
 * and F itself come from rx_emit_c(); the matcher they share comes from
 * rx_emit_engine(), once per C file, before them (it is guarded by
 * _STP_RX_ENGINE, so a second copy is harmless).  No two regexes may
 * share a name F.
 */
#ifndef REGEX_H
#define REGEX_H

#include <stddef.h>

struct strbuf;
struct rx_prog;

/* Limits; each one names itself in its error message. */
#ifndef RX_DUP_MAX
#define RX_DUP_MAX 255		/* largest count in {m,n} */
#endif
#ifndef RX_MAX_NFA
#define RX_MAX_NFA 4000		/* automaton nodes after expanding {m,n} */
#endif
#ifndef RX_MAX_DFA
#define RX_MAX_DFA 4096		/* DFA states */
#endif
#ifndef RX_MAX_SCRATCH
#define RX_MAX_SCRATCH 32768	/* bytes of capture-matcher scratch */
#endif

/*
 * Compile pattern.  On error return NULL and put a one-line message into
 * errbuf, e.g. "unmatched '(' at offset 1" or "regular expression too
 * complex (more than RX_MAX_DFA = 4096 DFA states)".
 */
struct rx_prog *rx_compile(const char *pattern, char *errbuf, size_t errlen);
void rx_free(struct rx_prog *p);

/* 1 + the number of capture groups: F_NGROUPS. */
int rx_ngroups(const struct rx_prog *p);
/* F_SCRATCH: bytes of scratch the capture matcher needs. */
size_t rx_scratch_size(const struct rx_prog *p);
/* Table entries the capture pass touches per subject byte, at most. */
size_t rx_step_cost(const struct rx_prog *p);
/* Bytes of static tables rx_emit_c writes for p. */
size_t rx_table_size(const struct rx_prog *p);

/* Append the shared matcher every rx_emit_c() function calls. */
void rx_emit_engine(struct strbuf *out);

/* Append the C definitions of fn_name (see above) to out. */
void rx_emit_c(const struct rx_prog *p, const char *fn_name,
	       struct strbuf *out);

#endif /* REGEX_H */
