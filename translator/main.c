// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stap: the driver.  Options in, then the pipeline, one call per pass:
 * parse (1), elaborate (2), translate to C (3), build the module (4), run
 * it (5).  -pN stops after pass N.
 */
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "stap.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/stap-ng"
#endif

static void usage(FILE *f)
{
	fprintf(f,
"Usage: stap [options] SCRIPT.stp [ARG ...]\n"
"       stap [options] -e 'SCRIPT' [ARG ...]\n"
"\n"
"Translates a SystemTap script into a kernel module, builds and runs it.\n"
"\n"
"Options:\n"
"  -e SCRIPT       run SCRIPT given on the command line\n"
"  -E SCRIPT       also run SCRIPT, beside the main script (repeatable;\n"
"                  its messages name it <input1>, <input2>, ...)\n"
"  -p NUM          stop after pass NUM: 1 parse, 2 elaborate, 3 translate\n"
"                  to C, 4 build the module, 5 run (default)\n"
"  -v              more verbose; repeat for more (-vv)\n"
"  --vp ABCDE      more verbose for each pass by its digit: --vp 0002 adds\n"
"                  2 to pass 4 only (added to -v's)\n"
"  -k              keep the temporary directory and print its path\n"
"  -g              guru mode: allow embedded C in the script\n"
"  -w              suppress warnings\n"
"  -W              treat warnings as errors\n"
"  -a ARCH         the target's architecture: x86_64 (amd64) only\n"
"  --modinfo NAME=VALUE  add NAME=VALUE to the module's information\n"
"                  (modinfo shows it; repeatable)\n"
"  --runtime=kernel  the runtime: kernel modules only (no bpf, dyninst)\n"
"  --monitor[=SECS]  print the probe table (hits, average cycles) every SECS\n"
"                  seconds (default 1) while the script runs\n"
"  --target-namespaces=PID  ns_pid() and the other ns_*() functions see the\n"
"                  pid and user namespaces of process PID (default: staprun's)\n"
"  --color[=WHEN]  color diagnostics: never, always (no WHEN) or auto (on a\n"
"                  terminal; the default); SYSTEMTAP_COLORS sets the colors\n"
"  -u              unoptimized: keep assignments to variables never read\n"
"                  and expressions without effects\n"
"  -m NAME         name the module NAME (pass 4 leaves NAME.ko here)\n"
"  --disable-cache  neither use nor fill the module cache ($SYSTEMTAP_DIR/cache,\n"
"                  default ~/.systemtap/cache; -p4 then leaves stap_KEY.ko here)\n"
"  --poison-cache  build again, ignoring the cache, and keep the result there\n"
"  --clean-cache   prune the cache to its cache_mb_limit file's MiB (256)\n"
"                  and exit\n"
"  -B NAME=VALUE   pass NAME=VALUE to the kernel module build's make\n"
"  -R DIR          the runtime sources are in DIR\n"
"  -r RELEASE      build for kernel RELEASE (/lib/modules/RELEASE/build)\n"
"  -o FILE         send the script's output to FILE (strftime(3) conversions\n"
"                  in FILE are expanded: out-%%Y%%m%%d.txt)\n"
"  -c CMD          run CMD once the probes have started, stop when it exits;\n"
"                  target() is its pid\n"
"  -x PID          target() is PID\n"
"  -s NUM          NUM megabytes of output buffer per CPU (default 16,\n"
"                  less with little free memory)\n"
"  -T SECS         end the script after SECS seconds\n"
"  -t              report each probe's hits and handler cycles at the end\n"
"  -b              bulk mode: one output file per CPU (FILE_N with -o, else\n"
"                  stpd_cpuN), for stap-merge to put back in time order\n"
"  -F              flight recorder: the output buffers overwrite their oldest\n"
"                  data; without -o, detach once started (staprun -A attaches),\n"
"                  with -o, write FILE from a staprun in the background\n"
"  -S SIZE[,N]     with -o: switch to the next file (FILE.0, FILE.1, ...)\n"
"                  before one passes SIZE megabytes; keep only the newest N\n"
"  -G NAME=VALUE   set the script's global NAME to VALUE when the module\n"
"                  loads (a number or a string of letters, digits, _.-)\n"
"  -I DIR          also look for tapsets in DIR\n"
"  -D NAME[=VAL]   define a C macro for the module (MAXACTION=..., ...)\n"
"  --skip-badvars   a target variable that cannot be found or read reads\n"
"                  as 0, without an error\n"
"  --no-global-var-display  do not print, when the script ends, the globals\n"
"                  it wrote but never read\n"
"  --compatible=VERSION  scripts see VERSION (4.8 or older) as systemtap_v,\n"
"                  for their %%( systemtap_v ... %%) conditionals\n"
"  --suppress-handler-errors  an error ends its probe handler silently (as\n"
"                  try/catch would); counted, it neither prints nor stops\n"
"                  the script\n"
"  --suppress-time-limits  (guru mode) no overload protection, MAXACTION\n"
"                  or MAXTRYLOCK: a handler may run as long as it likes\n"
"  -d MODULE       a user program or library (a path): put its symbols and\n"
"                  unwind data into the module for user backtraces; a kernel\n"
"                  module's name is accepted (kallsyms names its addresses)\n"
"  --ldd           -d for the shared libraries of the user files too\n"
"  --all-modules   accepted; kallsyms names kernel modules' addresses\n"
"  --dump-functions  list the tapset library's functions and exit\n"
"  --dump-probe-types  list the forms of probe point the translator takes\n"
"  --dump-probe-aliases  list the tapset library's probe aliases, each with\n"
"                  the points it stands for, and exit\n"
"  --dump-syscalls  list the system calls of the syscall.* aliases (name,\n"
"                  kernel name, x86-64 and ia32 numbers, prototype) and exit\n"
"                  (with -v: with a line of description each)\n"
"  --vm            run pass 5 in a QEMU VM booting the target kernel\n"
"                  (default kernel: the newest provisioned one; with\n"
"                  STAP_VM_BOOT=vmlinux set, its debuginfo vmlinux: a faster\n"
"                  boot, without KASLR)\n"
"  --vm-timeout=S  give the VM run S seconds (default 120)\n"
"  --vm-insmod=KO  load module KO in the VM before the script (repeatable);\n"
"                  module(\"NAME\") probes find NAME's debuginfo in KO\n"
"  --vm-spawn=PID:CMD  start CMD in the VM as process PID before the script,\n"
"                  for process(PID) probes (whose program is CMD's)\n"
"  --privilege[=stapusr|stapsys|stapdev]  refuse what the level may not use\n"
"                  (stapusr, also bare --privilege and --unprivileged: only\n"
"                  begin, end, error, never, process.* and timer probes,\n"
"                  unprivileged functions, no kernel memory; stapsys: no -g)\n"
"  --example       the script is one of SystemTap's examples, by file name\n"
"                  (stap --example iotop.stp)\n"
"  --rlimit-as=N, --rlimit-cpu=N, --rlimit-nproc=N, --rlimit-stack=N,\n"
"  --rlimit-fsize=N  limit stap (and the build it runs): bytes, seconds,\n"
"                  processes, bytes, bytes\n"
"  --save-uprobes  accepted: kernels since 3.5 have uprobes of their own\n"
"  -h, --help      show this help\n"
"  -V, --version   show the version\n"
"\n"
"Arguments after the script are its $1/@1, $2/@2, ...\n");
}

