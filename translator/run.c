// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 5: run the module with staprun, on this host or inside a VM that
 * boots the target kernel (--vm).
 *
 * -c CMD and -x PID go to staprun as they are.  In a VM the command must
 * exist in the guest: its program (found in PATH here, as staprun would
 * find it) is copied in with its shared libraries, and the guest gets the
 * command with the program's absolute path, its words quoted.  staprun
 * splits CMD with wordexp(3) and hands shell syntax to /bin/sh -c; so do
 * we, and a shell command is passed on untouched (busybox's sh runs it).
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
#include <wordexp.h>

#include "stap.h"
#include "vm.h"


/*
 * Split CMD as staprun will.  Returns 1 for a command that needs a shell,
 * 0 with *we filled (caller wordfree()s), or -1 with a message that
 * starts with opt (the option that gave CMD: "-c", "--vm-spawn").
 */
static int split_cmd(const char *cmd, wordexp_t *we, const char *opt)
{
	switch (wordexp(cmd, we, WRDE_NOCMD)) {
	case 0:
		if (we->we_wordc > 0)
			return 0;
		wordfree(we);
		util_err("%s: empty command", opt);
		return -1;
	case WRDE_BADCHAR:
	case WRDE_CMDSUB:
		return 1;
	case WRDE_NOSPACE:
		wordfree(we);
		/* fall through */
	default:
		util_err("%s: cannot parse '%s' (unbalanced quotes?)", opt, cmd);
		return -1;
	}
}

/* The absolute path of the program PROG names, or NULL with a message. */
static char *find_program(const char *prog, const char *opt)
{
	char *path;

	if (!strchr(prog, '/')) {
		path = vm_which(prog);
		if (!path)
			util_err("%s: cannot find '%s' in PATH", opt, prog);
		else if (path[0] != '/') {	/* an empty or relative PATH entry */
			char *abs = realpath(path, NULL);

			free(path);
			path = abs;
		}
		return path;
	}
	if (access(prog, X_OK) < 0) {
		util_err("%s: cannot run '%s': %s", opt, prog, strerror(errno));
		return NULL;
	}
	path = prog[0] == '/' ? xstrdup(prog) : realpath(prog, NULL);
	if (!path)
		util_err("%s: cannot resolve '%s': %s", opt, prog, strerror(errno));
	return path;
}

static int check_cmd(const char *cmd, const char *opt)
{
	wordexp_t we;
	char *path;
	int ret = split_cmd(cmd, &we, opt);

	if (ret)
		return ret < 0 ? -1 : 0;
	path = find_program(we.we_wordv[0], opt);
	wordfree(&we);
	free(path);
	return path ? 0 : -1;
}

int run_check_target_cmd(const char *cmd)
{
	return check_cmd(cmd, "-c");
}

int run_check_spawn(const char *arg, int *pid, const char **cmd)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end != ':' || n <= 1 || n > 0x3fffffff) {
		util_err("--vm-spawn: expected PID:CMD (PID above 1), not '%s'", arg);
		return -1;
	}
	/* exec'ed as it is, to keep the pid: a program and its arguments. */
	if (check_cmd(end + 1, "--vm-spawn") < 0)
		return -1;
	if (strpbrk(end + 1, "|&;<>()$`\\\"'*?[#~=%{}\n")) {
		util_err("--vm-spawn: '%s' is not a plain command: give a program and its "
			 "arguments, without shell syntax", end + 1);
		return -1;
	}
	*pid = (int)n;
	*cmd = end + 1;
	return 0;
}

