// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The 32-bit (ia32) system call tests' program: a static i386 program
 * with no C library (gcc -m32 -nostdlib -ffreestanding), which makes
 * its calls through int $0x80, the 32-bit entry of an x86-64 kernel.
 * getppid() marks the start; the calls and their arguments are fixed
 * (run/syscall_ia32.stp checks them).  With an argument, "structs", it
 * makes the calls only ia32 has (signal, sigsuspend, set_thread_area,
 * ...) and those whose arguments a 32-bit task passes in compat structs
 * or other layouts (run/syscall_ia32_structs.stp).
 */

/* i386 numbers (arch/x86/entry/syscalls/syscall_32.tbl) */
#define NR_exit		1
#define NR_read		3
#define NR_write	4
#define NR_open		5
#define NR_close	6
#define NR_waitpid	7
#define NR_lseek	19
#define NR_getpid	20
#define NR_kill		37
#define NR_signal	48
#define NR_getppid	64
#define NR_sgetmask	68
#define NR_ssetmask	69
#define NR_sigsuspend	72
#define NR_setrlimit	75
#define NR_uselib	86
#define NR_setitimer	104
#define NR_readv	145
#define NR_writev	146
#define NR_select	142
#define NR_nanosleep	162
#define NR_poll		168
#define NR_rt_sigprocmask 175
#define NR_rt_sigqueueinfo 178
#define NR_pread64	180
#define NR_pwrite64	181
#define NR_sigaltstack	186
#define NR_set_thread_area 243
#define NR_get_thread_area 244
#define NR_fadvise64	250
#define NR_clock_nanosleep 267
#define NR_fadvise64_64	272
#define NR_fstatat64	300
#define NR_clock_nanosleep_time64 407
#define NR_rt_sigtimedwait_time64 421
#define NR_stat64	195
#define NR_clone	120
#define NR_utime	30
#define NR_adjtimex	124
#define NR_times	43
#define NR_sysinfo	116
#define NR_utimes	271
#define NR_timerfd_create 322
#define NR_timerfd_settime 325
#define NR_llseek	140
#define NR_rt_sigaction	174
#define NR_mmap2	192

static long sc3(long nr, long a, long b, long c)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
	return r;
}

static long sc5(long nr, long a, long b, long c, long d, long e)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d),
			 "D"(e) : "memory");
	return r;
}

/* The sixth argument goes in %ebp, which the compiler may not be given. */
static long arg6;

static long sc6(long nr, long a, long b, long c, long d, long e, long f)
{
	long r;

	arg6 = f;
	/* (arg6 is at a fixed address, which the push does not move) */
	__asm__ volatile("push %%ebp\n\tmovl %7, %%ebp\n\tint $0x80\n\tpop %%ebp"
			 : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e), "m"(arg6)
			 : "memory");
	return r;
}

/* Not on the stack: their addresses are fixed (static, not PIE). */
static char buf[64];
static long long pos;
/* struct compat_sigaction, SIG_IGN and SA_RESTART: not x86-64's layout */
static unsigned int act[4] = { 1, 0x10000000, 0, 0 };

static void __attribute__((noreturn)) structs(void);

void __attribute__((noreturn, used)) start32(long *sp)
{
	const char *path = "/tmp/stp-ia32";
	long fd;

	/* argc, then argv[] */
	if (sp[0] > 1)
		structs();

	/* The kernel reads the path with page faults off at the tracepoint:
	 * touch its page first, so that argstr shows it, not its address. */
	(void)*(volatile const char *)path;
	sc3(NR_getppid, 0, 0, 0);
	fd = sc3(NR_open, (long)path, 01 | 0100 | 01000, 0644);	/* O_WRONLY|O_CREAT|O_TRUNC */
	sc3(NR_write, fd, (long)"hello, ia32\n", 12);
	sc3(NR_close, fd, 0, 0);
	fd = sc3(NR_open, (long)path, 0, 0);	/* O_RDONLY */
	sc3(NR_read, fd, (long)buf, sizeof(buf));
	sc3(NR_lseek, fd, -2, 2);		/* SEEK_END: a negative 32-bit offset */
	sc5(NR_llseek, fd, 0, 4, (long)&pos, 0);	/* ia32 only: _llseek(2), SEEK_SET */
	sc3(NR_close, fd, 0, 0);
	sc3(NR_getpid, 0, 0, 0);
	sc5(NR_rt_sigaction, 10, (long)act, 0, 8, 0);	/* SIGUSR1 */
	sc3(NR_waitpid, -1, 0, 1);		/* ia32 only; WNOHANG, no child: ECHILD */
	/* PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, fd -1, page 0 */
	sc6(NR_mmap2, 0, 4096, 1, 0x22, -1, 0);
	for (;;)
		sc3(NR_exit, 0, 0, 0);
}

