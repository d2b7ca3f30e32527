// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 5 in a QEMU (TCG) virtual machine; see vm.h.
 *
 * The guest boots the host's /boot/vmlinuz-R (the compressed image, so
 * KASLR is on as on real machines; see boot_image) with an initramfs we
 * write ourselves (newc cpio):
 *
 *   base archive (cached):  busybox, staprun, cfg->files and the shared
 *                           libraries ldd lists for them, /dev/console
 *   job archive (per run):  /jobs/NAME/MODULE.ko, the job's --vm-insmod
 *                           modules as /jobs/NAME/insmod/I/M.ko, and /init
 *
 * The kernel unpacks concatenated archives, so the initrd is the cached
 * base followed by the job archive.  /init runs each job's staprun with
 * stdout on ttyS1 and stderr on ttyS2 (raw mode, so bytes pass unchanged)
 * and talks to us on ttyS3: it writes "BOOTED", one "STATUS name rc" per
 * job, then the kernel log; it reads "INT" (our Ctrl-C, passed on).
 * ttyS0-2 go to files that we follow while QEMU runs; ttyS3 is a pair of
 * FIFOs.
 *
 * Framing: every job's output on ttyS1/ttyS2 sits between
 *   "\001S:<nonce>:<name>\n"  and  "\001E:<nonce>\n"
 * where the nonce is random per run, so no job output can fake a marker.
 * The end marker starts with \001 rather than "\n" so that output lacking
 * a final newline is kept as is, and so that streaming rarely has to hold
 * back bytes that might begin a marker.
 */
#include "vm.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#define VM_CACHE_VERSION "1"	/* bump when the base archive layout changes */
#define VM_POLL_MS 30
/* After "Kernel panic", how long QEMU gets to reboot (end) by itself. */
#define VM_PANIC_GRACE_MS 5000

enum { CH_CONSOLE, CH_OUT, CH_ERR, CH_CTL, CH_MAX };
static const char *const chan_file[CH_MAX] = {
	"console.log", "stdout.log", "stderr.log", "control.out",
};

static long vm_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* ---- finding things on the host ---- */

char *vm_which(const char *name)
{
	const char *path = getenv("PATH");
	const char *p, *end;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	for (p = path; ; p = end + 1) {
		char *cand;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		cand = xasprintf("%.*s/%s", (int)(end - p),
				 end > p ? p : ".", name);
		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (!*end)
			return NULL;
	}
}

/*
 * Append to @libs the shared libraries (and the dynamic loader) that ldd
 * lists for @path.  Static executables and scripts have none.
 */
int vm_ldd(const char *path, struct vec *libs)
{
	char *argv[] = { "ldd", (char *)path, NULL };
	struct strbuf out = STRBUF_INIT;
	char *line, *save = NULL;
	int ret = run_cmd(argv, NULL, &out, 30);

	if (ret < 0) {
		util_err("ldd: cannot run on %s: %s", path, strerror(-ret));
		goto out;
	}
	ret = 0;	/* "not a dynamic executable" exits 1: no libraries */
	for (line = strtok_r(out.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *arrow = strstr(line, "=> "), *lib, *sp;

		if (strstr(line, "not found")) {
			util_err("ldd: %s: shared library missing:%s", path,
				 line);
			ret = -ENOENT;
			goto out;
		}
		/* "libc.so.6 => /lib/.../libc.so.6 (0x..)" or "/lib64/ld.so (0x..)" */
		lib = arrow ? arrow + 3 : line + strspn(line, " \t");
		if (*lib != '/')
			continue;	/* linux-vdso.so.1 */
		sp = strchr(lib, ' ');
		vec_push(libs, sp ? xstrndup(lib, (size_t)(sp - lib))
				  : xstrdup(lib));
	}
out:
	sb_free(&out);
	return ret;
}

/* ---- newc cpio writer ---- */

struct cpio {
	struct strbuf sb;
	struct vec dirs;	/* directories already emitted */
	unsigned ino;
};

static void cpio_pad(struct cpio *c)
{
	while (c->sb.len % 4)
		sb_putc(&c->sb, '\0');
}

static void cpio_entry(struct cpio *c, const char *name, unsigned mode,
		       unsigned rmaj, unsigned rmin, const void *data,
		       size_t len)
{
	/* magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor,
	 * devminor, rdevmajor, rdevminor, namesize, check */
	sb_printf(&c->sb, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		  ++c->ino, mode, 0, 0, S_ISDIR(mode) ? 2 : 1, 0, len, 0, 0,
		  rmaj, rmin, strlen(name) + 1, 0);
	sb_add(&c->sb, name, strlen(name) + 1);
	cpio_pad(c);
	if (len)
		sb_add(&c->sb, data, len);
	cpio_pad(c);
}

/* Emit every missing parent directory of @path ("a/b/c": "a", "a/b"). */
static void cpio_parents(struct cpio *c, const char *path)
{
	const char *s;

	for (s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
		char *dir = xstrndup(path, (size_t)(s - path));
		int i, seen = 0;

		for (i = 0; i < c->dirs.len && !seen; i++)
			seen = !strcmp(c->dirs.items[i], dir);
		if (seen) {
			free(dir);
			continue;
		}
		cpio_entry(c, dir, S_IFDIR | 0755, 0, 0, NULL, 0);
		vec_push(&c->dirs, dir);
	}
}

static void cpio_dir(struct cpio *c, const char *path)
{
	char *slashed = xasprintf("%s/", path);

	cpio_parents(c, slashed);
	free(slashed);
}

static void cpio_data(struct cpio *c, const char *path, unsigned perm,
		      const void *data, size_t len)
{
	cpio_parents(c, path);
	cpio_entry(c, path, S_IFREG | perm, 0, 0, data, len);
}

/* Host file @from at guest path @to (no leading '/'), keeping its mode. */
static int cpio_file(struct cpio *c, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int ret;

	if (stat(from, &st) < 0) {
		ret = -errno;
		util_err("vm: cannot stat %s: %s", from, strerror(errno));
		return ret;
	}
	ret = read_file(from, &sb);
	if (ret < 0) {
		util_err("vm: cannot read %s: %s", from, strerror(-ret));
		goto out;
	}
	cpio_data(c, to, st.st_mode & 07777, sb_str(&sb), sb.len);
out:
	sb_free(&sb);
	return ret;
}

static void cpio_finish(struct cpio *c)
{
	cpio_entry(c, "TRAILER!!!", 0, 0, 0, NULL, 0);
	/* Conventional: archives end on a 512-byte boundary. */
	while (c->sb.len % 512)
		sb_putc(&c->sb, '\0');
}

static void cpio_free(struct cpio *c)
{
	int i;

	for (i = 0; i < c->dirs.len; i++)
		free(c->dirs.items[i]);
	vec_free(&c->dirs);
	sb_free(&c->sb);
}

/* ---- the base archive: busybox, staprun, extra files, libraries ---- */

static void hash_stat(uint64_t *h, const char *path)
{
	struct stat st;

	*h = hash_bytes(*h, path, strlen(path) + 1);
	if (stat(path, &st) == 0) {
		*h = hash_bytes(*h, &st.st_size, sizeof(st.st_size));
		*h = hash_bytes(*h, &st.st_mtim, sizeof(st.st_mtim));
		*h = hash_bytes(*h, &st.st_ino, sizeof(st.st_ino));
	}
}

/*
 * Cache key: staprun's content, the identity of busybox and the extra
 * files, and /etc/ld.so.cache, which ldconfig rewrites whenever a library
 * package changes, so upgraded libraries give a new base.
 */
static uint64_t base_key(const struct vm_config *cfg, const char *busybox)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t h = HASH_INIT;
	int i;

	h = hash_bytes(h, VM_CACHE_VERSION, strlen(VM_CACHE_VERSION));
	if (read_file(cfg->staprun, &sb) == 0)
		h = hash_bytes(h, sb_str(&sb), sb.len);
	sb_free(&sb);
	hash_stat(&h, cfg->staprun);
	hash_stat(&h, busybox);
	hash_stat(&h, "/etc/ld.so.cache");
	for (i = 0; cfg->files && cfg->files[i]; i++)
		hash_stat(&h, cfg->files[i]);
	return h;
}

