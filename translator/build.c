// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 4: build the module with the target kernel's kbuild.
 *
 * The build directory holds the generated stp_script.c, a copy of the
 * runtime under rt/, stap_kfeatures.h and a Kbuild file.  The module
 * links the script with only the runtime it needs: most runtime objects
 * go into an archive, stp_rt.a, and the linker takes from it just the
 * members that define a symbol the script (or a member taken) refers to,
 * so a script without statistics, stacks or syscall decoding carries no
 * code for them.  The objects no symbol reaches but the module needs
 * (module_init, module parameters staprun sets) are linked whole.
 *
 * Kernel features are detected by compiling each runtime/kfeatures/X.c
 * against the target headers; the answers are cached per kernel build
 * (release + its autoconf.h + the test sources), so a kernel's stable
 * backports are seen without any version-number checks.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stap.h"
#include "rtkey.h"

char *build_kernel_tree(struct session *s, const char *release)
{
	char *dir = xasprintf("/lib/modules/%s/build", release);
	char *mk = xasprintf("%s/Makefile", dir);
	bool ok = file_exists(mk);

	free(mk);
	if (ok)
		return dir;
	util_err("no kernel build tree for %s (%s is missing)", release, dir);
	fprintf(stderr, "hint: install the headers: apt-get install linux-headers-%s%s\n",
		release, s->vm ? "" : "; or use --vm to run in a VM with a provisioned kernel");
	free(dir);
	return NULL;
}

/* Sorted names of the files in dir ending in suffix. */
static int list_files(const char *dir, const char *suffix, struct vec *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t sl = strlen(suffix);

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (e->d_name[0] != '.' && n > sl && !strcmp(e->d_name + n - sl, suffix))
			vec_push(out, xstrdup(e->d_name));
	}
	closedir(d);
	for (int i = 1; i < out->len; i++)	/* insertion sort: few files */
		for (int j = i; j > 0 && strcmp(out->items[j - 1], out->items[j]) > 0; j--) {
			void *t = out->items[j];

			out->items[j] = out->items[j - 1];
			out->items[j - 1] = t;
		}
	return 0;
}

static void free_names(struct vec *v)
{
	for (int i = 0; i < v->len; i++)
		free(v->items[i]);
	vec_free(v);
}

static char *cache_dir(const char *sub)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (xdg && *xdg)
		return xasprintf("%s/stap-ng/%s", xdg, sub);
	return xasprintf("%s/.cache/stap-ng/%s", home && *home ? home : "/tmp", sub);
}

/*
 * kbuild runs nm on every object it compiles, twice (exported symbols,
 * their CRCs).  Without a target nm tries each BFD plugin in
 * /usr/lib/bfd-plugins, and clang's LLVMgold there loads all of
 * libLLVM: 70 ms of CPU a run, a fifth of a small module's build.
 * Naming the host's object format skips the plugins.  Only for a
 * kernel built by GCC (a Clang LTO build's objects are LLVM bitcode),
 * and modules are built for the host's architecture.
 */
#if defined(__x86_64__)
#define KBUILD_NM "NM=nm --target=elf64-x86-64"
#elif defined(__aarch64__)
#define KBUILD_NM "NM=nm --target=elf64-littleaarch64"
#else
#define KBUILD_NM NULL
#endif

static char *kbuild_nm(const char *kdir)
{
	char *autoconf = xasprintf("%s/include/generated/autoconf.h", kdir);
	struct strbuf conf = STRBUF_INIT;
	bool gcc = read_file(autoconf, &conf) >= 0 &&
		   strstr(sb_str(&conf), "#define CONFIG_CC_IS_GCC 1\n");

	free(autoconf);
	sb_free(&conf);
	return gcc ? KBUILD_NM : NULL;
}

