// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A translation session's library and lifetime: loading the tapsets and
 * freeing everything the session owns, so that a long-lived process (the
 * compile server, the fuzzer) can run one session after another.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stap.h"
#include "tvar.h"
#include "regex.h"

/* Every .stp file under dir, depth first, in name order; -1 if dir is unreadable. */
static int find_tapsets(struct session *s, const char *dir, struct vec *out)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	/* names is unset when dir cannot be read (stap run from a moved tree). */
	if (n < 0) {
		util_err("tapsets: cannot read %s: %s (set SYSTEMTAP_TAPSET)", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		char *path = xasprintf("%s/%s", dir, name);

		if (name[0] != '.') {
			if (is_dir(path))
				find_tapsets(s, path, out);
			else if (len > 4 && !strcmp(name + len - 4, ".stp"))
				vec_push(out, arena_strdup(&s->arena, path));
		}
		free(path);
		free(names[i]);
	}
	free(names);
	return 0;
}

/* Parse the tapset library and every -I directory. */
int session_load_tapsets(struct session *s)
{
	struct vec files = VEC_INIT;
	int i, ret = 0;

	if (find_tapsets(s, s->tapset_dir, &files) < 0)
		ret = -1;
	for (i = 0; i < s->include_dirs.len; i++) {
		if (!is_dir(s->include_dirs.items[i])) {
			util_err("-I %s: not a directory", (char *)s->include_dirs.items[i]);
			ret = -1;
			continue;
		}
		find_tapsets(s, s->include_dirs.items[i], &files);
	}
	for (i = 0; i < files.len; i++) {
		struct srcfile *f = source_load(s, files.items[i]);
		struct program *p = arena_alloc(&s->arena, sizeof(*p));

		if (!f) {
			ret = -1;
			continue;
		}
		f->is_tapset = true;
		if (parse_file(s, f, p) < 0)
			ret = -1;
		vec_push(&s->tapset_files, p);
	}
	vec_free(&files);
	return ret;
}

/*
 * ---- the library on demand ----
 * Pass 2 parses only the files that define a name the script uses.  Which
 * file defines what comes from an index of every file's definitions:
 * "function NAME", "global NAME, ...", and the first component of each
 * alias name ("probe vfs.read = ..." is filed under vfs; one that starts
 * with a wildcard under every name).  It is read from the raw tokens,
 * before preprocessing, so it holds what any branch of a %( %) defines: a
 * file it names may turn out not to define the name here, never the
 * reverse.  The index is cached (stap-ng/tapsets/ in the cache directory)
 * under a key of the files' paths, sizes and modification times, so a
 * run with an unchanged library neither reads nor lexes the files it
 * does not use.
 */
struct ts_ref {
	int file;
	struct ts_ref *next;
};

struct tapset_lib {
	struct vec paths;	/* const char *, in load-all order */
	bool *tried;		/* per file: parsed or failed */
	struct strmap funcs, globals, aliases;	/* name -> struct ts_ref * */
	struct vec alias_keys;	/* const char *: the names aliases are filed under */
	struct ts_ref *wild;	/* files with an alias named by a wildcard first */
	int nleft;		/* files not tried yet */
};

#define TS_INDEX_MAGIC "stap-ng tapset index 1"

/*
 * File name under kind ('f', 'g', 'a'; 'w': a wildcard alias, name
 * unused) in the index; rec (if not NULL) gets the index file's line.
 */
static void ts_add(struct session *s, char kind, const char *name, int file,
		   struct strbuf *rec)
{
	struct tapset_lib *L = s->lib;
	struct strmap *m = kind == 'f' ? &L->funcs : kind == 'g' ? &L->globals : &L->aliases;
	struct ts_ref **r = kind == 'w' ? &L->wild : (struct ts_ref **)strmap_put(m, name);

	if (kind == 'a' && !*r)
		vec_push(&L->alias_keys, (void *)name);
	for (; *r; r = &(*r)->next)
		if ((*r)->file == file)
			return;
	*r = arena_alloc(&s->arena, sizeof(**r));
	(*r)->file = file;
	if (rec && kind == 'w')
		sb_puts(rec, "w\n");
	else if (rec)
		sb_printf(rec, "%c %s\n", kind, name);
}