static int build_base(const struct vm_config *cfg, const char *busybox,
		      struct strbuf *out)
{
	struct cpio c = { STRBUF_INIT, VEC_INIT, 0 };
	struct vec libs = VEC_INIT, done = VEC_INIT;
	int i, j, ret;

	cpio_dir(&c, "dev");
	cpio_entry(&c, "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0);
	for (i = 0; i < 8; i++) {
		static const char *const dirs[] = {
			"proc", "sys", "tmp", "run", "root", "jobs",
			"var/run", "sbin",
		};
		cpio_dir(&c, dirs[i]);
	}
	ret = cpio_file(&c, busybox, "bin/busybox");
	if (!ret)	/* busybox-static has none, but a plain busybox works too */
		ret = vm_ldd(busybox, &libs);
	if (!ret)
		ret = cpio_file(&c, cfg->staprun, "bin/staprun");
	if (!ret)
		ret = vm_ldd(cfg->staprun, &libs);
	for (i = 0; !ret && cfg->files && cfg->files[i]; i++) {
		const char *f = cfg->files[i];

		if (f[0] != '/') {
			util_err("vm: %s: extra files need an absolute path",
				 f);
			ret = -EINVAL;
			break;
		}
		ret = cpio_file(&c, f, f + 1);
		if (!ret)
			ret = vm_ldd(f, &libs);
	}
	/* Each library once, at the path ldd gave. */
	for (i = 0; !ret && i < libs.len; i++) {
		int seen = 0;

		for (j = 0; j < done.len && !seen; j++)
			seen = !strcmp(done.items[j], libs.items[i]);
		if (seen)
			continue;
		vec_push(&done, libs.items[i]);
		ret = cpio_file(&c, libs.items[i],
				(char *)libs.items[i] + 1);
	}
	if (!ret) {
		cpio_finish(&c);
		sb_add(out, c.sb.buf, c.sb.len);
	}
	for (i = 0; i < libs.len; i++)
		free(libs.items[i]);
	vec_free(&libs);
	vec_free(&done);
	cpio_free(&c);
	return ret;
}

/*
 * Every staprun rebuild makes a new base archive: drop those not used for
 * VM_CACHE_DAYS (a hit refreshes the file's mtime).
 */
#define VM_CACHE_DAYS 3
static void prune_cache(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	time_t old = time(NULL) - VM_CACHE_DAYS * 24 * 3600;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *f;
		struct stat st;

		if (strncmp(e->d_name, "base-", 5))
			continue;
		f = xasprintf("%s/%s", dir, e->d_name);
		if (stat(f, &st) == 0 && st.st_mtime < old)
			unlink(f);
		free(f);
	}
	closedir(d);
}

/* The base archive into @out, from the cache when it is up to date. */
static int get_base(const struct vm_config *cfg, const char *busybox,
		    struct strbuf *out, int verbose)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir, *path, *tmp;
	int ret;

	if (xdg && *xdg)
		dir = xasprintf("%s/stap-ng/vm", xdg);
	else
		dir = xasprintf("%s/.cache/stap-ng/vm", home ? home : "/tmp");
	path = xasprintf("%s/base-%016llx.cpio", dir,
			 (unsigned long long)base_key(cfg, busybox));
	if (read_file(path, out) == 0 && out->len) {
		utimes(path, NULL);
		if (verbose)
			fprintf(stderr, "vm: base initramfs %s (cached)\n",
				path);
		ret = 0;
		goto out;
	}
	sb_reset(out);
	ret = build_base(cfg, busybox, out);
	if (ret)
		goto out;
	/* A cache we cannot write is not an error, only slower. */
	prune_cache(dir);
	tmp = xasprintf("%s.%d", path, (int)getpid());
	if (mkdir_p(dir, 0755) == 0 && write_file(tmp, out->buf, out->len) == 0 &&
	    rename(tmp, path) == 0) {
		if (verbose)
			fprintf(stderr, "vm: base initramfs %s (new)\n", path);
	} else {
		unlink(tmp);
	}
	free(tmp);
out:
	free(path);
	free(dir);
	return ret;
}

/* ---- the job archive: modules and /init ---- */

void vm_sh_quote(struct strbuf *sb, const char *s)
{
	sb_putc(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			sb_puts(sb, "'\\''");
		else
			sb_putc(sb, *s);
	}
	sb_putc(sb, '\'');
}

/*
 * Where a job's module goes in the guest: /jobs/NAME/ keeps jobs apart,
 * and the file keeps its own name because staprun derives the module's
 * name (and so its debugfs directory) from it.
 */
static char *job_path(const struct vm_job *job)
{
	const char *base = strrchr(job->module, '/');

	return xasprintf("/jobs/%s/%s", job->name, base ? base + 1 : job->module);
}

size_t vm_module_suffix(const char *path)
{
	size_t n = strlen(path);

	if (n > 3 && !strcmp(path + n - 3, ".ko"))
		return 3;
	if (n > 6 && !strcmp(path + n - 6, ".ko.xz"))
		return 6;
	return 0;
}

/*
 * Guest path of a job's j-th --vm-insmod module (check_config checked
 * it), always NAME.ko, which /init's rmmod takes the name from.  A
 * NAME.ko.xz goes as it is: the guest's busybox insmod decompresses it.
 */
static char *insmod_path(const struct vm_job *job, int j)
{
	const char *m = job->insmod[j], *base = strrchr(m, '/');

	base = base ? base + 1 : m;
	return xasprintf("/jobs/%s/insmod/%d/%.*s.ko", job->name, j,
			 (int)(strlen(base) - vm_module_suffix(base)), base);
}

/*
 * /init.  A reader on ttyS3 turns "INT" from the host (our Ctrl-C) into
 * SIGINT for the running staprun, which then stops the script cleanly as
 * it would on a terminal, and skips the jobs not started yet.  staprun
 * runs in the background only so that its pid is known; it installs its
 * own SIGINT handler, so the shell's ignoring of SIGINT for background
 * jobs does not matter.
 */
