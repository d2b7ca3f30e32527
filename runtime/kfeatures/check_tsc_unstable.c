// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_tsc_unstable() (x86, exported for KVM) tells whether the kernel
 * trusts the TSC: only then does local_clock() agree across CPUs
 * (runtime/relay.c's record stamps).
 */
#include <linux/module.h>
#include <asm/tsc.h>

int stapconf_test(void);
int stapconf_test(void)
{
	return check_tsc_unstable();
}
MODULE_LICENSE("GPL");
