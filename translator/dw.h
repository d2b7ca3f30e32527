/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DWARF objects: a kernel, a kernel module or a user-space ELF file, one
 * type (struct dw_object, dw_ prefix) indexed once per build by one
 * builder into one schema (dwarf_index.c, dwarf_db.c), with one symbol
 * table, queried by one set of functions.  What differs between kinds is
 * how an object is found and opened (dw_kernel_open, dw_module_open,
 * dw_user_open) and where its addresses are at run time (dw_space):
 *   - the kernel: link-time addresses moved by KASLR (probes go on
 *     symbol + offset, globals are shifted by the offset of _printk);
 *   - a module: addresses in libdwfl's layout of the ET_REL file, only
 *     meaningful relative to a symbol ("MODULE:SYMBOL" + offset);
 *   - a user file: its link-time virtual addresses; probes go on inode +
 *     file offset (dw_file_offset), globals at address + load bias.
 *
 * The first time a given build is queried its DWARF is walked (for a
 * vmlinux every compile unit, by several threads) and an index of its
 * functions is stored in an sqlite3 database named after the debuginfo's
 * GNU build-id:
 *
 *     ${XDG_CACHE_HOME:-$HOME/.cache}/stap-ng/dwarf/<build-id>.v<DW_SCHEMA_VERSION>.db
 *     (mod-<build-id>..., user-<build-id>-{dwarf,symtab}... for the others)
 *
 * Later opens only read that file: a lookup is a query on an indexed
 * column, well under 100 ms, without touching the 300-600 MB vmlinux.
 *
 * What is indexed, per function (name, decl file, decl line):
 *   - every out-of-line copy (DW_TAG_subprogram with code): its entry pc
 *     (DW_AT_entry_pc, else DW_AT_low_pc, else the first range) and its
 *     probe pc, the end of the prologue by this rule:
 *       1. the first line-table row in the function's entry range that
 *          carries the DW_LNS_set_prologue_end flag (clang emits it);
 *       2. else the first row whose address is greater than the entry pc
 *          and still inside the entry range: the "second row" of the
 *          function (GCC, which never sets the flag: on x86 with fentry
 *          this is the instruction after the `call __fentry__`);
 *       3. else (one-row function) the entry pc itself.
 *   - every inlined copy (DW_TAG_inlined_subroutine, at any depth): its
 *     entry pc (DW_AT_entry_pc, else low_pc, else the first range), which
 *     is also its probe pc, as SystemTap probes inlined instances there;
 *   - for each of those addresses, the ELF symbol that contains it and
 *     the offset from that symbol (kprobes take symbol+offset, which holds
 *     under KASLR), and the compile unit it came from;
 *   - the function's parameters and outermost locals with their types in
 *     SystemTap's -L format ("$fd:unsigned int $buf:char* $count:size_t").
 * A function with no out-of-line copy is "inline-only".  Functions with no
 * code at all (declarations, inlines never used) are not indexed.
 *
 * File names are relative to the kernel source tree ("fs/read_write.c",
 * "include/linux/fs.h"), as users write them in @file.
 */
#ifndef DW_H
#define DW_H

#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>
#include <gelf.h>

/* Bump when the database layout or its contents' meaning changes. */
#define DW_SCHEMA_VERSION 10	/* 10: user files' names as libdw gives them */

/* A kernel, a module or a user file (above). */
struct dw_object;
enum dw_kind { DW_KERNEL, DW_MODULE, DW_USER };

/* One probe-able address of a function (dw_lookup_functions). */
struct dw_site {
	const char *name;	/* the DWARF name: "ksys_read" */
	const char *file;	/* decl file: "fs/read_write.c" */
	int line;		/* decl line */
	const char *cu;		/* compile unit: "fs/read_write.c" */
	bool inlined;		/* an inlined copy, not an out-of-line one */
	bool inline_only;	/* the function has no out-of-line copy */
	uint64_t entry_pc;	/* link-time entry address of this copy */
	uint64_t probe_pc;	/* where a .function probe goes (see above) */
	const char *symbol;	/* ELF symbol containing probe_pc ("foo.isra.0") */
	uint64_t sym_offset;	/* probe_pc - that symbol's address */
	const char *vars;	/* "$a:int $b:char*", "" if none */
	uint64_t die_off;	/* the copy's DIE (subprogram or inlined) in dw_dwarf() */
	const char *section;	/* modules: the symbol's ELF section (".text"),
				 * NULL for the kernel */
};

