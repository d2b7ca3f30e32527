// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's DWARF (dw.h): finding and checking the debuginfo, the
 * index's queries, tracepoints and symbols.  dwarf_index.c builds the
 * index.  A query for an exact name before the whole index exists is
 * answered from an index of that name alone, and the whole one is built
 * by a detached child for the next run (index_for): a first script costs
 * a tenth of a second rather than the seconds of the whole walk.
 */
#include "config.h"

#include "dw.h"

#ifndef HAVE_SQLITE3
/* Built without sqlite3: no index, so no DWARF probes; say so. */
#include <errno.h>
#include <stdlib.h>

#include "../common/util.h"

struct dw_object *dw_kernel_open(const char *release, char **err)
{
	*err = xasprintf("dwarf: stap-ng was built without sqlite3, which the DWARF "
			 "index needs\nhint: install libsqlite3-dev and rerun configure");
	return NULL;
}

void dw_close(struct dw_object *o)
{
}

/* Accepted as is: dw_kernel_open says what is missing. */
int dw_parse_pattern(const char *text, struct dw_pattern *out, char **err)
{
	*out = (struct dw_pattern){ .name = xstrdup(text) };
	*err = NULL;
	return 0;
}

void dw_pattern_free(struct dw_pattern *p)
{
	free(p->name);
	p->name = NULL;
}

/* Never reached: no object opens. */
enum dw_kind dw_kind(const struct dw_object *o) { return DW_KERNEL; }
const char *dw_name(const struct dw_object *o) { return ""; }
const char *dw_build_id(const struct dw_object *o) { return ""; }
const char *dw_debuginfo(const struct dw_object *o) { return ""; }
const char *dw_db_path(const struct dw_object *o) { return ""; }
uint64_t dw_stext(struct dw_object *o) { return 0; }
uint64_t dw_printk(struct dw_object *o) { return 0; }
bool dw_indexed(const struct dw_object *o) { return false; }
Dwarf *dw_dwarf(struct dw_object *o) { return NULL; }
Dwarf_CFI *dw_cfi(struct dw_object *o) { return NULL; }
struct dw_space dw_space(struct dw_object *o) { return (struct dw_space){ DW_SPACE_NONE }; }

int dw_list_dwarf_functions(struct dw_object *o, const struct dw_pattern *p, dw_func_fn fn,
			    void *arg)
{
	return -ENOTSUP;
}

int dw_lookup_functions(struct dw_object *o, const struct dw_pattern *p, dw_site_fn fn,
			void *arg)
{
	return -ENOTSUP;
}

int dw_list_functions(struct dw_object *o, const struct dw_pattern *p, dw_func_fn fn,
		      void *arg)
{
	return -ENOTSUP;
}

int dw_statements(struct dw_object *o, const struct dw_pattern *p, dw_stmt_fn fn, void *arg)
{
	return -ENOTSUP;
}

int dw_tracepoints(struct dw_object *o, dw_tracepoint_fn fn, void *arg)
{
	return -ENOTSUP;
}

char *dw_type_name(Dwarf_Die *type)
{
	return xstrdup("?");
}

int dw_symbolize(struct dw_object *o, uint64_t addr, const char **name, uint64_t *offset)
{
	return -ENOTSUP;
}

int dw_file_offset(struct dw_object *o, uint64_t addr, uint64_t *off)
{
	return -ENOTSUP;
}
#else /* HAVE_SQLITE3 */

#include <dwarf.h>		/* elfutils: DW_TAG_*, DW_AT_* */
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/util.h"
#include "dw_index.h"

/* ---- paths and build-ids ---- */

char *dw_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (x && *x)
		return xasprintf("%s/stap-ng/dwarf", x);
	return xasprintf("%s/.cache/stap-ng/dwarf", home && *home ? home : "/tmp");
}

char *dw_hex(const unsigned char *b, int n)
{
	char *s = xmalloc(2 * (size_t)n + 1);

	for (int i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", b[i]);
	return s;
}

/* The GNU build-id of an ELF file in memory or on disk, or NULL. */
static char *elf_build_id(Elf *elf)
{
	const void *b;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &b);

	return n > 0 ? dw_hex(b, (int)n) : NULL;
}

static char *file_build_id(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	char *id = NULL;

	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf)
		id = elf_build_id(elf);
	elf_end(elf);
	close(fd);
	return id;
}

/*
 * The build-id of a compressed kernel image (/boot/vmlinuz-R).  libdwfl
 * opens a bzImage and decompresses its payload itself when it was built
 * with that compressor (gzip, bzip2, xz here).  Debian's 6.12 images are
 * zstd, which the elfutils 0.188 of bookworm lacks: then the payload,
 * found from the x86 boot protocol header (Documentation/arch/x86/boot.rst:
 * setup_sects at 0x1f1, "HdrS" at 0x202, payload_offset at 0x248), is
 * piped through the zstd program.  Takes 0.1-0.9 s, hence image_id_cached.
 */
