// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's DWARF, indexed once per build into sqlite3: see dwarf.h for
 * what is indexed and the prologue rule.
 *
 * Building the index: the main thread lists the compile units; NTHREADS
 * workers, each with its own Elf and Dwarf handle on the vmlinux (libdw
 * handles are not thread-safe), take units from a shared counter and
 * append one record per out-of-line or inlined copy to private arrays.
 * The main thread then merges the arrays into functions, finds each
 * address's ELF symbol, and writes the database in one transaction to a
 * temporary file that is renamed into place, so a concurrent stap sees
 * either no index or a whole one.
 */
#include "config.h"

#include "dw.h"

#ifndef HAVE_SQLITE3
/* Built without sqlite3: no index, so no DWARF probes; say so. */
#include <errno.h>
#include <stdlib.h>

#include "../common/util.h"

struct dw_kernel *dw_open(const char *release, char **err)
{
	*err = xasprintf("dwarf: stap-ng was built without sqlite3, which the DWARF "
			 "index needs\nhint: install libsqlite3-dev and rerun configure");
	return NULL;
}

void dw_close(struct dw_kernel *k)
{
}

/* Accepted as is: dw_open says what is missing. */
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

/* Never reached: dw_open fails. */
const char *dw_build_id(const struct dw_kernel *k) { return ""; }
const char *dw_debuginfo_path(const struct dw_kernel *k) { return ""; }
const char *dw_db_path(const struct dw_kernel *k) { return ""; }
uint64_t dw_stext(const struct dw_kernel *k) { return 0; }
uint64_t dw_printk(const struct dw_kernel *k) { return 0; }
Dwarf *dw_dwarf(struct dw_kernel *k) { return NULL; }
Dwarf_CFI *dw_cfi(struct dw_kernel *k) { return NULL; }

int dw_lookup_functions(struct dw_kernel *k, const struct dw_pattern *p, dw_site_fn fn,
			void *arg)
{
	return -ENOTSUP;
}

int dw_list_functions(struct dw_kernel *k, const struct dw_pattern *p, dw_func_fn fn,
		      void *arg)
{
	return -ENOTSUP;
}

int dw_tracepoints(struct dw_kernel *k, dw_tracepoint_fn fn, void *arg)
{
	return -ENOTSUP;
}

char *dw_type_name(Dwarf_Die *type)
{
	return xstrdup("?");
}

int dw_symbolize(struct dw_kernel *k, uint64_t addr, const char **name, uint64_t *offset)
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
#include <gelf.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/util.h"

struct dw_kernel {
	sqlite3 *db;
	char *release, *build_id, *debuginfo, *db_path;
	uint64_t stext, printk;
	/* dw_dwarf(): the debuginfo itself, opened on first use */
	int fd;
	Elf *elf;
	Dwarf *dbg;
	Dwarf_CFI *cfi;
	bool dbg_tried;
	/* dw_symbolize(): the ELF's function symbols, read on first use */
	struct sym *syms;
	size_t nsyms;
	bool syms_tried;
};

/* ---- a small open-addressing hash table of record indexes ---- */

/*
 * Slots hold (hash, index + 1); the caller owns the records and says
 * whether record i equals its key.  Used for files, functions and the
 * per-thread "vars already computed" set.
 */
struct htab {
	struct hslot {
		uint64_t hash;
		uint32_t idx1;	/* index + 1; 0: empty */
	} *slots;
	uint32_t cap, len;
};

typedef bool (*ht_eq_fn)(uint32_t idx, const void *key, void *ctx);

static void ht_grow(struct htab *h)
{
	uint32_t ncap = h->cap ? h->cap * 2 : 1024;
	struct hslot *ns = xcalloc(ncap, sizeof(*ns));

	for (uint32_t i = 0; i < h->cap; i++) {
		uint32_t j;

		if (!h->slots[i].idx1)
			continue;
		for (j = h->slots[i].hash & (ncap - 1); ns[j].idx1; j = (j + 1) & (ncap - 1))
			;
		ns[j] = h->slots[i];
	}
	free(h->slots);
	h->slots = ns;
	h->cap = ncap;
}

/* The index equal to key, or -1 after reserving a slot that ht_set fills. */
static int64_t ht_find(struct htab *h, uint64_t hash, const void *key, ht_eq_fn eq,
		       void *ctx, struct hslot **slot)
{
	uint32_t j;

	if (2 * (h->len + 1) > h->cap)
		ht_grow(h);
	for (j = hash & (h->cap - 1); h->slots[j].idx1; j = (j + 1) & (h->cap - 1))
		if (h->slots[j].hash == hash && eq(h->slots[j].idx1 - 1, key, ctx))
			return h->slots[j].idx1 - 1;
	*slot = &h->slots[j];
	return -1;
}

static void ht_set(struct htab *h, struct hslot *slot, uint64_t hash, uint32_t idx)
{
	slot->hash = hash;
	slot->idx1 = idx + 1;
	h->len++;
}

static void ht_free(struct htab *h)
{
	free(h->slots);
	*h = (struct htab){ 0 };
}

static uint64_t hash_str(const char *s)
{
	return hash_bytes(HASH_INIT, s, strlen(s));
}

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
 */
static char *image_id_cached(const char *image, const char *dir, const char *release)
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

/* ---- the index builder: per-thread scan ---- */

#define NTHREADS_MAX 8

/* One out-of-line or inlined copy of a function. */
struct rec {
	const char *name;	/* into the thread's .debug_str */
	const char *vars;	/* first record of its function in its thread, else NULL */
	const char *ret;	/* likewise: the return type, "" for void */
	int nparams;		/* likewise: parameters at the start of vars */
	uint32_t file, line, cu;
	uint32_t func;		/* filled by the merge */
	uint32_t sym;		/* likewise: index into symtab, or UINT32_MAX */
	bool inlined;
	uint64_t entry, probe;
	uint64_t die;		/* global DIE offset of this copy */
};

/* Interned, normalised file names shared by all threads. */
struct files {
	pthread_mutex_t lock;
	struct vec names;	/* char * */
	struct htab ht;
	char *prefix[4];	/* to strip, longest first: find_roots */
	int nprefix;
};

struct builder {
	const char *path;
	Dwarf_Off *cus;		/* CU DIE offsets */
	int ncus;
	atomic_int next;
	struct files files;
};

