// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * staprun: load a probe module, run its session, unload it.
 *
 *   staprun [-v] [-o FILE] [-s MB] [-c CMD | -x PID] MODULE.ko [name=value ...]
 *   staprun -d MODULE
 *
 * -c and -x name the target process, which the module sees as its
 * _stp_target parameter (target() in scripts).  -c CMD also runs CMD once
 * the begin probes are done and ends the session when CMD exits; -x PID
 * only names the process: the session runs regardless of its lifetime
 * (stap(1)).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "staprun.h"
#include "util.h"

int staprun_verbose;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: staprun [-v] [-o FILE] [-s MB] [-T SECS] [-c CMD | -x PID] MODULE.ko [name=value ...]\n"
		"       staprun -d MODULE\n"
		"  -v       say what staprun does (repeat for more)\n"
		"  -o FILE  write probe output to FILE instead of stdout (strftime(3)\n"
		"           conversions in FILE are expanded: out-%%Y%%m%%d.txt)\n"
		"  -s MB    relay buffer size in megabytes (1-4095)\n"
		"  -T SECS  end the session after SECS seconds\n"
		"  -c CMD   run CMD once the probes have started, end when it exits;\n"
		"           target() is its pid\n"
		"  -x PID   target() is PID\n"
		"  -d NAME  unload a module left behind by a previous run\n");
}

/* "a=1 b=x y" -> a=1 b="x y": the kernel splits parameters on spaces. */
static char *join_params(char **argv, int argc, unsigned int bufsize_mb,
			 pid_t target)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (sb.len)
			sb_putc(&sb, ' ');
		if (eq && strpbrk(eq, " \t"))
			sb_printf(&sb, "%.*s\"%s\"", (int)(eq - argv[i] + 1),
				  argv[i], eq + 1);
		else
			sb_puts(&sb, argv[i]);
	}
	if (bufsize_mb)
		sb_printf(&sb, "%s_stp_bufsize=%u", sb.len ? " " : "",
			  bufsize_mb);
	if (target)
		sb_printf(&sb, "%s_stp_target=%d", sb.len ? " " : "",
			  (int)target);
	return sb_steal(&sb);
}

struct options {
	const char *out_path;
	unsigned int bufsize_mb;
	unsigned int timeout_s;	/* -T; 0: none */
	const char *target_cmd;	/* -c */
	pid_t target_pid;	/* -x */
	char **params;		/* name=value ... */
	int nparams;
};

static int run(const char *path, const struct options *o)
{
	char *name = mod_name(path), *params = NULL;
	char *out_path = o->out_path ? util_output_path(o->out_path) : NULL;
	struct target t = { .pid = 0 };
	int out_fd = STDOUT_FILENO;
	int ret;

	ret = mod_mount_debugfs();
	if (ret)
		goto out;
	if (out_path) {
		out_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0666);
		if (out_fd < 0) {
			ret = -errno;
			util_err("output: cannot open %s: %s", out_path,
				 strerror(-ret));
			goto out;
		}
	}
	/* -c: the module needs the pid, so the child comes first. */
	if (o->target_cmd) {
		ret = target_fork(&t, o->target_cmd);
		if (ret)
			goto out;
	}
	params = join_params(o->params, o->nparams, o->bufsize_mb,
			     o->target_cmd ? t.pid : o->target_pid);
	ret = mod_load(path, name, params);
	if (ret)
		goto out;
	ret = session_run(name, out_fd, o->target_cmd ? &t : NULL, o->timeout_s);
	/* Whatever happened, leave no module behind. */
	if (mod_unload(name) && ret == 0)
		ret = 1;
out:
	/* A command that never started goes; one that runs is left alone. */
	target_reap(&t);
	target_abort(&t);
	if (out_fd != STDOUT_FILENO && out_fd >= 0 && close(out_fd) < 0 &&
	    ret == 0) {
		util_err("output: cannot write %s: %s", out_path,
			 strerror(errno));
		ret = 1;
	}
	free(params);
	free(name);
	free(out_path);
	return ret;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	const char *unload = NULL;
	char *end;
	long pid;
	int opt, ret;

	util_progname = "staprun";
	while ((opt = getopt(argc, argv, "+vo:s:T:d:c:x:h")) != -1) {
		switch (opt) {
		case 'v':
			staprun_verbose++;
			break;
		case 'o':
			o.out_path = optarg;
			break;
		case 's':
			errno = 0;
			o.bufsize_mb = strtoul(optarg, &end, 10);
			if (errno || *end || o.bufsize_mb < 1 || o.bufsize_mb > 4095) {
				util_err("-s: buffer size must be 1 to 4095 MB, not '%s'",
					 optarg);
				return 1;
			}
			break;
		case 'T':
			errno = 0;
			o.timeout_s = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || o.timeout_s < 1 ||
			    o.timeout_s > 86400 * 365) {
				util_err("-T: expected a number of seconds, not '%s'",
					 optarg);
				return 1;
			}
			break;
		case 'd':
			unload = optarg;
			break;
		case 'c':
			o.target_cmd = optarg;
			break;
		case 'x':
			errno = 0;
			pid = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || pid < 1 ||
			    pid > 0x3fffffff) {
				util_err("-x: expected a process id, not '%s'",
					 optarg);
				return 1;
			}
			o.target_pid = pid;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}

	if (unload) {
		char *name = mod_name(unload);

		ret = mod_unload(name);
		free(name);
		return ret ? 1 : 0;
	}
	if (optind >= argc) {
		usage(stderr);
		return 1;
	}
	if (o.target_cmd && o.target_pid) {
		util_err("-c and -x cannot be used together");
		return 1;
	}

	o.params = argv + optind + 1;
	o.nparams = argc - optind - 1;
	return run(argv[optind], &o) ? 1 : 0;
}
