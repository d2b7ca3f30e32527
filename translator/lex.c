// SPDX-License-Identifier: GPL-2.0-or-later
/* Pass 1a: turn a source file into a token list. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stap.h"

/* Longest first, so the first prefix match is the longest token. */
static const char *const puncts[] = {
	"<<<", "<<=", ">>=",
	"==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=",
	"/=", "%=", "&=", "|=", "^=", ".=", "<<", ">>", "->", "=~", "!~",
	"%(", "%?", "%:", "%)",
	"{", "}", "(", ")", "[", "]", ",", ";", ":", "?", ".", "+", "-",
	"*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=",
};

struct lexer {
	struct session *s;
	const struct srcfile *f;
	const char *p;
	int line;
	const char *line_start;
	struct token head, *tail;
	bool failed;
};

bool tok_is(const struct token *t, const char *s)
{
	return (t->kind == TK_PUNCT || t->kind == TK_IDENT) &&
	       (int)strlen(s) == t->loc.len && !memcmp(t->text, s, t->loc.len);
}

static struct srcloc here(struct lexer *lx, const char *at, int len)
{
	struct srcloc loc = {
		.file = lx->f, .line = lx->line,
		.col = (int)(at - lx->line_start) + 1, .at = at, .len = len,
	};
	return loc;
}

static struct token *add(struct lexer *lx, enum tok_kind kind,
			 const char *start, const char *end)
{
	struct token *t = arena_alloc(&lx->s->arena, sizeof(*t));

	t->kind = kind;
	t->loc = here(lx, start, (int)(end - start));
	t->text = start;
	lx->tail->next = t;
	lx->tail = t;
	return t;
}

static void error_at(struct lexer *lx, const char *at, int len,
		     const char *msg)
{
	struct srcloc loc = here(lx, at, len);

	diag_error(lx->s, &loc, "%s", msg);
	lx->failed = true;
}

/* Advance over p..end, keeping line numbers right. */
static void skip_to(struct lexer *lx, const char *end)
{
	for (; lx->p < end; lx->p++) {
		if (*lx->p == '\n') {
			lx->line++;
			lx->line_start = lx->p + 1;
		}
	}
}

static bool skip_space_and_comments(struct lexer *lx)
{
	const char *p = lx->p;

	if (*p == '\n' || isspace((unsigned char)*p)) {
		skip_to(lx, p + 1);
		return true;
	}
	if (*p == '#' || (p[0] == '/' && p[1] == '/')) {
		while (*p && *p != '\n')
			p++;
		skip_to(lx, p);
		return true;
	}
	if (p[0] == '/' && p[1] == '*') {
		const char *end = strstr(p + 2, "*/");

		if (!end) {
			error_at(lx, p, 2, "unterminated comment");
			skip_to(lx, p + strlen(p));
			return true;
		}
		skip_to(lx, end + 2);
		return true;
	}
	return false;
}

static int hexval(char c)
{
	if (isdigit((unsigned char)c))
		return c - '0';
	return tolower((unsigned char)c) - 'a' + 10;
}

/* "..." with C escapes; the token keeps the decoded bytes. */
static void lex_string(struct lexer *lx)
{
	const char *start = lx->p, *p = start + 1;
	struct strbuf sb = STRBUF_INIT;
	struct token *t;

	for (; *p != '"'; p++) {
		if (!*p || *p == '\n') {
			error_at(lx, start, 1, "unterminated string literal");
			sb_free(&sb);
			skip_to(lx, p);
			return;
		}
		if (*p != '\\') {
			sb_putc(&sb, *p);
			continue;
		}
		p++;
		switch (*p) {
		case 'n': sb_putc(&sb, '\n'); break;
		case 't': sb_putc(&sb, '\t'); break;
		case 'r': sb_putc(&sb, '\r'); break;
		case 'a': sb_putc(&sb, '\a'); break;
		case 'b': sb_putc(&sb, '\b'); break;
		case 'f': sb_putc(&sb, '\f'); break;
		case 'v': sb_putc(&sb, '\v'); break;
		case '\\': sb_putc(&sb, '\\'); break;
		case '"': sb_putc(&sb, '"'); break;
		case '\'': sb_putc(&sb, '\''); break;
		case '?': sb_putc(&sb, '?'); break;
		case 'x': {
			int v = 0, n = 0;

			while (n < 2 && isxdigit((unsigned char)p[1])) {
				v = v * 16 + hexval(*++p);
				n++;
			}
			if (!n)
				error_at(lx, p - 1, 2, "\\x used with no following hex digits");
			sb_putc(&sb, (char)v);
			break;
		}
		default:
			if (*p >= '0' && *p <= '7') {
				int v = *p - '0', n = 1;

				while (n < 3 && p[1] >= '0' && p[1] <= '7') {
					v = v * 8 + (*++p - '0');
					n++;
				}
				sb_putc(&sb, (char)v);
			} else if (*p == '\n' || !*p) {
				error_at(lx, start, 1, "unterminated string literal");
				sb_free(&sb);
				skip_to(lx, p);
				return;
			} else {
				/* Unknown escapes are kept as written, as C would warn. */
				sb_putc(&sb, '\\');
				sb_putc(&sb, *p);
			}
		}
	}
	t = add(lx, TK_STR, start, p + 1);
	t->str = arena_strndup(&lx->s->arena, sb_str(&sb), sb.len);
	t->str_len = (int)sb.len;
	sb_free(&sb);
	skip_to(lx, p + 1);
}

static size_t min_len(ptrdiff_t a, size_t b)
{
	return (size_t)a < b ? (size_t)a : b;
}

