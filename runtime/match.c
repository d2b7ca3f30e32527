// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The last regular expression match of a probe hit.  The matchers
 * themselves are generated into the module by the translator; this only
 * keeps what matched(n), matched_str() and ngroups() read back.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "stp_runtime.h"

void _stp_match_set(struct stp_context *c, const char *subject, int ngroups)
{
	c->match_ngroups = ngroups;
	/* The subject may be a temporary that is reused: keep a copy. */
	if (ngroups && subject != c->match_subject)
		strscpy(c->match_subject, subject, MAXSTRINGLEN);
}

void _stp_match_group(struct stp_context *c, int64_t n, char *dst)
{
	int64_t start, end;

	dst[0] = '\0';
	if (!c->match_ngroups) {
		/* SystemTap says the same whether or not a match was tried. */
		_stp_error(c, "Attempted to get nonexistent subexpression %lld",
			   (long long)n);
		return;
	}
	if (n < 0 || n >= c->match_ngroups) {
		_stp_error(c, "Attempted to get nonexistent subexpression %lld",
			   (long long)n);
		return;
	}
	start = c->match_groups[2 * n];
	end = c->match_groups[2 * n + 1];
	/* A group that took no part in the match reads as "". */
	if (start < 0 || end < start || end >= MAXSTRINGLEN)
		return;
	memcpy(dst, c->match_subject + start, end - start);
	dst[end - start] = '\0';
}
