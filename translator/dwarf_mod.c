// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel modules' DWARF (dw_module_*, dw_find_modules): see dw.h for
 * where modules and their debuginfo are found.
 *
 * A module is small next to vmlinux (the test module has one compile
 * unit; the biggest Debian modules a few hundred), so its index is built
 * in one thread, with the same rules as the kernel's (dw.h: out-of-line
 * copies probed after the prologue, inlined copies at their entry), plus
 * a statement table for .statement("FUNC@FILE:LINE"): the lowest
 * is_stmt address of each source line inside each out-of-line function.
 *
 * The index is an sqlite3 file next to the kernel's, named after the
 * build-id of the debug file, written to a temporary name and renamed
 * into place.  Addresses are those of libdwfl's offline layout of the
 * ET_REL file (DWARF address + bias); only their distance from a symbol
 * reaches the generated code.
 */
#include "config.h"

#include "dw.h"

#ifndef HAVE_SQLITE3
#include <errno.h>
#include <stdlib.h>

#include "../common/util.h"

/* Without sqlite3 dw_open already says what is missing; so do modules. */
int dw_find_modules(const char *release, const char *pattern, const char *const *given,
		    int ngiven, dw_modfile_fn fn, void *arg)
{
	return 0;
}

struct dw_module *dw_module_open(const char *release, const char *name, const char *path,
				 char **err)
{
	*err = xasprintf("dwarf: stap-ng was built without sqlite3, which the DWARF "
			 "index needs\nhint: install libsqlite3-dev and rerun configure");
	return NULL;
}

struct dw_module *dw_user_open(const char *path, char **err)
{
	return dw_module_open("", "", path, err);
}

int dw_module_file_offset(struct dw_module *m, uint64_t addr, uint64_t *off)
{
	return -ENOTSUP;
}

bool dw_module_has_dwarf(const struct dw_module *m) { return false; }
const char *dw_module_symname(struct dw_module *m, uint64_t addr) { return NULL; }
const char *dw_module_name(const struct dw_module *m) { return ""; }
const char *dw_module_debuginfo(const struct dw_module *m) { return ""; }
Dwarf *dw_module_dwarf(struct dw_module *m, Dwarf_CFI **cfi) { return NULL; }

int dw_module_functions(struct dw_module *m, const struct dw_pattern *p, dw_site_fn fn,
			void *arg)
{
	return -ENOTSUP;
}

int dw_module_list(struct dw_module *m, const struct dw_pattern *p, dw_func_fn fn, void *arg)
{
	return -ENOTSUP;
}

int dw_module_statements(struct dw_module *m, const struct dw_pattern *p, dw_stmt_fn fn,
			 void *arg)
{
	return -ENOTSUP;
}
#else /* HAVE_SQLITE3 */

#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/util.h"
#include "dw_index.h"

struct dw_module {
	struct dw_module *next;	/* dwm_open_list */
	char *release, *name, *path, *debuginfo, *db_path;
	sqlite3 *db;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dbg;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;	/* DWARF address + bias = dwfl address */
	/*
	 * A user-space ELF file (dw_user_open): reported as itself, its
	 * DWARF wherever libdwfl finds it, or none (dbg NULL: the index
	 * holds the symbol table's functions, at their entries).
	 */
	bool user;
	Dwarf_Addr elf_bias;	/* dwfl address - elf_bias = the file's vaddr */
};

/* Every module opened by this process (dw.h: they stay open). */
static struct dw_module *dwm_open_list;

/* ---- finding module files ---- */

