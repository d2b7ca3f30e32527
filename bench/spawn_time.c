// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spawn_time RUNS CMD [ARG...]: runs CMD RUNS times, one after another,
 * and prints "median_us min_us max_us failures" of their wall times
 * (fork to reaped exit, CLOCK_MONOTONIC).  Busybox's shell has no timer
 * finer than a second; bench/load_time.sh uses this in the guest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[1]) : 0, failures = 0, i, st;
	long long *t;
	pid_t pid;

	if (runs < 1) {
		fprintf(stderr, "usage: spawn_time RUNS CMD [ARG...]\n");
		return 2;
	}
	t = calloc(runs, sizeof(*t));
	if (!t)
		return 1;
	for (i = 0; i < runs; i++) {
		long long t0 = now_us();

		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			failures++;
		t[i] = now_us() - t0;
	}
	qsort(t, runs, sizeof(*t), cmp);
	printf("%lld %lld %lld %d\n", t[runs / 2], t[0], t[runs - 1], failures);
	return 0;
}
