// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3: the module's C.  Each probe body and script function becomes a
 * C function over a frame struct held in the per-CPU context (never on
 * the kernel stack: strings are MAXSTRINGLEN bytes).  Expressions are
 * evaluated left to right into frame temporaries; every operation that
 * can fail sets c->last_error and jumps to the body's "out" label.
 * #line directives point compiler messages back at the script.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "tvar.h"
#include "probes/probes.h"
#include "regex.h"
#include "syms.h"

static const char *quote(struct emitter *E, const char *s);

void emit_line(struct emitter *E, const char *fmt, ...)
{
	va_list ap;
	int i;

	/* Every line of a statement maps to its script line. */
	if (E->loc) {
		if (E->loc->file != E->qfile) {
			E->qfile = E->loc->file;
			E->qname = quote(E, E->qfile->name);
		}
		sb_printf(E->out, "#line %d %s\n", E->loc->line, E->qname);
	}
	for (i = 0; i < E->indent; i++)
		sb_putc(E->out, '\t');
	va_start(ap, fmt);
	sb_vprintf(E->out, fmt, ap);
	va_end(ap);
	sb_putc(E->out, '\n');
}

/* A C string literal holding any bytes. */
void emit_c_string(struct strbuf *sb, const char *s, int len)
{
	int i;

	sb_putc(sb, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			sb_printf(sb, "\\%c", c);
		else if (c == '\n')
			sb_puts(sb, "\\n");
		else if (c >= 32 && c < 127 && c != '?')
			sb_putc(sb, (char)c);
		else
			sb_printf(sb, "\\%03o", c);
	}
	sb_putc(sb, '"');
}

static const char *quote(struct emitter *E, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	const char *q;

	emit_c_string(&sb, s, (int)strlen(s));
	q = arena_strdup(&E->s->arena, sb_str(&sb));
	sb_free(&sb);
	return q;
}

/* "operator '/' at file:line:col", as errors name their spot. */
const char *emit_where(struct emitter *E, const char *what,
			 const struct srcloc *loc)
{
	return quote(E, arena_printf(&E->s->arena, "%s at %s:%d:%d", what,
				     loc->file->name, loc->line, loc->col));
}

const char *emit_temp(struct emitter *E, enum type t)
{
	int id = E->ntemps++;

	if (t == TY_STRING)
		sb_printf(&E->frame, "\tchar t%d[MAXSTRINGLEN];\n", id);
	else
		sb_printf(&E->frame, "\tint64_t t%d;\n", id);
	return arena_printf(&E->s->arena, "l->t%d", id);
}

void emit_check_error(struct emitter *E)
{
	emit_line(E, "if (unlikely(c->last_error)) goto %s;", E->err);
}

static const char *var_ref(struct emitter *E, struct symbol *sym)
{
	if (sym->kind == SYM_GLOBAL)
		return emit_global_ref(E, sym);
	return arena_printf(&E->s->arena, "l->v_%s", sym->name);
}

/* Store value v of type t into the variable (strings are copied). */
void emit_store(struct emitter *E, const char *dst, enum type t,
		  const char *v)
{
	if (t == TY_STRING)
		emit_line(E, "strscpy(%s, %s, MAXSTRINGLEN);", dst, v);
	else
		emit_line(E, "%s = %s;", dst, v);
}

/*
 * Does evaluating n change a variable a sibling operand may read?
 * Script function calls count (they may write globals); output does not.
 */
bool emit_has_effects(const struct node *n)
{
	const struct member *m;

	if (!n)
		return false;
	switch (n->kind) {
	case ND_ASSIGN:
	case ND_PUSH:
	case ND_EMBEDDED:	/* C may do anything */
		return true;
	case ND_UNARY:
		if (n->op >= OP_PREINC)
			return true;
		break;
	case ND_CALL:
		if (n->func)
			return true;
		break;
	default:
		break;
	}
	if (emit_has_effects(n->lhs) || emit_has_effects(n->rhs) ||
	    emit_has_effects(n->cond) || emit_has_effects(n->then) ||
	    emit_has_effects(n->els) || emit_list_has_effects(n->args))
		return true;
	for (m = n->members; m; m = m->next)
		if (emit_has_effects(m->index))
			return true;
	return false;
}

bool emit_list_has_effects(const struct node *n)
{
	for (; n; n = n->next)
		if (emit_has_effects(n))
			return true;
	return false;
}