/* The kernel's name of a module file: basename, no .ko[.xz...], '-' as '_'. */
static char *module_name_of(const char *path)
{
	const char *b = strrchr(path, '/');
	char *n = xstrdup(b ? b + 1 : path), *ko = strstr(n, ".ko");

	if (ko && (!ko[3] || ko[3] == '.'))
		*ko = '\0';
	for (char *p = n; *p; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

static bool name_matches(const char *pattern, const char *name)
{
	char *p = xstrdup(pattern);
	bool ok;

	/* '-' never starts a bracket range here: module names have none. */
	for (char *q = p; *q; q++)
		if (*q == '-')
			*q = '_';
	ok = fnmatch(p, name, 0) == 0;
	free(p);
	return ok;
}

int dw_find_modules(const char *release, const char *pattern, const char *const *given,
		    int ngiven, dw_modfile_fn fn, void *arg)
{
	struct vec seen = VEC_INIT;
	struct strbuf dep = STRBUF_INIT;
	char *path, *line, *save = NULL;
	int n = 0, ret = 0, i;

	if (strchr(pattern, '/')) {	/* the file itself */
		char *name = module_name_of(pattern);

		ret = fn(name, pattern, arg);
		free(name);
		return ret ? ret : 1;
	}
	for (i = 0; i < ngiven && !ret; i++) {
		char *name = module_name_of(given[i]);

		if (name_matches(pattern, name)) {
			n++;
			vec_push(&seen, name);
			ret = fn(name, given[i], arg);
		} else {
			free(name);
		}
	}
	path = xasprintf("/lib/modules/%s/modules.dep", release);
	if (!ret && read_file(path, &dep) == 0) {
		for (line = strtok_r(dep.buf, "\n", &save); line && !ret;
		     line = strtok_r(NULL, "\n", &save)) {
			char *colon = strchr(line, ':'), *name, *file;
			bool dup = false;

			if (!colon)
				continue;
			*colon = '\0';
			name = module_name_of(line);
			for (i = 0; i < seen.len && !dup; i++)
				dup = !strcmp(seen.items[i], name);
			if (dup || !name_matches(pattern, name)) {
				free(name);
				continue;
			}
			n++;
			vec_push(&seen, name);
			file = line[0] == '/' ? xstrdup(line)
					      : xasprintf("/lib/modules/%s/%s", release, line);
			ret = fn(name, file, arg);
			free(file);
		}
	}
	free(path);
	sb_free(&dep);
	for (i = 0; i < seen.len; i++)
		free(seen.items[i]);
	vec_free(&seen);
	return ret ? ret : n;
}

/* ---- finding debuginfo ---- */

/* Does the (uncompressed) ELF file at path have a .debug_info section? */
static bool has_dwarf(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;

	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && elf_getshdrstrndx(elf, &shstrndx) == 0) {
		while (!found && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *n;

			if (gelf_getshdr(scn, &sh) &&
			    (n = elf_strptr(elf, shstrndx, sh.sh_name)))
				found = !strcmp(n, ".debug_info") && sh.sh_type != SHT_NOBITS;
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

static const Dwfl_Callbacks dwm_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* A module file's build-id (libdwfl reads compressed .ko.xz too), or NULL. */
static char *module_build_id(const char *path)
{
	Dwfl *dwfl = dwfl_begin(&dwm_callbacks);
	Dwfl_Module *m = dwfl ? dwfl_report_offline(dwfl, "m", path, -1) : NULL;
	const unsigned char *b;
	GElf_Addr va;
	char *id = NULL;
	int n;

	if (m && (n = dwfl_module_build_id(m, &b, &va)) > 0)
		id = dw_hex(b, n);
	if (dwfl)
		dwfl_end(dwfl);
	return id;
}

/* path without a compression suffix after ".ko" (Debian 6.12 ships .ko.xz). */
static char *strip_compression(const char *path)
{
	char *p = xstrdup(path), *ko = strstr(p, ".ko.");

	if (ko && !strchr(ko + 4, '/'))
		ko[3] = '\0';
	return p;
}

/* The file holding module path's DWARF, or NULL with *err set. */
static char *find_debuginfo(const char *release, const char *name, const char *path,
			    char **err)
{
	const char *root = getenv("STAP_NG_DEBUGINFO_DIR");
	char *modroot = xasprintf("/lib/modules/%s/", release), *id = NULL, *found = NULL;
	char *cand[2] = { NULL, NULL };
	struct strbuf sb = STRBUF_INIT;
	int nc = 0;

	if (!root || !*root)
		root = "/usr/lib/debug";
	if (has_dwarf(path)) {
		found = xstrdup(path);
		goto out;
	}
	if (!strncmp(path, modroot, strlen(modroot))) {
		char *rel = strip_compression(path + 1);

		cand[nc++] = xasprintf("%s/%s", root, rel);
		free(rel);
	}
	id = module_build_id(path);
	if (id)
		cand[nc++] = xasprintf("%s/.build-id/%.2s/%s.debug", root, id, id + 2);
	for (int i = 0; i < nc && !found; i++)
		if (has_dwarf(cand[i]))
			found = xstrdup(cand[i]);
	if (found)
		goto out;
	sb_printf(&sb, "dwarf: no debuginfo for module %s: %s has no DWARF", name, path);
	for (int i = 0; i < nc; i++)
		sb_printf(&sb, "%s %s", i ? "," : " and there is none in", cand[i]);
	/* A distribution module's DWARF is in its kernel's -dbg package. */
	if (!strncmp(path, modroot, strlen(modroot)))
		sb_printf(&sb, "\nhint: install linux-image-%s-dbg", release);
	else
		sb_puts(&sb, "\nhint: rebuild the module with debug info (-g, or a kernel "
			"with CONFIG_DEBUG_INFO)");
	*err = sb_steal(&sb);
out:
	for (int i = 0; i < nc; i++)
		free(cand[i]);
	free(id);
	free(modroot);
	return found;
}

/* ---- building the index ---- */

/* Function symbols in dwfl addresses, sorted, with their sections. */
struct msym {
	const char *name, *section;
	uint64_t addr, size;
	char *owned;		/* name without its @VERSION, freed with the table */
};

static int msym_cmp(const void *a, const void *b)
{
	const struct msym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct msym *read_symbols(Dwfl_Module *mod, size_t *nout)
{
	int n = dwfl_module_getsymtab(mod);
	struct msym *v = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*v));
	size_t k = 0;

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, &elf,
							   &bias);
		GElf_Shdr sh;
		size_t shstrndx;

		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    shndx == SHN_UNDEF)
			continue;
		v[k] = (struct msym){ .name = name, .addr = addr, .size = sym.st_size,
				      .section = "" };
		/* .dynsym names of shared libraries carry versions: strtol@@GLIBC_2.2.5 */
		if (strchr(name, '@'))
			v[k].name = v[k].owned = xstrndup(name, strcspn(name, "@"));
		if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0 &&
		    gelf_getshdr(elf_getscn(elf, shndx), &sh))
			v[k].section = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!v[k].section)
			v[k].section = "";
		k++;
	}
	qsort(v, k, sizeof(*v), msym_cmp);
	*nout = k;
	return v;
}

