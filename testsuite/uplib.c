// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uplib: calls a function of our own shared library, libulib.so
 * (testsuite/ulib.c), for the .library(...) tests (run/uprobe_library*).
 *
 *   uplib N   calls ulib_twice(i) for i = 1..N, then runs uplib2 1 (the
 *             same program under another name, next to it: it only
 *             calls ulib_twice(1)) and waits for it; prints the sum on
 *             stderr
 *
 *   uplib N wait   the same, after waiting up to 20 s for SIGUSR1 (for
 *             --vm-spawn, as testsuite/upid.c)
 *
 * Two programs mapping one library: a probe naming one of them must not
 * fire in the other.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int ulib_twice(int i);

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, sum = 0;
	size_t len = strlen(argv[0]);

	if (argc > 2 && !strcmp(argv[2], "wait")) {
		struct timespec limit = { .tv_sec = 20 };
		sigset_t usr1;

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		if (sigtimedwait(&usr1, NULL, &limit) != SIGUSR1)
			return 1;
	}
	for (int i = 1; i <= n; i++)
		sum += ulib_twice(i);
	fprintf(stderr, "%s %d\n", len && argv[0][len - 1] == '2' ? "uplib2" : "uplib", sum);
	if (len && argv[0][len - 1] != '2') {
		char *other = malloc(len + 2);
		pid_t child;

		snprintf(other, len + 2, "%s2", argv[0]);
		child = fork();
		if (child == 0) {
			execl(other, other, "1", (char *)NULL);
			_exit(127);
		}
		if (child < 0 || waitpid(child, NULL, 0) != child)
			return 1;
		free(other);
	}
	return 0;
}