struct worker {
	struct builder *b;
	pthread_t tid;
	int fd;
	Elf *elf;
	Dwarf *dbg;
	struct rec *recs;
	size_t nrecs, caprecs;
	struct htab fileptr;	/* dwarf_decl_file pointer -> global id */
	const char **fileptrs;
	uint32_t *fileids;
	size_t nfileptr;
	struct htab seen;	/* (name ptr, file, line) whose vars are done */
	struct vec vars;	/* char *, owned */
	/* the current CU's line table, addresses sorted */
	uint64_t *laddr;
	bool *lend;		/* end_sequence rows */
	size_t nlines;
	int *lprologue;		/* rows with prologue_end, -1 ended; NULL: none */
	uint32_t cu;		/* current CU's file id */
	char err[256];
};

/* Lexically clean an absolute or relative path: "a/./b/../c" -> "a/c". */
static char *clean_path(const char *p)
{
	char *out = xmalloc(strlen(p) + 2), *o = out;
	bool abs = *p == '/';

	if (abs)
		*o++ = '/';
	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			/* skip */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *root = out + abs, *slash;

			if (o > root && !(o - root >= 2 && o[-1] == '.' && o[-2] == '.' &&
					  (o - root == 2 || o[-3] == '/'))) {
				*o = 0;
				slash = strrchr(root, '/');
				o = slash ? slash : root;
			} else if (!abs) {
				if (o > root)
					*o++ = '/';
				*o++ = '.';
				*o++ = '.';
			}
		} else {
			if (o > out + abs)
				*o++ = '/';
			memcpy(o, p, n);
			o += n;
		}
		p += n;
	}
	*o = 0;
	return out;
}

/* The name users write: relative to the build or source tree. */
static char *source_name(const struct files *f, const char *path)
{
	char *c = clean_path(path);

	for (int i = 0; i < f->nprefix; i++) {
		size_t n = strlen(f->prefix[i]);

		if (!strncmp(c, f->prefix[i], n) && c[n] == '/') {
			char *r = xstrdup(c + n + 1);

			free(c);
			return r;
		}
	}
	return c;
}

static bool file_eq(uint32_t idx, const void *key, void *ctx)
{
	struct files *f = ctx;

	return !strcmp(f->names.items[idx], key);
}

/* The id of a file name (taking ownership of name). */
static uint32_t files_intern(struct files *f, char *name)
{
	uint64_t h = hash_str(name);
	struct hslot *slot;
	int64_t i;

	pthread_mutex_lock(&f->lock);
	i = ht_find(&f->ht, h, name, file_eq, f, &slot);
	if (i < 0) {
		i = f->names.len;
		vec_push(&f->names, name);
		ht_set(&f->ht, slot, h, (uint32_t)i);
	} else {
		free(name);
	}
	pthread_mutex_unlock(&f->lock);
	return (uint32_t)i;
}

static bool ptr_eq(uint32_t idx, const void *key, void *ctx)
{
	struct worker *w = ctx;

	return w->fileptrs[idx] == key;
}

/* The id of a file name as libdw returns it (a stable pointer per CU). */
static uint32_t worker_file(struct worker *w, const char *path)
{
	uint64_t h = hash_bytes(HASH_INIT, &path, sizeof(path));
	struct hslot *slot;
	int64_t i = ht_find(&w->fileptr, h, path, ptr_eq, w, &slot);

	if (i >= 0)
		return w->fileids[i];
	if (w->nfileptr % 1024 == 0) {
		w->fileptrs = xrealloc(w->fileptrs, (w->nfileptr + 1024) * sizeof(*w->fileptrs));
		w->fileids = xrealloc(w->fileids, (w->nfileptr + 1024) * sizeof(*w->fileids));
	}
	w->fileptrs[w->nfileptr] = path;
	w->fileids[w->nfileptr] = files_intern(&w->b->files, source_name(&w->b->files, path));
	ht_set(&w->fileptr, slot, h, (uint32_t)w->nfileptr);
	return w->fileids[w->nfileptr++];
}

/*
 * A type as SystemTap's -L prints it: "unsigned int", "char const*",
 * "struct file*", "u8[]"; a function type is "RET()".
 */
static void type_name(struct strbuf *sb, Dwarf_Die *die, int depth)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	const char *n;
	bool has = dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, &t);

	if (depth > 16) {
		sb_puts(sb, "...");
		return;
	}
	n = dwarf_diename(die);
	switch (dwarf_tag(die)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		if (has)
			type_name(sb, &t, depth + 1);
		else
			sb_puts(sb, "void");
		sb_putc(sb, '*');
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
		if (has)
			type_name(sb, &t, depth + 1);
		else
			sb_puts(sb, "void");
		sb_puts(sb, dwarf_tag(die) == DW_TAG_const_type ? " const" : " volatile");
		return;
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		if (has)
			type_name(sb, &t, depth + 1);
		else
			sb_puts(sb, "void");
		return;
	case DW_TAG_array_type:
		if (has)
			type_name(sb, &t, depth + 1);
		sb_puts(sb, "[]");
		return;
	case DW_TAG_subroutine_type:
		if (has)
			type_name(sb, &t, depth + 1);
		else
			sb_puts(sb, "void");
		sb_puts(sb, "()");
		return;
	case DW_TAG_structure_type:
		sb_printf(sb, "struct %s", n ? n : "{...}");
		return;
	case DW_TAG_union_type:
		sb_printf(sb, "union %s", n ? n : "{...}");
		return;
	case DW_TAG_enumeration_type:
		sb_printf(sb, "enum %s", n ? n : "{...}");
		return;
	default:	/* base types, typedefs */
		sb_puts(sb, n ? n : "?");
	}
}

/* Append " $name:type" for variable or parameter d. */
static void add_var(struct strbuf *sb, Dwarf_Die *d)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	const char *n = dwarf_diename(d);

	if (!n)
		return;
	if (sb->len)
		sb_putc(sb, ' ');
	sb_printf(sb, "$%s:", n);
	if (dwarf_attr_integrate(d, DW_AT_type, &a) && dwarf_formref_die(&a, &t))
		type_name(sb, &t, 0);
	else
		sb_puts(sb, "void");
}