/* A symbol holding addr, or NULL. */
static const struct msym *sym_at(const struct msym *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;
	const struct msym *best = NULL;

	while (lo < hi) {	/* first symbol above addr */
		size_t mid = (lo + hi) / 2;

		if (v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && v[i].addr == v[lo - 1].addr;)
		if (addr < v[i].addr + v[i].size || addr == v[i].addr)
			best = &v[i];
	return best;
}

struct builder {
	struct dw_module *m;
	sqlite3 *db;
	sqlite3_stmt *ins_func, *get_func, *ins_site, *ins_stmt, *upd_count;
	sqlite3_stmt *ins_file, *get_file, *ins_sym;
	struct msym *syms;
	size_t nsyms;
	int64_t *symids;	/* syms[i]'s row in symbols, 0: not written yet */
	int64_t cu;		/* the current CU's name in files */
	const char *comp_dir;	/* of the current CU */
	bool optimized;		/* user files: the CU was built with -O1 or more */
	/* the current CU's line table, sorted by address */
	Dwarf_Lines *lines;
	size_t nlines;
	int err;
	/* user files: dwfl addresses of the DWARF functions' entries, sorted */
	uint64_t *entries;
	size_t nentries, aentries;
};

/*
 * The name users write for a source file: relative to the compile
 * directory when inside it (kbuild compiles modules from the kernel
 * tree, so this is "fs/ext4/inode.c" or, for the test module built with
 * -fdebug-prefix-map, "stp_test.c").
 */
static char *source_name(const char *comp_dir, const char *file)
{
	size_t n = comp_dir ? strlen(comp_dir) : 0;

	while (!strncmp(file, "./", 2))
		file += 2;
	if (n && !strncmp(file, comp_dir, n) && file[n] == '/')
		file += n + 1;
	while (!strncmp(file, "./", 2))
		file += 2;
	return xstrdup(file);
}

/* The probe pc of an out-of-line copy: the rule of dw.h. */
static uint64_t prologue_end(struct builder *b, uint64_t entry, uint64_t end)
{
	uint64_t second = 0;

	for (size_t i = 0; i < b->nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(b->lines, i);
		Dwarf_Addr a;
		bool pe = false, es = false;

		if (dwarf_lineaddr(l, &a) || a < entry)
			continue;
		if (a >= end)
			break;
		dwarf_lineendsequence(l, &es);
		if (es)
			continue;
		dwarf_lineprologueend(l, &pe);
		if (pe)
			return a;
		if (!second && a > entry)
			second = a;
	}
	return second ? second : entry;
}

/* The row of file name in files, added if new. */
static int64_t file_id(struct builder *b, const char *name)
{
	int64_t id = -1;

	sqlite3_bind_text(b->get_file, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(b->get_file) == SQLITE_ROW)
		id = sqlite3_column_int64(b->get_file, 0);
	sqlite3_reset(b->get_file);
	if (id >= 0)
		return id;
	sqlite3_bind_text(b->ins_file, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(b->ins_file) != SQLITE_DONE)
		b->err = -EIO;
	sqlite3_reset(b->ins_file);
	return sqlite3_last_insert_rowid(b->db);
}

/* The id of function (name, file, line), its variables taken at pc if new. */
static int64_t func_id(struct builder *b, const char *name, int64_t file, int line,
		       Dwarf_Die *die, uint64_t pc)
{
	int64_t id = -1;

	sqlite3_bind_text(b->get_func, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(b->get_func, 2, file);
	sqlite3_bind_int(b->get_func, 3, line);
	if (sqlite3_step(b->get_func) == SQLITE_ROW)
		id = sqlite3_column_int64(b->get_func, 0);
	sqlite3_reset(b->get_func);
	if (id >= 0)
		return id;
	{
		int nparams = 0;
		char *ret = NULL, *vars = die ? dw_die_vars(die, pc, &nparams, &ret) : NULL;

		sqlite3_bind_text(b->ins_func, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(b->ins_func, 2, file);
		sqlite3_bind_int(b->ins_func, 3, line);
		sqlite3_bind_text(b->ins_func, 4, vars ? vars : "", -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(b->ins_func, 5, nparams);
		sqlite3_bind_text(b->ins_func, 6, ret ? ret : "", -1, SQLITE_TRANSIENT);
		if (sqlite3_step(b->ins_func) != SQLITE_DONE)
			b->err = -EIO;
		sqlite3_reset(b->ins_func);
		free(vars);
		free(ret);
	}
	return sqlite3_last_insert_rowid(b->db);
}

/* Bind the symbol holding pc and the offset into it (columns col, col + 1). */
static void bind_sym(struct builder *b, sqlite3_stmt *st, int col, uint64_t pc)
{
	const struct msym *s = sym_at(b->syms, b->nsyms, pc + b->m->bias);
	size_t i = s ? (size_t)(s - b->syms) : 0;

	if (!s) {
		sqlite3_bind_null(st, col);
		sqlite3_bind_null(st, col + 1);
		return;
	}
	if (!b->symids[i]) {
		sqlite3_bind_text(b->ins_sym, 1, s->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(b->ins_sym, 2, (int64_t)s->addr);
		sqlite3_bind_text(b->ins_sym, 3, s->section, -1, SQLITE_STATIC);
		if (sqlite3_step(b->ins_sym) != SQLITE_DONE)
			b->err = -EIO;
		sqlite3_reset(b->ins_sym);
		b->symids[i] = sqlite3_last_insert_rowid(b->db);
	}
	sqlite3_bind_int64(st, col, b->symids[i]);
	sqlite3_bind_int64(st, col + 1, (int64_t)(pc + b->m->bias - s->addr));
}

/* The statements of out-of-line copy die (function fid), one per line. */
static void add_statements(struct builder *b, Dwarf_Die *die, int64_t fid, uint64_t entry)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		for (size_t i = 0; i < b->nlines; i++) {
			Dwarf_Line *l = dwarf_onesrcline(b->lines, i);
			Dwarf_Addr a;
			bool stmt = false, es = false;
			const char *f;
			int line = 0;
			char *file;

			if (dwarf_lineaddr(l, &a) || a < lo)
				continue;
			if (a >= hi)
				break;
			dwarf_linebeginstatement(l, &stmt);
			dwarf_lineendsequence(l, &es);
			f = dwarf_linesrc(l, NULL, NULL);
			dwarf_lineno(l, &line);
			if (!stmt || es || !f || line <= 0)
				continue;
			/* Rows are by address: the first insert of a line is its lowest. */
			file = source_name(b->comp_dir, f);
			sqlite3_bind_int64(b->ins_stmt, 1, fid);
			sqlite3_bind_int64(b->ins_stmt, 2, file_id(b, file));
			sqlite3_bind_int(b->ins_stmt, 3, line);
			sqlite3_bind_int64(b->ins_stmt, 4, (int64_t)a);
			bind_sym(b, b->ins_stmt, 5, a);
			sqlite3_bind_int64(b->ins_stmt, 7, (int64_t)dwarf_dieoffset(die));
			sqlite3_bind_int64(b->ins_stmt, 8, (int64_t)entry);
			if (sqlite3_step(b->ins_stmt) != SQLITE_DONE)
				b->err = -EIO;
			sqlite3_reset(b->ins_stmt);
			free(file);
		}
	}
}

/* One out-of-line or inlined copy of a function (a dw_copy_fn). */
static void add_copy(void *arg, Dwarf_Die *die, bool inlined)
{
	struct builder *b = arg;
	Dwarf_Attribute a;
	const char *name, *df;
	uint64_t entry, end, probe;
	int line = 0;
	int64_t fid;
	char *file;

	if (!dwarf_attr_integrate(die, DW_AT_name, &a) || !(name = dwarf_formstring(&a)))
		return;
	if (dw_die_entry(die, &entry, &end) < 0)
		return;
	df = dwarf_decl_file(die);
	dwarf_decl_line(die, &line);
	file = source_name(b->comp_dir, df ? df : "?");
	/*
	 * SystemTap's rule for user code: past the prologue only where the
	 * compiler did not optimize (parameters are stored to the frame
	 * there); optimized code keeps them in registers at the entry.
	 */
	probe = inlined || b->optimized ? entry : prologue_end(b, entry, end);
	if (b->m->user && !inlined) {
		if (b->nentries == b->aentries) {
			b->aentries = b->aentries ? 2 * b->aentries : 64;
			b->entries = xrealloc(b->entries, b->aentries * sizeof(*b->entries));
		}
		b->entries[b->nentries++] = entry + b->m->bias;
	}
	fid = func_id(b, name, file_id(b, file), line, die, probe);
	sqlite3_bind_int64(b->ins_site, 1, fid);
	sqlite3_bind_int(b->ins_site, 2, inlined);
	sqlite3_bind_int64(b->ins_site, 3, (int64_t)entry);
	sqlite3_bind_int64(b->ins_site, 4, (int64_t)probe);
	sqlite3_bind_int64(b->ins_site, 5, b->cu);
	bind_sym(b, b->ins_site, 6, probe);
	sqlite3_bind_int64(b->ins_site, 8, (int64_t)dwarf_dieoffset(die));
	if (sqlite3_step(b->ins_site) != SQLITE_DONE)
		b->err = -EIO;
	sqlite3_reset(b->ins_site);
	sqlite3_bind_int(b->upd_count, 1, inlined);
	sqlite3_bind_int64(b->upd_count, 2, fid);
	sqlite3_step(b->upd_count);
	sqlite3_reset(b->upd_count);
	if (!inlined)
		add_statements(b, die, fid, entry);
	free(file);
}

static int prep(struct builder *b, const char *sql, sqlite3_stmt **st);

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * User files: each function symbol with no DWARF function at its address
 * (all of them without DWARF; startup code and libraries' objects built
 * without -g otherwise) is a function with no source position and no
 * variables, probed at its entry, as SystemTap lists them.
 */
static void add_symbols(struct builder *b)
{
	sqlite3_stmt *alias_func = NULL, *alias_site = NULL;

	if (b->nentries)	/* qsort(NULL, 0) is undefined */
		qsort(b->entries, b->nentries, sizeof(*b->entries), u64_cmp);
	/*
	 * A symbol at a DWARF function's entry under another name (strtol,
	 * a weak alias of __strtol) is that function under its name too.
	 */
	if (b->nentries &&
	    (sqlite3_exec(b->db, "CREATE INDEX work_entries ON sites(entry_pc)", NULL, NULL,
			  NULL) != SQLITE_OK ||
	     prep(b, "INSERT OR IGNORE INTO funcs(name, file, line, vars, nparams, ret)"
		  " SELECT ?1, f.file, f.line, f.vars, f.nparams, f.ret FROM funcs f"
		  " JOIN sites s ON s.func = f.id WHERE s.entry_pc = ?2 AND s.inlined = 0"
		  " AND NOT EXISTS (SELECT 1 FROM funcs g JOIN sites t ON t.func = g.id"
		  " WHERE t.entry_pc = ?2 AND g.name = ?1) LIMIT 1", &alias_func) ||
	     prep(b, "INSERT INTO sites SELECT ?1, 0, s.entry_pc, s.probe_pc, s.cu, s.sym,"
		  " s.sym_offset, s.die FROM sites s WHERE s.entry_pc = ?2"
		  " AND s.inlined = 0 AND s.func != ?1 LIMIT 1", &alias_site)))
		b->err = -EIO;
	for (size_t i = 0; i < b->nsyms && !b->err; i++) {
		const struct msym *y = &b->syms[i];
		uint64_t pc = y->addr - b->m->bias;
		int64_t fid;

		if (!y->addr)
			continue;
		if (bsearch(&y->addr, b->entries, b->nentries, sizeof(*b->entries), u64_cmp)) {
			sqlite3_bind_text(alias_func, 1, y->name, -1, SQLITE_STATIC);
			sqlite3_bind_int64(alias_func, 2, (int64_t)pc);
			if (sqlite3_step(alias_func) != SQLITE_DONE)
				b->err = -EIO;
			sqlite3_reset(alias_func);
			if (sqlite3_changes(b->db) <= 0)
				continue;
			fid = sqlite3_last_insert_rowid(b->db);
			sqlite3_bind_int64(alias_site, 1, fid);
			sqlite3_bind_int64(alias_site, 2, (int64_t)pc);
			if (sqlite3_step(alias_site) != SQLITE_DONE)
				b->err = -EIO;
			sqlite3_reset(alias_site);
			sqlite3_bind_int(b->upd_count, 1, 0);
			sqlite3_bind_int64(b->upd_count, 2, fid);
			sqlite3_step(b->upd_count);
			sqlite3_reset(b->upd_count);
			continue;
		}
		fid = func_id(b, y->name, file_id(b, ""), 0, NULL, pc);
		sqlite3_bind_int64(b->ins_site, 1, fid);
		sqlite3_bind_int(b->ins_site, 2, 0);
		sqlite3_bind_int64(b->ins_site, 3, (int64_t)pc);
		sqlite3_bind_int64(b->ins_site, 4, (int64_t)pc);
		sqlite3_bind_int64(b->ins_site, 5, file_id(b, ""));
		bind_sym(b, b->ins_site, 6, pc);
		sqlite3_bind_int64(b->ins_site, 8, 0);
		if (sqlite3_step(b->ins_site) != SQLITE_DONE)
			b->err = -EIO;
		sqlite3_reset(b->ins_site);
		sqlite3_bind_int(b->upd_count, 1, 0);
		sqlite3_bind_int64(b->upd_count, 2, fid);
		sqlite3_step(b->upd_count);
		sqlite3_reset(b->upd_count);
	}
	sqlite3_finalize(alias_func);
	sqlite3_finalize(alias_site);
}

/*
 * Working indexes for the walk (files, functions and statements are added
 * once each), dropped before the shared ones (dwdb_indexes) are made.
 */
static const char *const dwm_work_indexes =
	"CREATE UNIQUE INDEX work_files ON files(path);"
	"CREATE UNIQUE INDEX work_funcs ON funcs(name, file, line);"
	"CREATE UNIQUE INDEX work_stmts ON stmts(func, file, line);";

/*
 * The end of the walk: the working indexes go, and functions are
 * renumbered in (name, file, line) order, as the schema wants (dwarf_db.c).
 */
static const char *const dwm_finish =
	"DROP INDEX work_files; DROP INDEX work_funcs; DROP INDEX work_stmts;"
	"DROP INDEX IF EXISTS work_entries;"
	"CREATE TEMP TABLE fmap(new INTEGER PRIMARY KEY, old INTEGER NOT NULL UNIQUE);"
	"INSERT INTO fmap(old) SELECT f.id FROM funcs f JOIN files fl ON fl.id = f.file"
	" ORDER BY f.name, fl.path, f.line;"
	/* negative first: no id is taken twice on the way */
	"UPDATE funcs SET id = -(SELECT new FROM fmap WHERE old = funcs.id);"
	"UPDATE funcs SET id = -id;"
	"UPDATE sites SET func = (SELECT new FROM fmap WHERE old = sites.func);"
	"UPDATE stmts SET func = (SELECT new FROM fmap WHERE old = stmts.func);"
	"DROP TABLE fmap;";

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

static int prep(struct builder *b, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(b->db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	b->err = -EIO;
	return -1;
}

static int build_index(struct dw_module *m, const char *build_id, char **err)
{
	struct builder b = { .m = m };
	char *tmp = xasprintf("%s.tmp.%d", m->db_path, (int)getpid()), *msg = NULL;
	Dwarf_Off off = 0, next;
	size_t hsize;
	sqlite3_stmt *meta = NULL;
	int ret = -EIO;

	unlink(tmp);
	if (sqlite3_open(tmp, &b.db) != SQLITE_OK ||
	    sqlite3_exec(b.db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;", NULL,
			 NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(b.db, dwdb_schema, NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(b.db, dwm_work_indexes, NULL, NULL, &msg) != SQLITE_OK)
		goto out;
	if (prep(&b, "INSERT INTO funcs(name, file, line, vars, nparams, ret) VALUES(?,?,?,?,?,?)", &b.ins_func) ||
	    prep(&b, "SELECT id FROM funcs WHERE name = ? AND file = ? AND line = ?",
		 &b.get_func) ||
	    prep(&b, "INSERT INTO files(path) VALUES(?)", &b.ins_file) ||
	    prep(&b, "SELECT id FROM files WHERE path = ?", &b.get_file) ||
	    prep(&b, "INSERT INTO symbols(name, addr, section) VALUES(?,?,?)", &b.ins_sym) ||
	    prep(&b, "INSERT INTO sites VALUES(?,?,?,?,?,?,?,?)", &b.ins_site) ||
	    prep(&b, "INSERT OR IGNORE INTO stmts VALUES(?,?,?,?,?,?,?,?)", &b.ins_stmt) ||
	    prep(&b, "UPDATE funcs SET n_inlined = n_inlined + ?1,"
		 " n_outofline = n_outofline + 1 - ?1 WHERE id = ?2", &b.upd_count) ||
	    prep(&b, "INSERT INTO meta VALUES(?,?)", &meta))
		goto out;
	b.syms = read_symbols(m->mod, &b.nsyms);
	b.symids = xcalloc(b.nsyms + 1, sizeof(*b.symids));
	while (m->dbg && dwarf_nextcu(m->dbg, off, &next, &hsize, NULL, NULL, NULL) == 0 &&
	       !b.err) {
		Dwarf_Die cu;
		Dwarf_Attribute a;

		if (dwarf_offdie(m->dbg, off + hsize, &cu)) {
			const char *n = dwarf_diename(&cu);
			char *cuname;

			b.comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
			cuname = source_name(b.comp_dir, n ? n : "?");
			b.cu = file_id(&b, cuname);
			free(cuname);
			b.optimized = m->user &&
				      optimized(dwarf_formstring(dwarf_attr(&cu, DW_AT_producer, &a)));
			if (dwarf_getsrclines(&cu, &b.lines, &b.nlines) != 0)
				b.nlines = 0;
			dw_walk_copies(&cu, add_copy, &b);
		}
		off = next;
	}
	if (m->user)
		add_symbols(&b);
	if (b.err)
		goto out;
	{
		char v[16];
		const char *kv[][2] = {
			{ "schema_version", v }, { "name", m->name }, { "debuginfo", m->debuginfo },
			{ "build_id", build_id },
		};

		snprintf(v, sizeof(v), "%d", DW_SCHEMA_VERSION);
		for (size_t i = 0; i < ARRAY_SIZE(kv); i++) {
			sqlite3_bind_text(meta, 1, kv[i][0], -1, SQLITE_STATIC);
			sqlite3_bind_text(meta, 2, kv[i][1], -1, SQLITE_STATIC);
			sqlite3_step(meta);
			sqlite3_reset(meta);
		}
	}
	if (sqlite3_exec(b.db, dwm_finish, NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(b.db, dwdb_indexes, NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(b.db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK)
		goto out;
	ret = 0;
out:
	if (ret)
		*err = xasprintf("dwarf: cannot index module %s into %s: %s", m->name, m->db_path,
				 msg ? msg : b.db ? sqlite3_errmsg(b.db) : "cannot create it");
	sqlite3_free(msg);
	sqlite3_finalize(b.ins_func);
	sqlite3_finalize(b.get_func);
	sqlite3_finalize(b.ins_site);
	sqlite3_finalize(b.ins_stmt);
	sqlite3_finalize(b.upd_count);
	sqlite3_finalize(b.ins_file);
	sqlite3_finalize(b.get_file);
	sqlite3_finalize(b.ins_sym);
	sqlite3_finalize(meta);
	sqlite3_close(b.db);
	for (size_t i = 0; i < b.nsyms; i++)
		free(b.syms[i].owned);
	free(b.syms);
	free(b.symids);
	free(b.entries);
	if (!ret && rename(tmp, m->db_path) < 0) {
		*err = xasprintf("dwarf: cannot create %s: %s", m->db_path, strerror(errno));
		ret = -errno;
	}
	unlink(tmp);
	free(tmp);
	return ret;
}

/* ---- opening ---- */

/*
 * The cache key: the debug file's build-id, or for a file without one
 * (a hand-built module linked without --build-id) its identity.
 */
static char *index_key(Dwfl_Module *mod, const char *debuginfo)
{
	const unsigned char *b;
	GElf_Addr va;
	int n = dwfl_module_build_id(mod, &b, &va);
	struct stat st;
	uint64_t h = HASH_INIT;

	if (n > 0)
		return dw_hex(b, n);
	if (stat(debuginfo, &st) == 0) {
		h = hash_bytes(h, debuginfo, strlen(debuginfo));
		h = hash_bytes(h, &st.st_size, sizeof(st.st_size));
		h = hash_bytes(h, &st.st_mtim, sizeof(st.st_mtim));
		h = hash_bytes(h, &st.st_ino, sizeof(st.st_ino));
	}
	return xasprintf("nobuildid-%016llx", (unsigned long long)h);
}

static void module_free(struct dw_module *m)
{
	if (!m)
		return;
	sqlite3_close(m->db);
	if (m->dwfl)
		dwfl_end(m->dwfl);
	free(m->release);
	free(m->name);
	free(m->path);
	free(m->debuginfo);
	free(m->db_path);
	free(m);
}

/*
 * Open m's index <cache>/<prefix>-<key>.db, building it first if it is
 * missing or stale, and keep m open for the process.  Takes key; frees m
 * on failure (NULL, *err set).
 */
static struct dw_module *open_index(struct dw_module *m, const char *prefix, char *key,
				    char **err)
{
	char *dir = dw_cache_dir();

	if (mkdir_p(dir, 0755) < 0) {
		*err = xasprintf("dwarf: cannot create the cache directory %s: %s", dir,
				 strerror(errno));
		goto fail;
	}
	/* The schema in the name, as the kernel's: trees of different versions share it. */
	m->db_path = xasprintf("%s/%s-%s.v%d.db", dir, prefix, key, DW_SCHEMA_VERSION);
	m->db = dwdb_open(m->db_path);
	if (!m->db) {
		if (build_index(m, key, err) < 0)
			goto fail;
		m->db = dwdb_open(m->db_path);
		if (!m->db) {
			*err = xasprintf("dwarf: cannot open the new index %s", m->db_path);
			goto fail;
		}
	}
	free(dir);
	free(key);
	m->next = dwm_open_list;
	dwm_open_list = m;
	return m;
fail:
	free(dir);
	free(key);
	module_free(m);
	return NULL;
}

struct dw_module *dw_module_open(const char *release, const char *name, const char *path,
				 char **err)
{
	struct dw_module *m;
	char *key;

	*err = NULL;
	for (m = dwm_open_list; m; m = m->next)
		if (!strcmp(m->release, release) && !strcmp(m->path, path))
			return m;
	elf_version(EV_CURRENT);
	m = xcalloc(1, sizeof(*m));
	m->release = xstrdup(release);
	m->name = xstrdup(name);
	m->path = xstrdup(path);
	if (access(path, R_OK) < 0) {
		*err = xasprintf("dwarf: cannot read module %s: %s", path, strerror(errno));
		goto fail;
	}
	m->debuginfo = find_debuginfo(release, name, path, err);
	if (!m->debuginfo)
		goto fail;
	m->dwfl = dwfl_begin(&dwm_callbacks);
	if (m->dwfl)
		m->mod = dwfl_report_offline(m->dwfl, name, m->debuginfo, -1);
	if (m->mod)
		dwfl_report_end(m->dwfl, NULL, NULL);
	m->dbg = m->mod ? dwfl_module_getdwarf(m->mod, &m->bias) : NULL;
	if (!m->dbg) {
		*err = xasprintf("dwarf: cannot read the DWARF of %s: %s", m->debuginfo,
				 dwfl_errmsg(-1));
		goto fail;
	}
	m->cfi = dwfl_module_dwarf_cfi(m->mod, &(Dwarf_Addr){ 0 });
	key = index_key(m->mod, m->debuginfo);
	return open_index(m, "mod", key, err);
fail:
	module_free(m);
	return NULL;
}

/* ---- user-space files ---- */

/* Where separate debuginfo is looked for; STAP_NG_DEBUGINFO_DIR as for modules. */
static char *dwu_debuginfo_path;

static Dwfl_Callbacks dwu_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &dwu_debuginfo_path,
};

struct dw_module *dw_user_open(const char *path, char **err)
{
	struct dw_module *m;
	const char *base = strrchr(path, '/'), *dbgfile = NULL;
	char *key, *id;
	GElf_Half type = 0;
	Elf *elf;

	*err = NULL;
	for (m = dwm_open_list; m; m = m->next)
		if (m->user && !strcmp(m->path, path))
			return m;
	elf_version(EV_CURRENT);
	m = xcalloc(1, sizeof(*m));
	m->user = true;
	m->release = xstrdup("");
	m->name = xstrdup(base ? base + 1 : path);
	m->path = xstrdup(path);
	if (access(path, R_OK) < 0) {
		*err = xasprintf("dwarf: cannot read %s: %s", path, strerror(errno));
		goto fail;
	}
	if (!dwu_debuginfo_path) {
		const char *root = getenv("STAP_NG_DEBUGINFO_DIR");

		/* libdw's default is ":.debug:/usr/lib/debug". */
		dwu_debuginfo_path = xasprintf(":.debug:%s", root && *root ? root : "/usr/lib/debug");
	}
	m->dwfl = dwfl_begin(&dwu_callbacks);
	if (m->dwfl)
		m->mod = dwfl_report_offline(m->dwfl, m->name, path, -1);
	if (m->mod)
		dwfl_report_end(m->dwfl, NULL, NULL);
	elf = m->mod ? dwfl_module_getelf(m->mod, &m->elf_bias) : NULL;
	if (elf) {
		GElf_Ehdr eh;

		if (gelf_getehdr(elf, &eh))
			type = eh.e_type;
	}
	if (type != ET_EXEC && type != ET_DYN) {
		*err = xasprintf("dwarf: %s is not an executable or shared library%s%s", path,
				 m->mod ? "" : ": ", m->mod ? "" : dwfl_errmsg(-1));
		goto fail;
	}
	/* No DWARF is fine: the symbol table still names the functions. */
	m->dbg = dwfl_module_getdwarf(m->mod, &m->bias);
	if (m->dbg) {
		dwfl_module_info(m->mod, NULL, NULL, NULL, NULL, NULL, NULL, &dbgfile);
		m->cfi = dwfl_module_eh_cfi(m->mod, &(Dwarf_Addr){ 0 });
		if (!m->cfi)
			m->cfi = dwfl_module_dwarf_cfi(m->mod, &(Dwarf_Addr){ 0 });
	} else {
		m->bias = m->elf_bias;
	}
	m->debuginfo = xstrdup(dbgfile ? dbgfile : m->dbg ? path : "");
	/* Whether DWARF was found is part of the key: installing it later counts. */
	id = index_key(m->mod, path);
	key = xasprintf("%s-%s", id, m->dbg ? "dwarf" : "symtab");
	free(id);
	return open_index(m, "user", key, err);
fail:
	module_free(m);
	return NULL;
}

const char *dw_module_symname(struct dw_module *m, uint64_t addr)
{
	return dwfl_module_addrname(m->mod, addr + m->bias);
}

bool dw_module_has_dwarf(const struct dw_module *m)
{
	return m->dbg != NULL;
}

int dw_module_file_offset(struct dw_module *m, uint64_t addr, uint64_t *off)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(m->mod, &bias);

	return elf ? dw_elf_file_offset(elf, addr + m->bias - bias, off) : -EIO;
}

int dw_elf_file_offset(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) < 0)
		return -EIO;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

const char *dw_module_name(const struct dw_module *m)
{
	return m->name;
}

const char *dw_module_debuginfo(const struct dw_module *m)
{
	return m->debuginfo;
}

Dwarf *dw_module_dwarf(struct dw_module *m, Dwarf_CFI **cfi)
{
	*cfi = m->cfi;
	return m->dbg;
}

/* ---- queries (dwarf_db.c) ---- */

int dw_module_functions(struct dw_module *m, const struct dw_pattern *p, dw_site_fn fn,
			void *arg)
{
	return dwdb_sites(m->db, m->db_path, p, fn, arg);
}

int dw_module_list(struct dw_module *m, const struct dw_pattern *p, dw_func_fn fn, void *arg)
{
	return dwdb_funcs(m->db, m->db_path, p, fn, arg);
}

int dw_module_statements(struct dw_module *m, const struct dw_pattern *p, dw_stmt_fn fn,
			 void *arg)
{
	return dwdb_stmts(m->db, m->db_path, p, fn, arg);
}
#endif /* HAVE_SQLITE3 */
