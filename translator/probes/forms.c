// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probe-point forms each family declares (probe_family.forms) and
 * the one matcher of wildcard points against them: "probe process.*"
 * stands for process.begin, process.end, process.syscall, ..., each of
 * which then goes to its family as if the script had written it out.
 *
 * A form is written as stapprobes(3stap) writes them: components joined
 * by '.'; NAME(S) takes a string, NAME(N) a number, NAME(S|N) either,
 * NAME[(S)] may take one;
 * [X] is optional and {X|Y} a choice, and both nest:
 * "kernel.function(S)[.call|.return[.maxactive(N)]]".  What an argument
 * holds stays the family's business.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"

enum { FA_NONE, FA_NEEDED, FA_OPTIONAL };

struct form_comp {
	char *name;
	int arg;		/* FA_* */
	char type;		/* the argument: 'S' a string, 'N' a number, '*' either */
};

struct form {
	int n;
	struct form_comp *c;
	bool listed_only;	/* its family's probe_family.listed_only */
};

static struct vec all_forms;	/* struct form *: every family's, once per process */

/* The end of the bracket that opens at p ([, { or (), or NULL. */
static const char *closing(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (strchr("[{(", *p))
			depth++;
		else if (strchr("]})", *p) && --depth == 0)
			return p;
	}
	return NULL;
}

/* A group [...] or {...}, not an optional argument [(...)]. */
static const char *first_group(const char *f)
{
	for (const char *p = f; *p; p++) {
		if (*p == '{' || (*p == '[' && p[1] != '('))
			return p;
		if (*p == '[')	/* an optional argument: skip it whole */
			p = closing(p) ? closing(p) : p;
	}
	return NULL;
}

/* Every plain form f stands for, malloc'd, onto out. */
static void expand(const char *f, struct vec *out)
{
	const char *g = first_group(f), *end, *alt;

	if (!g) {
		vec_push(out, xstrdup(f));
		return;
	}
	end = closing(g);
	if (!end)
		util_die("probe form '%s': unbalanced '%c'", f, *g);
	if (*g == '[') {
		char *without = xasprintf("%.*s%s", (int)(g - f), f, end + 1);

		expand(without, out);
		free(without);
	}
	/* Each alternative between the brackets, split at '|' of this level. */
	for (alt = g + 1; alt < end;) {
		const char *p = alt;
		char *with;

		while (p < end && *p != '|')
			p = strchr("[{(", *p) ? closing(p) + 1 : p + 1;
		with = xasprintf("%.*s%.*s%s", (int)(g - f), f, (int)(p - alt), alt, end + 1);
		expand(with, out);
		free(with);
		alt = p + 1;
	}
}

static struct form *parse_form(const char *text)
{
	struct form *fm = xcalloc(1, sizeof(*fm));
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, ".([");
		struct form_comp *c;

		fm->c = xrealloc(fm->c, (size_t)(fm->n + 1) * sizeof(*fm->c));
		c = &fm->c[fm->n++];
		c->name = xstrndup(p, len);
		c->arg = FA_NONE;
		p += len;
		c->type = '*';
		if (*p == '(' || *p == '[') {
			const char *a = *p == '(' ? p + 1 : p + 2;

			c->arg = *p == '(' ? FA_NEEDED : FA_OPTIONAL;
			if ((*a == 'S' || *a == 'N') && a[1] == ')')
				c->type = *a;
			p = closing(p) + 1;
		}
		if (*p == '.')
			p++;
	}
	return fm;
}

static void load_forms(void)
{
	if (all_forms.len)
		return;
	for (int i = 0; i < pf_nfamilies; i++) {
		const char *const *f = pf_families[i]->forms;

		for (; f && *f; f++) {
			struct vec plain = VEC_INIT;

			expand(*f, &plain);
			for (int k = 0; k < plain.len; k++) {
				struct form *fm = parse_form(plain.items[k]);

				fm->listed_only = pf_families[i]->listed_only;
				vec_push(&all_forms, fm);
				free(plain.items[k]);
			}
			vec_free(&plain);
		}
	}
}