static int run_kbuild(struct session *s, const char *kdir, const char *dir,
		      bool keep_going, struct strbuf *out, int timeout_s)
{
	char *mflag = xasprintf("M=%s", dir);
	char *cflag = xasprintf("-C%s", kdir);
	char *nm = kbuild_nm(kdir);
	/*
	 * No BTF for our modules: where the headers ship vmlinux (Debian's
	 * 6.12), kbuild runs pahole on each .ko, a sixth of a small
	 * module's build, for type data nothing reads.
	 */
	char *fixed[] = { "make", cflag, mflag, "-j2", keep_going ? "-k" : "-s",
			  "CONFIG_DEBUG_INFO_BTF_MODULES=", "modules", nm };
	char **argv = xcalloc(ARRAY_SIZE(fixed) + s->make_args.len + 1, sizeof(*argv));
	int ret, argc = 0;

	for (size_t i = 0; i < ARRAY_SIZE(fixed) && fixed[i]; i++)
		argv[argc++] = fixed[i];
	/* -B NAME=VALUE, after ours: the user's word wins, as on make's command line. */
	for (int i = 0; i < s->make_args.len; i++)
		argv[argc++] = s->make_args.items[i];

	if (s->verbose >= 2) {
		/* argv itself, so the message cannot drift from what runs. */
		fputs("Running", stderr);
		for (int i = 0; argv[i]; i++)
			fprintf(stderr, strchr(argv[i], ' ') ? " '%s'" : " %s", argv[i]);
		fputc('\n', stderr);
	}
	ret = run_cmd(argv, NULL, out, timeout_s);
	free(argv);
	free(mflag);
	free(cflag);
	return ret;
}

/* Produce "#define STAPCONF_X 1" lines for every test that compiles. */
static int detect_features(struct session *s, const char *kdir,
			   struct vec *tests, const char *testdir,
			   struct strbuf *header)
{
	char *dir = make_temp_dir("stapkf");
	struct strbuf kbuild = STRBUF_INIT, out = STRBUF_INIT;
	int i, ret = 0;

	if (!dir)
		return -errno;
	/*
	 * A control that any kernel build compiles: if it fails too, kbuild
	 * itself failed (killed, out of space, a broken tree), every test
	 * would read as a missing feature, and that answer must not be
	 * cached.
	 */
	char *control = xasprintf("%s/kf__control.c", dir);
	static const char control_c[] = "#include <linux/module.h>\nint stp_kf_control;\n";

	ret = write_file(control, control_c, sizeof(control_c) - 1);
	free(control);
	if (ret)
		goto out;
	sb_puts(&kbuild, "obj-m := kf__control.o");
	for (i = 0; i < tests->len; i++) {
		const char *name = tests->items[i];
		char *from = xasprintf("%s/%s", testdir, name);
		char *to = xasprintf("%s/kf_%s", dir, name);

		ret = copy_file(from, to);
		free(from);
		free(to);
		if (ret)
			goto out;
		sb_printf(&kbuild, " kf_%.*s.o", (int)strlen(name) - 2, name);
	}
	sb_putc(&kbuild, '\n');
	char *kb = xasprintf("%s/Kbuild", dir);

	ret = write_file(kb, kbuild.buf, kbuild.len);
	free(kb);
	if (ret)
		goto out;
	/* Failures are the answers here, so the exit status is ignored. */
	run_kbuild(s, kdir, dir, true, &out, 600);
	char *cobj = xasprintf("%s/kf__control.o", dir);
	bool built = file_exists(cobj);

	free(cobj);
	if (!built) {
		util_err("the kernel build of %s cannot compile a module, so its features "
			 "cannot be tested:\n%s", s->release, sb_str(&out));
		fprintf(stderr, "hint: check %s (make, gcc and the kernel headers), "
			"or run ./bootstrap.sh to provision it\n", kdir);
		ret = -ENOEXEC;
		goto out;
	}
	sb_puts(header, "/* Generated by stap: kernel features found by test compiles. */\n");
	for (i = 0; i < tests->len; i++) {
		const char *name = tests->items[i];
		char *obj = xasprintf("%s/kf_%.*s.o", dir, (int)strlen(name) - 2, name);

		if (file_exists(obj)) {
			sb_puts(header, "#define STAPCONF_");
			for (const char *p = name; *p && strcmp(p, ".c"); p++)
				sb_putc(header, (char)toupper((unsigned char)*p));
			sb_puts(header, " 1\n");
		}
		free(obj);
	}
	if (s->verbose >= 3)
		fprintf(stderr, "%s", sb_str(&out));
out:
	if (!s->keep_tmp)
		rm_rf(dir);
	free(dir);
	sb_free(&kbuild);
	sb_free(&out);
	return ret;
}

