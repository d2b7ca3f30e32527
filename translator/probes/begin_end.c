// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * begin, end, error and never: probes that fire at session start, at
 * session end, on a run-time error, or not at all.  begin(N) and end(N)
 * take a priority; lower runs first, ties in script order.
 */
#include <inttypes.h>
#include <string.h>

#include "probes.h"

static int resolve_named(struct session *s, struct probe_point *pt,
			 struct resolved_probe *rp, const char *name)
{
	struct pp_comp *c = pt->comps;

	if (strcmp(c->name, name) || c->next)
		return 0;
	rp->pp = pf_point_text(s, pt);
	if (c->arg) {
		if (c->arg->kind != ND_NUM) {
			diag_error(s, &c->arg->loc,
				   "%s probe priority must be a number", name);
			return -1;
		}
		if (!strcmp(name, "never")) {
			diag_error(s, &c->arg->loc, "never takes no argument");
			return -1;
		}
		rp->priority = c->arg->num;
	}
	return 1;
}

static int resolve_begin(struct session *s, struct probe_point *pt,
			 struct resolved_probe *rp)
{
	return resolve_named(s, pt, rp, "begin");
}

static int resolve_end(struct session *s, struct probe_point *pt,
		       struct resolved_probe *rp)
{
	return resolve_named(s, pt, rp, "end");
}

static int resolve_error(struct session *s, struct probe_point *pt,
			 struct resolved_probe *rp)
{
	return resolve_named(s, pt, rp, "error");
}

static int resolve_never(struct session *s, struct probe_point *pt,
			 struct resolved_probe *rp)
{
	return resolve_named(s, pt, rp, "never");
}

/* Run the family's probes one after another, in priority order. */
static void emit_run_all(struct session *s, struct strbuf *c,
			 struct vec *probes)
{
	int i;

	for (i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];

		sb_printf(c, "\t_stp_run_probe(&" PF_DESC_FMT ", NULL);\n",
			  rp->id);
	}
}

const struct probe_family pf_begin = {
	.name = "begin",
	.forms = (const char *const[]){ "begin[(N)]", NULL },
	.state = "STP_SESSION_STARTING",
	.resolve = resolve_begin,
	.emit_start = emit_run_all,
};

const struct probe_family pf_end = {
	.name = "end",
	.forms = (const char *const[]){ "end[(N)]", NULL },
	.state = "STP_SESSION_STOPPING",
	.resolve = resolve_end,
	.emit_stop = emit_run_all,
};

/* Run at session stop instead of end probes when errors ended it. */
const struct probe_family pf_error = {
	.name = "error",
	.forms = (const char *const[]){ "error[(N)]", NULL },
	.state = "STP_SESSION_ERROR",
	.resolve = resolve_error,
	.emit_stop = emit_run_all,
};

const struct probe_family pf_never = {
	.name = "never",
	.forms = (const char *const[]){ "never", NULL },
	.state = "STP_SESSION_STOPPED",
	.resolve = resolve_never,
};
