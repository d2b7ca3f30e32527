// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * System call arguments for the syscall.* probe aliases: the raw
 * arguments of the current system call, and the decoders that turn flag
 * words and constants into the text argstr shows ("O_RDONLY|O_CREAT",
 * "AT_FDCWD", "SEEK_SET").
 *
 * Arguments come from the user registers saved at system call entry
 * (syscall_get_arguments on task_pt_regs), not from the probed
 * function's own registers: they are right at entry and at return of
 * any function inside the call, with or without DWARF, and for 32-bit
 * (compat) callers too.
 */
#include <linux/fcntl.h>
#include <linux/kernel.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/fs.h>
#include <linux/wait.h>
#include <uapi/linux/wait.h>
#include <linux/time64.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include "stp_internal.h"
#include "stp_tapset.h"

int64_t _stp_sc_arg(int n)
{
	unsigned long args[6];

	if (n < 1 || n > 6 || (current->flags & PF_KTHREAD))
		return 0;
	syscall_get_arguments(current, task_pt_regs(current), args);
	return (int64_t)args[n - 1];
}

int64_t _stp_sc_nr(void)
{
	if (current->flags & PF_KTHREAD)
		return -1;
	return syscall_get_nr(current, task_pt_regs(current));
}

struct stp_sc_flag {
	unsigned long bit;
	const char *name;
};

#define F(x) { x, #x }

static const struct stp_sc_flag open_flags[] = {
	F(O_CREAT), F(O_EXCL), F(O_NOCTTY), F(O_TRUNC), F(O_APPEND), F(O_NONBLOCK),
	F(O_DSYNC), F(FASYNC), F(O_DIRECT), F(O_LARGEFILE), F(O_DIRECTORY),
	F(O_NOFOLLOW), F(O_NOATIME), F(O_CLOEXEC), F(__O_SYNC), F(O_PATH),
	F(__O_TMPFILE), { 0, NULL }
};

static const struct stp_sc_flag prot_flags[] = {
	F(PROT_READ), F(PROT_WRITE), F(PROT_EXEC), F(PROT_SEM), F(PROT_GROWSDOWN),
	F(PROT_GROWSUP), { 0, NULL }
};

static const struct stp_sc_flag mmap_flags[] = {
	F(MAP_FIXED), F(MAP_ANONYMOUS), F(MAP_32BIT), F(MAP_GROWSDOWN), F(MAP_DENYWRITE),
	F(MAP_EXECUTABLE), F(MAP_LOCKED), F(MAP_NORESERVE), F(MAP_POPULATE),
	F(MAP_NONBLOCK), F(MAP_STACK), F(MAP_HUGETLB), F(MAP_SYNC), F(MAP_FIXED_NOREPLACE),
	{ 0, NULL }
};