/* SIGUSR2's handler (signal(2): the kernel's vDSO returns from it) */
static volatile int caught;

static void on_usr2(int sig)
{
	caught = sig;
}

/* struct user_desc: entry -1 (any free), base, limit, 32-bit, pages, usable */
static unsigned int tls[4] = { -1, 0x1000, 0xfffff, 0x51 };
static unsigned int tls_get[4] = { 12, 0, 0, 0 };
/* struct compat_sigaction: handler, SA_RESTART|SA_RESTORER, restorer, [SIGUSR1|SIGTERM] */
static unsigned int act2[5];
static unsigned int set2[2] = { 1 << 9 | 1 << 14, 0 };	/* SIGUSR1|SIGTERM */
static unsigned int ts32[2] = { 0, 1000 };		/* struct old_timespec32 */
static long long ts64[2] = { 0, 1000 };			/* struct __kernel_timespec */
static long long ts0[2];
static unsigned int tv32[2] = { 0, 1000 };		/* struct old_timeval32 */
static unsigned int itv32[4] = { 0, 0, 1, 500000 };	/* struct old_itimerval32 */
static unsigned int rlim32[2] = { 4096, 8192 };		/* struct compat_rlimit */
static char altstack[8192];
static unsigned int stk32[3];				/* compat_stack_t */
static unsigned int info32[32];				/* compat_siginfo_t */
static unsigned int iov32[4];				/* struct compat_iovec[2] */
static char sbuf[256];
static int ptid, ctid;
static unsigned int utb32[2] = { 1, 2 };		/* struct old_utimbuf32 */
static unsigned int tvs32[4] = { 3, 4, 5, 6 };		/* struct old_timeval32[2] */
static unsigned int its32[4] = { 0, 0, 5, 0 };		/* struct old_itimerspec32: 5 s */
static unsigned int sysinfo32[16], tms32[4];		/* compat_sysinfo, compat_tms */
/* struct old_timex32: modes 0 (read only), offset, freq, ..., tick */
static int timex32[50] = { 0, -1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };

