// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --privilege=stapusr|stapsys (man stap, UNPRIVILEGED USERS): after
 * pass 2, refuse what the level does not allow.  Both levels refuse
 * guru mode and embedded C in the script (main.c and the parser do).
 * stapusr also refuses:
 *
 *   - probe points other than begin, end, error, never, process.* and
 *     timer.{jiffies,s,sec,ms,msec,us,usec,ns,nsec,hz}(N), whatever alias
 *     led to them;
 *   - tapset functions in embedded C not marked unprivileged
 *     ("unprivileged" or "myproc-unprivileged" in the code's comment);
 *   - reading kernel memory: target variables, @cast and @var outside
 *     process probes, and those naming the kernel or a kernel module
 *     anywhere (a user program's path is allowed).
 *
 * This is the translator's half.  The runtime's (staprun letting
 * members of stapusr load modules a trusted server signed, myproc
 * functions refusing other users' processes) is not built: staprun
 * needs root, so a module built this way is run by root.
 */
#include <string.h>

#include "stap.h"
#include "probes/probes.h"

extern const struct probe_family pf_uprobe, pf_utask;

const char *const priv_names[] = {
	[PRIV_STAPDEV] = "stapdev", [PRIV_STAPSYS] = "stapsys", [PRIV_STAPUSR] = "stapusr",
};

/* Whether the len bytes at word are one of the n words of list. */
static bool one_of(const char *word, size_t len, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncmp(word, list[i], len))
			return true;
	return false;
}

/* stapusr's probe points, by their first component and a timer's unit. */
bool priv_form_allowed(const char *form)
{
	static const char *const firsts[] = { "begin", "end", "error", "never", "process" };
	static const char *const units[] = { "jiffies", "s", "sec", "ms", "msec", "us",
					     "usec", "ns", "nsec", "hz" };

	if (one_of(form, strcspn(form, ".("), firsts, ARRAY_SIZE(firsts)))
		return true;
	return !strncmp(form, "timer.", 6) &&
	       one_of(form + 6, strcspn(form + 6, ".("), units, ARRAY_SIZE(units));
}

/* Where a construct reads: 1 if kernel memory (see above). */
static bool reads_kernel(const struct node *n, bool in_process)
{
	const struct node *mod;

	switch (n->kind) {
	case ND_TARGET:
		return !in_process;
	case ND_CAST:
	case ND_ATVAR:
		/* The module: @cast's third argument, @var's second. */
		mod = n->kind == ND_CAST ? (n->args && n->args->next ? n->args->next->next : NULL)
					 : (n->args ? n->args->next : NULL);
		if (!mod || mod->kind != ND_STR)
			return !in_process;
		/* A user file by path; <header.h> types read where the probe is. */
		if (mod->str[0] == '<')
			return !in_process;
		return mod->str[0] != '/';
	default:
		return false;
	}
}

struct priv_walk {
	struct session *s;
	const char *level;
	bool in_process;
	struct vec seen;	/* struct func *: checked already */
	int errors;
};

static void walk(struct priv_walk *w, const struct node *n);

static void check_func(struct priv_walk *w, struct func *fn)
{
	bool saved = w->in_process;

	for (int i = 0; i < w->seen.len; i++)
		if (w->seen.items[i] == fn)
			return;
	vec_push(&w->seen, fn);
	if (fn->body->kind == ND_EMBEDDED) {
		if (!fn->unprivileged) {
			diag_error(w->s, &fn->loc, "function '%s' may not be used with "
				   "--privilege=%s: it is not marked unprivileged", fn->name,
				   w->level);
			w->errors++;
		}
		return;
	}
	/* A function may be called from any probe: only user paths are safe in it. */
	w->in_process = false;
	walk(w, fn->body);
	w->in_process = saved;
}

static void walk(struct priv_walk *w, const struct node *n)
{
	for (; n; n = n->next) {
		if (reads_kernel(n, w->in_process)) {
			diag_error(w->s, &n->loc, "kernel memory may not be read with "
				   "--privilege=%s", w->level);
			w->errors++;
			continue;
		}
		if (n->kind == ND_CALL && n->func)
			check_func(w, n->func);
		walk(w, n->lhs);
		walk(w, n->rhs);
		walk(w, n->cond);
		walk(w, n->then);
		walk(w, n->els);
		walk(w, n->init);
		walk(w, n->step);
		walk(w, n->body);
		walk(w, n->args);
		walk(w, n->limit);
		walk(w, n->array);
		walk(w, n->value);
		for (const struct member *m = n->members; m; m = m->next)
			walk(w, m->index);
	}
}

int priv_check(struct session *s)
{
	struct priv_walk w = { .s = s, .level = priv_names[s->privilege] };
	int i;

	if (s->privilege != PRIV_STAPUSR)
		return 0;
	for (i = 0; i < s->probes.len; i++) {
		struct resolved_probe *rp = s->probes.items[i];

		/* The resolved point's own text: an alias is judged by what it stands for. */
		if (priv_form_allowed(rp->pp))
			continue;
		diag_error(s, &rp->point->loc, "probe point %s is not allowed with "
			   "--privilege=%s", rp->pp, w.level);
		diag_hint(s, "stapusr may use begin, end, error, never, process.* and "
			  "timer.{jiffies,s,ms,us,ns,hz}(N) probes");
		return -1;
	}
	for (i = 0; i < s->probes.len; i++) {
		struct resolved_probe *rp = s->probes.items[i];

		w.in_process = rp->family == &pf_uprobe || rp->family == &pf_utask;
		walk(&w, rp->body);
	}
	vec_free(&w.seen);
	return w.errors ? -1 : 0;
}
