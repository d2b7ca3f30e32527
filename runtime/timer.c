// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Timer probes: the table translator/probes/timer.c emits (struct
 * stp_timer, stp_runtime.h) is armed at session start and disarmed at
 * session stop.
 *
 *  - STP_TIMER_JIFFIES: a timer_list per probe; its callback runs in
 *    softirq context and re-arms with mod_timer().
 *  - STP_TIMER_HRTIMER: an hrtimer per probe (hard interrupt context);
 *    the callback forwards itself and returns HRTIMER_RESTART.
 *  - STP_TIMER_PROFILE: one pinned hrtimer per online CPU, at HZ, shared
 *    by every timer.profile probe.  It runs in the hard interrupt that
 *    ends the profiled code, so get_irq_regs() are that code's registers
 *    (perf's cpu-clock event samples the same way).  A CPU brought online
 *    during the session gets no profile timer.
 *
 * Stopping: set ->stopping so no callback re-arms, then cancel with the
 * _sync variants, which wait for a running callback.  Both the timer_list
 * and the hrtimer cancel loops also remove a timer a finishing callback
 * re-armed, so when stop returns nothing is queued and nothing runs.
 */
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/smp.h>
#include <linux/timer.h>
#include <asm/irq_regs.h>
#include "stp_internal.h"

/* ---- kernel API drift (see kfeatures/) ---- */
#ifdef STAPCONF_HRTIMER_SETUP
#define _stp_hrtimer_setup(t, fn, clock, mode) hrtimer_setup(t, fn, clock, mode)
#else
/* hrtimer_setup() replaced hrtimer_init() + ->function in 6.13. */
static void _stp_hrtimer_setup(struct hrtimer *t,
			       enum hrtimer_restart (*fn)(struct hrtimer *),
			       clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(t, clock, mode);
	t->function = fn;
}
#endif

/* The next period: t->period plus a uniform value in [-randomize, +randomize]. */
static u64 next_period(const struct stp_timer *t)
{
	u64 span;

	if (!t->randomize)
		return t->period;
	span = 2 * t->randomize + 1;
	/* (random * span) >> 64 is uniform enough in [0, span) and never divides. */
	return t->period - t->randomize + mul_u64_u64_shr(get_random_u64(), span, 64);
}

/* ---- STP_TIMER_JIFFIES ---- */

static void jiffies_fire(struct timer_list *tl)
{
	struct stp_timer *t = _stp_timer_container_of(t, tl, t.list);

	_stp_run_probe(t->probe, NULL);
	if (READ_ONCE(t->stopping))
		return;
	/*
	 * Keep an absolute schedule: the wheel rounds every expiry up by a
	 * jiffy, so "jiffies + N" from here would fire every N + 1 jiffies.
	 * Hits missed by a late callback are skipped, not bunched.
	 */
	t->due += next_period(t);
	if (time_before(t->due, jiffies))
		t->due = jiffies;
	mod_timer(&t->t.list, t->due);
}

/* ---- STP_TIMER_HRTIMER ---- */

static enum hrtimer_restart hrtimer_fire(struct hrtimer *hr)
{
	struct stp_timer *t = container_of(hr, struct stp_timer, t.hr);

	_stp_run_probe(t->probe, NULL);
	if (READ_ONCE(t->stopping))
		return HRTIMER_NORESTART;
	/* From now: a handler slower than the period skips periods. */
	hrtimer_forward_now(hr, ns_to_ktime(next_period(t)));
	return HRTIMER_RESTART;
}

/* ---- STP_TIMER_PROFILE ---- */

static DEFINE_PER_CPU(struct hrtimer, profile_hrtimer);
static struct stp_timer *profile_table;	/* the table holding the probes */
static size_t profile_n;
static bool profile_armed;
static bool profile_stopping;

static enum hrtimer_restart profile_fire(struct hrtimer *hr)
{
	struct pt_regs *regs = get_irq_regs();
	size_t i;

	for (i = 0; i < profile_n; i++)
		if (profile_table[i].kind == STP_TIMER_PROFILE)
			_stp_run_probe(profile_table[i].probe, regs);
	if (READ_ONCE(profile_stopping))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(hr, ns_to_ktime(TICK_NSEC));
	return HRTIMER_RESTART;
}

/* on_each_cpu(): interrupts off, on the CPU whose timer this is. */
static void profile_arm_this_cpu(void *unused)
{
	hrtimer_start(this_cpu_ptr(&profile_hrtimer), ns_to_ktime(TICK_NSEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void profile_start(struct stp_timer *timers, size_t n)
{
	int cpu;

	profile_table = timers;
	profile_n = n;
	WRITE_ONCE(profile_stopping, false);
	/* Every possible CPU's, so stop can cancel them all unconditionally. */
	for_each_possible_cpu(cpu)
		_stp_hrtimer_setup(per_cpu_ptr(&profile_hrtimer, cpu), profile_fire,
				   CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	profile_armed = true;
	on_each_cpu(profile_arm_this_cpu, NULL, 1);
}

static void profile_stop(void)
{
	int cpu;

	if (!profile_armed)
		return;
	WRITE_ONCE(profile_stopping, true);
	/* A timer of a CPU that went offline has migrated; cancel finds it. */
	for_each_possible_cpu(cpu)
		hrtimer_cancel(per_cpu_ptr(&profile_hrtimer, cpu));
	profile_armed = false;
}

/* ---- the table ---- */

void _stp_timers_start(struct stp_timer *timers, size_t n)
{
	bool profile = false;
	size_t i;

	for (i = 0; i < n; i++) {
		struct stp_timer *t = &timers[i];

		if (t->armed)
			continue;
		WRITE_ONCE(t->stopping, false);
		switch (t->kind) {
		case STP_TIMER_JIFFIES:
			timer_setup(&t->t.list, jiffies_fire, 0);
			t->armed = true;
			t->due = jiffies + next_period(t);
			mod_timer(&t->t.list, t->due);
			break;
		case STP_TIMER_HRTIMER:
			_stp_hrtimer_setup(&t->t.hr, hrtimer_fire, CLOCK_MONOTONIC,
					   HRTIMER_MODE_REL);
			t->armed = true;
			hrtimer_start(&t->t.hr, ns_to_ktime(next_period(t)),
				      HRTIMER_MODE_REL);
			break;
		case STP_TIMER_PROFILE:
			profile = true;
			break;
		}
	}
	if (profile && !profile_armed)
		profile_start(timers, n);
}

void _stp_timers_stop(struct stp_timer *timers, size_t n)
{
	size_t i;

	/* First make every callback stop re-arming, then wait for each. */
	for (i = 0; i < n; i++)
		if (timers[i].armed)
			WRITE_ONCE(timers[i].stopping, true);
	for (i = 0; i < n; i++) {
		struct stp_timer *t = &timers[i];

		if (!t->armed)
			continue;
		if (t->kind == STP_TIMER_JIFFIES)
			_stp_timer_delete_sync(&t->t.list);
		else if (t->kind == STP_TIMER_HRTIMER)
			hrtimer_cancel(&t->t.hr);
		t->armed = false;
	}
	profile_stop();
}
