// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of probe families and helpers they share. */
#include <inttypes.h>
#include <string.h>

#include "probes.h"
#include "../dw.h"

extern const struct probe_family pf_begin, pf_end, pf_error, pf_never;
extern const struct probe_family pf_timer;
extern const struct probe_family pf_dwarf_func, pf_dwarf_stmt, pf_kprobe, pf_trace;

/* Tried in order; the first family that claims a point gets it. */
const struct probe_family *const pf_families[] = {
	/*
	 * Start and stop code run in this order too: timers and kprobes
	 * stop before end probes run.
	 */
	&pf_begin, &pf_timer, &pf_dwarf_func, &pf_dwarf_stmt, &pf_kprobe, &pf_trace,
	&pf_end, &pf_error, &pf_never,
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

/*
 * The target kernel's DWARF stays open for the process: tv_scope hands
 * out DIEs that must live through pass 3, and every translation that
 * targets the same kernel wants the same one (as kprobe.c's symbols).
 */
static struct pf_kernel {
	struct pf_kernel *next;
	char *release;
	struct dw_kernel *k;	/* NULL: could not open; err says why */
	char *err;
} *pf_kernels;

struct dw_kernel *pf_dw_open(const char *release, const char **err)
{
	struct pf_kernel *t;

	for (t = pf_kernels; t; t = t->next)
		if (!strcmp(t->release, release))
			break;
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		t->release = xstrdup(release);
		t->k = dw_open(release, &t->err);
		t->next = pf_kernels;
		pf_kernels = t;
	}
	*err = t->err;
	return t->k;
}

void pf_dw_error(struct session *s, const struct srcloc *loc, const char *err)
{
	const char *hint = strstr(err, "\nhint: ");

	if (!hint) {
		diag_error(s, loc, "%s", err);
		return;
	}
	diag_error(s, loc, "%.*s", (int)(hint - err), err);
	diag_hint(s, "%s", hint + 7);
}
