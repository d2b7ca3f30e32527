// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space probes (stapprobes(3stap), USER-SPACE section):
 *
 *   process("PATH").function("PATTERN")[.call|.inline|.return|.exported]
 *   process("PATH").function("PATTERN").label("LPATTERN")
 *   process("PATH").statement("FUNC@FILE:LINE")[.nearest], .statement(ADDRESS)
 *   process("PATH").mark("NAME"), process("PATH").provider("P").mark("NAME")
 *   process("PATH").plt("NAME")[.return], .plt alone for .plt("*")
 *   process("PATH").library("LIB").function(...), .statement, .mark, .plt
 *
 * PATH is an executable or shared library: absolute, relative, or a bare
 * name looked up in $PATH.  process(PID) probes the executable of PID
 * and only that process (PID must run where the script is translated,
 * or be the --vm-spawn process of a VM run; the runtime checks it again
 * at start); process alone names the -c command's executable.  dw_user_open (dw.h) indexes the file's DWARF, or its
 * symbol table when it has none (functions then have no file, line or
 * variables, and are probed at their entry).  SDT markers come from its
 * .note.stapsdt (sdt.c).
 *
 * Each match is one probe, registered as a uprobe on (PATH, file offset)
 * by runtime/uprobe.c: every process mapping the file is probed, from
 * the start of the script on, including ones started later.  Handlers
 * see user registers; target variables read user memory (the family is
 * user_space: tvar.c emits the user-memory readers).
 *
 * .plt probes the PLT entries of PATH (plt.c) and gives $$name, the
 * function called.  .library(LIB) probes LIB (a path, or a pattern for
 * the libraries PATH needs as ldd lists them) in the processes running
 * PATH, or with -c/-x in the target's tree (runtime/uprobe.c, wanted()).
 *
 * Not yet: globals in .return probes.  process.begin/.end/... are
 * utask.c's.
 */
#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probes.h"
#include "../dw.h"
#include "../emit.h"
#include "../plt.h"
#include "../sdt.h"
#include "../vm.h"
#include "../tvar.h"

#define UP_MAX_PROBES	20000

enum up_kind {
	UP_ANY, UP_CALL, UP_INLINE, UP_RETURN,
	UP_EXPORTED,		/* .exported: out-of-line, not static */
	UP_LABEL,		/* .label("LPATTERN") */
	UP_STATEMENT, UP_MARK,
	UP_PLT, UP_PLT_RETURN,	/* .plt("NAME"), .plt("NAME").return */
	UP_ADDR,		/* .statement(ADDRESS): a link-time address */
	UP_CALLEE,		/* .callee("PATTERN")[.call], .callees[(N)] */
};

static const char *const up_suffix[] = {
	[UP_ANY] = "", [UP_CALL] = ".call", [UP_INLINE] = ".inline",
	[UP_RETURN] = ".return", [UP_EXPORTED] = ".exported", [UP_LABEL] = ".label",
	[UP_STATEMENT] = "",
	[UP_MARK] = "",
	[UP_PLT] = "", [UP_PLT_RETURN] = ".return", [UP_ADDR] = "", [UP_CALLEE] = "",
};

static bool up_is_return(enum up_kind k)
{
	return k == UP_RETURN || k == UP_PLT_RETURN;
}

/* What resolve() leaves in the point's family_data. */
struct up_point {
	const char *path;	/* the file, absolute (the first if a glob) */
	struct vec paths;	/* every file (a glob: several), const char * */
	int pid;		/* process(PID): only that process; 0: any */
	const char *exe;	/* .library(...): only processes running exe */
	const char *pattern;	/* function, statement, marker or PLT pattern */
	uint64_t addr;		/* UP_ADDR */
	const char *provider;	/* .provider("P"): a glob; NULL: any */
	const char *label;	/* .label("LPATTERN") */
	const struct srcloc *ploc, *loc;
	enum up_kind kind;
	bool nearest;		/* .statement(...).nearest */
	bool fn_addr;		/* .function(ADDRESS): addr, a link-time address */
	/* .callee("PATTERN") ("*": .callees), to depth; .call or .return after it */
	const char *callee;
	int depth;
	enum pf_callee_suffix callee_suffix;
};

/* One marker argument, decoded. */
struct up_probe {
	struct dw_object *mod;
	enum up_kind kind;
	bool optional, several;
	uint64_t offset, vaddr, sem_offset;
	int pid;
	const char *path;
	const char *exe;	/* .library(...): the process's program */
	const char *func;	/* probefunc(): the symbol holding the address */
	/* DWARF context (functions and statements) */
	bool has_die;
	uint64_t die_off, pc, entry_pc;
	/* markers; a PLT entry's $$name is mark_name */
	const char *mark_name, *mark_provider;
	int nargs;
	struct sdt_arg *args;
};

/* ---- resolving ---- */

/*
 * name as an absolute path if it is a readable file; else NULL.  Links
 * stay as written: the machine that runs the probes (a VM holding the
 * files at the paths ldd gave) may not have the link's target path.
 */
char *pf_user_path(const char *name)
{
	char buf[PATH_MAX];
	const char *path;

	if (name[0] == '/')
		return access(name, R_OK) == 0 ? xstrdup(name) : NULL;
	if (strchr(name, '/')) {
		if (access(name, R_OK) || !getcwd(buf, sizeof(buf)))
			return NULL;
		return xasprintf("%s/%s", buf, name + 2 * !strncmp(name, "./", 2));
	}
	path = getenv("PATH");
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		char *cand = xasprintf("%.*s/%s", (int)n, n ? p : ".", name);

		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
		p += n + (p[n] == ':');
	}
	return NULL;
}

/* The program of command line cmd (-c, --vm-spawn), malloc'd; or NULL. */
static char *cmd_program(const char *cmd)
{
	size_t skip = strspn(cmd, " \t");
	char *first = xstrndup(cmd + skip, strcspn(cmd + skip, " \t"));
	char *path = pf_user_path(first);

	free(first);
	return path;
}

/*
 * process(PID): PID's program, malloc'd, or NULL after an error at arg.
 * The --vm-spawn PID runs that command's program (in the VM, where the
 * translator cannot look); any other PID must be a process on this
 * machine, as SystemTap requires ("cannot probe pid N").
 */
char *pf_pid_program(struct session *s, const struct node *arg)
{
	char buf[PATH_MAX], *link;
	ssize_t n;

	if (arg->num <= 0 || arg->num > 0x3fffffff) {
		diag_error(s, &arg->loc, "cannot probe pid %" PRId64 ": not a process id",
			   arg->num);
		return NULL;
	}
	if (arg->num == s->vm_spawn_pid) {
		char *path = cmd_program(s->vm_spawn_cmd);

		if (!path)
			diag_error(s, &arg->loc, "cannot find the program of --vm-spawn's '%s'",
				   s->vm_spawn_cmd);
		return path;
	}
	link = xasprintf("/proc/%" PRId64 "/exe", arg->num);
	n = readlink(link, buf, sizeof(buf) - 1);
	free(link);
	if (n > 0) {
		buf[n] = '\0';
		return xstrdup(buf);
	}
	diag_error(s, &arg->loc, "cannot probe pid %" PRId64 ": no such process on this machine",
		   arg->num);
	diag_hint(s, "the process must be running when the script is translated; for a "
		  "VM run, --vm-spawn=%" PRId64 ":CMD starts CMD there as that process",
		  arg->num);
	return NULL;
}

