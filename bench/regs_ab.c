// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Guest side of bench/entry_regs_ab.sh: rounds of N getppid() then N
 * getpid() calls, timed back to back so that the host's load falls on
 * both alike; prints each round's ns/call of both and their difference,
 * then the medians.  First it shows the tracefs lines of the two
 * functions: which ftrace_ops took them ("R": SAVE_REGS).
 * Usage: regs_ab N ROUNDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	int rounds = argc > 2 ? atoi(argv[2]) : 21, r;
	double *pp = calloc(rounds, sizeof(double)), *p = calloc(rounds, sizeof(double));
	double *d = calloc(rounds, sizeof(double));

	char line[512];
	FILE *f = fopen("/sys/kernel/tracing/enabled_functions", "r");

	if (n <= 0 || rounds <= 0 || !pp || !p || !d)
		return 2;
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "getp"))
			printf("%.40s\n", line);
	if (f)
		fclose(f);
	for (r = 0; r < rounds; r++) {
		double t0 = now(), t1, t2;

		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		t1 = now();
		for (long i = 0; i < n; i++)
			syscall(SYS_getpid);
		t2 = now();
		pp[r] = (t1 - t0) / n;
		p[r] = (t2 - t1) / n;
		d[r] = p[r] - pp[r];
	}
	printf("median ns/call: getppid %.0f  getpid %.0f  getpid-getppid %.0f  (%d rounds of %ld)\n",
	       median(pp, rounds), median(p, rounds), median(d, rounds), rounds, n);
	return 0;
}
