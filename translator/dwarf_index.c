// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building the kernel's DWARF index (dw_index.h; dw.h says what it holds).
 *
 * The main thread lists the compile units; up to NTHREADS_MAX workers,
 * each with its own Elf and Dwarf handle on the vmlinux (libdw handles
 * are not thread-safe), take units from a shared counter and append one
 * record per out-of-line or inlined copy to private arrays.  The main
 * thread then merges the arrays into functions, finds each address's ELF
 * symbol and writes the database in one transaction.
 *
 * For one function name (dwi_build_name) the same walk runs over only
 * the units that can hold a copy of it, and keeps only its copies.
 */
#include "config.h"

#ifdef HAVE_SQLITE3
#include <dwarf.h>		/* elfutils: DW_TAG_*, DW_AT_* */
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/util.h"
#include "dw.h"
#include "dw_index.h"
#include "srcroot.h"

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

/*
 * One statement (meta->stmts): the first address of a source line inside
 * an out-of-line copy, the rec'th of its worker.
 */
struct srec {
	uint32_t rec, file, line;
	bool stmt;		/* the row begins a statement (is_stmt) */
	uint64_t pc;
};

/* Interned, normalised file names shared by all threads. */
struct files {
	pthread_mutex_t lock;
	struct vec names;	/* char * */
	struct htab ht;
	struct srcroots roots;	/* prefixes to strip: find_roots */
};

struct builder {
	const struct dwi_meta *meta;
	bool compdir;		/* names relative to the compile directory (meta->dbg) */
	Dwarf_Off *units;	/* every unit's header offset in .debug_info */
	Dwarf_Off *cus;		/* the units to walk: CU DIE offsets */
	int nunits, ncus;
	atomic_int next;
	struct files files;
	const char *only;	/* index only the functions of this name */
	bool untrusted;		/* a unit the name scan cannot vouch for */
};

struct worker {
	struct builder *b;
	pthread_t tid;
	int fd;
	Elf *elf;
	Dwarf *dbg;		/* its own, or meta->dbg (elf NULL) */
	struct rec *recs;
	size_t nrecs, caprecs;
	struct srec *srecs;
	size_t nsrecs, capsrecs;
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
	const char *comp_dir;	/* current CU's, for b->compdir names */
	bool optimized;		/* user files: the current CU is optimized */
	Dwarf_Die cudie;	/* current CU, for its line table */
	bool lines_loaded;	/* for cudie: loaded on the first need */
	char err[256];
};

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

/*
 * The name users write for a source file.  A module's: relative to the
 * compile directory when inside it (kbuild compiles modules from the
 * kernel tree, so this is "fs/ext4/inode.c" or, for the test module
 * built with -fdebug-prefix-map, "stp_test.c").  A user file's: libdw's
 * (below).  The kernel's: relative to the source tree (srcroot.h).
 * Malloc'ed.
 */
