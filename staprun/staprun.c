// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * staprun: load a probe module, run its session, unload it.
 *
 *   staprun [-v] [-o FILE] [-s MB] MODULE.ko [name=value ...]
 *   staprun -d MODULE
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
		"usage: staprun [-v] [-o FILE] [-s MB] MODULE.ko [name=value ...]\n"
		"       staprun -d MODULE\n"
		"  -v       say what staprun does (repeat for more)\n"
		"  -o FILE  write probe output to FILE instead of stdout\n"
		"  -s MB    relay buffer size in megabytes (1-4095)\n"
		"  -d NAME  unload a module left behind by a previous run\n");
}

/* "a=1 b=x y" -> a=1 b="x y": the kernel splits parameters on spaces. */
static char *join_params(char **argv, int argc, unsigned int bufsize_mb)
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
	return sb_steal(&sb);
}

static int run(const char *path, const char *params, const char *out_path)
{
	char *name = mod_name(path);
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
	ret = mod_load(path, name, params);
	if (ret)
		goto out;
	ret = session_run(name, out_fd);
	/* Whatever happened, leave no module behind. */
	if (mod_unload(name) && ret == 0)
		ret = 1;
out:
	if (out_fd != STDOUT_FILENO && out_fd >= 0 && close(out_fd) < 0 &&
	    ret == 0) {
		util_err("output: cannot write %s: %s", out_path,
			 strerror(errno));
		ret = 1;
	}
	free(name);
	return ret;
}

int main(int argc, char **argv)
{
	const char *out_path = NULL, *unload = NULL;
	unsigned int bufsize_mb = 0;
	char *params, *end;
	int opt, ret;

	util_progname = "staprun";
	while ((opt = getopt(argc, argv, "+vo:s:d:c:x:h")) != -1) {
		switch (opt) {
		case 'v':
			staprun_verbose++;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 's':
			errno = 0;
			bufsize_mb = strtoul(optarg, &end, 10);
			if (errno || *end || bufsize_mb < 1 || bufsize_mb > 4095) {
				util_err("-s: buffer size must be 1 to 4095 MB, not '%s'",
					 optarg);
				return 1;
			}
			break;
		case 'd':
			unload = optarg;
			break;
		case 'c':
		case 'x':
			util_err("-%c: not supported yet", opt);
			return 1;
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

	params = join_params(argv + optind + 1, argc - optind - 1, bufsize_mb);
	ret = run(argv[optind], params, out_path);
	free(params);
	return ret ? 1 : 0;
}
