// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of probe families and helpers they share. */
#include <inttypes.h>

#include "probes.h"

extern const struct probe_family pf_begin, pf_end, pf_error, pf_never;
extern const struct probe_family pf_timer;
extern const struct probe_family pf_dwarf_func, pf_kprobe, pf_trace;

/* Tried in order; the first family that claims a point gets it. */
const struct probe_family *const pf_families[] = {
	/*
	 * Start and stop code run in this order too: timers and kprobes
	 * stop before end probes run.
	 */
	&pf_begin, &pf_timer, &pf_dwarf_func, &pf_kprobe, &pf_trace, &pf_end, &pf_error, &pf_never,
};
const int pf_nfamilies = (int)ARRAY_SIZE(pf_families);

char *pf_point_text(struct session *s, const struct probe_point *pt)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pp_comp *c;
	char *out;

	for (c = pt->comps; c; c = c->next) {
		sb_puts(&sb, c->name);
		if (c->arg) {
			sb_putc(&sb, '(');
			ast_print_expr(&sb, c->arg);
			sb_putc(&sb, ')');
		}
		if (c->next)
			sb_putc(&sb, '.');
	}
	out = arena_strdup(&s->arena, sb_str(&sb));
	sb_free(&sb);
	return out;
}