int run_check_insmod(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!vm_module_suffix(base) || strlen(base) == vm_module_suffix(base)) {
		util_err("--vm-insmod: '%s' is not a kernel module file (NAME.ko or NAME.ko.xz)",
			 path);
		return -1;
	}
	if (access(path, R_OK) < 0) {
		util_err("--vm-insmod: cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * PATH with its directory's symbolic links resolved, the file name kept
 * (multi-call programs look at it): on a merged-/usr host /bin/true
 * becomes /usr/bin/true, so it does not replace busybox's /bin/true in
 * the guest, which /init uses.
 */
static char *canonical_dir(char *path)
{
	char *slash = strrchr(path, '/'), *dir, *res;

	*slash = '\0';
	dir = realpath(*path ? path : "/", NULL);
	*slash = '/';
	if (!dir)
		return path;
	res = xasprintf("%s%s", strcmp(dir, "/") ? dir : "", slash);
	free(dir);
	free(path);
	return res;
}

/*
 * CMD for the guest's staprun, and in *prog the host program to copy in
 * (NULL for a shell command).  NULL with a message if CMD is unusable.
 */
static char *guest_cmd(const char *cmd, char **prog)
{
	struct strbuf sb = STRBUF_INIT;
	wordexp_t we;
	size_t i;
	int ret = split_cmd(cmd, &we, "-c");	/* checked with the option */

	*prog = NULL;
	if (ret)
		return ret < 0 ? NULL : xstrdup(cmd);
	*prog = find_program(we.we_wordv[0], "-c");
	if (*prog) {
		*prog = canonical_dir(*prog);
		vm_sh_quote(&sb, *prog);
		for (i = 1; i < we.we_wordc; i++) {
			sb_putc(&sb, ' ');
			vm_sh_quote(&sb, we.we_wordv[i]);
		}
	}
	wordfree(&we);
	return *prog ? sb_steal(&sb) : NULL;
}

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

/* Room for the numbers of session_opts' options. */
struct opt_bufs {
	char mb[16], secs[16], nspid[16];
};

/*
 * staprun's options for stap's -s, -S, -w, -F, --color, --monitor and
 * --target-namespaces, appended at args; returns how many (at most 12).
 * staprun(8) spells -s as -b and --target-namespaces as -N.
 */
static int session_opts(struct session *s, char **args, struct opt_bufs *b)
{
	int n = 0;

	if (s->bufsize_mb) {
		snprintf(b->mb, sizeof(b->mb), "%d", s->bufsize_mb);
		args[n++] = "-b";
		args[n++] = b->mb;
	}
	if (s->rotate) {
		args[n++] = "-S";
		args[n++] = (char *)s->rotate;
	}
	if (s->no_warnings)
		args[n++] = "-w";
	if (s->flight)	/* stap(1): detach, or with -o run in the background */
		args[n++] = s->output_file ? "-D" : "-L";
	if (s->color) {
		args[n++] = "-C";
		args[n++] = (char *)s->color;
	} else if (s->vm && util_color("error")) {
		/* auto: the guest's stderr is a serial line; ours decides. */
		args[n++] = "-C";
		args[n++] = "always";
	}
	if (s->monitor_s) {
		snprintf(b->secs, sizeof(b->secs), "%d", s->monitor_s);
		args[n++] = "-M";
		args[n++] = b->secs;
	}
	if (s->namespaces_pid) {
		snprintf(b->nspid, sizeof(b->nspid), "%d", s->namespaces_pid);
		args[n++] = "-N";
		args[n++] = b->nspid;
	}
	return n;
}

/*
 * input.char/input.line read staprun's stdin, which in the VM is a file:
 * a script with a procfs("__stdin") probe gets ours, read to its end
 * first (so piped input works; typing does not reach the guest).  The
 * file's path (malloc'ed) or NULL.
 */
static char *vm_stdin_file(struct session *s)
{
	struct strbuf in = STRBUF_INIT;
	char buf[65536], *path = NULL;
	bool reads = false;
	ssize_t n;

	for (int i = 0; i < s->probes.len && !reads; i++)
		reads = !strcmp(((struct resolved_probe *)s->probes.items[i])->pp,
				"procfs(\"__stdin\").write");
	if (!reads)
		return NULL;
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0)
		sb_add(&in, buf, (size_t)n);
	path = xasprintf("%s/stdin", s->tmpdir);
	if (write_file(path, in.buf ? in.buf : "", in.len) < 0) {
		util_err("cannot write %s: %s", path, strerror(errno));
		free(path);
		path = NULL;
	}
	sb_free(&in);
	return path;
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
	const char *files[3] = { NULL, NULL, NULL };
	char *args[16] = { NULL }, *cmd = NULL, *spawn = NULL, pid[16];
	struct opt_bufs so;
	int nargs = 0;
	struct vec insmod = VEC_INIT;
	int ret, status;

	if (s->vm_insmod.len) {
		for (int i = 0; i < s->vm_insmod.len; i++)
			vec_push(&insmod, s->vm_insmod.items[i]);
		vec_push(&insmod, NULL);
		job.insmod = (const char *const *)insmod.items;
	}

	if (s->flight && s->output_file) {
		util_err("-F with -o runs staprun in the background, which a VM run cannot wait for");
		fprintf(stderr, "hint: use -F without -o in a VM, or run on the host\n");
		return 1;
	}
	cfg.files = files;
	if (s->vm_spawn_pid) {
		spawn = guest_cmd(s->vm_spawn_cmd, (char **)&files[1]);
		if (!spawn)
			return 1;
		job.spawn_pid = s->vm_spawn_pid;
		job.spawn_cmd = spawn;
	}
	if (s->target_cmd) {
		cmd = guest_cmd(s->target_cmd, (char **)&files[0]);
		if (!cmd) {
			free(spawn);
			free((char *)files[1]);
			return 1;
		}
		args[nargs++] = "-c";
		args[nargs++] = cmd;
	} else if (s->target_pid) {
		snprintf(pid, sizeof(pid), "%d", s->target_pid);
		args[nargs++] = "-x";
		args[nargs++] = pid;
	}
	nargs += session_opts(s, args + nargs, &so);
	if (nargs)
		job.staprun_args = args;
	if (s->gvars.len) {
		vec_push(&s->gvars, NULL);	/* the list ends here for good */
		job.module_params = (char **)s->gvars.items;
	}
	job.stdin_file = vm_stdin_file(s);
	/* -T: the VM must outlive the script's own time limit. */
	if (s->timeout_s && cfg.timeout_s < s->timeout_s + 60)
		cfg.timeout_s = s->timeout_s + 60;
	if (!files[0]) {	/* no -c: the list must not end before the spawned program */
		files[0] = files[1];
		files[1] = NULL;
	}
	ret = vm_run(&cfg, &job, 1, &res);
	free((char *)job.stdin_file);
	vec_free(&insmod);
	free(cmd);
	free(spawn);
	free((char *)files[0]);
	free((char *)files[1]);
	/* A timeout or an oops is reported through res as well as ret. */
	if (ret < 0 && !res.timed_out && !res.kernel_problem) {
		vm_result_free(&res);
		return 1;
	}
	status = job.status;
	if (s->output_file && job.out) {
		/* staprun would have expanded strftime conversions at its open. */
		char *out = util_output_path(s->output_file);

		/* A full disk is an error, never silent loss. */
		if (write_file(out, job.out, job.out_len) < 0) {
			util_err("cannot write %s: %s", out, strerror(errno));
			status = 1;
		}
		free(out);
		fwrite(job.err, 1, job.err_len, stderr);
	}
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
	char *argv[20 + 64], target_pid[16];	/* staprun, options, module, -G values */
	struct opt_bufs so;
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
	if (s->vm_insmod.len) {
		util_err("--vm-insmod loads modules only in the VM (--vm)");
		fprintf(stderr, "hint: load %s with insmod first, then run stap without "
			"--vm-insmod\n", (const char *)s->vm_insmod.items[0]);
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
	if (s->target_cmd) {
		argv[argc++] = "-c";
		argv[argc++] = (char *)s->target_cmd;
	} else if (s->target_pid) {
		snprintf(target_pid, sizeof(target_pid), "%d", s->target_pid);
		argv[argc++] = "-x";
		argv[argc++] = target_pid;
	}
	argc += session_opts(s, argv + argc, &so);
	argv[argc++] = s->module_path;
	for (int i = 0; i < s->gvars.len; i++)
		argv[argc++] = s->gvars.items[i];
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

/* Add prog (malloc'd, or NULL) to files unless it is there: taken. */
static void add_file(struct vec *files, char *prog)
{
	for (int i = 0; prog && i < files->len; i++)
		if (!strcmp(files->items[i], prog)) {
			free(prog);
			return;
		}
	if (prog)
		vec_push(files, prog);
}

/*
 * DIR/NAME.staprun-args, if present: staprun options for one batch job,
 * one per line (so "-c" then "CMD with spaces").  A -c command is made
 * ready for the guest and its program added to files; "-G" then
 * NAME=VALUE goes to *params, for after the module.  NULL if there are
 * none, (char **)-1 with a message if they are unusable.
 */
static char **batch_job_args(const char *dir, const char *name,
			     struct vec *files, char ***params)
{
	char *p = xasprintf("%s/%s.staprun-args", dir, name), *line, *save;
	struct strbuf sb = STRBUF_INIT;
	struct vec args = VEC_INIT, gvars = VEC_INIT;
	int i, bad = 0;

	if (read_file(p, &sb) < 0) {
		free(p);
		return NULL;
	}
	for (line = strtok_r(sb.buf, "\n", &save); line && !bad;
	     line = strtok_r(NULL, "\n", &save)) {
		bool cmd = args.len && !strcmp(args.items[args.len - 1], "-c");
		char *prog = NULL, *arg;

		if (args.len && !strcmp(args.items[args.len - 1], "-G")) {
			free(args.items[--args.len]);
			vec_push(&gvars, xstrdup(line));
			continue;
		}
		arg = cmd ? guest_cmd(line, &prog) : xstrdup(line);

		if (!arg) {
			util_err("%s: unusable -c command", p);
			bad = 1;
			break;
		}
		vec_push(&args, arg);
		add_file(files, prog);
	}
	sb_free(&sb);
	free(p);
	if (bad) {
		for (i = 0; i < args.len; i++)
			free(args.items[i]);
		for (i = 0; i < gvars.len; i++)
			free(gvars.items[i]);
		vec_free(&args);
		vec_free(&gvars);
		return (char **)-1;
	}
	if (gvars.len) {
		vec_push(&gvars, NULL);
		*params = (char **)gvars.items;
	}
	if (!args.len) {
		vec_free(&args);
		return NULL;
	}
	vec_push(&args, NULL);
	return (char **)args.items;
}

/*
 * DIR/NAME.spawn, if present: the job's --vm-spawn PID:CMD, one line; its
 * program is added to files.  0 if there is none or it is usable, else
 * -1 after a message.
 */
static int batch_job_spawn(const char *dir, struct vm_job *job, struct vec *files)
{
	char *p = xasprintf("%s/%s.spawn", dir, job->name), *prog = NULL;
	struct strbuf sb = STRBUF_INIT;
	const char *cmd;
	int ret = 0;

	if (read_file(p, &sb) < 0)
		goto out;
	sb.buf[strcspn(sb.buf, "\n")] = '\0';
	if (run_check_spawn(sb.buf, &job->spawn_pid, &cmd) < 0 ||
	    !(job->spawn_cmd = guest_cmd(cmd, &prog))) {
		util_err("%s: unusable --vm-spawn", p);
		job->spawn_pid = 0;
		ret = -1;
		goto out;
	}
	add_file(files, prog);
out:
	sb_free(&sb);
	free(p);
	return ret;
}

/*
 * DIR/NAME.files, if present: more host files the job's programs use (a
 * program another execs), one path a line, copied into the guest at the
 * same path with their shared libraries.
 */
static void batch_job_files(const char *dir, const char *name, struct vec *files)
{
	char *p = xasprintf("%s/%s.files", dir, name), *line, *save;
	struct strbuf sb = STRBUF_INIT;

	if (read_file(p, &sb) == 0)
		for (line = strtok_r(sb.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			add_file(files, xstrdup(line));
	sb_free(&sb);
	free(p);
}

/*
 * DIR/NAME.insmod, if present: the .ko files to load before job NAME, one
 * path a line (--vm-insmod).  NULL if none, (char **)-1 after a message.
 */
static const char **batch_job_insmod(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s.insmod", dir, name), *line, *save;
	struct strbuf sb = STRBUF_INIT;
	struct vec mods = VEC_INIT;
	int bad = 0;

	if (read_file(p, &sb) < 0) {
		free(p);
		return NULL;
	}
	for (line = strtok_r(sb.buf, "\n", &save); line && !bad;
	     line = strtok_r(NULL, "\n", &save)) {
		bad = run_check_insmod(line) < 0;
		vec_push(&mods, xstrdup(line));
	}
	sb_free(&sb);
	if (bad)
		util_err("%s: unusable module to load", p);
	free(p);
	if (bad) {
		for (int i = 0; i < mods.len; i++)
			free(mods.items[i]);
		vec_free(&mods);
		return (const char **)-1;
	}
	vec_push(&mods, NULL);
	return (const char **)mods.items;
}

/*
 * --vm-batch DIR: run every DIR/NAME.ko in one boot (the VM test suite's
 * engine), each with the staprun options in DIR/NAME.staprun-args, the
 * modules to load first in DIR/NAME.insmod, the process to start first in
 * DIR/NAME.spawn, the extra files in DIR/NAME.files and DIR/NAME.stdin as
 * its stdin, if those exist.  Writes DIR/NAME.out, NAME.err and NAME.rc,
 * NAME.crashed if the guest kernel died during it (the jobs after it then
 * run in a new boot), NAME.hung if it was still running after
 * job_timeout_s twice (likewise), DIR/kernel-problem if the kernel complained, and
 * DIR/emulator-problem for a death vm.c takes for the emulator's.
 * Returns 0 if the VM ran.
 */
int run_vm_batch(struct session *s, const char *dir)
{
	struct vm_config cfg = {
		.release = s->release,
		.staprun = s->staprun,
		.timeout_s = s->vm_timeout,
		.verbose = s->verbose >= 2,
		/* A kernel that dies in one test costs that test, not the batch. */
		.reboots = 3,
		/*
		 * A test that hangs the guest costs that test too, not the
		 * whole batch's timeout.  A whole kernel's run/ tests take
		 * 150-210 s under TCG, the slowest of them well under 60 s.
		 */
		.job_timeout_s = 120,
	};
	struct vm_result res = { 0 };
	struct vec names = VEC_INIT, files = VEC_INIT;
	struct vm_job *jobs;
	DIR *d = opendir(dir);
	struct dirent *e;
	char *stdin_path;
	int i, ret = 0;

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
		jobs[i].staprun_args = batch_job_args(dir, names.items[i], &files,
						      &jobs[i].module_params);
		if (jobs[i].staprun_args == (char **)-1) {
			jobs[i].staprun_args = NULL;
			ret = -EINVAL;
		}
		batch_job_files(dir, names.items[i], &files);
		if (batch_job_spawn(dir, &jobs[i], &files) < 0)
			ret = -EINVAL;
		jobs[i].insmod = batch_job_insmod(dir, names.items[i]);
		if (jobs[i].insmod == (const char **)-1) {
			jobs[i].insmod = NULL;
			ret = -EINVAL;
		}
		stdin_path = xasprintf("%s/%s.stdin", dir, (char *)names.items[i]);
		if (access(stdin_path, R_OK) == 0)
			jobs[i].stdin_file = stdin_path;
		else
			free(stdin_path);
	}
	vec_push(&files, NULL);
	cfg.files = (const char **)files.items;
	if (ret != -EINVAL)
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
		if (jobs[i].crashed) {
			p = xasprintf("%s.%s", base, jobs[i].hung ? "hung" : "crashed");
			write_file(p, "", 0);
			free(p);
		}
		free(base);
	}
	if (res.kernel_problem || res.timed_out) {
		char *p = xasprintf("%s/kernel-problem", dir);
		const char *what = res.problem ? res.problem
				 : res.timed_out ? "VM timed out\n" : "kernel problem\n";

		write_file(p, what, strlen(what));
		free(p);
	}
	if (res.emulator_problem) {
		char *p = xasprintf("%s/emulator-problem", dir);

		write_file(p, res.emulator_problem, strlen(res.emulator_problem));
		free(p);
	}
	if (res.console) {
		char *p = xasprintf("%s/console.log", dir);

		write_file(p, res.console, strlen(res.console));
		free(p);
	}
	for (i = 0; i < names.len; i++) {
		for (int j = 0; jobs[i].staprun_args && jobs[i].staprun_args[j]; j++)
			free(jobs[i].staprun_args[j]);
		free(jobs[i].staprun_args);
		for (int j = 0; jobs[i].module_params && jobs[i].module_params[j]; j++)
			free(jobs[i].module_params[j]);
		free(jobs[i].module_params);
		free((char *)jobs[i].spawn_cmd);
		for (int j = 0; jobs[i].insmod && jobs[i].insmod[j]; j++)
			free((char *)jobs[i].insmod[j]);
		free((void *)jobs[i].insmod);
		free(jobs[i].out);
		free(jobs[i].err);
		free((char *)jobs[i].module);
		free((char *)jobs[i].stdin_file);
		free(names.items[i]);
	}
	for (i = 0; i < files.len; i++)
		free(files.items[i]);
	vec_free(&files);
	free(jobs);
	vec_free(&names);
	vm_result_free(&res);
	return ret == 0 ? 0 : 1;
}
