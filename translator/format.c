// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * printf formats: checked at translation time and turned into the
 * kernel's vsnprintf dialect by emit.c, so the module does no format
 * parsing of its own.
 */
#include <ctype.h>
#include <string.h>

#include "stap.h"

static const char supported[] = "diuxXocspbmM";

/*
 * report: say what is wrong.  sem's early passes parse quietly, to type
 * the arguments from their conversions before the final pass checks.
 */
struct fmt *fmt_parse(struct session *s, const struct node *lit, bool report)
{
	struct fmt *f = arena_alloc(&s->arena, sizeof(*f));
	struct vec convs = VEC_INIT;
	struct strbuf text = STRBUF_INIT;
	const char *p = lit->str, *end = lit->str + lit->str_len;
	int i;

	while (p < end) {
		struct fmt_conv *cv;
		int nf = 0;

		if (*p != '%') {
			/* The kernel's vsnprintf sees this text as a format. */
			sb_putc(&text, *p++);
			continue;
		}
		if (p + 1 < end && p[1] == '%') {
			sb_puts(&text, "%%");
			p += 2;
			continue;
		}
		cv = arena_alloc(&s->arena, sizeof(*cv));
		cv->lit = arena_strdup(&s->arena, sb_str(&text));
		sb_reset(&text);
		p++;
		/*
		 * SystemTap takes one flag of - + space # 0, and a 0 after
		 * another flag starts the width: "%+08p" pads with spaces,
		 * "%0-5d" and "%-+d" are errors.
		 */
		if (p < end && strchr("-+ #0", *p))
			cv->flags[nf++] = *p++;
		cv->width = cv->prec = -1;
		if (p < end && *p == '*') {
			cv->width = -2;
			p++;
			f->nargs++;
		} else if (p < end && isdigit((unsigned char)*p)) {
			cv->width = 0;
			while (p < end && isdigit((unsigned char)*p))
				cv->width = cv->width * 10 + (*p++ - '0');
		}
		if (p < end && *p == '.') {
			p++;
			cv->prec = 0;
			if (p < end && *p == '*') {
				cv->prec = -2;
				p++;
				f->nargs++;
			} else {
				while (p < end && isdigit((unsigned char)*p))
					cv->prec = cv->prec * 10 + (*p++ - '0');
			}
		}
		/* SystemTap accepts one 'l' and ignores it ("%ld"), no other length. */
		if (p < end && *p == 'l')
			p++;
		if (p >= end) {
			if (!report)
				goto fail;
			diag_error(s, &lit->loc, "format string ends in the middle of a conversion");
			goto fail;
		}
		if (!strchr(supported, *p)) {
			if (!report)
				goto fail;
			diag_error(s, &lit->loc, "invalid format conversion '%%%c'", *p);
			if (strchr("-+ #0", *p))
				diag_hint(s, "a conversion takes one flag of '-', '+', ' ', '#' or '0' (\"%%-8x\", \"%%08x\")");
			else if (strchr("hlLjzt", *p))
				diag_hint(s, "the only length modifier is one 'l' (\"%%ld\"), and it changes nothing");
			else
				diag_hint(s, "conversions: %%d %%i %%u %%x %%X %%o %%c %%s %%p %%b %%m %%M %%%%");
			goto fail;
		}
		cv->conv = *p++;
		if (cv->conv == 'b' && cv->width > 0 && cv->width != 1 && cv->width != 2 &&
		    cv->width != 4 && cv->width != 8) {
			if (report)
				diag_error(s, &lit->loc, "%%b writes 1, 2, 4 or 8 bytes, not %d", cv->width);
			goto fail;
		}
		/* %b, %m and %M write bytes, not text: printf only. */
		f->has_binary |= cv->conv == 'b' || cv->conv == 'm' || cv->conv == 'M';
		f->nargs++;
		vec_push(&convs, cv);
	}
	struct fmt_conv *last = arena_alloc(&s->arena, sizeof(*last));

	last->lit = arena_strdup(&s->arena, sb_str(&text));
	vec_push(&convs, last);
	f->n = convs.len;
	f->convs = arena_alloc(&s->arena, sizeof(*f->convs) * (size_t)f->n);
	for (i = 0; i < f->n; i++)
		f->convs[i] = *(struct fmt_conv *)convs.items[i];
	vec_free(&convs);
	sb_free(&text);
	return f;
fail:
	vec_free(&convs);
	sb_free(&text);
	return NULL;
}
