/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timer.* probes (runtime/timer.c): the rows the generated code fills.
 * Apart from stp_runtime.h so that scripts without timer probes do not
 * compile <linux/hrtimer.h>: the timer family's code and the runtime
 * (stp_internal.h) include this.
 */
#ifndef STP_TIMER_H
#define STP_TIMER_H

#include "stp_runtime.h"
#include <linux/hrtimer.h>
#include <linux/timer.h>

/* How a timer probe fires; translator/probes/timer.c emits these names. */
enum stp_timer_kind {
	STP_TIMER_JIFFIES,	/* timer.jiffies(N): timer_list, period in jiffies */
	STP_TIMER_HRTIMER,	/* timer.s/ms/us/ns/hz(N): hrtimer, period in ns */
	STP_TIMER_PROFILE,	/* timer.profile: every CPU at HZ, period unused */
};

/*
 * One timer probe point.  The generated code fills the first four fields
 * of a static table; the rest belongs to the runtime and starts zeroed.
 */
struct stp_timer {
	const struct stp_probe *probe;
	u8 kind;		/* enum stp_timer_kind */
	u64 period;		/* jiffies or ns, by kind */
	u64 randomize;		/* each period gets a random [-randomize, +randomize] */
	/* runtime-private */
	bool armed;		/* started and not yet stopped */
	bool stopping;		/* callbacks must not re-arm */
	unsigned long due;	/* STP_TIMER_JIFFIES: jiffies of the next hit */
	union {
		struct timer_list list;	/* STP_TIMER_JIFFIES */
		struct hrtimer hr;	/* STP_TIMER_HRTIMER */
	} t;
};

/*
 * Process context, from stp_session_start/stp_session_stop.  Start arms
 * every timer and cannot fail.  Stop disarms them and returns only when
 * no callback runs any more; it is idempotent and safe on a table that
 * was never (or only partly) started.
 */
void _stp_timers_start(struct stp_timer *timers, size_t n);
void _stp_timers_stop(struct stp_timer *timers, size_t n);

#endif /* STP_TIMER_H */