static void init_script(struct strbuf *sb, const char *nonce,
			const struct vm_job *jobs, int njobs)
{
	char *path;
	int i, j;

	sb_printf(sb,
		"#!/bin/busybox sh\n"
		"/bin/busybox --install -s /bin\n"
		"export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root\n"
		/*
		 * The jobs' stderr is a serial line, a terminal that nobody
		 * looks at: no colors unless asked (stap --vm passes -C).
		 */
		"export NO_COLOR=1\n"
		"mount -t proc proc /proc\n"
		"mount -t sysfs sysfs /sys\n"
		"mount -t devtmpfs devtmpfs /dev\n"
		"mount -t debugfs debugfs /sys/kernel/debug\n"
		"mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null\n"
		/* Loopback up, for scripts that probe network calls on it. */
		"ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null\n"
		"for t in 1 2 3; do stty -F /dev/ttyS$t raw -echo clocal 115200; done\n"
		"exec 3>/dev/ttyS1 4>/dev/ttyS2 5>/dev/ttyS3\n"
		"while read -r cmd; do\n"
		"	[ \"$cmd\" = INT ] || continue\n"
		"	: >/run/stop\n"
		"	[ -s /run/job.pid ] && kill -INT $(cat /run/job.pid)\n"
		"done </dev/ttyS3 3>&- 4>&- 5>&- &\n"
		"reader=$!\n"
		/* Where KASLR put the kernel, to name a hung vCPU's RIP. */
		"set -- $(grep -m1 ' _stext$' /proc/kallsyms)\n"
		"echo \"KTEXT $1\" >&5\n"
		/* vm-selftest's boot that never reaches init (fake_boot_hang) */
		"grep -qw stap_vm.hang_boot /proc/cmdline && exec sleep 100000\n"
		"echo BOOTED >&5\n"
		"job() {\n"
		"	n=$1; shift\n"
		"	[ -e /run/stop ] && return\n"
		"	echo \"stap-vm: job $n\" >/dev/kmsg\n"
		"	printf '\\001S:%s:%%s\\n' $n >&3\n"
		"	printf '\\001S:%s:%%s\\n' $n >&4\n"
		/*
		 * The job's own modules first ($mods, set before the call),
		 * unloaded after it so that the next job starts clean.
		 */
		"	rc=0 loaded=\n"
		"	for m in $mods; do\n"
		"		if msg=$(insmod $m 2>&1); then\n"
		"			loaded=\"${m##*/} $loaded\"\n"
		"		else\n"
		"			echo \"stap-vm: cannot load ${m##*/} before the script: $msg\" >&4\n"
		"			rc=1; break\n"
		"		fi\n"
		"	done\n"
		/*
		 * --vm-spawn: the next fork gets pid $spawn (ns_last_pid + 1);
		 * spawn_cmd (set with $spawn) execs, so $! is the program.
		 */
		"	sp=\n"
		"	if [ $rc = 0 ] && [ -n \"$spawn\" ]; then\n"
		"		echo $((spawn - 1)) >/proc/sys/kernel/ns_last_pid\n"
		"		spawn_cmd </dev/null >/dev/null 2>&4 &\n"
		"		sp=$!\n"
		"		if [ \"$sp\" != \"$spawn\" ]; then\n"
		"			echo \"stap-vm: --vm-spawn: pid $spawn is taken in the VM" 
		" (the program got $sp)\" >&4\n"
		"			rc=1\n"
		"		fi\n"
		"	fi\n"
		"	if [ $rc = 0 ]; then\n"
		"		staprun \"$@\" <$in >&3 2>&4 &\n"
		"		echo $! >/run/job.pid\n"
		"		wait $!\n"
		"		rc=$?\n"
		"	fi\n"
		"	if [ -n \"$sp\" ]; then\n"
		"		kill $sp 2>/dev/null\n"
		"		wait $sp\n"
		"	fi\n"
		"	for m in $loaded; do\n"
		"		msg=$(rmmod ${m%%.ko} 2>&1) ||\n"
		"			echo \"stap-vm: cannot unload ${m%%.ko} after the script: $msg\" >&4\n"
		"	done\n"
		"	: >/run/job.pid\n"
		"	printf '\\001E:%s\\n' >&3\n"
		"	printf '\\001E:%s\\n' >&4\n"
		"	echo STATUS $n $rc >&5\n"
		"}\n",
		nonce, nonce, nonce, nonce);
	for (i = 0; i < njobs; i++) {
		sb_puts(sb, "mods='");
		for (j = 0; jobs[i].insmod && jobs[i].insmod[j]; j++) {
			path = insmod_path(&jobs[i], j);
			sb_printf(sb, "%s%s", j ? " " : "", path);	/* checked names */
			free(path);
		}
		sb_puts(sb, "'\n");
		if (jobs[i].spawn_pid)
			sb_printf(sb, "spawn=%d\nspawn_cmd() { exec %s; }\n", jobs[i].spawn_pid,
				  jobs[i].spawn_cmd);
		else
			sb_puts(sb, "spawn=\n");
		/* job names are checked: [A-Za-z0-9_.-]+ */
		if (jobs[i].stdin_file)
			sb_printf(sb, "in=/jobs/%s/stdin\n", jobs[i].name);
		else
			sb_puts(sb, "in=/dev/null\n");
		sb_printf(sb, "job %s", jobs[i].name);
		for (j = 0; jobs[i].staprun_args && jobs[i].staprun_args[j]; j++) {
			sb_putc(sb, ' ');
			vm_sh_quote(sb, jobs[i].staprun_args[j]);
		}
		path = job_path(&jobs[i]);
		sb_putc(sb, ' ');
		vm_sh_quote(sb, path);
		for (j = 0; jobs[i].module_params && jobs[i].module_params[j]; j++) {
			sb_putc(sb, ' ');
			vm_sh_quote(sb, jobs[i].module_params[j]);
		}
		sb_putc(sb, '\n');
		free(path);
	}
	/*
	 * The last close of a tty waits until its output has left the UART,
	 * so close them all (the reader too) before powering off.
	 */
	sb_printf(sb,
		"kill $reader; wait $reader\n"
		"echo DMESG >&5\n"
		"dmesg >&5\n"
		"printf '\\001E:%s\\n' >&5\n"
		"exec 3>&- 4>&- 5>&-\n"
		"poweroff -f\n",
		nonce);
}

static int build_jobs(const struct vm_job *jobs, int njobs,
		      const char *nonce, struct strbuf *out)
{
	struct cpio c = { STRBUF_INIT, VEC_INIT, 1000000 };
	struct strbuf init = STRBUF_INIT;
	int i, ret = 0;

	for (i = 0; i < njobs && !ret; i++) {
		char *to = job_path(&jobs[i]) + 1;

		ret = cpio_file(&c, jobs[i].module, to);
		free(to - 1);
		for (int j = 0; !ret && jobs[i].insmod && jobs[i].insmod[j]; j++) {
			to = insmod_path(&jobs[i], j) + 1;
			ret = cpio_file(&c, jobs[i].insmod[j], to);
			free(to - 1);
		}
		if (!ret && jobs[i].stdin_file) {
			to = xasprintf("jobs/%s/stdin", jobs[i].name);
			ret = cpio_file(&c, jobs[i].stdin_file, to);
			free(to);
		}
	}
	if (!ret) {
		init_script(&init, nonce, jobs, njobs);
		cpio_data(&c, "init", 0755, init.buf, init.len);
		cpio_finish(&c);
		sb_add(out, c.sb.buf, c.sb.len);
	}
	sb_free(&init);
	cpio_free(&c);
	return ret;
}

/* ---- reading the guest's answers ---- */

struct chan {
	int fd;
	struct strbuf data;
	size_t pos;		/* streaming: bytes of data consumed */
	int started, ended;	/* streaming: markers seen */
};

static void chan_read(struct chan *ch)
{
	char buf[65536];
	ssize_t n;

	if (ch->fd < 0)
		return;
	while ((n = read(ch->fd, buf, sizeof(buf))) > 0)
		sb_add(&ch->data, buf, (size_t)n);
}

static const char *memfind(const char *hay, size_t hlen, const char *needle)
{
	return memmem(hay, hlen, needle, strlen(needle));
}

/*
 * Streaming one job: write what lies between its markers to @to as it
 * arrives, holding back only a tail that could be the start of the end
 * marker.
 */
static void chan_stream(struct chan *ch, FILE *to, const char *start,
			const char *end)
{
	const char *d = ch->data.buf, *p;
	size_t len = ch->data.len, elen = strlen(end), hold, n;

	if (!ch->started) {
		p = d ? memfind(d, len, start) : NULL;
		if (!p)
			return;
		ch->started = 1;
		ch->pos = (size_t)(p - d) + strlen(start);
	}
	if (ch->ended)
		return;
	p = memfind(d + ch->pos, len - ch->pos, end);
	if (p) {
		n = (size_t)(p - (d + ch->pos));
		ch->ended = 1;
	} else {
		for (hold = elen - 1; hold > 0; hold--)
			if (hold <= len - ch->pos &&
			    !memcmp(d + len - hold, end, hold))
				break;
		n = len - ch->pos - hold;
	}
	if (n) {
		fwrite(d + ch->pos, 1, n, to);
		fflush(to);
	}
	ch->pos += n;
}

/* A job's bytes between its markers in @ch; to the end if never closed. */
static void job_slice(const struct chan *ch, const char *start,
		      const char *end, char **outp, size_t *lenp)
{
	const char *d = ch->data.buf, *b, *e;

	*outp = NULL;
	*lenp = 0;
	b = d ? memfind(d, ch->data.len, start) : NULL;
	if (!b) {
		*outp = xstrdup("");
		return;
	}
	b += strlen(start);
	e = memfind(b, ch->data.len - (size_t)(b - d), end);
	if (!e)
		e = d + ch->data.len;
	*outp = xstrndup(b, (size_t)(e - b));
	*lenp = (size_t)(e - b);
}

