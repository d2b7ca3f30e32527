// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A translation session's library and lifetime: loading the tapsets and
 * freeing everything the session owns, so that a long-lived process (the
 * compile server, the fuzzer) can run one session after another.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	vec_free(&s->trace_memo);
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

