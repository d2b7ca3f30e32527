// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timer_delete_sync() appeared in 6.2 (and in some stable/distro
 * backports); del_timer_sync() was removed in 6.15.
 */
#include <linux/module.h>
#include <linux/timer.h>

int stapconf_test(struct timer_list *t);
int stapconf_test(struct timer_list *t)
{
	return timer_delete_sync(t);
}
MODULE_LICENSE("GPL");