/* A C value nothing later can change: a literal or a fresh temporary. */
static bool is_stable(const char *v)
{
	const char *p;

	if (v[0] == '"' || !strcmp(v, "0"))
		return true;
	if (!strncmp(v, "l->t", 4)) {
		for (p = v + 4; *p >= '0' && *p <= '9'; p++)
			;
		return p > v + 4 && !*p;
	}
	if (!strncmp(v, "((int64_t)", 10)) {
		p = v + 10;
		if (*p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return !strcmp(v, "((int64_t)(-9223372036854775807LL - 1))");
		while (*p >= '0' && *p <= '9')
			p++;
		return !strcmp(p, "LL)");
	}
	return false;
}

/*
 * Operands are evaluated left to right, each to its value at that point
 * (SystemTap prints "1 2 3 3" for printf("%d %d %d %d", i++, i, ++i, i--)):
 * a value that reads a variable is copied if a later operand has effects.
 */
const char *emit_operand(struct emitter *E, struct node *n, bool later_effects)
{
	const char *v = emit_expr(E, n), *t;

	if (!later_effects || is_stable(v) || n->type == TY_STATS)
		return v;
	t = emit_temp(E, n->type);
	emit_store(E, t, n->type, v);
	return t;
}

/* An argument of a list: later ones are its siblings. */
static const char *arg_value(struct emitter *E, struct node *a)
{
	return emit_operand(E, a, emit_list_has_effects(a->next));
}

/* Append the format text and arguments for printing a value. */
static void print_value(struct strbuf *fmt, struct strbuf *args,
			enum type t, const char *v)
{
	if (t == TY_STRING) {
		sb_puts(fmt, "%s");
		sb_printf(args, ", %s", v);
	} else {
		sb_puts(fmt, "%lld");
		sb_printf(args, ", (long long)%s", v);
	}
}

/*
 * The kernel-dialect format and argument list of a printf-family call:
 * every SystemTap value is 64 bits wide, so %d becomes %lld.
 */
/* Print what fmt/args hold so far (printf with %b writes in pieces). */
static void flush_printf(struct emitter *E, struct strbuf *fmt, struct strbuf *args)
{
	struct strbuf q = STRBUF_INIT;

	if (!fmt->len)
		return;
	emit_c_string(&q, sb_str(fmt), (int)fmt->len);
	emit_line(E, "_stp_printf(c, %s%s);", sb_str(&q), sb_str(args));
	sb_free(&q);
	sb_reset(fmt);
	sb_reset(args);
}

/*
 * The kernel-dialect format and argument list of a printf-family call:
 * every SystemTap value is 64 bits wide, so %d becomes %lld.  %p is the
 * value in hex after "0x" (the kernel's %p would hash it): %#llx, which
 * the kernel, like SystemTap 4.8, prints as "0x0" for 0; %b
 * writes the value's low bytes raw, so printf emits the text before it
 * first.
 */
/* A width or precision: -1 if none, the number, or the next argument ('*'). */
static const char *spec_value(struct emitter *E, int spec, struct node **a)
{
	const char *v;

	if (spec != -2)
		return arena_printf(&E->s->arena, "%d", spec < 0 ? -1 : spec);
	v = arg_value(E, *a);
	*a = (*a)->next;
	return v;
}

static void format_call(struct emitter *E, struct node *n, struct strbuf *fmt,
			struct strbuf *args)
{
	struct node *a = n->args->next;
	int i;

	for (i = 0; i < n->fmt->n; i++) {
		struct fmt_conv *cv = &n->fmt->convs[i];

		sb_puts(fmt, cv->lit);
		if (!cv->conv)
			break;
		if (cv->conv == 'b') {
			const char *v = arg_value(E, a);
			int width = cv->width > 0 ? cv->width : 8;
			const char *t = emit_temp(E, TY_LONG);

			flush_printf(E, fmt, args);
			/* x86 is little-endian: the low bytes come first. */
			emit_line(E, "%s = %s;", t, v);
			emit_line(E, "_stp_print_n(c, (const char *)&%s, %d);", t, width);
			a = a->next;
			continue;
		}
		if (cv->conv == 'm' || cv->conv == 'M') {
			/* %m: the bytes at an address; '#' means user memory. */
			const char *w = spec_value(E, cv->width, &a);
			const char *pr = spec_value(E, cv->prec, &a);
			const char *v = arg_value(E, a);

			flush_printf(E, fmt, args);
			/* A fault names the call, as SystemTap's does. */
			emit_line(E, "c->last_stmt = %s;", emit_where(E, arena_printf(&E->s->arena,
					"identifier '%s'", n->str), &n->loc));
			emit_line(E, "_stp_print_mem(c, %s, %s, (int)%s, %s, %s, %s);", v, pr, w,
				  cv->conv == 'M' ? "true" : "false",
				  strchr(cv->flags, '#') ? "true" : "false",
				  strchr(cv->flags, '-') ? "true" : "false");
			emit_check_error(E);
			a = a->next;
			continue;
		}
		sb_printf(fmt, "%%%s%s", cv->conv == 'p' ? "#" : "", cv->flags);
		if (cv->width == -2) {
			sb_putc(fmt, '*');
			sb_printf(args, ", _stp_fmt_width(%s)", arg_value(E, a));
			a = a->next;
		} else if (cv->width >= 0) {
			sb_printf(fmt, "%d", cv->width);
		}
		if (cv->conv == 'o' && strchr(cv->flags, '#')) {
			/* "%#o" of 0: see _stp_fmt_oct_prec. */
			const char *pr = spec_value(E, cv->prec, &a);
			const char *v = arg_value(E, a);

			sb_puts(fmt, ".*llo");
			sb_printf(args, ", _stp_fmt_oct_prec(%s, %s), (unsigned long long)%s",
				  v, pr, v);
			a = a->next;
			continue;
		}
		if (cv->prec == -2) {
			sb_puts(fmt, ".*");
			sb_printf(args, ", _stp_fmt_prec(%s)", arg_value(E, a));
			a = a->next;
		} else if (cv->prec >= 0) {
			sb_printf(fmt, ".%d", cv->prec);
		}
		switch (cv->conv) {
		case 's':
			sb_putc(fmt, 's');
			sb_printf(args, ", %s", arg_value(E, a));
			break;
		case 'c':
			sb_putc(fmt, 'c');
			sb_printf(args, ", (int)%s", arg_value(E, a));
			break;
		case 'd':
		case 'i':
			sb_puts(fmt, "lld");
			sb_printf(args, ", (long long)%s", arg_value(E, a));
			break;
		case 'p':
			sb_puts(fmt, "llx");
			sb_printf(args, ", (unsigned long long)%s", arg_value(E, a));
			break;
		default:
			sb_printf(fmt, "ll%c", cv->conv);
			sb_printf(args, ", (unsigned long long)%s", arg_value(E, a));
		}
		a = a->next;
	}
}

/* Only plain %d/%i/%s: no flags, width or precision. */
static bool plain_printf(const struct fmt *f)
{
	for (int i = 0; i < f->n; i++) {
		const struct fmt_conv *cv = &f->convs[i];

		if (cv->conv && (!strchr("dis", cv->conv) || cv->flags[0] ||
				 cv->width != -1 || cv->prec != -1))
			return false;
	}
	return true;
}

/* Literal text of a format, its doubled '%' made single again. */
static void print_literal(struct emitter *E, const char *lit)
{
	struct strbuf t = STRBUF_INIT, q = STRBUF_INIT;

	for (; *lit; lit++) {
		sb_putc(&t, *lit);
		if (lit[0] == '%' && lit[1] == '%')
			lit++;
	}
	if (t.len) {
		emit_c_string(&q, sb_str(&t), (int)t.len);
		emit_line(E, "_stp_print_n(c, %s, %zu);", sb_str(&q), t.len);
	}
	sb_free(&t);
	sb_free(&q);
}

/*
 * A hot probe's printf("%d\n", ...) costs mostly vsnprintf's parsing of
 * its format: with plain conversions, print the pieces directly.  Every
 * operand is evaluated first, as for one _stp_printf call, so an error in
 * a later one still prints nothing of the call.
 */
static void emit_plain_printf(struct emitter *E, struct node *n)
{
	const struct fmt *f = n->fmt;
	const char **vals = arena_alloc(&E->s->arena, f->n * sizeof(*vals));
	struct node *a = n->args->next;
	int i;

	for (i = 0; i < f->n; i++) {
		if (!f->convs[i].conv)
			continue;
		vals[i] = arg_value(E, a);
		a = a->next;
	}
	for (i = 0; i < f->n; i++) {
		print_literal(E, f->convs[i].lit);
		if (f->convs[i].conv == 's')
			emit_line(E, "_stp_print(c, %s);", vals[i]);
		else if (f->convs[i].conv)
			emit_line(E, "_stp_print_lld(c, (long long)%s);", vals[i]);
	}
}

static const char *builtin_call(struct emitter *E, struct node *n)
{
	struct strbuf fmt = STRBUF_INIT, args = STRBUF_INIT;
	const char *result = "0";
	struct node *a;

	switch (n->builtin) {
	case BI_PRINTF:
		if (plain_printf(n->fmt)) {
			emit_plain_printf(E, n);
			goto done;
		}
		/* fall through */
	case BI_SPRINTF:
		format_call(E, n, &fmt, &args);
		if (n->fmt->has_binary) {
			flush_printf(E, &fmt, &args);
			goto done;
		}
		break;
	case BI_PRINT:
	case BI_PRINTLN:
		for (a = n->args; a; a = a->next)
			if (a->kind == ND_HIST)
				break;
		if (a) {
			/* A histogram prints itself: print each value in turn. */
			for (a = n->args; a; a = a->next) {
				if (a->kind == ND_HIST) {
					emit_print_hist(E, a, n);
				} else {
					struct strbuf f1 = STRBUF_INIT, a1 = STRBUF_INIT, q = STRBUF_INIT;

					print_value(&f1, &a1, a->type, emit_expr(E, a));
					emit_c_string(&q, sb_str(&f1), (int)f1.len);
					emit_line(E, "_stp_printf(c, %s%s);", sb_str(&q), sb_str(&a1));
					sb_free(&f1);
					sb_free(&a1);
					sb_free(&q);
				}
			}
			if (n->builtin == BI_PRINTLN)
				emit_line(E, "_stp_print_char(c, '\\n');");
			goto done;
		}
		/* fall through */
	case BI_SPRINT:
	case BI_SPRINTLN:
		for (a = n->args; a; a = a->next)
			print_value(&fmt, &args, a->type, arg_value(E, a));
		if (n->builtin == BI_PRINTLN || n->builtin == BI_SPRINTLN)
			sb_puts(&fmt, "\n");
		break;
	case BI_EXIT:
		emit_line(E, "_stp_exit();");
		goto done;
	case BI_ERROR:
		/* SystemTap reports error()'s message alone, without a place. */
		emit_line(E, "_stp_error(c, \"%%s\", %s);", emit_expr(E, n->args));
		emit_line(E, "c->last_stmt = NULL;");
		emit_line(E, "goto %s;", E->err);
		goto done;
	default:
		break;
	}
	struct strbuf q = STRBUF_INIT;

	emit_c_string(&q, sb_str(&fmt), (int)fmt.len);
	if (n->builtin == BI_PRINTF || n->builtin == BI_PRINT ||
	    n->builtin == BI_PRINTLN) {
		if (!args.len && !strchr(sb_str(&fmt), '%'))
			emit_line(E, "_stp_print_n(c, %s, %zu);", sb_str(&q), fmt.len);
		else
			emit_line(E, "_stp_printf(c, %s%s);", sb_str(&q), sb_str(&args));
	} else {
		result = emit_temp(E, TY_STRING);
		emit_line(E, "snprintf(%s, MAXSTRINGLEN, %s%s);", result, sb_str(&q),
		     sb_str(&args));
	}
	sb_free(&q);
done:
	sb_free(&fmt);
	sb_free(&args);
	return result;
}

static void emit_flush(struct emitter *E, const char *where);

/* Call a script function: arguments into its frame one level deeper. */
static const char *func_call(struct emitter *E, struct node *n)
{
	struct func *f = n->func;
	struct node *a;
	struct param *p;
	const char **vals = arena_alloc(&E->s->arena, sizeof(char *) * (size_t)(f->nparams + 1));
	int i = 0;
	const char *result = "0";

	for (a = n->args; a; a = a->next)
		vals[i++] = arg_value(E, a);
	/*
	 * An error raised by embedded C names the function's definition, as
	 * SystemTap's does ("near identifier 'kernel_string' at
	 * .../conversions.stp:15:10"); a script function's own statements
	 * name themselves.
	 */
	emit_line(E, "c->last_stmt = %s;", emit_where(E, arena_printf(&E->s->arena,
					"identifier '%s'", f->name),
					f->body->kind == ND_EMBEDDED ? &f->loc : &n->loc));
	emit_line(E, "if (unlikely(c->nesting + 1 > MAXNESTING)) {");
	/* SystemTap names the function's definition here, not the call. */
	emit_line(E, "\tc->last_stmt = %s;", emit_where(E, arena_printf(&E->s->arena,
					"identifier '%s'", f->name), &f->loc));
	emit_line(E, "\t_stp_error(c, \"MAXNESTING exceeded\");");
	emit_line(E, "\tgoto %s;", E->err);
	emit_line(E, "}");
	emit_line(E, "{");
	E->indent++;
	emit_line(E, "struct frame_f%d *callee = &((union stp_frame *)c->locals)[c->nesting + 1].f%d;",
	     f->id, f->id);
	for (p = f->params, i = 0; p; p = p->next, i++)
		emit_store(E, arena_printf(&E->s->arena, "callee->v_%s", p->name),
		      p->sym->type, vals[i]);
	emit_line(E, "(void)callee;");
	emit_line(E, "c->nesting++;");
	/* The callee's loops count on their own (see count_actions). */
	emit_line(E, "{ long pending = c->pending; c->pending = 0;");
	emit_line(E, "func_%d(c);", f->id);
	emit_line(E, "c->pending = pending; }");
	emit_line(E, "c->nesting--;");
	if (f->type == TY_LONG || f->type == TY_STRING) {
		result = emit_temp(E, f->type);
		emit_store(E, result, f->type, "callee->retval");
	}
	E->indent--;
	emit_line(E, "}");
	emit_check_error(E);
	if (E->loop_depth && f->body->kind != ND_EMBEDDED)
		emit_flush(E, emit_where(E, arena_printf(&E->s->arena, "identifier '%s'", f->name),
					 &n->loc));
	return result;
}

/* dst = old op v for longs, through the helpers that check and wrap. */
static void compound_long(struct emitter *E, const char *dst, const char *old, enum op op,
			  const char *v, const struct srcloc *loc)
{
	if (op == OP_DIV || op == OP_MOD) {
		/* SystemTap names the divisor's first token here: "x /= y" at y. */
		emit_line(E, "%s = stp_%s(c, %s, %s, %s);", dst, op == OP_DIV ? "div" : "mod",
			  old, v, emit_where(E, emit_token_desc(E, loc), loc));
		emit_check_error(E);
	} else if (op == OP_SHL || op == OP_SHR) {
		emit_line(E, "%s = stp_%s(%s, %s);", dst, op == OP_SHL ? "shl" : "shr", old, v);
	} else {
		emit_line(E, "%s = %s %s %s;", dst, old, op_names[op], v);
	}
}

/*
 * A fault in a target construct is reported, as SystemTap does, at its
 * first token: "identifier '$ptr'" for $ptr->a->b (and $ptr$, $$parms),
 * "operator '@cast'" for @cast(p, "T")->a.
 */
static const char *target_desc(struct emitter *E, const struct node *n)
{
	const char *p = n->loc.at;
	int len = 1;

	if (!p || (*p != '$' && *p != '@'))
		return emit_token_desc(E, &n->loc);
	while (p[len] == '_' || isalnum((unsigned char)p[len]) || (*p == '$' && p[len] == '$'))
		len++;
	return arena_printf(&E->s->arena, "%s '%.*s'", *p == '$' ? "identifier" : "operator",
			    len, p);
}

/*
 * Open the block a target construct's C runs in: where errors point,
 * and its index values (_tv_i0...), evaluated once by the caller into iv.
 */
static void target_open(struct emitter *E, struct node *n, const char *const *iv)
{
	const struct tv_code *tc = n->tv;

	emit_line(E, "c->last_stmt = %s;", emit_where(E, target_desc(E, n), &n->loc));
	emit_line(E, "{");
	E->indent++;
	for (int i = 0; i < tc->nidx && i < 8; i++)
		emit_line(E, "int64_t _tv_i%d = %s;", i, iv[i]);
}

static void target_close(struct emitter *E)
{
	E->indent--;
	emit_line(E, "}");
	emit_check_error(E);
}

/* The value of a target construct resolved by tvar.c (node.tv). */
static const char *target(struct emitter *E, struct node *n)
{
	const struct tv_code *tc = n->tv;
	const char *iv[8], *t, *p, *nl;

	if (tc->constant)
		return arena_printf(&E->s->arena, "((int64_t)%s)", tc->code);
	for (int i = 0; i < tc->nidx && i < 8; i++)
		iv[i] = emit_operand(E, tc->idx[i], i + 1 < tc->nidx);
	t = emit_temp(E, tc->type);
	target_open(E, n, iv);
	if (tc->type == TY_LONG) {
		emit_line(E, "%s = %s;", t, tc->code);
	} else {
		emit_line(E, "char *_tv_dst = %s;", t);
		for (p = tc->code; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl) {
				emit_line(E, "%s", p);
				break;
			}
			emit_line(E, "%.*s", (int)(nl - p), p);
		}
	}
	target_close(E);
	return t;
}

