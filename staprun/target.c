// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The -c CMD child: the target process of the session.
 *
 * Its pid is a module parameter, so it must exist before the module is
 * loaded; yet the command must not run before the begin probes are done.
 * So staprun forks it first and holds it blocked on a pipe until the
 * session has STARTED; then one byte on that pipe lets it exec.  A second,
 * close-on-exec pipe tells staprun whether the exec worked: it reads EOF
 * when it did, the child's errno when it did not.
 *
 * CMD is split into words as a shell would (wordexp(3): quotes, $VAR,
 * ~, globs) and run with execvp, so the child is the command itself and
 * target() is its pid.  Shell syntax that needs a shell ("a | b", "a; b",
 * "$(cmd)") runs under /bin/sh -c CMD instead, as SystemTap does; target()
 * is then the shell's pid.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>
#include <wordexp.h>

#include "staprun.h"
#include "util.h"

/* Parse CMD into an argv; *we holds it until wordfree when *shell is 0. */
static int parse_cmd(const char *cmd, wordexp_t *we, int *shell)
{
	int ret = wordexp(cmd, we, WRDE_NOCMD);

	*shell = 0;
	switch (ret) {
	case 0:
		if (we->we_wordc > 0)
			return 0;
		wordfree(we);
		util_err("-c: empty command");
		return -EINVAL;
	case WRDE_BADCHAR:	/* | & ; < > ( ) { } or a newline */
	case WRDE_CMDSUB:	/* $(...) or `...` */
		*shell = 1;
		return 0;
	case WRDE_NOSPACE:
		wordfree(we);
		util_err("-c: out of memory parsing '%s'", cmd);
		return -ENOMEM;
	default:		/* WRDE_SYNTAX: unbalanced quotes and such */
		util_err("-c: cannot parse '%s' (unbalanced quotes?)", cmd);
		return -EINVAL;
	}
}

static void child_main(int go_fd, int err_fd, char *const argv[])
{
	sigset_t none;
	char go;
	ssize_t n;
	int err;

	do
		n = read(go_fd, &go, 1);
	while (n < 0 && errno == EINTR);
	/* EOF: the session never started, so the command must not run. */
	if (n != 1)
		_exit(1);
	close(go_fd);
	/*
	 * The command starts with only stdin, stdout and stderr, as it
	 * would from a shell: descriptors staprun inherited or opened are
	 * not its to see (a traced open() must return 3, as under
	 * SystemTap).  err_fd is close-on-exec already.
	 */
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		for (int fd = 3; fd < 1024; fd++)
			if (fd != err_fd)
				fcntl(fd, F_SETFD, FD_CLOEXEC);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvp(argv[0], argv);
	err = errno;
	if (write(err_fd, &err, sizeof(err)) < 0)
		util_err("-c: cannot run '%s': %s", argv[0], strerror(err));
	_exit(127);
}

int target_fork(struct target *t, const char *cmd)
{
	char *sh_argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	int go[2] = { -1, -1 }, err[2] = { -1, -1 }, shell, ret;
	wordexp_t we;

	*t = (struct target){ .cmd = cmd, .go_fd = -1 };
	ret = parse_cmd(cmd, &we, &shell);
	if (ret)
		return ret;
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		ret = -errno;
		util_err("-c: cannot make a pipe: %s", strerror(-ret));
		goto out;
	}
	/* Everything buffered goes out now, not once per process. */
	fflush(NULL);
	t->pid = fork();
	if (t->pid < 0) {
		ret = -errno;
		t->pid = 0;
		util_err("-c: cannot fork: %s", strerror(-ret));
		goto out;
	}
	if (t->pid == 0) {
		close(go[1]);
		close(err[0]);
		child_main(go[0], err[1], shell ? sh_argv : we.we_wordv);
	}
	t->prog = xstrdup(shell ? sh_argv[0] : we.we_wordv[0]);
	t->go_fd = go[1];
	t->err_fd = err[0];
	go[1] = err[0] = -1;
	if (staprun_verbose)
		util_err("-c: forked %d for '%s'%s, held until the session starts",
			 (int)t->pid, cmd, shell ? " (with /bin/sh -c)" : "");
out:
	if (go[0] >= 0)
		close(go[0]);
	if (go[1] >= 0)
		close(go[1]);
	if (err[0] >= 0)
		close(err[0]);
	if (err[1] >= 0)
		close(err[1]);
	if (!shell)
		wordfree(&we);
	return ret;
}

int target_release(struct target *t)
{
	ssize_t n;
	int err = 0, ret = 0;

	if (t->released)
		return 0;
	t->released = true;
	do
		n = write(t->go_fd, "g", 1);
	while (n < 0 && errno == EINTR);
	close(t->go_fd);
	t->go_fd = -1;
	if (n != 1) {
		/* EPIPE: the child is already gone (say, Ctrl-C while held). */
		ret = -errno;
		goto out;
	}
	/* Returns at once: EOF when exec succeeded, errno when it failed. */
	do
		n = read(t->err_fd, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(err)) {
		/* As SystemTap reports it: the child's error, then its exit. */
		fprintf(stderr, "%s: %s\n", t->prog, strerror(err));
		fprintf(stderr, "WARNING: Child process exited with status 1\n");
		t->exec_failed = true;
		ret = -err;
	} else if (staprun_verbose) {
		util_err("-c: started %d", (int)t->pid);
	}
out:
	close(t->err_fd);
	t->err_fd = -1;
	return ret;
}

/*
 * Print how the command ended.  A failure fails staprun too (exit status
 * 1), as in SystemTap 4.8.
 */
static void report_exit(struct target *t, int status)
{
	if (t->exec_failed)
		return;
	t->failed = !WIFEXITED(status) || WEXITSTATUS(status);
	if (WIFEXITED(status) && WEXITSTATUS(status))
		fprintf(stderr, "WARNING: Child process exited with status %d\n",
			WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "WARNING: Child process exited with signal %d (%s)\n",
			WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (staprun_verbose)
		util_err("-c: %d exited with status 0", (int)t->pid);
}

bool target_gone(const struct target *t)
{
	siginfo_t si = { 0 };

	if (!t->pid || t->exited)
		return t->exited;
	return !waitid(P_PID, t->pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == t->pid;
}

bool target_reap(struct target *t)
{
	int status;
	pid_t r;

	if (!t->pid || t->exited)
		return t->exited;
	do
		r = waitpid(t->pid, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r != t->pid)
		return false;
	t->exited = true;
	if (t->released)
		report_exit(t, status);
	return true;
}

void target_abort(struct target *t)
{
	free(t->prog);
	t->prog = NULL;
	if (!t->pid)
		return;
	if (t->go_fd >= 0) {
		/* Still held: EOF on its pipe makes it exit without running. */
		close(t->go_fd);
		t->go_fd = -1;
		close(t->err_fd);
		t->err_fd = -1;
		while (waitpid(t->pid, NULL, 0) < 0 && errno == EINTR)
			;
		t->exited = true;
	}
}
