// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Perf event probes (stapprobes(3stap), PERF):
 *
 *   perf.type(T).config(C)[.sample(N)|.hz(F)][.process[("PATH")]]
 *   perf.type(T).config(C)[.process[("PATH")]].counter("NAME")
 *
 * T and C are perf_event_attr's type and config, passed to the kernel
 * unchecked (perf_event_open(2)); tapsets/perf.stp names them
 * (perf.sw.cpu_clock, perf.hw.instructions ...).  The probe runs once per
 * N events (default 1000000) or F times a second, on every CPU, or only
 * for the -c/-x target process with .process.  A .counter point runs no
 * handler: @perf("NAME") reads its count, from a probe on the same CPU
 * (system-wide) or in the target process (.process).
 *
 * .process("PATH") counts the -c/-x target process, which should run
 * PATH: following whatever process runs PATH, as SystemTap does, is not
 * done, and without a target the session fails to start (staprun, not
 * stap, may be the one given -c).
 *
 * The runtime half is runtime/perf.c (struct stp_perf).
 */
#include <inttypes.h>
#include <string.h>

#include "probes.h"
#include "../emit.h"

#define PERF_DEFAULT_PERIOD	1000000

struct perf_point {
	int64_t type, config;
	int64_t period;		/* events per hit, or hits a second if freq */
	bool freq;
	bool task;		/* .process: the target process */
	const char *counter;	/* .counter("NAME"), or NULL */
};

static int unexpected(struct session *s, const struct pp_comp *c, const char *after)
{
	static const char *const valid[] = { "sample", "hz", "process", "counter" };

	return pf_unexpected(s, c, after, valid, (int)ARRAY_SIZE(valid));
}

/* c's numeric argument from min up, into *v; 0 or -1 after a message. */
static int num_arg(struct session *s, const struct pp_comp *c, int64_t min, int64_t *v)
{
	if (!c->arg || c->arg->kind != ND_NUM || c->arg->num < min) {
		diag_error(s, c->arg ? &c->arg->loc : &c->loc, ".%s takes a number%s", c->name,
			   min > 0 ? " above 0" : " (0 or more)");
		diag_hint(s, "perf.type(T).config(C) as in perf_event_open(2): "
			  "perf.type(1).config(0) is the software cpu clock");
		return -1;
	}
	*v = c->arg->num;
	return 0;
}

static int resolve_perf(struct session *s, struct probe_point *pt, struct resolved_probe *rp)
{
	struct pp_comp *p = pt->comps, *t = p->next, *c;
	struct perf_point *pp;
	const char *after;

	if (strcmp(p->name, "perf") || p->arg || !t || strcmp(t->name, "type"))
		return 0;
	pp = arena_alloc(&s->arena, sizeof(*pp));
	pp->period = PERF_DEFAULT_PERIOD;
	if (num_arg(s, t, 0, &pp->type))
		return -1;
	c = t->next;
	if (!c || strcmp(c->name, "config")) {
		diag_error(s, c ? &c->loc : &t->loc, "perf.type(T) needs .config(C)");
		diag_hint(s, "perf.type(1).config(0) is the software cpu clock");
		return -1;
	}
	if (num_arg(s, c, 0, &pp->config))
		return -1;
	after = ".config(C)";
	c = c->next;
	if (c && (!strcmp(c->name, "sample") || !strcmp(c->name, "hz"))) {
		if (num_arg(s, c, 1, &pp->period))
			return -1;
		pp->freq = c->name[0] == 'h';
		after = pp->freq ? ".hz(F)" : ".sample(N)";
		c = c->next;
	}
	if (c && !strcmp(c->name, "process")) {
		if (c->arg && !pf_string_arg(s, c, "perf....process(\"PATH\")"))
			return -1;
		pp->task = true;
		after = ".process";
		c = c->next;
	}
	if (c && !strcmp(c->name, "counter")) {
		if (pp->period != PERF_DEFAULT_PERIOD || pp->freq) {
			diag_error(s, &c->loc, "a .counter is read with @perf, not sampled: "
				   "it takes no .sample or .hz");
			return -1;
		}
		pp->counter = pf_string_arg(s, c, "perf....counter(\"NAME\")");
		if (!pp->counter)
			return -1;
		for (int i = 0; i < s->perf_counters.len; i++)
			if (!strcmp(s->perf_counters.items[i], pp->counter)) {
				diag_error(s, &c->arg->loc, "perf counter '%s' is declared twice",
					   pp->counter);
				return -1;
			}
		vec_push(&s->perf_counters, (void *)pp->counter);
		after = ".counter(NAME)";
		c = c->next;
	}
	if (c)
		return unexpected(s, c, after);
	rp->pp = pf_point_text(s, pt);
	rp->family_data = pp;
	return 1;
}

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	sb_puts(c, "/* perf probes: runtime/perf.c opens their events. */\n"
		"static struct stp_perf stp_perfs[] = {\n");
	for (int i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct perf_point *pp = rp->family_data;

		sb_printf(c, "\t{ .probe = &" PF_DESC_FMT ", .type = %" PRId64 ", .config = %"
			  PRId64 "ULL, .period = %" PRId64 "ULL, .freq = %d, .task = %d, ",
			  rp->id, pp->type, pp->config, pp->counter ? 0 : pp->period, pp->freq,
			  pp->task);
		if (pp->counter) {
			sb_puts(c, ".counter = ");
			emit_c_string(c, pp->counter, (int)strlen(pp->counter));
		}
		sb_puts(c, " },\n");
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t{\n\t\tint rc = _stp_perf_start(stp_perfs, ARRAY_SIZE(stp_perfs));\n\n"
		"\t\tif (rc)\n\t\t\treturn rc;\n\t}\n");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t_stp_perf_stop(stp_perfs, ARRAY_SIZE(stp_perfs));\n");
}

const struct probe_family pf_perf = {
	.name = "perf",
	.forms = (const char *const[]){
		"perf.type(N).config(N)[.sample(N)|.hz(N)][.process[(S)]]",
		"perf.type(N).config(N)[.process[(S)]].counter(S)",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_perf,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
