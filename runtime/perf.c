// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.type(T).config(C) probes: the table translator/probes/perf.c emits
 * (struct stp_perf, stp_runtime.h) becomes kernel perf events, one per
 * online CPU, or one on the -c/-x target process (.process), opened at
 * session start and released at stop.
 *
 *  - A sampled row's overflow handler runs the probe with the registers
 *    of the event (an NMI for hardware counters, the timer interrupt for
 *    the clocks, the faulting task for page faults).
 *  - A .counter row has no handler: _stp_perf_read gives its count to
 *    @perf.  perf_event_read_value() may sleep and perf_event_read_local()
 *    is not exported, so the count is read as the latter does: the PMU
 *    brought up to date when the event is active on this CPU, with
 *    interrupts off.  Software counters are always up to date.
 *  - CPUs that come online later get no event (as SystemTap).
 */
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/pid.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include "stp_internal.h"

/* The rows started, for _stp_perf_read (the script's table is its own). */
static struct stp_perf *stp_perf_rows;
static size_t stp_perf_nrows;

static void stp_perf_hit(struct perf_event *e, struct perf_sample_data *data,
			 struct pt_regs *regs)
{
	const struct stp_perf *r = e->overflow_handler_context;

	_stp_run_probe(r->probe, regs);
}

static struct perf_event *stp_perf_open(struct stp_perf *r, int cpu,
					struct task_struct *task)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = r->type;
	attr.size = sizeof(attr);
	attr.config = r->config;
	attr.freq = !!r->freq;
	if (r->freq)
		attr.sample_freq = r->period;
	else
		attr.sample_period = r->period;
	return perf_event_create_kernel_counter(&attr, cpu, task,
						r->counter ? NULL : stp_perf_hit, r);
}

static void stp_perf_close(struct stp_perf *r)
{
	unsigned int i, n = r->task ? 1 : nr_cpu_ids;

	if (!r->events)
		return;
	for (i = 0; i < n; i++)
		if (r->events[i])
			perf_event_release_kernel(r->events[i]);
	kfree(r->events);
	r->events = NULL;
}

/* The target process, referenced, or NULL. */
static struct task_struct *stp_perf_target(void)
{
	struct pid *pid = find_get_pid((pid_t)_stp_target_pid());
	struct task_struct *task = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;

	put_pid(pid);
	return task;
}

static int stp_perf_open_row(struct stp_perf *r)
{
	struct perf_event *e;
	int cpu;

	r->events = kcalloc(r->task ? 1 : nr_cpu_ids, sizeof(*r->events), GFP_KERNEL);
	if (!r->events)
		return -ENOMEM;
	if (r->task) {
		struct task_struct *task = stp_perf_target();

		if (!task)
			return -ESRCH;	/* no -c/-x target, or it is gone */
		e = stp_perf_open(r, -1, task);
		put_task_struct(task);
		if (IS_ERR(e))
			return PTR_ERR(e);
		r->events[0] = e;
		return 0;
	}
	for_each_online_cpu(cpu) {
		e = stp_perf_open(r, cpu, NULL);
		if (IS_ERR(e))
			return PTR_ERR(e);
		r->events[cpu] = e;
	}
	return 0;
}

int _stp_perf_start(struct stp_perf *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int rc = stp_perf_open_row(&rows[i]);

		if (!rc)
			continue;
		/* -ENOENT/-EOPNOTSUPP: no such event here (a VM without a PMU). */
		_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: cannot open perf event type %u "
			       "config %llu: %d%s", rows[i].probe->pn, rows[i].probe->loc,
			       rows[i].type, (unsigned long long)rows[i].config, rc,
			       rc == -ENOENT || rc == -EOPNOTSUPP ?
			       " (this machine does not count that event)" :
			       rc == -ESRCH ? " (.process counts the -c/-x target process: there is none)" : "");
		_stp_perf_stop(rows, i + 1);
		return rc;
	}
	stp_perf_rows = rows;
	stp_perf_nrows = n;
	return 0;
}

void _stp_perf_stop(struct stp_perf *rows, size_t n)
{
	size_t i;

	stp_perf_rows = NULL;
	stp_perf_nrows = 0;
	for (i = 0; i < n; i++)
		stp_perf_close(&rows[i]);
}

int64_t _stp_perf_read(const char *name)
{
	struct stp_perf *rows = READ_ONCE(stp_perf_rows);
	size_t n = stp_perf_nrows;
	unsigned long flags;
	struct perf_event *e;
	int64_t v;
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].counter && !strcmp(rows[i].counter, name))
			break;
	if (i == n || !rows[i].events)
		return -1;
	local_irq_save(flags);
	e = rows[i].events[rows[i].task ? 0 : smp_processor_id()];
	if (!e) {
		local_irq_restore(flags);
		return -1;
	}
	if (e->state == PERF_EVENT_STATE_ACTIVE && e->oncpu == smp_processor_id())
		e->pmu->read(e);
	v = local64_read(&e->count) + atomic64_read(&e->child_count);
	local_irq_restore(flags);
	return v;
}