/* One function (dw_list_functions): the unit of `stap -l`. */
struct dw_func {
	const char *name, *file;
	int line;
	bool inline_only;
	int n_outofline;	/* out-of-line copies */
	int n_inlined;		/* inlined copies */
	/*
	 * Parameters, then the locals with a location at the probe address:
	 * "$fd:unsigned int $buf:char*"; the first nparams are parameters.
	 */
	const char *vars;
	int nparams;
	const char *ret;	/* return type ("ssize_t"), "" for void */
};

/*
 * A parsed kernel.function pattern: NAME[@FILE[:LINE[-LINE2]]].  NAME and
 * FILE are globs (* ? [..]); FILE also matches a path ending in "/FILE"
 * (so "@read_write.c" finds fs/read_write.c).  LINE restricts the decl
 * line, "*" or absent means any.
 */
struct dw_pattern {
	char *name;		/* never NULL */
	char *file;		/* NULL: any */
	int line_lo, line_hi;	/* 0, 0: any */
};
/* 0, or -EINVAL with *err (malloc'ed) saying what is wrong. */
int dw_parse_pattern(const char *text, struct dw_pattern *out, char **err);
void dw_pattern_free(struct dw_pattern *p);

/* ---- opening ---- */

/*
 * Open kernel RELEASE ("6.1.0-56-amd64"): find its debuginfo in
 *     /usr/lib/debug/.build-id/xx/rest.debug   (the build-id of
 *                                               /boot/vmlinuz-RELEASE)
 *     /usr/lib/debug/boot/vmlinux-RELEASE
 *     /usr/lib/debug/lib/modules/RELEASE/vmlinux
 * which must be the build of /boot/vmlinuz-RELEASE when that image is
 * installed (same build-id; until the image's build-id has been read
 * once, same version banner).  $STAP_NG_DEBUGINFO_DIR replaces
 * /usr/lib/debug (tests).  The index is built when a query first needs
 * it: the whole of it in this process (a note on stderr says so), or for
 * an exact function name that name alone while a detached child builds
 * the whole one for next time (dwarf.c, index_for).
 * On failure returns NULL and sets *err to a malloc'ed message whose
 * subject comes first; a second line "hint: ..." names the package to
 * install when that is the fix.  The caller owns it (dw_close).
 */
struct dw_object *dw_kernel_open(const char *release, char **err);

/*
 * A module's DWARF is indexed into mod-<build-id of its debug file>.  Module
 * files are found (dw_find_modules) among the files given to --vm-insmod,
 * then in /lib/modules/RELEASE/modules.dep; a pattern with a '/' is the
 * module file itself.  Names compare with '-' and '_' alike, as the
 * kernel's do.  A module's DWARF is looked for in
 *     the module file itself (out-of-tree modules built with -g)
 *     /usr/lib/debug/lib/modules/RELEASE/<its path under /lib/modules/RELEASE>
 *     /usr/lib/debug/.build-id/xx/rest.debug   (the module's build-id)
 * ($STAP_NG_DEBUGINFO_DIR replaces /usr/lib/debug).
 */
typedef int (*dw_modfile_fn)(const char *name, const char *path, void *arg);
/*
 * Every module of kernel release matching pattern (a glob, or a path),
 * the given files first, each name once.  Returns the number of
 * callbacks, a callback's non-zero return, or a negative errno.
 */
int dw_find_modules(const char *release, const char *pattern, const char *const *given,
		    int ngiven, dw_modfile_fn fn, void *arg);
/*
 * Open (indexing first if needed) module name at path for kernel
 * release.  Modules and user files stay open for the process (probes keep
 * using their Dwarf through pass 3): dw_close leaves them be.  NULL with
 * *err malloc'ed ("subject: message[\nhint: ...]") on failure.
 */