/*
 * $var = v, $var op= v (guru mode): through the store tvar.c made, the
 * indexes evaluated once for both the read and the write.
 */
static const char *target_assign(struct emitter *E, struct node *n)
{
	const struct tv_code *tc = n->lhs->tv;
	const char *iv[8], *v, *t = emit_temp(E, TY_LONG);

	for (int i = 0; i < tc->nidx && i < 8; i++)
		iv[i] = emit_operand(E, tc->idx[i], true);
	v = emit_expr(E, n->rhs);
	target_open(E, n->lhs, iv);
	if (n->op == OP_NONE) {
		emit_line(E, "%s = %s;", t, v);
	} else {
		emit_line(E, "%s = %s;", t, tc->code);
		emit_check_error(E);
		compound_long(E, t, t, n->op, v, &n->rhs->loc);
	}
	emit_line(E, "int64_t _tv_val = %s;", t);
	emit_line(E, "%s", tc->store);
	target_close(E);
	return t;
}

static const char *assign(struct emitter *E, struct node *n)
{
	struct symbol *sym = n->lhs->sym;
	const char *dst = var_ref(E, sym);
	const char *v = emit_expr(E, n->rhs);

	if (n->op == OP_NONE) {
		emit_store(E, dst, sym->type, v);
	} else if (n->op == OP_CONCAT) {
		emit_line(E, "{ size_t len = strnlen(%s, MAXSTRINGLEN); strscpy(%s + len, %s, MAXSTRINGLEN - len); }",
		     dst, dst, v);
	} else {
		compound_long(E, dst, dst, n->op, v, &n->rhs->loc);
	}
	return dst;
}

