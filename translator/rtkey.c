// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which -D defines can change the runtime's objects (build.c caches them
 * keyed on those only).  Every run-time limit has a guarded default in
 * the runtime (stp_limits.h):
 *
 *	#ifndef MAXACTION
 *	#define MAXACTION 1000
 *	#endif
 *
 * Such a name is the runtime's own ("owned"): -DMAXACTION=N changes the
 * runtime's objects only if some runtime code, some #if or the body of a
 * macro that is itself read names it.  MAXACTION is read by the script's
 * code alone, so a test with its own -DMAXACTION links the same runtime
 * archive as one without.  The sets come from the runtime sources, so a
 * runtime change that starts reading a limit makes it part of the key.
 *
 * Deliberately conservative: a -D the runtime does not own (say -DDEBUG,
 * which kernel headers read) is always part of the key; any mention of a
 * name outside comments, strings, #undef and the guard itself counts as
 * a read, in dead #if branches too; so does a name in the value of a -D
 * that is part of the key.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rtkey.h"

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* text with comments and string/char literals blanked, continuations joined. */
static char *clean(const char *text, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t i = 0, n = 0;

	while (i < len) {
		char c = text[i];

		if (c == '\\' && i + 1 < len && text[i + 1] == '\n') {
			i += 2;		/* a continued line: one logical line */
		} else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(text[i] == '*' && text[i + 1] == '/'); i++)
				;
			i += 2;
			out[n++] = ' ';
		} else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				i++;
		} else if (c == '"' || c == '\'') {
			for (i++; i < len && text[i] != c && text[i] != '\n'; i++)
				if (text[i] == '\\')
					i++;
			i++;
			out[n++] = ' ';
		} else {
			out[n++] = c;
			i++;
		}
	}
	out[n] = 0;
	return out;
}

/* The next identifier at or after *p before the line's end, or NULL. */
static const char *next_ident(const char **p, size_t *n)
{
	const char *s = *p, *e;

	while (*s && !ident_start(*s)) {
		if (isdigit((unsigned char)*s))		/* 10UL, 0x1f: no names */
			while (ident_char(*s))
				s++;
		else
			s++;
	}
	if (!*s) {
		*p = s;
		return NULL;
	}
	for (e = s; ident_char(*e); e++)
		;
	*p = e;
	*n = (size_t)(e - s);
	return s;
}

/* Add the identifiers of text (one logical line) to set; how many were new. */
static int add_idents(struct rtkey *k, struct strmap *set, const char *text)
{
	const char *id;
	size_t n;
	int added = 0;

	while ((id = next_ident(&text, &n))) {
		char *name = arena_strndup(&k->names, id, n);
		void **slot = strmap_put(set, name);

		if (!*slot) {
			*slot = name;
			added++;
		}
	}
	return added;
}

/* A directive line's keyword ("" if none), *rest after it; false if not one. */
static bool directive(const char *line, char kw[16], const char **rest)
{
	const char *p = line;
	size_t n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return false;
	for (p++; *p == ' ' || *p == '\t'; p++)
		;
	while (isalpha((unsigned char)*p) && n < 15)
		kw[n++] = *p++;
	kw[n] = 0;
	*rest = p;
	return true;
}

/* line's "#KW NAME" NAME (in the arena), or NULL; *rest after the name. */
static char *directive_name(struct rtkey *k, const char *line, const char *kw,
			    const char **rest)
{
	char w[16];
	const char *p, *id;
	size_t n;

	if (!directive(line, w, &p) || strcmp(w, kw))
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!ident_start(*p))
		return NULL;
	id = next_ident(&p, &n);
	*rest = p;
	return arena_strndup(&k->names, id, n);
}

static bool is_directive(const char *line, const char *kw)
{
	char w[16];
	const char *rest;

	return directive(line, w, &rest) && !strcmp(w, kw);
}

static void add_def(struct rtkey *k, char *name, const char *body)
{
	vec_push(&k->defs, name);
	vec_push(&k->defs, arena_strdup(&k->names, body));
}

/* Add the identifiers of text to the owned names. */
static void own_idents(struct rtkey *k, const char *text)
{
	const char *id;
	size_t n;

	while ((id = next_ident(&text, &n))) {
		char *name = arena_strndup(&k->names, id, n);

		strmap_put(&k->owned, name)[0] = name;
	}
}

/*
 * script: a script_*.h header, which only the script's C includes (it
 * stops a runtime object's build with #error otherwise): what it reads
 * is the script's, never the runtime objects', so it adds no read name
 * and no macro; the names of its guarded defaults and of its #if
 * conditions are the runtime's own (they are handled, so a -D of one is
 * not a name kernel headers might read).
 */