struct dw_object *dw_module_open(const char *release, const char *name, const char *path,
				 char **err);
/*
 * A user-space executable or shared library.  Its DWARF is the file's own
 * or what libdwfl finds for it (build-id or .gnu_debuglink under
 * /usr/lib/debug); without any, the index holds the symbol table's
 * functions (no file, line or variables), at their entry.
 */
struct dw_object *dw_user_open(const char *path, char **err);
/*
 * The types of C headers, "<sys/types.h><stdio.h>" (@cast's third
 * argument): a program including them, built with the host's gcc -g once
 * per set and kept in the DWARF cache, opened as dw_user_open would.
 */
struct dw_object *dw_header_open(const char *headers, char **err);
/* Free a kernel object; modules and user files stay open (above). */
void dw_close(struct dw_object *o);

/* ---- what an object is ---- */

enum dw_kind dw_kind(const struct dw_object *o);
/* "kernel", the module's name, the user file's base name. */
const char *dw_name(const struct dw_object *o);
/* The file the DWARF was read from ("" for a user file without any). */
const char *dw_debuginfo(const struct dw_object *o);
/* The index's key: the debuginfo's build-id in hex (a user file's + "-dwarf"/"-symtab"). */
const char *dw_build_id(const struct dw_object *o);
const char *dw_db_path(const struct dw_object *o);
/* Whether the whole index exists yet (kernel: else exact names are indexed alone). */
bool dw_indexed(const struct dw_object *o);
/*
 * The debuginfo itself for reading variables and types (libdw), opened
 * on first use and owned by o; NULL if it cannot be read or a user file
 * has none.  dw_cfi is its call frame information, or NULL.
 */
Dwarf *dw_dwarf(struct dw_object *o);
Dwarf_CFI *dw_cfi(struct dw_object *o);

/* Kernel only: link-time _stext, and _printk (the module compares it with
 * &_printk to learn the KASLR offset: link-time address + that = run time). */
uint64_t dw_stext(struct dw_object *k);
uint64_t dw_printk(struct dw_object *k);

/* ---- queries ---- */

/*
 * Callbacks get pointers valid only during the call; a non-zero return
 * stops the walk and is returned.  Otherwise the functions return the
 * number of callbacks made (0: nothing matched), or a negative errno.
 * Order: name, file, line (and address for sites).
 */
typedef int (*dw_site_fn)(const struct dw_site *site, void *arg);
typedef int (*dw_func_fn)(const struct dw_func *fn, void *arg);

/*
 * Every probe address of every function matching the pattern.  The
 * kernel's queries also follow symbol-table aliases (dwarf.c); a user
 * file's index holds its aliases and symbol-only functions itself.
 */
int dw_lookup_functions(struct dw_object *o, const struct dw_pattern *p,
			dw_site_fn fn, void *arg);
/* Every function matching the pattern, once. */
int dw_list_functions(struct dw_object *o, const struct dw_pattern *p,
		      dw_func_fn fn, void *arg);
/*
 * The same from the DWARF index alone, without the other names the
 * symbol table gives the kernel's functions (so without reading it).
 */
int dw_list_dwarf_functions(struct dw_object *o, const struct dw_pattern *p,
			    dw_func_fn fn, void *arg);

/* The index cache directory (malloc'ed); n bytes as lowercase hex. */
char *dw_cache_dir(void);
char *dw_hex(const unsigned char *b, int n);

/*
 * One statement: the lowest address of a source line in an out-of-line
 * function (.statement("FUNC@FILE:LINE")).  func/decl_file/decl_line
 * name the function; file/line the statement.
 */
struct dw_stmt {
	const char *func, *decl_file;
	int decl_line;
	const char *file;
	int line;
	uint64_t pc;
	const char *symbol, *section;
	uint64_t sym_offset;
	uint64_t die_off;	/* the function's DIE */
	uint64_t entry_pc;	/* the function's */
};
typedef int (*dw_stmt_fn)(const struct dw_stmt *st, void *arg);
/*
 * Statements of functions matching p.name in files matching p.file,
 * lines p.line_lo-hi.  Modules and user files: the kernel's index has no
 * statement table (kernel.statement reads the line table, dwarf_stmt.c).
 */