enum { OPT_VM = 1000, OPT_VM_TIMEOUT, OPT_VM_BATCH, OPT_VM_INSMOD, OPT_VM_SPAWN, OPT_DUMP_FUNCTIONS, OPT_DUMP_ALIASES, OPT_DUMP_SYSCALLS,
       OPT_ALL_MODULES, OPT_SUPPRESS_TIME_LIMITS, OPT_SKIP_BADVARS, OPT_SUPPRESS_ERRORS, OPT_COMPATIBLE, OPT_NO_GLOBAL_DISPLAY, OPT_RUNTIME, OPT_BPF, OPT_DYNINST, OPT_MODINFO, OPT_LDD, OPT_COLOR, OPT_MONITOR,
       OPT_TARGET_NS, OPT_KBUILD_DEFER, OPT_KBUILD_BATCH, OPT_DISABLE_CACHE, OPT_POISON_CACHE,
       OPT_CLEAN_CACHE, OPT_DUMP_TYPES, OPT_VP, OPT_RLIMIT, OPT_EXAMPLE, OPT_SAVE_UPROBES,
       OPT_LATER, OPT_PRIVILEGE };

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "vm", no_argument, NULL, OPT_VM },
	{ "vm-timeout", required_argument, NULL, OPT_VM_TIMEOUT },
	{ "vm-batch", required_argument, NULL, OPT_VM_BATCH },
	/* The test runner's, like --vm-batch: see build.c. */
	{ "kbuild-defer", required_argument, NULL, OPT_KBUILD_DEFER },
	{ "kbuild-batch", required_argument, NULL, OPT_KBUILD_BATCH },
	{ "vm-insmod", required_argument, NULL, OPT_VM_INSMOD },
	{ "vm-spawn", required_argument, NULL, OPT_VM_SPAWN },
	{ "dump-functions", no_argument, NULL, OPT_DUMP_FUNCTIONS },
	{ "dump-probe-aliases", no_argument, NULL, OPT_DUMP_ALIASES },
	{ "dump-probe-types", no_argument, NULL, OPT_DUMP_TYPES },
	{ "dump-syscalls", no_argument, NULL, OPT_DUMP_SYSCALLS },
	{ "all-modules", no_argument, NULL, OPT_ALL_MODULES },
	{ "suppress-time-limits", no_argument, NULL, OPT_SUPPRESS_TIME_LIMITS },
	{ "skip-badvars", no_argument, NULL, OPT_SKIP_BADVARS },
	{ "suppress-handler-errors", no_argument, NULL, OPT_SUPPRESS_ERRORS },
	{ "compatible", required_argument, NULL, OPT_COMPATIBLE },
	{ "no-global-var-display", no_argument, NULL, OPT_NO_GLOBAL_DISPLAY },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "modinfo", required_argument, NULL, OPT_MODINFO },
	{ "bpf", no_argument, NULL, OPT_BPF },
	{ "dyninst", no_argument, NULL, OPT_DYNINST },
	{ "ldd", no_argument, NULL, OPT_LDD },
	{ "monitor", optional_argument, NULL, OPT_MONITOR },
	{ "target-namespaces", required_argument, NULL, OPT_TARGET_NS },
	{ "color", optional_argument, NULL, OPT_COLOR },
	{ "disable-cache", no_argument, NULL, OPT_DISABLE_CACHE },
	{ "vp", required_argument, NULL, OPT_VP },
	{ "rlimit-as", required_argument, NULL, OPT_RLIMIT },
	{ "rlimit-cpu", required_argument, NULL, OPT_RLIMIT },
	{ "rlimit-nproc", required_argument, NULL, OPT_RLIMIT },
	{ "rlimit-stack", required_argument, NULL, OPT_RLIMIT },
	{ "rlimit-fsize", required_argument, NULL, OPT_RLIMIT },
	{ "example", no_argument, NULL, OPT_EXAMPLE },
	{ "save-uprobes", no_argument, NULL, OPT_SAVE_UPROBES },
	/* SystemTap's, not built yet: each says so (later_long[]). */
	{ "interactive", no_argument, NULL, OPT_LATER },
	{ "privilege", optional_argument, NULL, OPT_PRIVILEGE },
	{ "unprivileged", no_argument, NULL, OPT_PRIVILEGE },
	{ "use-server", optional_argument, NULL, OPT_LATER },
	{ "use-server-on-error", optional_argument, NULL, OPT_LATER },
	{ "list-servers", optional_argument, NULL, OPT_LATER },
	{ "trust-servers", optional_argument, NULL, OPT_LATER },
	{ "sign-module", optional_argument, NULL, OPT_LATER },
	{ "remote", required_argument, NULL, OPT_LATER },
	{ "remote-prefix", no_argument, NULL, OPT_LATER },
	{ "download-debuginfo", optional_argument, NULL, OPT_LATER },
	{ "sysroot", required_argument, NULL, OPT_LATER },
	{ "sysenv", required_argument, NULL, OPT_LATER },
	{ "prologue-searching", optional_argument, NULL, OPT_LATER },
	{ "check-version", no_argument, NULL, OPT_LATER },
	{ "poison-cache", no_argument, NULL, OPT_POISON_CACHE },
	{ "clean-cache", no_argument, NULL, OPT_CLEAN_CACHE },
	{ "colour", optional_argument, NULL, OPT_COLOR },
	{ NULL, 0, NULL, 0 },
};

