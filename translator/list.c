// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stap -l / -L: list the probe points matching one pattern, one a line,
 * sorted, in SystemTap's format, instead of running a script:
 *
 *   kernel.function("ksys_read@fs/read_write.c:613")
 *   kernel.function("ksys_read@fs/read_write.c:613") $fd:unsigned int ...
 *
 * Known so far: kernel.function("PATTERN") and module("MPATTERN").
 * function("PATTERN"), each with an optional .call, .inline or .return,
 * whose functions come from the DWARF indexes of the kernel and of the
 * matching modules (dw.h); kernel.statement("PATTERN") and
 * kernel.trace("PATTERN"), which their families list (pf_stmt_list,
 * pf_trace_list).
 */
#include "config.h"

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
	struct dw_module *m = dw_module_open(lm->s->release, name, path, &err);

	if (!m) {
		if (!lm->first_err)
			lm->first_err = err;
		else
			free(err);
		return 0;
	}
	lm->nopened++;
	if (lm->s->verbose)
		fprintf(stderr, "dwarf: module %s: %s\n", name, dw_module_debuginfo(m));
	lm->l->module = dw_module_name(m);
	return dw_module_list(m, lm->p, add_func, lm->l) < 0 ? -1 : 0;
}

int list_probes(struct session *s, const char *pattern, bool with_vars)
{
	struct listing l = { .with_vars = with_vars };
	struct dw_pattern p = { 0 };
	struct dw_kernel *k = NULL;
	char *pat = NULL, *mpat = NULL, *err = NULL;
	int ret = 1, n;

	/* Families that list their own points. */
	n = pf_trace_list(s, pattern, with_vars, &l.lines);
	if (n > 0)
		n = pf_stmt_list(s, pattern, with_vars, &l.lines);
	if (n < 0)
		goto out;
	if (n == 0)
		goto print;
	pat = parse_point(pattern, &l, &mpat);
	if (!pat) {
		util_err("cannot list '%s': only kernel.function(\"PATTERN\"), "
			 "kernel.statement(\"PATTERN\"), kernel.trace(\"PATTERN\") and "
			 "module(\"NAME\").function(\"PATTERN\") probe points can be listed "
			 "so far", pattern);
		free(mpat);
		return 1;
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
	k = dw_open(s->release, &err);
	if (!k) {
		/* err: "subject: message" and perhaps "\nhint: ..." */
		fprintf(stderr, "%s: %s\n", util_progname, err);
		goto out;
	}
	n = dw_list_functions(k, &p, add_func, &l);
	if (s->verbose)
		fprintf(stderr, "dwarf: %s, build-id %s, index %s%s\n", dw_debuginfo_path(k),
			dw_build_id(k), dw_db_path(k),
			dw_indexed(k) ? "" : " (being built: this name was indexed alone)");
	if (n < 0)
		goto out;
print:
	qsort(l.lines.items, (size_t)l.lines.len, sizeof(char *), str_cmp);
	for (int i = 0; i < l.lines.len; i++)
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
