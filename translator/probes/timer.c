// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Timer probes (stapprobes(3stap), TIMERS):
 *
 *   timer.jiffies(N)[.randomize(M)]    a timer_list, every N jiffies
 *   timer.UNIT(N)[.randomize(M)]       an hrtimer; UNIT is s/sec, ms/msec,
 *                                      us/usec or ns/nsec
 *   timer.hz(N)                        an hrtimer, N times a second
 *   timer.profile, timer.profile.tick  every CPU, at each tick (HZ)
 *
 * .randomize(M) adds a value drawn uniformly from [-M, M] to each period;
 * M is in the probe's unit and must be smaller than N.  hrtimer periods
 * may not be shorter than HR_MIN_NS, also after randomization.
 *
 * The runtime half is runtime/timer.c: this file emits one table,
 * stp_timers[], and calls _stp_timers_start/_stp_timers_stop on it.
 */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "probes.h"

#define NSEC_PER_SEC	1000000000LL
/* The shortest hrtimer period we accept: faster timers starve the CPU. */
#define HR_MIN_NS	100000LL		/* 100us */
/* The longest hrtimer period: a million seconds, about 11.5 days. */
#define HR_MAX_NS	(1000000LL * NSEC_PER_SEC)
/* timer.jiffies(N): "N is restricted to a reasonable range". */
#define JIFFIES_MAX	1000000LL

enum timer_kind {
	TM_JIFFIES,	/* period in jiffies: STP_TIMER_JIFFIES */
	TM_HR,		/* period in ns: STP_TIMER_HRTIMER */
	TM_PROFILE,	/* no period: STP_TIMER_PROFILE */
};

/* The C names of enum timer_kind, in the same order (stp_runtime.h). */
static const char *const kind_c_name[] = {
	[TM_JIFFIES] = "STP_TIMER_JIFFIES",
	[TM_HR] = "STP_TIMER_HRTIMER",
	[TM_PROFILE] = "STP_TIMER_PROFILE",
};

/* What resolve() leaves in resolved_probe.family_data. */
struct timer_point {
	enum timer_kind kind;
	int64_t period;		/* jiffies or ns, by kind */
	int64_t randomize;	/* same unit; 0 if none */
};

#define UNIT_JIFFIES	0	/* unit.ns: N counts jiffies */
#define UNIT_HZ		(-1)	/* unit.ns: N is a frequency */

static const struct unit {
	const char *name;
	int64_t ns;		/* nanoseconds per unit, or UNIT_* */
} units[] = {
	{ "jiffies", UNIT_JIFFIES },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "ms", 1000000 }, { "msec", 1000000 },
	{ "us", 1000 }, { "usec", 1000 },
	{ "ns", 1 }, { "nsec", 1 },
	{ "hz", UNIT_HZ },
};

static const struct unit *find_unit(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(units[i].name, name))
			return &units[i];
	return NULL;
}

/* An error if anything follows @last in @pt: "timer.ms(10).foo". */
static int no_more(struct session *s, const struct probe_point *pt,
		   const struct pp_comp *last)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pp_comp *c;

	if (!last->next)
		return 0;
	for (c = pt->comps; c != last->next; c = c->next) {
		if (c != pt->comps)
			sb_putc(&sb, '.');
		sb_puts(&sb, c->name);
		if (c->arg) {
			sb_putc(&sb, '(');
			ast_print_expr(&sb, c->arg);
			sb_putc(&sb, ')');
		}
	}
	diag_error(s, &last->next->loc, "unexpected '%s' after %s",
		   last->next->name, sb_str(&sb));
	sb_free(&sb);
	return -1;
}

/* Where to point at @arg: all of "-5", not just its '-'. */
static struct srcloc arg_loc(const struct node *arg)
{
	struct srcloc loc = arg->loc;
	const char *p = loc.at;

	if (p && *p == '-') {
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		while (isalnum((unsigned char)*p))
			p++;
		loc.len = (int)(p - loc.at);
	}
	return loc;
}