static char *file_name(struct worker *w, const char *file)
{
	size_t n = w->comp_dir ? strlen(w->comp_dir) : 0;

	if (!w->b->compdir)
		return srcroots_name(&w->b->files.roots, file);
	/*
	 * A user file's as libdw gives it, as SystemTap 4.8 prints it: "gcc
	 * c.c" in /tmp names "/tmp/c.c" (the compile directory's), "gcc
	 * ./c.c" "./c.c", "gcc sub/c.c" "sub/c.c".
	 */
	if (w->b->meta->user)
		return xstrdup(file);
	while (!strncmp(file, "./", 2))
		file += 2;
	if (n && !strncmp(file, w->comp_dir, n) && file[n] == '/')
		file += n + 1;
	while (!strncmp(file, "./", 2))
		file += 2;
	return xstrdup(file);
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
	w->fileids[w->nfileptr] = files_intern(&w->b->files, file_name(w, path));
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

/*
 * The statements of out-of-line copy die (record rec): each row of the
 * line table inside its ranges, by address within a range; write_stmts
 * keeps one a line.  Rows that do not begin a statement (is_stmt false)
 * count too, as in SystemTap: a line whose rows all lack it (an
 * optimised "return 0;") is still a line to probe.
 */
static void add_statements(struct worker *w, Dwarf_Die *die, uint32_t rec)
{
	Dwarf_Addr base, lo, hi;
	Dwarf_Lines *lines;
	size_t n = 0;
	ptrdiff_t off = 0;

	if (dwarf_getsrclines(&w->cudie, &lines, &n) != 0)
		return;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		for (size_t i = 0; i < n; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			Dwarf_Addr a;
			bool es = false, stmt = false;
			const char *f;
			int line = 0;

			if (dwarf_lineaddr(l, &a) || a < lo)
				continue;
			if (a >= hi)
				break;
			dwarf_lineendsequence(l, &es);
			dwarf_linebeginstatement(l, &stmt);
			f = dwarf_linesrc(l, NULL, NULL);
			dwarf_lineno(l, &line);
			if (es || !f || line <= 0)
				continue;
			if (w->nsrecs == w->capsrecs) {
				w->capsrecs = w->capsrecs ? 2 * w->capsrecs : 1024;
				w->srecs = xrealloc(w->srecs, w->capsrecs * sizeof(*w->srecs));
			}
			w->srecs[w->nsrecs++] = (struct srec){ rec, worker_file(w, f),
							       (uint32_t)line, stmt, a };
		}
	}
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
	if (w->b->only && strcmp(name, w->b->only))
		return;
	if (copy_entry(die, &entry, &end) < 0)
		return;
	if (!inlined && !w->lines_loaded) {	/* prologue_end needs them */
		load_lines(w, &w->cudie);
		w->lines_loaded = true;
	}
	file = dwarf_decl_file(die);
	if (!file && w->b->compdir)
		file = "?";
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
		/*
		 * SystemTap's rule for user code: past the prologue only where
		 * the compiler did not optimize (parameters are stored to the
		 * frame there); optimized code keeps them in registers at the
		 * entry.
		 */
		.probe = inlined || w->optimized ? entry : prologue_end(w, entry, end),
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
	if (!inlined && w->b->meta->stmts)
		add_statements(w, die, (uint32_t)(w->nrecs - 1));
}

/*
 * Call fn on every copy of a function under die (a compile unit):
 * subprograms with code (inlined false) and inlined copies (true), at any
 * depth, parents before children.
 */
typedef void (*copy_fn)(void *arg, Dwarf_Die *die, bool inlined);

static void walk_copies(Dwarf_Die *die, copy_fn fn, void *arg)
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
			walk_copies(&c, fn, arg);
			break;
		case DW_TAG_inlined_subroutine:
			fn(arg, &c, true);
			walk_copies(&c, fn, arg);
			break;
		case DW_TAG_lexical_block:
			walk_copies(&c, fn, arg);
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

/*
 * Does a CU's DW_AT_producer ("GNU C17 12.2.0 -mtune=generic -g -O0 -O2")
 * say it was optimized?  The last -O wins; none means -O0 (GCC records
 * its switches by default; clang records none, so its code counts as
 * unoptimized and gets the prologue search, as its line tables mark the
 * prologue's end).
 */
static bool optimized(const char *producer)
{
	const char *p = producer, *last = NULL;

	while (p && (p = strstr(p, " -O"))) {
		last = p + 3;
		p += 3;
	}
	return last && *last != '0';	/* -O, -O1..3, -Os, -Og, -Ofast */
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
		if (b->compdir) {
			Dwarf_Attribute a;

			w->comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
			w->optimized = b->meta->user &&
				       optimized(dwarf_formstring(dwarf_attr(&cu, DW_AT_producer, &a)));
		}
		w->cu = files_intern(&b->files, file_name(w, n ? n : "?"));
		w->cudie = cu;
		w->lines_loaded = false;
		walk_copies(&cu, worker_copy, w);
	}
	return NULL;
}

static int worker_open(struct worker *w, const struct dwi_meta *meta)
{
	const char *path = meta->debuginfo;

	if (meta->dbg) {	/* one thread: the caller's handle */
		w->dbg = meta->dbg;
		return 0;
	}
	w->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (w->fd < 0)
		return -errno;
	w->elf = elf_begin(w->fd, ELF_C_READ_MMAP, NULL);
	w->dbg = w->elf ? dwarf_begin_elf(w->elf, DWARF_C_READ, NULL) : NULL;
	return w->dbg ? 0 : -EINVAL;
}