/* Does the script read matches back?  Then =~ records its groups. */
static bool wants_captures(struct session *s)
{
	for (int i = 0; i < s->funcs.len; i++) {
		const char *name = ((struct func *)s->funcs.items[i])->name;

		if (!strcmp(name, "matched") || !strcmp(name, "matched_str") ||
		    !strcmp(name, "ngroups"))
			return true;
	}
	return false;
}

/* s =~ "re": the translator compiled "re" into _stp_rx<id>. */
static const char *regex_match(struct emitter *E, struct node *n)
{
	const char *subj = emit_expr(E, n->lhs);
	const char *t = emit_temp(E, TY_LONG);
	int id = n->id;

	if (wants_captures(E->s)) {
		int tmp = E->ntemps++;

		sb_printf(&E->frame, "\tint32_t rxs%d[(_stp_rx%d_SCRATCH + 3) / 4];\n", tmp, id);
		emit_line(E, "%s = _stp_rx%d(%s, c->match_groups, STP_MAX_MATCH_GROUPS, l->rxs%d);",
			  t, id, subj, tmp);
		emit_line(E, "_stp_match_set(c, %s, %s ? _stp_rx%d_NGROUPS : 0);", subj, t, id);
	} else {
		emit_line(E, "%s = _stp_rx%d(%s, NULL, 0, NULL);", t, id, subj);
	}
	return arena_printf(&E->s->arena, n->op == OP_NOMATCH ? "((int64_t)!%s)" : "%s", t);
}

static const char *binary(struct emitter *E, struct node *n)
{
	struct arena *A = &E->s->arena;
	const char *l, *r, *t;

	if (n->op == OP_AND || n->op == OP_OR) {
		t = emit_temp(E, TY_LONG);
		l = emit_expr(E, n->lhs);
		emit_line(E, "%s = %s;", t, n->op == OP_AND ? "0" : "1");
		emit_line(E, "if (%s(%s)) {", n->op == OP_AND ? "" : "!", l);
		E->indent++;
		r = emit_expr(E, n->rhs);
		emit_line(E, "%s = (%s) != 0;", t, r);
		E->indent--;
		emit_line(E, "}");
		return t;
	}
	if (n->op == OP_MATCH || n->op == OP_NOMATCH)
		return regex_match(E, n);
	l = emit_operand(E, n->lhs, emit_has_effects(n->rhs));
	r = emit_expr(E, n->rhs);
	switch (n->op) {
	case OP_CONCAT:
		t = emit_temp(E, TY_STRING);
		emit_line(E, "strscpy(%s, %s, MAXSTRINGLEN);", t, l);
		emit_line(E, "{ size_t len = strnlen(%s, MAXSTRINGLEN); strscpy(%s + len, %s, MAXSTRINGLEN - len); }",
		     t, t, r);
		return t;
	case OP_DIV:
	case OP_MOD:
		t = emit_temp(E, TY_LONG);
		emit_line(E, "%s = stp_%s(c, %s, %s, %s);", t,
		     n->op == OP_DIV ? "div" : "mod", l, r,
		     emit_where(E, arena_printf(A, "operator '%s'", op_names[n->op]), &n->loc));
		emit_check_error(E);
		return t;
	case OP_SHL:
	case OP_SHR:
		/* SystemTap 4.8 leaves a literal shifted by a literal outside 0..63 as it is. */
		if (n->lhs->kind == ND_NUM && n->rhs->kind == ND_NUM &&
		    (n->rhs->num < 0 || n->rhs->num > 63))
			return l;
		return arena_printf(A, "stp_%s(%s, %s)", n->op == OP_SHL ? "shl" : "shr", l, r);
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		if (n->lhs->type == TY_STRING)
			return arena_printf(A, "((int64_t)(strcmp(%s, %s) %s 0))", l, r,
					    op_names[n->op]);
		return arena_printf(A, "((int64_t)(%s %s %s))", l, op_names[n->op], r);
	default:
		/* The kernel builds with -fno-strict-overflow: + - * wrap. */
		return arena_printf(A, "(%s %s %s)", l, op_names[n->op], r);
	}
}

static const char *unary(struct emitter *E, struct node *n)
{
	struct arena *A = &E->s->arena;
	const char *v;

	if (n->op >= OP_PREINC && n->lhs->kind == ND_INDEX)
		return emit_index_crement(E, n);
	switch (n->op) {
	case OP_PREINC:
	case OP_PREDEC:
		v = var_ref(E, n->lhs->sym);
		emit_line(E, "%s%s;", op_names[n->op], v);
		return v;
	case OP_POSTINC:
	case OP_POSTDEC: {
		const char *t = emit_temp(E, TY_LONG);

		v = var_ref(E, n->lhs->sym);
		emit_line(E, "%s = %s%s;", t, v, op_names[n->op]);
		return t;
	}
	case OP_NOT:
		return arena_printf(A, "((int64_t)!(%s))", emit_expr(E, n->lhs));
	case OP_NEG:
		return arena_printf(A, "((int64_t)-(uint64_t)(%s))", emit_expr(E, n->lhs));
	default:
		return arena_printf(A, "(%s(%s))", op_names[n->op], emit_expr(E, n->lhs));
	}
}

/*
 * %{ C %} as an expression: its value in a temporary, with the names an
 * embedded function body sees (STAP_ARG_x of the enclosing function,
 * CONTEXT).
 */
static const char *embedded_expr(struct emitter *E, struct node *n)
{
	const char *t = emit_temp(E, n->type);
	struct param *p;

	for (p = E->func ? E->func->params : NULL; p; p = p->next)
		emit_line(E, "#define STAP_ARG_%s (l->v_%s)", p->name, p->name);
	emit_line(E, "#define CONTEXT c");
	emit_store(E, t, n->type, arena_printf(&E->s->arena, "(%s)", n->str));
	emit_line(E, "#undef CONTEXT");
	for (p = E->func ? E->func->params : NULL; p; p = p->next)
		emit_line(E, "#undef STAP_ARG_%s", p->name);
	return t;
}

const char *emit_expr(struct emitter *E, struct node *n)
{
	struct arena *A = &E->s->arena;

	switch (n->kind) {
	case ND_NUM:
		if (n->num == INT64_MIN)
			return "((int64_t)(-9223372036854775807LL - 1))";
		return arena_printf(A, "((int64_t)%" PRId64 "LL)", n->num);
	case ND_STR: {
		struct strbuf sb = STRBUF_INIT;
		const char *q;

		emit_c_string(&sb, n->str, n->str_len);
		q = arena_strdup(A, sb_str(&sb));
		sb_free(&sb);
		return q;
	}
	case ND_VAR:
		return var_ref(E, n->sym);
	case ND_EMBEDDED:
		return embedded_expr(E, n);
	case ND_CALL: {
		const char *v = n->builtin ? builtin_call(E, n) : func_call(E, n);

		/* A call of a function returning nothing, used as a string (sem). */
		return n->type == TY_STRING && !strcmp(v, "0") ? "\"\"" : v;
	}
	case ND_ASSIGN:
		if (n->lhs->kind == ND_INDEX)
			return emit_index_assign(E, n);
		if (n->lhs->kind == ND_TARGET || n->lhs->kind == ND_AUTOCAST)
			return target_assign(E, n);
		return assign(E, n);
	case ND_INDEX:
		return emit_index_read(E, n);
	case ND_PUSH:
		return emit_push(E, n);
	case ND_IN:
		return emit_in(E, n);
	case ND_STATOP:
		return emit_statop(E, n);
	case ND_BINARY:
		return binary(E, n);
	case ND_UNARY:
		return unary(E, n);
	case ND_TERNARY: {
		const char *t = emit_temp(E, n->type);
		const char *cond = emit_expr(E, n->cond);

		emit_line(E, "if (%s) {", cond);
		E->indent++;
		emit_store(E, t, n->type, emit_expr(E, n->then));
		E->indent--;
		emit_line(E, "} else {");
		E->indent++;
		emit_store(E, t, n->type, emit_expr(E, n->els));
		E->indent--;
		emit_line(E, "}");
		return t;
	}
	case ND_ENTRY:
		if (!n->tv)	/* @entry(expr): its targets were read at entry */
			return emit_expr(E, n->lhs);
		return target(E, n);
	case ND_TARGET:
	case ND_CAST:
	case ND_ATVAR:
	case ND_DEFINED:
	case ND_AUTOCAST:	/* p->f with p a typed local or call (sem.c) */
		return target(E, n);
	default:
		/* sem rejects everything else before pass 3. */
		return "0";
	}
}

