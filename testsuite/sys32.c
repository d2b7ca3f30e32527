// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The 32-bit (ia32) system call tests' program: a static i386 program
 * with no C library (gcc -m32 -nostdlib -ffreestanding), which makes
 * its calls through int $0x80, the 32-bit entry of an x86-64 kernel.
 * getppid() marks the start; the calls and their arguments are fixed
 * (run/syscall_ia32.stp checks them).
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
#define NR_getppid	64
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

void __attribute__((noreturn, used)) start32(void)
{
	const char *path = "/tmp/stp-ia32";
	long fd;

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

/* The entry point: align the stack as a call would, then start32. */
__asm__(".globl _start\n_start:\n\tandl $-16, %esp\n\tcall start32\n");
