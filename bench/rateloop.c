// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rateloop RATE SECS: getppid() at RATE calls a second for SECS seconds,
 * in bursts of the calls due so far with 1 ms sleeps between (so the CPU
 * is idle in between, for a reader to run), and prints
 * "PID CALLS ACHIEVED-RATE".  Used by bench/output_rate.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double ns(const struct timespec *t)
{
	return t->tv_sec * 1e9 + t->tv_nsec;
}

int main(int argc, char **argv)
{
	long rate = argc > 1 ? atol(argv[1]) : 100000;
	double secs = argc > 2 ? atof(argv[2]) : 2;
	struct timespec start, now, tick = { 0, 1000000 };
	long calls = 0;
	double t;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		t = (ns(&now) - ns(&start)) / 1e9;
		if (t >= secs)
			break;
		/*
		 * The calls due by now, a thousand at most between looks at
		 * the clock; a loop that cannot keep up never sleeps.
		 */
		if (calls >= (long)(rate * t)) {
			nanosleep(&tick, NULL);
			continue;
		}
		for (long i = 0; i < 1000 && calls < (long)(rate * t); i++) {
			syscall(SYS_getppid);
			calls++;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("%d %ld %.0f\n", getpid(), calls,
	       calls / ((ns(&now) - ns(&start)) / 1e9));
	return 0;
}
