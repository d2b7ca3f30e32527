// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * staprun: load a probe module, run its session, unload it.
 *
 *   staprun [OPTIONS] MODULE.ko [name=value ...]	(staprun(8)'s letters)
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
#include <limits.h>
#include <signal.h>
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
		"usage: staprun [OPTIONS] MODULE.ko [name=value ...]\n"
		"       staprun -d MODULE\n"
		"  -v        say what staprun does (repeat for more)\n"
		"  -V        print the version and exit\n"
		"  -w        suppress the script's warnings\n"
		"  -u        accepted: uprobes are part of the kernel\n"
		"  -c CMD    run CMD once the probes have started, end when it exits;\n"
		"            target() is its pid\n"
		"  -x PID    target() is PID\n"
		"  -N PID    ns_pid() and the other ns_*() functions see the pid and\n"
		"            user namespaces of PID (stap --target-namespaces)\n"
		"  -o FILE   write probe output to FILE instead of stdout (strftime(3)\n"
		"            conversions in FILE are expanded: out-%%Y%%m%%d.txt); in bulk\n"
		"            mode (stap -b) one file per CPU, FILE_N\n"
		"  -b MB     buffer size in megabytes per CPU (1-4095)\n"
		"  -S SIZE[,N]  with -o: switch to the next file (FILE.0, FILE.1, ...)\n"
		"            before one passes SIZE megabytes; keep only the newest N\n"
		"  -T MS     longest wait in milliseconds between reads (default 200)\n"
		"  -L        start the probes, then detach and leave them running\n"
		"  -A        attach to MODULE, running detached (-L)\n"
		"  -D        run the session in the background (with -o), print its pid\n"
		"  -C WHEN   color ERROR and WARNING: never, always or auto (on a terminal)\n"
		"  -R        load the module under a name of its own (NAME_PID)\n"
		"  -M SECS   print the probe table (hits, cycles) every SECS seconds\n"
		"            (a module built with stap --monitor or -t)\n"
		"  -r N:URI  this run is number N of stap --remote, on URI (remote_id(),\n"
		"            remote_uri())\n"
		"  -d        unload MODULE, left behind by a previous run; '*' (quoted):\n"
		"            every probe module no staprun is attached to\n"
		"  name=value  set the script's global name (stap -G)\n");
}

struct options {
	struct output_cfg out;	/* -o, -S, and bulk mode (the module's) */
	unsigned int bufsize_mb;
	int tick_ms;		/* -T */
	enum session_mode mode;	/* -L, -A */
	bool daemon;		/* -D */
	bool rename;		/* -R */
	int monitor_s;		/* -M */
	const char *remote;	/* -r N:URI */
	bool no_warnings;	/* -w */
	const char *target_cmd;	/* -c */
	pid_t target_pid;	/* -x */
	pid_t ns_pid;		/* -N */
	char **params;		/* name=value ... */
	int nparams;
};

/*
 * The module's parameters: the script's name=value ("a=1 b=x y" ->
 * a=1 b="x y": the kernel splits parameters on spaces), then staprun's.
 */
static char *join_params(const struct options *o, pid_t target)
{
	char **argv = o->params;
	int argc = o->nparams;
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
	if (o->bufsize_mb)
		sb_printf(&sb, "%s_stp_bufsize=%u", sb.len ? " " : "",
			  o->bufsize_mb);
	if (target)
		sb_printf(&sb, "%s_stp_target=%d", sb.len ? " " : "",
			  (int)target);
	if (o->remote)	/* N:URI, checked: the URI has no quote */
		sb_printf(&sb, "%s_stp_remote_id=%d _stp_remote_uri=\"%s\"",
			  sb.len ? " " : "", atoi(o->remote), strchr(o->remote, ':') + 1);
	if (o->ns_pid)
		sb_printf(&sb, "%s_stp_namespaces_pid=%d", sb.len ? " " : "",
			  (int)o->ns_pid);
	return sb_steal(&sb);
}


/* stap -b built the module for bulk mode: it says so in a parameter. */
static bool module_bulk(const char *name)
{
	char *path = xasprintf("/sys/module/%s/parameters/_stp_bulkmode", name);
	FILE *f = fopen(path, "r");
	int c = f ? fgetc(f) : 'N';

	if (f)
		fclose(f);
	free(path);
	return c == 'Y' || c == '1';
}