static void worker_free(struct worker *w)
{
	if (w->dbg && w->elf)	/* not the caller's */
		dwarf_end(w->dbg);
	if (w->elf)
		elf_end(w->elf);
	if (w->fd > 0)
		close(w->fd);
	for (int i = 0; i < w->vars.len; i++)
		free(w->vars.items[i]);
	vec_free(&w->vars);
	free(w->recs);
	free(w->srecs);
	free(w->fileptrs);
	free(w->fileids);
	ht_free(&w->fileptr);
	ht_free(&w->seen);
	free(w->laddr);
	free(w->lend);
	free(w->lprologue);
}

/* Units the name scan cannot vouch for; the source tree's prefixes. */
static void find_roots(Dwarf *dbg, struct builder *b)
{
	for (int i = 0; i < b->ncus; i++) {
		Dwarf_Die cu;
		const char *n;

		if (!dwarf_offdie(dbg, b->cus[i], &cu))
			continue;
		/* dwz's partial units and LTO's merged ones refer across units */
		if (dwarf_tag(&cu) != DW_TAG_compile_unit ||
		    ((n = dwarf_diename(&cu)) && !strcmp(n, "<artificial>")))
			b->untrusted = true;
	}
	srcroots_find(dbg, &b->files.roots);
}

/* ---- the index builder: merge, symbols, database ---- */

static int sym_cmp(const void *a, const void *b)
{
	const struct dwi_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)
		return (int)y->global - (int)x->global;	/* globals first */
	return (x->order > y->order) - (x->order < y->order);
}

/*
 * Function symbols of the ELF, sorted by address; _stext into *stext and
 * _printk into *printk (the module's KASLR reference: it is exported, so
 * the module can take its run-time address).
 */
struct symtab_read {
	struct dwi_sym *v;
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
	r->v[r->n] = (struct dwi_sym){ .name = name, .addr = s->st_value, .size = s->st_size,
				   .global = GELF_ST_BIND(s->st_info) == STB_GLOBAL,
				   .order = (uint32_t)r->n };
	r->n++;
	return 0;
}