/*
 * Write stap_kfeatures.h into the build dir, from the cache if we can,
 * and fold its contents into *hash (the runtime objects depend on it).
 */
static int kernel_features(struct session *s, const char *kdir,
			   const char *builddir, uint64_t *hash)
{
	char *testdir = xasprintf("%s/kfeatures", s->runtime_dir);
	struct vec tests = VEC_INIT;
	struct strbuf key = STRBUF_INIT, header = STRBUF_INIT;
	uint64_t h = HASH_INIT;
	char *cdir = NULL, *cfile = NULL, *dst = NULL;
	int i, ret;

	ret = list_files(testdir, ".c", &tests);
	if (ret)
		goto out;
	sb_puts(&key, s->release);
	char *autoconf = xasprintf("%s/include/generated/autoconf.h", kdir);

	read_file(autoconf, &key);
	free(autoconf);
	for (i = 0; i < tests.len; i++) {
		char *p = xasprintf("%s/%s", testdir, (char *)tests.items[i]);

		sb_puts(&key, p);
		read_file(p, &key);
		free(p);
	}
	for (i = 0; i < s->make_args.len; i++)	/* -B may set a CONFIG_ the tests read */
		sb_printf(&key, "-B %s\n", (char *)s->make_args.items[i]);
	h = hash_bytes(h, key.buf, key.len);
	cdir = cache_dir("kfeatures");
	cfile = xasprintf("%s/%s-%016llx.h", cdir, s->release, (unsigned long long)h);
	if (read_file(cfile, &header) < 0) {
		sb_reset(&header);
		if (s->verbose)
			fprintf(stderr, "Detecting kernel features of %s (once per kernel build)\n",
				s->release);
		ret = detect_features(s, kdir, &tests, testdir, &header);
		if (ret)
			goto out;
		/* The cache is an optimisation: failing to write it is fine. */
		if (!mkdir_p(cdir, 0755)) {
			char *tmp = xasprintf("%s.%d", cfile, (int)getpid());

			if (!write_file(tmp, header.buf, header.len))
				rename(tmp, cfile);
			free(tmp);
		}
	}
	dst = xasprintf("%s/stap_kfeatures.h", builddir);
	ret = write_file(dst, sb_str(&header), header.len);
	*hash = hash_bytes(*hash, sb_str(&header), header.len);
out:
	if (ret && ret != -ENOEXEC)
		util_err("cannot detect kernel features in %s: %s", testdir, strerror(-ret));
	free_names(&tests);
	sb_free(&key);
	sb_free(&header);
	free(testdir);
	free(cdir);
	free(cfile);
	free(dst);
	return ret;
}

/*
 * Runtime objects linked whole, whatever the script uses: module.c has
 * module_init/exit, relay.c and target.c the parameters staprun passes
 * or reads (_stp_bulkmode, _stp_target, ...).  Nothing refers to them by
 * symbol, so from the archive the linker would leave them out.
 */
static const char *const rt_whole[] = { "module", "relay", "target" };

static bool rt_linked_whole(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(rt_whole) / sizeof(rt_whole[0]); i++)
		if (strlen(rt_whole[i]) == len && !strncmp(rt_whole[i], name, len))
			return true;
	return false;
}

/*
 * Copy the runtime's .c and .h files into dir/rt; list the .c files as
 * objects, in objs those linked whole and in lib the archive's members
 * (names: their base names), hash every byte copied into *h and scan
 * it into *k.
 */
