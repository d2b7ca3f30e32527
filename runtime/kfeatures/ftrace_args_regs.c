// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ftrace_ops without FTRACE_OPS_FL_SAVE_REGS still gets the argument
 * registers, ip, sp and bp (CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS, 5.11)
 * in a struct ftrace_regs laid out as a pt_regs: x86-64's ftrace_caller
 * fills those fields of it and zeroes cs (runtime/fentry.c).  Up to 6.12
 * the struct is public and holds the pt_regs as .regs; ftrace_arch_regs.c
 * tests the later spelling.  Only x86-64: which fields the trampoline
 * fills is its own, and the translator's list of them is x86-64's.
 */
#include <linux/ftrace.h>
#include <linux/module.h>

#if !defined(CONFIG_X86_64) || !defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS)
#error "no argument registers in ftrace_regs here"
#endif

struct pt_regs *stapconf_test(struct ftrace_regs *fregs);
struct pt_regs *stapconf_test(struct ftrace_regs *fregs)
{
	return &fregs->regs;
}
MODULE_LICENSE("GPL");