/*
 * A statement as SystemTap's errors name it, by its first token:
 * "identifier 'x'", "keyword", "operator '++'", "number '1'",
 * "string 'text'".
 */
const char *emit_token_desc(struct emitter *E, const struct srcloc *loc)
{
	const char *p = loc->at;
	int n = loc->len > 0 ? loc->len : 1;

	if (!p)
		return "statement";
	if (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
		for (n = 1; p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') ||
		     (p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= '0' && p[n] <= '9'); n++)
			;
		if (parse_is_keyword(p, (size_t)n))
			return "keyword";
		return arena_printf(&E->s->arena, "identifier '%.*s'", n, p);
	}
	if (*p >= '0' && *p <= '9')
		return arena_printf(&E->s->arena, "number '%.*s'", n, p);
	if (*p == '"' && n >= 2)
		return arena_printf(&E->s->arena, "string '%.*s'", n - 2, p + 1);
	return arena_printf(&E->s->arena, "operator '%.*s'", n, p);
}

/*
 * MAXACTION as SystemTap 4.8 counts it (measured against the reference:
 * run/maxaction_loops).  A probe or function body charges on entry every
 * statement it holds outside loop bodies, so straight code that is too
 * long fails before it runs.  In a loop body statements are counted as
 * they run (c->pending) and charged at flush points: the end of each
 * iteration, an if (and the end of its branches), a break or continue,
 * the return of a function call, and every tenth statement.  Each loop
 * test counts one.  The hit fails when the total reaches the limit,
 * naming the flush point.
 */
static int count_actions(const struct node *n)
{
	int sum = 0;

	switch (n->kind) {
	case ND_BLOCK:
		for (const struct node *k = n->body; k; k = k->next)
			sum += count_actions(k);
		return sum;
	case ND_NULL_STMT:
		return 0;
	case ND_IF:
		if (n->cond->kind == ND_NUM)	/* folded, as SystemTap does */
			return n->cond->num ? count_actions(n->then) :
			       n->els ? count_actions(n->els) : 0;
		return 1 + count_actions(n->then) + (n->els ? count_actions(n->els) : 0);
	case ND_TRY:
		return 1 + count_actions(n->body) + (n->els ? count_actions(n->els) : 0);
	case ND_WHILE:
	case ND_FOR:
		return n->init ? 2 : 1;
	default:
		return 1;
	}
}

/* What a flush at the end of stmt is named by: '{' or its only statement. */
static const char *flush_where(struct emitter *E, const struct node *n)
{
	while (n->kind == ND_BLOCK && n->body && !n->body->next)
		n = n->body;
	if (n->kind == ND_BLOCK)
		return emit_where(E, "operator '{'", &n->loc);
	return emit_where(E, emit_token_desc(E, &n->loc), &n->loc);
}

static bool is_loop(const struct node *n)
{
	return n->kind == ND_WHILE || n->kind == ND_FOR || n->kind == ND_FOREACH;
}

/*
 * A probe or function body: each run of statements up to and with a loop
 * is charged before it runs, unnamed in a probe (SystemTap's "MAXACTION
 * exceeded" alone), at the definition in a function.
 */
static void emit_charged_body(struct emitter *E, struct node *body)
{
	const char *where = E->func ? emit_where(E, arena_printf(&E->s->arena, "identifier '%s'",
					E->func->name), &E->func->loc) : "NULL";
	struct node *k, *end;
	int nact;

	if (body->kind != ND_BLOCK) {
		if ((nact = count_actions(body)))
			emit_line(E, "STP_ACTIONS(%d, %s, out);", nact, where);
		emit_stmt(E, body);
		return;
	}
	for (k = body->body; k; k = end) {
		for (nact = 0, end = k; end; end = end->next) {
			nact += count_actions(end);
			if (is_loop(end)) {
				end = end->next;
				break;
			}
		}
		if (nact)
			emit_line(E, "STP_ACTIONS(%d, %s, out);", nact, where);
		for (; k != end; k = k->next)
			emit_stmt(E, k);
	}
}

static void emit_flush(struct emitter *E, const char *where)
{
	emit_line(E, "STP_FLUSH(%s, %s);", where, E->err);
}

/* A statement ran: in a loop body, count it (every tenth is a flush). */
static void count_stmt(struct emitter *E, const struct node *n)
{
	if (E->loop_depth)
		emit_line(E, "STP_STMT(%s, %s);", flush_where(E, n), E->err);
}

/* A loop in a loop body charges itself (and a for's init) first. */
void emit_loop_start(struct emitter *E, const struct node *loop, int extra)
{
	if (!E->loop_depth)
		return;
	emit_line(E, "c->pending += %d;", 1 + extra);
	emit_flush(E, flush_where(E, loop));
}

void emit_loop_body(struct emitter *E, struct node *body)
{
	E->loop_depth++;
	emit_stmt(E, body);
	E->loop_depth--;
}

void emit_iteration_end(struct emitter *E, const struct node *body)
{
	E->loop_depth++;
	emit_flush(E, flush_where(E, body));
	E->loop_depth--;
}

static void loop(struct emitter *E, struct node *n)
{
	int saved_brk = E->brk, saved_cont = E->cont;
	int id = E->nlabels++;

	E->brk = E->cont = id;
	emit_loop_start(E, n, n->init ? 1 : 0);
	if (n->init)
		emit_expr(E, n->init);
	emit_line(E, "for (;;) {");
	E->indent++;
	emit_line(E, "c->pending++;");
	if (n->cond)
		emit_line(E, "if (!(%s)) break;", emit_expr(E, n->cond));
	emit_loop_body(E, n->body);
	E->indent--;
	emit_line(E, "cont_%d: __attribute__((unused));", id);
	E->indent++;
	emit_iteration_end(E, n->body);
	if (n->step)
		emit_expr(E, n->step);
	E->indent--;
	emit_line(E, "}");
	E->brk = saved_brk;
	E->cont = saved_cont;
}

/*
 * try { } catch (msg) { }: errors inside jump to the catch label instead
 * of leaving the probe; the catch clears the error and goes on.
 */
static void try_catch(struct emitter *E, struct node *n)
{
	const char *saved = E->err;
	int id = E->nlabels++;

	E->err = arena_printf(&E->s->arena, "catch_%d", id);
	emit_stmt(E, n->body);
	E->err = saved;
	emit_line(E, "goto try_end_%d;", id);
	emit_line(E, "catch_%d: __attribute__((unused));", id);
	if (n->catch_var)
		emit_line(E, "strscpy(l->v_%s, c->last_error, MAXSTRINGLEN);", n->catch_var->str);
	emit_line(E, "c->last_error = NULL;");
	emit_line(E, "c->last_stmt = NULL;");
	emit_stmt(E, n->els);
	emit_line(E, "try_end_%d: ;", id);
}