static char *image_build_id(const char *image)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl *dwfl = dwfl_begin(&cb);
	Dwfl_Module *m = dwfl ? dwfl_report_offline(dwfl, "kernel", image, -1) : NULL;
	const unsigned char *b;
	GElf_Addr va;
	char *id = NULL;

	if (m) {
		int n = dwfl_module_build_id(m, &b, &va);

		if (n > 0)
			id = dw_hex(b, n);
	}
	if (dwfl)
		dwfl_end(dwfl);
	if (!id) {
		unsigned char hdr[0x250];
		FILE *f = fopen(image, "rb");
		size_t got = f ? fread(hdr, 1, sizeof(hdr), f) : 0;

		if (f)
			fclose(f);
		if (got == sizeof(hdr) && !memcmp(hdr + 0x202, "HdrS", 4)) {
			unsigned setup = hdr[0x1f1] ? hdr[0x1f1] : 4;
			uint32_t off = hdr[0x248] | hdr[0x249] << 8 | hdr[0x24a] << 16 |
				       (uint32_t)hdr[0x24b] << 24;
			char *cmd = xasprintf("tail -c +%u \"$0\" | zstd -dcq 2>/dev/null",
					      (setup + 1) * 512 + off + 1);
			char *argv[] = { "sh", "-c", cmd, (char *)image, NULL };
			struct strbuf out = STRBUF_INIT;
			Elf *elf;

			run_cmd(argv, NULL, &out, 60);	/* status: trailing bytes */
			elf = out.len ? elf_memory(out.buf, out.len) : NULL;
			if (elf)
				id = elf_build_id(elf);
			elf_end(elf);
			sb_free(&out);
			free(cmd);
		}
	}
	return id;
}

/*
 * image_build_id, remembered in the cache directory next to the image's
 * identity (device, inode, size, mtime): a reinstalled image is re-read.
 * Without compute, only what is remembered (NULL if nothing is).
 */