static int copy_runtime(struct session *s, const char *builddir,
			struct strbuf *objs, struct strbuf *lib,
			struct vec *names, uint64_t *h, struct rtkey *k)
{
	char *rt = xasprintf("%s/rt", builddir);
	struct vec files = VEC_INIT;
	int i, ret;

	ret = mkdir_p(rt, 0755);
	if (!ret)
		ret = list_files(s->runtime_dir, ".c", &files);
	if (!ret)
		ret = list_files(s->runtime_dir, ".h", &files);
	for (i = 0; !ret && i < files.len; i++) {
		const char *name = files.items[i];
		char *from = xasprintf("%s/%s", s->runtime_dir, name);
		char *to = xasprintf("%s/%s", rt, name);

		struct strbuf data = STRBUF_INIT;

		ret = read_file(from, &data);
		if (!ret)
			ret = write_file(to, sb_str(&data), data.len);
		*h = hash_bytes(*h, name, strlen(name) + 1);
		*h = hash_bytes(*h, sb_str(&data), data.len);
		rtkey_scan_file(k, name, sb_str(&data), data.len);
		sb_free(&data);
		free(from);
		free(to);
		if (!strcmp(name + strlen(name) - 2, ".c")) {
			int len = strlen(name) - 2;

			sb_printf(rt_linked_whole(name, len) ? objs : lib,
				  " rt/%.*s.o", len, name);
			vec_push(names, xstrndup(name, strlen(name) - 2));
		}
	}
	if (ret)
		util_err("cannot copy the runtime from %s: %s", s->runtime_dir,
			 strerror(-ret));
	free_names(&files);
	free(rt);
	return ret;
}

/*
 * Flags for every object of the module.  -g0: the kernel's config asks
 * for DWARF, which would be 95% of the module's bytes and nothing reads
 * it (symbols come from the symbol table).
 */
#define MODULE_CFLAGS " -g0"
/* How the runtime objects are built and linked: see build_module(). */
#define RT_LAYOUT "stp_rt.a members as module parts, the archive cached instead of them"

/*
 * The runtime's objects depend only on the kernel build, its detected
 * features, the runtime sources and those of the -D set that the runtime
 * reads (rtkey.c: -DMAXACTION=N, which only the script's code reads,
 * does not count), never on the script: they are compiled once per such
 * combination and kept in the cache: those linked whole as objects, the
 * others as the archive stp_rt.a.  A later build gets those linked whole
 * as rt/X.o with their .cmd and without rt/X.c, and the archive, without
 * a rule: kbuild has none to
 * remake either, so only the script's own C is compiled (through kbuild's
 * "%_shipped" copy, each object cost a shell and a copy more per module;
 * making the archive anew, an ar and 32 objects' copies and checks).
 */
static char *rtobj_dir(struct session *s, uint64_t h, struct rtkey *k)
{
	struct vec defs = VEC_INIT;
	char *sub, *dir;

	h = hash_bytes(h, s->release, strlen(s->release) + 1);
	h = hash_bytes(h, MODULE_CFLAGS, sizeof(MODULE_CFLAGS));
	/* Objects compiled for the archive (before: with the wrong flags). */
	h = hash_bytes(h, RT_LAYOUT, sizeof(RT_LAYOUT));
	for (int i = 0; i < s->make_args.len; i++)	/* -B: they build the runtime too */
		h = hash_bytes(h, s->make_args.items[i], strlen(s->make_args.items[i]) + 1);
	rtkey_relevant(k, &s->defines, &defs);
	for (int i = 0; i < defs.len; i++) {
		if (s->verbose >= 2)
			fprintf(stderr, "Runtime define: -D%s\n", (char *)defs.items[i]);
		h = hash_bytes(h, defs.items[i], strlen(defs.items[i]) + 1);
		free(defs.items[i]);
	}
	vec_free(&defs);
	sub = xasprintf("rtobj/%s-%016llx", s->release, (unsigned long long)h);
	dir = cache_dir(sub);
	free(sub);
	return dir;
}