void dwi_sort_syms(struct dwi_sym *v, size_t n)
{
	if (n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(v, n, sizeof(*v), sym_cmp);
}

struct dwi_sym *dwi_read_symtab(Elf *elf, size_t *nout, uint64_t *stext, uint64_t *printk)
{
	struct symtab_read r = { .stext = stext, .printk = printk };

	dw_elf_symbols(elf, symtab_add, &r);
	dwi_sort_syms(r.v, r.n);
	*nout = r.n;
	return r.v;
}

uint32_t dwi_sym_find(const struct dwi_sym *v, size_t n, uint64_t addr)
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
	uint64_t vars_die;	/* the copy vars, ret and nparams are from */
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
					.file = r->file, .line = r->line,
					.vars_die = r->vars ? r->die : UINT64_MAX };
		ht_set(&m->ht, slot, h, (uint32_t)i);
	} else if (r->vars && r->die < m->fns[i].vars_die) {
		/*
		 * Each worker computes the variables of its first copy; copies
		 * differ (inlined into other units), so take the lowest DIE's,
		 * whichever thread took which unit (-L the same every run).
		 */
		m->fns[i].vars = r->vars;
		m->fns[i].ret = r->ret ? r->ret : "";
		m->fns[i].nparams = r->nparams;
		m->fns[i].vars_die = r->die;
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

/* The symbols rows, written as sites and statements first name them. */
struct dwi_symrows {
	sqlite3_stmt *ins;
	const struct dwi_sym *syms;
	size_t nsyms;
	uint32_t *ids;		/* syms[i]'s row, 0: not written yet */
	uint32_t next;
	uint64_t bias;		/* DWARF address + bias = symbol address */
};

int dwi_bind_sym(struct dwi_symrows *w, sqlite3_stmt *st, int col, uint64_t pc)
{
	uint32_t s = dwi_sym_find(w->syms, w->nsyms, pc + w->bias);
	const struct dwi_sym *y;
	int rc;

	if (s == UINT32_MAX) {
		sqlite3_bind_null(st, col);
		sqlite3_bind_null(st, col + 1);
		return 0;
	}
	y = &w->syms[s];
	if (!w->ids[s]) {
		w->ids[s] = w->next++;
		sqlite3_bind_int(w->ins, 1, (int)w->ids[s]);
		sqlite3_bind_text(w->ins, 2, y->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(w->ins, 3, (int64_t)y->addr);
		if (y->section)
			sqlite3_bind_text(w->ins, 4, y->section, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(w->ins, 4);
		rc = sqlite3_step(w->ins);
		sqlite3_reset(w->ins);
		if (rc != SQLITE_DONE)
			return -EIO;
	}
	sqlite3_bind_int(st, col, (int)w->ids[s]);
	sqlite3_bind_int64(st, col + 1, (int64_t)(pc + w->bias - y->addr));
	return 0;
}

/* A statement and its function's record, for sorting. */
struct sord {
	const struct srec *sr;
	const struct rec *r;
	size_t seq;		/* walk order */
};

static int sord_cmp(const void *a, const void *b)
{
	const struct sord *x = a, *y = b;

	if (x->r->func != y->r->func)
		return x->r->func < y->r->func ? -1 : 1;
	if (x->sr->file != y->sr->file)
		return x->sr->file < y->sr->file ? -1 : 1;
	if (x->sr->line != y->sr->line)
		return x->sr->line < y->sr->line ? -1 : 1;
	if (x->sr->stmt != y->sr->stmt)
		return y->sr->stmt - x->sr->stmt;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The statement table: of each (function, file, line), the first row the
 * walk met that begins a statement (is_stmt), else the first row: its
 * variables are where the DWARF says (probes/dwarf_stmt.c says why).
 * Records' func are database ids by now.  0 or -EIO.
 */
static int write_stmts(sqlite3 *db, struct dwi_symrows *sw, struct worker *ws, int nw)
{
	struct sord *o;
	size_t n = 0, k = 0;
	sqlite3_stmt *st;
	int ret = 0;

	for (int t = 0; t < nw; t++)
		n += ws[t].nsrecs;
	if (!n)
		return 0;
	if (sqlite3_prepare_v2(db, "INSERT INTO stmts VALUES(?,?,?,?,?,?,?,?)", -1, &st, NULL))
		return -EIO;
	o = xmalloc(n * sizeof(*o));
	for (int t = 0; t < nw; t++)
		for (size_t i = 0; i < ws[t].nsrecs; i++, k++)
			o[k] = (struct sord){ &ws[t].srecs[i], &ws[t].recs[ws[t].srecs[i].rec], k };
	qsort(o, n, sizeof(*o), sord_cmp);
	for (size_t i = 0; i < n && !ret; i++) {
		const struct srec *sr = o[i].sr;
		const struct rec *r = o[i].r;

		if (i && o[i - 1].r->func == r->func && o[i - 1].sr->file == sr->file &&
		    o[i - 1].sr->line == sr->line)
			continue;
		sqlite3_bind_int(st, 1, (int)r->func);
		sqlite3_bind_int(st, 2, (int)sr->file);
		sqlite3_bind_int(st, 3, (int)sr->line);
		sqlite3_bind_int64(st, 4, (int64_t)sr->pc);
		sqlite3_bind_int64(st, 7, (int64_t)r->die);
		sqlite3_bind_int64(st, 8, (int64_t)r->entry);
		if (dwi_bind_sym(sw, st, 5, sr->pc) < 0 || sqlite3_step(st) != SQLITE_DONE)
			ret = -EIO;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	free(o);
	return ret;
}

/* Fill the empty database db. */
static int write_db(sqlite3 *db, struct merge *m, struct worker *ws, int nw,
		    const struct dwi_sym *syms, size_t nsyms, uint64_t stext, uint64_t printk,
		    const struct dwi_meta *meta, double secs, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	struct rec **all = NULL;
	uint32_t *fnorder = NULL, *fnid = NULL;
	struct dwi_symrows sw = { .syms = syms, .nsyms = nsyms, .next = 1, .bias = meta->bias };
	size_t nall = 0, k = 0;
	int ret = -EIO;
	char buf[64];

	if (db_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
		    "PRAGMA page_size=8192; BEGIN;", err, errlen) ||
	    db_exec(db, dwdb_schema, err, errlen))
		goto out;

	sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?,?)", -1, &st, NULL);
	snprintf(buf, sizeof(buf), "%d", DW_SCHEMA_VERSION);
	meta_set(st, "schema_version", buf);
	if (meta->release)
		meta_set(st, "release", meta->release);
	if (meta->name)
		meta_set(st, "name", meta->name);
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
	sw.ids = xcalloc(nsyms + 1, sizeof(*sw.ids));
	{
		sqlite3_prepare_v2(db, "INSERT INTO symbols VALUES(?,?,?,?)", -1, &sw.ins, NULL);
		sqlite3_prepare_v2(db, "INSERT INTO sites VALUES(?,?,?,?,?,?,?,?)", -1, &st, NULL);
		for (size_t i = 0; i < nall; i++) {
			const struct rec *r = all[i];

			if (i && !rec_cmp(&all[i - 1], &all[i]))
				continue;
			sqlite3_bind_int(st, 1, (int)r->func);
			sqlite3_bind_int(st, 2, r->inlined);
			sqlite3_bind_int64(st, 3, (int64_t)r->entry);
			sqlite3_bind_int64(st, 4, (int64_t)r->probe);
			sqlite3_bind_int(st, 5, (int)r->cu);
			sqlite3_bind_int64(st, 8, (int64_t)r->die);
			if (dwi_bind_sym(&sw, st, 6, r->probe) < 0 ||
			    sqlite3_step(st) != SQLITE_DONE) {
				snprintf(err, errlen, "sqlite: %s", sqlite3_errmsg(db));
				goto out;
			}
			sqlite3_reset(st);
		}
		sqlite3_finalize(st);
		st = NULL;
		ret = write_stmts(db, &sw, ws, nw);
		if (ret < 0) {
			snprintf(err, errlen, "sqlite: %s", sqlite3_errmsg(db));
			goto out;
		}
		ret = -EIO;
	}
	/* The same symbols rows: a symbol both name is written once. */
	if (meta->post && meta->post(db, meta, &sw, meta->post_arg) < 0) {
		snprintf(err, errlen, "sqlite: %s", sqlite3_errmsg(db));
		goto out;
	}
	if (db_exec(db, dwdb_indexes, err, errlen) || db_exec(db, "COMMIT", err, errlen))
		goto out;
	ret = 0;
out:
	sqlite3_finalize(sw.ins);
	sqlite3_finalize(st);
	free(all);
	free(fnorder);
	free(fnid);
	free(sw.ids);
	return ret;
}

double dwi_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- which units can hold a function: dwi_build_name ---- */

static Elf_Scn *section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstr;

	if (elf_getshdrstrndx(elf, &shstr) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstr, sh->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* The section's bytes as they are in the file, or NULL (compressed, absent). */
static const char *section_bytes(Elf *elf, const char *name, size_t *len)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section(elf, name, &sh);
	Elf_Data *d;

	if (!scn || sh.sh_type != SHT_PROGBITS || (sh.sh_flags & SHF_COMPRESSED))
		return NULL;
	d = elf_rawdata(scn, NULL);
	if (!d || !d->d_buf || d->d_size != sh.sh_size)
		return NULL;
	*len = d->d_size;
	return d->d_buf;
}

/* Mark the unit holding .debug_info offset off. */
static void mark_unit(struct builder *b, bool *mark, Dwarf_Off off)
{
	int lo = 0, hi = b->nunits;

	while (lo < hi) {	/* first unit starting above off */
		int mid = (lo + hi) / 2;

		if (b->units[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0)
		mark[lo - 1] = true;
}

static void mark_hits(struct builder *b, bool *mark, const char *hay, size_t len,
		      const void *needle, size_t nlen)
{
	const char *p = hay, *end = hay + len;

	while ((p = memmem(p, (size_t)(end - p), needle, nlen))) {
		mark_unit(b, mark, (Dwarf_Off)(p - hay));
		p++;
	}
}

/*
 * Narrow b->cus to the units that can hold a copy of function name.
 * Every copy carries DW_AT_name, on its own DIE or on the abstract DIE
 * its DW_AT_abstract_origin names, which is in the same unit unless
 * dwz or LTO made references cross units (find_roots checks).  The name
 * is either inline (DW_FORM_string) or an offset into .debug_str
 * (DW_FORM_strp, 4 bytes in 32-bit DWARF).  So a unit whose bytes hold
 * neither cannot hold a copy, and a memmem over .debug_info finds a
 * superset of the units that do, in a fraction of the time a walk of
 * every DIE takes.  ld keeps one copy of each distinct string in the
 * merged .debug_str, possibly as the tail of a longer one: the offset is
 * the occurrence that starts a string if there is one, else any tail.
 * Returns false, leaving every unit, when the layout defeats this:
 * string offset tables (DW_FORM_strx), a supplementary file, compressed
 * or 64-bit DWARF, or too many candidate offsets.
 */
static bool narrow_units(Elf *elf, struct builder *b, const char *name, bool dwarf64)
{
	size_t ninfo = 0, nstr = 0, nlen = strlen(name) + 1;
	const char *info = section_bytes(elf, ".debug_info", &ninfo);
	const char *str = section_bytes(elf, ".debug_str", &nstr), *p;
	bool little = elf_getident(elf, NULL)[EI_DATA] == ELFDATA2LSB;
	uint32_t offs[16];
	int noffs = 0, nstart = 0;
	bool *mark;
	GElf_Shdr sh;

	if (!info || !str || dwarf64 || b->untrusted || b->nunits != b->ncus ||
	    section(elf, ".debug_str_offsets", &sh) || section(elf, ".gnu_debugaltlink", &sh))
		return false;
	for (p = str; (p = memmem(p, nstr - (size_t)(p - str), name, nlen)); p++) {
		uint32_t off = (uint32_t)(p - str);
		bool start = off == 0 || p[-1] == 0;

		if (start && !nstart++)
			noffs = 0;	/* the string's own copy: the only one */
		if (start || !nstart) {
			if (noffs == (int)ARRAY_SIZE(offs))
				return false;
			offs[noffs++] = off;
		}
	}
	mark = xcalloc((size_t)b->nunits, sizeof(*mark));
	for (int i = 0; i < noffs; i++) {
		unsigned char v[4];

		for (int k = 0; k < 4; k++)
			v[little ? k : 3 - k] = (unsigned char)(offs[i] >> (8 * k));
		mark_hits(b, mark, info, ninfo, v, 4);
	}
	mark_hits(b, mark, info, ninfo, name, nlen);
	b->ncus = 0;
	for (int i = 0; i < b->nunits; i++)
		if (mark[i])
			b->cus[b->ncus++] = b->cus[i];
	free(mark);
	return true;
}

/* ---- the builders ---- */

/*
 * Index the object meta describes into the empty database db: every
 * function, or only those named only.
 */
static int build(sqlite3 *db, struct dwi_meta *meta, const char *only, char **err)
{
	struct builder b = { .meta = meta, .compdir = meta->name != NULL, .only = only };
	struct worker ws[NTHREADS_MAX] = { 0 };
	struct merge m = { .files = &b.files };
	struct dwi_sym *syms = NULL;
	size_t nsyms = 0;
	uint64_t stext = 0, printk = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nw = ncpu < 1 ? 1 : ncpu > NTHREADS_MAX ? NTHREADS_MAX : (int)ncpu;
	double t0 = dwi_now();
	char msg[512] = "";
	Dwarf_Off off = 0, next;
	size_t hsize;
	uint8_t offsize;
	bool dwarf64 = false;
	int ret = 0, cap = 0, nrun;

	if (getenv("STAP_NG_DWARF_THREADS"))	/* for measurements */
		nw = atoi(getenv("STAP_NG_DWARF_THREADS"));
	if (nw < 1 || nw > NTHREADS_MAX || b.compdir)
		nw = 1;
	pthread_mutex_init(&b.files.lock, NULL);
	ret = b.compdir && !meta->dbg ? 0 : worker_open(&ws[0], meta);
	if (ret < 0)
		goto open_failed;
	while (ws[0].dbg &&
	       dwarf_nextcu(ws[0].dbg, off, &next, &hsize, NULL, NULL, &offsize) == 0) {
		if (b.nunits == cap) {
			cap = cap ? 2 * cap : 4096;
			b.cus = xrealloc(b.cus, cap * sizeof(*b.cus));
			b.units = xrealloc(b.units, cap * sizeof(*b.units));
		}
		dwarf64 |= offsize == 8;
		b.units[b.nunits] = off;
		b.cus[b.nunits++] = off + hsize;
		off = next;
	}
	b.ncus = b.nunits;
	if (!b.compdir)
		find_roots(ws[0].dbg, &b);
	meta->ncus = b.ncus;
	/* Not narrowed: every unit, walked for that name only. */
	if (only && narrow_units(ws[0].elf, &b, only, dwarf64) && b.ncus < 64 * nw)
		nw = 1 + b.ncus / 64;	/* a handle per thread costs more than a few units */
	for (int t = 0; t < nw; t++) {
		ws[t].b = &b;
		if (t && (ret = worker_open(&ws[t], meta)) < 0)
			goto open_failed;
	}
	for (nrun = 1; nrun < nw; nrun++)	/* fewer threads if one fails */
		if (pthread_create(&ws[nrun].tid, NULL, worker_main, &ws[nrun]))
			break;
	worker_main(&ws[0]);
	for (int t = 1; t < nrun; t++)
		pthread_join(ws[t].tid, NULL);
	meta->nthreads = nrun;
	meta->walk_secs = dwi_now() - t0;

	for (int t = 0; t < nw; t++)
		for (size_t i = 0; i < ws[t].nrecs; i++)
			ws[t].recs[i].func = merge_rec(&m, &ws[t].recs[i]);
	if (b.compdir) {
		ret = write_db(db, &m, ws, nw, meta->syms, meta->nsyms, 0, 0, meta,
			       dwi_now() - t0, msg, sizeof(msg));
	} else {
		syms = dwi_read_symtab(ws[0].elf, &nsyms, &stext, &printk);
		ret = write_db(db, &m, ws, nw, syms, nsyms, stext, printk, meta, dwi_now() - t0,
			       msg, sizeof(msg));
	}
	goto out;
open_failed:
	snprintf(msg, sizeof(msg), "dwarf: cannot read the DWARF of %s: %s",
		 meta->debuginfo, ret == -EINVAL ? dwarf_errmsg(-1) : strerror(-ret));
out:
	if (*msg) {
		*err = xstrdup(msg);
		ret = ret < 0 ? ret : -EIO;
	}
	for (int t = 0; t < NTHREADS_MAX; t++)
		worker_free(&ws[t]);
	for (int i = 0; i < b.files.names.len; i++)
		free(b.files.names.items[i]);
	vec_free(&b.files.names);
	ht_free(&b.files.ht);
	srcroots_free(&b.files.roots);
	pthread_mutex_destroy(&b.files.lock);
	free(b.cus);
	free(b.units);
	free(m.fns);
	ht_free(&m.ht);
	free(syms);
	return ret;
}

int dwi_build_file(const char *db_path, struct dwi_meta *meta, char **err)
{
	char *tmp = xasprintf("%s.tmp.%d", db_path, (int)getpid());
	sqlite3 *db = NULL;
	int ret;

	*err = NULL;
	unlink(tmp);
	if (sqlite3_open(tmp, &db) != SQLITE_OK) {
		*err = xasprintf("sqlite: cannot create %s: %s", tmp, sqlite3_errmsg(db));
		ret = -EIO;
	} else {
		ret = build(db, meta, NULL, err);
	}
	if (sqlite3_close(db) != SQLITE_OK && !ret) {
		*err = xasprintf("sqlite: cannot write %s", tmp);
		ret = -EIO;
	}
	if (ret == 0 && rename(tmp, db_path) < 0) {
		ret = -errno;
		*err = xasprintf("dwarf: cannot create %s: %s", db_path, strerror(errno));
	}
	unlink(tmp);
	free(tmp);
	return ret;
}

sqlite3 *dwi_build_name(struct dwi_meta *meta, const char *name, char **err)
{
	sqlite3 *db = NULL;

	*err = NULL;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
		*err = xasprintf("sqlite: %s", sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	if (build(db, meta, name, err) < 0) {
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* ---- type names for families' listings ---- */

char *dw_type_name(Dwarf_Die *type)
{
	struct strbuf sb = STRBUF_INIT;

	type_name(&sb, type, 0);
	return sb_steal(&sb);
}

#endif /* HAVE_SQLITE3 */