/* The file process(...) names: up->path, up->pid; 0 or -1. */
/* 0, or -1 after an error; 1: an optional point's program is not here. */
static int resolve_file(struct session *s, const struct pp_comp *c, struct up_point *up,
			bool optional)
{
	char *path = NULL;

	up->ploc = c->arg ? &c->arg->loc : &c->loc;
	if (!c->arg) {
		if (!s->target_cmd) {
			diag_error(s, &c->loc, "process needs a path or a pid without -c: "
				   "process(\"PATH\")");
			diag_hint(s, "give the program with -c CMD, or name it: "
				  "process(\"/usr/bin/ls\").function(\"main\")");
			return -1;
		}
		path = cmd_program(s->target_cmd);
		if (!path)
			diag_error(s, &c->loc, "cannot find the -c command's program '%s'",
				   s->target_cmd);
	} else if (c->arg->kind == ND_NUM) {
		path = pf_pid_program(s, c->arg);
		up->pid = (int)c->arg->num;
	} else {
		const char *name = pf_string_arg(s, c, "process(\"PATH\")");

		if (!name)
			return -1;
		path = pf_user_path(name);
		if (!path && optional)
			return 1;
		if (!path) {
			diag_error(s, up->ploc, "cannot find '%s'%s", name,
				   strchr(name, '/') ? "" : " in $PATH");
			if (strchr(name, '/'))
				diag_hint(s, "no such file: process(\"PATH\") probes need the "
					  "program where the script is translated");
			else
				diag_hint(s, "give the program's path: process(\"/usr/bin/%s\")",
					  name);
		}
	}
	if (!path)
		return -1;
	up->path = arena_strdup(&s->arena, path);
	vec_push(&up->paths, (void *)up->path);
	free(path);
	return 0;
}