/*
 * "$a:int $b:char*": every parameter, then the outermost locals that
 * have a location at pc (the probe address), as SystemTap's -L lists
 * what a probe there can read.  *nparams: how many are parameters;
 * *ret: the return type ("" for void), malloc'ed.
 */
static char *func_vars(Dwarf_Die *fn, uint64_t pc, int *nparams, char **ret)
{
	struct strbuf sb = STRBUF_INIT, rt = STRBUF_INIT;
	Dwarf_Attribute a;
	Dwarf_Die origin, child, t, *abs = fn;

	*nparams = 0;
	/* A concrete copy's children point back to the abstract ones. */
	if (dwarf_attr(fn, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &origin))
		abs = &origin;
	if (dwarf_attr_integrate(fn, DW_AT_type, &a) && dwarf_formref_die(&a, &t))
		type_name(&rt, &t, 0);
	*ret = sb_steal(&rt);
	if (dwarf_child(abs, &child) == 0) {
		do {
			if (dwarf_tag(&child) == DW_TAG_formal_parameter) {
				add_var(&sb, &child);
				(*nparams)++;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (dwarf_child(fn, &child) == 0) {
		do {
			Dwarf_Op *ops;
			size_t nops;

			if (dwarf_tag(&child) != DW_TAG_variable ||
			    dwarf_hasattr(&child, DW_AT_declaration) ||
			    dwarf_hasattr_integrate(&child, DW_AT_external))
				continue;
			if (!dwarf_hasattr_integrate(&child, DW_AT_const_value) &&
			    (!dwarf_attr_integrate(&child, DW_AT_location, &a) ||
			     dwarf_getlocation_addr(&a, pc, &ops, &nops, 1) <= 0))
				continue;
			add_var(&sb, &child);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return sb.len ? sb_steal(&sb) : xstrdup("");
}

/* The entry pc of a copy and the end of the range holding it. */
static int copy_entry(Dwarf_Die *die, uint64_t *entry, uint64_t *end)
{
	Dwarf_Addr base, lo, hi, e;
	ptrdiff_t off = 0;
	bool have = dwarf_entrypc(die, &e) == 0;

	*end = 0;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (!have) {
			e = lo;
			have = true;
		}
		if (e >= lo && e < hi) {
			*end = hi;
			break;
		}
	}
	if (!have || e == 0)	/* 0: discarded by the linker */
		return -1;
	*entry = e;
	if (!*end)
		*end = e + 1;
	return 0;
}

/* Load the current CU's line table (sorted by address by libdw). */
static void load_lines(struct worker *w, Dwarf_Die *cu)
{
	Dwarf_Lines *lines;
	size_t n = 0;
	bool any = false;

	w->nlines = 0;
	free(w->lprologue);
	w->lprologue = NULL;
	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return;
	free(w->laddr);
	free(w->lend);
	w->laddr = xmalloc((n + 1) * sizeof(*w->laddr));
	w->lend = xmalloc((n + 1) * sizeof(*w->lend));
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a = 0;
		bool f = false;

		dwarf_lineaddr(l, &a);
		dwarf_lineendsequence(l, &f);
		w->laddr[i] = a;
		w->lend[i] = f;
		f = false;
		dwarf_lineprologueend(l, &f);
		if (f) {
			if (!any)
				w->lprologue = xcalloc(n + 1, sizeof(int));
			any = true;
			w->lprologue[i] = 1;
		}
	}
	w->nlines = n;
}

/* The probe pc of an out-of-line copy: dwarf.h gives the rule. */
static uint64_t prologue_end(struct worker *w, uint64_t entry, uint64_t end)
{
	size_t lo = 0, hi = w->nlines;

	while (lo < hi) {	/* first row at or after entry */
		size_t mid = (lo + hi) / 2;

		if (w->laddr[mid] < entry)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (w->lprologue)
		for (size_t i = lo; i < w->nlines && w->laddr[i] < end; i++)
			if (w->lprologue[i] && !w->lend[i])
				return w->laddr[i];
	for (size_t i = lo; i < w->nlines && w->laddr[i] < end; i++)
		if (w->laddr[i] > entry && !w->lend[i])
			return w->laddr[i];
	return entry;
}

struct seen_key {
	const char *name;
	uint32_t file, line;
};

static bool seen_eq(uint32_t idx, const void *key, void *ctx)
{
	struct worker *w = ctx;
	const struct seen_key *k = key;
	const struct rec *r = &w->recs[idx];

	return r->name == k->name && r->file == k->file && r->line == k->line;
}

/* Record one copy of a function (die: the subprogram or inlined DIE). */
static void add_copy(struct worker *w, Dwarf_Die *die, bool inlined)
{
	Dwarf_Attribute a;
	const char *name, *file;
	uint64_t entry, end, h;
	int line = 0;
	struct rec *r;
	struct seen_key k;
	struct hslot *slot;

	if (!dwarf_attr_integrate(die, DW_AT_name, &a) || !(name = dwarf_formstring(&a)))
		return;
	if (copy_entry(die, &entry, &end) < 0)
		return;
	file = dwarf_decl_file(die);
	dwarf_decl_line(die, &line);
	if (w->nrecs == w->caprecs) {
		w->caprecs = w->caprecs ? 2 * w->caprecs : 65536;
		w->recs = xrealloc(w->recs, w->caprecs * sizeof(*w->recs));
	}
	r = &w->recs[w->nrecs];
	*r = (struct rec){
		.name = name,
		.file = file ? worker_file(w, file) : w->cu,
		.line = (uint32_t)line,
		.cu = w->cu,
		.inlined = inlined,
		.entry = entry,
		.probe = inlined ? entry : prologue_end(w, entry, end),
		.die = dwarf_dieoffset(die),
	};
	k = (struct seen_key){ r->name, r->file, r->line };
	h = hash_bytes(hash_bytes(HASH_INIT, &k.name, sizeof(k.name)), &k.file, 8);
	if (ht_find(&w->seen, h, &k, seen_eq, w, &slot) < 0) {
		char *rt;
		char *v = func_vars(die, r->probe, &r->nparams, &rt);

		vec_push(&w->vars, v);
		vec_push(&w->vars, rt);
		r->vars = v;
		r->ret = rt;
		ht_set(&w->seen, slot, h, (uint32_t)w->nrecs);
	}
	w->nrecs++;
}

/* Subprograms and inlined copies at any depth under die (dw.h). */
void dw_walk_copies(Dwarf_Die *die, dw_copy_fn fn, void *arg)
{
	Dwarf_Die c;

	if (dwarf_child(die, &c) != 0)
		return;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_subprogram:
			if (!dwarf_hasattr(&c, DW_AT_declaration) &&
			    (dwarf_hasattr(&c, DW_AT_low_pc) || dwarf_hasattr(&c, DW_AT_ranges)))
				fn(arg, &c, false);
			dw_walk_copies(&c, fn, arg);
			break;
		case DW_TAG_inlined_subroutine:
			fn(arg, &c, true);
			dw_walk_copies(&c, fn, arg);
			break;
		case DW_TAG_lexical_block:
			dw_walk_copies(&c, fn, arg);
			break;
		default:	/* types, variables, parameters, call sites */
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

static void worker_copy(void *w, Dwarf_Die *die, bool inlined)
{
	add_copy(w, die, inlined);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct builder *b = w->b;
	int i;

	while ((i = atomic_fetch_add(&b->next, 1)) < b->ncus) {
		Dwarf_Die cu;
		const char *n;

		if (!dwarf_offdie(w->dbg, b->cus[i], &cu))
			continue;
		n = dwarf_diename(&cu);
		w->cu = files_intern(&b->files, source_name(&b->files, n ? n : "?"));
		load_lines(w, &cu);
		dw_walk_copies(&cu, worker_copy, w);
	}
	return NULL;
}

static int worker_open(struct worker *w, const char *path)
{
	w->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (w->fd < 0)
		return -errno;
	w->elf = elf_begin(w->fd, ELF_C_READ_MMAP, NULL);
	w->dbg = w->elf ? dwarf_begin_elf(w->elf, DWARF_C_READ, NULL) : NULL;
	return w->dbg ? 0 : -EINVAL;
}

static void worker_free(struct worker *w)
{
	if (w->dbg)
		dwarf_end(w->dbg);
	if (w->elf)
		elf_end(w->elf);
	if (w->fd > 0)
		close(w->fd);
	for (int i = 0; i < w->vars.len; i++)
		free(w->vars.items[i]);
	vec_free(&w->vars);
	free(w->recs);
	free(w->fileptrs);
	free(w->fileids);
	ht_free(&w->fileptr);
	ht_free(&w->seen);
	free(w->laddr);
	free(w->lend);
	free(w->lprologue);
}

/*
 * The prefixes to strip from paths, longest first.  Kernel builds differ:
 * a plain build has an absolute DW_AT_comp_dir, the source tree; Debian
 * builds out of tree with -fdebug-prefix-map, so C units carry a relative
 * comp_dir ("debian/build/build_amd64_none_amd64") and names relative to
 * the source tree ("fs/read_write.c"), while assembler units keep absolute
 * ones ("/build/reproducible-path/linux-6.1.192/debian/build/...").  So:
 * every comp_dir, the source tree as what precedes "init/main.c" in that
 * unit's absolute name, and an absolute comp_dir minus a relative one.
 */
static void add_prefix(struct files *f, char *p)
{
	int i;

	for (i = 0; i < f->nprefix; i++)
		if (!strcmp(f->prefix[i], p) || !*p) {
			free(p);
			return;
		}
	if (f->nprefix == ARRAY_SIZE(f->prefix)) {
		free(p);
		return;
	}
	for (i = f->nprefix++; i > 0 && strlen(f->prefix[i - 1]) < strlen(p); i--)
		f->prefix[i] = f->prefix[i - 1];
	f->prefix[i] = p;
}

static void find_roots(Dwarf *dbg, struct builder *b)
{
	char *abs_dir = NULL, *rel_dir = NULL;

	for (int i = 0; i < b->ncus; i++) {
		Dwarf_Die cu;
		Dwarf_Attribute a;
		const char *n, *dir;
		size_t len;

		if (!dwarf_offdie(dbg, b->cus[i], &cu) || !(n = dwarf_diename(&cu)))
			continue;
		dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
		if (dir && *dir == '/' && !abs_dir)
			abs_dir = clean_path(dir);
		if (dir && *dir != '/' && !rel_dir)
			rel_dir = clean_path(dir);
		len = strlen(n);
		if (*n == '/' && len > 12 && !strcmp(n + len - 12, "/init/main.c")) {
			char *c = clean_path(n);

			c[strlen(c) - 12] = 0;
			add_prefix(&b->files, c);
		}
	}
	if (abs_dir && rel_dir) {
		size_t la = strlen(abs_dir), lr = strlen(rel_dir);

		if (la > lr + 1 && !strcmp(abs_dir + la - lr, rel_dir) &&
		    abs_dir[la - lr - 1] == '/')
			add_prefix(&b->files, xstrndup(abs_dir, la - lr - 1));
	}
	if (abs_dir)
		add_prefix(&b->files, abs_dir);
	if (rel_dir)
		add_prefix(&b->files, rel_dir);
}

/* ---- the index builder: merge, symbols, database ---- */

struct sym {
	const char *name;
	uint64_t addr, size;
	bool global;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)y->global - (int)x->global;	/* globals first */
}

/*
 * Function symbols of the ELF, sorted by address; _stext into *stext and
 * _printk into *printk (the module's KASLR reference: it is exported, so
 * the module can take its run-time address).
 */
struct symtab_read {
	struct sym *v;
	size_t n, cap;
	uint64_t *stext, *printk;
};

static int symtab_add(const char *name, const GElf_Sym *s, void *arg)
{
	struct symtab_read *r = arg;

	if (!strcmp(name, "_stext"))
		*r->stext = s->st_value;
	if (!strcmp(name, "_printk"))
		*r->printk = s->st_value;
	if (GELF_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF)
		return 0;
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 65536;
		r->v = xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	r->v[r->n++] = (struct sym){ name, s->st_value, s->st_size,
				     GELF_ST_BIND(s->st_info) == STB_GLOBAL };
	return 0;
}

static struct sym *read_symtab(Elf *elf, size_t *nout, uint64_t *stext, uint64_t *printk)
{
	struct symtab_read r = { .stext = stext, .printk = printk };

	dw_elf_symbols(elf, symtab_add, &r);
	if (r.n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(r.v, r.n, sizeof(*r.v), sym_cmp);
	*nout = r.n;
	return r.v;
}

/* The symbol containing addr, or UINT32_MAX. */
static uint32_t sym_find(const struct sym *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {	/* first symbol above addr */
		size_t mid = (lo + hi) / 2;

		if (v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Walk back over the symbols at the same address to the first. */
	while (lo > 0) {
		size_t i = lo - 1, first = i;

		while (first > 0 && v[first - 1].addr == v[i].addr)
			first--;
		for (size_t j = first; j <= i; j++)
			if (addr < v[j].addr + v[j].size || addr == v[j].addr)
				return (uint32_t)j;
		/* Not inside: an earlier, larger symbol may still hold it. */
		if (addr - v[i].addr > (1u << 20))
			break;
		lo = first;
	}
	return UINT32_MAX;
}

struct fn {
	const char *name, *vars, *ret;
	int nparams;
	uint32_t file, line;
	int nout, ninl;
};

struct merge {
	struct fn *fns;
	size_t nfns, cap;
	struct htab ht;
	struct files *files;
};

static bool fn_eq(uint32_t idx, const void *key, void *ctx)
{
	const struct merge *m = ctx;
	const struct rec *r = key;
	const struct fn *f = &m->fns[idx];

	return f->file == r->file && f->line == r->line && !strcmp(f->name, r->name);
}

static uint32_t merge_rec(struct merge *m, struct rec *r)
{
	uint64_t h = hash_bytes(hash_str(r->name), &r->file, 8);
	struct hslot *slot;
	int64_t i = ht_find(&m->ht, h, r, fn_eq, m, &slot);

	if (i < 0) {
		if (m->nfns == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 65536;
			m->fns = xrealloc(m->fns, m->cap * sizeof(*m->fns));
		}
		i = (int64_t)m->nfns++;
		m->fns[i] = (struct fn){ .name = r->name, .vars = r->vars ? r->vars : "",
					.ret = r->ret ? r->ret : "", .nparams = r->nparams,
					.file = r->file, .line = r->line };
		ht_set(&m->ht, slot, h, (uint32_t)i);
	}
	if (r->inlined)
		m->fns[i].ninl++;
	else
		m->fns[i].nout++;
	return (uint32_t)i;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = *(struct rec *const *)a, *y = *(struct rec *const *)b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->probe != y->probe)
		return x->probe < y->probe ? -1 : 1;
	return (int)x->inlined - (int)y->inlined;
}

/* A function's listing key: qsort has no context argument. */
struct ord {
	const char *name, *file;
	uint32_t line, idx;
};

static int ord_cmp(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->file, y->file);
	if (!c)
		c = (x->line > y->line) - (x->line < y->line);
	return c;
}

static const char *const schema_sql =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL);"
	"CREATE TABLE symbols(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
	" addr INTEGER NOT NULL);"
	/* one row per (name, decl file, decl line) */
	"CREATE TABLE funcs(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
	" file INTEGER NOT NULL, line INTEGER NOT NULL,"
	" n_outofline INTEGER NOT NULL, n_inlined INTEGER NOT NULL,"
	" vars TEXT NOT NULL, ret TEXT NOT NULL, nparams INTEGER NOT NULL);"
	/* one row per out-of-line or inlined copy; addresses as int64 */
	"CREATE TABLE sites(func INTEGER NOT NULL, inlined INTEGER NOT NULL,"
	" entry_pc INTEGER NOT NULL, probe_pc INTEGER NOT NULL,"
	" cu INTEGER NOT NULL, sym INTEGER, sym_offset INTEGER, die INTEGER NOT NULL);";
static const char *const index_sql =
	"CREATE INDEX funcs_by_name ON funcs(name);"
	"CREATE INDEX funcs_by_file ON funcs(file);"
	"CREATE INDEX sites_by_func ON sites(func);";

static int db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	snprintf(err, errlen, "sqlite: %s", msg ? msg : "?");
	sqlite3_free(msg);
	return -EIO;
}

static void meta_set(sqlite3_stmt *st, const char *key, const char *value)
{
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_reset(st);
}

struct meta {
	const char *release, *build_id, *debuginfo, *image, *image_build_id;
	int ncus, nthreads;	/* filled by build_index */
	double walk_secs;	/* of which the DWARF walk (threaded part) */
};

static int write_db(const char *path, struct merge *m, struct worker *ws, int nw,
		    const struct sym *syms, size_t nsyms, uint64_t stext, uint64_t printk,
		    const struct meta *meta, double secs, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	struct rec **all = NULL;
	uint32_t *fnorder = NULL, *fnid = NULL, *symid = NULL;
	size_t nall = 0, k = 0;
	int ret = -EIO;
	char buf[64];

	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK) {
		snprintf(err, errlen, "sqlite: cannot create %s: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	if (db_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
		    "PRAGMA page_size=8192; BEGIN;", err, errlen) ||
	    db_exec(db, schema_sql, err, errlen))
		goto out;

	sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?,?)", -1, &st, NULL);
	snprintf(buf, sizeof(buf), "%d", DW_SCHEMA_VERSION);
	meta_set(st, "schema_version", buf);
	meta_set(st, "release", meta->release);
	meta_set(st, "build_id", meta->build_id);
	meta_set(st, "debuginfo", meta->debuginfo);
	if (meta->image) {
		meta_set(st, "image", meta->image);
		meta_set(st, "image_build_id", meta->image_build_id ? meta->image_build_id : "");
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)stext);
	meta_set(st, "stext", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)printk);
	meta_set(st, "printk", buf);
	snprintf(buf, sizeof(buf), "%.1f", secs);
	meta_set(st, "index_seconds", buf);
	snprintf(buf, sizeof(buf), "%d", meta->ncus);
	meta_set(st, "compile_units", buf);
	snprintf(buf, sizeof(buf), "%d", meta->nthreads);
	meta_set(st, "threads", buf);
	snprintf(buf, sizeof(buf), "%.2f", meta->walk_secs);
	meta_set(st, "walk_seconds", buf);
	sqlite3_finalize(st);

	sqlite3_prepare_v2(db, "INSERT INTO files VALUES(?,?)", -1, &st, NULL);
	for (int i = 0; i < m->files->names.len; i++) {
		sqlite3_bind_int(st, 1, i);
		sqlite3_bind_text(st, 2, m->files->names.items[i], -1, SQLITE_STATIC);
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);

	/* Functions in listing order, so rowids follow (name, file, line). */
	fnorder = xmalloc(m->nfns * sizeof(*fnorder));
	fnid = xmalloc(m->nfns * sizeof(*fnid));
	{
		struct ord *o = xmalloc(m->nfns * sizeof(*o));

		for (size_t i = 0; i < m->nfns; i++)
			o[i] = (struct ord){ m->fns[i].name, m->files->names.items[m->fns[i].file],
					     m->fns[i].line, (uint32_t)i };
		qsort(o, m->nfns, sizeof(*o), ord_cmp);
		for (size_t i = 0; i < m->nfns; i++)
			fnorder[i] = o[i].idx;
		free(o);
	}
	sqlite3_prepare_v2(db, "INSERT INTO funcs VALUES(?,?,?,?,?,?,?,?,?)", -1, &st, NULL);
	for (size_t i = 0; i < m->nfns; i++) {
		const struct fn *f = &m->fns[fnorder[i]];

		fnid[fnorder[i]] = (uint32_t)i + 1;
		sqlite3_bind_int64(st, 1, (int64_t)i + 1);
		sqlite3_bind_text(st, 2, f->name, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, (int)f->file);
		sqlite3_bind_int(st, 4, (int)f->line);
		sqlite3_bind_int(st, 5, f->nout);
		sqlite3_bind_int(st, 6, f->ninl);
		sqlite3_bind_text(st, 7, f->vars, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, f->ret, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 9, f->nparams);
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);

	/* Sites grouped by function, by address; exact duplicates dropped. */
	for (int t = 0; t < nw; t++)
		nall += ws[t].nrecs;
	all = xmalloc((nall + 1) * sizeof(*all));
	for (int t = 0; t < nw; t++)
		for (size_t i = 0; i < ws[t].nrecs; i++) {
			ws[t].recs[i].func = fnid[ws[t].recs[i].func];
			all[k++] = &ws[t].recs[i];
		}
	qsort(all, nall, sizeof(*all), rec_cmp);
	symid = xcalloc(nsyms + 1, sizeof(*symid));
	{
		sqlite3_stmt *ss;
		uint32_t nextsym = 1;

		sqlite3_prepare_v2(db, "INSERT INTO symbols VALUES(?,?,?)", -1, &ss, NULL);
		sqlite3_prepare_v2(db, "INSERT INTO sites VALUES(?,?,?,?,?,?,?,?)", -1, &st, NULL);
		for (size_t i = 0; i < nall; i++) {
			const struct rec *r = all[i];
			uint32_t s;

			if (i && !rec_cmp(&all[i - 1], &all[i]))
				continue;
			s = sym_find(syms, nsyms, r->probe);
			sqlite3_bind_int(st, 1, (int)r->func);
			sqlite3_bind_int(st, 2, r->inlined);
			sqlite3_bind_int64(st, 3, (int64_t)r->entry);
			sqlite3_bind_int64(st, 4, (int64_t)r->probe);
			sqlite3_bind_int(st, 5, (int)r->cu);
			sqlite3_bind_int64(st, 8, (int64_t)r->die);
			if (s == UINT32_MAX) {
				sqlite3_bind_null(st, 6);
				sqlite3_bind_null(st, 7);
			} else {
				if (!symid[s]) {
					symid[s] = nextsym++;
					sqlite3_bind_int(ss, 1, (int)symid[s]);
					sqlite3_bind_text(ss, 2, syms[s].name, -1, SQLITE_STATIC);
					sqlite3_bind_int64(ss, 3, (int64_t)syms[s].addr);
					sqlite3_step(ss);
					sqlite3_reset(ss);
				}
				sqlite3_bind_int(st, 6, (int)symid[s]);
				sqlite3_bind_int64(st, 7, (int64_t)(r->probe - syms[s].addr));
			}
			if (sqlite3_step(st) != SQLITE_DONE) {
				snprintf(err, errlen, "sqlite: %s", sqlite3_errmsg(db));
				sqlite3_finalize(ss);
				goto out;
			}
			sqlite3_reset(st);
		}
		sqlite3_finalize(ss);
	}
	if (db_exec(db, index_sql, err, errlen) || db_exec(db, "COMMIT", err, errlen))
		goto out;
	ret = 0;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(all);
	free(fnorder);
	free(fnid);
	free(symid);
	return ret;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Index the vmlinux at meta->debuginfo into the database db_path. */
