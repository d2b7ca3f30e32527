// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Context functions that need more than a line of embedded C: registers
 * by name, function arguments by the x86-64 calling convention,
 * print_regs(), the current task's command line, and pid(), uid(),
 * execname() and the like (see stp_tapset.h).
 */
#include <linux/cred.h>
#include <linux/kernel.h>
#include <linux/mm_types.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include "stp_tapset.h"

int64_t _stp_pid(void)
{
	return current->tgid;
}

int64_t _stp_tid(void)
{
	return current->pid;
}

int64_t _stp_ppid(void)
{
	int64_t ppid;

	rcu_read_lock();
	ppid = rcu_dereference(current->real_parent)->tgid;
	rcu_read_unlock();
	return ppid;
}

int64_t _stp_pgrp(void)
{
	return task_pgrp_nr_ns(current, &init_pid_ns);
}

int64_t _stp_sid(void)
{
	return task_session_nr_ns(current, &init_pid_ns);
}

int64_t _stp_uid(void)
{
	return from_kuid_munged(&init_user_ns, current_uid());
}

int64_t _stp_euid(void)
{
	return from_kuid_munged(&init_user_ns, current_euid());
}

int64_t _stp_gid(void)
{
	return from_kgid_munged(&init_user_ns, current_gid());
}

int64_t _stp_egid(void)
{
	return from_kgid_munged(&init_user_ns, current_egid());
}

int64_t _stp_cpu(void)
{
	return raw_smp_processor_id();
}

/* A concurrent prctl(PR_SET_NAME) may change comm: copy it once. */
static void copy_comm(char *dst, const char *comm)
{
	char buf[TASK_COMM_LEN];

	memcpy(buf, comm, sizeof(buf));
	buf[sizeof(buf) - 1] = '\0';
	strscpy(dst, buf, MAXSTRINGLEN);
}

void _stp_execname(char *dst)
{
	copy_comm(dst, current->comm);
}

void _stp_pexecname(char *dst)
{
	rcu_read_lock();
	copy_comm(dst, rcu_dereference(current->real_parent)->comm);
	rcu_read_unlock();
}

unsigned long _stp_uaddr(struct stp_context *c)
{
	struct pt_regs *regs = c->regs;

	if (regs && user_mode(regs))
		return instruction_pointer(regs);
	if (current->mm && !(current->flags & PF_KTHREAD))
		return instruction_pointer(task_pt_regs(current));
	return 0;
}

#ifdef CONFIG_X86_64
/* Register names SystemTap accepts, and where pt_regs keeps them. */
static const struct {
	const char *name;
	unsigned short off;
	bool is32;	/* the 32-bit name: the low half, sign-extended */
} regnames[] = {
#define R(n, f) { n, offsetof(struct pt_regs, f), false }
#define R32(n, f) { n, offsetof(struct pt_regs, f), true }
	R("rax", ax), R("ax", ax), R32("eax", ax),
	R("rbx", bx), R("bx", bx), R32("ebx", bx),
	R("rcx", cx), R("cx", cx), R32("ecx", cx),
	R("rdx", dx), R("dx", dx), R32("edx", dx),
	R("rsi", si), R("si", si), R32("esi", si),
	R("rdi", di), R("di", di), R32("edi", di),
	R("rbp", bp), R("bp", bp), R32("ebp", bp),
	R("rsp", sp), R("sp", sp), R32("esp", sp),
	R("rip", ip), R("ip", ip), R32("eip", ip),
	R("r8", r8), R("r9", r9), R("r10", r10), R("r11", r11),
	R("r12", r12), R("r13", r13), R("r14", r14), R("r15", r15),
	R("orig_rax", orig_ax), R("orig_ax", orig_ax), R32("orig_eax", orig_ax),
	R("flags", flags), R("rflags", flags), R32("eflags", flags),
	R("cs", cs), R("ss", ss), R("xcs", cs), R("xss", ss),
#undef R
#undef R32
};
#endif