/* A process path with * ? [...]: every file the glob matches. */
/* 0, or -1 after an error; 1: no file matches an optional point's glob. */
static int resolve_glob(struct session *s, const struct pp_comp *c, struct up_point *up,
			bool optional)
{
	struct vec inodes = VEC_INIT;	/* uint64_t[2]: st_dev, st_ino */
	glob_t g;
	int rc;

	up->ploc = &c->arg->loc;
	rc = glob(c->arg->str, 0, NULL, &g);
	for (size_t i = 0; rc == 0 && i < g.gl_pathc; i++) {
		char *path = pf_user_path(g.gl_pathv[i]);
		struct stat st;
		bool seen = false;

		/* Each file once, however many links name it (libc.so.6 -> ...). */
		if (!path || stat(path, &st) || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		for (int j = 0; !seen && j < inodes.len; j++)
			seen = ((uint64_t *)inodes.items[j])[0] == st.st_dev &&
			       ((uint64_t *)inodes.items[j])[1] == st.st_ino;
		if (!seen) {
			uint64_t *id = arena_alloc(&s->arena, 2 * sizeof(*id));

			id[0] = st.st_dev;
			id[1] = st.st_ino;
			vec_push(&inodes, id);
			vec_push(&up->paths, arena_strdup(&s->arena, path));
		}
		free(path);
	}
	vec_free(&inodes);
	if (rc == 0)
		globfree(&g);
	if (!up->paths.len) {
		if (optional)
			return 1;
		diag_error(s, up->ploc, "no file matches '%s'", c->arg->str);
		return -1;
	}
	up->path = up->paths.items[0];
	return 0;
}

static int resolve_suffix(struct session *s, const struct pp_comp *c, struct up_point *up)
{
	static const char *const valid[] = { "call", "inline", "return", "exported", "label",
					     "callee", "callees" };

	if (!c)
		return 0;
	if (!strcmp(c->name, "callee") || !strcmp(c->name, "callees")) {
		up->kind = UP_CALLEE;
		return pf_resolve_callee(s, c, &up->callee, &up->depth, &up->callee_suffix);
	}
	for (int i = UP_CALL; i <= UP_LABEL; i++)
		if (!strcmp(c->name, up_suffix[i] + 1))
			up->kind = (enum up_kind)i;
	if (up->kind == UP_ANY)
		return pf_unexpected(s, c, "process(...).function(...)", valid, 7);
	if (up->kind == UP_LABEL) {
		up->label = pf_string_arg(s, c, ".label(\"LPATTERN\")");
		if (!up->label)
			return -1;
	} else if (c->arg) {
		diag_error(s, &c->arg->loc, ".%s takes no argument", c->name);
		return -1;
	}
	return c->next ? pf_unexpected(s, c->next, up_suffix[up->kind], NULL, 0) : 0;
}

/* A name or glob that does not name a directory: the basename's pattern. */
static bool lib_matches(const char *pattern, const char *path)
{
	const char *base = strrchr(path, '/');

	return !fnmatch(pattern, base ? base + 1 : path, 0);
}

/*
 * The libraries LIB names for program exe (see resolve_library), pushed
 * on out (malloc'd); the libraries exe needs, as ldd lists them, on
 * needed when LIB is no path.  ldd's own failure is reported.
 */
static void lib_paths(const char *exe, const char *lib, struct vec *out, struct vec *needed)
{
	if (strchr(lib, '/')) {
		glob_t g;

		if (!strpbrk(lib, "*?[")) {
			if (access(lib, R_OK) == 0)
				vec_push(out, xstrdup(lib));
		} else if (glob(lib, 0, NULL, &g) == 0) {
			for (size_t i = 0; i < g.gl_pathc; i++)
				vec_push(out, xstrdup(g.gl_pathv[i]));
			globfree(&g);
		}
	} else if (vm_ldd(exe, needed) == 0) {
		for (int i = 0; i < needed->len; i++)
			if (lib_matches(lib, needed->items[i]))
				vec_push(out, xstrdup(needed->items[i]));
	}
}

static void free_strings(struct vec *v)
{
	for (int i = 0; i < v->len; i++)
		free(v->items[i]);
	vec_free(v);
}

/*
 * .library("LIB") after process("PATH"): up->paths become the libraries
 * LIB names and up->exe PATH, whose processes alone are probed.  LIB is
 * a path (a glob: every match), or a pattern for the basenames of the
 * libraries PATH needs (as ldd lists them).  0, or -1 after an error.
 */
static int resolve_library(struct session *s, const struct pp_comp *c, struct up_point *up)
{
	const char *lib = pf_string_arg(s, c, "library(\"libNAME.so\")");
	struct vec libs = VEC_INIT, found = VEC_INIT;
	bool isglob;
	int ret = 0;

	if (!lib)
		return -1;
	isglob = strpbrk(lib, "*?[") != NULL;
	if (up->paths.len != 1) {
		diag_error(s, &c->loc, ".library(...) needs one program, not a glob's %d",
			   up->paths.len);
		return -1;
	}
	up->exe = up->path;
	up->paths.len = 0;
	lib_paths(up->exe, lib, &found, &libs);
	for (int i = 0; i < found.len; i++)
		vec_push(&up->paths, arena_strdup(&s->arena, found.items[i]));
	free_strings(&found);
	if (!up->paths.len && strchr(lib, '/')) {
		diag_error(s, &c->arg->loc, "cannot find %s '%s'", isglob ? "a library matching" :
			   "the library", lib);
		ret = -1;
	} else if (!up->paths.len) {
		diag_error(s, &c->arg->loc, "no library of %s matches '%s'", up->exe, lib);
		if (libs.len) {
			struct strbuf sb = STRBUF_INIT;

			for (int i = 0; i < libs.len; i++) {
				const char *b = strrchr(libs.items[i], '/');

				sb_printf(&sb, "%s%s", i ? ", " : "", b ? b + 1 : (char *)libs.items[i]);
			}
			diag_hint(s, "it needs %s; or give a library's path", sb.buf);
			sb_free(&sb);
		} else {
			diag_hint(s, "%s needs no shared library; give a library's path", up->exe);
		}
		ret = -1;
	} else {
		up->path = up->paths.items[0];
	}
	free_strings(&libs);
	return ret;
}

/* .plt("NAME")[.return], .plt alone being .plt("*"): 0, or -1 after an error. */
static int resolve_plt(struct session *s, const struct pp_comp *f, struct up_point *up)
{
	static const char *const valid[] = { "return" };
	const struct pp_comp *r = f->next;

	up->kind = UP_PLT;
	up->pattern = f->arg ? pf_string_arg(s, f, "plt(\"NAME\")") : "*";
	if (!up->pattern)
		return -1;
	if (r && !strcmp(r->name, "return") && !r->arg) {
		up->kind = UP_PLT_RETURN;
		r = r->next;
	}
	return r ? pf_unexpected(s, r, "process(...).plt(...)", valid, 1) : 0;
}

/*
 * .statement(ADDRESS): the instruction at that link-time address of the
 * file (what a marker's pp() names).  .absolute (a run-time address in
 * process PID) is refused, as SystemTap 4.8 refuses it with uprobes.
 */
static int resolve_addr(struct session *s, const struct pp_comp *f, struct up_point *up,
			struct resolved_probe *rp, struct probe_point *pt)
{
	if (f->next && !strcmp(f->next->name, "absolute")) {
		diag_error(s, &f->next->loc, "absolute process probes are not available");
		diag_hint(s, "SystemTap 4.8 refuses them too; process(\"PATH\").statement(ADDRESS) "
			  "takes a link-time address of PATH");
		return -1;
	}
	if (f->next && !strcmp(f->next->name, "nearest") && !f->next->arg) {
		up->nearest = true;
		if (f->next->next)
			return pf_unexpected(s, f->next->next, ".nearest", NULL, 0);
	} else if (f->next) {
		return pf_unexpected(s, f->next, "process(...).statement(ADDRESS)", NULL, 0);
	}
	up->kind = UP_ADDR;
	up->addr = (uint64_t)f->arg->num;
	up->pattern = arena_printf(&s->arena, "0x%" PRIx64, up->addr);
	up->loc = &f->arg->loc;
	rp->pp = pf_point_text(s, pt);
	rp->family_data = up;
	return 1;
}

static int resolve_process(struct session *s, struct probe_point *pt,
			   struct resolved_probe *rp)
{
	static const char *const forms[] = {
		"function", "statement", "mark", "provider", "plt", "library"
	};
	struct pp_comp *p = pt->comps, *f = p->next;
	struct up_point *up;
	struct dw_pattern pat;
	char *err = NULL;
	bool known = false;
	int r;

	if (strcmp(p->name, "process") || !f)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++)
		known |= !strcmp(f->name, forms[i]);
	if (!known)
		return 0;	/* another family's (process.begin, ...) */
	up = arena_alloc(&s->arena, sizeof(*up));
	r = p->arg && p->arg->kind == ND_STR && strpbrk(p->arg->str, "*?[") ?
	    resolve_glob(s, p, up, pt->optional) : resolve_file(s, p, up, pt->optional);
	if (!r && !strcmp(f->name, "library")) {
		r = resolve_library(s, f, up);
		f = f->next;
		known = false;
		for (size_t i = 0; f && i < ARRAY_SIZE(forms) - 1; i++)
			known |= !strcmp(f->name, forms[i]);
		if (!r && !known) {
			if (f)
				r = pf_unexpected(s, f, "process(...).library(...)", forms, 5);
			else
				diag_error(s, &pt->comps->next->loc, "library(...) needs a probe: "
					   ".function(\"NAME\"), .statement(...), .mark(...) or .plt");
			r = -1;
		}
	}
	if (r) {
		free(up->paths.items);
		return r > 0 ? 0 : -1;	/* "?": no such program, no probe */
	}
	/* up lives in the arena, which frees no vec: move the paths there. */
	if (up->paths.len) {
		void **items = arena_alloc(&s->arena, up->paths.len * sizeof(*items));

		memcpy(items, up->paths.items, up->paths.len * sizeof(*items));
		free(up->paths.items);
		up->paths.items = items;
		up->paths.cap = up->paths.len;	/* read only from now on */
	}
	if (!strcmp(f->name, "provider")) {
		up->provider = pf_string_arg(s, f, "provider(\"NAME\").mark(\"NAME\")");
		if (!up->provider)
			return -1;
		f = f->next;
		if (!f || strcmp(f->name, "mark")) {
			if (f)
				return pf_unexpected(s, f, "process(...).provider(...)", forms + 2, 1);
			diag_error(s, &pt->comps->next->loc, "provider(...) needs a marker: "
				   ".provider(\"P\").mark(\"NAME\")");
			return -1;
		}
	}
	if (!strcmp(f->name, "plt")) {
		if (resolve_plt(s, f, up) < 0)
			return -1;
	} else if (!strcmp(f->name, "mark")) {
		up->kind = UP_MARK;
		up->pattern = pf_string_arg(s, f, "mark(\"NAME\")");
		if (!up->pattern)
			return -1;
		if (f->next)
			return pf_unexpected(s, f->next, "process(...).mark(...)", NULL, 0);
	} else if (!strcmp(f->name, "statement")) {
		up->kind = UP_STATEMENT;
		if (f->arg && f->arg->kind == ND_NUM)
			return resolve_addr(s, f, up, rp, pt);
		up->pattern = pf_string_arg(s, f, "statement(\"FUNC@FILE:LINE\")");
		if (!up->pattern)
			return -1;
		if (f->next && !strcmp(f->next->name, "nearest") && !f->next->arg) {
			up->nearest = true;
			if (f->next->next)
				return pf_unexpected(s, f->next->next, ".nearest", NULL, 0);
		} else if (f->next) {
			return pf_unexpected(s, f->next, "process(...).statement(...)", NULL, 0);
		}
		if (!strchr(up->pattern, ':')) {
			diag_error(s, &f->arg->loc, "statement needs a line: "
				   "\"FUNC@FILE:LINE\", LINE a number, N-M or *");
			return -1;
		}
	} else if (f->arg && f->arg->kind == ND_NUM) {
		/* function(ADDRESS): the function holding it (walk_file). */
		up->fn_addr = true;
		up->addr = (uint64_t)f->arg->num;
		up->pattern = arena_printf(&s->arena, "0x%" PRIx64, up->addr);
		if (resolve_suffix(s, f->next, up))
			return -1;
		if (up->kind == UP_INLINE || up->kind == UP_LABEL || up->kind == UP_CALLEE) {
			diag_error(s, &f->next->loc, "function(ADDRESS) has no .%s: it names one "
				   "out-of-line function", f->next->name);
			return -1;
		}
	} else {
		up->pattern = pf_string_arg(s, f, "function(\"NAME[@FILE[:LINE]]\") or "
					    "function(ADDRESS)");
		if (!up->pattern || resolve_suffix(s, f->next, up))
			return -1;
	}
	up->loc = f->arg ? &f->arg->loc : &f->loc;
	if (up->kind != UP_MARK && up->kind != UP_PLT && up->kind != UP_PLT_RETURN) {
		if (dw_parse_pattern(up->pattern, &pat, &err) < 0) {
			diag_error(s, up->loc, "%s", err);
			free(err);
			return -1;
		}
		dw_pattern_free(&pat);
	}
	rp->pp = pf_point_text(s, pt);
	rp->family_data = up;
	return 1;
}

/* ---- expanding ---- */

struct up_walk {
	struct session *s;
	const struct up_point *up;
	struct resolved_probe *rp;
	const char *path;	/* the file being walked */
	struct dw_object *mod;
	Elf *elf;
	struct vec *out;
	int nskipped_inline, nbad;
	int label_funcs;	/* .label: copies whose labels were looked at */
	int callers;		/* .callee: caller copies walked */
	uint64_t at_die;	/* function(ADDRESS): the one out-of-line copy, else 0 */
	int near_want;		/* .statement(...).nearest: the line asked for */
	char *bad_err;
	/* file offsets probed so far (open addressing, 0: empty, offset + 1) */
	uint64_t *seen;
	size_t nseen, cap;
};

/* Whether offset was probed already in this walk (one uprobe per address:
 * a symbol's aliases, malloc and __libc_malloc, are one function). */