int dw_statements(struct dw_object *o, const struct dw_pattern *p, dw_stmt_fn fn, void *arg);

/*
 * The function symbol holding DWARF address addr and the offset into
 * it (for a kprobe at symbol + offset, which holds under KASLR; for a
 * user probe's probefunc()).  Of several at one address the symbol table's
 * rule picks (dw_index.h, dwi_sym).  0, or -ENOENT if no function symbol
 * holds it.  *name lives as long as o.
 */
int dw_symbolize(struct dw_object *o, uint64_t addr, const char **name, uint64_t *offset);
/* User files: the file offset of address addr, for a uprobe; 0 or -errno. */
int dw_file_offset(struct dw_object *o, uint64_t addr, uint64_t *off);
/* The same for a link-time virtual address of an ELF file (its PT_LOADs). */
int dw_elf_file_offset(Elf *elf, uint64_t vaddr, uint64_t *off);

/* ---- address spaces ---- */

/*
 * Where an object's link-time (DWARF) addresses are at run time, for the
 * code that reads its globals (tvar.c): the kernel is moved by KASLR (a
 * link-time address + the offset the module measures against _printk);
 * a module's sections are placed when it loads (its probes go on
 * SYMBOL + offset, and its data's address is not known to the generated
 * code); a user file is mapped by each process (its probes go on inode +
 * file offset, and a global is at its link-time address + the load bias
 * the probe hit shows).  NONE: not known, as for a module.
 */
enum dw_space_kind { DW_SPACE_NONE, DW_SPACE_KERNEL, DW_SPACE_MODULE, DW_SPACE_USER };
struct dw_space {
	enum dw_space_kind kind;
	const char *name;	/* "kernel", the module's name, the user file's path */
	uint64_t link_printk;	/* KERNEL: the link-time _printk (dw_printk) */
};
/* An object's address space: KERNEL, MODULE or USER as its kind. */
struct dw_space dw_space(struct dw_object *o);

/* ---- tracepoints and type names (kernel.trace) ---- */

/*
 * One tracepoint of the kernel (dw_tracepoints): its name, its system
 * (TRACE_SYSTEM, "sched" for sched:sched_switch) and its prototype, the
 * parameters after the first (void *__data) of the function
 * __traceiter_NAME that every tracepoint has since 5.10.
 */
struct dw_tracepoint {
	const char *name;	/* "sched_switch" */
	const char *system;	/* "sched" */
	const char *file;	/* where it is declared: "include/trace/events/sched.h" */
	int line;
	uint64_t die_off;	/* __traceiter_NAME's DIE in dw_dwarf() */
};
typedef int (*dw_tracepoint_fn)(const struct dw_tracepoint *tp, void *arg);

/*
 * Every tracepoint of the kernel, by name; ones whose system cannot be
 * told (see dwarf.c) are left out.  Returns as the walks above; -ENOENT
 * if the vmlinux does not show its trace events.
 */
int dw_tracepoints(struct dw_object *k, dw_tracepoint_fn fn, void *arg);

/* A DWARF type as stap -L prints it ("struct task_struct*"); malloc'ed. */
char *dw_type_name(Dwarf_Die *type);

/*
 * Call fn for each named symbol of elf's (first) symbol table, in table
 * order, until it returns non-zero.  Returns the number of symbols
 * visited, or -1 if elf has no symbol table.
 */
typedef int (*dw_elf_sym_fn)(const char *name, const GElf_Sym *sym, void *arg);
int dw_elf_symbols(Elf *elf, dw_elf_sym_fn fn, void *arg);
/* The same for the first section of type (SHT_SYMTAB, SHT_DYNSYM). */
int dw_elf_symbols_of(Elf *elf, int type, dw_elf_sym_fn fn, void *arg);

#endif /* DW_H */
