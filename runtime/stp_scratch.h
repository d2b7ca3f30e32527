/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The runtime's per-CPU scratch buffers (stack.c, ustack.c, sym.c,
 * usym.c, tapset_mem.c), used by one hit at a time (context.c).  They live
 * in the session's per-CPU context, kvzalloc'ed at load (context.c), not
 * in static DEFINE_PER_CPU data: that comes from the kernel's reserve
 * shared by every module (PERCPU_MODULE_RESERVE, 8 KB on x86-64), and
 * these 4.8 KB made a second session loaded at once fail with ENOMEM
 * ("Could not allocate 4872 bytes percpu data": cli/fault_sessions).
 */
#ifndef STP_SCRATCH_H
#define STP_SCRATCH_H

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include "stp_tapset.h"

#define STP_LINE_LEN (KSYM_NAME_LEN + 96)	/* a backtrace line */
#define STP_ULINE_LEN (KSYM_NAME_LEN + 320)	/* a user backtrace line */

struct stp_scratch {
	struct pt_regs regs_copy;		/* stack.c */
	unsigned long pcs[STP_MAX_STACK];	/* stack.c */
	char line[STP_LINE_LEN];		/* stack.c */
	unsigned long upcs[STP_MAX_STACK];	/* ustack.c */
	char uline[STP_ULINE_LEN];		/* ustack.c */
	char ksym[KSYM_SYMBOL_LEN];		/* sym.c */
	char kmod[MODULE_NAME_LEN];		/* sym.c */
	char upath[256];			/* usym.c */
	char tokenize[MAXSTRINGLEN];		/* tapset_mem.c: tokenize()'s input, */
	size_t tokenize_pos;			/* and where the next token starts */
	char raw[MAXSTRINGLEN];			/* tapset_mem.c: *_buffer_quoted */
};

/* This CPU's scratch buffers (context.c). */
struct stp_scratch *_stp_scratch(void);

#endif /* STP_SCRATCH_H */
