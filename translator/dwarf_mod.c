// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel modules' and user files' DWARF objects (dw_module_open,
 * dw_user_open, dw_find_modules): see dw.h for where modules and their
 * debuginfo are found.
 *
 * A module or user file is indexed by the kernel's builder (dwarf_index.c,
 * the same rules: out-of-line copies probed after the prologue, inlined
 * copies at their entry), in one thread on the DWARF libdwfl relocated,
 * with a statement table for .statement("FUNC@FILE:LINE"): the first
 * is_stmt address of each source line inside each out-of-line function.
 * A user file's symbol table adds the functions DWARF does not have
 * (user_symbols).
 *
 * The index is an sqlite3 file next to the kernel's, named after the
 * build-id of the debug file, written to a temporary name and renamed
 * into place.  Addresses are those of libdwfl's offline layout of the
 * ET_REL file (DWARF address + bias); only their distance from a symbol
 * reaches the generated code.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dw.h"
#include "../common/util.h"

#ifndef HAVE_SQLITE3
#include <errno.h>
#include <stdlib.h>

#include "../common/util.h"

/* Without sqlite3 dw_kernel_open already says what is missing; so do modules. */
int dw_find_modules(const char *release, const char *pattern, const char *const *given,
		    int ngiven, dw_modfile_fn fn, void *arg)
{
	return 0;
}

struct dw_object *dw_module_open(const char *release, const char *name, const char *path,
				 char **err)
{
	*err = xasprintf("dwarf: stap-ng was built without sqlite3, which the DWARF "
			 "index needs\nhint: install libsqlite3-dev and rerun configure");
	return NULL;
}

struct dw_object *dw_user_open(const char *path, char **err)
{
	return dw_module_open("", "", path, err);
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

/* Every module opened by this process (dw.h: they stay open). */
static struct dw_object *dwm_open_list;

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

/* ---- building the index (dwarf_index.c) ---- */

/*
 * A module's or user file's function symbols in dwfl addresses (DWARF
 * address + o->bias), with their sections; dwarf.c's load_syms calls it.
 */
void dwm_read_symbols(struct dw_object *o)
{
	int n = dwfl_module_getsymtab(o->mod);

	o->syms_tried = true;
	o->syms = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*o->syms));
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;
		const char *name = dwfl_module_getsym_info(o->mod, i, &sym, &addr, &shndx, &elf,
							   &bias);
		struct dwi_sym *y = &o->syms[o->nsyms];
		GElf_Shdr sh;
		size_t shstrndx;

		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    shndx == SHN_UNDEF)
			continue;
		/* global left false: table order picks among aliases (dw_index.h) */
		*y = (struct dwi_sym){ .name = name, .addr = addr, .size = sym.st_size,
				       .order = (uint32_t)i };
		/* .dynsym names of shared libraries carry versions: strtol@@GLIBC_2.2.5 */
		if (strchr(name, '@')) {
			y->name = xstrndup(name, strcspn(name, "@"));
			vec_push(&o->owned, (void *)y->name);
		}
		if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0 &&
		    gelf_getshdr(elf_getscn(elf, shndx), &sh))
			y->section = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!y->section)
			y->section = "";
		o->nsyms++;
	}
	dwi_sort_syms(o->syms, o->nsyms);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* What user_symbols works with: its statements and what they need. */
struct usym {
	sqlite3 *db;
	sqlite3_stmt *get_func, *ins_func, *ins_site, *upd_count;
	sqlite3_stmt *alias_func, *alias_site;
	struct dwi_symrows *rows;	/* the builder's symbols rows */
	int64_t nofile;		/* the files row of "" */
};

/* Step st and reset it; 0, or -EIO if it failed. */
static int step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -EIO;
}

/* One more copy of function fid, out of line. */
static int count_copy(struct usym *u, int64_t fid)
{
	sqlite3_bind_int(u->upd_count, 1, 0);
	sqlite3_bind_int64(u->upd_count, 2, fid);
	return step(u->upd_count);
}

/*
 * A symbol at a DWARF function's entry under another name (strtol, a
 * weak alias of __strtol) is that function under its name too.
 */