void emit_stmt(struct emitter *E, struct node *n)
{
	const struct srcloc *saved = E->loc;
	struct node *k;

	if (n->kind != ND_BLOCK && n->kind != ND_NULL_STMT)
		E->loc = &n->loc;
	switch (n->kind) {
	case ND_BLOCK:
		for (k = n->body; k; k = k->next)
			emit_stmt(E, k);
		break;
	case ND_EXPR_STMT: {
		const char *v = emit_expr(E, n->lhs);

		/* A bare value is evaluated for its effects only. */
		if (n->lhs->type == TY_LONG && strcmp(v, "0") && n->lhs->kind != ND_ASSIGN &&
		    n->lhs->kind != ND_CALL)
			emit_line(E, "(void)%s;", v);
		count_stmt(E, n);
		break;
	}
	case ND_NULL_STMT:
		break;
	case ND_IF:
		/* SystemTap drops a constant test: "if (1) s" counts as s. */
		if (n->cond->kind == ND_NUM) {
			if (n->cond->num)
				emit_stmt(E, n->then);
			else if (n->els)
				emit_stmt(E, n->els);
			break;
		}
		if (E->loop_depth) {
			emit_line(E, "c->pending++;");
			emit_flush(E, flush_where(E, n));
		}
		emit_line(E, "if (%s) {", emit_expr(E, n->cond));
		E->indent++;
		emit_stmt(E, n->then);
		if (E->loop_depth)
			emit_flush(E, flush_where(E, n->then));
		E->indent--;
		if (n->els) {
			emit_line(E, "} else {");
			E->indent++;
			emit_stmt(E, n->els);
			if (E->loop_depth)
				emit_flush(E, flush_where(E, n->els));
			E->indent--;
		}
		emit_line(E, "}");
		break;
	case ND_WHILE:
	case ND_FOR:
		loop(E, n);
		break;
	case ND_BREAK:
		emit_line(E, "c->pending++;");
		emit_flush(E, flush_where(E, n));
		emit_line(E, "break;");
		break;
	case ND_CONTINUE:
		emit_line(E, "c->pending++;");
		emit_flush(E, flush_where(E, n));
		emit_line(E, "goto cont_%d;", E->cont);
		break;
	case ND_NEXT:
		emit_line(E, "goto out;");
		break;
	case ND_RETURN:
		if (n->lhs)
			emit_store(E, "l->retval", E->func->type, emit_expr(E, n->lhs));
		emit_line(E, "goto out;");
		break;
	case ND_FOREACH:
		emit_foreach(E, n);
		break;
	case ND_DELETE:
		emit_delete(E, n);
		count_stmt(E, n);
		break;
	case ND_TRY:
		try_catch(E, n);
		break;
	default:
		break;
	}
	E->loc = saved;
}

/* The fields every frame has: named variables, then temporaries. */
static void frame_vars(struct strbuf *sb, struct vec *locals)
{
	int i;

	for (i = 0; i < locals->len; i++) {
		struct symbol *sym = locals->items[i];

		if (sym->type == TY_STRING)
			sb_printf(sb, "\tchar v_%s[MAXSTRINGLEN];\n", sym->name);
		else
			sb_printf(sb, "\tint64_t v_%s;\n", sym->name);
	}
}

/*
 * A function whose body is C: its parameters and return value are
 * reached through SystemTap's STAP_ARG_name / STAP_RETVALUE macros.
 */
static void emit_embedded_func(struct session *s, struct strbuf *frames,
			       struct strbuf *code, const char *cname, struct func *f)
{
	struct param *p;
	const struct srcloc *loc = &f->body->loc;

	sb_printf(frames, "struct frame_f%d {\n", f->id);
	frame_vars(frames, &f->locals);
	if (f->type == TY_LONG || f->type == TY_STRING)
		sb_printf(frames, f->type == TY_STRING ?
			  "\tchar retval[MAXSTRINGLEN];\n" : "\tint64_t retval;\n");
	sb_puts(frames, "\tchar unused;\n};\n");

	sb_printf(code, "static void %s(struct stp_context *c)\n{\n", cname);
	sb_printf(code, "\tstruct frame_f%d *l = &((union stp_frame *)c->locals)[c->nesting].f%d;\n",
		  f->id, f->id);
	for (p = f->params; p; p = p->next)
		sb_printf(code, "#define STAP_ARG_%s (l->v_%s)\n", p->name, p->name);
	if (f->type == TY_STRING)
		sb_puts(code, "#define STAP_RETVALUE (l->retval)\n"
			"#define STAP_RETURN(v) do { strscpy(l->retval, (v), MAXSTRINGLEN); goto out; } while (0)\n");
	else if (f->type == TY_LONG)
		sb_puts(code, "#define STAP_RETVALUE (l->retval)\n"
			"#define STAP_RETURN(v) do { l->retval = (v); goto out; } while (0)\n");
	sb_puts(code, "#define STAP_ERROR(...) do { _stp_error(c, __VA_ARGS__); goto out; } while (0)\n"
		"#define CONTEXT c\n\t{\n");
	sb_printf(code, "#line %d \"%s\"\n", loc->line, loc->file->name);
	/* The code starts right after "%{" on that line. */
	for (int i = 1; i < loc->col + 2; i++)
		sb_putc(code, ' ');
	sb_puts(code, f->body->str);
	sb_puts(code, "\n\t}\n");
	sb_puts(code, "\tgoto out;\nout: __attribute__((unused));\n\t(void)l;\n");
	for (p = f->params; p; p = p->next)
		sb_printf(code, "#undef STAP_ARG_%s\n", p->name);
	if (f->type == TY_STRING || f->type == TY_LONG)
		sb_puts(code, "#undef STAP_RETVALUE\n#undef STAP_RETURN\n");
	sb_puts(code, "#undef STAP_ERROR\n#undef CONTEXT\n}\n\n");
}

/* Top-level %{ %} of the script and of every library file it uses. */
static void emit_toplevel_embedded(struct session *s, struct strbuf *c)
{
	const struct node *e;
	int i;

	/* Guru C may use what scripts' C no longer includes (stp_guru.h). */
	if (s->guru)
		sb_puts(c, "#include \"stp_guru.h\"\n");
	for (e = s->user.embedded; e; e = e->next) {
		sb_printf(c, "#line %d \"%s\"\n%s\n", e->loc.line, e->loc.file->name, e->str);
	}
	for (i = 0; i < s->tapset_files.len; i++) {
		struct program *p = s->tapset_files.items[i];
		bool used = false;

		for (struct func *f = p->funcs; f && !used; f = f->next)
			used = f->used;
		for (e = used ? p->embedded : NULL; e; e = e->next)
			sb_printf(c, "#line %d \"%s\"\n%s\n", e->loc.line, e->loc.file->name, e->str);
	}
}

static void emit_body(struct session *s, struct strbuf *frames,
		      struct strbuf *code, const char *cname,
		      const char *frame_name, struct vec *locals,
		      struct func *f, struct node *body)
{
	struct strbuf out = STRBUF_INIT;
	struct emitter E = { .s = s, .out = &out, .func = f, .indent = 1, .err = "out" };

	sb_printf(&E.frame, "struct frame_%s {\n", frame_name);
	frame_vars(&E.frame, locals);
	if (f && (f->type == TY_LONG || f->type == TY_STRING))
		sb_printf(&E.frame, f->type == TY_STRING ?
			  "\tchar retval[MAXSTRINGLEN];\n" : "\tint64_t retval;\n");
	emit_charged_body(&E, body);
	sb_puts(&E.frame, "\tchar unused;\n};\n");
	sb_add(frames, E.frame.buf, E.frame.len);

	const char *locks = arena_printf(&s->arena, "locks_%s", frame_name);
	struct strbuf after = STRBUF_INIT;
	int nlocks = f ? 0 : emit_locks(s, code, locks, body, &after);