static bool form_matches(const struct form *fm, const struct pp_comp *u)
{
	int i;

	for (i = 0; i < fm->n && u; i++, u = u->next) {
		if (fnmatch(u->name, fm->c[i].name, 0))
			return false;
		if (u->arg ? fm->c[i].arg == FA_NONE : fm->c[i].arg == FA_NEEDED)
			return false;
		if (u->arg && ((fm->c[i].type == 'S' && u->arg->kind == ND_NUM) ||
			       (fm->c[i].type == 'N' && u->arg->kind == ND_STR)))
			return false;
	}
	return i == fm->n && !u;
}

int pf_form_points(struct session *s, const struct probe_point *pt, struct vec *out)
{
	struct vec seen = VEC_INIT;	/* the texts pushed */

	load_forms();
	for (int i = 0; i < all_forms.len; i++) {
		const struct form *fm = all_forms.items[i];
		struct probe_point *q;
		struct pp_comp **tail;
		const struct pp_comp *u;
		const char *text;
		int k;

		if (fm->listed_only || !form_matches(fm, pt->comps))
			continue;
		q = arena_alloc(&s->arena, sizeof(*q));
		*q = *pt;
		q->next = NULL;
		tail = &q->comps;
		for (u = pt->comps, k = 0; u; u = u->next, k++) {
			*tail = arena_alloc(&s->arena, sizeof(**tail));
			**tail = *u;
			(*tail)->name = fm->c[k].name;
			(*tail)->next = NULL;
			tail = &(*tail)->next;
		}
		/* Two families may declare one form: it is still one point. */
		text = pf_point_text(s, q);
		for (k = 0; k < seen.len && strcmp(seen.items[k], text); k++)
			;
		if (k < seen.len)
			continue;
		vec_push(&seen, (void *)text);
		vec_push(out, q);
	}
	vec_free(&seen);
	return out->len;
}

void pf_form_texts(struct session *s, const struct probe_point *pt, struct vec *out)
{
	int n = 0;

	for (const struct pp_comp *u = pt->comps; u; u = u->next)
		n++;
	load_forms();
	for (int i = 0; i < all_forms.len; i++) {
		const struct form *fm = all_forms.items[i];
		const struct pp_comp *u = pt->comps;
		struct strbuf sb = STRBUF_INIT;

		if (fm->n != n || fm->listed_only)
			continue;
		for (int k = 0; k < n; k++, u = u->next) {
			const struct form_comp *c = &fm->c[k];

			sb_printf(&sb, "%s%s", k ? "." : "", c->name);
			if (c->arg == FA_NONE || (c->arg == FA_OPTIONAL && !u->arg))
				continue;
			sb_putc(&sb, '(');
			if (u->arg)
				ast_print_expr(&sb, u->arg);
			else
				sb_puts(&sb, c->type == 'N' ? "N" : "\"...\"");
			sb_putc(&sb, ')');
		}
		vec_push(out, arena_strdup(&s->arena, sb_str(&sb)));
		sb_free(&sb);
	}
}

/* Each plain form with (string)/(number) for its arguments, once per argument type. */
static void list_form(const struct form *fm, int k, struct strbuf *sb, struct vec *out)
{
	size_t len = sb->len, named;
	const struct form_comp *c;

	if (k == fm->n) {
		vec_push(out, xstrdup(sb_str(sb)));
		return;
	}
	c = &fm->c[k];
	sb_printf(sb, "%s%s", k ? "." : "", c->name);
	named = sb->len;
	/* Each variant appends to the name (and so terminates the text again). */
	if (c->arg != FA_NEEDED)
		list_form(fm, k + 1, sb, out);
	if (c->arg != FA_NONE && c->type != 'N') {
		sb->len = named;
		sb_puts(sb, "(string)");
		list_form(fm, k + 1, sb, out);
	}
	if (c->arg != FA_NONE && c->type != 'S') {
		sb->len = named;
		sb_puts(sb, "(number)");
		list_form(fm, k + 1, sb, out);
	}
	sb->len = len;
	sb->buf[len] = 0;
}

void pf_form_list(struct vec *out)
{
	struct strbuf sb = STRBUF_INIT;

	load_forms();
	for (int i = 0; i < all_forms.len; i++) {
		sb_reset(&sb);
		list_form(all_forms.items[i], 0, &sb, out);
	}
	sb_free(&sb);
}