static int build_index(const char *db_path, struct meta *meta, char **err)
{
	struct builder b = { .path = meta->debuginfo };
	struct worker ws[NTHREADS_MAX] = { 0 };
	struct merge m = { .files = &b.files };
	struct sym *syms = NULL;
	size_t nsyms = 0;
	uint64_t stext = 0, printk = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nw = ncpu < 1 ? 1 : ncpu > NTHREADS_MAX ? NTHREADS_MAX : (int)ncpu;
	double t0 = now_s();
	char msg[512] = "";
	char *tmp = xasprintf("%s.tmp.%d", db_path, (int)getpid());
	Dwarf_Off off = 0, next;
	size_t hsize;
	int ret, cap = 0, nrun;

	if (getenv("STAP_NG_DWARF_THREADS"))	/* for measurements */
		nw = atoi(getenv("STAP_NG_DWARF_THREADS"));
	if (nw < 1 || nw > NTHREADS_MAX)
		nw = 1;
	pthread_mutex_init(&b.files.lock, NULL);
	for (int t = 0; t < nw; t++) {
		ws[t].b = &b;
		ret = worker_open(&ws[t], meta->debuginfo);
		if (ret < 0) {
			snprintf(msg, sizeof(msg), "dwarf: cannot read the DWARF of %s: %s",
				 meta->debuginfo, ret == -EINVAL ? dwarf_errmsg(-1) : strerror(-ret));
			goto out;
		}
	}
	while (dwarf_nextcu(ws[0].dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (b.ncus == cap) {
			cap = cap ? 2 * cap : 4096;
			b.cus = xrealloc(b.cus, cap * sizeof(*b.cus));
		}
		b.cus[b.ncus++] = off + hsize;
		off = next;
	}
	find_roots(ws[0].dbg, &b);
	meta->ncus = b.ncus;
	for (nrun = 1; nrun < nw; nrun++)	/* fewer threads if one fails */
		if (pthread_create(&ws[nrun].tid, NULL, worker_main, &ws[nrun]))
			break;
	worker_main(&ws[0]);
	for (int t = 1; t < nrun; t++)
		pthread_join(ws[t].tid, NULL);
	meta->nthreads = nrun;
	meta->walk_secs = now_s() - t0;

	for (int t = 0; t < nw; t++)
		for (size_t i = 0; i < ws[t].nrecs; i++)
			ws[t].recs[i].func = merge_rec(&m, &ws[t].recs[i]);
	syms = read_symtab(ws[0].elf, &nsyms, &stext, &printk);
	ret = write_db(tmp, &m, ws, nw, syms, nsyms, stext, printk, meta, now_s() - t0,
		       msg, sizeof(msg));
	if (ret == 0 && rename(tmp, db_path) < 0) {
		ret = -errno;
		snprintf(msg, sizeof(msg), "dwarf: cannot create %s: %s", db_path, strerror(errno));
	}
out:
	if (*msg) {
		*err = xstrdup(msg);
		ret = ret < 0 ? ret : -EIO;
	}
	unlink(tmp);
	free(tmp);
	for (int t = 0; t < nw; t++)
		worker_free(&ws[t]);
	for (int i = 0; i < b.files.names.len; i++)
		free(b.files.names.items[i]);
	vec_free(&b.files.names);
	ht_free(&b.files.ht);
	for (int i = 0; i < b.files.nprefix; i++)
		free(b.files.prefix[i]);
	pthread_mutex_destroy(&b.files.lock);
	free(b.cus);
	free(m.fns);
	ht_free(&m.ht);
	free(syms);
	return ret;
}

/* ---- opening ---- */

static char *meta_get(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st;
	char *v = NULL;

	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL))
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