static const char *tok_name(struct session *s, const struct token *t)
{
	return arena_strndup(&s->arena, t->text, (size_t)t->loc.len);
}

static bool is_name(const struct token *t)
{
	return t && t->kind == TK_IDENT && !parse_is_keyword(t->text, (size_t)t->loc.len);
}

/* global a, b[10], c = 5, d% ... after t (the keyword). */
static void scan_globals(struct session *s, int file, const struct token *t,
			 struct strbuf *rec)
{
	for (t = t->next; is_name(t);) {
		ts_add(s, 'g', tok_name(s, t), file, rec);
		t = t->next;
		while (t && (tok_is(t, "[") || tok_is(t, "%"))) {
			if (tok_is(t, "["))
				while (t && t->kind != TK_EOF && !tok_is(t, "]"))
					t = t->next;
			t = t ? t->next : NULL;
		}
		if (tok_is(t, "=")) {
			t = t->next;
			if (tok_is(t, "-"))
				t = t->next;
			t = t ? t->next : NULL;
		}
		if (!tok_is(t, ","))
			break;
		t = t->next;
	}
}

/*
 * probe NAME, NAME... = (an alias) after t (the keyword): file it under
 * each name's first component, if that is one identifier (and perhaps
 * its argument), else as a wildcard.
 */
static void scan_alias(struct session *s, int file, const struct token *t,
		       struct strbuf *rec)
{
	struct vec firsts = VEC_INIT;	/* const char *, NULL: a wildcard */
	const struct token *first = NULL;
	int depth = 0, ntoks = 0;
	bool in_first = true;

	for (t = t->next; t && t->kind != TK_EOF; t = t->next) {
		bool end = depth == 0 && (tok_is(t, "{") || tok_is(t, "=") ||
					  tok_is(t, "+=") || tok_is(t, ","));

		if (end || (depth == 0 && tok_is(t, "."))) {
			if (in_first)
				vec_push(&firsts, ntoks == 1 && is_name(first) ?
					 (void *)tok_name(s, first) : NULL);
			in_first = tok_is(t, ",");
			first = NULL;
			ntoks = 0;
			if (end && !tok_is(t, ","))
				break;
		} else if (tok_is(t, "(")) {
			depth++;
		} else if (tok_is(t, ")")) {
			depth--;
		} else if (in_first && depth == 0) {
			first = first ? first : t;
			ntoks++;
		}
	}
	if (t && (tok_is(t, "=") || tok_is(t, "+=")))
		for (int i = 0; i < firsts.len; i++)
			ts_add(s, firsts.items[i] ? 'a' : 'w', firsts.items[i], file, rec);
	vec_free(&firsts);
}

static void scan_file(struct session *s, int file, const struct token *t,
		      struct strbuf *rec)
{
	for (; t && t->kind != TK_EOF; t = t->next) {
		if (t->kind != TK_IDENT)
			continue;
		if (tok_is(t, "function") && is_name(t->next))
			ts_add(s, 'f', tok_name(s, t->next), file, rec);
		else if (tok_is(t, "global"))
			scan_globals(s, file, t, rec);
		else if (tok_is(t, "probe"))
			scan_alias(s, file, t, rec);
	}
}

/* The index file for the library's files as they are now, malloc'd. */
static char *index_path(struct session *s)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	uint64_t h = hash_bytes(HASH_INIT, TS_INDEX_MAGIC, sizeof(TS_INDEX_MAGIC));
	struct tapset_lib *L = s->lib;

	for (int i = 0; i < L->paths.len; i++) {
		const char *p = L->paths.items[i];
		struct stat st;

		if (stat(p, &st) < 0)
			return NULL;
		h = hash_bytes(h, p, strlen(p) + 1);
		h = hash_bytes(h, &st.st_size, sizeof(st.st_size));
		h = hash_bytes(h, &st.st_mtim, sizeof(st.st_mtim));
		h = hash_bytes(h, &st.st_ino, sizeof(st.st_ino));
	}
	if (xdg && *xdg)
		return xasprintf("%s/stap-ng/tapsets/%016" PRIx64 ".idx", xdg, h);
	return xasprintf("%s/.cache/stap-ng/tapsets/%016" PRIx64 ".idx",
			 home && *home ? home : "/tmp", h);
}