/* The cache's copy of FILE and its .FILE.cmd into DIR/FILE: 0 or -errno. */
static int copy_built(const char *cache, const char *file, const char *dir)
{
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	int dirlen = base - file, ret;
	char *from = xasprintf("%s/%s", cache, base);
	char *to = xasprintf("%s/%s", dir, file);
	char *cfrom = xasprintf("%s/.%s.cmd", cache, base);
	char *cto = xasprintf("%s/%.*s.%s.cmd", dir, dirlen, file, base);

	/* modpost reads symbol CRCs (#SYMVER lines) from the .cmd file. */
	ret = copy_file(from, to) ?: copy_file(cfrom, cto);
	free(from);
	free(to);
	free(cfrom);
	free(cto);
	return ret;
}

/*
 * Use the cached runtime if all of it is there: 1 if so, else 0.  The
 * objects linked whole become rt/X.o, the others come as the archive.
 */
static int use_cached_runtime(const char *cache, const char *builddir,
			      struct vec *names)
{
	char *a = xasprintf("%s/stp_rt.a", cache), *acmd = xasprintf("%s/.stp_rt.a.cmd", cache);
	bool ok = file_exists(a) && file_exists(acmd);
	int i;

	free(a);
	free(acmd);
	for (i = 0; ok && i < names->len; i++) {
		const char *n = names->items[i];
		char *o = xasprintf("%s/%s.o", cache, n);
		char *cmd = xasprintf("%s/.%s.o.cmd", cache, n);

		ok = !rt_linked_whole(n, strlen(n)) || (file_exists(o) && file_exists(cmd));
		free(o);
		free(cmd);
	}
	if (!ok || copy_built(cache, "stp_rt.a", builddir))
		return 0;
	for (i = 0; i < names->len; i++) {
		const char *n = names->items[i];
		char *o, *c;
		int ret;

		if (!rt_linked_whole(n, strlen(n)))
			continue;
		o = xasprintf("rt/%s.o", n);
		c = xasprintf("%s/rt/%s.c", builddir, n);
		ret = copy_built(cache, o, builddir);
		/* Without the .c, nothing makes the .o again. */
		unlink(c);
		free(o);
		free(c);
		if (ret)
			return 0;
	}
	return 1;
}

/*
 * Runtime objects not cached yet: wait while another stap builds them
 * (two parallel builds of one new set would both compile it, a full
 * runtime each), then hold the lock until ours are saved.  The lock
 * file is <cache>.lock; the fd, or -1 if there is no cache directory.
 */
static int rtobj_lock(struct session *s, const char *cache)
{
	char *parent = cache_dir("rtobj"), *lock = xasprintf("%s.lock", cache);
	int fd = -1;

	if (!mkdir_p(parent, 0755))
		fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (s->verbose)
			fprintf(stderr, "Waiting for another stap building the runtime into %s\n",
				cache);
		flock(fd, LOCK_EX);
	}
	free(parent);
	free(lock);
	return fd;
}

/* After a full build: keep what use_cached_runtime takes, for the next one. */
static void save_runtime(const char *cache, const char *builddir, struct vec *names)
{
	char *tmp = xasprintf("%s.tmp%d", cache, (int)getpid());
	char *rt = xasprintf("%s/rt", builddir);
	int i, ret = mkdir_p(tmp, 0755);

	if (!ret)
		ret = copy_built(builddir, "stp_rt.a", tmp);
	for (i = 0; !ret && i < names->len; i++) {
		const char *n = names->items[i];
		char *o;

		if (!rt_linked_whole(n, strlen(n)))
			continue;
		o = xasprintf("%s.o", n);
		ret = copy_built(rt, o, tmp);
		free(o);
	}
	/* Two builds may race to fill the cache: the first rename wins. */
	if (ret || rename(tmp, cache) < 0)
		rm_rf(tmp);
	free(rt);
	free(tmp);
}

/* -D NAME=VALUE for the compiler, quoted for make. */
static void defines(struct session *s, struct strbuf *kb)
{
	for (int i = 0; i < s->defines.len; i++)
		sb_printf(kb, " -D%s", (char *)s->defines.items[i]);
}