static char *image_id_cached(const char *image, const char *dir, const char *release,
			     bool compute)
{
	struct stat st;
	struct strbuf sb = STRBUF_INIT;
	char *path, *key, *id = NULL;

	if (stat(image, &st) < 0)
		return NULL;
	path = xasprintf("%s/image-%s.id", dir, release);
	key = xasprintf("%llu %llu %lld %lld.%09ld ", (unsigned long long)st.st_dev,
			(unsigned long long)st.st_ino, (long long)st.st_size,
			(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	if (read_file(path, &sb) == 0 && !strncmp(sb.buf, key, strlen(key))) {
		id = xstrndup(sb.buf + strlen(key), strcspn(sb.buf + strlen(key), "\n"));
		if (!*id) {
			free(id);
			id = NULL;
		} else {
			goto out;
		}
	}
	if (!compute)
		goto out;
	id = image_build_id(image);
	if (id) {
		char *line = xasprintf("%s%s\n", key, id);
		char *tmp = xasprintf("%s.%d", path, (int)getpid());

		if (write_file(tmp, line, strlen(line)) == 0)
			rename(tmp, path);
		unlink(tmp);
		free(tmp);
		free(line);
	}
out:
	sb_free(&sb);
	free(path);
	free(key);
	return id;
}

/*
 * Whether debuginfo is the build of image, told by their version
 * strings rather than by build-ids: the image's needs decompressing the
 * whole kernel (0.1-0.9 s).  The x86 boot header (boot.rst: "HdrS" at
 * 0x202, kernel_version at 0x20e) holds, uncompressed,
 *     RELEASE (USER@HOST) #BUILD SMP ... DATE
 * and the vmlinux's linux_banner is
 *     Linux version RELEASE (USER@HOST) (COMPILER) #BUILD SMP ... DATE\n
 * Two builds agreeing on release, builder, build number and date are as
 * good as the same.  false: differ, or cannot tell (then read build-ids).
 */
struct banner_find {
	GElf_Sym sym;
	bool found;
};

static int banner_sym(const char *name, const GElf_Sym *sym, void *arg)
{
	struct banner_find *f = arg;

	if (strcmp(name, "linux_banner"))
		return 0;
	f->sym = *sym;
	f->found = true;
	return 1;
}

static bool banner_matches(const char *image, const char *debuginfo)
{
	unsigned char hdr[0x250];
	char ver[512], banner[512], *split;
	struct banner_find f = { .found = false };
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf *elf = NULL;
	size_t n, want;
	bool ok = false;
	int fd = open(image, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = (size_t)pread(fd, hdr, sizeof(hdr), 0);
	if (n != sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4) || !(hdr[0x20e] | hdr[0x20f]) ||
	    pread(fd, ver, sizeof(ver) - 1, 0x200 + (hdr[0x20e] | hdr[0x20f] << 8)) <= 0) {
		close(fd);
		return false;
	}
	close(fd);
	ver[sizeof(ver) - 1] = 0;
	split = strstr(ver, ") #");	/* between "(USER@HOST)" and "#BUILD" */
	if (!split)
		return false;
	*++split = 0;	/* ver: "RELEASE (USER@HOST)", split + 1: "#BUILD ..." */
	fd = open(debuginfo, O_RDONLY | O_CLOEXEC);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	if (elf)
		dw_elf_symbols(elf, banner_sym, &f);
	want = f.found ? (size_t)f.sym.st_size : 0;
	if (want && want < sizeof(banner) && (scn = elf_getscn(elf, f.sym.st_shndx)) &&
	    gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
	    f.sym.st_value >= sh.sh_addr && f.sym.st_value + want <= sh.sh_addr + sh.sh_size &&
	    pread(fd, banner, want, (off_t)(sh.sh_offset + f.sym.st_value - sh.sh_addr)) ==
		    (ssize_t)want) {
		size_t lb, lv = strlen(split + 1);

		banner[want] = 0;
		banner[strcspn(banner, "\n")] = 0;
		lb = strlen(banner);
		ok = !strncmp(banner, "Linux version ", 14) &&
		     !strncmp(banner + 14, ver, strlen(ver)) && lb > lv + 1 &&
		     banner[lb - lv - 1] == ' ' && !strcmp(banner + lb - lv, split + 1);
	}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* ---- opening ---- */

/* ---- the index: whole, or one name at a time until it exists ---- */

/*
 * $STAP_NG_INDEX: "whole" builds the whole index in this process when a
 * query needs it (as on a warm cache); "name" answers exact names from
 * in-memory indexes and never starts a background build (tests compare
 * the two).  Default: names in memory, the whole index in the background.
 */
static bool index_mode(const char *mode)
{
	const char *v = getenv("STAP_NG_INDEX");

	return v && !strcmp(v, mode);
}

/* What an index of k records about its origin. */
static struct dwi_meta kernel_meta(const struct dw_object *k)
{
	return (struct dwi_meta){ .release = k->release, .build_id = k->build_id,
				  .debuginfo = k->debuginfo, .image = k->image,
				  .image_build_id = k->image_id };
}

/*
 * Build the whole index under <db>.lock, unless it exists by the time the
 * lock is ours.  wait false: give up if another process holds the lock
 * (it is building the same file).  0, or a negative errno with *err.
 */
static int index_build_locked(struct dw_object *k, bool wait, char **err)
{
	char *lock = xasprintf("%s.lock", k->db_path);
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644), ret = 0;
	struct dwi_meta meta = kernel_meta(k);
	sqlite3 *db;

	*err = NULL;
	free(lock);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (!wait) {
			close(fd);
			return 0;
		}
		fprintf(stderr, "dwarf: waiting for another stap indexing %s\n", k->debuginfo);
		flock(fd, LOCK_EX);
	}
	db = dwdb_open(k->db_path);
	if (db) {
		sqlite3_close(db);
	} else {
		double t0 = dwi_now();

		if (wait)
			fprintf(stderr, "dwarf: indexing %s (once per kernel build, takes "
				"seconds)\n", k->debuginfo);
		ret = dwi_build_file(k->db_path, &meta, err);
		if (!ret && wait)
			fprintf(stderr, "dwarf: indexed in %.1f s into %s\n", dwi_now() - t0,
				k->db_path);
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * For the next stap, in a detached child at the lowest priority: read the
 * image's build-id if it was trusted by its banner, and build the whole
 * index if it is missing.  This process goes on with what it has.
 */
static void background_index(struct dw_object *k)
{
	pid_t pid;
	char *err = NULL;
	int fd;

	if (k->bg_started || index_mode("name") || index_mode("whole"))
		return;
	k->bg_started = true;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return;
	if (pid > 0) {
		waitpid(pid, NULL, 0);
		return;
	}
	if (fork() != 0)	/* the grandchild builds: nobody waits for it */
		_exit(0);
	setsid();
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	/* Off the caller's pipes: a test's $(stap ...) must not wait for it. */
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	closefrom(3);
	if (nice(19) < 0) {
		/* best effort */
	}
	if (k->image && !k->image_id)
		free(image_id_cached(k->image, k->dir, k->release, true));
	if (!k->db)
		index_build_locked(k, false, &err);
	_exit(0);
}

/* The whole index, built here if missing; NULL after saying why. */
static sqlite3 *index_whole(struct dw_object *k)
{
	char *err = NULL;

	if (k->db)
		return k->db;
	if (index_build_locked(k, true, &err) < 0) {
		util_err("%s", err);
		free(err);
		return NULL;
	}
	k->db = dwdb_open(k->db_path);
	if (!k->db)
		util_err("dwarf: cannot open the new index %s", k->db_path);
	return k->db;
}

/*
 * The index to query for functions named name (a glob): the whole one if
 * it exists, else for an exact name one of that name alone (dw_index.h),
 * built in a tenth of a second, while the whole one is built in the
 * background for next time.
 */
static sqlite3 *index_for(struct dw_object *k, const char *name)
{
	struct dwi_meta meta = kernel_meta(k);
	char *err = NULL;
	sqlite3 *db;

	if (k->kind != DW_KERNEL)
		return k->db;	/* opened with its whole index */
	if (k->db || !name || strpbrk(name, "*?[") || index_mode("whole"))
		return index_whole(k);
	for (int i = 0; i < k->nparts; i++)
		if (!strcmp(k->parts[i].name, name))
			return k->parts[i].db;
	k->db = dwdb_open(k->db_path);	/* built meanwhile? */
	if (k->db || k->nparts == DW_PARTS)
		return index_whole(k);
	db = dwi_build_name(&meta, name, &err);
	if (!db) {
		free(err);	/* the whole index will say it again */
		return index_whole(k);
	}
	k->parts[k->nparts++] = (struct dw_part){ xstrdup(name), db };
	background_index(k);
	return db;
}

struct dw_object *dw_kernel_open(const char *release, char **err)
{
	const char *root = getenv("STAP_NG_DEBUGINFO_DIR");
	char *dir = dw_cache_dir(), *image = xasprintf("/boot/vmlinuz-%s", release);
	char *image_id = NULL, *cand[3] = { NULL }, *found = NULL, *found_id = NULL;
	char *bad = NULL, *bad_id = NULL;
	struct dw_object *k = NULL;
	struct strbuf sb = STRBUF_INIT;
	bool has_image;
	int nc = 0;

	*err = NULL;
	elf_version(EV_CURRENT);
	if (!root || !*root)
		root = "/usr/lib/debug";
	if (mkdir_p(dir, 0755) < 0) {
		*err = xasprintf("dwarf: cannot create the cache directory %s: %s", dir,
				 strerror(errno));
		goto out;
	}
	has_image = file_exists(image);
	if (has_image)
		image_id = image_id_cached(image, dir, release, false);
	if (image_id)
		cand[nc++] = xasprintf("%s/.build-id/%.2s/%s.debug", root, image_id, image_id + 2);
	cand[nc++] = xasprintf("%s/boot/vmlinux-%s", root, release);
	cand[nc++] = xasprintf("%s/lib/modules/%s/vmlinux", root, release);
	if (has_image && !image_id) {
		/* The image's build-id is costly: its version string may do. */
		int i = 0;

		while (i < nc && !file_exists(cand[i]))
			i++;
		if (i == nc || !banner_matches(image, cand[i]))
			image_id = image_id_cached(image, dir, release, true);
	}
	for (int i = 0; i < nc && !found; i++) {
		char *id;

		if (!file_exists(cand[i]))
			continue;
		id = file_build_id(cand[i]);
		if (id && (!image_id || !strcmp(id, image_id))) {
			found = cand[i];
			found_id = id;
		} else if (!bad) {
			bad = cand[i];
			bad_id = id ? id : xstrdup("none");
		} else {
			free(id);
		}
	}
	if (!found) {
		if (bad)
			*err = xasprintf("dwarf: %s (build-id %s) does not match %s (build-id %s)\n"
					 "hint: install the matching linux-image-%s-dbg",
					 bad, bad_id, image, image_id ? image_id : "unread", release);
		else {
			sb_printf(&sb, "dwarf: no debuginfo for kernel %s: none of", release);
			for (int i = 0; i < nc; i++)
				sb_printf(&sb, " %s", cand[i]);
			sb_printf(&sb, " exists\nhint: install linux-image-%s-dbg", release);
			*err = sb_steal(&sb);
		}
		goto out;
	}

	k = xcalloc(1, sizeof(*k));
	k->kind = DW_KERNEL;
	k->name = xstrdup("kernel");
	k->release = xstrdup(release);
	k->build_id = found_id;
	found_id = NULL;
	k->debuginfo = xstrdup(found);
	k->dir = dir;
	dir = NULL;
	if (has_image) {
		k->image = image;
		image = NULL;
		k->image_id = image_id;
		image_id = NULL;
	}
	/* The schema in the name: trees of different versions share the cache. */
	k->db_path = xasprintf("%s/%s.v%d.db", k->dir, k->build_id, DW_SCHEMA_VERSION);
	k->db = dwdb_open(k->db_path);
	if (k->image && !k->image_id)	/* trusted its banner: read it for next time */
		background_index(k);
out:
	for (int i = 0; i < nc; i++)
		free(cand[i]);
	free(found_id);
	free(bad_id);
	free(image_id);
	free(image);
	free(dir);
	sb_free(&sb);
	return k;
}

/* Modules and user files stay open for the process (dw.h). */
void dw_close(struct dw_object *k)
{
	if (!k || k->kind != DW_KERNEL)
		return;
	sqlite3_close(k->db);
	for (int i = 0; i < k->nparts; i++) {
		sqlite3_close(k->parts[i].db);
		free(k->parts[i].name);
	}
	free(k->syms);
	if (k->dbg)
		dwarf_end(k->dbg);
	if (k->elf)
		elf_end(k->elf);
	if (k->fd > 0)
		close(k->fd);
	free(k->name);
	free(k->release);
	free(k->build_id);
	free(k->debuginfo);
	free(k->db_path);
	free(k->dir);
	free(k->image);
	free(k->image_id);
	free(k);
}

enum dw_kind dw_kind(const struct dw_object *o)
{
	return o->kind;
}

const char *dw_name(const struct dw_object *o)
{
	return o->name;
}

const char *dw_build_id(const struct dw_object *o)
{
	return o->build_id;
}

const char *dw_debuginfo(const struct dw_object *o)
{
	return o->debuginfo;
}

const char *dw_db_path(const struct dw_object *o)
{
	return o->db_path;
}

bool dw_indexed(const struct dw_object *o)
{
	return o->db != NULL;
}

/*
 * The function symbols: the kernel's from its ELF, with _stext and
 * _printk; a module's or user file's as libdwfl lays them out.
 */
static void load_syms(struct dw_object *o)
{
	if (o->syms_tried)
		return;
	o->syms_tried = true;
	if (o->kind != DW_KERNEL)
		dwm_read_symbols(o);
	else if (dw_dwarf(o))
		o->syms = dwi_read_symtab(o->elf, &o->nsyms, &o->stext, &o->printk);
}

/* _stext and _printk: the index has them, else the symbol table. */
static void read_addrs(struct dw_object *k)
{
	char *v;

	if (k->addrs_known)
		return;
	k->addrs_known = true;
	if (k->db) {
		v = dwdb_meta(k->db, "stext");
		k->stext = v ? strtoull(v, NULL, 10) : 0;
		free(v);
		v = dwdb_meta(k->db, "printk");
		k->printk = v ? strtoull(v, NULL, 10) : 0;
		free(v);
	} else {
		load_syms(k);
	}
}

uint64_t dw_stext(struct dw_object *k)
{
	read_addrs(k);
	return k->stext;
}

uint64_t dw_printk(struct dw_object *k)
{
	read_addrs(k);
	return k->printk;
}

/* A kernel's is opened on first use; a module's or user file's with it. */
Dwarf *dw_dwarf(struct dw_object *k)
{
	if (k->kind == DW_KERNEL && !k->dbg_tried) {
		k->dbg_tried = true;
		k->fd = open(k->debuginfo, O_RDONLY | O_CLOEXEC);
		k->elf = k->fd > 0 ? elf_begin(k->fd, ELF_C_READ_MMAP, NULL) : NULL;
		k->dbg = k->elf ? dwarf_begin_elf(k->elf, DWARF_C_READ, NULL) : NULL;
		if (k->dbg) {
			k->cfi = dwarf_getcfi(k->dbg);	/* .debug_frame */
			if (!k->cfi)
				k->cfi = dwarf_getcfi_elf(k->elf);	/* .eh_frame */
		}
	}
	return k->dbg;
}

Dwarf_CFI *dw_cfi(struct dw_object *k)
{
	return dw_dwarf(k) ? k->cfi : NULL;
}

struct dw_space dw_space(struct dw_object *o)
{
	switch (o->kind) {
	case DW_KERNEL:
		return (struct dw_space){ DW_SPACE_KERNEL, "kernel", dw_printk(o) };
	case DW_MODULE:
		return (struct dw_space){ DW_SPACE_MODULE, o->name, 0 };
	case DW_USER:
		return (struct dw_space){ DW_SPACE_USER, o->path, 0 };
	}
	return (struct dw_space){ DW_SPACE_NONE };
}

/* ---- patterns and queries ---- */

int dw_parse_pattern(const char *text, struct dw_pattern *out, char **err)
{
	const char *at = strchr(text, '@'), *colon;
	char *end;

	*out = (struct dw_pattern){ 0 };
	*err = NULL;
	if (!at) {
		out->name = xstrdup(text);
	} else {
		out->name = xstrndup(text, (size_t)(at - text));
		colon = strchr(at + 1, ':');
		out->file = colon ? xstrndup(at + 1, (size_t)(colon - at - 1)) : xstrdup(at + 1);
		if (colon && strcmp(colon + 1, "*")) {
			long lo = strtol(colon + 1, &end, 10), hi = lo;

			if (*end == '-')
				hi = strtol(end + 1, &end, 10);
			if (end == colon + 1 || *end || lo <= 0 || hi < lo) {
				*err = xasprintf("bad line '%s' in '%s': expected N or N-M",
						 colon + 1, text);
				goto bad;
			}
			out->line_lo = (int)lo;
			out->line_hi = (int)hi;
		}
		if (!*out->file) {
			*err = xasprintf("empty file name after '@' in '%s'", text);
			goto bad;
		}
	}
	if (!*out->name) {
		*err = xasprintf("empty function name in '%s'", text);
		goto bad;
	}
	return 0;
bad:
	dw_pattern_free(out);
	return -EINVAL;
}

void dw_pattern_free(struct dw_pattern *p)
{
	free(p->name);
	free(p->file);
	*p = (struct dw_pattern){ 0 };
}

static int list_query(struct dw_object *k, const struct dw_pattern *p, dw_func_fn fn,
		      void *arg)
{
	sqlite3 *db = index_for(k, p->name);

	return db ? dwdb_funcs(db, k->db_path, p, fn, arg) : -EIO;
}

static int site_query(struct dw_object *k, const struct dw_pattern *p, dw_site_fn fn,
		      void *arg)
{
	sqlite3 *db = index_for(k, p->name);

	return db ? dwdb_sites(db, k->db_path, p, fn, arg) : -EIO;
}

/*
 * Symbol aliases.  A function symbol may have no DWARF function of its own
 * and name one that has under another name: SYSCALL_DEFINE0(getppid)
 * makes __x64_sys_getppid an ELF alias of __do_sys_getppid.  SystemTap
 * resolves such a name through the symbol table to the function at the
 * same address, and people arriving from other tracers write those names,
 * so the queries do too: every function symbol matching the pattern whose
 * name no DWARF function matched brings in the functions named by the
 * other symbols at its address (their out-of-line copies there).  Not for
 * NAME@FILE patterns: an alias has no source file of its own.
 */
struct alias_walk {
	struct vec seen;	/* names the DWARF query matched (malloc'ed) */
	struct vec addrs;	/* uint64_t *: the alias symbols' addresses */
	void *fn, *arg;		/* the caller's callback */
	int n;			/* callbacks made for alias targets */
};

static int strp_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the DWARF query matched name (w->seen sorted). */
static bool alias_seen(const struct alias_walk *w, const char *name)
{
	return w->seen.len &&
	       bsearch(&name, w->seen.items, (size_t)w->seen.len, sizeof(char *), strp_cmp);
}

static void alias_note(struct alias_walk *w, const char *name)
{
	if (!w->seen.len || strcmp(w->seen.items[w->seen.len - 1], name))
		vec_push(&w->seen, xstrdup(name));
}

static int alias_site_seen(const struct dw_site *site, void *arg)
{
	struct alias_walk *w = arg;

	alias_note(w, site->name);
	return ((dw_site_fn)w->fn)(site, w->arg);
}

static int alias_func_seen(const struct dw_func *f, void *arg)
{
	struct alias_walk *w = arg;

	alias_note(w, f->name);
	return ((dw_func_fn)w->fn)(f, w->arg);
}

/* A site of an alias target: only its out-of-line copy at an alias's address. */
static int alias_site(const struct dw_site *site, void *arg)
{
	struct alias_walk *w = arg;

	if (site->inlined)
		return 0;
	for (int i = 0; i < w->addrs.len; i++)
		if (*(uint64_t *)w->addrs.items[i] == site->entry_pc) {
			w->n++;
			return ((dw_site_fn)w->fn)(site, w->arg);
		}
	return 0;
}

static int alias_func(const struct dw_func *f, void *arg)
{
	struct alias_walk *w = arg;

	if (f->inline_only)
		return 0;
	w->n++;
	return ((dw_func_fn)w->fn)(f, w->arg);
}

/* The query, then the functions that symbols matching p alias (above). */
static int query_with_aliases(struct dw_object *k, const struct dw_pattern *p, bool sites,
			      void *fn, void *arg)
{
	struct alias_walk w = { .fn = fn, .arg = arg };
	struct vec targets = { 0 };
	int ret, i;

	/* Modules have none looked for; a user file's index holds its own (dwarf_mod.c). */
	if (k->kind != DW_KERNEL)
		return sites ? site_query(k, p, (dw_site_fn)fn, arg)
			     : list_query(k, p, (dw_func_fn)fn, arg);
	ret = sites ? site_query(k, p, alias_site_seen, &w) : list_query(k, p, alias_func_seen, &w);
	/* An exact name DWARF knows has no aliases to look for. */
	if (ret < 0 || p->file || (ret > 0 && !strpbrk(p->name, "*?[")))
		goto out;
	if (w.seen.len)
		qsort(w.seen.items, (size_t)w.seen.len, sizeof(char *), strp_cmp);
	load_syms(k);
	for (size_t j = 0; j < k->nsyms; j++) {
		const struct dwi_sym *sy = &k->syms[j];
		size_t a = j, b = j;
		bool found = false;

		if (fnmatch(p->name, sy->name, 0) || alias_seen(&w, sy->name))
			continue;
		/* The other names at this address. */
		while (a > 0 && k->syms[a - 1].addr == sy->addr)
			a--;
		while (b + 1 < k->nsyms && k->syms[b + 1].addr == sy->addr)
			b++;
		for (size_t t = a; t <= b; t++) {
			const char *name = k->syms[t].name;
			bool dup = false;

			if (t == j || !fnmatch(p->name, name, 0))
				continue;
			for (i = 0; i < targets.len && !dup; i++)
				dup = !strcmp(targets.items[i], name);
			if (!dup)
				vec_push(&targets, (void *)name);
			found = true;
		}
		if (found) {
			uint64_t *addr = xmalloc(sizeof(*addr));

			*addr = sy->addr;
			vec_push(&w.addrs, addr);
		}
	}
	for (i = 0; i < targets.len; i++) {
		struct dw_pattern tp = { .name = targets.items[i] };
		int r = sites ? site_query(k, &tp, alias_site, &w) : list_query(k, &tp, alias_func, &w);

		if (r < 0) {
			ret = r;
			goto out;
		}
	}
	ret += w.n;
out:
	for (i = 0; i < w.seen.len; i++)
		free(w.seen.items[i]);
	for (i = 0; i < w.addrs.len; i++)
		free(w.addrs.items[i]);
	vec_free(&w.seen);
	vec_free(&w.addrs);
	vec_free(&targets);
	return ret;
}

int dw_list_functions(struct dw_object *k, const struct dw_pattern *p, dw_func_fn fn,
		      void *arg)
{
	return query_with_aliases(k, p, false, (void *)fn, arg);
}

int dw_list_dwarf_functions(struct dw_object *k, const struct dw_pattern *p, dw_func_fn fn,
			    void *arg)
{
	return list_query(k, p, fn, arg);
}

int dw_lookup_functions(struct dw_object *k, const struct dw_pattern *p, dw_site_fn fn,
			void *arg)
{
	return query_with_aliases(k, p, true, (void *)fn, arg);
}

int dw_statements(struct dw_object *o, const struct dw_pattern *p, dw_stmt_fn fn, void *arg)
{
	if (o->kind == DW_KERNEL)
		return -ENOTSUP;	/* no statement table: dw.h */
	return dwdb_stmts(o->db, o->db_path, p, fn, arg);
}

/* ---- tracepoints (kernel.trace) ---- */

/*
 * A tracepoint's system is not in its name: it is the TRACE_SYSTEM of
 * the header that declared it, which the kernel keeps only in the trace
 * event built from it.  Every trace event is a struct trace_event_call
 * listed in the _ftrace_events section (__start_ftrace_events ..
 * __stop_ftrace_events, an array of pointers); for a tracepoint's event
 * its tp member points to the struct tracepoint (the ELF symbol
 * __tracepoint_NAME) and class->system to the system's name.  So the
 * vmlinux's own data gives name -> system: read the pointers out of the
 * ELF sections (link-time addresses), with the member offsets taken from
 * the DWARF of those structs.
 *
 * Tracepoints declared with DECLARE_TRACE() alone have no event (nor a
 * directory in tracefs); they get the system of the events declared in
 * the same header, when those agree, and are left out otherwise.
 *
 * The answer is cached per build next to the index, in
 * <build-id>.tracepoints: TP_CACHE_MAGIC, then one "name system" a line.
 */

struct tp_sym {
	uint64_t addr;
	const char *name;	/* NAME of __tracepoint_NAME */
};

static int tp_sym_cmp(const void *a, const void *b)
{
	const struct tp_sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The loaded sections of the ELF that hold bytes (not .bss). */
struct elf_mem {
	struct { uint64_t addr, size; Elf_Data *d; } sec[128];
	int n;
};

static void elf_mem_init(Elf *elf, struct elf_mem *m)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	m->n = 0;
	while ((scn = elf_nextscn(elf, scn)) && m->n < (int)ARRAY_SIZE(m->sec)) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type != SHT_PROGBITS || !sh.sh_size)
			continue;
		m->sec[m->n].addr = sh.sh_addr;
		m->sec[m->n].size = sh.sh_size;
		m->sec[m->n].d = elf_getdata(scn, NULL);
		if (m->sec[m->n].d && m->sec[m->n].d->d_size == sh.sh_size)
			m->n++;
	}
}

/* The bytes at link-time address addr, at least len of them, or NULL. */
static const unsigned char *elf_mem_at(const struct elf_mem *m, uint64_t addr, size_t len)
{
	for (int i = 0; i < m->n; i++)
		if (addr >= m->sec[i].addr && addr - m->sec[i].addr < m->sec[i].size &&
		    len <= m->sec[i].size - (addr - m->sec[i].addr))
			return (const unsigned char *)m->sec[i].d->d_buf + (addr - m->sec[i].addr);
	return NULL;
}

static bool elf_mem_ptr(const struct elf_mem *m, uint64_t addr, uint64_t *out)
{
	const unsigned char *p = elf_mem_at(m, addr, 8);

	if (!p)
		return false;
	memcpy(out, p, 8);	/* x86-64: little-endian, as the host */
	return true;
}

/* The type a DIE's DW_AT_type names, typedefs and qualifiers removed. */
static bool die_type_peeled(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	int n = 0;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
		return false;
	while (n++ < 16) {
		int tag = dwarf_tag(&t);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type)
			break;
		if (!dwarf_attr_integrate(&t, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
			return false;
	}
	*out = t;
	return true;
}

/* The struct a pointer-typed DIE points to. */
static bool die_pointee_struct(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Die p;

	if (!die_type_peeled(die, &p) || dwarf_tag(&p) != DW_TAG_pointer_type ||
	    !die_type_peeled(&p, out))
		return false;
	return dwarf_tag(out) == DW_TAG_structure_type &&
	       !dwarf_hasattr(out, DW_AT_declaration);
}

/*
 * The offset of member @name in struct/union @st, looking into anonymous
 * unions and structs; the member's DIE into *mem.  -1 if none.
 */
static int64_t member_offset(Dwarf_Die *st, const char *name, Dwarf_Die *mem, int depth)
{
	Dwarf_Die c, sub;
	Dwarf_Word off;
	Dwarf_Attribute a;

	if (depth > 4 || dwarf_child(st, &c) != 0)
		return -1;
	do {
		const char *n;

		if (dwarf_tag(&c) != DW_TAG_member)
			continue;
		off = 0;
		if (dwarf_attr(&c, DW_AT_data_member_location, &a) && dwarf_formudata(&a, &off))
			continue;	/* a location expression: not in C structs */
		n = dwarf_diename(&c);
		if (n && !strcmp(n, name)) {
			*mem = c;
			return (int64_t)off;
		}
		if (!n && die_type_peeled(&c, &sub) &&
		    (dwarf_tag(&sub) == DW_TAG_union_type ||
		     dwarf_tag(&sub) == DW_TAG_structure_type)) {
			int64_t r = member_offset(&sub, name, mem, depth + 1);

			if (r >= 0)
				return (int64_t)off + r;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return -1;
}

struct tp_offsets {
	int64_t call_class, call_tp, class_system;
};

static int first_param_site(const struct dw_site *site, void *arg)
{
	*(uint64_t *)arg = site->die_off;
	return 1;
}

/* Member offsets of struct trace_event_call and trace_event_class. */
static int tp_offsets(struct dw_object *k, struct tp_offsets *o)
{
	/* Kernel functions whose first parameter is a struct trace_event_call *. */
	static const char *const takers[] = {
		"trace_add_event_call", "trace_remove_event_call", "trace_event_raw_init",
	};
	Dwarf *dbg = dw_dwarf(k);

	if (!dbg)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(takers); i++) {
		struct dw_pattern p = { .name = (char *)takers[i] };
		uint64_t die_off = 0;
		Dwarf_Die fn, c, call, cls, mem;

		if (dw_lookup_functions(k, &p, first_param_site, &die_off) <= 0 ||
		    !dwarf_offdie(dbg, die_off, &fn) || dwarf_child(&fn, &c) != 0)
			continue;
		while (dwarf_tag(&c) != DW_TAG_formal_parameter)
			if (dwarf_siblingof(&c, &c) != 0)
				break;
		if (dwarf_tag(&c) != DW_TAG_formal_parameter || !die_pointee_struct(&c, &call))
			continue;
		o->call_class = member_offset(&call, "class", &mem, 0);
		if (o->call_class < 0 || !die_pointee_struct(&mem, &cls))
			continue;
		o->call_tp = member_offset(&call, "tp", &mem, 0);
		o->class_system = member_offset(&cls, "system", &mem, 0);
		if (o->call_tp >= 0 && o->class_system >= 0)
			return 0;
	}
	return -1;
}

/*
 * name -> system of every tracepoint with a trace event, from the ELF
 * (see above), appended to out as "name system\n" lines.
 */
/* The symbols tp_systems_from_elf needs: the event array, each __tracepoint_X. */
struct tp_syms {
	struct tp_sym *tps;
	size_t n, cap;
	uint64_t start, stop;
};

static int tp_sym_add(const char *name, const GElf_Sym *s, void *arg)
{
	struct tp_syms *t = arg;

	if (s->st_shndx == SHN_UNDEF || name[0] != '_' || name[1] != '_')
		return 0;
	if (!strcmp(name, "__start_ftrace_events"))
		t->start = s->st_value;
	else if (!strcmp(name, "__stop_ftrace_events"))
		t->stop = s->st_value;
	else if (GELF_ST_TYPE(s->st_info) == STT_OBJECT && !strncmp(name, "__tracepoint_", 13)) {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 2048;
			t->tps = xrealloc(t->tps, t->cap * sizeof(*t->tps));
		}
		t->tps[t->n++] = (struct tp_sym){ s->st_value, name + 13 };
	}
	return 0;
}

static int tp_systems_from_elf(struct dw_object *k, struct strbuf *out)
{
	struct tp_offsets o;
	struct tp_syms ts = { 0 };
	struct tp_sym *tps;
	size_t ntps;
	uint64_t start, stop;
	struct elf_mem *m = NULL;
	int ret = -ENOENT;

	if (tp_offsets(k, &o) < 0)
		return -ENOENT;
	dw_elf_symbols(k->elf, tp_sym_add, &ts);
	tps = ts.tps;
	ntps = ts.n;
	start = ts.start;
	stop = ts.stop;
	if (!start || stop <= start || !ntps)
		goto out;
	qsort(tps, ntps, sizeof(*tps), tp_sym_cmp);
	m = xmalloc(sizeof(*m));
	elf_mem_init(k->elf, m);
	for (uint64_t a = start; a + 8 <= stop; a += 8) {
		uint64_t call, tp, cls, sys;
		const char *str;
		struct tp_sym key, *hit;

		if (!elf_mem_ptr(m, a, &call) || !elf_mem_ptr(m, call + o.call_tp, &tp) ||
		    !elf_mem_ptr(m, call + o.call_class, &cls) ||
		    !elf_mem_ptr(m, cls + o.class_system, &sys))
			continue;
		/* Events that are not tracepoints (syscalls, kprobes) hold a name here. */
		key.addr = tp;
		hit = bsearch(&key, tps, ntps, sizeof(*tps), tp_sym_cmp);
		str = hit ? (const char *)elf_mem_at(m, sys, 1) : NULL;
		if (!str || !memchr(str, '\0', 64) || !*str)
			continue;
		sb_printf(out, "%s %s\n", hit->name, str);
		ret = 0;
	}
out:
	free(m);
	free(tps);
	return ret;
}

struct tp_entry {
	char *name, *system, *file;
	int line;
	uint64_t die_off;
};

static int tp_entry_ptr_cmp(const void *a, const void *b)
{
	const struct tp_entry *x = *(struct tp_entry *const *)a, *y = *(struct tp_entry *const *)b;

	return strcmp(x->name, y->name);
}

static int add_traceiter(const struct dw_site *site, void *arg)
{
	struct vec *v = arg;
	struct tp_entry *e;

	if (site->inlined || strncmp(site->name, "__traceiter_", 12))
		return 0;
	e = xcalloc(1, sizeof(*e));
	e->name = xstrdup(site->name + 12);
	e->file = xstrdup(site->file);
	e->line = site->line;
	e->die_off = site->die_off;
	vec_push(v, e);
	return 0;
}

/* The first line of a tracepoints cache file; change it with the format. */
#define TP_CACHE_MAGIC "stap-ng tracepoints 1\n"

/* The cached "name system" lines of k, computing them on first use. */
static int tp_systems(struct dw_object *k, struct strbuf *sb)
{
	char *dir = dw_cache_dir();
	char *path = xasprintf("%s/%s.tracepoints", dir, k->build_id);
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int ret = 0;

	if (read_file(path, sb) == 0 &&
	    !strncmp(sb_str(sb), TP_CACHE_MAGIC, strlen(TP_CACHE_MAGIC)))
		goto out;
	sb_reset(sb);
	sb_puts(sb, TP_CACHE_MAGIC);
	if (!dw_dwarf(k) || tp_systems_from_elf(k, sb) < 0) {
		ret = -ENOENT;
		goto out;
	}
	/* A cache only: a failure to write it costs time, not correctness. */
	if (write_file(tmp, sb->buf, sb->len) == 0 && rename(tmp, path) < 0)
		unlink(tmp);
out:
	free(dir);
	free(path);
	free(tmp);
	return ret;
}

int dw_tracepoints(struct dw_object *k, dw_tracepoint_fn fn, void *arg)
{
	struct dw_pattern p = { .name = "__traceiter_*" };
	struct strbuf sys = STRBUF_INIT;
	struct vec v = VEC_INIT;
	struct tp_entry *e, key;
	char *line, *save = NULL;
	int ret, n = 0, i, j;

	/* DWARF names them all: no symbol-table aliases (nor its reading). */
	ret = site_query(k, &p, add_traceiter, &v);
	if (ret < 0)
		goto out;
	qsort(v.items, (size_t)v.len, sizeof(void *), tp_entry_ptr_cmp);
	if (tp_systems(k, &sys) < 0) {
		ret = -ENOENT;
		goto out;
	}
	line = strtok_r(sys.buf + strlen(TP_CACHE_MAGIC), "\n", &save);
	for (; line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		struct tp_entry *kp = &key, **hit;

		if (!sp)
			continue;
		*sp = '\0';
		key.name = line;
		hit = bsearch(&kp, v.items, (size_t)v.len, sizeof(void *), tp_entry_ptr_cmp);
		if (hit && !(*hit)->system)
			(*hit)->system = xstrdup(sp + 1);
	}
	/* No event: the system of the events of the same header, if one. */
	for (i = 0; i < v.len; i++) {
		const char *s = NULL;
		bool conflict = false;

		e = v.items[i];
		if (e->system)
			continue;
		for (j = 0; j < v.len && !conflict; j++) {
			struct tp_entry *o = v.items[j];

			if (!o->system || strcmp(o->file, e->file))
				continue;
			if (s && strcmp(s, o->system))
				conflict = true;
			s = o->system;
		}
		if (s && !conflict)
			e->system = xstrdup(s);
	}
	ret = 0;
	for (i = 0; i < v.len && !ret; i++) {
		struct dw_tracepoint tp;

		e = v.items[i];
		if (!e->system)
			continue;
		tp = (struct dw_tracepoint){ e->name, e->system, e->file, e->line, e->die_off };
		n++;
		ret = fn(&tp, arg);
	}
out:
	for (i = 0; i < v.len; i++) {
		e = v.items[i];
		free(e->name);
		free(e->system);
		free(e->file);
		free(e);
	}
	vec_free(&v);
	sb_free(&sys);
	return ret ? ret : n;
}

/* ---- addresses to symbols ---- */

int dw_symbolize(struct dw_object *o, uint64_t addr, const char **name, uint64_t *offset)
{
	uint32_t i;

	load_syms(o);
	addr += o->bias;
	i = o->syms ? dwi_sym_find(o->syms, o->nsyms, addr) : UINT32_MAX;
	if (i == UINT32_MAX)
		return -ENOENT;
	*name = o->syms[i].name;
	*offset = addr - o->syms[i].addr;
	return 0;
}
#endif /* HAVE_SQLITE3 */

/* Outside the sqlite3 split: the symbol-table readers need it either way. */
int dw_elf_symbols(Elf *elf, dw_elf_sym_fn fn, void *arg)
{
	return dw_elf_symbols_of(elf, SHT_SYMTAB, fn, arg);
}

int dw_elf_symbols_of(Elf *elf, int type, dw_elf_sym_fn fn, void *arg)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		int n = 0;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != (GElf_Word)type || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name)
				continue;
			n++;
			if (fn(name, &sym, arg))
				break;
		}
		return n;
	}
	return -1;
}