static int is_problem_line(const char *s, size_t n)
{
	static const char *const pat[] = {
		"BUG:", "Oops:", "WARNING: CPU", "Call Trace:",
		"Kernel panic", "general protection fault",
		" [#",	/* die()'s "int3: 0000 [#1] ..." (6.12 adds "Oops: ") */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pat); i++)
		if (memmem(s, n, pat[i], strlen(pat[i])))
			return 1;
	return 0;
}

static void add_line(struct strbuf *sb, const char *l)
{
	sb_add(sb, l, (size_t)(strchrnul(l, '\n') - l));
	sb_putc(sb, '\n');
}

/*
 * The lines of @log that report a kernel problem, each with a little
 * context (two lines before, the trace after, and the "stap-vm: job"
 * line /init logged before the job that was running), or NULL.
 */
static char *find_problems(const char *log)
{
	struct strbuf sb = STRBUF_INIT;
	struct vec lines = VEC_INIT;
	const char *p = log;
	int i, j, from, to, until = -1, last_job = -1;

	while (*p) {
		vec_push(&lines, (void *)p);
		p = strchrnul(p, '\n');
		if (*p)
			p++;
	}
	for (i = 0; i < lines.len; i++) {
		const char *l = lines.items[i];
		size_t n = (size_t)(strchrnul(l, '\n') - l);

		if (memmem(l, n, "stap-vm: job ", 13))
			last_job = i;
		if (!is_problem_line(l, n))
			continue;
		/* Context before: kernel lines only, not the firmware's. */
		from = i - 2 > until ? i - 2 : until + 1;
		while (from < i && *(const char *)lines.items[from] != '[')
			from++;
		to = i + 25 < lines.len ? i + 25 : lines.len - 1;
		if (from > until + 1) {
			if (sb.len)
				sb_puts(&sb, "...\n");
			if (last_job > until && last_job < from) {
				add_line(&sb, lines.items[last_job]);
				if (last_job + 1 < from)
					sb_puts(&sb, "...\n");
			}
		}
		for (j = from; j <= to; j++)
			add_line(&sb, lines.items[j]);
		if (to > until)
			until = to;
	}
	vec_free(&lines);
	return sb.len ? sb_steal(&sb) : NULL;
}

/*
 * The console log for people: \r\n line ends become \n, and the
 * firmware's terminal escapes go (a clear-screen ends the line instead).
 */
static char *clean_console(const char *c)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *c; c++) {
		if (*c == '\r')
			continue;
		if (*c != '\033') {
			sb_putc(&sb, *c);
			continue;
		}
		if (c[1] != '[') {	/* ESC c: reset */
			c += c[1] != '\0';
			continue;
		}
		for (c += 2; *c && (*c < '@' || *c > '~'); c++)
			;
		if (*c == 'J' && sb.len && sb.buf[sb.len - 1] != '\n')
			sb_putc(&sb, '\n');
		if (!*c)
			break;
	}
	return sb_steal(&sb);
}

/* ---- one run ---- */

struct vm {
	const struct vm_config *cfg;
	struct vm_job *jobs;
	int njobs;
	struct vm_result *res;
	char *qemu, *busybox, *kernel, *dir, *initrd;
	size_t initrd_bytes;
	char nonce[17];
	char start[64];		/* streaming: the one job's start marker */
	char end[40];		/* every job's end marker */
	struct chan ch[CH_MAX];
	int ctl_in;		/* write end of ttyS3's input */
	int stream, timeout_s;
	pid_t pid;
	int exited, status;
	int int_sent;		/* asked the guest to stop the job */
	int killed;		/* stopped QEMU because of a signal */
	long t0, t_boot;
	long t_panic;		/* when the console said "Kernel panic" */
	const char *dmesg;	/* in ch[CH_CTL], ends at vm->end */
	const char *running;	/* the job that started but never ended */
	/* the job watchdog (cfg->job_timeout_s) */
	size_t scanned;		/* bytes of ch[CH_OUT] looked at for markers */
	long t_job;		/* when the running job started, 0: none runs */
	uint64_t guest_stext;	/* the guest's _stext, from /init */
	int no_kaslr;		/* booted the debuginfo vmlinux: not moved */
	long boot_limit_ms;	/* cfg->boot_timeout_s, if before the deadline */
	char *cpus;		/* the vCPUs' state when the watchdog fired */
};

/*
 * Ctrl-C (or SIGTERM, SIGHUP): the first asks the guest to stop its job
 * cleanly, a second one kills QEMU.  Either way no QEMU is left behind.
 */
static volatile sig_atomic_t vm_signals, vm_last_signal;
static const int vm_sigs[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	vm_signals++;
	vm_last_signal = sig;
}

/*
 * The kernel to boot: /boot/vmlinuz-R, the compressed image, so that KASLR
 * places the kernel as on a real machine.  With STAP_VM_BOOT=vmlinux (the
 * test suite's many short boots), the debuginfo vmlinux through its PVH
 * entry instead, where it has one: no decompressor, so no KASLR, and no
 * XZ to unpack under TCG (4 s of a 6.1 boot's 7.5 s of CPU).
 */
static char *boot_image(const struct vm_config *cfg, int *no_kaslr)
{
	const char *how = getenv("STAP_VM_BOOT");
	char *elf;

	if (how && !strcmp(how, "vmlinux")) {
		elf = vm_debug_vmlinux(cfg->release);
		if (vm_vmlinux_bootable(elf)) {
			*no_kaslr = 1;
			return elf;
		}
		if (cfg->verbose)
			fprintf(stderr, "vm: %s has no PVH entry: booting the compressed image\n",
				elf);
		free(elf);
	}
	return xasprintf("/boot/vmlinuz-%s", cfg->release);
}

static int check_config(struct vm *vm)
{
	const struct vm_config *cfg = vm->cfg;
	struct vm_job *jobs = vm->jobs;
	int i, j;

	if (!cfg->release && !cfg->kernel) {
		util_err("vm: no kernel release given");
		return -EINVAL;
	}
	vm->kernel = cfg->kernel ? xstrdup(cfg->kernel) : boot_image(cfg, &vm->no_kaslr);
	if (access(vm->kernel, F_OK) < 0) {
		if (cfg->kernel)
			util_err("vm: no kernel image %s", vm->kernel);
		else
			util_err("no kernel image %s: install linux-image-%s (./bootstrap.sh provisions the test kernels)",
				 vm->kernel, cfg->release);
		return -ENOENT;
	}
	if (access(vm->kernel, R_OK) < 0) {
		util_err("vm: cannot read kernel image %s: %s", vm->kernel,
			 strerror(errno));
		return -EACCES;
	}
	if (!cfg->staprun || access(cfg->staprun, X_OK) < 0) {
		util_err("vm: no staprun executable at %s",
			 cfg->staprun ? cfg->staprun : "(none given)");
		return -ENOENT;
	}
	for (i = 0; i < vm->njobs; i++) {
		const char *n = jobs[i].name;

		if (!n || !*n || strspn(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "abcdefghijklmnopqrstuvwxyz"
				       "0123456789_.-") != strlen(n)) {
			util_err("vm: bad job name \"%s\" (use [A-Za-z0-9_.-])",
				 n ? n : "");
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(jobs[j].name, n)) {
				util_err("vm: two jobs named %s", n);
				return -EINVAL;
			}
		for (j = 0; jobs[i].insmod && jobs[i].insmod[j]; j++) {
			const char *m = jobs[i].insmod[j], *b = strrchr(m, '/');

			b = b ? b + 1 : m;
			/* The name reaches the guest's shell unquoted. */
			if (strlen(b) <= vm_module_suffix(b) + 1 || !vm_module_suffix(b) ||
			    strspn(b, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				   "0123456789_.-") != strlen(b)) {
				util_err("vm: job %s: module to load '%s' is not a NAME.ko "
					 "or NAME.ko.xz file (NAME of [A-Za-z0-9_.-])", n, m);
				return -EINVAL;
			}
			if (access(m, R_OK) < 0) {
				util_err("vm: job %s: cannot read module to load %s: %s", n, m,
					 strerror(errno));
				return -ENOENT;
			}
		}
		if (!jobs[i].module || access(jobs[i].module, R_OK) < 0) {
			util_err("vm: job %s: cannot read module %s", n,
				 jobs[i].module ? jobs[i].module : "(none)");
			return -ENOENT;
		}
	}
	return 0;
}