int64_t _stp_register(struct stp_context *c, struct pt_regs *regs,
		      const char *name, bool zext)
{
#ifdef CONFIG_X86_64
	size_t i;

	if (!regs) {
		_stp_error(c, "cannot access CPU registers in this context");
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(regnames); i++) {
		unsigned long v;

		if (strcmp(regnames[i].name, name))
			continue;
		v = *(unsigned long *)((char *)regs + regnames[i].off);
		if (!regnames[i].is32)
			return v;
		return zext ? (int64_t)(u32)v : (int64_t)(s32)v;
	}
	_stp_error(c, "Unrecognized register name %s", name);
#else
	_stp_error(c, "register() is not supported on this architecture");
#endif
	return 0;
}

#ifdef CONFIG_X86_64
/*
 * Where argument n of the probed function is: a register (returned), or
 * (NULL) the stack slot at *stack, above the return address.  NULL and
 * an error if there is none here.
 */
static unsigned long *arg_slot(struct stp_context *c, int n, unsigned long *stack)
{
	struct pt_regs *regs = c->regs;

	/* A process probe's registers are the task's, at the probed function. */
	if (!regs || (user_mode(regs) && !c->uprobe)) {
		_stp_error(c, "cannot access function args in this context");
		return NULL;
	}
	switch (n) {
	case 1: return &regs->di;
	case 2: return &regs->si;
	case 3: return &regs->dx;
	case 4: return &regs->cx;
	case 5: return &regs->r8;
	case 6: return &regs->r9;
	}
	if (n < 1)
		_stp_error(c, "Invalid argument number %d", n);
	else
		*stack = regs->sp + 8 * (n - 6);
	return NULL;
}
#endif

int64_t _stp_func_arg(struct stp_context *c, int n)
{
#ifdef CONFIG_X86_64
	unsigned long *reg, stack = 0, v;

	reg = arg_slot(c, n, &stack);
	if (reg)
		return *reg;
	if (!stack)
		return 0;
	if (user_mode(c->regs) ?
	    copy_from_user_nofault(&v, (const void __user *)stack, sizeof(v)) :
	    _stp_kread_quiet(&v, stack, sizeof(v))) {
		_stp_error(c, "read fault [man error::fault] at 0x%lx", stack);
		return 0;
	}
	return v;
#else
	_stp_error(c, "function arguments are not supported on this architecture");
	return 0;
#endif
}

void _stp_set_func_arg(struct stp_context *c, int n, int64_t v, size_t size)
{
#ifdef CONFIG_X86_64
	unsigned long *reg, stack = 0;

	reg = arg_slot(c, n, &stack);
	if (reg)
		*reg = v;	/* the caller extended v as the type is */
	else if (stack && (user_mode(c->regs) ? _stp_uwrite_quiet(stack, &v, size) :
			   _stp_kwrite_quiet(stack, &v, size)))
		_stp_error(c, "write fault [man error::fault] at 0x%lx", stack);
#else
	_stp_error(c, "function arguments are not supported on this architecture");
#endif
}

/*
 * x86 kprobes run the handler with ip just past the int3 they place (or,
 * on ftrace, emulate) at the probed address, and so does fentry.c's
 * ftrace handler.  Such hits come from the kprobe-based families; pp()
 * tells them apart from timers, whose regs hold the exact interrupted ip.
 */
unsigned long _stp_probe_addr(struct stp_context *c)
{
	const char *pp = c->probe ? c->probe->pp : "";
	unsigned long ip;

	if (!c->regs)
		return 0;
	ip = instruction_pointer(c->regs);
	if (user_mode(c->regs))
		return ip;
	if ((!strncmp(pp, "kernel.", 7) || !strncmp(pp, "module(", 7) ||
	     !strncmp(pp, "kprobe.", 7)) && !strstr(pp, ".return"))
		ip -= 1;
	return ip;
}