/* SystemTap options we know but do not implement yet. */
static const char later_opts[] = "PCNUi";

/* -S SIZE[,N], checked here as staprun will check it. */
static bool valid_rotate(const char *arg)
{
	char *end;
	long mb, n = 0;

	errno = 0;
	mb = strtol(arg, &end, 10);
	if (!errno && end != arg && *end == ',')
		n = strtol(end + 1, &end, 10);
	return !errno && end != arg && !*end && mb >= 1 && mb <= 4095 &&
	       n >= 0 && n <= 1000000;
}

/* -G NAME=VALUE: SystemTap's safe set, as it goes to insmod unquoted. */
static bool valid_gvar(const char *arg)
{
	const char *v = strchr(arg, '=');

	if (!v || v == arg || isdigit((unsigned char)*arg) || !v[1])
		return false;
	for (const char *p = arg; p < v; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return strspn(v + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_.-") == strlen(v + 1);
}

static bool valid_module_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 55)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(name[i] == '_' || (name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= 'A' && name[i] <= 'Z') ||
		      (i > 0 && name[i] >= '0' && name[i] <= '9')))
			return false;
	return true;
}

static bool valid_define(const char *d)
{
	const char *p;

	if (!((*d >= 'A' && *d <= 'Z') || (*d >= 'a' && *d <= 'z') || *d == '_'))
		return false;
	for (p = d; *p && *p != '='; p++)
		if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	/* The value reaches make and the compiler: keep it to one word. */
	for (; *p; p++)
		if (*p == ' ' || *p == '\'' || *p == '"' || *p == '$' || *p == '\\' || *p == '#')
			return false;
	return true;
}

/* In-tree (./stap next to its sources) or installed. */
static void find_paths(struct session *s)
{
	char *dir = exe_dir();
	const char *env;

#ifdef ABS_BUILDDIR
	bool in_tree = !strcmp(dir, ABS_BUILDDIR);
#else
	bool in_tree = false;
#endif
	env = getenv("SYSTEMTAP_RUNTIME");
	if (s->runtime_opt)
		s->runtime_dir = s->runtime_opt;
	else if (env && *env)
		s->runtime_dir = env;
#ifdef ABS_SRCDIR
	else if (in_tree)
		s->runtime_dir = ABS_SRCDIR "/runtime";
#endif
	else
		s->runtime_dir = PKGDATADIR "/runtime";
	env = getenv("SYSTEMTAP_TAPSET");
	if (env && *env)
		s->tapset_dir = env;
#ifdef ABS_SRCDIR
	else if (in_tree)
		s->tapset_dir = ABS_SRCDIR "/tapsets";
#endif
	else
		s->tapset_dir = PKGDATADIR "/tapsets";
	/* In the build tree staprun is built in staprun/, the sources' dir. */
	env = getenv("SYSTEMTAP_STAPRUN");
	if (env && *env)
		s->staprun = env;
	else if (in_tree)
		s->staprun = arena_printf(&s->arena, "%s/staprun/staprun", dir);
	else
		s->staprun = arena_printf(&s->arena, "%s/staprun", dir);
	free(dir);
}