static const struct stp_sc_flag access_flags[] = {
	/* unistd.h's values; the kernel has no names for them */
	{ 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" }, { 0, NULL }
};

static const struct stp_sc_flag at_flags[] = {
	F(AT_SYMLINK_NOFOLLOW), F(AT_REMOVEDIR), F(AT_SYMLINK_FOLLOW), F(AT_NO_AUTOMOUNT),
	F(AT_EMPTY_PATH), { 0, NULL }
};

static const struct stp_sc_flag wait_flags[] = {
	F(WNOHANG), F(WUNTRACED), F(WEXITED), F(WCONTINUED), F(WNOWAIT), F(__WNOTHREAD),
	F(__WALL), F(__WCLONE), { 0, NULL }
};

static const struct stp_sc_flag clone_flags[] = {
	F(CLONE_VM), F(CLONE_FS), F(CLONE_FILES), F(CLONE_SIGHAND), F(CLONE_PIDFD),
	F(CLONE_PTRACE), F(CLONE_VFORK), F(CLONE_PARENT), F(CLONE_THREAD), F(CLONE_NEWNS),
	F(CLONE_SYSVSEM), F(CLONE_SETTLS), F(CLONE_PARENT_SETTID), F(CLONE_CHILD_CLEARTID),
	F(CLONE_DETACHED), F(CLONE_UNTRACED), F(CLONE_CHILD_SETTID), F(CLONE_NEWCGROUP),
	F(CLONE_NEWUTS), F(CLONE_NEWIPC), F(CLONE_NEWUSER), F(CLONE_NEWPID), F(CLONE_NEWNET),
	F(CLONE_IO), { 0, NULL }
};

static const struct stp_sc_flag grnd_flags[] = {
	{ 1, "GRND_NONBLOCK" }, { 2, "GRND_RANDOM" }, { 4, "GRND_INSECURE" }, { 0, NULL }
};

#undef F

/* SystemTap's order: SA_RESTORER after the POSIX flags. */
static const struct stp_sc_flag sa_flags[] = {
	{ 0x00000001, "SA_NOCLDSTOP" }, { 0x00000002, "SA_NOCLDWAIT" },
	{ 0x00000004, "SA_SIGINFO" }, { 0x08000000, "SA_ONSTACK" },
	{ 0x10000000, "SA_RESTART" }, { 0x40000000, "SA_NODEFER" },
	{ 0x80000000, "SA_RESETHAND" }, { 0x04000000, "SA_RESTORER" }, { 0, NULL }
};

/* A signal set: [EMPTY], or the members' names joined by '|'. */
static void sigset_str(char *dst, u64 set)
{
	size_t len = 0;
	char name[32];
	int sig;

	if (!set) {
		strscpy(dst, "[EMPTY]", MAXSTRINGLEN);
		return;
	}
	len = scnprintf(dst, MAXSTRINGLEN, "[");
	for (sig = 1; sig <= 64; sig++) {
		if (!(set & (1ULL << (sig - 1))))
			continue;
		_stp_signal_str(name, sig);
		if (name[0])
			len += scnprintf(dst + len, MAXSTRINGLEN - len, "%sSIG%s",
					 len > 1 ? "|" : "", name);
		else
			len += scnprintf(dst + len, MAXSTRINGLEN - len, "%s%d",
					 len > 1 ? "|" : "", sig);
	}
	scnprintf(dst + len, MAXSTRINGLEN - len, "]");
}

/* The name of value v in names[] (NULL holes allowed), else v in decimal. */
static void enum_str(char *dst, int64_t v, const char *const *names, size_t n)
{
	if (v >= 0 && (uint64_t)v < n && names[v])
		strscpy(dst, names[v], MAXSTRINGLEN);
	else
		scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
}

/* Names of the bits of v joined by '|', what is left in hex after them. */
static void flag_str(char *dst, unsigned long v, const struct stp_sc_flag *t,
		     const char *first)
{
	size_t len = 0;

	dst[0] = '\0';
	if (first)
		len = strscpy(dst, first, MAXSTRINGLEN) > 0 ? strlen(dst) : 0;
	for (; t->name; t++) {
		if (!(v & t->bit) || (v & t->bit) != t->bit)
			continue;
		v &= ~t->bit;
		len += scnprintf(dst + len, MAXSTRINGLEN - len, "%s%s", len ? "|" : "", t->name);
	}
	if (v || !len)
		scnprintf(dst + len, MAXSTRINGLEN - len, "%s0x%lx", len ? "|" : "", v);
}

void _stp_sc_decode(char *dst, int kind, int64_t v)
{
	static const char *const whence[] = { "SEEK_SET", "SEEK_CUR", "SEEK_END",
					      "SEEK_DATA", "SEEK_HOLE" };
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR" };

	switch (kind) {
	case STP_SC_DFD:
		if ((int)v == AT_FDCWD)
			strscpy(dst, "AT_FDCWD", MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "%d", (int)v);
		return;
	case STP_SC_OPEN_FLAGS:
		if ((v & O_ACCMODE) < 3)
			flag_str(dst, (unsigned int)v & ~O_ACCMODE, open_flags, acc[v & O_ACCMODE]);
		else
			flag_str(dst, (unsigned int)v, open_flags, NULL);
		return;
	case STP_SC_WHENCE:
		if ((uint64_t)v < ARRAY_SIZE(whence))
			strscpy(dst, whence[v], MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		return;
	case STP_SC_PROT:
		if (!v)
			strscpy(dst, "PROT_NONE", MAXSTRINGLEN);
		else
			flag_str(dst, v, prot_flags, NULL);
		return;
	case STP_SC_MMAP_FLAGS: {
		static const char *const type[] = { NULL, "MAP_SHARED", "MAP_PRIVATE",
						    "MAP_SHARED_VALIDATE" };
		unsigned long t = v & MAP_TYPE;

		flag_str(dst, v & ~MAP_TYPE, mmap_flags, t && t < 4 ? type[t] : NULL);
		return;
	}
	case STP_SC_ACCESS:
		if (!v)
			strscpy(dst, "F_OK", MAXSTRINGLEN);
		else
			flag_str(dst, v, access_flags, NULL);
		return;
	case STP_SC_AT_FLAGS:
		flag_str(dst, v, at_flags, NULL);
		return;
	case STP_SC_WAIT:
		flag_str(dst, v, wait_flags, NULL);
		return;
	case STP_SC_CLONE: {
		char sig[32];
		size_t len;

		/* The flags, then the exit signal: "CLONE_VM|SIGCHLD". */
		flag_str(dst, v & ~CSIGNAL, clone_flags, NULL);
		if (v & CSIGNAL) {
			_stp_signal_str(sig, v & CSIGNAL);
			len = strlen(dst);
			if (!(v & ~CSIGNAL))
				len = 0;	/* no "0x0|" before the signal */
			scnprintf(dst + len, MAXSTRINGLEN - len, "%sSIG%s", len ? "|" : "", sig);
		}
		return;
	}
	case STP_SC_SIGSET: {
		u64 set;

		if (!v)
			strscpy(dst, "NULL", MAXSTRINGLEN);
		else if (copy_from_user_nofault(&set, (void __user *)(unsigned long)v, sizeof(set)))
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		else
			sigset_str(dst, set);
		return;
	}
	case STP_SC_SIGACTION: {
		struct { unsigned long handler, flags, restorer; u64 mask; } sa;
		size_t len;

		if (!v) {
			strscpy(dst, "NULL", MAXSTRINGLEN);
		} else if (copy_from_user_nofault(&sa, (void __user *)(unsigned long)v,
						  sizeof(sa))) {
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		} else if (sa.handler == (unsigned long)SIG_DFL ||
			   sa.handler == (unsigned long)SIG_IGN) {
			strscpy(dst, sa.handler ? "{SIG_IGN}" : "{SIG_DFL}", MAXSTRINGLEN);
		} else {
			len = scnprintf(dst, MAXSTRINGLEN, "{0x%lx, ", sa.handler);
			flag_str(dst + len, sa.flags, sa_flags, NULL);
			len = strlen(dst);
			len += scnprintf(dst + len, MAXSTRINGLEN - len, ", 0x%lx, ", sa.restorer);
			sigset_str(dst + len, sa.mask);
			len = strlen(dst);
			scnprintf(dst + len, MAXSTRINGLEN - len, "}");
		}
		return;
	}
	case STP_SC_TIMESPEC: {
		struct __kernel_timespec ts;

		if (!v)
			strscpy(dst, "NULL", MAXSTRINGLEN);
		else if (copy_from_user_nofault(&ts, (void __user *)(unsigned long)v, sizeof(ts)))
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		else
			scnprintf(dst, MAXSTRINGLEN, "[%lld.%09lld]", (long long)ts.tv_sec,
				  (long long)ts.tv_nsec);
		return;
	}
	case STP_SC_SIGNAL:
		if (!v) {
			strscpy(dst, "SIG_0", MAXSTRINGLEN);
			return;
		}
		_stp_signal_str(dst + 3, v);
		if (dst[3])
			memcpy(dst, "SIG", 3);
		else
			scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
		return;
	case STP_SC_CLOCK: {
		static const char *const clocks[] = {
			"CLOCK_REALTIME", "CLOCK_MONOTONIC", "CLOCK_PROCESS_CPUTIME_ID",
			"CLOCK_THREAD_CPUTIME_ID", "CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME_COARSE",
			"CLOCK_MONOTONIC_COARSE", "CLOCK_BOOTTIME", "CLOCK_REALTIME_ALARM",
			"CLOCK_BOOTTIME_ALARM", NULL, "CLOCK_TAI",
		};

		enum_str(dst, v, clocks, ARRAY_SIZE(clocks));
		return;
	}
	case STP_SC_ARCH_PRCTL: {
		/* asm/prctl.h: 0x1001 on, then 0x2001 on */
		static const char *const low[] = { NULL, "ARCH_SET_GS", "ARCH_SET_FS",
						   "ARCH_GET_FS", "ARCH_GET_GS", "ARCH_GET_CPUID",
						   "ARCH_SET_CPUID" };

		if (v > 0x1000 && v < 0x1000 + (int64_t)ARRAY_SIZE(low))
			strscpy(dst, low[v - 0x1000], MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
		return;
	}
	case STP_SC_GRND:
		flag_str(dst, v, grnd_flags, NULL);
		return;
	case STP_SC_RLIMIT: {
		static const char *const res[] = {
			"RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_STACK", "RLIMIT_CORE",
			"RLIMIT_RSS", "RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_MEMLOCK",
			"RLIMIT_AS", "RLIMIT_LOCKS", "RLIMIT_SIGPENDING", "RLIMIT_MSGQUEUE",
			"RLIMIT_NICE", "RLIMIT_RTPRIO", "RLIMIT_RTTIME",
		};

		enum_str(dst, v, res, ARRAY_SIZE(res));
		return;
	}
	case STP_SC_SIGHOW: {
		static const char *const how[] = { "SIG_BLOCK", "SIG_UNBLOCK", "SIG_SETMASK" };

		enum_str(dst, v, how, ARRAY_SIZE(how));
		return;
	}
	default:
		scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
	}
}
