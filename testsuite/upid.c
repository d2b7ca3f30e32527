// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * upid: the program the process(PID) tests (run/upid_*) start before the
 * script, at a known pid (stap --vm-spawn=PID:CMD), built with -g -O0.
 *
 *   upid N   waits, up to 20 s, for SIGUSR1, which the script sends
 *            (system("kill -USR1 PID")) once its probes are in place,
 *            fires the marker upid:ready(N), calls work(i) for
 *            i = 1..N, prints "upid done SUM" on stderr and exits 0
 *            (exit 1 if no signal came)
 *   upid N child   the same, after a child process (another pid) has
 *            called work(100) and exited, waited for
 *   upid exit   exits 0 at once (a process gone before the script)
 *
 * Why a signal: a semaphore raised by the probes' registration comes
 * while the session is still starting, when hits do not run yet.  A
 * program apart from uprog: the lines and functions uprog's tests name
 * stay as they are.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) int work(int i)
{
	return i * 2;
}

/*
 * upid armed: fires the marker upid:armed, which has a semaphore, as
 * soon as a tracer probes it, then exits 0 (testsuite/upid_sem.c).
 * Here, below work(): the lines the tests name stay as they are.
 */
int upid_armed(void);

/*
 * upid orphan: forks a child that forks a grandchild, waits until the
 * grandchild runs, calls work(4) and exits; the grandchild, reparented
 * (to init or a subreaper), calls work(8) and exits; upid waits for it
 * through a pipe and prints "upid orphan done": a process that outlives
 * its parent, not the target (run/upid_orphan).
 */
static int orphan(void);

int main(int argc, char **argv)
{
	struct timespec limit = { .tv_sec = 20 };
	int n = argc > 1 ? atoi(argv[1]) : 3, sum = 0;
	sigset_t usr1;

	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	if (argc > 1 && !strcmp(argv[1], "armed"))
		return upid_armed();
	if (argc > 1 && !strcmp(argv[1], "orphan"))
		return orphan();
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	if (sigtimedwait(&usr1, NULL, &limit) != SIGUSR1)
		return 1;
	STAP_PROBE1(upid, ready, n);
	if (argc > 2 && !strcmp(argv[2], "child")) {
		pid_t child = fork();

		if (child == 0)
			_exit(work(100) != 200);
		if (child < 0 || waitpid(child, NULL, 0) != child)
			return 1;
	}
	for (int i = 1; i <= n; i++)
		sum += work(i);
	fprintf(stderr, "upid done %d\n", sum);
	return 0;
}

/* Has process pid exited (a zombie, or reaped)?  Its exit probes ran then. */
static int gone(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
		state = 0;
	fclose(f);
	return state == 'Z' || state == 'X';
}

static int orphan(void)
{
	int done[2], ready[2];
	pid_t child, grandchild;
	char c;

	if (pipe(done) || pipe(ready))
		return 1;
	child = fork();
	if (child == 0) {
		pid_t parent = getpid();

		if (fork() == 0) {
			pid_t me = getpid();

			close(done[0]);
			/*
			 * Running (a tracer's fork handling done) before it is
			 * orphaned; SystemTap 4.8 misses a hit at once after a
			 * fork, hence work(4) only after this too.
			 */
			if (write(done[1], &me, sizeof(me)) != sizeof(me) || write(ready[1], "r", 1) != 1)
				_exit(1);
			while (getppid() == parent)	/* until reparented */
				usleep(1000);
			_exit(work(8) != 16);
		}
		_exit(read(ready[0], &c, 1) != 1 || work(4) != 8);
	}
	if (child < 0 || waitpid(child, NULL, 0) != child)
		return 1;
	close(done[1]);
	if (read(done[0], &grandchild, sizeof(grandchild)) != sizeof(grandchild))
		return 1;
	while (read(done[0], &c, 1) > 0)	/* EOF: the grandchild is exiting */
		;
	/* Its .end probes run before -c's session ends with this process. */
	for (int i = 0; i < 2000 && !gone(grandchild); i++)
		usleep(5000);
	fprintf(stderr, "upid orphan done\n");
	return 0;
}