/* What to do instead, for each SystemTap option not built yet. */
static const struct {
	const char *name, *hint;
} later_long[] = {
	{ "interactive", "write the script to a file and run 'stap FILE'" },
	{ "use-server", "there is no compile server yet: stap builds modules here, "
	  "with the target kernel's headers (apt-get install linux-headers-RELEASE)" },
	{ "use-server-on-error", "there is no compile server yet: stap builds modules here" },
	{ "list-servers", "there is no compile server yet: stap builds modules here" },
	{ "trust-servers", "there is no compile server yet: stap builds modules here" },
	{ "sign-module", "there is no module signing yet: sign NAME.ko from -p4 -m NAME "
	  "with the kernel's scripts/sign-file" },
	{ "remote", "build with 'stap -p4 -r RELEASE -m NAME', copy NAME.ko to the "
	  "target and run it there with 'staprun NAME.ko'" },
	{ "remote-prefix", "build with 'stap -p4 -r RELEASE -m NAME', copy NAME.ko to "
	  "the target and run it there with 'staprun NAME.ko'" },
	{ "download-debuginfo", "install the kernel's debug symbols "
	  "(apt-get install linux-image-RELEASE-dbg)" },
	{ "sysroot", "a target's files under a sysroot are not looked up yet" },
	{ "sysenv", "a target's files under a sysroot are not looked up yet" },
	{ "prologue-searching", "function probes follow SystemTap's automatic rule: "
	  "past the prologue in unoptimized code only" },
	{ "check-version", "scripts may test %( systemtap_v < \"4.0\" %?...%) "
	  "themselves; --compatible=VERSION selects older behaviour" },
};

static void __attribute__((noreturn)) later_option(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(later_long); i++) {
		if (!strcmp(later_long[i].name, name)) {
			util_err("option '--%s' is not supported yet", name);
			fprintf(stderr, "hint: %s\n", later_long[i].hint);
			exit(1);
		}
	}
	util_die("option '--%s' is not supported yet", name);
}

/*
 * --example NAME: SystemTap's example scripts (stappaths(7)), found by
 * file name anywhere under the examples directory: ours, then
 * SystemTap's where it is installed.
 */
static const char *const example_dirs[] = { PKGDATADIR "/examples",
					     "/usr/share/systemtap/examples" };
static const char *example_name;
static char *example_found;

static int example_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (type == FTW_F && !strcmp(path + ftw->base, example_name)) {
		example_found = xstrdup(path);
		return 1;
	}
	return 0;
}

static const char *find_example(struct session *s, const char *name)
{
	struct strbuf dirs = STRBUF_INIT;

	example_name = name;
	for (size_t i = 0; i < ARRAY_SIZE(example_dirs) && !example_found; i++) {
		if (!is_dir(example_dirs[i]))
			continue;
		sb_printf(&dirs, "%s'%s'", dirs.len ? ", " : "", example_dirs[i]);
		if (!strchr(name, '/'))
			nftw(example_dirs[i], example_visit, 16, FTW_PHYS);
	}
	if (!example_found) {
		if (dirs.len)
			util_err("example '%s' was not found under %s", name, sb_str(&dirs));
		else
			util_err("no examples directory (%s or %s)", example_dirs[0],
				 example_dirs[1]);
		fprintf(stderr, "hint: give the script's file name alone (iotop.stp); "
			"SystemTap's examples come with Debian's systemtap-doc package\n");
		exit(1);
	}
	sb_free(&dirs);
	return arena_strdup(&s->arena, example_found);
}

/* --rlimit-NAME=NUM: the translator's limit, and its children's (kbuild's). */
static void set_rlimit(const char *opt, const char *arg)
{
	static const struct {
		const char *name;
		int res;
	} lims[] = {
		{ "rlimit-as", RLIMIT_AS }, { "rlimit-cpu", RLIMIT_CPU },
		{ "rlimit-nproc", RLIMIT_NPROC }, { "rlimit-stack", RLIMIT_STACK },
		{ "rlimit-fsize", RLIMIT_FSIZE },
	};
	struct rlimit rl;
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-')
		util_die("--%s takes a number, not '%s'", opt, arg);
	for (size_t i = 0; i < ARRAY_SIZE(lims); i++) {
		if (strcmp(lims[i].name, opt))
			continue;
		rl.rlim_cur = rl.rlim_max = (rlim_t)v;
		if (setrlimit(lims[i].res, &rl) < 0)
			util_die("--%s=%s: %s", opt, arg, strerror(errno));
		return;
	}
}

/*
 * getopt's '?': @arg is the word it stopped at, @opt its optopt (a short
 * option's letter, a long option's val, or 0 for an unknown long one).
 */
static void __attribute__((noreturn)) bad_option(const char *arg, int opt,
						  const char *optstring)
{
	const struct option *o;

	if (opt == 'i')
		later_option("interactive");
	if (opt == 'P')
		later_option("prologue-searching");
	if (opt > 0 && opt < 128 && strchr(later_opts, opt))
		util_die("option -%c is not supported yet", opt);
	for (o = long_opts; opt >= OPT_VM && o->name; o++)
		if (o->val == opt)
			util_die(o->has_arg ? "option '--%s' requires an argument" :
				 "option '--%s' takes no argument", o->name);
	if (opt > 0 && opt < 128 && strchr(optstring, opt) && strchr(optstring, opt)[1] == ':')
		util_die("option -%c requires an argument", opt);
	if (opt > 0 && opt < 128)
		util_err("unknown option '-%c'", opt);
	else
		util_err("unknown option '%s'", arg);
	fprintf(stderr, "hint: see stap --help\n");
	exit(1);
}

