// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timer_container_of() replaced from_timer() in 6.16.
 */
#include <linux/module.h>
#include <linux/timer.h>

struct stapconf_holder {
	struct timer_list timer;
};

struct stapconf_holder *stapconf_test(struct timer_list *t);
struct stapconf_holder *stapconf_test(struct timer_list *t)
{
	struct stapconf_holder *h = timer_container_of(h, t, timer);

	return h;
}
MODULE_LICENSE("GPL");
