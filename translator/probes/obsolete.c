// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe points of stapprobes(3stap) that no kernel we build for can
 * have, claimed so that they get an error saying why and what to use:
 *
 *   kernel.mark("NAME")[.format("FMT")]   static markers, removed from
 *                                         Linux in 2.6.32 (tracepoints
 *                                         replaced them)
 *   process(...).insn[.block]             single-step probes, which need
 *                                         utrace, never in mainline Linux
 *
 * SystemTap 4.8 lists both (--dump-probe-types) and refuses them too
 * ("no match"; "process probes not available without kernel
 * CONFIG_UTRACE").  An optional point ("?") is dropped, and a wildcard
 * (process.*) does not stand for them.
 */
#include <string.h>

#include "probes.h"

static int resolve_obsolete(struct session *s, struct probe_point *pt,
			    struct resolved_probe *rp)
{
	const struct pp_comp *a = pt->comps, *b = a->next;

	(void)rp;
	if (!strcmp(a->name, "kernel") && !a->arg && b && !strcmp(b->name, "mark")) {
		if (pt->optional)
			return 0;
		diag_error(s, &b->loc, "kernel markers are not available: Linux removed them "
			   "in 2.6.32, so kernel %s has none", s->release);
		diag_hint(s, "probe its tracepoints instead: stap -l 'kernel.trace(\"*\")' "
			  "lists them");
		return -1;
	}
	if (!strcmp(a->name, "process") && b && !strcmp(b->name, "insn")) {
		if (pt->optional)
			return 0;
		diag_error(s, &b->loc, "process(...).insn is not available: single-stepping "
			   "probes need utrace, which Linux never merged");
		diag_hint(s, "probe one instruction with process(...).statement(ADDRESS), or "
			  "a line with .statement(\"FUNC@FILE:LINE\")");
		return -1;
	}
	return 0;
}

const struct probe_family pf_obsolete = {
	.name = "obsolete",
	.forms = (const char *const[]){
		"kernel.mark(S)[.format(S)]",
		"process(S|N).insn[.block]",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_obsolete,
	.listed_only = true,
};
