// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hrtimer_setup() appeared in 6.13 and replaces hrtimer_init() followed
 * by setting ->function; hrtimer_init() is being removed.
 */
#include <linux/hrtimer.h>
#include <linux/module.h>

static enum hrtimer_restart stapconf_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

void stapconf_test(struct hrtimer *t);
void stapconf_test(struct hrtimer *t)
{
	hrtimer_setup(t, stapconf_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
MODULE_LICENSE("GPL");