static int add_alias(struct usym *u, const char *name, uint64_t pc)
{
	int64_t fid;

	sqlite3_bind_text(u->alias_func, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(u->alias_func, 2, (int64_t)pc);
	if (step(u->alias_func) < 0)
		return -EIO;
	if (sqlite3_changes(u->db) <= 0)
		return 0;
	fid = sqlite3_last_insert_rowid(u->db);
	sqlite3_bind_int64(u->alias_site, 1, fid);
	sqlite3_bind_int64(u->alias_site, 2, (int64_t)pc);
	if (step(u->alias_site) < 0)
		return -EIO;
	return count_copy(u, fid);
}

/* A function of the symbol table alone: no source position, no variables. */
static int add_symbol_func(struct usym *u, const char *name, uint64_t pc)
{
	int64_t fid = -1;

	sqlite3_bind_text(u->get_func, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(u->get_func, 2, u->nofile);
	if (sqlite3_step(u->get_func) == SQLITE_ROW)
		fid = sqlite3_column_int64(u->get_func, 0);
	sqlite3_reset(u->get_func);
	if (fid < 0) {
		sqlite3_bind_text(u->ins_func, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(u->ins_func, 2, u->nofile);
		if (step(u->ins_func) < 0)
			return -EIO;
		fid = sqlite3_last_insert_rowid(u->db);
	}
	sqlite3_bind_int64(u->ins_site, 1, fid);
	sqlite3_bind_int64(u->ins_site, 2, (int64_t)pc);
	sqlite3_bind_int64(u->ins_site, 3, u->nofile);
	if (dwi_bind_sym(u->rows, u->ins_site, 4, pc) < 0 || step(u->ins_site) < 0)
		return -EIO;
	return count_copy(u, fid);
}

/* By name, then address: symbols' functions in the schema's order. */
static int sym_name_cmp(const void *a, const void *b)
{
	const struct dwi_sym *x = *(const struct dwi_sym *const *)a;
	const struct dwi_sym *y = *(const struct dwi_sym *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

/* The renumbering: new ids of the functions, by their old ones. */
struct fmap {
	int64_t *id;
	int64_t n;
};

static void fmap_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const struct fmap *m = sqlite3_user_data(ctx);
	int64_t old = sqlite3_value_int64(argv[0]);

	(void)argc;
	sqlite3_result_int64(ctx, old > 0 && old < m->n ? m->id[old] : old);
}

/*
 * Number the functions in (name, file, line) order, as the schema wants
 * (dwarf_db.c), through a map in C (a table of it, read by correlated
 * subqueries, costs more than the whole walk).  0 or -EIO.
 */
static int renumber(sqlite3 *db)
{
	struct fmap m = { 0 };
	sqlite3_stmt *st;
	int64_t next = 1;
	int ret = -EIO;

	if (sqlite3_prepare_v2(db, "SELECT max(id) FROM funcs", -1, &st, NULL))
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW)
		m.n = sqlite3_column_int64(st, 0) + 1;
	sqlite3_finalize(st);
	m.id = xcalloc((size_t)(m.n > 0 ? m.n : 1), sizeof(*m.id));
	if (sqlite3_prepare_v2(db, "SELECT f.id FROM funcs f JOIN files fl ON fl.id = f.file"
			       " ORDER BY f.name, fl.path, f.line", -1, &st, NULL))
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t old = sqlite3_column_int64(st, 0);

		if (old > 0 && old < m.n)
			m.id[old] = next++;
	}
	sqlite3_finalize(st);
	if (sqlite3_create_function(db, "stap_fmap", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, &m,
				    fmap_fn, NULL, NULL) != SQLITE_OK)
		goto out;
	/* Negative first: no id is taken twice on the way. */
	if (sqlite3_exec(db, "UPDATE funcs SET id = -stap_fmap(id); UPDATE funcs SET id = -id;"
			 "UPDATE sites SET func = stap_fmap(func);"
			 "UPDATE stmts SET func = stap_fmap(func)", NULL, NULL, NULL) == SQLITE_OK)
		ret = 0;
	sqlite3_create_function(db, "stap_fmap", 1, SQLITE_UTF8, NULL, NULL, NULL, NULL);
out:
	free(m.id);
	return ret;
}

/*
 * For dwarf_index.c's builder, on a user file's index before its indexes
 * are made: each function symbol with no DWARF function at its address
 * (all of them without DWARF; startup code and libraries' objects built
 * without -g otherwise) is a function with no source position and no
 * variables, probed at its entry, as SystemTap lists them; one at a DWARF
 * function's entry under another name is an alias (add_alias).  Then the
 * functions are numbered in (name, file, line) order again (renumber).
 * 0, or -EIO (sqlite3_errmsg says why).
 */
static int user_symbols(sqlite3 *db, const struct dwi_meta *meta, struct dwi_symrows *rows,
			void *arg)
{
	struct usym u = { .db = db, .rows = rows };
	const struct dwi_sym **order = NULL;
	sqlite3_stmt *st = NULL;
	uint64_t *entries = NULL;
	size_t nentries = 0, cap = 0;
	int ret = -EIO;

	(void)arg;
	if (sqlite3_exec(db, "CREATE UNIQUE INDEX work_files ON files(path);"
			 "CREATE UNIQUE INDEX work_funcs ON funcs(name, file, line);"
			 "CREATE INDEX work_entries ON sites(entry_pc);"
			 "INSERT OR IGNORE INTO files(path) VALUES('')", NULL, NULL, NULL) ||
	    sqlite3_prepare_v2(db, "SELECT id FROM files WHERE path = ''", -1, &st, NULL) ||
	    sqlite3_step(st) != SQLITE_ROW)
		goto out;
	u.nofile = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	/* The DWARF functions' entries, before any symbol adds its own. */
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT entry_pc FROM sites WHERE inlined = 0"
			       " ORDER BY entry_pc", -1, &st, NULL))
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (nentries == cap) {
			cap = cap ? 2 * cap : 64;
			entries = xrealloc(entries, cap * sizeof(*entries));
		}
		entries[nentries++] = (uint64_t)sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT id FROM funcs WHERE name = ? AND file = ? AND line = 0",
			       -1, &u.get_func, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO funcs(name, file, line, vars, nparams, ret)"
			       " VALUES(?, ?, 0, '', 0, '')", -1, &u.ins_func, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO sites VALUES(?1, 0, ?2, ?2, ?3, ?4, ?5, 0)", -1,
			       &u.ins_site, NULL) ||
	    sqlite3_prepare_v2(db, "UPDATE funcs SET n_inlined = n_inlined + ?1,"
			       " n_outofline = n_outofline + 1 - ?1 WHERE id = ?2", -1,
			       &u.upd_count, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO funcs(name, file, line, vars, nparams,"
			       " ret) SELECT ?1, f.file, f.line, f.vars, f.nparams, f.ret FROM funcs f"
			       " JOIN sites s ON s.func = f.id WHERE s.entry_pc = ?2 AND s.inlined = 0"
			       " AND NOT EXISTS (SELECT 1 FROM funcs g JOIN sites t ON t.func = g.id"
			       " WHERE t.entry_pc = ?2 AND g.name = ?1) LIMIT 1", -1,
			       &u.alias_func, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO sites SELECT ?1, 0, s.entry_pc, s.probe_pc, s.cu,"
			       " s.sym, s.sym_offset, s.die FROM sites s WHERE s.entry_pc = ?2"
			       " AND s.inlined = 0 AND s.func != ?1 LIMIT 1", -1, &u.alias_site, NULL))
		goto out;
	/*
	 * Without DWARF every function is a symbol's, made in name order: the
	 * ids come out as the schema wants them, with no renumbering.
	 */
	order = xmalloc((meta->nsyms + 1) * sizeof(*order));
	for (size_t i = 0; i < meta->nsyms; i++)
		order[i] = &meta->syms[i];
	if (!meta->dbg && meta->nsyms)
		qsort(order, meta->nsyms, sizeof(*order), sym_name_cmp);
	for (size_t i = 0; i < meta->nsyms; i++) {
		const struct dwi_sym *y = order[i];
		uint64_t pc = y->addr - meta->bias;

		if (!y->addr)
			continue;
		if (bsearch(&pc, entries, nentries, sizeof(*entries), u64_cmp) ?
		    add_alias(&u, y->name, pc) < 0 : add_symbol_func(&u, y->name, pc) < 0)
			goto out;
	}
	if (sqlite3_exec(db, "DROP INDEX work_files; DROP INDEX work_funcs; DROP INDEX work_entries",
			 NULL, NULL, NULL) == SQLITE_OK)
		ret = meta->dbg ? renumber(db) : 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(u.get_func);
	sqlite3_finalize(u.ins_func);
	sqlite3_finalize(u.ins_site);
	sqlite3_finalize(u.upd_count);
	sqlite3_finalize(u.alias_func);
	sqlite3_finalize(u.alias_site);
	free(order);
	free(entries);
	return ret;
}