static bool seen_offset(struct up_walk *w, uint64_t off)
{
	size_t i;

	if (2 * (w->nseen + 1) > w->cap) {
		uint64_t *old = w->seen;
		size_t ocap = w->cap;

		w->cap = w->cap ? 2 * w->cap : 256;
		w->seen = xcalloc(w->cap, sizeof(*w->seen));
		w->nseen = 0;
		for (size_t j = 0; j < ocap; j++)
			if (old[j])
				seen_offset(w, old[j] - 1);
		free(old);
	}
	for (i = (off * 0x9e3779b97f4a7c15ULL) >> 40 & (w->cap - 1); w->seen[i];
	     i = (i + 1) & (w->cap - 1))
		if (w->seen[i] == off + 1)
			return true;
	w->seen[i] = off + 1;
	w->nseen++;
	return false;
}

static struct up_probe *new_probe(struct up_walk *w, const char *pp)
{
	struct up_probe *p = arena_alloc(&w->s->arena, sizeof(*p));
	struct resolved_probe *x = arena_alloc(&w->s->arena, sizeof(*x));

	p->mod = w->mod;
	p->kind = w->up->kind;
	p->func = "";
	p->optional = w->rp->point->optional;
	p->pid = w->up->pid;
	p->exe = w->up->exe;
	p->path = w->path;
	x->pp = pp;
	x->family_data = p;
	vec_push(w->out, x);
	return p;
}

/*
 * A probe named pp at pc in the copy of site: NULL if pc has no file
 * offset or already a probe, or if the limit is reached (then *stop).
 */
static struct up_probe *site_probe(struct up_walk *w, const struct dw_site *site,
				   uint64_t pc, const char *pp, int *stop)
{
	struct up_probe *p;
	uint64_t off;

	if (w->out->len >= UP_MAX_PROBES) {
		*stop = 1;
		return NULL;
	}
	if (dw_file_offset(w->mod, pc, &off) < 0) {
		w->nbad++;
		return NULL;
	}
	/* A callee called from elsewhere is another probe. */
	if (w->up->kind != UP_CALLEE && seen_offset(w, off))
		return NULL;
	p = new_probe(w, pp);
	/* The index's symbol for the probe pc (a .return's entry is in it too). */
	if (site->symbol)
		p->func = arena_strdup(&w->s->arena, site->symbol);
	p->offset = off;
	p->vaddr = pc;
	p->has_die = site->die_off != 0;
	p->die_off = site->die_off;
	p->pc = pc;
	p->entry_pc = site->entry_pc;
	/* stap -L of a point only a script resolves (list.c) */
	if (site->vars && !up_is_return(w->up->kind))
		((struct resolved_probe *)w->out->items[w->out->len - 1])->list_vars =
			arena_strdup(&w->s->arena, site->vars);
	return p;
}

/* .label: one copy's labels (pf_each_label), each a probe at the label's address. */
struct up_labels {
	struct up_walk *w;
	const struct dw_site *site;
};

static int add_label(const char *name, uint64_t pc, int line, void *arg)
{
	struct up_labels *L = arg;
	struct up_walk *w = L->w;
	const struct dw_site *site = L->site;
	int stop = 0;
	/* As SystemTap's pp(): a function's, by the label's line, without .label. */
	const char *pp = arena_printf(&w->s->arena, "process(\"%s\").function(\"%s@%s:%d\")",
				      w->path, site->name, site->file, line ? line : site->line);

	if (site_probe(w, site, pc, pp, &stop))
		((struct resolved_probe *)w->out->items[w->out->len - 1])->label =
			arena_strdup(&w->s->arena, name);
	return stop;
}

static int add_site(const struct dw_site *site, void *arg)
{
	struct up_walk *w = arg;
	enum up_kind kind = w->up->kind;
	uint64_t pc = kind == UP_RETURN ? site->entry_pc : site->probe_pc;
	const char *pp;
	int stop = 0;

	if (w->at_die && (site->inlined || site->die_off != w->at_die))
		return 0;
	if ((kind == UP_CALL && site->inlined) || (kind == UP_INLINE && !site->inlined))
		return 0;
	if (kind == UP_RETURN && site->inlined) {
		w->nskipped_inline++;
		return 0;
	}
	/*
	 * .exported: out-of-line copies of functions that are not static; a
	 * function known from the symbol table alone (no DIE) counts as visible.
	 */
	if (kind == UP_EXPORTED && (site->inlined ||
				    (site->die_off && !pf_die_external(dw_dwarf(w->mod), site->die_off))))
		return 0;
	if (kind == UP_LABEL) {
		struct up_labels L = { w, site };
		Dwarf_Die die;

		/* Labels are DWARF's: a function known from its symbol alone has none. */
		if (!site->die_off || !dwarf_offdie(dw_dwarf(w->mod), site->die_off, &die))
			return 0;
		w->label_funcs++;
		return pf_each_label(&die, w->up->label, add_label, &L);
	}
	/* SystemTap names an address's probe by the address. */
	if (w->at_die)
		pp = arena_printf(&w->s->arena, "process(\"%s\").function(%s)%s", w->path,
				  w->up->pattern, up_suffix[kind]);
	else if (*site->file)
		pp = arena_printf(&w->s->arena, "process(\"%s\").function(\"%s@%s:%d\")%s",
				  w->path, site->name, site->file, site->line,
				  up_suffix[kind]);
	else
		pp = arena_printf(&w->s->arena, "process(\"%s\").function(\"%s\")%s",
				  w->path, site->name, up_suffix[kind]);
	if (site_probe(w, site, pc, pp, &stop) && w->at_die)
		((struct resolved_probe *)w->out->items[w->out->len - 1])->list_pp =
			arena_printf(&w->s->arena, "process(\"%s\").function(0x%" PRIx64 ")%s",
				     w->path, site->entry_pc, up_suffix[kind]);
	return stop;
}

/* .callee: copy t of a function caller calls, through chain (outermost first). */
static int add_callee(const struct dw_site *caller, const struct dw_site *t,
		      const uint64_t *chain, int nchain, void *arg)
{
	struct up_walk *w = arg;
	enum pf_callee_suffix suffix = w->up->callee_suffix;
	const char *call = suffix == PF_CALLEE_CALL ? ".call" :
			   suffix == PF_CALLEE_RETURN ? ".return" : "";
	struct up_probe *p;
	struct resolved_probe *x;
	uint64_t *ra;
	int stop = 0;

	/* An inlined copy is not called, and has no return to probe. */
	if (suffix != PF_CALLEE_ANY && t->inlined) {
		w->nskipped_inline += suffix == PF_CALLEE_RETURN;
		return 0;
	}
	ra = arena_alloc(&w->s->arena, sizeof(*ra) * (size_t)(nchain ? nchain : 1));
	/* The runtime meets return addresses as file offsets, innermost first. */
	for (int i = 0; i < nchain; i++)
		if (dw_file_offset(w->mod, chain[nchain - 1 - i], &ra[i]) < 0) {
			w->nbad++;
			return 0;
		}
	p = site_probe(w, t, suffix == PF_CALLEE_RETURN ? t->entry_pc : t->probe_pc,
		       arena_printf(&w->s->arena, "process(\"%s\").function(\"%s@%s:%d\")%s",
				    w->path, t->name, t->file, t->line, call), &stop);
	if (!p)
		return stop;
	if (suffix == PF_CALLEE_RETURN)
		p->kind = UP_RETURN;
	x = w->out->items[w->out->len - 1];
	x->pn = x->list_pp = arena_printf(&w->s->arena, "process(\"%s\").function(\"%s@%s:%d\")"
				  ".callee(\"%s@%s:%d\")%s", w->path, caller->name, caller->file,
				  caller->line, t->name, t->file, t->line, call);
	x->callers = ra;
	x->ncallers = nchain;
	x->callers_user = true;
	if (suffix == PF_CALLEE_RETURN)
		pf_callee_entry_slot(x);
	/* The stack is unwound with the file's tables (usyms.c). */
	if (nchain)
		w->s->need_usyms = true;
	return 0;
}

