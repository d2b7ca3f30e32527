// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * As ftrace_args_regs.c, where struct ftrace_regs became opaque and the
 * arch's pt_regs-shaped copy is reached through arch_ftrace_regs() (6.13,
 * and backported to some stable kernels).
 */
#include <linux/ftrace.h>
#include <linux/module.h>

#if !defined(CONFIG_X86_64) || !defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS)
#error "no argument registers in ftrace_regs here"
#endif

struct pt_regs *stapconf_test(struct ftrace_regs *fregs);
struct pt_regs *stapconf_test(struct ftrace_regs *fregs)
{
	return &arch_ftrace_regs(fregs)->regs;
}
MODULE_LICENSE("GPL");
