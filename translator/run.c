// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 5: run the module with staprun, on this host or inside a VM that
 * boots the target kernel (--vm).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stap.h"
#include "vm.h"

/* Release names sort by their numeric parts: 6.12.117 > 6.1.0. */
static int release_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
		} else {
			if (*a != *b)
				return (unsigned char)*a - (unsigned char)*b;
			a++;
			b++;
		}
	}
	return (unsigned char)*a - (unsigned char)*b;
}

char *run_newest_provisioned_release(void)
{
	DIR *d = opendir("/lib/modules");
	struct dirent *e;
	char *best = NULL;

	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char *img, *mk;
		bool ok;

		if (e->d_name[0] == '.')
			continue;
		img = xasprintf("/boot/vmlinuz-%s", e->d_name);
		mk = xasprintf("/lib/modules/%s/build/Makefile", e->d_name);
		ok = file_exists(img) && file_exists(mk);
		free(img);
		free(mk);
		if (ok && (!best || release_cmp(e->d_name, best) > 0)) {
			free(best);
			best = xstrdup(e->d_name);
		}
	}
	closedir(d);
	return best;
}

static int run_vm(struct session *s)
{
	struct vm_config cfg = {
		.release = s->release,
		.staprun = s->staprun,
		.timeout_s = s->vm_timeout,
		.verbose = s->verbose >= 2,
		.stream = !s->output_file,
	};
	struct vm_job job = { .name = "script", .module = s->module_path };
	struct vm_result res = { 0 };
	int ret, status;

	ret = vm_run(&cfg, &job, 1, &res);
	/* A timeout or an oops is reported through res as well as ret. */
	if (ret < 0 && !res.timed_out && !res.kernel_problem) {
		vm_result_free(&res);
		return 1;
	}
	if (s->output_file && job.out) {
		if (write_file(s->output_file, job.out, job.out_len) < 0) {
			util_err("cannot write %s: %s", s->output_file, strerror(errno));
			status = 1;
		}
		fwrite(job.err, 1, job.err_len, stderr);
	}
	status = job.status;
	if (res.timed_out) {
		util_err("the VM run timed out after %d s; use --vm-timeout=SECONDS "
			 "for longer scripts", s->vm_timeout);
		status = 1;
	} else if (status < 0) {
		util_err("staprun did not finish inside the VM");
		status = 1;
	}
	if (res.kernel_problem) {
		util_err("the kernel reported a problem during the run:");
		fprintf(stderr, "%s\n", res.problem ? res.problem : "(no details)");
		status = 1;
	}
	free(job.out);
	free(job.err);
	vm_result_free(&res);
	return status;
}

static int run_host(struct session *s)
{
	struct utsname u;
	char *argv[8];
	int argc = 0, status;
	pid_t pid;

	uname(&u);
	if (strcmp(u.release, s->release)) {
		util_err("the module is built for %s but this host runs %s",
			 s->release, u.release);
		fprintf(stderr, "hint: add --vm to run it in a VM booting %s\n", s->release);
		return 1;
	}
	if (!file_exists("/proc/modules")) {
		util_err("this kernel cannot load modules (it has no CONFIG_MODULES)");
		fprintf(stderr, "hint: add --vm to run the script in a VM\n");
		return 1;
	}
	if (geteuid() != 0) {
		util_err("loading a kernel module needs root");
		fprintf(stderr, "hint: run stap with sudo\n");
		return 1;
	}
	argv[argc++] = (char *)s->staprun;
	if (s->output_file) {
		argv[argc++] = "-o";
		argv[argc++] = (char *)s->output_file;
	}
	argv[argc++] = s->module_path;
	argv[argc] = NULL;
	/* staprun turns a Ctrl-C into a clean exit; stap just waits. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	pid = fork();
	if (pid < 0) {
		util_err("cannot start staprun: %s", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execv(argv[0], argv);
		util_err("cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		util_err("staprun was killed by signal %d", WTERMSIG(status));
		return 1;
	}
	return WEXITSTATUS(status);
}

int run_module(struct session *s)
{
	return s->vm ? run_vm(s) : run_host(s);
}

/*
 * --vm-batch DIR: run every DIR/NAME.ko in one boot (the VM test suite's
 * engine).  Writes DIR/NAME.out, NAME.err and NAME.rc, and
 * DIR/kernel-problem if the kernel complained.  Returns 0 if the VM ran.
 */
int run_vm_batch(struct session *s, const char *dir)
{
	struct vm_config cfg = {
		.release = s->release,
		.staprun = s->staprun,
		.timeout_s = s->vm_timeout,
		.verbose = s->verbose >= 2,
	};
	struct vm_result res = { 0 };
	struct vec names = VEC_INIT;
	struct vm_job *jobs;
	DIR *d = opendir(dir);
	struct dirent *e;
	int i, ret;

	if (!d) {
		util_err("cannot open %s: %s", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 3 && !strcmp(e->d_name + n - 3, ".ko"))
			vec_push(&names, xstrndup(e->d_name, n - 3));
	}
	closedir(d);
	jobs = xcalloc((size_t)names.len + 1, sizeof(*jobs));
	for (i = 0; i < names.len; i++) {
		jobs[i].name = names.items[i];
		jobs[i].module = xasprintf("%s/%s.ko", dir, (char *)names.items[i]);
	}
	ret = vm_run(&cfg, jobs, names.len, &res);
	/* After a timeout or an oops, what the jobs wrote so far still counts. */
	for (i = 0; (ret == 0 || res.timed_out || res.kernel_problem) && i < names.len; i++) {
		char *base = xasprintf("%s/%s", dir, jobs[i].name);
		char *p, rc[16];

		p = xasprintf("%s.out", base);
		write_file(p, jobs[i].out ? jobs[i].out : "", jobs[i].out_len);
		free(p);
		p = xasprintf("%s.err", base);
		write_file(p, jobs[i].err ? jobs[i].err : "", jobs[i].err_len);
		free(p);
		p = xasprintf("%s.rc", base);
		snprintf(rc, sizeof(rc), "%d\n", jobs[i].status);
		write_file(p, rc, strlen(rc));
		free(p);
		free(base);
	}
	if (res.kernel_problem || res.timed_out) {
		char *p = xasprintf("%s/kernel-problem", dir);
		const char *what = res.timed_out ? "VM timed out\n" : res.problem;

		write_file(p, what ? what : "kernel problem\n", strlen(what ? what : "kernel problem\n"));
		free(p);
	}
	if (res.console) {
		char *p = xasprintf("%s/console.log", dir);

		write_file(p, res.console, strlen(res.console));
		free(p);
	}
	for (i = 0; i < names.len; i++) {
		free(jobs[i].out);
		free(jobs[i].err);
		free((char *)jobs[i].module);
		free(names.items[i]);
	}
	free(jobs);
	vec_free(&names);
	vm_result_free(&res);
	return ret == 0 ? 0 : 1;
}