/*
 * --kbuild-defer DIR (the test runner's, with -p4): leave the build
 * directory, linked as DIR/NAME, instead of running kbuild; --kbuild-batch
 * DIR then builds all of them with one kbuild.  A kbuild run has a fixed cost of
 * its own (its Makefiles, some 30 compiler option probes, modpost's
 * start), as large as compiling a small script; paid once per batch, it
 * takes some 40% off the suite's builds.  A build whose runtime objects
 * are not cached yet is not deferred: it builds now and fills the cache,
 * instead of every module of the batch compiling the runtime.  True if
 * deferred; the directory is kbuild_batch's to remove.
 */
static bool defer_build(struct session *s)
{
	char *to = xasprintf("%s/%s", s->kbuild_defer, s->module_name);
	bool ok;

	/*
	 * A link, not a move: the generated C names files in the build
	 * directory by absolute path (.incbin of stp_lines.bin).
	 */
	unlink(to);
	ok = symlink(s->tmpdir, to) == 0;
	free(to);
	if (ok)
		s->tmpdir = NULL;	/* kbuild_batch removes it */
	return ok;
}

/* DIR/NAME, a link to a deferred build directory: remove both. */
static void remove_deferred(const char *sub)
{
	char target[4096];
	ssize_t n = readlink(sub, target, sizeof(target) - 1);

	if (n > 0) {
		target[n] = 0;
		rm_rf(target);
		unlink(sub);
	} else {
		rm_rf(sub);
	}
}

/* kbuild over DIR/NAME/ for each of names (with NAME/NAME<need> if need). */
static int kbuild_subdirs(struct session *s, const char *kdir, const char *dir,
			  struct vec *names, const char *need, struct strbuf *out)
{
	struct strbuf kb = STRBUF_INIT;
	char *path;
	int i, ret, n = 0;

	/* kbuild descends into each NAME/ with that directory's own Kbuild. */
	for (i = 0; i < names->len; i++) {
		const char *name = names->items[i];
		char *f = need ? xasprintf("%s/%s/%s%s", dir, name, name, need) : NULL;

		if (!f || file_exists(f)) {
			sb_printf(&kb, "obj-m += %s/\n", name);
			n++;
		}
		free(f);
	}
	path = xasprintf("%s/Kbuild", dir);
	ret = n ? write_file(path, kb.buf, kb.len) : -1;
	if (n && ret < 0)
		util_err("cannot write %s: %s", path, strerror(errno));
	free(path);
	sb_free(&kb);
	if (ret < 0)
		return -1;
	sb_reset(out);
	return run_kbuild(s, kdir, dir, true, out, 600 + 10 * n);
}

int kbuild_batch(struct session *s, const char *dir)
{
	char *kdir = build_kernel_tree(s, s->release);
	struct strbuf out = STRBUF_INIT;
	struct vec names = VEC_INIT;
	DIR *d;
	struct dirent *e;
	int i, ret, failed = 0;

	if (!kdir)
		return -1;
	d = opendir(dir);
	if (!d) {
		util_err("cannot open %s: %s", dir, strerror(errno));
		free(kdir);
		return -1;
	}
	while ((e = readdir(d))) {
		char *kbuild = xasprintf("%s/%s/Kbuild", dir, e->d_name);

		if (e->d_name[0] != '.' && file_exists(kbuild))
			vec_push(&names, xstrdup(e->d_name));
		free(kbuild);
	}
	closedir(d);
	if (!names.len)
		goto out;
	/*
	 * -k: a module that fails to compile leaves the others compiled, but
	 * modpost then links none; a second run over the modules that did
	 * link (NAME/NAME.o) makes their .ko files.
	 */
	ret = kbuild_subdirs(s, kdir, dir, &names, NULL, &out);
	if (ret && ret != -ETIMEDOUT)
		ret = kbuild_subdirs(s, kdir, dir, &names, ".o", &out);
	for (i = 0; i < names.len; i++) {
		const char *n = names.items[i];
		char *sub = xasprintf("%s/%s", dir, n);
		char *ko = xasprintf("%s/%s.ko", sub, n), *dst = xasprintf("%s.ko", n);

		/* What did not build, the test runner builds again on its own. */
		if (ret != 0 || !file_exists(ko) || copy_file(ko, dst) != 0)
			failed++;
		remove_deferred(sub);
		free(sub);
		free(ko);
		free(dst);
	}
	if (failed) {
		util_err("%d of %d modules did not build for %s%s:", failed, names.len,
			 s->release, ret == -ETIMEDOUT ? " (timed out)" : "");
		fputs(sb_str(&out), stderr);
	}
out:
	free_names(&names);
	sb_free(&out);
	free(kdir);
	return failed ? 1 : 0;
}

