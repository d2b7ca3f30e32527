// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diagnostics: "file:line:col: error: msg", the source line, and a caret
 * line under the spot, so that every message can be acted on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stap.h"

/* TEXT painted with the color of KEY (util_color), if any. */
static void paint(struct strbuf *sb, const char *key, const char *text,
		  size_t len)
{
	const char *c = util_color(key);

	if (c)
		sb_printf(sb, "\033[%sm", c);
	sb_add(sb, text, len);
	if (c)
		sb_puts(sb, "\033[0m");
}

static void show_line(const struct srcloc *loc)
{
	const char *text = loc->file->text;
	const char *start = loc->at, *end = loc->at;
	struct strbuf sb = STRBUF_INIT, caret = STRBUF_INIT;
	int i, width;

	while (start > text && start[-1] != '\n')
		start--;
	while (*end && *end != '\n')
		end++;
	width = loc->len > 0 ? loc->len : 1;
	if (loc->at + width > end)
		width = end > loc->at ? (int)(end - loc->at) : 1;
	/* Built whole, then written once: stderr is unbuffered. */
	paint(&sb, "source", start, (size_t)(loc->at - start));
	if (loc->at < end) {
		size_t tok = (size_t)width < (size_t)(end - loc->at) ? (size_t)width :
			     (size_t)(end - loc->at);

		paint(&sb, "token", loc->at, tok);
		paint(&sb, "source", loc->at + tok, (size_t)(end - loc->at) - tok);
	}
	sb_putc(&sb, '\n');
	/* Keep tabs so the caret lines up under tabbed source. */
	for (const char *p = start; p < loc->at; p++)
		sb_putc(&sb, *p == '\t' ? '\t' : ' ');
	sb_putc(&caret, '^');
	for (i = 1; i < width; i++)
		sb_putc(&caret, '~');
	paint(&sb, "caret", caret.buf, caret.len);
	sb_putc(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, stderr);
	sb_free(&sb);
	sb_free(&caret);
}

static void report(const struct srcloc *loc, const char *what,
		   const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	if (loc && loc->file)
		fprintf(stderr, "%s:%d:%d: ", loc->file->name, loc->line,
			loc->col);
	else
		fprintf(stderr, "%s: ", util_progname);
	paint(&sb, what, what, strlen(what));
	fprintf(stderr, "%s: ", sb.buf);
	sb_free(&sb);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	if (loc && loc->file && loc->at)
		show_line(loc);
}

static void verror(struct session *s, const struct srcloc *loc, const char *fmt,
		   va_list ap)
{
	s->diag_muted = s->diag_quiet > 0;	/* its notes and hints too */
	if (s->diag_muted)
		return;
	report(loc, "error", fmt, ap);
	s->errors++;
}

void diag_error(struct session *s, const struct srcloc *loc,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(s, loc, fmt, ap);
	va_end(ap);
}

void diag_warn(struct session *s, const struct srcloc *loc,
	       const char *fmt, ...)
{
	va_list ap;

	/* -W: every warning is an error, which -w does not hide. */
	if (s->warnings_are_errors) {
		va_start(ap, fmt);
		verror(s, loc, fmt, ap);
		va_end(ap);
		return;
	}
	/* -w: no warning, nor the notes and hints that follow it. */
	s->diag_muted = s->no_warnings;
	if (s->diag_muted)
		return;
	va_start(ap, fmt);
	report(loc, "warning", fmt, ap);
	va_end(ap);
	s->warnings++;
}

void diag_note(struct session *s, const struct srcloc *loc,
	       const char *fmt, ...)
{
	va_list ap;

	if (s->diag_muted)
		return;
	va_start(ap, fmt);
	report(loc, "note", fmt, ap);
	va_end(ap);
}

void diag_hint(struct session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->diag_muted)
		return;
	fputs("hint: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Levenshtein distance, capped: only small distances matter here. */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *row, i, j, d;

	if (la > 64 || lb > 64)
		return 99;
	row = xmalloc((lb + 1) * sizeof(int));
	for (j = 0; j <= (int)lb; j++)
		row[j] = j;
	for (i = 1; i <= (int)la; i++) {
		int prev = row[0];

		row[0] = i;
		for (j = 1; j <= (int)lb; j++) {
			int cur = row[j];
			int cost = a[i - 1] != b[j - 1];

			d = prev + cost;
			if (row[j] + 1 < d)
				d = row[j] + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			row[j] = d;
			prev = cur;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

const char *diag_closest(const char *word, const char *const *cands, int n)
{
	const char *best = NULL;
	int best_d = 99, i;
	int limit = strlen(word) < 4 ? 1 : strlen(word) < 8 ? 2 : 3;

	for (i = 0; i < n; i++) {
		int d = edit_distance(word, cands[i]);

		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
