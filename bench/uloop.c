// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uloop N: call ufunc(i) N times and print the mean ns per call; the
 * user-space probe benchmark (uprobe_overhead.sh) probes ufunc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) long ufunc(long i)
{
	__asm__ volatile("" ::: "memory");	/* not folded into the loop */
	return i + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, sum = 0;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		sum += ufunc(i);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f ns/call (sum %ld)\n",
	       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n, sum);
	return 0;
}