static void parse_options(struct session *s, int argc, char **argv)
{
	/*
	 * No '+': as SystemTap's, options may follow the script and its
	 * arguments (stap x.stp arg -T 3); "--" ends them.
	 */
	static const char optstring[] =
		"e:E:p:vkgm:r:o:I:D:B:R:hVWa:i" "c:x:l:L:s:btwuG:d:S:PC:T:FN:U";
	int c;
	char *end;
	bool suppress_time_limits = false;
	int longi = -1;

	s->last_pass = 5;
	s->vm_timeout = 120;
	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, long_opts, &longi)) != -1) {
		switch (c) {
		case 'e':
			s->script_text = optarg;
			break;
		case 'E':
			vec_push(&s->extra_scripts, optarg);
			break;
		case 'p':
			s->last_pass = (int)strtol(optarg, &end, 10);
			if (*end || s->last_pass < 1 || s->last_pass > 5)
				util_die("-p takes a pass number from 1 to 5, not '%s'", optarg);
			break;
		case 'v':
			s->verbose++;
			break;
		case OPT_VP:
			for (int i = 0; optarg[i]; i++) {
				if (i >= 5 || !isdigit((unsigned char)optarg[i]))
					util_die("--vp takes up to 5 digits, a verbosity for "
						 "each pass, not '%s'", optarg);
				s->vp[i] = optarg[i] - '0';
			}
			break;
		case 'R':
			s->runtime_opt = optarg;
			break;
		case OPT_RLIMIT:
			set_rlimit(long_opts[longi].name, optarg);
			break;
		case OPT_EXAMPLE:
			s->example = true;
			break;
		case OPT_SAVE_UPROBES:
			/* For kernels before 3.5, which had no uprobes of their own. */
			break;
		case OPT_PRIVILEGE:
			s->privilege = PRIV_STAPUSR;	/* --unprivileged, bare --privilege */
			if (optarg) {
				int i = 0;

				while (i <= PRIV_STAPUSR && strcmp(optarg, priv_names[i]))
					i++;
				if (i > PRIV_STAPUSR)
					util_die("--privilege=%s: not a privilege level (stapusr, "
						 "stapsys or stapdev)", optarg);
				s->privilege = i;
			}
			break;
		case OPT_LATER:
			later_option(long_opts[longi].name);
		case 'k':
			s->keep_tmp = true;
			break;
		case 'g':
			s->guru = true;
			break;
		case 'w':
			s->no_warnings = true;
			break;
		case 'W':
			s->warnings_are_errors = true;
			break;
		case 'u':
			s->unoptimized = true;
			break;
		case 't':
			s->timing = true;
			break;
		case 'b':
			s->bulk = true;
			break;
		case 'F':
			s->flight = true;
			break;
		case 'S':
			if (!valid_rotate(optarg))
				util_die("-S takes SIZE[,N]: megabytes per output file (1-4095), "
					 "then how many files to keep; not '%s'", optarg);
			s->rotate = optarg;
			break;
		case 'm':
			if (!valid_module_name(optarg))
				util_die("invalid module name '%s': use letters, digits and '_' "
					 "(at most 55, not starting with a digit)", optarg);
			s->module_name = optarg;
			s->module_named = true;
			break;
		case 'B':
			vec_push(&s->make_args, optarg);
			break;
		case OPT_DISABLE_CACHE:
			s->cache_mode = CACHE_OFF;
			break;
		case OPT_POISON_CACHE:
			if (s->cache_mode == CACHE_ON)
				s->cache_mode = CACHE_WRITE;
			break;
		case OPT_CLEAN_CACHE:
			s->clean_cache = true;
			break;
		case 'r':
			s->release = optarg;
			break;
		case 's':
			/* staprun's limit: the module parameter is in MB. */
			if (util_parse_int(optarg, 1, 4095, &s->bufsize_mb))
				util_die("-s takes a buffer size in megabytes (1-4095), not '%s'",
					 optarg);
			break;
		case 'T':
			if (util_parse_int(optarg, 1, 86400 * 365, &s->timeout_s))
				util_die("-T takes a number of seconds, not '%s'", optarg);
			break;
		case 'o':
			s->output_file = optarg;
			break;
		case 'I':
			vec_push(&s->include_dirs, optarg);
			break;
		case 'D':
			if (!valid_define(optarg))
				util_die("invalid -D '%s': expected NAME or NAME=VALUE, "
					 "VALUE without spaces or quotes", optarg);
			vec_push(&s->defines, optarg);
			break;
		case 'G':
			if (!valid_gvar(optarg))
				util_die("invalid -G '%s': expected NAME=VALUE, VALUE of letters, "
					 "digits, '_', '.' and '-'", optarg);
			if (s->gvars.len == 64)
				util_die("too many -G options (at most 64)");
			vec_push(&s->gvars, optarg);
			break;
		case 'c':	/* checked now, before any pass runs */
			if (s->target_pid)
				util_die("-c and -x cannot be used together");
			if (run_check_target_cmd(optarg) < 0)
				exit(1);
			s->target_cmd = optarg;
			break;
		case 'x':
			if (s->target_cmd)
				util_die("-c and -x cannot be used together");
			if (util_parse_int(optarg, 1, 0x3fffffff,	/* PID_MAX_LIMIT */
					   &s->target_pid))
				util_die("-x takes a process id, not '%s'", optarg);
			break;
		case 'l':
		case 'L':	/* list matching probe points instead of running */
			s->list_pattern = optarg;
			s->list_vars = c == 'L';
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("stap-ng %s, a SystemTap-compatible translator\n"
			       "License: GPL-2.0-or-later\n", PACKAGE_VERSION);
			exit(0);
		case 'd':
			vec_push(&s->sym_modules, optarg);
			break;
		case OPT_ALL_MODULES:
			s->all_modules = true;
			break;
		case OPT_MODINFO: {
			/* A C identifier, as MODULE_INFO() takes it. */
			const char *eq = strchr(optarg, '=');
			size_t n = eq ? (size_t)(eq - optarg) : 0;

			if (!n || strspn(optarg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789_") != n || isdigit((unsigned char)optarg[0]))
				util_die("--modinfo '%s': expected NAME=VALUE, NAME of letters, "
					 "digits and '_'", optarg);
			vec_push(&s->modinfo, optarg);
			break;
		}
		case OPT_BPF:
		case OPT_DYNINST:
		case OPT_RUNTIME: {
			const char *rt = c == OPT_BPF ? "bpf" : c == OPT_DYNINST ? "dyninst" : optarg;

			if (!strcmp(rt, "bpf") || !strcmp(rt, "dyninst"))
				util_die("the %s runtime is not supported: stap-ng builds kernel "
					 "modules only (--runtime=kernel)", rt);
			if (strcmp(rt, "kernel"))
				util_die("--runtime=%s: not a runtime (kernel, bpf or dyninst)", rt);
			break;
		}
		case 'a':
			/* -a ARCH: the target's; ours is the host's, x86_64 only. */
			if (strcmp(optarg, "x86_64") && strcmp(optarg, "amd64"))
				util_die("-a %s: stap-ng builds x86_64 modules only", optarg);
			break;
		case OPT_NO_GLOBAL_DISPLAY:
			s->no_global_display = true;
			break;
		case OPT_COMPATIBLE:
			/* What scripts see as systemtap_v; not past ours. */
			if (strverscmp(optarg, "4.8") > 0)
				util_die("--compatible=%s: this stap is compatible with SystemTap "
					 "4.8, not a later version", optarg);
			s->compatible = optarg;
			break;
		case OPT_SUPPRESS_ERRORS:
			s->suppress_handler_errors = true;
			break;
		case OPT_SKIP_BADVARS:
			s->skip_badvars = true;
			break;
		case OPT_SUPPRESS_TIME_LIMITS:
			suppress_time_limits = true;
			break;
		case OPT_LDD:
			s->ldd = true;
			break;
		case OPT_DUMP_ALIASES:
			s->dump_aliases = true;
			break;
		case OPT_DUMP_TYPES:
			s->dump_types = true;
			break;
		case OPT_DUMP_FUNCTIONS:
			s->dump_functions = true;
			break;
		case OPT_DUMP_SYSCALLS:
			s->dump_syscalls = true;
			break;
		case OPT_TARGET_NS:	/* staprun -N: looked up where the module loads */
			if (util_parse_int(optarg, 1, 0x3fffffff, &s->namespaces_pid))
				util_die("--target-namespaces takes a process id, not '%s'", optarg);
			break;
		case OPT_MONITOR:
			/* SystemTap's default interval: one second. */
			s->monitor_s = 1;
			if (optarg && util_parse_int(optarg, 1, 86400, &s->monitor_s))
				util_die("--monitor takes seconds between updates, not '%s'",
					 optarg);
			break;
		case OPT_COLOR: {
			/* SystemTap's: no WHEN means always. */
			int when = optarg ? util_color_when(optarg) : UTIL_COLOR_ALWAYS;

			if (when < 0)
				util_die("--color takes never, always or auto, not '%s'", optarg);
			util_color_set(when);
			s->color = when == UTIL_COLOR_ALWAYS ? "always" :
				   when == UTIL_COLOR_NEVER ? "never" : "auto";
			break;
		}
		case OPT_VM:
			s->vm = true;
			break;
		case OPT_VM_TIMEOUT:
			s->vm_timeout = (int)strtol(optarg, &end, 10);
			if (*end || s->vm_timeout <= 0)
				util_die("--vm-timeout takes a number of seconds, not '%s'", optarg);
			break;
		case OPT_VM_INSMOD:	/* checked now: a typo should not cost a build */
			if (run_check_insmod(optarg) < 0)
				exit(1);
			vec_push(&s->vm_insmod, optarg);
			break;
		case OPT_VM_SPAWN:
			if (run_check_spawn(optarg, &s->vm_spawn_pid, &s->vm_spawn_cmd) < 0)
				exit(1);
			break;
		case OPT_VM_BATCH:
			s->vm = true;
			s->script_file = NULL;
			s->tmpdir = optarg;	/* see main() */
			s->last_pass = 0;
			break;
		case OPT_KBUILD_DEFER:
			s->kbuild_defer = optarg;
			break;
		case OPT_KBUILD_BATCH:
			s->script_file = NULL;
			s->kbuild_batch = optarg;
			break;
		case '?':
			bad_option(argv[optind - 1], optopt, optstring);
		default:	/* a SystemTap option not implemented */
			bad_option(argv[optind - 1], c, optstring);
		}
	}
	/*
	 * SystemTap 4.8 wants -g before this option; -g anywhere will do.
	 * stp_limits.h turns the one define into all three limits' absence.
	 */
	if (suppress_time_limits) {
		if (!s->guru)
			util_die("--suppress-time-limits requires guru mode (-g)");
		vec_push(&s->defines, "STP_SUPPRESS_TIME_LIMITS");
	}
	if (s->timing || s->monitor_s)	/* -t's report; --monitor's table */
		vec_push(&s->defines, "STP_TIMING");
	if (s->bulk)
		vec_push(&s->defines, "STP_BULKMODE");
	if (s->flight)
		vec_push(&s->defines, "STP_FLIGHT");
	if (s->guru && s->privilege != PRIV_STAPDEV)
		util_die("-g and --privilege=%s cannot be used together",
			 priv_names[s->privilege]);
	if (s->rotate && !s->output_file)
		util_die("-S needs -o FILE: the files to switch between");
	if (s->kbuild_defer && s->last_pass != 4)
		util_die("--kbuild-defer goes with -p4");
	if (s->last_pass == 0 || s->kbuild_batch)
		return;
	if (s->list_pattern || s->dump_functions || s->dump_aliases || s->dump_syscalls ||
	    s->dump_types || s->clean_cache)
		return;
	if (!s->script_text) {
		if (optind >= argc) {
			util_err("no script given");
			fprintf(stderr, "hint: stap SCRIPT.stp, or stap -e 'probe begin { ... }'; see stap --help\n");
			exit(1);
		}
		s->script_file = argv[optind++];
		if (s->example)
			s->script_file = find_example(s, s->script_file);
	}
	for (; optind < argc; optind++)
		vec_push(&s->args, argv[optind]);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* Pass 2's -v line: what the module will hold, counted as SystemTap does. */
static const char *analyzed_what(struct session *s)
{
	int embeds = 0;
	const struct node *e;

	for (e = s->user.embedded; e; e = e->next)
		embeds++;
	for (int i = 0; i < s->tapset_files.len; i++) {
		struct program *p = s->tapset_files.items[i];
		bool used = false;

		for (struct func *f = p->funcs; f && !used; f = f->next)
			used = f->used;
		for (e = used ? p->embedded : NULL; e; e = e->next)
			embeds++;
	}
	return arena_printf(&s->arena, "analyzed script: %d probe%s, %d function%s, "
			    "%d embed%s, %d global%s",
			    s->probes.len, plural(s->probes.len), s->funcs.len,
			    plural(s->funcs.len), embeds, plural(embeds),
			    s->globals.len, plural(s->globals.len));
}

/* Where a pass started: for -v's figures, as SystemTap prints them. */
struct pass_clock {
	long real_ms;
	struct rusage self, kids;
};

/* Pass N starts: its verbosity is -v's plus its --vp digit. */
static void pass_start(struct session *s, int pass, struct pass_clock *pc)
{
	s->verbose = s->verbose_v + s->vp[pass - 1];
	pc->real_ms = now_ms();
	getrusage(RUSAGE_SELF, &pc->self);
	getrusage(RUSAGE_CHILDREN, &pc->kids);
}

static long tv_ms(const struct timeval *a, const struct timeval *b)
{
	return (b->tv_sec - a->tv_sec) * 1000L + (b->tv_usec - a->tv_usec) / 1000;
}

/*
 * "Pass N: WHAT using Vvirt/Rres/Sshr/Ddata kb, in Uusr/Ssys/Rreal ms."
 * (memory from /proc/self/statm, CPU time ours and our children's, such
 * as kbuild's); pass 4 and 5 leave the memory out, as SystemTap does.
 */
static void pass_done(struct session *s, int pass, const char *what,
		      const struct pass_clock *pc)
{
	struct rusage self, kids;
	unsigned long long v = 0, r = 0, sh = 0, text, lib, data = 0;
	long page_kb = sysconf(_SC_PAGESIZE) / 1024;
	FILE *f;

	if (!s->verbose)
		return;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	fprintf(stderr, "Pass %d: %s", pass, what);
	if (pass < 4 && (f = fopen("/proc/self/statm", "r"))) {
		if (fscanf(f, "%llu %llu %llu %llu %llu %llu", &v, &r, &sh, &text, &lib,
			   &data) == 6)
			fprintf(stderr, " using %lluvirt/%llures/%llushr/%lludata kb,",
				v * page_kb, r * page_kb, sh * page_kb, data * page_kb);
		fclose(f);
	}
	fprintf(stderr, " in %ldusr/%ldsys/%ldreal ms.\n",
		tv_ms(&pc->self.ru_utime, &self.ru_utime) +
		tv_ms(&pc->kids.ru_utime, &kids.ru_utime),
		tv_ms(&pc->self.ru_stime, &self.ru_stime) +
		tv_ms(&pc->kids.ru_stime, &kids.ru_stime),
		now_ms() - pc->real_ms);
}

static void choose_release(struct session *s)
{
	static struct utsname u;

	if (s->release)
		return;
	if (s->vm) {
		char *r = run_newest_provisioned_release();

		if (!r) {
			util_err("--vm found no provisioned kernel (/boot/vmlinuz-R with "
				 "/lib/modules/R/build)");
			fprintf(stderr, "hint: run ./bootstrap.sh to install the test kernels\n");
			exit(1);
		}
		s->release = arena_strdup(&s->arena, r);
		free(r);
		return;
	}
	uname(&u);
	s->release = u.release;
}

static int finish(struct session *s, int status)
{
	if (s->tmpdir && s->last_pass > 2) {
		if (s->keep_tmp)
			fprintf(stderr, "Keeping temporary directory \"%s\"\n", s->tmpdir);
		else
			rm_rf(s->tmpdir);
	}
	session_free(s);
	return status;
}

int main(int argc, char **argv)
{
	struct session sess = { 0 }, *s = &sess;
	struct strbuf out = STRBUF_INIT;
	struct pass_clock t0;
	int status;

	util_progname = "stap";
	setvbuf(stdout, NULL, _IOLBF, 0);
	parse_options(s, argc, argv);
	s->verbose_v = s->verbose;
	s->verbose += s->vp[0];	/* before pass 1: the library's listings */
	find_paths(s);
	choose_release(s);
	if (s->list_pattern)
		return finish(s, list_probes(s, s->list_pattern, s->list_vars));
	if (s->dump_functions)
		return finish(s, dump_functions(s));
	if (s->dump_aliases)
		return finish(s, dump_probe_aliases(s));
	if (s->dump_types)
		return finish(s, dump_probe_types(s));
	if (s->dump_syscalls)
		return finish(s, sc_dump(s));
	if (s->clean_cache)
		return finish(s, cache_clean(s));
	if (s->kbuild_batch)
		return kbuild_batch(s, s->kbuild_batch) ? 1 : 0;
	if (s->last_pass == 0)	/* --vm-batch */
		return run_vm_batch(s, s->tmpdir);

	/* Pass 1: parse (library macros first: scripts may use them). */
	pass_start(s, 1, &t0);
	if (pp_load_library_macros(s, s->tapset_dir) < 0)
		return finish(s, 1);
	s->user_file = s->script_text ?
		source_from_string(s, "<input>", s->script_text) :
		source_load(s, s->script_file);
	if (!s->user_file || parse_file(s, s->user_file, &s->user) < 0)
		return finish(s, 1);
	for (int i = 0; i < s->extra_scripts.len; i++) {
		struct srcfile *f = source_from_string(s, arena_printf(&s->arena, "<input%d>", i + 1),
						       s->extra_scripts.items[i]);

		if (!f || parse_file(s, f, &s->user) < 0)
			return finish(s, 1);
	}
	if (s->last_pass > 1 && session_index_tapsets(s) < 0)
		return finish(s, 1);
	pass_done(s, 1, arena_printf(&s->arena, "parsed user script and %d library scripts",
				     session_tapset_count(s)), &t0);
	if (s->last_pass == 1) {
		ast_print_program(&out, &s->user);
		fputs(sb_str(&out), stdout);
		sb_free(&out);
		return finish(s, 0);
	}

	/* -T SECS: the script ends itself, as SystemTap's does, by a timer. */
	if (s->timeout_s) {
		struct srcfile *f = source_from_string(s, "<-T>", arena_printf(&s->arena,
			"probe timer.s(%d) { exit() }", s->timeout_s));

		if (!f || parse_file(s, f, &s->user) < 0)
			return finish(s, 1);
	}

	/* Pass 2: elaborate. */
	pass_start(s, 2, &t0);
	if (sem_elaborate(s) < 0 || priv_check(s) < 0)
		return finish(s, 1);
	pass_done(s, 2, analyzed_what(s), &t0);
	if (s->last_pass == 2) {
		sem_print(s, &out);
		fputs(sb_str(&out), stdout);
		sb_free(&out);
		return finish(s, 0);
	}

	/* Pass 3: translate to C. */
	pass_start(s, 3, &t0);
	if (check_gvars(s) < 0)
		return finish(s, 1);
	s->tmpdir = make_temp_dir("stap");
	if (!s->tmpdir)
		util_die("cannot create a temporary directory: %s", strerror(errno));
	if (emit_program(s) < 0)
		return finish(s, 1);
	pass_done(s, 3, arena_printf(&s->arena, "translated to C into \"%s/stp_script.c\"",
				     s->tmpdir), &t0);
	if (s->last_pass == 3) {
		fputs(sb_str(&s->c_code), stdout);
		return finish(s, 0);
	}

	/* Pass 4: build the module. */
	pass_start(s, 4, &t0);
	status = build_module(s);
	if (status < 0)
		return finish(s, 1);
	if (status > 0)		/* --kbuild-defer: kbuild_batch builds it */
		return finish(s, 0);
	/* A hit has no timing, as SystemTap's line has none. */
	if (s->cached_ko && s->cached_ko == s->module_path && s->verbose)
		fprintf(stderr, "Pass 4: using cached %s\n", s->cached_ko);
	else
		pass_done(s, 4, arena_printf(&s->arena, "compiled C into \"%s.ko\"",
					     s->module_name), &t0);
	if (s->last_pass == 4) {
		char *dst;
		int ret;

		/* As SystemTap's: the cache's copy, unless -m asks for NAME.ko here. */
		if (s->cached_ko && !s->module_named) {
			printf("%s\n", s->cached_ko);
			return finish(s, 0);
		}
		dst = xasprintf("%s.ko", s->module_name);
		ret = copy_file(s->module_path, dst);

		if (ret < 0) {
			util_err("cannot write %s: %s", dst, strerror(-ret));
			free(dst);
			return finish(s, 1);
		}
		printf("%s\n", dst);
		free(dst);
		return finish(s, 0);
	}

	/* Pass 5: run. */
	pass_start(s, 5, &t0);
	if (s->verbose)
		fprintf(stderr, "Pass 5: starting run.\n");
	status = run_module(s);
	pass_done(s, 5, status ? "run failed" : "run completed", &t0);
	return finish(s, status);
}
