// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The index database (dw_index.h, dwdb_ prefix): one schema and one
 * reader for every debug object, the kernel's (dwarf.c, built by
 * dwarf_index.c) and modules' and user files' (dwarf_mod.c).  Builders
 * differ in how they walk; what they write and how it is read back is
 * here alone.
 */
#include "config.h"

#ifdef HAVE_SQLITE3
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "../common/util.h"
#include "dw.h"
#include "dw_index.h"

/*
 * Addresses are int64 and in the object's own space (dw.h); file names
 * and symbols are interned.  funcs' ids follow (name, file path, line):
 * listings read them in id order without sorting.  The statement table
 * is filled for modules and user files (.statement); the kernel's
 * statements come from its line tables (probes/dwarf_stmt.c).
 */
const char *const dwdb_schema =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL);"
	/* section: of a relocatable object (modules: probes name it), else NULL */
	"CREATE TABLE symbols(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
	" addr INTEGER NOT NULL, section TEXT);"
	/* one row per (name, decl file, decl line) */
	"CREATE TABLE funcs(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
	" file INTEGER NOT NULL, line INTEGER NOT NULL,"
	" n_outofline INTEGER NOT NULL DEFAULT 0, n_inlined INTEGER NOT NULL DEFAULT 0,"
	" vars TEXT NOT NULL, ret TEXT NOT NULL, nparams INTEGER NOT NULL);"
	/* one row per out-of-line or inlined copy */
	"CREATE TABLE sites(func INTEGER NOT NULL, inlined INTEGER NOT NULL,"
	" entry_pc INTEGER NOT NULL, probe_pc INTEGER NOT NULL,"
	" cu INTEGER NOT NULL, sym INTEGER, sym_offset INTEGER, die INTEGER NOT NULL);"
	/* the lowest statement address of each line of an out-of-line copy */
	"CREATE TABLE stmts(func INTEGER NOT NULL, file INTEGER NOT NULL,"
	" line INTEGER NOT NULL, pc INTEGER NOT NULL, sym INTEGER, sym_offset INTEGER,"
	" die INTEGER NOT NULL, entry_pc INTEGER NOT NULL);";

const char *const dwdb_indexes =
	"CREATE INDEX funcs_by_name ON funcs(name);"
	"CREATE INDEX funcs_by_file ON funcs(file);"
	"CREATE INDEX sites_by_func ON sites(func);"
	"CREATE INDEX stmts_by_func ON stmts(func);";

char *dwdb_meta(sqlite3 *db, const char *key)
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

sqlite3 *dwdb_open(const char *path)
{
	sqlite3 *db = NULL;
	char *v;

	if (access(path, R_OK) < 0)
		return NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	v = dwdb_meta(db, "schema_version");
	if (!v || atoi(v) != DW_SCHEMA_VERSION) {
		free(v);
		sqlite3_close(db);
		return NULL;
	}
	free(v);
	return db;
}

/* ---- queries ---- */

/* ?1 name, ?2 file, ?3-?4 lines; F is the files row and L the line that count. */
#define DWDB_WHERE(F, L) \
	" WHERE f.name GLOB ?1" \
	" AND (?2 IS NULL OR " F ".path GLOB ?2 OR " F ".path GLOB '*/' || ?2)" \
	" AND (?3 = 0 OR " L " BETWEEN ?3 AND ?4)"