/* An index of the current schema at path, opened read-only, or NULL. */
static sqlite3 *db_open_valid(const char *path)
{
	sqlite3 *db = NULL;
	char *v;

	if (access(path, R_OK) < 0)
		return NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	v = meta_get(db, "schema_version");
	if (!v || atoi(v) != DW_SCHEMA_VERSION) {
		free(v);
		sqlite3_close(db);
		return NULL;
	}
	free(v);
	return db;
}

struct dw_kernel *dw_open(const char *release, char **err)
{
	const char *root = getenv("STAP_NG_DEBUGINFO_DIR");
	char *dir = dw_cache_dir(), *image = xasprintf("/boot/vmlinuz-%s", release);
	char *image_id = NULL, *cand[3] = { NULL }, *found = NULL, *found_id = NULL;
	char *bad = NULL, *bad_id = NULL;
	struct dw_kernel *k = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct meta meta;
	char *v;
	int ret, nc = 0;

	*err = NULL;
	elf_version(EV_CURRENT);
	if (!root || !*root)
		root = "/usr/lib/debug";
	if (mkdir_p(dir, 0755) < 0) {
		*err = xasprintf("dwarf: cannot create the cache directory %s: %s", dir,
				 strerror(errno));
		goto out;
	}
	if (file_exists(image))
		image_id = image_id_cached(image, dir, release);
	if (image_id)
		cand[nc++] = xasprintf("%s/.build-id/%.2s/%s.debug", root, image_id, image_id + 2);
	cand[nc++] = xasprintf("%s/boot/vmlinux-%s", root, release);
	cand[nc++] = xasprintf("%s/lib/modules/%s/vmlinux", root, release);
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
					 bad, bad_id, image, image_id, release);
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
	k->release = xstrdup(release);
	k->build_id = found_id;
	found_id = NULL;
	k->debuginfo = xstrdup(found);
	/* The schema in the name: trees of different versions share the cache. */
	k->db_path = xasprintf("%s/%s.v%d.db", dir, k->build_id, DW_SCHEMA_VERSION);
	k->db = db_open_valid(k->db_path);
	if (!k->db) {
		double t0 = now_s();

		fprintf(stderr, "dwarf: indexing %s (once per kernel build, takes seconds)\n",
			found);
		meta = (struct meta){ .release = release, .build_id = k->build_id, .debuginfo = found,
				       .image = image_id ? image : NULL, .image_build_id = image_id };
		ret = build_index(k->db_path, &meta, err);
		if (ret < 0)
			goto fail;
		fprintf(stderr, "dwarf: indexed in %.1f s into %s\n", now_s() - t0, k->db_path);
		k->db = db_open_valid(k->db_path);
		if (!k->db) {
			*err = xasprintf("dwarf: cannot open the new index %s", k->db_path);
			goto fail;
		}
	}
	v = meta_get(k->db, "stext");
	k->stext = v ? strtoull(v, NULL, 10) : 0;
	free(v);
	v = meta_get(k->db, "printk");
	k->printk = v ? strtoull(v, NULL, 10) : 0;
	free(v);
	goto out;