/*
 * The module cache's key (cache.c): all that kbuild reads and that can
 * differ between two builds.  The C names the build directory by path
 * (lines.c's .incbin), which differs every run: the key takes the C
 * without it, and the file it names.  The kernel headers count through
 * the detected features (autoconf.h is in their key) and Module.symvers,
 * whose symbol CRCs go into the module.
 */
static void module_key(struct session *s, const char *kdir, uint64_t rt_hash,
		       struct strbuf *objs, struct cache_key *k)
{
	const char *c = sb_str(&s->c_code), *hit;
	size_t tlen = strlen(s->tmpdir);
	char *path = xasprintf("%s/Module.symvers", kdir);
	struct strbuf blob = STRBUF_INIT;
	struct stat st;

	ckey_init(k);
	ckey_str(k, "stap-ng module cache 1");
	ckey_str(k, s->release);
	ckey_add(k, &rt_hash, sizeof(rt_hash));
	ckey_str(k, MODULE_CFLAGS);
	ckey_str(k, RT_LAYOUT);
	ckey_str(k, sb_str(objs));
	for (int i = 0; i < s->defines.len; i++)
		ckey_str(k, s->defines.items[i]);
	for (int i = 0; i < s->make_args.len; i++)
		ckey_str(k, s->make_args.items[i]);
	if (s->module_named)
		ckey_str(k, s->module_name);
	if (stat(path, &st) == 0) {
		ckey_add(k, &st.st_size, sizeof(st.st_size));
		ckey_add(k, &st.st_mtim, sizeof(st.st_mtim));
	}
	while ((hit = strstr(c, s->tmpdir))) {
		ckey_add(k, c, hit - c);
		c = hit + tlen;
	}
	ckey_str(k, c);
	free(path);
	path = xasprintf("%s/stp_lines.bin", s->tmpdir);
	if (read_file(path, &blob) == 0)
		ckey_add(k, blob.buf, blob.len);
	sb_free(&blob);
	free(path);
}