static void lex_number(struct lexer *lx)
{
	const char *start = lx->p, *p = start;
	unsigned long long v;
	char *end;
	struct token *t;

	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	errno = 0;
	v = strtoull(start, &end, 0);
	if (end != p || errno) {
		char msg[128];

		/* Say which: a typo and a too-large constant want different fixes. */
		if (end == p)
			snprintf(msg, sizeof(msg), "number '%.*s' does not fit in 64 bits",
				 (int)min_len(p - start, 40), start);
		else
			snprintf(msg, sizeof(msg), "invalid number '%.*s'",
				 (int)min_len(p - start, 40), start);
		error_at(lx, start, (int)(p - start), msg);
		v = 0;
	}
	t = add(lx, TK_NUM, start, p);
	t->num = (int64_t)v;
	skip_to(lx, p);
}

/* %{ ... %}: the C code between the markers, verbatim. */
static void lex_embedded(struct lexer *lx)
{
	const char *start = lx->p, *end = strstr(start + 2, "%}");
	struct token *t;

	if (!end) {
		error_at(lx, start, 2, "unterminated embedded C block: no %}");
		skip_to(lx, start + strlen(start));
		return;
	}
	t = add(lx, TK_EMBEDDED, start, end + 2);
	t->loc.len = 2;
	t->str = arena_strndup(&lx->s->arena, start + 2, end - start - 2);
	skip_to(lx, end + 2);
}

/* $name, $$vars, $var$$, $1, $#, and the same with @. */
static void lex_sigil(struct lexer *lx)
{
	const char *start = lx->p, *p = start + 1;
	struct token *t;

	if (*p == '#') {
		add(lx, TK_ARGC, start, p + 1);
		skip_to(lx, p + 1);
		return;
	}
	if (isdigit((unsigned char)*p)) {
		/* An argument number ends at its last digit: "@2name" is @2
		 * and then a name, as in SystemTap (preprocess.c pastes an
		 * identifier right after $N onto its text). */
		while (isdigit((unsigned char)*p))
			p++;
		t = add(lx, *start == '$' ? TK_DOLLAR : TK_AT, start, p);
		t->str = arena_strndup(&lx->s->arena, start + 1, p - start - 1);
		skip_to(lx, p);
		return;
	}
	if (*start == '$')
		while (*p == '$')
			p++;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	if (*start == '$')
		while (*p == '$')
			p++;
	/* A bare "$" or "$$" ends a member chain: $p->x$ pretty-prints. */
	if (*start == '$' && p > start && p[-1] == '$' &&
	    !isalnum((unsigned char)start[1]) && start[1] != '_' &&
	    (p == start + 1 || (p == start + 2 && start[1] == '$'))) {
		add(lx, TK_PUNCT, start, p);
		skip_to(lx, p);
		return;
	}
	if (p == start + 1) {
		error_at(lx, start, 1, *start == '$' ?
			 "'$' must be followed by a target variable name or argument number" :
			 "'@' must be followed by a name or argument number");
		skip_to(lx, p);
		return;
	}
	t = add(lx, *start == '$' ? TK_DOLLAR : TK_AT, start, p);
	t->str = arena_strndup(&lx->s->arena, start + 1, p - start - 1);
	skip_to(lx, p);
}

struct token *lex_file(struct session *s, const struct srcfile *f)
{
	struct lexer lx = { .s = s, .f = f, .p = f->text, .line = 1,
			    .line_start = f->text };
	size_t i;

	lx.tail = &lx.head;
	/* A "#!" first line is a comment like any other '#' line. */
	while (*lx.p) {
		const char *p = lx.p;

		if (skip_space_and_comments(&lx))
			continue;
		if (*p == '"') {
			lex_string(&lx);
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			lex_number(&lx);
			continue;
		}
		if (isalpha((unsigned char)*p) || *p == '_') {
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			add(&lx, TK_IDENT, lx.p, p);
			skip_to(&lx, p);
			continue;
		}
		if (*p == '$' || *p == '@') {
			lex_sigil(&lx);
			continue;
		}
		if (p[0] == '%' && p[1] == '{') {
			lex_embedded(&lx);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(puncts); i++) {
			size_t n = strlen(puncts[i]);

			if (!strncmp(p, puncts[i], n)) {
				add(&lx, TK_PUNCT, p, p + n);
				skip_to(&lx, p + n);
				break;
			}
		}
		if (i == ARRAY_SIZE(puncts)) {
			char msg[64];

			/* Name it: a stray quote or backtick is easy to miss. */
			snprintf(msg, sizeof(msg), isprint((unsigned char)*p) ?
				 "unexpected character '%c'" :
				 "unexpected non-printable character (byte 0x%02x)",
				 (unsigned char)*p);
			error_at(&lx, p, 1, msg);
			skip_to(&lx, p + 1);
		}
	}
	add(&lx, TK_EOF, lx.p, lx.p);
	return lx.failed ? NULL : lx.head.next;
}

struct srcfile *source_from_string(struct session *s, const char *name,
				   const char *text)
{
	struct srcfile *f = arena_alloc(&s->arena, sizeof(*f));

	f->name = arena_strdup(&s->arena, name);
	f->len = strlen(text);
	f->text = arena_strndup(&s->arena, text, f->len);
	return f;
}

struct srcfile *source_load(struct session *s, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct srcfile *f;
	int ret = read_file(path, &sb);

	if (ret < 0) {
		util_err("cannot read script file '%s': %s", path,
			 strerror(-ret));
		sb_free(&sb);
		return NULL;
	}
	if (memchr(sb_str(&sb), '\0', sb.len)) {
		util_err("script file '%s' contains a NUL byte: is it a script?",
			 path);
		sb_free(&sb);
		return NULL;
	}
	f = source_from_string(s, path, sb_str(&sb));
	sb_free(&sb);
	return f;
}
