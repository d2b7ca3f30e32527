// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprog: the user-space probe tests' program (run/uprobe_*), built with
 * -g -O0 (testsuite/local.mk) so that parameters and locals live at
 * known places, with SDT markers from <sys/sdt.h> (systemtap-sdt-dev).
 *
 *   uprog [N]    prints "uprog corner" (so the string's page is in
 *                memory when a probe reads it), then
 *                N rounds (default 3) of: add(i, 10), the marker
 *                uprog:tick(i, i * 1000, 5, counter), then
 *                scale(&pt, i) and fib(5); then greet("world"); then,
 *                if a tracer enabled the semaphore of uprog:ping, the
 *                marker uprog:ping(99); prints what it computed and
 *                whether ping was enabled, all on stderr (a test's
 *                stdout is the script's alone).
 *
 *   uprog threads  two threads, each calling add(), joined in order
 *   uprog fork     a child process calling add() and exiting 7, waited for
 *
 * Every marker has a semaphore (_SDT_HAS_SEMAPHORES), as dtrace -G
 * would make them: a tracer that probes the marker raises it.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <unistd.h>

/* Written by the kernel's uprobes while a marker is probed. */
__extension__ unsigned short uprog_tick_semaphore __attribute__((section(".probes")));
__extension__ unsigned short uprog_ping_semaphore __attribute__((section(".probes")));

struct point {
	int x, y;
	const char *label;
};

int counter = 40;

__attribute__((noinline)) int add(int a, int b)
{
	return a + b;
}

__attribute__((noinline)) long scale(struct point *p, long k)
{
	long r = (long)(p->x + p->y) * k;

	done: return r;
}

__attribute__((noinline)) int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) const char *greet(const char *who)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "hello %s", who);
	return buf;
}

static void *thread_main(void *arg)
{
	return (void *)(long)add((int)(long)arg, 100);
}

/* Process and thread events: uprog threads, uprog fork. */
static int lifecycle(const char *what)
{
	if (!strcmp(what, "threads")) {
		for (long i = 1; i <= 2; i++) {
			pthread_t t;
			void *r;

			/* One at a time: the events come in a known order. */
			if (pthread_create(&t, NULL, thread_main, (void *)i) || pthread_join(t, &r))
				return 1;
			fprintf(stderr, "thread %ld: %ld\n", i, (long)r);
		}
		return 0;
	} else {
		int status;
		pid_t child = fork();

		if (child == 0)
			_exit(add(7, 0));
		if (child < 0 || waitpid(child, &status, 0) != child)
			return 1;
		fprintf(stderr, "child exit %d\n", WEXITSTATUS(status));
		return 0;
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	struct point pt = { 3, 4, "corner" };
	long total = 0;
	int enabled;

	if (argc > 1 && (!strcmp(argv[1], "threads") || !strcmp(argv[1], "fork")))
		return lifecycle(argv[1]);
	fprintf(stderr, "uprog %s\n", pt.label);
	for (int i = 0; i < n; i++) {
		total += add(i, 10);
		counter++;
		STAP_PROBE4(uprog, tick, i, (long)i * 1000, 5, counter);
		total += scale(&pt, i) + fib(5);
	}
	fprintf(stderr, "%s\n", greet("world"));
	enabled = uprog_ping_semaphore != 0;
	if (enabled)
		STAP_PROBE1(uprog, ping, 99);
	fprintf(stderr, "total %ld ping %s\n", total, enabled ? "enabled" : "disabled");
	return 0;
}
