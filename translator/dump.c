// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stap --dump-probe-aliases: every probe alias of the tapset library and
 * of the system call library, "NAME = POINTS" a line, sorted, as
 * SystemTap prints them:
 *
 *     vfs.read = kernel.function("vfs_read")
 *
 * stap --dump-functions: every public function of the tapset library,
 * one a line, as SystemTap prints them:
 *
 *     ctime:string (epochsecs:long)
 *
 * A function without a declared type shows as "unknown" (so does one
 * returning nothing), as in SystemTap.  With -v each line also carries
 * the function's one-line description, taken from the doc comment right
 * above its definition:
 *
 *     / ** sfunction NAME - What it does * /
 *
 * ("sfunction" is optional; the comment may go on over more lines, only
 * its NAME line counts).
 *
 * stap --dump-probe-types: every probe point form the families take,
 * sorted, an argument shown by its type as SystemTap shows them:
 *
 *     kernel.function(string).return.maxactive(number)
 *
 * With --privilege=stapusr, only the forms that level may use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stap.h"
#include "probes/probes.h"

/* The description in the doc comment before f, or NULL if it has none. */
static char *doc_line(const struct func *f)
{
	const char *text = f->file->text, *p = f->loc.at, *end, *start, *q;
	size_t nlen = strlen(f->name);

	/* Back to the start of the line with "function NAME". */
	while (p > text && p[-1] != '\n')
		p--;
	/* Skip blank space back to the comment's end. */
	while (p > text && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n'))
		p--;
	if (p - text < 4 || strncmp(p - 2, "*/", 2))
		return NULL;
	end = p - 2;
	for (start = end - 1; start >= text + 2; start--)
		if (!strncmp(start - 2, "/**", 3))
			break;
	if (start < text + 2)
		return NULL;
	/* The line "[*] [sfunction ]NAME - description". */
	for (q = start; q < end; q++) {
		const char *line = q, *eol, *desc;

		while (q < end && *q != '\n')
			q++;
		eol = q;
		while (line < eol && (*line == ' ' || *line == '\t' || *line == '*'))
			line++;
		if (!strncmp(line, "sfunction ", 10))
			line += 10;
		if (strncmp(line, f->name, nlen) || strncmp(line + nlen, " - ", 3))
			continue;
		desc = line + nlen + 3;
		while (eol > desc && (eol[-1] == ' ' || eol[-1] == '\t' || eol[-1] == '*'))
			eol--;
		return xasprintf("%.*s", (int)(eol - desc), desc);
	}
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	const struct func *fa = *(struct func *const *)a, *fb = *(struct func *const *)b;

	return strcmp(fa->name, fb->name);
}

/* The type as --dump-functions shows it: void is SystemTap's "unknown". */
static const char *dump_type(enum type t)
{
	return t == TY_VOID ? "unknown" : type_name(t);
}

int dump_functions(struct session *s)
{
	struct vec all = VEC_INIT;
	int i, undocumented = 0;

	/* Guru-only functions are part of the library too. */
	s->guru = true;
	if (pp_load_library_macros(s, s->tapset_dir) < 0 || session_load_tapsets(s) < 0)
		return 1;
	for (i = 0; i < s->tapset_files.len; i++) {
		struct program *p = s->tapset_files.items[i];

		for (struct func *f = p->funcs; f; f = f->next)
			if (!f->is_private)
				vec_push(&all, f);
	}
	qsort(all.items, (size_t)all.len, sizeof(void *), by_name);
	/*
	 * The translator's own exit() and error() are tapset functions in
	 * SystemTap, so its list has them: merge them in by name.
	 */
	static const struct { const char *line, *doc; } builtins[] = {
		{ "error:unknown (msg:string)",
		  "Report msg as an error and end the probe hit; too many end the script" },
		{ "exit:unknown ()", "Start shutting down the script: end probes run next" },
	};
	size_t b = 0;

	for (i = 0; i <= all.len; i++) {
		while (b < ARRAY_SIZE(builtins) &&
		       (i == all.len || strncmp(builtins[b].line,
						((struct func *)all.items[i])->name,
						strlen(((struct func *)all.items[i])->name) + 1) < 0)) {
			if (s->verbose)
				printf("%s - %s\n", builtins[b].line, builtins[b].doc);
			else
				puts(builtins[b].line);
			b++;
		}
		if (i == all.len)
			break;
		struct func *f = all.items[i];
		struct strbuf sb = STRBUF_INIT;
		char *doc = doc_line(f);

		sb_printf(&sb, "%s:%s (", f->name, dump_type(f->type));
		for (struct param *p = f->params; p; p = p->next)
			sb_printf(&sb, "%s:%s%s", p->name, type_name(p->type),
				  p->next ? ", " : "");
		sb_puts(&sb, ")");
		if (s->verbose)
			sb_printf(&sb, " - %s", doc ? doc : "(undocumented)");
		puts(sb_str(&sb));
		if (!doc)
			undocumented++;
		free(doc);
		sb_free(&sb);
	}
	if (s->verbose && undocumented)
		fprintf(stderr, "stap: %d function%s without a doc comment\n",
			undocumented, undocumented == 1 ? "" : "s");
	vec_free(&all);
	return 0;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int dump_probe_aliases(struct session *s)
{
	struct program *sc = arena_alloc(&s->arena, sizeof(*sc));
	struct vec lines = VEC_INIT;
	int i;

	s->guru = true;
	if (pp_load_library_macros(s, s->tapset_dir) < 0 || session_load_tapsets(s) < 0)
		return 1;
	/* The system call aliases are made from the kernel's debuginfo. */
	s->diag_quiet++;
	if (sc_tapset(s, NULL, sc) == 0)
		vec_push(&s->tapset_files, sc);
	else
		fprintf(stderr, "stap: listed without the system call aliases (syscall.*, "
			"nd_syscall.*), which need kernel %s's debuginfo\n", s->release);
	s->diag_quiet--;
	for (i = 0; i < s->tapset_files.len; i++) {
		const struct program *p = s->tapset_files.items[i];

		for (const struct probe *a = p->aliases; a; a = a->next)
			for (const struct probe_point *nm = a->alias_names; nm; nm = nm->next) {
				struct strbuf sb = STRBUF_INIT;

				ast_print_point(&sb, nm);
				sb_puts(&sb, " = ");
				ast_print_points(&sb, a->points);
				vec_push(&lines, sb_steal(&sb));
			}
	}
	qsort(lines.items, (size_t)lines.len, sizeof(void *), by_str);
	for (i = 0; i < lines.len; i++) {
		if (!i || strcmp(lines.items[i], lines.items[i - 1]))
			puts(lines.items[i]);
	}
	for (i = 0; i < lines.len; i++)
		free(lines.items[i]);
	vec_free(&lines);
	return 0;
}

/*
 * SystemTap's order: component by component, a bare name before the
 * same name with a (number), before one with a (string).  As a string:
 * '.' then "(number)" then "(string)" sort below every letter.
 */
static char *type_key(const char *form)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = form; *p; p++) {
		if (*p == '.') {
			sb_putc(&sb, 1);
		} else if (!strncmp(p, "(number)", 8)) {
			sb_putc(&sb, 2);
			p += 7;
		} else if (!strncmp(p, "(string)", 8)) {
			sb_putc(&sb, 3);
			p += 7;
		} else {
			sb_putc(&sb, *p);
		}
	}
	return sb_steal(&sb);
}

static int by_type_key(const void *a, const void *b)
{
	char *x = type_key(*(char *const *)a), *y = type_key(*(char *const *)b);
	int d = strcmp(x, y);

	free(x);
	free(y);
	return d;
}

int dump_probe_types(struct session *s)
{
	struct vec lines = VEC_INIT;
	int i;

	pf_form_list(&lines);
	qsort(lines.items, (size_t)lines.len, sizeof(void *), by_type_key);
	for (i = 0; i < lines.len; i++) {
		if ((!i || strcmp(lines.items[i], lines.items[i - 1])) &&
		    (s->privilege != PRIV_STAPUSR || priv_form_allowed(lines.items[i])))
			puts(lines.items[i]);
		free(lines.items[i]);
	}
	vec_free(&lines);
	return 0;
}