void _stp_print_regs(struct stp_context *c, struct pt_regs *regs)
{
	if (!regs) {
		_stp_error(c, "cannot access CPU registers in this context");
		return;
	}
#ifdef CONFIG_X86_64
	_stp_printf(c, "RIP: %016lx\nRSP: %016lx  EFLAGS: %08lx\n",
		    regs->ip, regs->sp, regs->flags);
	_stp_printf(c, "RAX: %016lx RBX: %016lx RCX: %016lx\n",
		    regs->ax, regs->bx, regs->cx);
	_stp_printf(c, "RDX: %016lx RSI: %016lx RDI: %016lx\n",
		    regs->dx, regs->si, regs->di);
	_stp_printf(c, "RBP: %016lx R08: %016lx R09: %016lx\n",
		    regs->bp, regs->r8, regs->r9);
	_stp_printf(c, "R10: %016lx R11: %016lx R12: %016lx\n",
		    regs->r10, regs->r11, regs->r12);
	_stp_printf(c, "R13: %016lx R14: %016lx R15: %016lx\n",
		    regs->r13, regs->r14, regs->r15);
	_stp_printf(c, "CS:  %04lx SS: %04lx ORIG_RAX: %016lx\n",
		    (unsigned long)regs->cs & 0xffff, (unsigned long)regs->ss & 0xffff,
		    regs->orig_ax);
#endif
}

static bool wanted(int arg, int first, int last)
{
	return arg >= first && (last < 0 || arg <= last);
}

void _stp_cmdline(struct stp_context *c, char *dst, int first, int last,
		  const char *delim)
{
	struct mm_struct *mm = current->mm;
	unsigned long pos, end;
	size_t out = 0, dlen = strlen(delim);
	int arg = 0;

	dst[0] = '\0';
	if (!mm || (current->flags & PF_KTHREAD))
		return;		/* a kernel thread has no command line */
	pos = READ_ONCE(mm->arg_start);
	end = READ_ONCE(mm->arg_end);
	/* 64 bytes at a time: no MAXSTRINGLEN buffer on the kernel stack. */
	while (pos < end && out < MAXSTRINGLEN - 1 && (last < 0 || arg <= last)) {
		char chunk[64];
		size_t n = min_t(unsigned long, sizeof(chunk), end - pos), i;

		if (_stp_uread_quiet(chunk, pos, n))
			break;	/* paged out: what we have so far */
		for (i = 0; i < n && out < MAXSTRINGLEN - 1; i++) {
			if (chunk[i]) {
				if (wanted(arg, first, last))
					dst[out++] = chunk[i];
				continue;
			}
			arg++;
			/* A delimiter between two wanted arguments only. */
			if (arg > first && wanted(arg, first, last) && pos + i + 1 < end) {
				size_t d = min(dlen, MAXSTRINGLEN - 1 - out);

				memcpy(dst + out, delim, d);
				out += d;
			}
		}
		pos += n;
	}
	dst[out] = '\0';
}

/* Copy the user bytes [pos, end) up to a NUL into dst (MAXSTRINGLEN). */
static void copy_user_str(char *dst, unsigned long pos, unsigned long end)
{
	size_t out = 0;

	while (pos < end && out < MAXSTRINGLEN - 1) {
		size_t n = min_t(unsigned long, MAXSTRINGLEN - 1 - out, end - pos);
		char *nul;

		if (_stp_uread_quiet(dst + out, pos, n))
			break;
		nul = memchr(dst + out, '\0', n);
		if (nul) {
			out = nul - dst;
			break;
		}
		out += n;
		pos += n;
	}
	dst[out] = '\0';
}

void _stp_env_var(struct stp_context *c, char *dst, const char *name)
{
	struct mm_struct *mm = current->mm;
	unsigned long pos, end;
	size_t len = strlen(name);
	/* Bytes of the current entry that matched "name=" so far; -1: none. */
	long m = 0;

	dst[0] = '\0';
	if (!mm || (current->flags & PF_KTHREAD) || !len)
		return;		/* a kernel thread has no environment */
	pos = READ_ONCE(mm->env_start);
	end = READ_ONCE(mm->env_end);
	while (pos < end) {
		char chunk[64];
		size_t n = min_t(unsigned long, sizeof(chunk), end - pos), i;

		if (_stp_uread_quiet(chunk, pos, n))
			return;	/* paged out: as if unset */
		for (i = 0; i < n; i++) {
			if (!chunk[i]) {
				m = 0;	/* the next entry starts */
			} else if (m < 0) {
				continue;
			} else if ((size_t)m < len) {
				m = chunk[i] == name[m] ? m + 1 : -1;
			} else if (chunk[i] == '=') {
				copy_user_str(dst, pos + i + 1, end);
				return;
			} else {
				m = -1;
			}
		}
		pos += n;
	}
}