	sb_printf(code, "static void %s(struct stp_context *c)\n{\n", cname);
	sb_printf(code, "\tstruct frame_%s *l = &((union stp_frame *)c->locals)[c->nesting].%s;\n\n",
		  frame_name, frame_name);
	/* Script variables start as 0 and ""; temporaries need nothing. */
	for (int i = 0; i < locals->len; i++) {
		struct symbol *sym = locals->items[i];

		if (sym->kind == SYM_PARAM)
			continue;
		if (sym->type == TY_STRING)
			sb_printf(code, "\tl->v_%s[0] = '\\0';\n", sym->name);
		else
			sb_printf(code, "\tl->v_%s = 0;\n", sym->name);
	}
	if (nlocks)
		sb_printf(code, "\tif (!_stp_lock_globals(%s, %d))\n\t\treturn;\n", locks, nlocks);
	sb_add(code, after.buf, after.len);
	sb_free(&after);
	sb_add(code, out.buf, out.len);
	sb_puts(code, "out: __attribute__((unused));\n");
	if (nlocks)
		sb_printf(code, "\t_stp_unlock_globals(%s, %d);\n", locks, nlocks);
	sb_puts(code, "\t(void)l;\n}\n\n");
	sb_free(&out);
	sb_free(&E.frame);
}

/* Helpers every module gets; small enough to inline. */
static const char prelude[] =
	"#include <linux/kernel.h>\n"
	"#include <linux/string.h>\n"
	/* Guru scripts' embedded C tests LINUX_VERSION_CODE, as under SystemTap. */
	"#include <linux/version.h>\n"
	/* ... and the SystemTap version it was written for (4.8, whose
	 * behaviour this one follows). */
	"#define STAP_VERSION(a, b) (((a) << 8) + (b))\n"
	"#define STAP_COMPAT_VERSION STAP_VERSION(4, 8)\n"
	"#include \"stp_runtime.h\"\n"
	/* The limits and modes the runtime's objects take as values. */
	"#define STP_SCRIPT_C\n"
	"#include \"script_params.h\"\n\n"
	/* MAXACTION, counted as SystemTap counts: see count_actions(). */
	"#define STP_ACTIONS(n, where, label) do { \\\n"
	"\tc->actions += (n); \\\n"
	"\tif (unlikely(c->actions >= MAXACTION_INTERRUPTIBLE)) { \\\n"
	"\t\tc->last_stmt = (where); \\\n"
	"\t\t_stp_error(c, \"MAXACTION exceeded\"); \\\n"
	"\t\tgoto label; \\\n"
	"\t} \\\n"
	"} while (0)\n"
	"#define STP_FLUSH(where, label) do { \\\n"
	"\tlong _stp_n = c->pending; \\\n"
	"\tc->pending = 0; \\\n"
	"\tSTP_ACTIONS(_stp_n, where, label); \\\n"
	"} while (0)\n"
	"#define STP_FLUSH_EVERY 10\n"
	"#define STP_STMT(where, label) do { \\\n"
	"\tif (++c->pending >= STP_FLUSH_EVERY) \\\n"
	"\t\tSTP_FLUSH(where, label); \\\n"
	"} while (0)\n\n"
	"static inline int64_t stp_div(struct stp_context *c, int64_t a, int64_t b,\n"
	"\t\t\t      const char *where)\n{\n"
	"\tif (unlikely(b == 0)) {\n"
	"\t\tc->last_stmt = where;\n"
	"\t\t_stp_error(c, \"division by 0\");\n"
	"\t\treturn 0;\n\t}\n"
	"\t/* INT64_MIN / -1 traps on x86: negate in unsigned instead. */\n"
	"\tif (b == -1)\n\t\treturn (int64_t)-(uint64_t)a;\n"
	"\treturn a / b;\n}\n\n"
	"static inline int64_t stp_mod(struct stp_context *c, int64_t a, int64_t b,\n"
	"\t\t\t      const char *where)\n{\n"
	"\tif (unlikely(b == 0)) {\n"
	"\t\tc->last_stmt = where;\n"
	"\t\t_stp_error(c, \"division by 0\");\n"
	"\t\treturn 0;\n\t}\n"
	"\tif (b == -1)\n\t\treturn 0;\n"
	"\treturn a % b;\n}\n\n"
	"static inline int64_t stp_shl(int64_t a, int64_t b)\n"
	"{\n\treturn (int64_t)((uint64_t)a << (b & 63));\n}\n\n"
	"static inline int64_t stp_shr(int64_t a, int64_t b)\n"
	"{\n\treturn a >> (b & 63);\n}\n\n";

static void emit_family(struct session *s, struct strbuf *c, int which)
{
	int i, j;

	for (i = 0; i < pf_nfamilies; i++) {
		const struct probe_family *pf = pf_families[i];
		void (*fn)(struct session *, struct strbuf *, struct vec *) =
			which == 0 ? pf->emit_decls : which == 1 ? pf->emit_start :
			pf->emit_stop;
		struct vec mine = VEC_INIT;

		for (j = 0; j < s->probes.len; j++) {
			struct resolved_probe *rp = s->probes.items[j];

			if (rp->family == pf)
				vec_push(&mine, rp);
		}
		if (fn && mine.len)
			fn(s, c, &mine);
		vec_free(&mine);
	}
}

static bool uses_tvars(struct session *s)
{
	if (s->tv_state)
		return true;
	for (int i = 0; i < s->probes.len; i++)
		if (((struct resolved_probe *)s->probes.items[i])->tvs)
			return true;
	return false;
}

/*
 * A .callee probe's callers (runtime struct stp_callers): kernel
 * link-time return addresses, checked against _printk's move, or a user
 * file's offsets.
 */
static void emit_callers(struct session *s, struct strbuf *c, const struct resolved_probe *rp)
{
	uint64_t printk = 0;

	/* The kernel family checked the symbol; user files' are file offsets. */
	if (!rp->callers_user)
		pf_ksym_addr(s->release, "_printk", &printk);
	sb_printf(c, "static const u64 stp_callers_ra_%d[] = {", rp->id);
	for (int i = 0; i < rp->ncallers; i++)
		sb_printf(c, "%s0x%" PRIx64 "ULL", i ? ", " : " ", rp->callers[i]);
	sb_printf(c, " };\nstatic const struct stp_callers stp_callers_%d = {\n"
		  "\t.match = %s,\n\t.link_ref = 0x%" PRIx64 "ULL,\n"
		  "\t.n = %d,\n\t.ra = stp_callers_ra_%d,\n};\n", rp->id,
		  rp->callers_user ? "_stp_ucallers_match" : "_stp_callers_match", printk,
		  rp->ncallers, rp->id);
}

/*
 * .return probes reading @entry values: stp_entry_<id> runs at the
 * function's entry (the kretprobe's entry handler) and fills the slots
 * the handler reads back as c->entry_slots[i].
 */
static void emit_entry_funcs(struct session *s, struct strbuf *c)
{
	for (int i = 0; i < s->probes.len; i++) {
		struct resolved_probe *rp = s->probes.items[i];

		if (!rp->entry_exprs.len)
			continue;
		sb_printf(c, "static void stp_entry_%d(struct stp_context *c)\n{\n", rp->id);
		for (int j = 0; j < rp->entry_exprs.len; j++)
			sb_printf(c, "\tc->entry_slots[%d] = (int64_t)(%s);\n"
				  "\tif (unlikely(c->last_error))\n\t\treturn;\n", j,
				  (const char *)rp->entry_exprs.items[j]);
		sb_puts(c, "}\n\n");
	}
}

/*
 * stap -t: the timed probes, in index order, each with its derivation
 * ("from:"): the resolved point, the point as written, the alias named.
 */