/* Lines "F PATH", then "f NAME", "g NAME", "a NAME", "w" (a wildcard alias). */
static int read_index(struct session *s, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	int file = -1, ok = -1;

	if (!path || read_file(path, &sb) < 0)
		goto out;
	line = strtok_r(sb.buf, "\n", &save);
	if (!line || strcmp(line, TS_INDEX_MAGIC))
		goto out;
	while ((line = strtok_r(NULL, "\n", &save))) {
		const char *name = line[0] && line[1] == ' ' ? line + 2 : NULL;

		if (line[0] == 'F') {
			if (!name || ++file >= s->lib->paths.len ||
			    strcmp(name, s->lib->paths.items[file]))
				goto out;
		} else if (file < 0) {
			goto out;
		} else if (line[0] == 'w' && !line[1]) {
			ts_add(s, 'w', NULL, file, NULL);
		} else if (name && strchr("fga", line[0])) {
			ts_add(s, line[0], arena_strdup(&s->arena, name), file, NULL);
		} else {
			goto out;
		}
	}
	ok = file == s->lib->paths.len - 1 ? 0 : -1;
out:
	sb_free(&sb);
	return ok;
}

/*
 * Every library change leaves an index behind: those not rewritten for a
 * week go when a new one is written (one still in use is made again).
 */
static void prune_indexes(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	time_t old = time(NULL) - 7 * 24 * 3600;

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *p;
		struct stat st;

		if (len < 4 || strcmp(e->d_name + len - 4, ".idx"))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (stat(p, &st) == 0 && st.st_mtime < old)
			unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
}

/* Scan every file (lexing only), and write the index at path; 0 or -1. */
static int build_index(struct session *s, const char *path)
{
	struct tapset_lib *L = s->lib;
	struct strbuf rec = STRBUF_INIT;
	char *dir, *tmp;

	sb_printf(&rec, "%s\n", TS_INDEX_MAGIC);
	for (int i = 0; i < L->paths.len; i++) {
		struct srcfile *f = source_load(s, L->paths.items[i]);
		struct token *t = f ? lex_file(s, f) : NULL;

		if (!t) {
			sb_free(&rec);
			return -1;
		}
		sb_printf(&rec, "F %s\n", (const char *)L->paths.items[i]);
		scan_file(s, i, t, &rec);
	}
	/* A cache that cannot be written costs the next run a scan, no more. */
	if (path) {
		dir = xstrdup(path);
		tmp = xasprintf("%s.%d", path, (int)getpid());
		*strrchr(dir, '/') = '\0';
		prune_indexes(dir);
		if (mkdir_p(dir, 0755) == 0 &&
		    (write_file(tmp, rec.buf, rec.len) < 0 || rename(tmp, path) < 0))
			unlink(tmp);
		free(dir);
		free(tmp);
	}
	sb_free(&rec);
	return 0;
}

int session_index_tapsets(struct session *s)
{
	struct tapset_lib *L = xcalloc(1, sizeof(*L));
	char *path;
	int ret = 0;

	s->lib = L;
	if (find_tapsets(s, s->tapset_dir, &L->paths) < 0)
		ret = -1;
	for (int i = 0; i < s->include_dirs.len; i++) {
		if (!is_dir(s->include_dirs.items[i])) {
			util_err("-I %s: not a directory", (char *)s->include_dirs.items[i]);
			ret = -1;
			continue;
		}
		find_tapsets(s, s->include_dirs.items[i], &L->paths);
	}
	L->tried = xcalloc((size_t)L->paths.len + 1, sizeof(*L->tried));
	L->nleft = L->paths.len;
	if (ret < 0)
		return -1;
	path = index_path(s);
	if (read_index(s, path) < 0) {
		/* Start again from empty maps: a bad file may have filled some. */
		strmap_free(&L->funcs);
		strmap_free(&L->globals);
		strmap_free(&L->aliases);
		L->alias_keys.len = 0;
		L->wild = NULL;
		ret = build_index(s, path);
	}
	free(path);
	return ret;
}

int session_tapset_count(struct session *s)
{
	return s->lib ? s->lib->paths.len : s->tapset_files.len;
}