static void make_nonce(char *buf, size_t size)
{
	uint64_t h = HASH_INIT;
	struct timespec ts;
	pid_t pid = getpid();
	unsigned char rnd[16];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	clock_gettime(CLOCK_REALTIME, &ts);
	h = hash_bytes(h, &ts, sizeof(ts));
	h = hash_bytes(h, &pid, sizeof(pid));
	if (fd >= 0) {
		if (read(fd, rnd, sizeof(rnd)) == (ssize_t)sizeof(rnd))
			h = hash_bytes(h, rnd, sizeof(rnd));
		close(fd);
	}
	snprintf(buf, size, "%016llx", (unsigned long long)h);
}

/* Tools, checks, the initramfs and the serial port files, in vm->dir. */
static int vm_prepare(struct vm *vm)
{
	struct strbuf initrd = STRBUF_INIT;
	char *f;
	int i, ret;

	vm->qemu = vm_which("qemu-system-x86_64");
	if (!vm->qemu) {
		util_err("qemu-system-x86_64 not found: run ./bootstrap.sh (package qemu-system-x86)");
		return -ENOENT;
	}
	vm->busybox = access("/bin/busybox", X_OK) == 0
		? xstrdup("/bin/busybox") : vm_which("busybox");
	if (!vm->busybox) {
		util_err("busybox not found: run ./bootstrap.sh (package busybox-static)");
		return -ENOENT;
	}
	ret = check_config(vm);
	if (ret)
		return ret;

	/* initramfs = cached base + this run's jobs */
	make_nonce(vm->nonce, sizeof(vm->nonce));
	snprintf(vm->start, sizeof(vm->start), "\001S:%s:%s\n", vm->nonce,
		 vm->njobs ? vm->jobs[0].name : "");
	snprintf(vm->end, sizeof(vm->end), "\001E:%s\n", vm->nonce);
	ret = get_base(vm->cfg, vm->busybox, &initrd, vm->cfg->verbose);
	if (!ret)
		ret = build_jobs(vm->jobs, vm->njobs, vm->nonce, &initrd);
	if (ret)
		goto out;
	vm->dir = make_temp_dir("stap-vm-");
	if (!vm->dir) {
		ret = -errno;
		util_err("vm: cannot make a temporary directory: %s",
			 strerror(errno));
		goto out;
	}
	vm->initrd = xasprintf("%s/initrd.cpio", vm->dir);
	vm->initrd_bytes = initrd.len;
	ret = write_file(vm->initrd, initrd.buf, initrd.len);
	if (ret) {
		util_err("vm: cannot write %s: %s", vm->initrd, strerror(-ret));
		goto out;
	}
	if (vm->cfg->verbose)
		fprintf(stderr, "vm: initramfs %zu KiB, timeout %d s\n",
			initrd.len / 1024, vm->timeout_s);

	/*
	 * ttyS0-2 go to plain files we follow as they grow; ttyS3 is a pipe
	 * pair (control.in/.out) because the guest also reads from it.
	 */
	for (i = 0; i < CH_MAX; i++) {
		f = xasprintf("%s/%s", vm->dir, chan_file[i]);
		if (i == CH_CTL) {
			if (mkfifo(f, 0600) < 0)
				ret = -errno;
		} else {
			ret = write_file(f, "", 0);
		}
		if (!ret) {
			vm->ch[i].fd = open(f, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			if (vm->ch[i].fd < 0)
				ret = -errno;
		}
		if (ret) {
			util_err("vm: cannot make %s: %s", f, strerror(-ret));
			free(f);
			goto out;
		}
		free(f);
	}
	/* Opened read-write so that neither side's open blocks. */
	f = xasprintf("%s/control.in", vm->dir);
	if (mkfifo(f, 0600) < 0 ||
	    (vm->ctl_in = open(f, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0) {
		ret = -errno;
		util_err("vm: cannot make %s: %s", f, strerror(errno));
	}
	free(f);
out:
	sb_free(&initrd);
	return ret;
}

/*
 * The guest's udelay() and mdelay() wait in TSC ticks, loops_per_jiffy
 * of them a jiffy.  The boot CPU derives that figure from its TSC
 * calibration, but each other CPU measures its own against the timer
 * interrupt, and under TCG on a busy host that vCPU loses time while it
 * counts: its figure was seen at a third of the boot CPU's, and at a
 * tenth its delays were too short for run/tapset_fn_guru (6.1-rt).  A
 * TCG guest's TSC is the host's, so the host's rate over the kernel's HZ
 * is the figure for every CPU, and lpj= presets it (which also skips
 * the measuring).  0 if the rate or HZ cannot be known.
 */
#if defined(__x86_64__) || defined(__i386__)
/* A TSC reading and the monotonic time it was taken at (-1: none). */
static int tsc_at(unsigned long long *tsc, double *ns)
{
	for (int i = 0; i < 20; i++) {
		struct timespec a, b;
		unsigned long long c;
		double ta, tb;

		clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		c = __rdtsc();
		clock_gettime(CLOCK_MONOTONIC_RAW, &b);
		ta = a.tv_sec * 1e9 + a.tv_nsec;
		tb = b.tv_sec * 1e9 + b.tv_nsec;
		/* Not preempted between the reads: within 0.1% of 20 ms. */
		if (tb - ta < 20000) {
			*tsc = c;
			*ns = (ta + tb) / 2;
			return 0;
		}
	}
	return -1;
}

static double host_tsc_hz(void)
{
	static double hz = -1;
	unsigned long long c0, c1;
	double t0, t1;

	if (hz >= 0)
		return hz;
	hz = 0;
	if (tsc_at(&c0, &t0) == 0) {
		usleep(20000);
		if (tsc_at(&c1, &t1) == 0 && t1 > t0)
			hz = (c1 - c0) * 1e9 / (t1 - t0);
	}
	return hz;
}
#else
static double host_tsc_hz(void)
{
	return 0;
}
#endif

/*
 * For vm-selftest: STAP_VM_FAKE_BOOT_HANGS=N makes the first N boots of
 * this process stop short of starting init (see init_script), as a
 * guest kernel hung while booting would.
 */
static bool fake_boot_hang(void)
{
	static int boots;
	const char *n = getenv("STAP_VM_FAKE_BOOT_HANGS");

	return n && boots++ < atoi(n);
}

static unsigned long guest_lpj(const char *release)
{
	struct strbuf cfg = STRBUF_INIT;
	const char *p;
	char *path;
	long hz = 0;
	double tsc = host_tsc_hz();

	if (!release || tsc < 1e8 || tsc > 1e11)
		return 0;
	path = xasprintf("/boot/config-%s", release);
	if (read_file(path, &cfg) == 0 && (p = strstr(sb_str(&cfg), "\nCONFIG_HZ=")))
		hz = strtol(p + strlen("\nCONFIG_HZ="), NULL, 10);
	sb_free(&cfg);
	free(path);
	return hz > 0 ? (unsigned long)(tsc / hz) : 0;
}

static int vm_start(struct vm *vm)
{
	const struct vm_config *cfg = vm->cfg;
	char *argv[40], mem[16], cpus[16], *serial[CH_MAX], *monitor, *append;
	char lpj_arg[32] = "";
	unsigned long lpj = guest_lpj(cfg->release);
	int i, n = 0, ret = 0;

	/*
	 * The guest holds the initramfs twice while it unpacks it (the image,
	 * then the files in RAM), and a batch of a hundred modules is some
	 * 350 MB: 1 GiB was seen to leave 6.12 with no root file system.
	 * TCG allocates guest memory as it is touched, so a generous size
	 * costs the host nothing until used.
	 */
	int mem_mb = cfg->mem_mb;

	if (mem_mb <= 0) {
		mem_mb = 768 + 3 * (int)(vm->initrd_bytes >> 20);
		if (mem_mb < 1024)
			mem_mb = 1024;
		if (mem_mb > 8192)
			mem_mb = 8192;
	}
	snprintf(mem, sizeof(mem), "%d", mem_mb);
	snprintf(cpus, sizeof(cpus), "%d", cfg->cpus > 0 ? cfg->cpus : 2);
	for (i = 0; i < CH_MAX; i++)
		serial[i] = i == CH_CTL
			? xasprintf("pipe:%s/control", vm->dir)
			: xasprintf("file:%s/%s", vm->dir, chan_file[i]);
	/* A unix socket's path has room for 107 bytes. */
	monitor = strlen(vm->dir) < 96
		? xasprintf("unix:%s/monitor,server=on,wait=off", vm->dir)
		: xstrdup("none");
	if (lpj)
		snprintf(lpj_arg, sizeof(lpj_arg), " lpj=%lu", lpj);
	append = xasprintf("console=ttyS0 quiet panic=-1 oops=panic noirqdebug%s%s", lpj_arg,
			   fake_boot_hang() ? " stap_vm.hang_boot" : "");
	argv[n++] = vm->qemu;
	argv[n++] = "-accel";
	/*
	 * Multi-threaded TCG runs a vCPU on stale code after another vCPU
	 * rewrote it and both passed text_poke_bp()'s sync IPIs (QEMU 7.2):
	 * patching an ftrace site that a loop keeps calling then oopses on
	 * an int3 no longer in memory, or spins re-executing it, with the
	 * kernel's own tracefs instances and no module of ours, on 6.1 and
	 * 6.12.  One thread for all vCPUs is exact; tests that patch hot
	 * code again and again (cli/load_cycles) ask for it.
	 */
	argv[n++] = cfg->tcg_single ? "tcg,thread=single" : "tcg";
	argv[n++] = "-nographic";
	argv[n++] = "-nodefaults";	/* no VGA, NIC, floppy: faster boot */
	argv[n++] = "-no-reboot";
	/* The human monitor, for the vCPUs' state if a job hangs. */
	argv[n++] = "-monitor";
	argv[n++] = monitor;
	argv[n++] = "-m";
	argv[n++] = mem;
	argv[n++] = "-smp";
	argv[n++] = cpus;
	argv[n++] = "-kernel";
	argv[n++] = vm->kernel;
	argv[n++] = "-initrd";
	argv[n++] = vm->initrd;
	/*
	 * noirqdebug: ttyS1 (stdout) and ttyS3 (control) share IRQ 3.  On
	 * PREEMPT_RT the 8250 handler runs in a thread, and under TCG a
	 * stream of output raises THRE interrupts faster than the thread
	 * runs; the spurious-IRQ detector counts each one the thread has not
	 * yet handled as unhandled and disables IRQ 3 ("irq 3: nobody
	 * cared"), which silences stdout and control until the VM times out
	 * (run/big_output on 6.1.0-56-rt-amd64).
	 */
	argv[n++] = "-append";
	argv[n++] = append;
	for (i = 0; i < CH_MAX; i++) {
		argv[n++] = "-serial";
		argv[n++] = serial[i];
	}
	argv[n] = NULL;
	if (cfg->verbose) {
		struct strbuf line = STRBUF_INIT;

		for (i = 0; i < n; i++)
			sb_printf(&line, "%s%s", i ? " " : "", argv[i]);
		fprintf(stderr, "vm: %s\n", line.buf);
		sb_free(&line);
	}

	vm->t0 = vm_now_ms();
	vm->pid = fork();
	if (vm->pid == 0) {
		int null = open("/dev/null", O_RDWR);

		/* Our terminal's Ctrl-C is for us; we pass it on. */
		setpgid(0, 0);
		/* If we die without cleaning up, so does the VM. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);	/* QEMU's own complaints go to stderr */
		}
		execv(argv[0], argv);
		fprintf(stderr, "%s: vm: cannot run %s: %s\n", util_progname,
			argv[0], strerror(errno));
		_exit(127);
	}
	if (vm->pid < 0) {
		ret = -errno;
		util_err("vm: cannot start qemu: %s", strerror(errno));
	} else {
		setpgid(vm->pid, vm->pid);
	}
	for (i = 0; i < CH_MAX; i++)
		free(serial[i]);
	free(monitor);
	free(append);
	return ret;
}

static void vm_kill(struct vm *vm)
{
	kill(-vm->pid, SIGKILL);
	waitpid(vm->pid, &vm->status, 0);
	vm->exited = 1;
}

/*
 * For the job watchdog: when the running job started (its start marker on
 * stdout), 0 once it ended; and the guest's _stext, which /init reports.
 */
static void vm_watch_jobs(struct vm *vm)
{
	struct strbuf *out = &vm->ch[CH_OUT].data;
	const char *ctl = vm->ch[CH_CTL].data.buf, *k;
	char start[32];
	size_t slen = (size_t)snprintf(start, sizeof(start), "\001S:%s:", vm->nonce);
	size_t elen = strlen(vm->end);

	if (!vm->guest_stext && ctl && (k = strstr(ctl, "KTEXT ")))
		vm->guest_stext = strtoull(k + 6, NULL, 16);
	while (out->buf) {
		const char *b = out->buf + vm->scanned;
		size_t left = out->len - vm->scanned;
		const char *s = memfind(b, left, start), *e = memfind(b, left, vm->end);

		if (!s && !e)
			break;
		if (s && (!e || s < e)) {
			vm->t_job = vm_now_ms();
			vm->scanned = (size_t)(s - out->buf) + slen;
		} else {
			vm->t_job = 0;
			vm->scanned = (size_t)(e - out->buf) + elen;
		}
	}
	/* A marker may be cut at the end: look at its start again. */
	if (elen < slen)
		elen = slen;
	if (out->len > vm->scanned + elen)
		vm->scanned = out->len - elen;
}

/* Everything that arrived on the serial ports; streams the one job. */
static void vm_poll(struct vm *vm)
{
	int i;

	for (i = 0; i < CH_MAX; i++)
		chan_read(&vm->ch[i]);
	if (!vm->res->booted && vm->ch[CH_CTL].data.buf &&
	    strstr(vm->ch[CH_CTL].data.buf, "BOOTED\n")) {
		vm->res->booted = 1;
		vm->t_boot = vm_now_ms();
		if (vm->cfg->verbose)
			fprintf(stderr, "vm: guest init started after %.1f s\n",
				(vm->t_boot - vm->t0) / 1000.0);
	}
	if (vm->stream) {
		chan_stream(&vm->ch[CH_OUT], stdout, vm->start, vm->end);
		chan_stream(&vm->ch[CH_ERR], stderr, vm->start, vm->end);
	}
	vm_watch_jobs(vm);
}

/* Past a time limit: what the vCPUs are doing, then end QEMU. */
static void vm_hung(struct vm *vm)
{
	char *sock = xasprintf("%s/monitor", vm->dir);
	uint64_t stext = vm->guest_stext ? vm->guest_stext
			 : vm->no_kaslr ? VM_STEXT_LINK : 0;

	vm->cpus = vm_cpu_state(sock, vm->cfg->release, stext, 5);
	free(sock);
	vm_kill(vm);
}

/* Until QEMU exits, the timeout, or a signal. */
static void vm_wait(struct vm *vm)
{
	long deadline = vm->t0 + vm->timeout_s * 1000L;

	for (;;) {
		pid_t r = waitpid(vm->pid, &vm->status, WNOHANG);

		vm_poll(vm);
		if (r == vm->pid) {
			vm->exited = 1;
			break;
		}
		if (r < 0 && errno != EINTR) {
			util_err("vm: lost track of qemu: %s", strerror(errno));
			vm_kill(vm);
			break;
		}
		if (vm_signals && !vm->int_sent && vm->res->booted) {
			if (vm->cfg->verbose)
				fprintf(stderr, "vm: stopping the job (signal again to kill the VM)\n");
			if (write(vm->ctl_in, "INT\n", 4) == 4)
				vm->int_sent = vm_signals;
		}
		if (vm_signals > vm->int_sent) {
			vm->killed = 1;
			vm_kill(vm);
			break;
		}
		if (vm_now_ms() >= deadline) {
			vm->res->timed_out = 1;
			vm_hung(vm);
			break;
		}
		if (!vm->res->booted && vm->boot_limit_ms &&
		    vm_now_ms() - vm->t0 >= vm->boot_limit_ms) {
			vm->res->boot_hung = vm->res->timed_out = 1;
			vm_hung(vm);
			break;
		}
		if (vm->cfg->job_timeout_s && vm->t_job &&
		    vm_now_ms() - vm->t_job >= vm->cfg->job_timeout_s * 1000L) {
			vm->res->hung = 1;
			vm_hung(vm);
			break;
		}
		/*
		 * panic=-1 reboots and -no-reboot ends QEMU, but a PREEMPT_RT
		 * guest can hang in the restart after its panic: nothing else
		 * comes, so do not wait for the timeout.
		 */
		if (!vm->t_panic && vm->ch[CH_CONSOLE].data.buf &&
		    strstr(vm->ch[CH_CONSOLE].data.buf, "Kernel panic - not syncing"))
			vm->t_panic = vm_now_ms();
		if (vm->t_panic && vm_now_ms() - vm->t_panic >= VM_PANIC_GRACE_MS) {
			vm_kill(vm);
			break;
		}
		usleep(VM_POLL_MS * 1000);
	}
	vm_poll(vm);
	if (vm->cfg->verbose)
		fprintf(stderr, "vm: qemu ran %.1f s (jobs %.1f s after init started)\n",
			(vm_now_ms() - vm->t0) / 1000.0,
			vm->t_boot ? (vm_now_ms() - vm->t_boot) / 1000.0 : 0.0);
}

/* Each job's output and status, the kernel log, its problems. */
static void vm_collect(struct vm *vm)
{
	struct vm_result *res = vm->res;
	struct chan *ctl = &vm->ch[CH_CTL];
	const char *c = sb_str(&ctl->data), *d, *s;
	size_t head;
	int i;

	/* "BOOTED", "STATUS name rc"..., "DMESG", the log, the end marker */
	d = strstr(c, "\nDMESG\n");
	if (d && strstr(d, vm->end))
		vm->dmesg = d + strlen("\nDMESG\n");
	head = d ? (size_t)(d - c) + 1 : ctl->data.len;
	for (i = 0; i < vm->njobs; i++) {
		struct vm_job *job = &vm->jobs[i];
		char *st = xasprintf("\001S:%s:%s\n", vm->nonce, job->name);
		char *line = xasprintf("\nSTATUS %s ", job->name);

		if (vm->stream) {
			job->out = xstrdup("");
			job->err = xstrdup("");
		} else {
			job_slice(&vm->ch[CH_OUT], st, vm->end, &job->out,
				  &job->out_len);
			job_slice(&vm->ch[CH_ERR], st, vm->end, &job->err,
				  &job->err_len);
		}
		s = memfind(c, head, line);
		if (s)
			job->status = atoi(s + strlen(line));
		else if (memfind(sb_str(&vm->ch[CH_OUT].data),
				 vm->ch[CH_OUT].data.len, st)) {
			vm->running = job->name;
			res->running_job = i;
		}
		free(st);
		free(line);
	}
	res->console = clean_console(sb_str(&vm->ch[CH_CONSOLE].data));
	/* A complete run's dmesg holds everything the console showed. */
	if (vm->dmesg) {
		char *log = xstrndup(vm->dmesg, (size_t)(strstr(vm->dmesg, vm->end) -
							vm->dmesg));

		res->problem = find_problems(log);
		free(log);
	} else {
		res->problem = find_problems(res->console);
	}
	if (res->hung) {
		struct strbuf sb = STRBUF_INIT;

		sb_printf(&sb, "stap-vm: job %s still running after %d s: the guest was stopped\n%s",
			  vm->running ? vm->running : "(none)", vm->cfg->job_timeout_s,
			  vm->cpus ? vm->cpus : "");
		if (res->problem)
			sb_puts(&sb, res->problem);
		free(res->problem);
		res->problem = sb_steal(&sb);
	} else if (res->boot_hung) {
		struct strbuf sb = STRBUF_INIT;

		sb_printf(&sb, "stap-vm: the guest had not started init after %ld s: it was stopped\n%s",
			  vm->boot_limit_ms / 1000, vm->cpus ? vm->cpus : "");
		if (res->problem)
			sb_puts(&sb, res->problem);
		free(res->problem);
		res->problem = sb_steal(&sb);
	}
	res->kernel_problem = res->problem != NULL;
}

/* 0 if every job ran (or was stopped cleanly), else say why not. */
static int vm_verdict(struct vm *vm)
{
	struct vm_result *res = vm->res;
	int ret = 0;

	if (vm->killed) {
		util_err("vm: interrupted");
		ret = -EINTR;
	} else if (res->hung) {
		util_err("vm: job %s still running after %d s: stopped the guest",
			 vm->running ? vm->running : "(none)", vm->cfg->job_timeout_s);
		ret = -EIO;
	} else if (res->timed_out) {
		if (vm->running)
			util_err("vm: timed out after %d s in job %s",
				 vm->timeout_s, vm->running);
		else
			util_err("vm: timed out after %d s%s", vm->timeout_s,
				 res->booted ? "" : " (the guest never started init)");
		ret = -ETIMEDOUT;
	} else if (!vm->dmesg && !res->booted) {
		util_err("vm: the guest did not boot (qemu exit status %d)%s",
			 WIFEXITED(vm->status) ? WEXITSTATUS(vm->status)
					       : 128 + WTERMSIG(vm->status),
			 res->kernel_problem ? ": kernel problem" : "");
		ret = -EIO;
	} else if (!vm->dmesg) {
		util_err("vm: the guest stopped %s %s%s",
			 vm->running ? "during job" : "before finishing its jobs",
			 vm->running ? vm->running : "",
			 res->kernel_problem ? " (kernel problem)" : "");
		ret = -EIO;
	}
	/* On failure the caller only sees ret: show what the kernel said. */
	if (ret && res->problem)
		fprintf(stderr, "%s", res->problem);
	else if (ret && vm->cpus)
		fprintf(stderr, "%s", vm->cpus);
	return ret;
}

static int vm_run_once(const struct vm_config *cfg, struct vm_job *jobs, int njobs,
		       struct vm_result *res, int last)
{
	struct vm vm = {
		.cfg = cfg, .jobs = jobs, .njobs = njobs, .res = res,
		.ctl_in = -1, .pid = -1,
		.stream = cfg->stream && njobs == 1,
		.timeout_s = cfg->timeout_s > 0 ? cfg->timeout_s
						: 60 + 30 * njobs,
	};
	struct sigaction sa = { .sa_handler = on_signal }, old[ARRAY_SIZE(vm_sigs)];
	size_t k;
	int i, ret;

	memset(res, 0, sizeof(*res));
	res->running_job = -1;
	for (i = 0; i < CH_MAX; i++)
		vm.ch[i] = (struct chan){ .fd = -1 };
	for (i = 0; i < njobs; i++) {
		jobs[i].out = jobs[i].err = NULL;
		jobs[i].out_len = jobs[i].err_len = 0;
		jobs[i].status = -1;
	}

	ret = vm_prepare(&vm);
	if (ret)
		goto out;
	vm_signals = 0;
	sigemptyset(&sa.sa_mask);
	for (k = 0; k < ARRAY_SIZE(vm_sigs); k++) {
		sigaction(vm_sigs[k], NULL, &old[k]);
		/* A signal our caller ignores stays ignored. */
		if (old[k].sa_handler != SIG_IGN)
			sigaction(vm_sigs[k], &sa, NULL);
	}
	ret = vm_start(&vm);
	/* The boot to try again has only the overall limit. */
	if (!last && cfg->boot_timeout_s >= 0) {
		long limit = 1000L * (cfg->boot_timeout_s ? cfg->boot_timeout_s
							  : VM_BOOT_LIMIT_S);

		if (limit < 1000L * vm.timeout_s)
			vm.boot_limit_ms = limit;
	}
	if (!ret) {
		vm_wait(&vm);
		vm_collect(&vm);
		/*
		 * The kernel failing before init ran (no job, no module yet)
		 * is the emulator's: TCG has been seen to miss a text-patching
		 * int3 at boot.  Boot once more before calling it a failure.
		 */
		if (!last && !vm.killed && !res->timed_out && !res->booted &&
		    res->kernel_problem) {
			fprintf(stderr, "vm: the guest kernel failed while booting, before "
				"any job; booting it again\n");
			ret = -EAGAIN;
		} else if (!last && !vm.killed && res->boot_hung) {
			/*
			 * Seen once (a 6.1 guest in CI): both vCPUs looping on
			 * an int3 while the kernel switched a static key, the
			 * emulator's race (vm_hang_is_tcg_int3) during boot.
			 */
			fprintf(stderr, "vm: the guest had not started init after %ld s%s: "
				"booting it again\n", vm.boot_limit_ms / 1000,
				vm_hang_is_tcg_int3(res->problem)
				? ", a vCPU looping on an int3 (the emulator's text-patching race?)"
				: "");
			ret = -EAGAIN;
		} else {
			ret = vm_verdict(&vm);
		}
	}
	for (k = 0; k < ARRAY_SIZE(vm_sigs); k++)
		sigaction(vm_sigs[k], &old[k], NULL);
out:
	if (vm.pid > 0 && !vm.exited)
		vm_kill(&vm);
	for (i = 0; i < CH_MAX; i++) {
		if (vm.ch[i].fd >= 0)
			close(vm.ch[i].fd);
		sb_free(&vm.ch[i].data);
	}
	if (vm.ctl_in >= 0)
		close(vm.ctl_in);
	if (vm.dir && getenv("STAP_VM_KEEP"))
		fprintf(stderr, "vm: kept %s\n", vm.dir);
	else if (vm.dir)
		rm_rf(vm.dir);
	free(vm.dir);
	free(vm.cpus);
	free(vm.initrd);
	free(vm.kernel);
	free(vm.busybox);
	free(vm.qemu);
	/* Killed by a signal: now that QEMU is gone, take its default action. */
	if (vm.killed)
		raise(vm_last_signal);
	return ret;
}

/* Jobs from @from on run again: what an earlier boot said of them goes. */
static void forget_jobs(struct vm_job *jobs, int from, int njobs)
{
	for (int i = from; i < njobs; i++) {
		free(jobs[i].out);
		free(jobs[i].err);
		jobs[i].out = jobs[i].err = NULL;
		jobs[i].out_len = jobs[i].err_len = 0;
		jobs[i].status = -1;
	}
}

/* One boot, and one more if the kernel died before any job (see above). */
static int vm_boot(const struct vm_config *cfg, struct vm_job *jobs, int njobs,
		   struct vm_result *res)
{
	int ret = vm_run_once(cfg, jobs, njobs, res, 0);

	if (ret == -EAGAIN) {
		/* Before any job: the kernel's or the emulator's, not ours. */
		char *first = res->problem;

		res->problem = NULL;
		vm_result_free(res);
		forget_jobs(jobs, 0, njobs);
		ret = vm_run_once(cfg, jobs, njobs, res, 1);
		if (first && !res->boot_hung && res->booted)
			res->emulator_problem = xasprintf("(a boot that failed before init, "
							  "then booted again)\n%s", first);
		free(first);
	}
	return ret;
}

/*
 * Is this kernel problem the emulator's text-patching race (the comment
 * at "tcg,thread=single")?  Its mark is an int3 oops with the saved RIP
 * just past a function's ftrace call site: +0x5 behind the 4-byte endbr64
 * of an IBT kernel, +0x1 without one.  The kernel had finished patching
 * that site, so no int3 handler claimed the trap.
 */
bool vm_problem_is_tcg_int3(const char *problem)
{
	const char *rip;

	if (!problem || !strstr(problem, "int3: 0000 [#"))
		return false;
	rip = strstr(problem, "RIP: 0010:");
	if (!rip)
		return false;
	rip = strchrnul(rip, '+');
	return !strncmp(rip, "+0x5/", 5) || !strncmp(rip, "+0x1/", 5);
}

static void sb_add_boot(struct strbuf *sb, int boot, const char *text)
{
	if (!text)
		return;
	if (boot > 0)
		sb_printf(sb, "==== boot %d ====\n", boot + 1);
	sb_puts(sb, text);
}

/*
 * With cfg->reboots, a guest kernel that dies during a job costs that job
 * only: the jobs after it run in a new boot.  A death that looks like the
 * emulator's (vm_problem_is_tcg_int3), and a job still running after
 * cfg->job_timeout_s, rerun their own job once first.  If the rerun ends,
 * a death like the emulator's, or a hang with its mark
 * (vm_hang_is_tcg_int3), goes to res->emulator_problem, not to
 * res->problem.  Returns 0 once every job ended or died.
 */
int vm_run(const struct vm_config *cfg, struct vm_job *jobs, int njobs,
	   struct vm_result *res)
{
	struct strbuf problem = STRBUF_INIT, console = STRBUF_INIT;
	struct strbuf emul = STRBUF_INIT;
	int first = 0, boot = 0, ret, timed_out = 0;
	int rerun = -1, rerun_at = 0, reran = -1, excuse = 0;

	for (;; boot++) {
		int j;

		ret = vm_boot(cfg, jobs + first, njobs - first, res);
		sb_add_boot(&console, boot, res->console);
		if (res->emulator_problem)
			sb_puts(&emul, res->emulator_problem);
		timed_out |= res->timed_out;
		if (rerun >= 0 && excuse && jobs[rerun].status >= 0) {
			/* The rerun ended: the death before it was not its doing. */
			sb_puts(&emul, sb_str(&problem) + rerun_at);
			problem.len = (size_t)rerun_at;
			problem.buf[problem.len] = '\0';
		}
		rerun = -1;
		if (res->problem) {
			rerun_at = (int)problem.len;
			sb_add_boot(&problem, boot, res->problem);
		}
		if (ret != -EIO || !res->booted || res->timed_out ||
		    res->running_job < 0 || boot >= cfg->reboots)
			break;
		j = first + res->running_job;
		if (j != reran && vm_problem_is_tcg_int3(res->problem)) {
			fprintf(stderr, "vm: the guest kernel died in job %s of an int3 just "
				"past an ftrace call site (the emulator's text-patching race?): "
				"running the job again in a new boot\n", jobs[j].name);
			rerun = reran = first = j;
			excuse = 1;
		} else if (j != reran && res->hung) {
			/*
			 * Rerun to know whether it hangs again, and so that one
			 * hang costs no other job; only the emulator's is excused.
			 */
			excuse = vm_hang_is_tcg_int3(res->problem);
			fprintf(stderr, "vm: job %s was still running after %d s%s: running "
				"it again in a new boot\n", jobs[j].name, cfg->job_timeout_s,
				excuse ? " with a vCPU looping on an int3 (the emulator's "
					 "text-patching race?)" : "");
			rerun = reran = first = j;
		} else {
			fprintf(stderr, "vm: the guest kernel %s in job %s: booting "
				"again for the jobs after it\n",
				res->hung ? "hung" : "died", jobs[j].name);
			jobs[j].crashed = 1;
			jobs[j].hung = res->hung;
			first = j + 1;
		}
		forget_jobs(jobs, first, njobs);
		vm_result_free(res);
		if (first >= njobs) {
			ret = 0;
			break;
		}
	}
	vm_result_free(res);
	res->problem = problem.len ? sb_steal(&problem) : NULL;
	res->console = sb_steal(&console);
	res->emulator_problem = emul.len ? sb_steal(&emul) : NULL;
	sb_free(&problem);
	sb_free(&emul);
	res->kernel_problem = res->problem != NULL;
	res->timed_out = timed_out;
	return ret;
}

void vm_result_free(struct vm_result *res)
{
	free(res->problem);
	free(res->console);
	free(res->emulator_problem);
	res->problem = res->console = res->emulator_problem = NULL;
}
