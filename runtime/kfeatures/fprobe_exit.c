// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * .return probes on an fprobe (runtime/fexit.c): register_fprobe_ips()
 * with entry and exit handlers that take pt_regs and the entry data
 * (the fprobe of 6.1-6.13, on ftrace and rethook), exported to modules.
 * Later fprobes pass ftrace_regs instead, and fail to compile here.
 */
#include <linux/fprobe.h>
#include <linux/module.h>

#if !defined(CONFIG_FPROBE) || !defined(CONFIG_RETHOOK)
#error "no fprobe with exit handlers on this kernel"
#endif

static int stapconf_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			  struct pt_regs *regs, void *data)
{
	return regs ? 0 : 1;
}

static void stapconf_exit(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			  struct pt_regs *regs, void *data)
{
}

static struct fprobe stapconf_fp = {
	.entry_handler = stapconf_entry,
	.exit_handler = stapconf_exit,
	.entry_data_size = 8,
	.nr_maxactive = 4,
};

int stapconf_test(unsigned long *ips, int n);
int stapconf_test(unsigned long *ips, int n)
{
	int rc = register_fprobe_ips(&stapconf_fp, ips, n);

	if (!rc)
		rc = unregister_fprobe(&stapconf_fp);
	return rc + stapconf_fp.nmissed;
}
MODULE_LICENSE("GPL");
