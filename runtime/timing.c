// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stap -t: per-probe hit counts and handler cycles, printed after the
 * end probes in SystemTap's "probe hit report" format.  Each probe's
 * cycles are a statistic (runtime/stat.c): per-CPU accumulation, so
 * timing adds no shared cache line to the hot path, and min/avg/max/
 * variance are computed as @min/@avg/@max/@variance compute them.
 *
 * The translator emits, under stap -t or --monitor, the table of timed
 * probes (stp_timed[], stp_ntimed), stp_probe.timed (1 + the probe's
 * row) and the calls of _stp_timing_init/_exit; the rest is reached
 * through _stp_params (script_params.h), so a module without them does
 * not link this file.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include "stp_internal.h"
#include "map_internal.h"

static struct stp_stat_var **timing_vars;

int _stp_timing_init(void)
{
	int i;

	timing_vars = kcalloc(stp_ntimed, sizeof(*timing_vars), GFP_KERNEL);
	if (!timing_vars)
		return -ENOMEM;
	_stp_alloc_note(stp_ntimed * sizeof(*timing_vars));
	for (i = 0; i < stp_ntimed; i++) {
		timing_vars[i] = _stp_stat_new(NULL);
		if (!timing_vars[i]) {
			_stp_timing_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

void _stp_timing_exit(void)
{
	int i;

	if (!timing_vars)
		return;
	for (i = 0; i < stp_ntimed; i++)
		_stp_stat_free(timing_vars[i]);
	kfree(timing_vars);
	timing_vars = NULL;
}

/* Probe context, preemption off: this CPU's copy only. */
void _stp_timing_add(const struct stp_probe *p, u64 cycles)
{
	if (p->timed && timing_vars)
		_stp_stat_add(timing_vars[p->timed - 1], (int64_t)cycles);
}

/* Run as the last end-time handler: after every end probe's output. */
void _stp_timing_report(struct stp_context *c)
{
	int i;

	_stp_printf(c, "----- probe hit report: \n");
	for (i = 0; i < stp_ntimed && timing_vars; i++) {
		const struct stp_stat *st = _stp_stat_get(timing_vars[i]);
		const struct stp_timed *t = &stp_timed[i];

		if (!st->count)
			continue;
		_stp_printf(c, "%s, (%s), hits: %lld, cycles: %lldmin/%lldavg/%lldmax, "
			    "variance: %lld, from: %s, index: %d\n",
			    t->probe->pp, t->probe->loc,
			    (long long)_stp_stat_value(st, STP_STAT_COUNT),
			    (long long)_stp_stat_value(st, STP_STAT_MIN),
			    (long long)_stp_stat_value(st, STP_STAT_AVG),
			    (long long)_stp_stat_value(st, STP_STAT_MAX),
			    (long long)_stp_stat_value(st, STP_STAT_VARIANCE),
			    t->from, i);
	}
	/* SystemTap lists module and uprobe refreshes here; we do none. */
	_stp_printf(c, "----- refresh report:\n");
}

/*
 * staprun -M (stap --monitor): the probe table so far, a MONITOR_TEXT
 * message a line, at most 32 probe rows at the default STP_CTL_RING
 * (rows of up to 256 bytes in half the control ring).  Read while
 * probes run, so a row may be a hit behind.
 */
void _stp_monitor_report(void)
{
	int i, rows = 0;

	_stp_ctl_sendf(STP_CTL_MONITOR_TEXT, "%-5s %10s %12s  %s", "index",
		       "hits", "avg cycles", "probe");
	for (i = 0; i < stp_ntimed && timing_vars && rows < STP_CTL_RING / 512; i++) {
		const struct stp_stat *st = _stp_stat_get(timing_vars[i]);

		if (!st->count)
			continue;
		rows++;
		_stp_ctl_sendf(STP_CTL_MONITOR_TEXT, "%-5d %10lld %12lld  %s (%s)", i,
			       (long long)_stp_stat_value(st, STP_STAT_COUNT),
			       (long long)_stp_stat_value(st, STP_STAT_AVG),
			       stp_timed[i].probe->pp, stp_timed[i].probe->loc);
	}
	_stp_ctl_wake();
}