static void emit_timing_table(struct session *s, struct strbuf *c)
{
	sb_puts(c, "const struct stp_timed stp_timed[] = {\n");
	for (int i = 0; i < s->probes.len; i++) {
		struct resolved_probe *rp = s->probes.items[i];
		struct strbuf from = STRBUF_INIT, written = STRBUF_INIT;

		sb_puts(&from, rp->pp);
		ast_print_point(&written, rp->point);
		if (strcmp(sb_str(&written), rp->pp))
			sb_printf(&from, " from: %s", sb_str(&written));
		if (rp->pn && strcmp(rp->pn, rp->pp) && strcmp(rp->pn, sb_str(&written)))
			sb_printf(&from, " from: %s", rp->pn);
		sb_printf(c, "\t{ &" PF_DESC_FMT ", ", rp->id);
		emit_c_string(c, sb_str(&from), (int)from.len);
		sb_puts(c, " },\n");
		sb_free(&from);
		sb_free(&written);
	}
	sb_printf(c, "};\nconst int stp_ntimed = %d;\n\n", s->probes.len);
	if (!s->timing)	/* --monitor alone: the table, no report at the end */
		return;
	sb_puts(c, "static const struct stp_probe stp_probe_timing = {\n"
		"\t.pp = \"end\",\n\t.loc = \"\",\n\t.handler = _stp_timing_report,\n"
		"\t.state = STP_SESSION_STOPPING,\n};\n\n");
}

int emit_program(struct session *s)
{
	struct strbuf frames = STRBUF_INIT, code = STRBUF_INIT;
	struct strbuf *c = &s->c_code;
	int i;

	emit_classify_globals(s);
	sb_puts(c, "// SPDX-License-Identifier: GPL-2.0-or-later\n");
	sb_printf(c, "/* Generated by stap from %s. */\n", s->user_file->name);
	sb_puts(c, prelude);
	/* stap --modinfo NAME=VALUE: in the module's .modinfo, as modinfo shows it. */
	if (s->modinfo.len)
		sb_puts(c, "#include <linux/module.h>\n");
	for (i = 0; i < s->modinfo.len; i++) {
		const char *nv = s->modinfo.items[i], *eq = strchr(nv, '=');

		sb_printf(c, "MODULE_INFO(%.*s, ", (int)(eq - nv), nv);
		emit_c_string(c, eq + 1, (int)strlen(eq + 1));
		sb_puts(c, ");\n");
	}
	if (uses_tvars(s))
		tv_emit_decls(s, c);
	emit_toplevel_embedded(s, c);
	if (s->regexes.len)
		rx_emit_engine(c);
	for (i = 0; i < s->regexes.len; i++) {
		struct node *n = s->regexes.items[i];

		rx_emit_c(n->rx, arena_printf(&s->arena, "_stp_rx%d", n->id), c);
	}
	/* Where each function's and handler's C lies in code: regs_use.c. */
	size_t (*fspan)[2] = xcalloc((size_t)s->funcs.len + 1, sizeof(*fspan));
	size_t (*hspan)[2] = xcalloc((size_t)s->handlers.len + 1, sizeof(*hspan));
	bool *args_regs = xcalloc((size_t)s->handlers.len + 1, sizeof(*args_regs));

	for (i = 0; i < s->funcs.len; i++) {
		struct func *f = s->funcs.items[i];
		char *cname = arena_printf(&s->arena, "func_%d", f->id);

		fspan[i][0] = code.len;
		sb_printf(c, "static void %s(struct stp_context *c);\n", cname);
		if (f->body->kind == ND_EMBEDDED)
			emit_embedded_func(s, &frames, &code, cname, f);
		else
			emit_body(s, &frames, &code, cname,
				  arena_printf(&s->arena, "f%d", f->id), &f->locals, f, f->body);
		fspan[i][1] = code.len;
	}
	for (i = 0; i < s->handlers.len; i++) {
		struct probe *pr = s->handlers.items[i];

		hspan[i][0] = code.len;
		emit_body(s, &frames, &code, arena_printf(&s->arena, "probe_%d", pr->id),
			  arena_printf(&s->arena, "p%d", pr->id), &pr->locals, NULL,
			  pr->body);
		hspan[i][1] = code.len;
	}
	regs_use_mark(s, sb_str(&code), (const size_t (*)[2])fspan,
		      (const size_t (*)[2])hspan, args_regs);
	bool autoprint = emit_autoprint(s, &frames, &code);

	emit_global_decls(s, c);
	sb_add(c, sb_str(&frames), frames.len);
	sb_puts(c, "\nunion stp_frame {\n");
	for (i = 0; i < s->funcs.len; i++) {
		struct func *f = s->funcs.items[i];

		sb_printf(c, "\tstruct frame_f%d f%d;\n", f->id, f->id);
	}
	for (i = 0; i < s->handlers.len; i++) {
		struct probe *pr = s->handlers.items[i];

		sb_printf(c, "\tstruct frame_p%d p%d;\n", pr->id, pr->id);
	}
	if (autoprint)
		sb_puts(c, "\tstruct frame_autoprint autoprint;\n");
	sb_puts(c, "};\n\nconst size_t stp_locals_size = sizeof(union stp_frame) * (MAXNESTING + 1);\n\n");
	sb_add(c, sb_str(&code), code.len);
	for (i = 0; i < s->probes.len; i++) {
		struct resolved_probe *rp = s->probes.items[i];
		struct srcloc *loc = &rp->probe->loc;
		struct strbuf pp = STRBUF_INIT, at = STRBUF_INIT;

		emit_c_string(&pp, rp->pp, (int)strlen(rp->pp));
		sb_printf(&at, "%s:%d:%d", loc->file->name, loc->line, loc->col);
		if (rp->ncallers)
			emit_callers(s, c, rp);
		sb_printf(c, "static const struct stp_probe " PF_DESC_FMT " = {\n"
			  "\t.pp = %s,\n\t.loc = ", rp->id, sb_str(&pp));
		emit_c_string(c, sb_str(&at), (int)at.len);
		if (rp->pn) {
			sb_puts(c, ",\n\t.pn = ");
			emit_c_string(c, rp->pn, (int)strlen(rp->pn));
		}
		if (rp->label) {
			sb_puts(c, ",\n\t.label = ");
			emit_c_string(c, rp->label, (int)strlen(rp->label));
		}
		sb_printf(c, ",\n\t.handler = probe_%d,\n\t.state = %s,\n",
			  rp->probe->id, rp->family->state);
		if (args_regs[rp->probe->id])
			sb_puts(c, "\t.args_regs = 1,\n");
		if (s->timing || s->monitor_s)
			sb_printf(c, "\t.timed = %d,\n", i + 1);
		if (rp->ncallers)
			sb_printf(c, "\t.callers = &stp_callers_%d,\n", rp->id);
		sb_puts(c, "};\n\n");
		sb_free(&pp);
		sb_free(&at);
	}
	if (s->timing || s->monitor_s)
		emit_timing_table(s, c);
	sb_printf(c, "const bool stp_skip_badvars = %d;\n", s->skip_badvars);
	sb_printf(c, "const bool stp_suppress_handler_errors = %d;\n\n",
		  s->suppress_handler_errors);
	emit_entry_funcs(s, c);
	emit_family(s, c, 0);
	emit_global_exit(s, c);
	emit_global_init(s, c);
	sb_puts(c, "int stp_session_start(void)\n{\n");
	emit_family(s, c, 1);
	sb_puts(c, "\treturn 0;\n}\n\n");
	sb_puts(c, "void stp_session_stop(void)\n{\n");
	emit_family(s, c, 2);
	if (autoprint)
		sb_puts(c, "\t_stp_run_probe(&stp_probe_autoprint, NULL);\n");
	if (s->timing)
		sb_puts(c, "\t_stp_run_probe(&stp_probe_timing, NULL);\n");
	sb_puts(c, "}\n");
	/* Tapset hook: the symbol tables runtime/sym.c reads (syms.c). */
	syms_emit(s, c);
	lines_emit(s, c);
	free(fspan);
	free(hspan);
	free(args_regs);
	sb_free(&frames);
	sb_free(&code);
	return s->errors ? -1 : 0;
}
