// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ubt: the user-backtrace tests' program (run/ustack_*), built -g -O0
 * -no-pie (testsuite/local.mk) so that its addresses are the same in
 * every run, and also stripped (testsuite/ubt-stripped).
 *
 *   ubt [N]   depth(N) recursing down to nofp(), built without a frame
 *             pointer (only .eh_frame can unwind it), which calls leaf();
 *             then asmfp(), a function with a frame pointer but no CFI
 *             (only the rbp chain can unwind it), which calls leaf(7);
 *             then rawpid(), a getpid system call made here rather than
 *             in libc.  Prints nothing; exits 0.
 *   ubt spin  spin(): a busy loop for timer probes to interrupt
 *
 * It first re-executes itself with address-space randomization off, so
 * that libc's addresses are the same in every run too.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

int data_word = 5;

__attribute__((noinline)) int leaf(int n)
{
	return n * 2;
}

__attribute__((noinline, optimize("omit-frame-pointer"))) int nofp(int n)
{
	volatile int pad[6];

	pad[0] = n;
	return leaf(n + pad[0]) + 1;
}

__attribute__((noinline)) int depth(int n)
{
	return n ? depth(n - 1) + 1 : nofp(n);
}

/* int asmfp(void): leaf(7) in a frame-pointer frame, with no CFI at all. */
int asmfp(void);
__asm__(".text\n"
	".globl asmfp\n"
	".type asmfp, @function\n"
	"asmfp:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	mov $7, %edi\n"
	"	call leaf\n"
	"	pop %rbp\n"
	"	ret\n"
	".size asmfp, .-asmfp\n");

/* Busy for a while in user space, for timer probes to land in. */
__attribute__((noinline)) void spin(void)
{
	for (volatile long i = 0; i < 40000000; i++)
		;
}

__attribute__((noinline)) long rawpid(void)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "0"(39L) : "rcx", "r11", "memory");
	return r;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, d, a;
	long p;

	if (!(personality(0xffffffff) & ADDR_NO_RANDOMIZE)) {
		personality(ADDR_NO_RANDOMIZE);
		execv("/proc/self/exe", argv);
	}
	if (argc > 1 && !strcmp(argv[1], "spin")) {
		spin();
		return 0;
	}
	/* In this order: the tests count leaf()'s hits. */
	d = depth(n);
	a = asmfp();
	p = rawpid();
	/* Nothing printed: a test's stderr is stap's alone. */
	return d + data_word + a > 0 && p > 0 ? 0 : 1;
}