/* The numeric argument of @c and where it is, or -1 after an error. */
static int number_arg(struct session *s, const struct pp_comp *c,
		      const char *what, int64_t *out, struct srcloc *loc)
{
	if (!c->arg) {
		diag_error(s, &c->loc, "%s needs a number: %s(N)", what, what);
		return -1;
	}
	*loc = arg_loc(c->arg);
	if (c->arg->kind != ND_NUM) {
		diag_error(s, loc, "%s argument must be a number", what);
		return -1;
	}
	*out = c->arg->num;
	return 0;
}

/* timer.profile, timer.profile.tick */
static int resolve_profile(struct session *s, const struct probe_point *pt,
			   const struct pp_comp *c, struct timer_point *tp)
{
	if (c->arg) {
		diag_error(s, &c->arg->loc, "timer.profile takes no argument");
		return -1;
	}
	if (c->next && !strcmp(c->next->name, "tick")) {
		c = c->next;
		if (c->arg) {
			diag_error(s, &c->arg->loc,
				   "timer.profile.tick takes no argument");
			return -1;
		}
	}
	if (no_more(s, pt, c))
		return -1;
	tp->kind = TM_PROFILE;
	return 1;
}

/* The .randomize(M) after timer.UNIT(N), checked against N. */
static int resolve_randomize(struct session *s, const struct probe_point *pt,
			     const struct pp_comp *unit_c, const struct unit *u,
			     int64_t n, struct timer_point *tp)
{
	const struct pp_comp *c = unit_c->next;
	struct srcloc loc;
	int64_t m;

	if (!c)
		return 1;
	if (strcmp(c->name, "randomize"))
		return no_more(s, pt, unit_c);
	if (u->ns == UNIT_HZ) {
		diag_error(s, &c->loc, "timer.hz does not support randomize");
		return -1;
	}
	if (number_arg(s, c, "randomize", &m, &loc))
		return -1;
	if (m < 0) {
		diag_error(s, &loc, "randomize value must not be negative");
		return -1;
	}
	if (m >= n) {
		diag_error(s, &loc, "randomize value %" PRId64
			   " must be smaller than the interval %" PRId64, m, n);
		return -1;
	}
	if (u->ns != UNIT_JIFFIES && (n - m) * u->ns < HR_MIN_NS) {
		diag_error(s, &loc, "timer.%s(%" PRId64 ").randomize(%" PRId64
			   ") may fire after %" PRId64
			   "%s, below the %lldus minimum of hrtimer probes",
			   u->name, n, m, n - m, u->name, HR_MIN_NS / 1000);
		return -1;
	}
	tp->randomize = u->ns == UNIT_JIFFIES ? m : m * u->ns;
	return no_more(s, pt, c) ? -1 : 1;
}

/* timer.UNIT(N)[.randomize(M)] */
static int resolve_interval(struct session *s, const struct probe_point *pt,
			    const struct pp_comp *c, const struct unit *u,
			    struct timer_point *tp)
{
	const char *what = arena_printf(&s->arena, "timer.%s", c->name);
	struct srcloc loc;
	int64_t n;

	if (number_arg(s, c, what, &n, &loc))
		return -1;
	if (n <= 0) {
		diag_error(s, &loc, "%s %s must be positive", what,
			   u->ns == UNIT_HZ ? "frequency" : "interval");
		return -1;
	}
	if (u->ns == UNIT_JIFFIES) {
		if (n > JIFFIES_MAX) {
			diag_error(s, &loc, "%s interval %" PRId64
				   " is too large (at most %lld)",
				   what, n, JIFFIES_MAX);
			return -1;
		}
		tp->kind = TM_JIFFIES;
		tp->period = n;
	} else if (u->ns == UNIT_HZ) {
		if (n > NSEC_PER_SEC / HR_MIN_NS) {
			diag_error(s, &loc, "%s frequency %" PRId64
				   " is too high (at most %lld, one hit per %lldus)",
				   what, n, NSEC_PER_SEC / HR_MIN_NS,
				   HR_MIN_NS / 1000);
			return -1;
		}
		tp->kind = TM_HR;
		tp->period = NSEC_PER_SEC / n;
	} else {
		if (n > HR_MAX_NS / u->ns) {
			diag_error(s, &loc, "%s interval %" PRId64
				   " is too large (at most %lld)",
				   what, n, HR_MAX_NS / u->ns);
			return -1;
		}
		if (n * u->ns < HR_MIN_NS) {
			diag_error(s, &loc, "%s interval %" PRId64
				   " is below the %lldus minimum of hrtimer probes",
				   what, n, HR_MIN_NS / 1000);
			diag_hint(s, "use %s(%lld) or more",
				  what, (HR_MIN_NS + u->ns - 1) / u->ns);
			return -1;
		}
		tp->kind = TM_HR;
		tp->period = n * u->ns;
	}
	return resolve_randomize(s, pt, c, u, n, tp);
}