static int add_stmt(const struct dw_stmt *st, void *arg)
{
	struct up_walk *w = arg;
	struct up_probe *p;
	uint64_t off;

	if (w->out->len >= UP_MAX_PROBES)
		return 1;
	if (dw_file_offset(w->mod, st->pc, &off) < 0) {
		w->nbad++;
		return 0;
	}
	p = new_probe(w, arena_printf(&w->s->arena, "process(\"%s\").statement(\"%s@%s:%d\")",
				      w->path, st->func, st->file, st->line));
	/* stap -l names the line asked for, as SystemTap 4.8's does. */
	if (w->up->nearest)
		((struct resolved_probe *)w->out->items[w->out->len - 1])->list_pp =
			arena_printf(&w->s->arena, "process(\"%s\").statement(\"%s@%s:%d\").nearest",
				     w->path, st->func, st->file, w->near_want);
	if (st->symbol)
		p->func = arena_strdup(&w->s->arena, st->symbol);
	p->offset = off;
	p->vaddr = st->pc;
	p->has_die = true;
	p->die_off = st->die_off;
	p->pc = st->pc;
	p->entry_pc = st->entry_pc;
	return 0;
}

static int add_mark(const struct sdt_note *n, void *arg)
{
	struct up_walk *w = arg;
	struct up_probe *p;
	struct vec args = VEC_INIT;
	uint64_t off, sem = 0;
	const char *a = n->args;
	char *err = NULL;

	if (fnmatch(w->up->pattern, n->name, 0) ||
	    (w->up->provider && fnmatch(w->up->provider, n->provider, 0)))
		return 0;
	if (w->out->len >= UP_MAX_PROBES)
		return 1;
	if (dw_elf_file_offset(w->elf, n->pc, &off) < 0 ||
	    (n->semaphore && dw_elf_file_offset(w->elf, n->semaphore, &sem) < 0)) {
		w->nbad++;
		return 0;
	}
	while (*(a += strspn(a, " "))) {
		size_t len = strcspn(a, " ");
		struct sdt_arg *x = arena_alloc(&w->s->arena, sizeof(*x));

		if (sdt_parse_arg(w->elf, a, len, x, &err) < 0) {
			if (!w->bad_err)
				w->bad_err = xasprintf("marker %s:%s: %s", n->provider, n->name, err);
			free(err);
			vec_free(&args);
			w->nbad++;
			return 0;
		}
		vec_push(&args, x);
		a += len;
	}
	/* SystemTap names a marker's probe by its address, also in pp(). */
	p = new_probe(w, arena_printf(&w->s->arena, "process(\"%s\").statement(0x%" PRIx64 ")",
				      w->path, n->pc));
	p->offset = off;
	p->vaddr = n->pc;
	p->sem_offset = sem;
	p->mark_name = arena_strdup(&w->s->arena, n->name);
	p->mark_provider = arena_strdup(&w->s->arena, n->provider);
	p->nargs = args.len;
	p->args = arena_alloc(&w->s->arena, (args.len + 1) * sizeof(*p->args));
	for (int i = 0; i < args.len; i++)
		p->args[i] = *(struct sdt_arg *)args.items[i];
	vec_free(&args);
	return 0;
}

static int add_plt(const char *name, uint64_t vaddr, void *arg)
{
	struct up_walk *w = arg;
	struct up_probe *p;
	uint64_t off;

	if (fnmatch(w->up->pattern, name, 0))
		return 0;
	if (w->out->len >= UP_MAX_PROBES)
		return 1;
	if (dw_elf_file_offset(w->elf, vaddr, &off) < 0) {
		w->nbad++;
		return 0;
	}
	/* SystemTap names a PLT entry's probe by its address, also in pp(). */
	p = new_probe(w, arena_printf(&w->s->arena, "process(\"%s\").statement(0x%" PRIx64 ")%s",
				      w->path, vaddr, up_suffix[w->up->kind]));
	p->offset = off;
	p->vaddr = vaddr;
	p->mark_name = arena_strdup(&w->s->arena, name);
	name = plt_func_before(w->elf, vaddr);
	if (name)
		p->func = arena_strdup(&w->s->arena, name);
	return 0;
}

static int add_func_name(const struct dw_func *fn, void *arg)
{
	vec_push(arg, xstrdup(fn->name));
	return 0;
}

static int add_plt_name(const char *name, uint64_t vaddr, void *arg)
{
	vec_push(arg, xstrdup(name));
	return 0;
}