/* Parse library file i (once); 1 if it was parsed now, -1 if it failed. */
static int ts_parse(struct session *s, int i, struct vec *added)
{
	struct tapset_lib *L = s->lib;
	struct srcfile *f;
	struct program *p;

	if (L->tried[i])
		return 0;
	L->tried[i] = true;
	L->nleft--;
	f = source_load(s, L->paths.items[i]);
	if (!f)
		return -1;
	f->is_tapset = true;
	p = arena_alloc(&s->arena, sizeof(*p));
	if (parse_file(s, f, p) < 0)
		return -1;
	vec_push(&s->tapset_files, p);
	vec_push(added, p);
	return 1;
}

static int ts_parse_refs(struct session *s, const struct ts_ref *r, struct vec *added)
{
	int ret = 0;

	for (; r; r = r->next)
		if (ts_parse(s, r->file, added) < 0)
			ret = -1;
	return ret;
}

int session_need_tapsets(struct session *s, char kind, const char *name, struct vec *added)
{
	struct tapset_lib *L = s->lib;
	int ret = 0;

	if (!L || !L->nleft)
		return 0;
	switch (kind) {
	case 'f':
		return ts_parse_refs(s, strmap_get(&L->funcs, name), added);
	case 'g':
		return ts_parse_refs(s, strmap_get(&L->globals, name), added);
	case 'a':
		ret = ts_parse_refs(s, L->wild, added);
		if (!strpbrk(name, "*?[")) {
			if (ts_parse_refs(s, strmap_get(&L->aliases, name), added) < 0)
				ret = -1;
			return ret;
		}
		for (int i = 0; i < L->alias_keys.len; i++)
			if (!fnmatch(name, L->alias_keys.items[i], 0) &&
			    ts_parse_refs(s, strmap_get(&L->aliases, L->alias_keys.items[i]),
					  added) < 0)
				ret = -1;
		return ret;
	default:
		for (int i = 0; i < L->paths.len; i++)
			if (ts_parse(s, i, added) < 0)
				ret = -1;
		return ret;
	}
}

static void free_program_vecs(struct program *p)
{
	for (struct func *f = p->funcs; f; f = f->next)
		vec_free(&f->locals);
	for (struct probe *pr = p->probes; pr; pr = pr->next)
		vec_free(&pr->locals);
	for (struct probe *pr = p->aliases; pr; pr = pr->next)
		vec_free(&pr->locals);
}

/*
 * Everything a session owns outside its arena: the vecs hanging off
 * arena objects, the session's own vecs, the preprocessor's caches.
 */
void session_free(struct session *s)
{
	int i;

	free_program_vecs(&s->user);
	for (i = 0; i < s->tapset_files.len; i++)
		free_program_vecs(s->tapset_files.items[i]);
	for (i = 0; i < s->handlers.len; i++) {
		struct probe *h = s->handlers.items[i];

		vec_free(&h->locals);	/* copies made for alias bodies */
	}
	for (i = 0; i < s->probes.len; i++) {
		struct resolved_probe *rp = s->probes.items[i];

		vec_free(&rp->locals);
		vec_free(&rp->entry_exprs);
	}
	tv_free(s);
	for (i = 0; i < s->regexes.len; i++)
		rx_free(((struct node *)s->regexes.items[i])->rx);
	vec_free(&s->regexes);
	vec_free(&s->probes);
	vec_free(&s->handlers);
	vec_free(&s->funcs);
	vec_free(&s->globals);
	vec_free(&s->tapset_files);
	if (s->lib) {
		vec_free(&s->lib->paths);
		vec_free(&s->lib->alias_keys);
		strmap_free(&s->lib->funcs);
		strmap_free(&s->lib->globals);
		strmap_free(&s->lib->aliases);
		free(s->lib->tried);
		free(s->lib);
	}
	vec_free(&s->trace_memo);
	vec_free(&s->sc_calls);
	vec_free(&s->perf_counters);
	vec_free(&s->args);
	vec_free(&s->defines);
	vec_free(&s->include_dirs);
	vec_free(&s->vm_insmod);
	vec_free(&s->sym_modules);
	vec_free(&s->user_files);
	sb_free(&s->c_code);
	pp_free(s);
	arena_free(&s->arena);
}

