/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DWARF index's internals: its database (dwarf_db.c, dwdb_ prefix),
 * one schema and one reader for kernel, module and user files; and the
 * kernel's index builder (dwarf_index.c, dwi_ prefix), for dwarf.c.
 */
#ifndef DW_INDEX_H
#define DW_INDEX_H
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "../common/util.h"
#include "dw.h"

/* ---- the object (dw.h; opened by dwarf.c and dwarf_mod.c) ---- */

/* In-memory indexes of single names, before a kernel's whole index exists. */
#define DW_PARTS 4

struct dwi_sym;

struct dw_object {
	enum dw_kind kind;
	char *name;		/* "kernel", the module's name, the file's base name */
	char *path;		/* the module or user file; NULL for the kernel */
	char *release;		/* kernel and modules; "" for user files */
	char *build_id, *debuginfo, *db_path;
	sqlite3 *db;		/* the whole index; kernel: NULL until a query needs it */
	Dwarf *dbg;
	Dwarf_CFI *cfi;
	uint64_t bias;		/* DWARF address + bias = symbol table address */
	/* dw_symbolize, the index builder: the function symbols, read on first use */
	struct dwi_sym *syms;
	size_t nsyms;
	bool syms_tried;
	struct vec owned;	/* names the symbols own (without @VERSION) */

	/* DW_KERNEL */
	struct dw_part {
		char *name;
		sqlite3 *db;
	} parts[DW_PARTS];
	int nparts;
	char *dir;
	char *image, *image_id;	/* image_id NULL: not read yet (banner_matches) */
	bool bg_started;	/* background_index ran */
	uint64_t stext, printk;
	bool addrs_known;	/* stext, printk */
	int fd;			/* dw_dwarf(): the debuginfo, opened on first use */
	Elf *elf;
	bool dbg_tried;

	/* DW_MODULE, DW_USER: libdwfl's view of the file, open for the process */
	struct dw_object *next;	/* dwm_open_list */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr elf_bias;	/* user: dwfl address - elf_bias = the file's vaddr */
};

/* Read o's function symbols into o->syms (dwarf.c: the kernel's ELF; dwarf_mod.c: libdwfl's). */
void dwm_read_symbols(struct dw_object *o);

/* ---- the database (dwarf_db.c) ---- */

/* The tables (dwdb_schema) and, created after the rows, their indexes. */
extern const char *const dwdb_schema;
extern const char *const dwdb_indexes;
/* An index of schema DW_SCHEMA_VERSION at path, read-only, or NULL. */
sqlite3 *dwdb_open(const char *path);
/* A meta value (malloc'ed), or NULL. */
char *dwdb_meta(sqlite3 *db, const char *key);
/*
 * The queries behind dw_list_functions, dw_lookup_functions and
 * dw_statements, on one index (db_path names it in errors):
 * dw.h's order and return convention.
 */
int dwdb_funcs(sqlite3 *db, const char *db_path, const struct dw_pattern *p, dw_func_fn fn,
	       void *arg);
int dwdb_sites(sqlite3 *db, const char *db_path, const struct dw_pattern *p, dw_site_fn fn,
	       void *arg);
int dwdb_stmts(sqlite3 *db, const char *db_path, const struct dw_pattern *p, dw_stmt_fn fn,
	       void *arg);

/*
 * ---- the builder (dwarf_index.c) ----
 *
 * One builder for every object: a kernel's vmlinux (walked by up to 8
 * threads, each with its own handle on the file), a module or a user
 * file (dwarf_mod.c: its DWARF as libdwfl relocated it, one thread).
 * Two ways to build the same database (dw.h describes its contents):
 *   - dwi_build_file: every function, into the cache file (seconds for
 *     a vmlinux: every compile unit is walked);
 *   - dwi_build_name: only the functions of one name, into an in-memory
 *     database (a tenth of a second: only the compile units that can hold
 *     such a function are walked, see dwarf_index.c).  Queries on it for
 *     that name answer exactly as they would on the whole index.  Kernel
 *     only.
 */

/*
 * A function symbol.  Of several at one address the first in
 * dwi_sort_syms's order names it: globals first (the kernel's rule; a
 * module's or user file's are all marked local, so that its table's order
 * decides, as SystemTap's probefunc() names them), then table order.
 */
struct dwi_sym {
	const char *name;
	uint64_t addr, size;
	bool global;
	uint32_t order;		/* its place in the symbol table */
	const char *section;	/* relocatable objects (modules), else NULL */
};

/*
 * The function symbols of elf sorted by address (names point into elf);
 * the link-time addresses of _stext and _printk into *stext, *printk.
 */
struct dwi_sym *dwi_read_symtab(Elf *elf, size_t *n, uint64_t *stext, uint64_t *printk);
/* Sort v[0..n) as dwi_sym_find wants it (by address, globals first). */
void dwi_sort_syms(struct dwi_sym *v, size_t n);
/* The symbol containing addr, or UINT32_MAX. */
uint32_t dwi_sym_find(const struct dwi_sym *v, size_t n, uint64_t addr);

/*
 * The symbols rows of an index being built, written as they are first
 * named: dwi_bind_sym binds the row of the symbol holding DWARF address
 * pc to column col of st and the offset into it to col + 1 (NULLs if no
 * function symbol holds it).  0, or -EIO.
 */
struct dwi_symrows;
int dwi_bind_sym(struct dwi_symrows *rows, sqlite3_stmt *st, int col, uint64_t pc);

/* The object to index and what its index records (the meta table). */
struct dwi_meta {
	const char *release, *build_id, *debuginfo, *image, *image_build_id;
	/*
	 * Modules and user files (name NULL for the kernel, whose debuginfo
	 * is opened by each thread): name is the meta table's; dbg the DWARF
	 * to walk, in one thread (NULL: none, post adds what there is), whose
	 * addresses + bias are syms' (sorted by dwi_sort_syms; the kernel's
	 * come from its ELF).  Their file names are relative to the unit's
	 * compile directory (dw.h).
	 */
	const char *name;
	Dwarf *dbg;
	uint64_t bias;
	const struct dwi_sym *syms;
	size_t nsyms;
	bool stmts;		/* fill the statement table (.statement) */
	bool user;		/* user file: optimized units are probed at the entry */
	/* Called before the indexes are made, to add rows (user files' symbols). */
	int (*post)(sqlite3 *db, const struct dwi_meta *meta, struct dwi_symrows *rows,
		    void *arg);
	void *post_arg;
	int ncus, nthreads;	/* filled by the builders */
	double walk_secs;	/* of which the DWARF walk (threaded part) */
};

/*
 * Index every function of the object into db_path, through a temporary
 * file renamed into place: a concurrent reader sees no index or a whole
 * one.  0, or a negative errno with *err malloc'ed.
 */
int dwi_build_file(const char *db_path, struct dwi_meta *meta, char **err);
/*
 * Index the functions named name (no wildcards) into a new in-memory
 * database, or NULL with *err malloc'ed.
 */
sqlite3 *dwi_build_name(struct dwi_meta *meta, const char *name, char **err);

double dwi_now(void);	/* CLOCK_MONOTONIC seconds */
#endif