fail:
	dw_close(k);
	k = NULL;
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

void dw_close(struct dw_kernel *k)
{
	if (!k)
		return;
	sqlite3_close(k->db);
	free(k->syms);
	if (k->dbg)
		dwarf_end(k->dbg);
	if (k->elf)
		elf_end(k->elf);
	if (k->fd > 0)
		close(k->fd);
	free(k->release);
	free(k->build_id);
	free(k->debuginfo);
	free(k->db_path);
	free(k);
}

const char *dw_build_id(const struct dw_kernel *k)
{
	return k->build_id;
}

const char *dw_debuginfo_path(const struct dw_kernel *k)
{
	return k->debuginfo;
}

const char *dw_db_path(const struct dw_kernel *k)
{
	return k->db_path;
}

uint64_t dw_stext(const struct dw_kernel *k)
{
	return k->stext;
}

uint64_t dw_printk(const struct dw_kernel *k)
{
	return k->printk;
}

Dwarf *dw_dwarf(struct dw_kernel *k)
{
	if (!k->dbg_tried) {
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

Dwarf_CFI *dw_cfi(struct dw_kernel *k)
{
	return dw_dwarf(k) ? k->cfi : NULL;
}

/* For dwarf_mod.c: modules are indexed by the same rules. */
char *dw_die_vars(Dwarf_Die *fn, uint64_t pc, int *nparams, char **ret)
{
	return func_vars(fn, pc, nparams, ret);
}

int dw_die_entry(Dwarf_Die *die, uint64_t *entry, uint64_t *end)
{
	return copy_entry(die, entry, end);
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

/* The WHERE clause shared by both queries: ?1 name, ?2 file, ?3-?4 lines. */
#define DW_WHERE \
	" WHERE f.name GLOB ?1" \
	" AND (?2 IS NULL OR fl.path GLOB ?2 OR fl.path GLOB '*/' || ?2)" \
	" AND (?3 = 0 OR f.line BETWEEN ?3 AND ?4)"

int dw_db_prepare(sqlite3 *db, const char *db_path, const char *sql,
		  const struct dw_pattern *p, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
		util_err("dwarf: %s: %s", db_path, sqlite3_errmsg(db));
		return -EIO;
	}
	sqlite3_bind_text(*st, 1, p->name, -1, SQLITE_STATIC);
	if (p->file)
		sqlite3_bind_text(*st, 2, p->file, -1, SQLITE_STATIC);
	sqlite3_bind_int(*st, 3, p->line_lo);
	sqlite3_bind_int(*st, 4, p->line_hi);
	return 0;
}

static int prepare(struct dw_kernel *k, const char *sql, const struct dw_pattern *p,
		   sqlite3_stmt **st)
{
	return dw_db_prepare(k->db, k->db_path, sql, p, st);
}

const char *dw_col_text(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}
#define col_text dw_col_text

int dw_list_functions(struct dw_kernel *k, const struct dw_pattern *p, dw_func_fn fn,
		      void *arg)
{
	sqlite3_stmt *st;
	int ret, n = 0, rc;

	ret = prepare(k, "SELECT f.name, fl.path, f.line, f.n_outofline, f.n_inlined, f.vars,"
		      " f.ret, f.nparams"
		      " FROM funcs f JOIN files fl ON fl.id = f.file" DW_WHERE
		      " ORDER BY f.id", p, &st);
	if (ret < 0)
		return ret;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct dw_func f = {
			.name = col_text(st, 0),
			.file = col_text(st, 1),
			.line = sqlite3_column_int(st, 2),
			.n_outofline = sqlite3_column_int(st, 3),
			.n_inlined = sqlite3_column_int(st, 4),
			.vars = col_text(st, 5),
			.ret = col_text(st, 6),
			.nparams = sqlite3_column_int(st, 7),
		};

		f.inline_only = f.n_outofline == 0;
		n++;
		ret = fn(&f, arg);
		if (ret)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		util_err("dwarf: %s: %s", k->db_path, sqlite3_errmsg(k->db));
		ret = -EIO;
	}
	sqlite3_finalize(st);
	return ret ? ret : n;
}

int dw_lookup_functions(struct dw_kernel *k, const struct dw_pattern *p, dw_site_fn fn,
			void *arg)
{
	sqlite3_stmt *st;
	int ret, n = 0, rc;

	ret = prepare(k, "SELECT f.name, fl.path, f.line, cu.path, s.inlined, f.n_outofline,"
		      " s.entry_pc, s.probe_pc, sy.name, s.sym_offset, f.vars, s.die"
		      " FROM funcs f JOIN files fl ON fl.id = f.file"
		      " JOIN sites s ON s.func = f.id JOIN files cu ON cu.id = s.cu"
		      " LEFT JOIN symbols sy ON sy.id = s.sym" DW_WHERE
		      " ORDER BY f.id, s.probe_pc", p, &st);
	if (ret < 0)
		return ret;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct dw_site s = {
			.name = col_text(st, 0),
			.file = col_text(st, 1),
			.line = sqlite3_column_int(st, 2),
			.cu = col_text(st, 3),
			.inlined = sqlite3_column_int(st, 4),
			.inline_only = sqlite3_column_int(st, 5) == 0,
			.entry_pc = (uint64_t)sqlite3_column_int64(st, 6),
			.probe_pc = (uint64_t)sqlite3_column_int64(st, 7),
			.symbol = (const char *)sqlite3_column_text(st, 8),
			.sym_offset = (uint64_t)sqlite3_column_int64(st, 9),
			.vars = col_text(st, 10),
			.die_off = (uint64_t)sqlite3_column_int64(st, 11),
		};

		n++;
		ret = fn(&s, arg);
		if (ret)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		util_err("dwarf: %s: %s", k->db_path, sqlite3_errmsg(k->db));
		ret = -EIO;
	}
	sqlite3_finalize(st);
	return ret ? ret : n;
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
static int tp_offsets(struct dw_kernel *k, struct tp_offsets *o)
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

static int tp_systems_from_elf(struct dw_kernel *k, struct strbuf *out)
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
static int tp_systems(struct dw_kernel *k, struct strbuf *sb)
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

int dw_tracepoints(struct dw_kernel *k, dw_tracepoint_fn fn, void *arg)
{
	struct dw_pattern p = { .name = "__traceiter_*" };
	struct strbuf sys = STRBUF_INIT;
	struct vec v = VEC_INIT;
	struct tp_entry *e, key;
	char *line, *save = NULL;
	int ret, n = 0, i, j;

	ret = dw_lookup_functions(k, &p, add_traceiter, &v);
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

/* ---- type names for families' listings ---- */

char *dw_type_name(Dwarf_Die *type)
{
	struct strbuf sb = STRBUF_INIT;

	type_name(&sb, type, 0);
	return sb_steal(&sb);
}

/* ---- addresses to symbols ---- */

int dw_symbolize(struct dw_kernel *k, uint64_t addr, const char **name, uint64_t *offset)
{
	uint64_t stext, printk;
	uint32_t i;

	if (!k->syms_tried) {
		k->syms_tried = true;
		if (dw_dwarf(k))
			k->syms = read_symtab(k->elf, &k->nsyms, &stext, &printk);
	}
	i = k->syms ? sym_find(k->syms, k->nsyms, addr) : UINT32_MAX;
	if (i == UINT32_MAX)
		return -ENOENT;
	*name = k->syms[i].name;
	*offset = addr - k->syms[i].addr;
	return 0;
}
#endif /* HAVE_SQLITE3 */

/* Outside the sqlite3 split: the symbol-table readers need it either way. */
int dw_elf_symbols(Elf *elf, dw_elf_sym_fn fn, void *arg)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		int n = 0;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
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