/* The hint for a .plt pattern that matched nothing in path. */
static void plt_hint(struct session *s, const char *path, const char *pattern)
{
	struct vec names = VEC_INIT;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	const char *best = NULL;

	if (elf)
		plt_entries(elf, add_plt_name, &names);
	if (names.len && !strpbrk(pattern, "*?["))
		best = diag_closest(pattern, (const char *const *)names.items, names.len);
	if (best)
		diag_hint(s, "did you mean '%s'?", best);
	else if (names.len)
		diag_hint(s, "stap -l 'process(\"%s\").plt' lists its %d PLT entries",
			  path, names.len);
	else
		diag_hint(s, "%s has no PLT entries (a static program, or linked with -z now "
			  "and no lazy stubs)", path);
	for (int i = 0; i < names.len; i++)
		free(names.items[i]);
	vec_free(&names);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

/* Why nothing matched: an error at up->loc with a hint. */
static void no_match(struct session *s, const struct up_walk *w)
{
	const struct up_point *up = w->up;
	const char *what = up->kind == UP_MARK ? "marker" :
			   up->kind == UP_STATEMENT ? "statement" :
			   up->kind == UP_PLT || up->kind == UP_PLT_RETURN ? "PLT entry" : "function";

	if (w->bad_err) {
		diag_error(s, up->loc, "%s", w->bad_err);
	} else if (w->label_funcs) {
		diag_error(s, up->loc, "no label matching '%s' in '%s' in %s", up->label,
			   up->pattern, up->path);
		return;
	} else if (w->nskipped_inline) {
		diag_error(s, up->loc, "no out-of-line copy of '%s' in %s to probe the return "
			   "of (%d inlined skipped)", up->pattern, up->path, w->nskipped_inline);
	} else {
		diag_error(s, up->loc, "no %s in %s matches '%s'", what, up->path, up->pattern);
	}
	if (up->kind == UP_MARK) {
		diag_hint(s, "stap -L 'process(\"%s\").mark(\"*\")' lists its markers", up->path);
	} else if (up->kind == UP_PLT || up->kind == UP_PLT_RETURN) {
		plt_hint(s, up->path, up->pattern);
	} else {
		struct dw_pattern any = { .name = "*" };
		struct vec names = VEC_INIT;
		char *name = xstrndup(up->pattern, strcspn(up->pattern, "@"));
		const char *best = NULL;

		if (!strpbrk(name, "*?[") && dw_list_functions(w->mod, &any, add_func_name, &names) > 0)
			best = diag_closest(name, (const char *const *)names.items, names.len);
		if (best && up->kind == UP_STATEMENT && !strcmp(best, name))
			pf_near_hint(s, w->mod, w->up->pattern);
		else if (best)
			diag_hint(s, "did you mean '%s'?", best);
		else if (!dw_dwarf(w->mod))
			diag_hint(s, "%s has no debuginfo: only its symbol table's functions can "
				  "be probed (install its -dbgsym package or rebuild with -g)",
				  up->path);
		else
			diag_hint(s, "stap -l 'process(\"%s\").function(\"*\")' lists its "
				  "functions", up->path);
		for (int i = 0; i < names.len; i++)
			free(names.items[i]);
		vec_free(&names);
		free(name);
	}
}

/* Add the probes of one file to w->out: 0, or -1 after an error. */
static int walk_file(struct session *s, struct up_walk *w, const char *path)
{
	const struct up_point *up = w->up;
	struct dw_pattern pat = { 0 };
	char *err = NULL;
	int n, fd = -1;

	w->path = path;
	free(w->seen);	/* offsets are per file */
	w->seen = NULL;
	w->nseen = w->cap = 0;
	w->mod = dw_user_open(path, &err);
	if (!w->mod) {
		const char *hint = strstr(err, "\nhint: ");

		/* A glob's file that is no ELF program is not an error. */
		if (w->rp->point->optional || up->paths.len > 1) {
			free(err);
			return 0;
		}
		diag_error(s, up->ploc, "%.*s", hint ? (int)(hint - err) : (int)strlen(err), err);
		if (hint)
			diag_hint(s, "%s", hint + 7);
		free(err);
		return -1;
	}
	vec_push(&s->user_files, (void *)path);
	if (up->kind == UP_MARK || up->kind == UP_PLT || up->kind == UP_PLT_RETURN) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		w->elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
		n = !w->elf ? -EIO : up->kind == UP_MARK ? sdt_notes(w->elf, add_mark, w) :
		    plt_entries(w->elf, add_plt, w) < 0 ? -EIO : 0;
		if (w->elf)
			elf_end(w->elf);
		w->elf = NULL;
		if (fd >= 0)
			close(fd);
	} else if (up->kind == UP_ADDR) {
		uint64_t off, addr = up->addr;
		struct up_probe *p;
		Dwarf_Die cu;
		Dwarf_Addr begin;

		/* .nearest: the beginning of the statement holding it. */
		if (up->nearest) {
			Dwarf *dbg = dw_dwarf(w->mod);

			if (!dbg || !dwarf_addrdie(dbg, addr, &cu) ||
			    !pf_stmt_begin(&cu, addr, &begin)) {
				diag_error(s, up->loc, "no statement of %s holds 0x%" PRIx64, path,
					   addr);
				diag_hint(s, "give a link-time address of %s's code, as objdump -d "
					  "shows them", path);
				return -1;
			}
			addr = begin;
		}
		if (dw_file_offset(w->mod, addr, &off) < 0) {
			diag_error(s, up->loc, "0x%" PRIx64 " is not an address in %s's loaded "
				   "segments", addr, path);
			diag_hint(s, "give a link-time address, as nm or objdump -d %s show them",
				  path);
			return -1;
		}
		p = new_probe(w, arena_printf(&s->arena, "process(\"%s\").statement(0x%" PRIx64 ")",
					      path, addr));
		p->offset = off;
		p->vaddr = addr;
		n = 1;
	} else {
		if (dw_parse_pattern(up->pattern, &pat, &err) < 0) {
			diag_error(s, up->loc, "%s", err);	/* resolve checked it */
			free(err);
			return -1;
		}
		if (up->fn_addr) {
			const char *name = NULL;

			w->at_die = pf_func_at(dw_dwarf(w->mod), up->addr, &name);
			if (!w->at_die) {
				if (w->rp->point->optional)
					return 0;
				diag_error(s, up->loc, "no function of %s holds 0x%" PRIx64, path,
					   up->addr);
				diag_hint(s, "function(ADDRESS) takes a link-time address, as nm %s "
					  "gives them", path);
				return -1;
			}
			dw_pattern_free(&pat);
			pat = (struct dw_pattern){ .name = xstrdup(name) };
			n = dw_lookup_functions(w->mod, &pat, add_site, w);
		} else if (up->kind == UP_CALLEE) {
			n = pf_walk_callees(s, w->mod, &pat, up->callee, up->depth, add_callee, w);
			w->callers += n > 0 ? n : 0;
		} else {
			n = up->kind != UP_STATEMENT ?
			    dw_lookup_functions(w->mod, &pat, add_site, w) :
			    up->nearest ? (w->near_want = pat.line_lo,
					   pf_nearest_stmts(s, w->mod, &pat, add_stmt, w)) :
			    dw_statements(w->mod, &pat, add_stmt, w);
		}
		dw_pattern_free(&pat);
	}
	if (up->kind == UP_CALLEE && (n == -E2BIG || w->out->len >= UP_MAX_PROBES)) {
		diag_error(s, up->loc, "the callees of '%s' to depth %d in %s are more than one "
			   "probe point may probe", up->pattern, up->depth, path);
		diag_hint(s, "ask for fewer: a smaller .callees(DEPTH), or .callee(\"PATTERN\")");
		return -1;
	}
	if (n < 0 && w->out->len < UP_MAX_PROBES) {
		diag_error(s, up->loc, "cannot read %s: %s", path, strerror(-n));
		return -1;
	}
	return 0;
}

static int expand_process(struct session *s, struct resolved_probe *rp, struct vec *out)
{
	const struct up_point *up = rp->family_data;
	struct up_walk w = { .s = s, .up = up, .rp = rp, .out = out };
	int n = 0;

	for (int i = 0; i < up->paths.len && n == 0 && out->len < UP_MAX_PROBES; i++)
		n = walk_file(s, &w, up->paths.items[i]);
	if (n < 0) {
		n = -1;
	} else if (out->len >= UP_MAX_PROBES) {
		diag_error(s, up->loc, "'%s' matches more than %d places in %s, the most one "
			   "probe point may probe", up->pattern, UP_MAX_PROBES, up->path);
		n = -1;
	} else if (!out->len && !rp->point->optional) {
		if (up->kind == UP_CALLEE && w.callers) {
			diag_error(s, up->loc, "'%s' calls no function matching '%s' that can be "
				   "probed", up->pattern, up->callee);
			diag_hint(s, "callees are the calls the DWARF records: not those "
				  "through pointers, nor tail calls, nor calls into other files");
		} else if (w.mod && up->paths.len == 1)
			no_match(s, &w);
		else
			diag_error(s, up->loc, "no %s matches '%s' in the %d files matching "
				   "the process path", up->kind == UP_MARK ? "marker" : "function",
				   up->pattern, up->paths.len);
		n = -1;
	} else {
		for (int i = 0; i < out->len; i++)
			((struct up_probe *)((struct resolved_probe *)out->items[i])->family_data)
				->several = out->len > 1;
		n = out->len;
	}
	free(w.bad_err);
	free(w.seen);

	return n;
}

/* ---- target variables ---- */

static int tv_scope(struct session *s, struct resolved_probe *rp, const struct srcloc *loc,
		    struct tv_scope *out)
{
	struct up_probe *p = rp->family_data;

	memset(out, 0, sizeof(*out));
	if (p->kind == UP_PLT || p->kind == UP_PLT_RETURN) {
		diag_error(s, loc, "a PLT entry has no target variables");
		diag_hint(s, "$$name is the name of the function it calls");
		return -1;
	}
	if (p->kind == UP_ADDR) {
		diag_error(s, loc, "a probe at an address has no target variables here");
		diag_hint(s, "probe the function or the line instead: .function(\"NAME\") or "
			  ".statement(\"FUNC@FILE:LINE\")");
		return -1;
	}
	if (p->kind == UP_MARK || !p->has_die) {
		diag_error(s, loc, "%s has no debuginfo for target variables here", p->path);
		diag_hint(s, p->kind == UP_MARK ? "a marker's values are $arg1..$argN" :
			  "install its debuginfo or rebuild it with -g");
		return -1;
	}
	if (!tv_object_fn_scope(p->mod, p->die_off, p->pc, p->entry_pc, p->kind == UP_RETURN,
				out)) {
		diag_error(s, loc, "dwarf: cannot read the DWARF of %s", p->path);
		return -1;
	}
	return 0;
}

/* ---- markers: $argN, $$name, $$provider, $$parms ---- */

static struct node *new_node(struct session *s, const struct node *at, enum node_kind kind)
{
	struct node *n = arena_alloc(&s->arena, sizeof(*n));

	n->kind = kind;
	n->loc = at->loc;
	n->next = at->next;
	return n;
}

static struct node *str_node(struct session *s, const struct node *at, const char *str)
{
	struct node *n = new_node(s, at, ND_STR);

	n->str = str;
	n->str_len = (int)strlen(str);
	return n;
}

/* "$argN" -> N, or 0. */
static int arg_number(const char *name)
{
	char *end;
	long v;

	if (strncmp(name, "arg", 3) || !isdigit((unsigned char)name[3]))
		return 0;
	v = strtol(name + 3, &end, 10);
	return *end || v < 1 || v > 99 ? 0 : (int)v;
}

