// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * get_kretprobe() appeared in 5.11 and replaces reading
 * kretprobe_instance->rp, which went away with it.
 */
#include <linux/kprobes.h>
#include <linux/module.h>

struct kretprobe *stapconf_test(struct kretprobe_instance *ri);
struct kretprobe *stapconf_test(struct kretprobe_instance *ri)
{
	return get_kretprobe(ri);
}
MODULE_LICENSE("GPL");
