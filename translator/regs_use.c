// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which probe handlers read no register beyond those x86-64's
 * ftrace_caller saves for an ftrace_ops without FTRACE_OPS_FL_SAVE_REGS:
 * ax, cx, dx, si, di, r8, r9, bp, sp and ip (cs is 0, so user_mode() is
 * false).  runtime/fentry.c runs those on the cheaper ops
 * (stp_probe.args_regs); any other handler gets full pt_regs.
 *
 * Decided on the emitted C (less comments, literals and #line lines),
 * where every register read shows, and conservatively: a handler is cleared only when neither its code nor
 * any function it calls (func_N(c), transitively) can read another one.
 *  - Target variables read registers as STP_TV_REG(c, NAME).
 *  - The tapset's embedded C reaches other registers only through
 *    _stp_register() (register(), u_register()), _stp_print_regs()
 *    (print_regs()) or a field of the regs (regs->); the runtime
 *    helpers it calls otherwise (_stp_arg, _stp_stack, _stp_probe_addr,
 *    returnval's regs_return_value) read only saved ones.
 *  - Any other code naming "regs" (a guru script's embedded C, writes
 *    to target variables held in registers) may read anything.
 */
#include <stdlib.h>
#include <string.h>

#include "stap.h"
#include "emit.h"

static const char *const saved_regs[] = {
	"ax", "cx", "dx", "si", "di", "r8", "r9", "bp", "sp", "ip",
};

/* Every STP_TV_REG(c, NAME) in [p, end) names a saved register. */
static bool tv_regs_saved(const char *p, const char *end)
{
	static const char tag[] = "STP_TV_REG(c, ";

	while ((p = memmem(p, (size_t)(end - p), tag, sizeof(tag) - 1))) {
		const char *name = p += sizeof(tag) - 1;
		bool ok = false;

		while (p < end && *p != ')')
			p++;
		for (size_t i = 0; i < ARRAY_SIZE(saved_regs) && !ok; i++)
			ok = strlen(saved_regs[i]) == (size_t)(p - name) &&
			     !memcmp(saved_regs[i], name, (size_t)(p - name));
		if (!ok)
			return false;
	}
	return true;
}

static bool has(const char *p, const char *end, const char *what)
{
	return memmem(p, (size_t)(end - p), what, strlen(what)) != NULL;
}

/* The tapset's embedded C: see the header comment. */
static bool tapset_c_ok(const char *p, const char *end)
{
	return !has(p, end, "_stp_register") && !has(p, end, "_stp_print_regs") &&
	       !has(p, end, "regs->");
}

/* Code we did not write: naming the regs at all may read any of them. */
static bool other_c_ok(const char *p, const char *end)
{
	return !has(p, end, "regs") && tv_regs_saved(p, end);
}

struct regs_use {
	struct session *s;
	const char *code;
	const size_t (*fspan)[2];
	int maxid;
	int *index;			/* by function id: its s->funcs index, or -1 */
	signed char *fok;		/* by index: -1 unknown, 0, 1; 2 visiting */
	char *clean;			/* scratch for strip() */
	size_t cap;
};

/*
 * A copy of [p, end) without comments, string and character literals
 * and #line lines, whose file names and text are no code (a script
 * named regs.stp).
 */
static const char *strip(struct regs_use *R, const char *p, const char *end)
{
	size_t n = 0;
	bool bol = true;

	if (R->cap < (size_t)(end - p) + 1) {
		free(R->clean);
		R->cap = (size_t)(end - p) + 1;
		R->clean = xmalloc(R->cap);
	}
	while (p < end) {
		if (bol && !strncmp(p, "#line ", 6)) {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		bol = *p == '\n';
		/* Comments first: an apostrophe in one opens no literal. */
		if (p + 1 < end && p[0] == '/' && (p[1] == '*' || p[1] == '/')) {
			const char *stop = p[1] == '*' ? "*/" : "\n";
			const char *q = memmem(p + 2, (size_t)(end - p - 2), stop, strlen(stop));

			p = q ? q + strlen(stop) : end;
			R->clean[n++] = ' ';
			bol = stop[0] == '\n';
			continue;
		}
		if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (p < end && *p != q && *p != '\n')
				p += *p == '\\' && p + 1 < end ? 2 : 1;
			p++;
			R->clean[n++] = ' ';
			continue;
		}
		R->clean[n++] = *p++;
	}
	R->clean[n] = '\0';
	return R->clean;
}

static bool span_ok(struct regs_use *R, const char *p, const char *end, bool tapset);

static bool func_ok(struct regs_use *R, long id)
{
	int i = id >= 0 && id <= R->maxid ? R->index[id] : -1;
	struct func *f;

	if (i < 0)
		return false;
	f = R->s->funcs.items[i];
	if (R->fok[i] == 2)	/* recursion: decided by the outer visit */
		return true;
	if (R->fok[i] < 0) {
		R->fok[i] = 2;
		R->fok[i] = span_ok(R, R->code + R->fspan[i][0], R->code + R->fspan[i][1],
				    f->body->kind == ND_EMBEDDED && f->file && f->file->is_tapset);
	}
	return R->fok[i];
}

/* [p, end) and every function it calls. */
static bool span_ok(struct regs_use *R, const char *p, const char *end, bool tapset)
{
	static const char call[] = "func_";
	char *text;
	bool ok = true;

	/* Its own copy: the calls below reuse R->clean. */
	text = xstrdup(strip(R, p, end));
	p = text;
	end = text + strlen(text);
	if (!(tapset ? tapset_c_ok(p, end) : other_c_ok(p, end)))
		ok = false;
	while (ok && (p = memmem(p, (size_t)(end - p), call, sizeof(call) - 1))) {
		char *after;
		long id;

		p += sizeof(call) - 1;
		id = strtol(p, &after, 10);
		if (after != p && *after == '(')
			ok = func_ok(R, id);
	}
	free(text);
	return ok;
}

void regs_use_mark(struct session *s, const char *code, const size_t (*fspan)[2],
		   const size_t (*hspan)[2], bool *args_regs)
{
	struct regs_use R = { .s = s, .code = code, .fspan = fspan };
	const struct node *e;
	int i;

	memset(args_regs, 0, (size_t)s->handlers.len * sizeof(*args_regs));
	/* A guru script's top-level C may hold helpers reading the regs. */
	for (e = s->user.embedded; e; e = e->next)
		if (strstr(e->str, "regs"))
			return;
	R.maxid = -1;
	for (i = 0; i < s->funcs.len; i++) {
		struct func *f = s->funcs.items[i];

		if (f->id > R.maxid)
			R.maxid = f->id;
	}
	R.index = xmalloc(((size_t)R.maxid + 1) * sizeof(*R.index) + 1);
	memset(R.index, -1, ((size_t)R.maxid + 1) * sizeof(*R.index));
	for (i = 0; i < s->funcs.len; i++)
		R.index[((struct func *)s->funcs.items[i])->id] = i;
	R.fok = xmalloc((size_t)s->funcs.len + 1);
	memset(R.fok, -1, (size_t)s->funcs.len + 1);
	for (i = 0; i < s->handlers.len; i++)
		args_regs[i] = span_ok(&R, code + hspan[i][0], code + hspan[i][1], false);
	free(R.fok);
	free(R.index);
	free(R.clean);
}