static struct node *mark_value(struct session *s, const struct up_probe *p, struct node *n)
{
	const char *name = n->str;
	int i = arg_number(name);

	if (i && !n->members) {
		struct node *num;

		if (i > p->nargs) {
			diag_error(s, &n->loc, "marker %s:%s has %d argument%s: no $%s",
				   p->mark_provider, p->mark_name, p->nargs,
				   p->nargs == 1 ? "" : "s", name);
			return n;
		}
		num = new_node(s, n, ND_NUM);
		num->num = i;
		num->next = NULL;
		return pf_call_node(s, n, "__sdt_arg", num);
	}
	if (!strcmp(name, "$name"))
		return str_node(s, n, p->mark_name);
	if (!strcmp(name, "$provider"))
		return str_node(s, n, p->mark_provider);
	if (!strcmp(name, "$parms") || !strcmp(name, "$vars") || !strcmp(name, "$parms$") ||
	    !strcmp(name, "$vars$")) {
		/* "$arg1=0x... $arg2=0x..." built by sprintf. */
		struct node *call = new_node(s, n, ND_CALL), **tail;
		struct strbuf fmt = STRBUF_INIT;

		for (int k = 1; k <= p->nargs; k++)
			sb_printf(&fmt, "%s$arg%d=%%#x", k > 1 ? " " : "", k);
		call->str = "sprintf";
		call->args = str_node(s, n, arena_strdup(&s->arena, fmt.buf ? fmt.buf : ""));
		call->args->next = NULL;
		tail = &call->args->next;
		for (int k = 1; k <= p->nargs; k++) {
			struct node *a, *num = new_node(s, n, ND_NUM);

			num->num = k;
			num->next = NULL;
			a = pf_call_node(s, num, "__sdt_arg", num);
			a->next = NULL;
			*tail = a;
			tail = &a->next;
		}
		call->num = 1 + p->nargs;
		sb_free(&fmt);
		return call;
	}
	diag_error(s, &n->loc, "marker %s:%s has no $%s", p->mark_provider, p->mark_name, name);
	diag_hint(s, "a marker's values are $arg1..$arg%d, $$name, $$provider and $$parms",
		  p->nargs);
	return n;
}

/* A marker's $argN, $$name, ... (a pf_rewrite_fn; arg is the probe). */
static bool rewrite_mark(struct session *s, struct node **np, void *arg)
{
	const struct up_probe *p = arg;
	struct node *n = *np;

	if (n->kind == ND_TARGET && n->str) {
		*np = mark_value(s, p, n);
		return true;
	}
	if (n->kind == ND_DEFINED && n->lhs && n->lhs->kind == ND_TARGET && n->lhs->str) {
		int i = arg_number(n->lhs->str);
		struct node *v = new_node(s, n, ND_NUM);

		v->num = (i && i <= p->nargs) || !strcmp(n->lhs->str, "$name") ||
			 !strcmp(n->lhs->str, "$provider") || !strcmp(n->lhs->str, "$parms");
		*np = v;
		return true;
	}
	return false;
}

/* A PLT entry's $$name (a pf_rewrite_fn; arg is the probe). */
static bool rewrite_plt(struct session *s, struct node **np, void *arg)
{
	const struct up_probe *p = arg;
	struct node *n = *np;

	if (n->kind == ND_TARGET && n->str && !strcmp(n->str, "$name") && !n->members) {
		*np = str_node(s, n, p->mark_name);
		return true;
	}
	if (n->kind == ND_DEFINED && n->lhs && n->lhs->kind == ND_TARGET && n->lhs->str) {
		struct node *v = new_node(s, n, ND_NUM);

		v->num = !strcmp(n->lhs->str, "$name");
		*np = v;
		return true;
	}
	return false;
}

static struct node *rewrite_body(struct session *s, struct resolved_probe *rp,
				 struct node *body)
{
	const struct up_probe *p = rp->family_data;

	if (p->kind == UP_MARK)
		pf_rewrite_walk(s, &body, rewrite_mark, (void *)p);
	else if (p->kind == UP_PLT || p->kind == UP_PLT_RETURN)
		pf_rewrite_walk(s, &body, rewrite_plt, (void *)p);
	return body;
}

/* ---- emitting ---- */

/*
 * The kernel refuses a second uprobe at an address with a different
 * reference counter: every probe at a marker's address takes the
 * marker's semaphore (the kernel counts it once per address anyway).
 */
static void share_semaphores(struct vec *probes)
{
	struct vec marks = VEC_INIT;

	for (int i = 0; i < probes->len; i++) {
		struct up_probe *p = ((struct resolved_probe *)probes->items[i])->family_data;

		if (p->sem_offset)
			vec_push(&marks, p);
	}
	for (int i = 0; marks.len && i < probes->len; i++) {
		struct up_probe *p = ((struct resolved_probe *)probes->items[i])->family_data;

		for (int j = 0; j < marks.len && !p->sem_offset; j++) {
			struct up_probe *m = marks.items[j];

			if (m->offset == p->offset && !strcmp(m->path, p->path))
				p->sem_offset = m->sem_offset;
		}
	}
	vec_free(&marks);
}

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	int i, group = 0;

	share_semaphores(probes);
	for (i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct up_probe *p = rp->family_data;

		if (!p->nargs)
			continue;
		sb_printf(c, "static const struct stp_sdt_arg stp_sdt_args_%d[] = {\n", rp->id);
		for (int k = 0; k < p->nargs; k++) {
			const struct sdt_arg *a = &p->args[k];

			sb_printf(c, "\t{ .size = %d, .kind = %d, .scale = %d, .value = %" PRId64
				  "LL, .base = ", a->size, (int)a->kind, a->scale, a->value);
			if (a->base)
				sb_printf(c, "offsetof(struct pt_regs, %s)", a->base);
			else
				sb_puts(c, "-1");
			sb_puts(c, ", .index = ");
			if (a->index)
				sb_printf(c, "offsetof(struct pt_regs, %s) },\n", a->index);
			else
				sb_puts(c, "-1 },\n");
		}
		sb_puts(c, "};\n");
	}
	sb_puts(c, "/* process(...) probes: runtime/uprobe.c registers them. */\n"
		"static struct stp_uprobe stp_uprobes[] = {\n");
	for (i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct up_probe *p = rp->family_data;

		if (i && rp->point != ((struct resolved_probe *)probes->items[i - 1])->point)
			group = i;
		sb_printf(c, "\t{ .probe = &" PF_DESC_FMT ", .path = ", rp->id);
		emit_c_string(c, p->path, (int)strlen(p->path));
		if (!*p->func) {
			const char *f;
			uint64_t off;

			p->func = dw_symbolize(p->mod, p->vaddr, &f, &off) ? ""
									  : arena_strdup(&s->arena, f);
		}
		sb_printf(c, ", .func = \"%s\"", p->func);
		sb_printf(c, ", .offset = 0x%" PRIx64 ", .vaddr = 0x%" PRIx64
			  ", .sem_offset = 0x%" PRIx64 ", .pid = %d, .group = %d, .flags = %s%s%s0",
			  p->offset, p->vaddr, p->sem_offset, p->pid, group,
			  up_is_return(p->kind) ? "STP_UPROBE_RETURN | " : "",
			  p->optional ? "STP_UPROBE_OPTIONAL | " : "",
			  p->several ? "STP_UPROBE_WILDCARD | " : "");
		if (p->exe) {
			sb_puts(c, ", .exe = ");
			emit_c_string(c, p->exe, (int)strlen(p->exe));
		}
		if (p->nargs)
			sb_printf(c, ", .nargs = %d, .args = stp_sdt_args_%d", p->nargs, rp->id);
		if (rp->entry_exprs.len)
			sb_printf(c, ", .entry = stp_entry_%d, .nslots = %d", rp->id,
				  rp->entry_exprs.len);
		sb_puts(c, " },\n");
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	sb_puts(c, "\t{\n\t\tint rc = _stp_uprobes_start(stp_uprobes, ARRAY_SIZE(stp_uprobes));\n\n"
		"\t\tif (rc)\n\t\t\treturn rc;\n\t}\n");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	sb_puts(c, "\t_stp_uprobes_stop(stp_uprobes, ARRAY_SIZE(stp_uprobes));\n");
}