/* sql prepared on db with the pattern bound; 0 or -EIO (reported). */
static int prepare(sqlite3 *db, const char *db_path, const char *sql,
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

/* A text column, "" for NULL. */
static const char *col_text(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

typedef int (*row_fn)(sqlite3_stmt *st, void *fn, void *arg);

/*
 * Prepare sql, step it to its end calling row(st, fn, arg) on each row,
 * finalize it.  The number of rows, a row's non-zero return, or -EIO.
 */
static int run(sqlite3 *db, const char *db_path, const char *sql, const struct dw_pattern *p,
	       row_fn row, void *fn, void *arg)
{
	sqlite3_stmt *st;
	int ret = prepare(db, db_path, sql, p, &st), n = 0, rc;

	if (ret < 0)
		return ret;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n++;
		ret = row(st, fn, arg);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE) {
		util_err("dwarf: %s: %s", db_path, sqlite3_errmsg(db));
		ret = -EIO;
	}
	sqlite3_finalize(st);
	return ret ? ret : n;
}

static int func_row(sqlite3_stmt *st, void *fn, void *arg)
{
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
	return ((dw_func_fn)fn)(&f, arg);
}

#define DWDB_FUNCS \
	"SELECT f.name, fl.path, f.line, f.n_outofline, f.n_inlined, f.vars, f.ret," \
	" f.nparams FROM funcs f JOIN files fl ON fl.id = f.file" DWDB_WHERE("fl", "f.line")

int dwdb_funcs(sqlite3 *db, const char *db_path, const struct dw_pattern *p, dw_func_fn fn,
	       void *arg)
{
	return run(db, db_path, DWDB_FUNCS " ORDER BY f.id", p, func_row, (void *)fn, arg);
}

static int site_row(sqlite3_stmt *st, void *fn, void *arg)
{
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
		.section = (const char *)sqlite3_column_text(st, 12),
	};

	return ((dw_site_fn)fn)(&s, arg);
}

#define DWDB_SITES \
	"SELECT f.name, fl.path, f.line, cu.path, s.inlined, f.n_outofline," \
	" s.entry_pc, s.probe_pc, sy.name, s.sym_offset, f.vars, s.die, sy.section" \
	" FROM funcs f JOIN files fl ON fl.id = f.file" \
	" JOIN sites s ON s.func = f.id JOIN files cu ON cu.id = s.cu" \
	" LEFT JOIN symbols sy ON sy.id = s.sym" DWDB_WHERE("fl", "f.line")

int dwdb_sites(sqlite3 *db, const char *db_path, const struct dw_pattern *p, dw_site_fn fn,
	       void *arg)
{
	return run(db, db_path, DWDB_SITES " ORDER BY f.id, s.probe_pc", p, site_row, (void *)fn,
		   arg);
}

static int stmt_row(sqlite3_stmt *st, void *fn, void *arg)
{
	struct dw_stmt s = {
		.func = col_text(st, 0),
		.decl_file = col_text(st, 1),
		.decl_line = sqlite3_column_int(st, 2),
		.file = col_text(st, 3),
		.line = sqlite3_column_int(st, 4),
		.pc = (uint64_t)sqlite3_column_int64(st, 5),
		.symbol = (const char *)sqlite3_column_text(st, 6),
		.sym_offset = (uint64_t)sqlite3_column_int64(st, 7),
		.section = (const char *)sqlite3_column_text(st, 8),
		.die_off = (uint64_t)sqlite3_column_int64(st, 9),
		.entry_pc = (uint64_t)sqlite3_column_int64(st, 10),
	};

	return ((dw_stmt_fn)fn)(&s, arg);
}

/*
 * A function's statements are the lines of its own file, as SystemTap
 * 4.8 reads FUNC@FILE:LINE: a header's lines inlined into it (atoi's in
 * main) are not main's.
 */
int dwdb_stmts(sqlite3 *db, const char *db_path, const struct dw_pattern *p, dw_stmt_fn fn,
	       void *arg)
{
	return run(db, db_path,
		   "SELECT f.name, fl.path, f.line, tf.path, t.line, t.pc, sy.name,"
		   " t.sym_offset, sy.section, t.die, t.entry_pc"
		   " FROM funcs f JOIN files fl ON fl.id = f.file"
		   " JOIN stmts t ON t.func = f.id JOIN files tf ON tf.id = t.file"
		   " LEFT JOIN symbols sy ON sy.id = t.sym" DWDB_WHERE("tf", "t.line")
		   " AND t.file = f.file"
		   " ORDER BY f.name, tf.path, t.line, t.pc", p, stmt_row, (void *)fn, arg);
}
#endif /* HAVE_SQLITE3 */