/*
 * -D: the session goes on in a child of its own session, detached from
 * the terminal; the parent prints its pid.  Returns 0 in the child, the
 * child's pid in the parent, -1 (message printed) if fork failed.
 */
static int daemonize(void)
{
	pid_t pid;
	int fd;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		util_err("-D: cannot fork: %s", strerror(errno));
		return -1;
	}
	if (pid > 0) {
		printf("%d\n", (int)pid);
		return pid;
	}
	setsid();
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	return 0;
}

/*
 * A SIGINT, SIGTERM, SIGHUP or SIGQUIT before the session: no session,
 * no module left behind, exit status 1, as SystemTap 4.8's staprun does
 * while it loads the module.  Sets *ret to 1 if so.
 */
static bool stopped_early(int *ret)
{
	if (!signals_stop())
		return false;
	if (staprun_verbose)
		util_err("a signal came before the session started: stopping");
	*ret = 1;
	return true;
}

static int run(const char *path, struct options *o)
{
	char *name = mod_name(path), *params = NULL;
	struct target t = { .pid = 0 };
	bool detached = false;
	struct session_cfg sc = { .mode = o->mode, .detached = &detached,
				  .out = &o->out, .tick_ms = o->tick_ms,
				  .no_warnings = o->no_warnings,
				  .monitor_s = o->monitor_s };
	int ret;

	ret = mod_mount_debugfs();
	if (ret || stopped_early(&ret))
		goto out;
	if (o->mode == SESSION_ATTACH) {
		if (!mod_loaded(name)) {
			util_err("cannot attach: no module %s is loaded", name);
			ret = 1;
			goto out;
		}
		o->out.bulk = module_bulk(name);
		ret = session_run(name, &sc);
		goto unload;
	}
	/* -c: the module needs the pid, so the child comes first. */
	if (o->target_cmd) {
		ret = target_fork(&t, o->target_cmd);
		if (ret)
			goto out;
		sc.target = &t;
	}
	params = join_params(o, o->target_cmd ? t.pid : o->target_pid);
	if (o->rename) {
		/* A name of its own, so that the same module can run twice. */
		char *unique = xasprintf("%.*s_%d", 40, name, (int)getpid());

		ret = mod_load_renamed(path, name, unique, params);
		free(name);
		name = unique;
	} else {
		ret = mod_load(path, name, params);
	}
	if (ret)
		goto out;
	if (stopped_early(&ret))
		goto unload;
	o->out.bulk = module_bulk(name);
	if (o->daemon) {
		ret = daemonize();
		if (ret) {	/* the parent, or a failed fork */
			detached = ret > 0;
			ret = ret > 0 ? 0 : 1;
			goto unload;
		}
	}
	if (o->out.bulk && o->out.rotate_bytes) {
		util_err("-S: a bulk-mode module (stap -b) writes one file per CPU, "
			 "which are not rotated");
		ret = 1;
	} else {
		ret = session_run(name, &sc);
	}
unload:
	/* Whatever happened, leave no module behind, unless -L detached. */
	if (!detached && mod_unload(name) && ret == 0)
		ret = 1;
out:
	/* A command that never started goes; one that runs is left alone. */
	target_reap(&t);
	target_abort(&t);
	free(params);
	free(name);
	return ret;
}

/* -S SIZE[,N]: SIZE megabytes a file, N files kept (0: all). */
static int parse_rotate(const char *arg, struct output_cfg *out)
{
	char *end;
	unsigned long mb, n = 0;

	errno = 0;
	mb = strtoul(arg, &end, 10);
	if (!errno && *end == ',')
		n = strtoul(end + 1, &end, 10);
	if (errno || *end || end == arg || mb < 1 || mb > 4095 || n > 1000000) {
		util_err("-S: expected SIZE[,N] (megabytes 1-4095, then how many files "
			 "to keep), not '%s'", arg);
		return -1;
	}
	out->rotate_bytes = (unsigned long long)mb << 20;
	out->rotate_keep = n;
	return 0;
}