int build_module(struct session *s)
{
	char *kdir = build_kernel_tree(s, s->release);
	struct strbuf kb = STRBUF_INIT, objs = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf lib = STRBUF_INIT;
	struct vec rt_names = VEC_INIT;
	uint64_t rt_hash = HASH_INIT;
	struct rtkey rtk = RTKEY_INIT;
	char *path = NULL, *cache = NULL, *name = NULL;
	struct cache_key key;
	int ret = -1, cached, lockfd = -1;

	if (!kdir)
		return -1;
	path = xasprintf("%s/stp_script.c", s->tmpdir);
	if (write_file(path, s->c_code.buf, s->c_code.len) < 0) {
		util_err("cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	if (copy_runtime(s, s->tmpdir, &objs, &lib, &rt_names, &rt_hash, &rtk) ||
	    kernel_features(s, kdir, s->tmpdir, &rt_hash))
		goto out;
	module_key(s, kdir, rt_hash, &objs, &key);
	if (!s->module_named)
		s->module_name = arena_strdup(&s->arena, name = cache_module_name(&key));
	/* -m NAME: the module is NAME.ko, made here, as SystemTap's is. */
	if (!s->module_named && !s->kbuild_defer &&
	    (s->module_path = cache_lookup(s, s->module_name))) {
		s->cached_ko = s->module_path;
		ret = 0;
		goto out;
	}
	cache = rtobj_dir(s, rt_hash, &rtk);
	cached = use_cached_runtime(cache, s->tmpdir, &rt_names);
	if (!cached) {
		lockfd = rtobj_lock(s, cache);
		cached = use_cached_runtime(cache, s->tmpdir, &rt_names);
	}
	if (s->verbose >= 2)
		fprintf(stderr, "Runtime objects: %s %s\n", cached ? "cached in" : "building for", cache);
	sb_printf(&kb, "obj-m := %s.o\n%s-y := stp_script.o%s stp_rt.a\n",
		  s->module_name, s->module_name, sb_str(&objs));
	if (!cached) {
		/*
		 * The archive: kbuild lists it in the module's .mod file
		 * like an object, and its ld -r takes only the members
		 * needed (GNU ld rescans one archive until no member adds a
		 * definition).  ld needs the archive's symbol index: no "S"
		 * (kbuild's own cmd_ar drops it).
		 */
		sb_printf(&kb, "stp_rt-objs :=%s\n"
			  "quiet_cmd_stp_ar = AR      $@\n"
			  "      cmd_stp_ar = rm -f $@; $(AR) cDPr $@ $(real-prereqs)\n"
			  "$(obj)/stp_rt.a: $(addprefix $(obj)/,$(stp_rt-objs)) FORCE\n"
			  "\t$(call if_changed,stp_ar)\n"
			  "targets += stp_rt.a\n", sb_str(&lib));
		/*
		 * kbuild compiles an object as part of a module (-DMODULE,
		 * so that THIS_MODULE is this module, and KBUILD_MODNAME)
		 * only if the module's list names it; the archive's members
		 * are compiled as that list's objects would be.
		 */
		sb_printf(&kb, "$(addprefix $(obj)/,$(stp_rt-objs)): part-of-module := y\n"
			  "$(addprefix $(obj)/,$(stp_rt-objs)): modname := %s\n",
			  s->module_name);
	}
	sb_puts(&kb, "ccflags-y := -I$(src)/rt -I$(src)" MODULE_CFLAGS);
	defines(s, &kb);
	sb_puts(&kb, "\n");
	free(path);
	path = xasprintf("%s/Kbuild", s->tmpdir);
	if (write_file(path, kb.buf, kb.len) < 0) {
		util_err("cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	if (s->kbuild_defer && cached && defer_build(s)) {
		ret = 1;
		goto out;
	}
	ret = run_kbuild(s, kdir, s->tmpdir, false, &out, 600);
	if (ret) {
		util_err("building the module for %s failed%s:", s->release,
			 ret == -ETIMEDOUT ? " (timed out)" : "");
		fputs(sb_str(&out), stderr);
		fprintf(stderr, "hint: the messages above point at your script where "
			"they come from it; otherwise report this as a bug (run with -k "
			"to keep %s)\n", s->tmpdir);
		ret = -1;
		goto out;
	}
	if (s->verbose >= 2)
		fputs(sb_str(&out), stderr);
	free(path);
	path = xasprintf("%s/%s.ko", s->tmpdir, s->module_name);
	if (!file_exists(path)) {
		util_err("kbuild succeeded but made no %s", path);
		ret = -1;
		goto out;
	}
	if (!cached && lockfd >= 0)
		save_runtime(cache, s->tmpdir, &rt_names);
	s->module_path = path;
	if (!s->module_named)
		s->cached_ko = cache_store(s, s->module_name, path, &s->c_code);
	path = NULL;
	ret = 0;
out:
	if (lockfd >= 0)
		close(lockfd);
	free(path);
	free(cache);
	free(name);
	rtkey_free(&rtk);
	free_names(&rt_names);
	free(kdir);
	sb_free(&kb);
	sb_free(&objs);
	sb_free(&lib);
	sb_free(&out);
	return ret;
}