const struct probe_family pf_uprobe = {
	.name = "process",
	.forms = (const char *const[]){
		"process[(S|N)][.library(S)].{function(S)[.call|.inline|.return|.exported|.label(S)|"
		".callee(S)[.call|.return]|.callees[(N)]]|"
		"statement(S)[.nearest]|mark(S)|provider(S).mark(S)|plt(S)[.return]}",
		"process(S|N)[.library(S)].plt[.return]",
		"process[(S|N)][.library(S)].statement(N)[.nearest]",
		"process[(S|N)][.library(S)].function(N)[.call|.exported|.return]",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.user_space = true,
	.resolve = resolve_process,
	.expand = expand_process,
	.tv_scope = tv_scope,
	.rewrite_body = rewrite_body,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};

/* ---- stap -l / -L ---- */

struct up_list {
	const char *prefix;	/* process("PATH"), or with .library("LIB") */
	const char *suffix;
	enum up_kind kind;
	bool with_vars;
	const char *provider, *pattern;
	struct vec *lines;
};

static int list_func(const struct dw_func *f, void *arg)
{
	struct up_list *l = arg;
	struct strbuf sb = STRBUF_INIT;

	if ((l->kind == UP_CALL || l->kind == UP_RETURN) && f->n_outofline == 0)
		return 0;
	if (l->kind == UP_INLINE && f->n_inlined == 0)
		return 0;
	sb_printf(&sb, "%s.function(\"%s", l->prefix, f->name);
	if (*f->file)
		sb_printf(&sb, "@%s:%d", f->file, f->line);
	sb_printf(&sb, "\")%s", l->suffix);
	if (l->with_vars && l->kind == UP_RETURN && *f->ret)
		sb_printf(&sb, " $return:%s", f->ret);
	if (l->with_vars && *f->vars)
		sb_printf(&sb, " %s", f->vars);
	vec_push(l->lines, sb_steal(&sb));
	return 0;
}

static int list_plt(const char *name, uint64_t vaddr, void *arg)
{
	struct up_list *l = arg;

	if (!fnmatch(l->pattern, name, 0))
		vec_push(l->lines, xasprintf("%s.plt(\"%s\")%s", l->prefix, name, l->suffix));
	return 0;
}

static int list_mark(const struct sdt_note *n, void *arg)
{
	struct up_list *l = arg;
	struct strbuf sb = STRBUF_INIT;
	const char *a = n->args;
	int k = 0;

	if (fnmatch(l->pattern, n->name, 0) || (l->provider && fnmatch(l->provider, n->provider, 0)))
		return 0;
	sb_printf(&sb, "%s.mark(\"%s\")", l->prefix, n->name);
	while (l->with_vars && *(a += strspn(a, " "))) {
		sb_printf(&sb, " $arg%d:long", ++k);
		a += strcspn(a, " ");
	}
	vec_push(l->lines, sb_steal(&sb));
	return 0;
}

/* The quoted argument at *p ("NAME(\"...\")"); malloc'ed, *p moved past it. */
static char *quoted(const char **p, const char *name)
{
	size_t n = strlen(name);
	const char *end;

	if (strncmp(*p, name, n) || strncmp(*p + n, "(\"", 2))
		return NULL;
	*p += n + 2;
	end = strstr(*p, "\")");
	if (!end)
		return NULL;
	{
		char *r = xstrndup(*p, end - *p);

		*p = end + 2;
		return r;
	}
}

/* List what l asks for in one file: 0, or -1 after a message. */
static int list_file(struct up_list *l, const char *path)
{
	struct dw_object *m;
	char *err = NULL;
	int ret;

	m = dw_user_open(path, &err);
	if (!m) {
		fprintf(stderr, "%s: %s\n", util_progname, err);
		free(err);
		return -1;
	}
	if (l->kind == UP_MARK || l->kind == UP_PLT || l->kind == UP_PLT_RETURN) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;

		ret = !elf ? -1 : l->kind == UP_MARK ? (sdt_notes(elf, list_mark, l) >= 0 ? 0 : -1) :
		      plt_entries(elf, list_plt, l) >= 0 ? 0 : -1;
		if (elf)
			elf_end(elf);
		if (fd >= 0)
			close(fd);
	} else {
		struct dw_pattern dp;

		if (dw_parse_pattern(l->pattern, &dp, &err) < 0) {
			util_err("%s", err);
			free(err);
			return -1;
		}
		ret = dw_list_functions(m, &dp, list_func, l) < 0 ? -1 : 0;
		dw_pattern_free(&dp);
	}
	return ret;
}

int pf_uprobe_list(struct session *s, const char *pattern, bool with_vars, struct vec *lines)
{
	const char *p = pattern;
	char *file = NULL, *lib = NULL, *provider = NULL, *pat = NULL, *path = NULL;
	struct up_list l = { .with_vars = with_vars, .lines = lines, .suffix = "" };
	struct vec libs = VEC_INIT, needed = VEC_INIT;
	int ret = -1;

	(void)s;
	if (strncmp(pattern, "process(", 8))
		return 1;
	file = quoted(&p, "process");
	if (!file || *p++ != '.')
		goto usage;
	lib = quoted(&p, "library");
	if (lib && *p++ != '.')
		goto usage;
	provider = quoted(&p, "provider");
	if (provider && *p++ != '.')
		goto usage;
	if ((pat = quoted(&p, "mark"))) {
		l.kind = UP_MARK;
	} else if (!provider && !strncmp(p, "plt", 3) && (!p[3] || p[3] == '.' || p[3] == '(')) {
		l.kind = UP_PLT;
		pat = p[3] == '(' ? quoted(&p, "plt") : (p += 3, xstrdup("*"));
		if (!pat)
			goto usage;
		if (!strcmp(p, ".return"))
			l.kind = UP_PLT_RETURN;
		else if (*p)
			goto usage;
		l.suffix = p;
	} else if (!provider && (pat = quoted(&p, "function"))) {
		l.kind = UP_ANY;
		for (int i = UP_CALL; i <= UP_RETURN; i++)
			if (*p && !strcmp(p, up_suffix[i]))
				l.kind = (enum up_kind)i;
		if (l.kind == UP_ANY && *p)
			goto usage;
		l.suffix = p;
	} else {
		goto usage;
	}
	if (l.kind == UP_MARK && *p)
		goto usage;
	path = pf_user_path(file);
	if (!path) {
		util_err("cannot find '%s'%s", file, strchr(file, '/') ? "" : " in $PATH");
		goto out;
	}
	l.pattern = pat;
	l.provider = provider;
	if (!lib) {
		l.prefix = xasprintf("process(\"%s\")", file);
		ret = list_file(&l, path);
		free((char *)l.prefix);
		goto out;
	}
	/* As SystemTap: each library by its path, after the program as given. */
	lib_paths(path, lib, &libs, &needed);
	if (!libs.len)
		util_err("no library of %s matches '%s'", path, lib);
	for (int i = 0; i < libs.len; i++) {
		l.prefix = xasprintf("process(\"%s\").library(\"%s\")", file,
				     (char *)libs.items[i]);
		ret = list_file(&l, libs.items[i]);
		free((char *)l.prefix);
		if (ret < 0)
			break;
	}
	goto out;
usage:
	/* Not a form listed from the index: list.c resolves it as a script would. */
	ret = 1;
out:
	free_strings(&libs);
	free_strings(&needed);
	free(file);
	free(lib);
	free(provider);
	free(pat);
	free(path);
	return ret;
}