static void __attribute__((noreturn)) structs(void)
{
	const char *path = "/tmp/stp-ia32";
	long fd;

	(void)*(volatile const char *)path;
	sc3(NR_getppid, 0, 0, 0);
	/* calls only ia32 has */
	sc3(NR_set_thread_area, (long)tls, 0, 0);
	sc3(NR_get_thread_area, (long)tls_get, 0, 0);
	sc3(NR_signal, 12, (long)on_usr2, 0);		/* SIGUSR2 */
	sc3(NR_signal, 28, 1, 0);			/* SIGWINCH, SIG_IGN */
	sc3(NR_signal, 28, 0, 0);			/* SIG_DFL */
	sc3(NR_ssetmask, 1 << 11, 0, 0);		/* block SIGUSR2 ... */
	sc3(NR_kill, sc3(NR_getpid, 0, 0, 0), 12, 0);	/* ... so that it waits ... */
	sc3(NR_sigsuspend, 0, 0, 1 << 9);		/* ... until this unblocks it */
	sc3(NR_sgetmask, 0, 0, 0);
	sc3(NR_uselib, (long)"/nonexistent", 0, 0);
	/* compat structs */
	act2[0] = (unsigned int)(long)on_usr2;
	act2[1] = 0x14000000;
	act2[2] = 0x8049000;
	act2[3] = 1 << 9 | 1 << 14;
	sc5(NR_rt_sigaction, 10, (long)act2, 0, 8, 0);
	sc5(NR_rt_sigprocmask, 0, (long)set2, 0, 8, 0);	/* SIG_BLOCK */
	sc5(NR_rt_sigprocmask, 1, (long)set2, 0, 8, 0);	/* SIG_UNBLOCK */
	sc5(NR_rt_sigtimedwait_time64, (long)set2, 0, (long)ts0, 8, 0);	/* EAGAIN */
	info32[0] = 23;			/* SIGURG, which is ignored */
	info32[2] = -1;			/* SI_QUEUE */
	info32[3] = 4321;		/* si_pid */
	info32[4] = 1234;		/* si_uid */
	sc3(NR_rt_sigqueueinfo, sc3(NR_getpid, 0, 0, 0), 23, (long)info32);
	sc3(NR_nanosleep, (long)ts32, 0, 0);
	sc5(NR_clock_nanosleep, 1, 0, (long)ts32, 0, 0);		/* CLOCK_MONOTONIC */
	sc5(NR_clock_nanosleep_time64, 1, 0, (long)ts64, 0, 0);
	sc5(NR_select, 0, 0, 0, 0, (long)tv32);
	sc3(NR_poll, 0, 0, 1);
	sc3(NR_setitimer, 0, (long)itv32, 0);		/* ITIMER_REAL, 1.5 s */
	itv32[2] = itv32[3] = 0;
	sc3(NR_setitimer, 0, (long)itv32, 0);		/* disarmed */
	sc3(NR_setrlimit, 4, (long)rlim32, 0);		/* RLIMIT_CORE */
	stk32[0] = (unsigned int)(long)altstack;
	stk32[2] = sizeof(altstack);
	sc3(NR_sigaltstack, (long)stk32, 0, 0);
	fd = sc3(NR_open, (long)path, 02 | 0100 | 01000, 0644);	/* O_RDWR|O_CREAT|O_TRUNC */
	iov32[0] = (unsigned int)(long)"hello, ";
	iov32[1] = 7;
	iov32[2] = (unsigned int)(long)"ia32\n";
	iov32[3] = 5;
	sc3(NR_writev, fd, (long)iov32, 2);
	iov32[0] = iov32[2] = (unsigned int)(long)sbuf;
	sc3(NR_readv, fd, (long)iov32, 2);
	/* 64-bit offsets in two registers, low word first */
	sc5(NR_pwrite64, fd, (long)"ia32", 4, 0x10, 0x1);	/* offset 0x100000010 */
	sc5(NR_pread64, fd, (long)sbuf, 4, 0x10, 0x1);
	sc6(NR_fadvise64, fd, 0x20, 0x1, 4096, 2, 0);	/* offset 0x100000020, SEQUENTIAL */
	sc6(NR_fadvise64_64, fd, 0x30, 0x1, 0x40, 0x0, 1);	/* RANDOM */
	sc3(NR_stat64, (long)path, (long)sbuf, 0);
	sc5(NR_fstatat64, -100, (long)path, (long)sbuf, 0x100, 0);	/* AT_SYMLINK_NOFOLLOW */
	sc3(NR_close, fd, 0, 0);
	/* 32-bit times */
	sc3(NR_utime, (long)path, (long)utb32, 0);
	sc3(NR_utimes, (long)path, (long)tvs32, 0);
	fd = sc3(NR_timerfd_create, 1, 0, 0);			/* CLOCK_MONOTONIC */
	sc5(NR_timerfd_settime, fd, 0, (long)its32, 0, 0);
	sc3(NR_close, fd, 0, 0);
	sc3(NR_adjtimex, (long)timex32, 0, 0);
	/* structs the kernel fills in (argstr shows what they hold before) */
	sysinfo32[0] = 7;
	sysinfo32[10] = 0x10009;	/* procs 9, and the padding after it */
	sc3(NR_sysinfo, (long)sysinfo32, 0, 0);
	tms32[0] = 1;
	tms32[3] = 4;
	sc3(NR_times, (long)tms32, 0, 0);
	/* fork-like (SIGCHLD): ia32's order, flags, stack, parent_tid, tls, child_tid */
	if (!sc5(NR_clone, 17, 0, (long)&ptid, 0, (long)&ctid))
		for (;;)
			sc3(NR_exit, 0, 0, 0);
	sc3(NR_getpid, 0, 0, 0);
	for (;;)
		sc3(NR_exit, caught == 12 ? 0 : 1, 0, 0);
}

/* The entry point: align the stack as a call would, then start32(sp). */
__asm__(".globl _start\n_start:\n\tmovl %esp, %eax\n\tandl $-16, %esp\n\tsubl $12, %esp\n"
	"\tpushl %eax\n\tcall start32\n");