static int resolve_timer(struct session *s, struct probe_point *pt,
			 struct resolved_probe *rp)
{
	struct pp_comp *c = pt->comps;
	struct timer_point *tp;
	const struct unit *u;
	int ret;

	if (strcmp(c->name, "timer"))
		return 0;
	if (c->arg) {
		diag_error(s, &c->arg->loc, "timer takes no argument; "
			   "the interval goes on its unit: timer.ms(N)");
		return -1;
	}
	c = c->next;
	u = c ? find_unit(c->name) : NULL;
	if (!u && !(c && !strcmp(c->name, "profile"))) {
		const char *names[ARRAY_SIZE(units) + 1];
		const char *near;
		size_t i;

		/* Optional points that do not exist are skipped silently. */
		if (pt->optional)
			return 0;
		for (i = 0; i < ARRAY_SIZE(units); i++)
			names[i] = units[i].name;
		names[i] = "profile";
		if (!c) {
			diag_error(s, &pt->loc, "timer needs a unit: timer.ms(N), "
				   "timer.jiffies(N), timer.profile, ...");
			return -1;
		}
		diag_error(s, &c->loc, "unknown timer probe 'timer.%s'", c->name);
		near = diag_closest(c->name, names, (int)ARRAY_SIZE(names));
		if (near)
			diag_hint(s, "did you mean 'timer.%s'?", near);
		else
			diag_hint(s, "timer units: jiffies, s, ms, us, ns, hz; or timer.profile");
		return -1;
	}
	tp = arena_alloc(&s->arena, sizeof(*tp));
	ret = u ? resolve_interval(s, pt, c, u, tp) : resolve_profile(s, pt, c, tp);
	if (ret < 0)
		return -1;
	rp->pp = pf_point_text(s, pt);
	rp->family_data = tp;
	return 1;
}

/* One stp_timers[] entry per resolved timer point, in priority order. */
static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	int i;

	(void)s;
	sb_puts(c, "/* Timer probes: runtime/timer.c arms and disarms them. */\n"
		"#include \"stp_timer.h\"\n"
		"static struct stp_timer stp_timers[] = {\n");
	for (i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct timer_point *tp = rp->family_data;

		/* rp->pp is "timer.X(N).randomize(M)": safe in a comment. */
		sb_printf(c, "\t{ /* %s */\n"
			  "\t\t.probe = &" PF_DESC_FMT ",\n"
			  "\t\t.kind = %s,\n"
			  "\t\t.period = %" PRId64 "ULL,\n"
			  "\t\t.randomize = %" PRId64 "ULL,\n"
			  "\t},\n",
			  rp->pp, rp->id, kind_c_name[tp->kind], tp->period,
			  tp->randomize);
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t_stp_timers_start(stp_timers, ARRAY_SIZE(stp_timers));\n");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t_stp_timers_stop(stp_timers, ARRAY_SIZE(stp_timers));\n");
}

const struct probe_family pf_timer = {
	.name = "timer",
	.forms = (const char *const[]){
		"timer.{jiffies|s|sec|ms|msec|us|usec|ns|nsec}(N)[.randomize(N)]",
		"timer.hz(N)",
		"timer.profile[.tick]",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_timer,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
