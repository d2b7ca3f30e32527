// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stap -l / -L: list the probe points matching one pattern, one a line,
 * sorted, in SystemTap's format, instead of running a script:
 *
 *   kernel.function("ksys_read@fs/read_write.c:613")
 *   kernel.function("ksys_read@fs/read_write.c:613") $fd:unsigned int ...
 *
 * Listed from the indexes: kernel.function("PATTERN") and module("MPATTERN").
 * function("PATTERN"), each with an optional .call, .inline or .return,
 * whose functions come from the DWARF indexes of the kernel and of the
 * matching modules (dw.h); kernel.statement("PATTERN") and
 * kernel.trace("PATTERN"), which their families list (pf_stmt_list,
 * pf_trace_list).  Any other point is resolved as in a script and listed
 * by its canonical name (list_resolved).
 */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dw.h"
#include "stap.h"
#include "probes/probes.h"

enum list_kind { LK_ANY, LK_CALL, LK_INLINE, LK_RETURN };

struct listing {
	enum list_kind kind;
	const char *suffix;	/* ".return" etc., printed after the point */
	const char *module;	/* module("NAME") points: NAME, else NULL */
	bool with_vars;
	struct vec lines;	/* char * */
};

static int add_func(const struct dw_func *f, void *arg)
{
	struct listing *l = arg;
	struct strbuf sb = STRBUF_INIT;

	if ((l->kind == LK_CALL || l->kind == LK_RETURN) && f->n_outofline == 0)
		return 0;
	if (l->kind == LK_INLINE && f->n_inlined == 0)
		return 0;
	if (l->module)
		sb_printf(&sb, "module(\"%s\").", l->module);
	else
		sb_puts(&sb, "kernel.");
	sb_printf(&sb, "function(\"%s@%s:%d\")%s", f->name, f->file, f->line, l->suffix);
	if (l->with_vars && l->kind == LK_RETURN) {
		/* What a .return probe reads: $return, and parameters at entry. */
		const char *v = f->vars, *end = v;

		if (*f->ret)
			sb_printf(&sb, " $return:%s", f->ret);
		for (int i = 0; i < f->nparams && *end; i++) {
			const char *next = strstr(end + 1, " $");

			end = next ? next : end + strlen(end);
		}
		if (end > v)
			sb_printf(&sb, " %.*s", (int)(end - v), v);
	} else if (l->with_vars && *f->vars) {
		sb_printf(&sb, " %s", f->vars);
	}
	vec_push(&l->lines, sb_steal(&sb));
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * kernel.function("PAT")[.call|.inline|.return] -> PAT and the kind;
 * module("MPAT").function(...) also sets *mpat (malloc'ed).
 */
static char *parse_point(const char *text, struct listing *l, char **mpat)
{
	static const struct {
		const char *suffix;
		enum list_kind kind;
	} suffixes[] = {
		{ "", LK_ANY }, { ".call", LK_CALL }, { ".inline", LK_INLINE },
		{ ".return", LK_RETURN },
	};
	const char *pre = "kernel.function(\"", *mpre = "module(\"", *end;

	*mpat = NULL;
	if (!strncmp(text, mpre, strlen(mpre))) {
		text += strlen(mpre);
		end = strstr(text, "\").function(\"");
		if (!end || end == text)
			return NULL;
		*mpat = xstrndup(text, (size_t)(end - text));
		text = end + strlen("\").function(\"");
		pre = "";
	}
	if (strncmp(text, pre, strlen(pre)))
		return NULL;
	text += strlen(pre);
	end = strstr(text, "\")");
	if (!end)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (!strcmp(end + 2, suffixes[i].suffix)) {
			l->kind = suffixes[i].kind;
			l->suffix = suffixes[i].suffix;
			return xstrndup(text, (size_t)(end - text));
		}
	return NULL;
}

/* The modules matching a module("MPATTERN") being listed. */
struct list_mods {
	struct session *s;
	const struct dw_pattern *p;
	struct listing *l;
	int nopened;
	char *first_err;
};

static int list_module(const char *name, const char *path, void *arg)
{
	struct list_mods *lm = arg;
	char *err = NULL;
	struct dw_object *m = dw_module_open(lm->s->release, name, path, &err);

	if (!m) {
		if (!lm->first_err)
			lm->first_err = err;
		else
			free(err);
		return 0;
	}
	lm->nopened++;
	if (lm->s->verbose)
		fprintf(stderr, "dwarf: module %s: %s\n", name, dw_debuginfo(m));
	lm->l->module = dw_name(m);
	return dw_list_functions(m, lm->p, add_func, lm->l) < 0 ? -1 : 0;
}

/* ---- probe aliases of the tapset library ---- */

/* A pattern's '.'-separated components, dots inside "..." or (...) kept. */
struct pattern_comps {
	char *c[16];
	int n;			/* -1: more components than c holds */
};

static void split_pattern(const char *text, struct pattern_comps *pc)
{
	int depth = 0;
	bool quoted = false;
	const char *start = text;

	pc->n = 0;
	for (const char *p = text;; p++) {
		if (*p == '"' && (p == text || p[-1] != '\\'))
			quoted = !quoted;
		else if (!quoted && *p == '(')
			depth++;
		else if (!quoted && *p == ')')
			depth--;
		if (*p && (*p != '.' || quoted || depth))
			continue;
		if (pc->n == (int)ARRAY_SIZE(pc->c)) {
			while (pc->n > 0)
				free(pc->c[--pc->n]);
			pc->n = -1;
			return;
		}
		pc->c[pc->n++] = xstrndup(start, (size_t)(p - start));
		if (!*p)
			return;
		start = p + 1;
	}
}

static void free_pattern(struct pattern_comps *pc)
{
	for (int i = 0; i < pc->n; i++)
		free(pc->c[i]);
}

/* Does alias name nm match the pattern, component by component? */
/* Components pc->c[i..] against names[j..n): "**" takes one or more. */
static bool comps_match(const struct pattern_comps *pc, int i, char **names, int j, int n)
{
	if (i == pc->n)
		return j == n;
	if (j == n)
		return false;
	if (!strcmp(pc->c[i], "**")) {
		for (int k = j + 1; k <= n; k++)
			if (comps_match(pc, i + 1, names, k, n))
				return true;
		return false;
	}
	return !fnmatch(pc->c[i], names[j], 0) && comps_match(pc, i + 1, names, j + 1, n);
}

static bool point_matches(const struct pattern_comps *pc, const struct probe_point *nm)
{
	struct strbuf sb = STRBUF_INIT;
	char *names[32];
	int n = 0;
	bool ok;

	for (const struct pp_comp *c = nm->comps; c && n < 32; c = c->next) {
		sb_reset(&sb);
		sb_puts(&sb, c->name);
		if (c->arg) {
			sb_putc(&sb, '(');
			ast_print_expr(&sb, c->arg);
			sb_putc(&sb, ')');
		}
		names[n++] = xstrdup(sb_str(&sb));
	}
	ok = pc->n > 0 && comps_match(pc, 0, names, 0, n);
	while (n)
		free(names[--n]);
	sb_free(&sb);
	return ok;
}

/* The type of an alias variable's value, as far as its text tells. */
static const char *value_type(struct session *s, const struct node *n)
{
	switch (n->kind) {
	case ND_STR:
		return "string";
	case ND_NUM:
	case ND_TARGET:
	case ND_CAST:	/* as $var->member: a number (or address) */
	case ND_ATVAR:
	case ND_UNARY:
		return "long";
	case ND_BINARY:
		return n->op == OP_CONCAT ? "string" : "long";
	case ND_TERNARY:
		return value_type(s, n->then);
	case ND_CALL:
		if (!strncmp(n->str, "sprint", 6))
			return "string";
		for (int i = 0; i < s->tapset_files.len; i++) {
			const struct program *p = s->tapset_files.items[i];

			for (const struct func *f = p->funcs; f; f = f->next)
				if (!strcmp(f->name, n->str) && f->type != TY_UNKNOWN)
					return f->type == TY_STRING ? "string" : "long";
		}
		return NULL;
	default:
		return NULL;
	}
}

/*
 * " name:string fd:long": the variables the alias body assigns, in
 * order; seen holds "name:type" strings of those already shown.
 */
static void alias_vars(struct session *s, const struct node *body, struct strbuf *sb,
		       struct vec *seen)
{
	for (const struct node *n = body->body; n; n = n->next) {
		const struct node *a = n->kind == ND_EXPR_STMT ? n->lhs : NULL;
		const char *type = NULL;
		size_t len;
		bool dup = false;

		if (!a || a->kind != ND_ASSIGN || a->op != OP_NONE || a->lhs->kind != ND_VAR)
			continue;
		len = strlen(a->lhs->str);
		for (int i = 0; i < seen->len && !dup; i++)
			dup = !strncmp(seen->items[i], a->lhs->str, len) &&
			      ((char *)seen->items[i])[len] == ':';
		if (dup)
			continue;
		if (a->rhs->kind == ND_VAR) {
			/* x = y: y's type, y shown before it */
			size_t ylen = strlen(a->rhs->str);

			for (int i = 0; i < seen->len && !type; i++)
				if (!strncmp(seen->items[i], a->rhs->str, ylen) &&
				    ((char *)seen->items[i])[ylen] == ':')
					type = (char *)seen->items[i] + ylen + 1;
		} else {
			type = value_type(s, a->rhs);
		}
		if (!type || !*type)
			type = "";
		vec_push(seen, arena_printf(&s->arena, "%s:%s", a->lhs->str, type));
		sb_printf(sb, " %s%s%s", a->lhs->str, *type ? ":" : "", type);
	}
}

/* Every alias name of the library as text, sorted, for chained_vars. */
struct named_alias {
	const char *text;
	const struct probe *alias;
};

static int named_cmp(const void *a, const void *b)
{
	return strcmp(((const struct named_alias *)a)->text,
		      ((const struct named_alias *)b)->text);
}

struct alias_index {
	struct named_alias *v;
	size_t n;
};

static void index_aliases(struct session *s, struct alias_index *ix)
{
	size_t cap = 0;

	for (int i = 0; i < s->tapset_files.len; i++) {
		const struct program *p = s->tapset_files.items[i];

		for (const struct probe *a = p->aliases; a; a = a->next)
			for (const struct probe_point *nm = a->alias_names; nm; nm = nm->next) {
				if (ix->n == cap) {
					cap = cap ? 2 * cap : 256;
					ix->v = xrealloc(ix->v, cap * sizeof(*ix->v));
				}
				ix->v[ix->n++] = (struct named_alias){ pf_point_text(s, nm), a };
			}
	}
	qsort(ix->v, ix->n, sizeof(*ix->v), named_cmp);
}

/* The variables of the aliases an alias expands to (nd_syscall.X = syscall.X). */
static void chained_vars(struct session *s, const struct alias_index *ix,
			 const struct probe *a, struct strbuf *sb, struct vec *seen, int depth)
{
	if (depth > 8)
		return;
	for (const struct probe_point *pt = a->points; pt; pt = pt->next) {
		struct named_alias key = { pf_point_text(s, pt), NULL };
		const struct named_alias *b = bsearch(&key, ix->v, ix->n, sizeof(*ix->v),
						       named_cmp);

		if (!b)
			continue;
		chained_vars(s, ix, b->alias, sb, seen, depth + 1);
		alias_vars(s, b->alias->body, sb, seen);
	}
}

static void list_program_aliases(struct session *s, const struct alias_index *ix,
				 const struct program *p, const struct pattern_comps *pc,
				 bool with_vars, struct vec *lines)
{
	for (const struct probe *a = p->aliases; a; a = a->next)
		for (const struct probe_point *name = a->alias_names; name; name = name->next) {
			struct strbuf sb = STRBUF_INIT;

			if (!point_matches(pc, name))
				continue;
			sb_puts(&sb, pf_point_text(s, name));
			if (with_vars) {
				struct vec seen = VEC_INIT;

				chained_vars(s, ix, a, &sb, &seen, 0);
				alias_vars(s, a->body, &sb, &seen);
				vec_free(&seen);
			}
			vec_push(lines, sb_steal(&sb));
		}
}

/*
 * Probe aliases matching pattern: 1 if pattern is not an alias's, 0 if
 * listed, -1 after a message.
 */
static int list_aliases(struct session *s, const char *pattern, bool with_vars,
			struct vec *lines)
{
	struct pattern_comps pc;
	int before = lines->len;
	bool sc;

	split_pattern(pattern, &pc);
	if (pc.n <= 0)
		return 1;
	sc = sc_wanted(pc.c[0]);
	if (pp_load_library_macros(s, s->tapset_dir) < 0 || session_load_tapsets(s) < 0) {
		free_pattern(&pc);
		return -1;
	}
	/* Library aliases built on the system call ones need them too. */
	for (int i = 0; i < s->tapset_files.len && !sc; i++) {
		const struct program *p = s->tapset_files.items[i];

		for (const struct probe *a = p->aliases; a && !sc; a = a->next)
			for (const struct probe_point *nm = a->alias_names; nm && !sc; nm = nm->next)
				if (point_matches(&pc, nm))
					for (const struct probe_point *q = a->points; q && !sc;
					     q = q->next)
						sc = sc_wanted(q->comps->name);
	}
	if (sc) {
		struct program *p = arena_alloc(&s->arena, sizeof(*p));

		if (sc_tapset(s, NULL, p) < 0) {
			free_pattern(&pc);
			return -1;
		}
		vec_push(&s->tapset_files, p);
	}
	struct alias_index ix = { 0 };

	if (with_vars)
		index_aliases(s, &ix);
	for (int i = 0; i < s->tapset_files.len; i++)
		list_program_aliases(s, &ix, s->tapset_files.items[i], &pc, with_vars, lines);
	free(ix.v);
	free_pattern(&pc);
	return lines->len > before ? 0 : 1;
}

/*
 * Any other point (timer.s(1), begin, procfs("x").read, .exported, ...):
 * resolved as the probe point of "probe PATTERN {}" would be, by the
 * families, and listed by their canonical names (with -L, with the
 * variables the family knows: kernel and user functions').  As
 * SystemTap lists them.
 */
static int list_resolved(struct session *s, const char *pattern, bool with_vars,
			 struct vec *lines, bool lib_loaded)
{
	struct srcfile *f;

	/* list_aliases may have loaded the whole library already. */
	if (!lib_loaded && pp_load_library_macros(s, s->tapset_dir) < 0)
		return -1;
	f = source_from_string(s, "<input>", arena_printf(&s->arena, "probe %s {}", pattern));
	if (!f || parse_file(s, f, &s->user) < 0 ||
	    (!lib_loaded && session_index_tapsets(s) < 0) || sem_elaborate(s) < 0)
		return -1;
	for (int i = 0; i < s->probes.len; i++) {
		const struct resolved_probe *rp = s->probes.items[i];

		/* SystemTap's -l names a label (its pp() does not). */
		const char *text = rp->list_pp ? rp->list_pp : rp->pp;

		if (rp->label)
			vec_push(lines, xasprintf("%s.label(\"%s\")", rp->pp, rp->label));
		else if (with_vars && rp->list_vars && *rp->list_vars)
			vec_push(lines, xasprintf("%s %s", text, rp->list_vars));
		else
			vec_push(lines, xstrdup(text));
	}
	return 0;
}

int list_probes(struct session *s, const char *pattern, bool with_vars)
{
	struct listing l = { .with_vars = with_vars };
	bool lib_loaded = false;
	struct dw_pattern p = { 0 };
	struct dw_object *k = NULL;
	char *pat = NULL, *mpat = NULL, *err = NULL;
	int ret = 1, n;

	/* Families that list their own points. */
	n = pf_trace_list(s, pattern, with_vars, &l.lines);
	if (n > 0)
		n = pf_stmt_list(s, pattern, with_vars, &l.lines);
	if (n > 0)
		n = pf_uprobe_list(s, pattern, with_vars, &l.lines);
	if (n > 0 && strncmp(pattern, "kernel.", 7) && strncmp(pattern, "module(", 7) &&
	    strncmp(pattern, "process(", 8)) {
		n = list_aliases(s, pattern, with_vars, &l.lines);
		lib_loaded = true;
	}
	if (n < 0)
		goto out;
	if (n == 0)
		goto print;
	pat = parse_point(pattern, &l, &mpat);
	if (!pat) {
		free(mpat);
		mpat = NULL;
		if (list_resolved(s, pattern, with_vars, &l.lines, lib_loaded) < 0)
			goto out;
		goto print;
	}
	if (dw_parse_pattern(pat, &p, &err) < 0) {
		util_err("%s", err);
		goto out;
	}
	if (mpat) {
		struct list_mods lm = { .s = s, .p = &p, .l = &l };

		n = dw_find_modules(s->release, mpat, (const char *const *)s->vm_insmod.items,
				    s->vm_insmod.len, list_module, &lm);
		if (n == 0) {
			util_err("no module matches '%s' for kernel %s", mpat, s->release);
			fprintf(stderr, "hint: modules come from --vm-insmod and "
				"/lib/modules/%s/modules.dep\n", s->release);
		} else if (n > 0 && !lm.nopened && lm.first_err) {
			fprintf(stderr, "%s: %s\n", util_progname, lm.first_err);
		}
		free(lm.first_err);
		if (n > 0 && lm.nopened)
			goto print;
		goto out;
	}
	k = dw_kernel_open(s->release, &err);
	if (!k) {
		/* err: "subject: message" and perhaps "\nhint: ..." */
		fprintf(stderr, "%s: %s\n", util_progname, err);
		goto out;
	}
	n = dw_list_functions(k, &p, add_func, &l);
	if (s->verbose)
		fprintf(stderr, "dwarf: %s, build-id %s, index %s%s\n", dw_debuginfo(k),
			dw_build_id(k), dw_db_path(k),
			dw_indexed(k) ? "" : " (being built: this name was indexed alone)");
	if (n < 0)
		goto out;
print:
	qsort(l.lines.items, (size_t)l.lines.len, sizeof(char *), str_cmp);
	for (int i = 0; i < l.lines.len; i++)
		/* One line per point: aliases may define a name twice. */
		if (!i || strcmp(l.lines.items[i], l.lines.items[i - 1]))
			puts(l.lines.items[i]);
	/* As SystemTap: the status says whether anything matched. */
	ret = l.lines.len ? 0 : 1;
out:
	for (int i = 0; i < l.lines.len; i++)
		free(l.lines.items[i]);
	vec_free(&l.lines);
	dw_close(k);
	dw_pattern_free(&p);
	free(pat);
	free(mpat);
	free(err);
	return ret;
}