int main(int argc, char **argv)
{
	struct options o = { .tick_ms = 200 };
	bool unload = false;
	char *end;
	long num;
	int opt, ret, pid;

	util_progname = "staprun";
	opterr = 0;
	while ((opt = getopt(argc, argv, "+vVwuc:x:o:b:S:T:dhN:LAC:M:DRr:")) != -1) {
		switch (opt) {
		case 'v':
			staprun_verbose++;
			break;
		case 'V':
			printf("staprun (stap-ng) %s\n", PACKAGE_VERSION);
			return 0;
		case 'w':
			o.no_warnings = true;
			break;
		case 'u':	/* staprun(8) loads uprobes.ko; the kernel has them */
			break;
		case 'o':
			o.out.path = optarg;
			break;
		case 'b':
			errno = 0;
			o.bufsize_mb = strtoul(optarg, &end, 10);
			if (errno || *end || o.bufsize_mb < 1 || o.bufsize_mb > 4095) {
				util_err("-b: buffer size must be 1 to 4095 MB, not '%s'",
					 optarg);
				return 1;
			}
			break;
		case 'S':
			if (parse_rotate(optarg, &o.out))
				return 1;
			break;
		case 'T':
			if (util_parse_int(optarg, 1, 3600000, &o.tick_ms)) {
				util_err("-T: expected milliseconds between reads, not '%s'",
					 optarg);
				return 1;
			}
			break;
		case 'd':
			unload = true;
			break;
		case 'L':
			o.mode = SESSION_DETACH;
			break;
		case 'A':
			o.mode = SESSION_ATTACH;
			break;
		case 'D':
			o.daemon = true;
			break;
		case 'R':
			o.rename = true;
			break;
		case 'M':
			if (util_parse_int(optarg, 1, 86400, &o.monitor_s)) {
				util_err("-M takes the seconds between probe tables, not '%s'",
					 optarg);
				return 1;
			}
			break;
		case 'r':	/* N:URI, for remote_id() and remote_uri() */
			errno = 0;
			num = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end != ':' || num < 0 || num > INT_MAX ||
			    strpbrk(end + 1, "\"\n")) {
				util_err("-r takes N:URI (N from 0), not '%s'", optarg);
				return 1;
			}
			o.remote = optarg;
			break;
		case 'C':
			num = util_color_when(optarg);
			if (num < 0) {
				util_err("-C takes never, always or auto, not '%s'", optarg);
				return 1;
			}
			util_color_set(num);
			break;
		case 'c':
			o.target_cmd = optarg;
			break;
		case 'x':
		case 'N':
			if (util_parse_int(optarg, 1, 0x3fffffff, &pid)) {
				util_err("-%c: expected a process id, not '%s'", opt, optarg);
				return 1;
			}
			if (opt == 'x')
				o.target_pid = pid;
			else
				o.ns_pid = pid;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			if (optopt && strchr("cxobSTNCMr", optopt))
				util_err("-%c requires an argument", optopt);
			else
				util_err("unknown option '-%c'", optopt);
			usage(stderr);
			return 1;
		}
	}

	if (optind >= argc) {
		usage(stderr);
		return 1;
	}
	if (unload && !strcmp(argv[optind], "*"))	/* staprun(8): all unused */
		return mod_mount_debugfs() || mod_unload_unused() ? 1 : 0;
	if (unload) {
		char *name = mod_name(argv[optind]);

		ret = mod_mount_debugfs() ? 1 : mod_unload_zombie(name);
		free(name);
		return ret;
	}
	if (o.target_cmd && o.target_pid) {
		util_err("-c and -x cannot be used together");
		return 1;
	}
	if (o.ns_pid && kill(o.ns_pid, 0) && errno == ESRCH) {
		util_err("-N %d: no such process", (int)o.ns_pid);
		return 1;
	}
	if (o.mode == SESSION_DETACH && o.target_cmd) {
		util_err("-L detaches at once: it cannot wait for a -c command");
		return 1;
	}
	if (o.mode == SESSION_ATTACH &&
	    (o.target_cmd || o.target_pid || o.ns_pid || argc - optind > 1 ||
	     o.bufsize_mb || o.rename)) {
		util_err("-A attaches to a running module: -c, -x, -N, -b, -R and name=value "
			 "were given when it was loaded");
		return 1;
	}
	if (o.daemon && (!o.out.path || o.target_cmd || o.mode != SESSION_RUN)) {
		util_err("-D runs the session in the background: it needs -o FILE, "
			 "and no -c, -L or -A");
		return 1;
	}
	if (o.out.rotate_bytes && !o.out.path) {
		util_err("-S needs -o FILE: the files to switch between");
		return 1;
	}

	o.params = argv + optind + 1;
	o.nparams = argc - optind - 1;
	/*
	 * Before anything loads (not for -d, which a Ctrl-C may still cut
	 * short): a signal while the module loads waits for run() to act.
	 */
	signals_init();
	return run(argv[optind], &o) ? 1 : 0;
}