/* Index m into m->db_path. */
static int build_index(struct dw_object *m, const char *build_id, char **err)
{
	struct dwi_meta meta = {
		.build_id = build_id, .debuginfo = m->debuginfo, .name = m->name,
		.dbg = m->dbg, .bias = m->bias, .stmts = true, .user = m->kind == DW_USER,
		.post = m->kind == DW_USER ? user_symbols : NULL,
	};
	char *msg = NULL;
	int ret;

	if (!m->syms_tried)
		dwm_read_symbols(m);
	meta.syms = m->syms;
	meta.nsyms = m->nsyms;
	ret = dwi_build_file(m->db_path, &meta, &msg);
	if (ret < 0)
		*err = xasprintf("dwarf: cannot index module %s into %s: %s", m->name, m->db_path,
				 msg ? msg : strerror(-ret));
	free(msg);
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

static void module_free(struct dw_object *m)
{
	if (!m)
		return;
	sqlite3_close(m->db);
	if (m->dwfl)
		dwfl_end(m->dwfl);
	for (int i = 0; i < m->owned.len; i++)
		free(m->owned.items[i]);
	vec_free(&m->owned);
	free(m->syms);
	free(m->build_id);
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
static struct dw_object *open_index(struct dw_object *m, const char *prefix, char *key,
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
	m->build_id = key;
	m->next = dwm_open_list;
	dwm_open_list = m;
	return m;
fail:
	free(dir);
	free(key);
	module_free(m);
	return NULL;
}

struct dw_object *dw_module_open(const char *release, const char *name, const char *path,
				 char **err)
{
	struct dw_object *m;
	char *key;

	*err = NULL;
	for (m = dwm_open_list; m; m = m->next)
		if (m->kind == DW_MODULE && !strcmp(m->release, release) && !strcmp(m->path, path))
			return m;
	elf_version(EV_CURRENT);
	m = xcalloc(1, sizeof(*m));
	m->kind = DW_MODULE;
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

struct dw_object *dw_user_open(const char *path, char **err)
{
	struct dw_object *m;
	const char *base = strrchr(path, '/'), *dbgfile = NULL;
	char *key, *id;
	GElf_Half type = 0;
	Elf *elf;

	*err = NULL;
	for (m = dwm_open_list; m; m = m->next)
		if (m->kind == DW_USER && !strcmp(m->path, path))
			return m;
	elf_version(EV_CURRENT);
	m = xcalloc(1, sizeof(*m));
	m->kind = DW_USER;
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

int dw_file_offset(struct dw_object *m, uint64_t addr, uint64_t *off)
{
	GElf_Addr bias;
	Elf *elf = m->kind == DW_USER ? dwfl_module_getelf(m->mod, &bias) : NULL;

	return elf ? dw_elf_file_offset(elf, addr + m->bias - bias, off) : -EINVAL;
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

#endif /* HAVE_SQLITE3 */

/*
 * The types of C headers: a small program that includes them, built with
 * the host's gcc -g (unused types kept) into the DWARF cache, once per
 * set of headers, and opened as a user file.
 */
struct dw_object *dw_header_open(const char *headers, char **err)
{
	uint64_t h = hash_bytes(HASH_INIT, headers, strlen(headers));
	char *cache = dw_cache_dir(), *dir = xasprintf("%s/headers", cache);
	char *exe = xasprintf("%s/%016llx", dir, (unsigned long long)h);
	struct dw_object *o = NULL;

	if (access(exe, R_OK) != 0) {
		char *src = xasprintf("%s.%d.c", exe, (int)getpid());
		char *tmp = xasprintf("%s.%d", exe, (int)getpid());
		char *argv[] = { "gcc", "-g", "-O0", "-fno-eliminate-unused-debug-types",
				 "-o", tmp, src, NULL };
		struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
		const char *p = headers, *q;
		int rc;

		while (*p == '<' && (q = strchr(p, '>'))) {
			sb_printf(&text, "#include %.*s\n", (int)(q - p + 1), p);
			p = q + 1;
		}
		sb_puts(&text, "int main(void) { return 0; }\n");
		rc = *p || !text.len ? -EINVAL : mkdir_p(dir, 0755);
		if (!rc)
			rc = write_file(src, text.buf, text.len);
		if (!rc)
			rc = run_cmd(argv, NULL, &out, 120);
		if (!rc && rename(tmp, exe) < 0)
			rc = -errno;
		unlink(src);
		unlink(tmp);
		if (rc == -EINVAL)
			*err = xasprintf("'%s' is not a list of headers such as \"<stdio.h>\"",
					 headers);
		else if (rc)
			*err = xasprintf("cannot build a program with %s (gcc -g): %s", headers,
					 out.len ? strtok(out.buf, "\n") :
					 strerror(rc < 0 ? -rc : EIO));
		sb_free(&text);
		sb_free(&out);
		free(src);
		free(tmp);
		if (rc)
			goto out;
	}
	o = dw_user_open(exe, err);
	if (!o && !*err)
		*err = xstrdup("cannot read the headers' DWARF");
out:
	free(exe);
	free(dir);
	free(cache);
	return o;
}