static void scan(struct rtkey *k, const char *text, size_t len, bool script)
{
	char *buf = clean(text, len), *save, *line;
	struct vec lines = VEC_INIT;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		vec_push(&lines, line);
	for (int i = 0; i < lines.len; i++) {
		const char *l = lines.items[i], *rest, *body;
		char kw[16], *name, *def = NULL;

		if (!directive(l, kw, &rest)) {
			if (!script)
				add_idents(k, &k->read, l);
			continue;
		}
		/*
		 * "#ifndef X / #define X VALUE / #endif", nothing else: a
		 * guarded default (an include guard has its header inside).
		 */
		name = directive_name(k, l, "ifndef", &rest);
		if (name && i + 2 < lines.len)
			def = directive_name(k, lines.items[i + 1], "define", &body);
		if (def && !strcmp(name, def) && is_directive(lines.items[i + 2], "endif")) {
			strmap_put(&k->owned, name)[0] = name;
			if (!script)
				add_def(k, def, body);
			i += 2;
			continue;
		}
		if (script) {
			if (!strcmp(kw, "if") || !strcmp(kw, "ifdef") ||
			    !strcmp(kw, "ifndef") || !strcmp(kw, "elif"))
				own_idents(k, rest);
			continue;
		}
		if (!strcmp(kw, "undef") || !strcmp(kw, "include") ||
		    !strcmp(kw, "error") || !strcmp(kw, "warning"))
			continue;
		name = directive_name(k, l, "define", &body);
		if (name)	/* its body counts once the name is read */
			add_def(k, name, body);
		else if (strcmp(kw, "define"))
			add_idents(k, &k->read, rest);	/* #if, #ifdef, #elif, ... */
	}
	vec_free(&lines);
	free(buf);
}

void rtkey_scan(struct rtkey *k, const char *text, size_t len)
{
	scan(k, text, len, false);
}

void rtkey_scan_file(struct rtkey *k, const char *name, const char *text, size_t len)
{
	size_t n = strlen(name);

	scan(k, text, len, n > 9 && !strncmp(name, "script_", 7) && !strcmp(name + n - 2, ".h"));
}

/* Add the bodies of the macros read, until no more names are read. */
static void close_reads(struct rtkey *k)
{
	int added = 1;

	while (added) {
		added = 0;
		for (int i = 0; i < k->defs.len; i += 2)
			if (strmap_get(&k->read, k->defs.items[i]))
				added += add_idents(k, &k->read, k->defs.items[i + 1]);
	}
}

/* "NAME(args)=VALUE" or "NAME": the name, and the value ("1" if none). */
static char *define_name(const char *d, const char **value)
{
	size_t n = 0;

	while (d[n] && d[n] != '=' && d[n] != '(')
		n++;
	*value = strchr(d, '=') ? strchr(d, '=') + 1 : "1";
	return xstrndup(d, n);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void rtkey_relevant(struct rtkey *k, const struct vec *defines, struct vec *out)
{
	int n = defines->len, i, j;
	bool *keep = xcalloc((size_t)n + 1, sizeof(bool)), more = true;

	close_reads(k);
	while (more) {
		more = false;
		for (i = 0; i < n; i++) {
			const char *value;
			char *name = define_name(defines->items[i], &value);

			if (!keep[i] && (!strmap_get(&k->owned, name) ||
					 strmap_get(&k->read, name))) {
				/* What its value names is read too. */
				keep[i] = more = true;
				if (add_idents(k, &k->read, value))
					close_reads(k);
			}
			free(name);
		}
	}
	for (i = 0; i < n; i++) {
		const char *value;
		char *name = define_name(defines->items[i], &value);
		bool later = false;

		/* The compiler takes a name's last -D. */
		for (j = i + 1; j < n && !later; j++) {
			const char *v2;
			char *n2 = define_name(defines->items[j], &v2);

			later = !strcmp(n2, name);
			free(n2);
		}
		if (keep[i] && !later)
			vec_push(out, xasprintf("%.*s=%s",
						(int)strcspn(defines->items[i], "="),
						(char *)defines->items[i], value));
		free(name);
	}
	qsort(out->items, (size_t)out->len, sizeof(void *), cmp_str);
	free(keep);
}

void rtkey_free(struct rtkey *k)
{
	strmap_free(&k->owned);
	strmap_free(&k->read);
	vec_free(&k->defs);
	arena_free(&k->names);
}
