// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Entry probes on the ftrace site (runtime/fentry.c): an ftrace_ops
 * whose callback takes struct ftrace_regs (5.11) and gets full pt_regs
 * from it with FTRACE_OPS_FL_SAVE_REGS, handles its own recursion
 * (FTRACE_OPS_FL_RECURSION, ftrace_test_recursion_trylock) and is
 * filtered on many addresses at once (ftrace_set_filter_ips, 6.0).
 * kprobe_ftrace() tells which kprobe addresses are ftrace sites.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>

#if !defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS) || !defined(CONFIG_KPROBES_ON_FTRACE)
#error "no ftrace_ops with pt_regs on this kernel"
#endif

static void notrace stapconf_fn(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);
	struct pt_regs *regs = ftrace_get_regs(fregs);

	if (bit >= 0 && regs)
		instruction_pointer_set(regs, ip);
	if (bit >= 0)
		ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops stapconf_ops = {
	.func = stapconf_fn,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_RECURSION,
};

int stapconf_test(struct kprobe *kp, unsigned long *ips, unsigned int n);
int stapconf_test(struct kprobe *kp, unsigned long *ips, unsigned int n)
{
	int rc = kprobe_ftrace(kp) ? ftrace_set_filter_ips(&stapconf_ops, ips, n, 0, 0) : 0;

	if (!rc)
		rc = register_ftrace_function(&stapconf_ops);
	unregister_ftrace_function(&stapconf_ops);
	ftrace_free_filter(&stapconf_ops);
	return rc;
}
MODULE_LICENSE("GPL");
