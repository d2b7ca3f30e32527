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

static bool use_color(void)
{
	static int color = -1;

	if (color < 0) {
		const char *t = getenv("TERM");

		color = isatty(2) && t && strcmp(t, "dumb") && !getenv("NO_COLOR");
	}
	return color;
}

static void show_line(const struct srcloc *loc)
{
	const char *text = loc->file->text;
	const char *start = loc->at, *end = loc->at;
	int i, width;

	while (start > text && start[-1] != '\n')
		start--;
	while (*end && *end != '\n')
		end++;
	/* Built whole, then written once: stderr is unbuffered. */
	struct strbuf sb = STRBUF_INIT;

	sb_add(&sb, start, (size_t)(end - start));
	sb_putc(&sb, '\n');
	/* Keep tabs so the caret lines up under tabbed source. */
	for (const char *p = start; p < loc->at; p++)
		sb_putc(&sb, *p == '\t' ? '\t' : ' ');
	width = loc->len > 0 ? loc->len : 1;
	if (loc->at + width > end)
		width = end > loc->at ? (int)(end - loc->at) : 1;
	if (use_color())
		sb_puts(&sb, "\033[1;32m");
	sb_putc(&sb, '^');
	for (i = 1; i < width; i++)
		sb_putc(&sb, '~');
	if (use_color())
		sb_puts(&sb, "\033[0m");
	sb_putc(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, stderr);
	sb_free(&sb);
}

static void report(const struct srcloc *loc, const char *what,
		   const char *color, const char *fmt, va_list ap)
{
	if (loc && loc->file)
		fprintf(stderr, "%s:%d:%d: ", loc->file->name, loc->line,
			loc->col);
	else
		fprintf(stderr, "%s: ", util_progname);
	if (use_color())
		fprintf(stderr, "\033[1;%sm%s:\033[0m ", color, what);
	else
		fprintf(stderr, "%s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	if (loc && loc->file && loc->at)
		show_line(loc);
}

void diag_error(struct session *s, const struct srcloc *loc,
		const char *fmt, ...)
{
	va_list ap;

	s->diag_muted = s->diag_quiet > 0;	/* its notes and hints too */
	if (s->diag_muted)
		return;
	va_start(ap, fmt);
	report(loc, "error", "31", fmt, ap);
	va_end(ap);
	s->errors++;
}

void diag_warn(struct session *s, const struct srcloc *loc,
	       const char *fmt, ...)
{
	va_list ap;

	/* -w: no warning, nor the notes and hints that follow it. */
	s->diag_muted = s->no_warnings;
	if (s->diag_muted)
		return;
	va_start(ap, fmt);
	report(loc, "warning", "35", fmt, ap);
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
	report(loc, "note", "36", fmt, ap);
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
