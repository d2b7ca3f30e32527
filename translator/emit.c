// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3: the module's C.  Each probe body and script function becomes a
 * C function over a frame struct held in the per-CPU context (never on
 * the kernel stack: strings are MAXSTRINGLEN bytes).  Expressions are
 * evaluated left to right into frame temporaries; every operation that
 * can fail sets c->last_error and jumps to the body's "out" label.
 * #line directives point compiler messages back at the script.
 */
#include <inttypes.h>
#include <string.h>

#include "stap.h"
#include "probes/probes.h"

struct emitter {
	struct session *s;
	struct strbuf *out;	/* the body being written */
	struct strbuf frame;	/* the body's frame struct fields */
	int ntemps;
	int nlabels;
	int brk, cont;		/* labels of the innermost loop */
	struct func *func;	/* NULL in a probe body */
	int indent;
	const struct srcloc *loc;	/* statement being emitted, for #line */
	const struct srcfile *qfile;	/* file whose quoted name is qname */
	const char *qname;
};

static const char *quote(struct emitter *E, const char *s);

static const char *expr(struct emitter *E, struct node *n);
static void stmt(struct emitter *E, struct node *n);

static void line(struct emitter *E, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void line(struct emitter *E, const char *fmt, ...)
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
static void c_string(struct strbuf *sb, const char *s, int len)
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

	c_string(&sb, s, (int)strlen(s));
	q = arena_strdup(&E->s->arena, sb_str(&sb));
	sb_free(&sb);
	return q;
}

/* "operator '/' at file:line:col", as errors name their spot. */
static const char *where(struct emitter *E, const char *what,
			 const struct srcloc *loc)
{
	return quote(E, arena_printf(&E->s->arena, "%s at %s:%d:%d", what,
				     loc->file->name, loc->line, loc->col));
}

static const char *new_temp(struct emitter *E, enum type t)
{
	int id = E->ntemps++;

	if (t == TY_STRING)
		sb_printf(&E->frame, "\tchar t%d[MAXSTRINGLEN];\n", id);
	else
		sb_printf(&E->frame, "\tint64_t t%d;\n", id);
	return arena_printf(&E->s->arena, "l->t%d", id);
}

static void check_error(struct emitter *E)
{
	line(E, "if (unlikely(c->last_error)) goto out;");
}

static const char *var_ref(struct emitter *E, struct symbol *sym)
{
	if (sym->kind == SYM_GLOBAL)
		return arena_printf(&E->s->arena, "g_%s", sym->name);
	return arena_printf(&E->s->arena, "l->v_%s", sym->name);
}

/* Store value v of type t into the variable (strings are copied). */
static void store(struct emitter *E, const char *dst, enum type t,
		  const char *v)
{
	if (t == TY_STRING)
		line(E, "strscpy(%s, %s, MAXSTRINGLEN);", dst, v);
	else
		line(E, "%s = %s;", dst, v);
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
		sb_printf(fmt, "%%%s", cv->flags);
		if (cv->width == -2) {
			sb_putc(fmt, '*');
			sb_printf(args, ", (int)%s", expr(E, a));
			a = a->next;
		} else if (cv->width >= 0) {
			sb_printf(fmt, "%d", cv->width);
		}
		if (cv->prec == -2) {
			sb_puts(fmt, ".*");
			sb_printf(args, ", (int)%s", expr(E, a));
			a = a->next;
		} else if (cv->prec >= 0) {
			sb_printf(fmt, ".%d", cv->prec);
		}
		switch (cv->conv) {
		case 's':
			sb_putc(fmt, 's');
			sb_printf(args, ", %s", expr(E, a));
			break;
		case 'c':
			sb_putc(fmt, 'c');
			sb_printf(args, ", (int)%s", expr(E, a));
			break;
		case 'd':
		case 'i':
			sb_puts(fmt, "lld");
			sb_printf(args, ", (long long)%s", expr(E, a));
			break;
		default:
			sb_printf(fmt, "ll%c", cv->conv);
			sb_printf(args, ", (unsigned long long)%s", expr(E, a));
		}
		a = a->next;
	}
}

static const char *builtin_call(struct emitter *E, struct node *n)
{
	struct strbuf fmt = STRBUF_INIT, args = STRBUF_INIT;
	const char *result = "0";
	struct node *a;

	switch (n->builtin) {
	case BI_PRINTF:
	case BI_SPRINTF:
		format_call(E, n, &fmt, &args);
		break;
	case BI_PRINT:
	case BI_PRINTLN:
	case BI_SPRINT:
	case BI_SPRINTLN:
		for (a = n->args; a; a = a->next)
			print_value(&fmt, &args, a->type, expr(E, a));
		if (n->builtin == BI_PRINTLN || n->builtin == BI_SPRINTLN)
			sb_puts(&fmt, "\n");
		break;
	case BI_EXIT:
		line(E, "_stp_exit();");
		goto done;
	case BI_ERROR:
		line(E, "c->last_stmt = %s;", where(E, "identifier 'error'", &n->loc));
		line(E, "_stp_error(c, \"%%s\", %s);", expr(E, n->args));
		line(E, "goto out;");
		goto done;
	default:
		break;
	}
	struct strbuf q = STRBUF_INIT;

	c_string(&q, sb_str(&fmt), (int)fmt.len);
	if (n->builtin == BI_PRINTF || n->builtin == BI_PRINT ||
	    n->builtin == BI_PRINTLN) {
		if (!args.len && !strchr(sb_str(&fmt), '%'))
			line(E, "_stp_print_n(c, %s, %zu);", sb_str(&q), fmt.len);
		else
			line(E, "_stp_printf(c, %s%s);", sb_str(&q), sb_str(&args));
	} else {
		result = new_temp(E, TY_STRING);
		line(E, "snprintf(%s, MAXSTRINGLEN, %s%s);", result, sb_str(&q),
		     sb_str(&args));
	}
	sb_free(&q);
done:
	sb_free(&fmt);
	sb_free(&args);
	return result;
}

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
		vals[i++] = expr(E, a);
	line(E, "if (unlikely(c->nesting + 1 > MAXNESTING)) {");
	line(E, "\tc->last_stmt = %s;", where(E, arena_printf(&E->s->arena,
						"identifier '%s'", f->name), &n->loc));
	line(E, "\t_stp_error(c, \"MAXNESTING exceeded\");");
	line(E, "\tgoto out;");
	line(E, "}");
	line(E, "{");
	E->indent++;
	line(E, "struct frame_f%d *callee = &((union stp_frame *)c->locals)[c->nesting + 1].f%d;",
	     f->id, f->id);
	line(E, "memset(callee, 0, sizeof(*callee));");
	for (p = f->params, i = 0; p; p = p->next, i++)
		store(E, arena_printf(&E->s->arena, "callee->v_%s", p->name),
		      p->sym->type, vals[i]);
	line(E, "c->nesting++;");
	line(E, "func_%d(c);", f->id);
	line(E, "c->nesting--;");
	if (f->type == TY_LONG || f->type == TY_STRING) {
		result = new_temp(E, f->type);
		store(E, result, f->type, "callee->retval");
	}
	E->indent--;
	line(E, "}");
	check_error(E);
	return result;
}

static const char *assign(struct emitter *E, struct node *n)
{
	struct symbol *sym = n->lhs->sym;
	const char *dst = var_ref(E, sym);
	const char *v = expr(E, n->rhs);

	if (n->op == OP_NONE) {
		store(E, dst, sym->type, v);
	} else if (n->op == OP_CONCAT) {
		line(E, "{ size_t len = strnlen(%s, MAXSTRINGLEN); strscpy(%s + len, %s, MAXSTRINGLEN - len); }",
		     dst, dst, v);
	} else if (n->op == OP_DIV || n->op == OP_MOD) {
		line(E, "%s = stp_%s(c, %s, %s, %s);", dst,
		     n->op == OP_DIV ? "div" : "mod", dst, v,
		     where(E, arena_printf(&E->s->arena, "operator '%s='",
					   op_names[n->op]), &n->loc));
		check_error(E);
	} else if (n->op == OP_SHL || n->op == OP_SHR) {
		line(E, "%s = stp_%s(%s, %s);", dst, n->op == OP_SHL ? "shl" : "shr",
		     dst, v);
	} else {
		line(E, "%s %s= %s;", dst, op_names[n->op], v);
	}
	return dst;
}

static const char *binary(struct emitter *E, struct node *n)
{
	struct arena *A = &E->s->arena;
	const char *l, *r, *t;

	if (n->op == OP_AND || n->op == OP_OR) {
		t = new_temp(E, TY_LONG);
		l = expr(E, n->lhs);
		line(E, "%s = %s;", t, n->op == OP_AND ? "0" : "1");
		line(E, "if (%s(%s)) {", n->op == OP_AND ? "" : "!", l);
		E->indent++;
		r = expr(E, n->rhs);
		line(E, "%s = (%s) != 0;", t, r);
		E->indent--;
		line(E, "}");
		return t;
	}
	l = expr(E, n->lhs);
	/* Keep the left value if the right side has effects of its own. */
	if (n->lhs->kind == ND_VAR && n->rhs->kind != ND_NUM &&
	    n->rhs->kind != ND_STR && n->rhs->kind != ND_VAR) {
		t = new_temp(E, n->lhs->type);
		store(E, t, n->lhs->type, l);
		l = t;
	}
	r = expr(E, n->rhs);
	switch (n->op) {
	case OP_CONCAT:
		t = new_temp(E, TY_STRING);
		line(E, "strscpy(%s, %s, MAXSTRINGLEN);", t, l);
		line(E, "{ size_t len = strnlen(%s, MAXSTRINGLEN); strscpy(%s + len, %s, MAXSTRINGLEN - len); }",
		     t, t, r);
		return t;
	case OP_DIV:
	case OP_MOD:
		t = new_temp(E, TY_LONG);
		line(E, "%s = stp_%s(c, %s, %s, %s);", t,
		     n->op == OP_DIV ? "div" : "mod", l, r,
		     where(E, arena_printf(A, "operator '%s'", op_names[n->op]), &n->loc));
		check_error(E);
		return t;
	case OP_SHL:
	case OP_SHR:
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

	switch (n->op) {
	case OP_PREINC:
	case OP_PREDEC:
		v = var_ref(E, n->lhs->sym);
		line(E, "%s%s;", op_names[n->op], v);
		return v;
	case OP_POSTINC:
	case OP_POSTDEC: {
		const char *t = new_temp(E, TY_LONG);

		v = var_ref(E, n->lhs->sym);
		line(E, "%s = %s%s;", t, v, op_names[n->op]);
		return t;
	}
	case OP_NOT:
		return arena_printf(A, "((int64_t)!(%s))", expr(E, n->lhs));
	case OP_NEG:
		return arena_printf(A, "((int64_t)-(uint64_t)(%s))", expr(E, n->lhs));
	default:
		return arena_printf(A, "(%s(%s))", op_names[n->op], expr(E, n->lhs));
	}
}

static const char *expr(struct emitter *E, struct node *n)
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

		c_string(&sb, n->str, n->str_len);
		q = arena_strdup(A, sb_str(&sb));
		sb_free(&sb);
		return q;
	}
	case ND_VAR:
		return var_ref(E, n->sym);
	case ND_CALL:
		return n->builtin ? builtin_call(E, n) : func_call(E, n);
	case ND_ASSIGN:
		return assign(E, n);
	case ND_BINARY:
		return binary(E, n);
	case ND_UNARY:
		return unary(E, n);
	case ND_TERNARY: {
		const char *t = new_temp(E, n->type);
		const char *cond = expr(E, n->cond);

		line(E, "if (%s) {", cond);
		E->indent++;
		store(E, t, n->type, expr(E, n->then));
		E->indent--;
		line(E, "} else {");
		E->indent++;
		store(E, t, n->type, expr(E, n->els));
		E->indent--;
		line(E, "}");
		return t;
	}
	default:
		/* sem rejects everything else before pass 3. */
		return "0";
	}
}

static void count_action(struct emitter *E, const struct srcloc *loc)
{
	line(E, "STP_ACTION(%s);", where(E, "statement", loc));
}

static void loop(struct emitter *E, struct node *n)
{
	int saved_brk = E->brk, saved_cont = E->cont;
	int id = E->nlabels++;

	E->brk = E->cont = id;
	if (n->init)
		expr(E, n->init);
	line(E, "for (;;) {");
	E->indent++;
	count_action(E, &n->loc);
	if (n->cond)
		line(E, "if (!(%s)) break;", expr(E, n->cond));
	stmt(E, n->body);
	E->indent--;
	line(E, "cont_%d: __attribute__((unused));", id);
	E->indent++;
	if (n->step)
		expr(E, n->step);
	E->indent--;
	line(E, "}");
	E->brk = saved_brk;
	E->cont = saved_cont;
}

static void stmt(struct emitter *E, struct node *n)
{
	const struct srcloc *saved = E->loc;
	struct node *k;

	if (n->kind != ND_BLOCK && n->kind != ND_NULL_STMT) {
		E->loc = &n->loc;
		count_action(E, &n->loc);
	}
	switch (n->kind) {
	case ND_BLOCK:
		for (k = n->body; k; k = k->next)
			stmt(E, k);
		break;
	case ND_EXPR_STMT: {
		const char *v = expr(E, n->lhs);

		/* A bare value is evaluated for its effects only. */
		if (n->lhs->type == TY_LONG && strcmp(v, "0") && n->lhs->kind != ND_ASSIGN &&
		    n->lhs->kind != ND_CALL)
			line(E, "(void)%s;", v);
		break;
	}
	case ND_NULL_STMT:
		break;
	case ND_IF:
		line(E, "if (%s) {", expr(E, n->cond));
		E->indent++;
		stmt(E, n->then);
		E->indent--;
		if (n->els) {
			line(E, "} else {");
			E->indent++;
			stmt(E, n->els);
			E->indent--;
		}
		line(E, "}");
		break;
	case ND_WHILE:
	case ND_FOR:
		loop(E, n);
		break;
	case ND_BREAK:
		line(E, "break;");
		break;
	case ND_CONTINUE:
		line(E, "goto cont_%d;", E->cont);
		break;
	case ND_NEXT:
		line(E, "goto out;");
		break;
	case ND_RETURN:
		if (n->lhs)
			store(E, "l->retval", E->func->type, expr(E, n->lhs));
		line(E, "goto out;");
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

static void emit_body(struct session *s, struct strbuf *frames,
		      struct strbuf *code, const char *cname,
		      const char *frame_name, struct vec *locals,
		      struct func *f, struct node *body)
{
	struct strbuf out = STRBUF_INIT;
	struct emitter E = { .s = s, .out = &out, .func = f, .indent = 1 };

	sb_printf(&E.frame, "struct frame_%s {\n", frame_name);
	frame_vars(&E.frame, locals);
	if (f && (f->type == TY_LONG || f->type == TY_STRING))
		sb_printf(&E.frame, f->type == TY_STRING ?
			  "\tchar retval[MAXSTRINGLEN];\n" : "\tint64_t retval;\n");
	stmt(&E, body);
	sb_puts(&E.frame, "\tchar unused;\n};\n");
	sb_add(frames, E.frame.buf, E.frame.len);

	sb_printf(code, "static void %s(struct stp_context *c)\n{\n", cname);
	sb_printf(code, "\tstruct frame_%s *l = &((union stp_frame *)c->locals)[c->nesting].%s;\n\n",
		  frame_name, frame_name);
	if (!f)
		sb_puts(code, "\tmemset(l, 0, sizeof(*l));\n");
	sb_add(code, out.buf, out.len);
	sb_puts(code, "out: __attribute__((unused));\n\t(void)l;\n}\n\n");
	sb_free(&out);
	sb_free(&E.frame);
}

static void emit_globals(struct session *s, struct strbuf *c)
{
	int i;

	for (i = 0; i < s->globals.len; i++) {
		struct symbol *g = s->globals.items[i];
		struct node *init = g->global->init;

		if (g->type == TY_STRING) {
			sb_printf(c, "static char g_%s[MAXSTRINGLEN]", g->name);
			if (init) {
				sb_puts(c, " = ");
				c_string(c, init->str, init->str_len);
			}
		} else {
			sb_printf(c, "static int64_t g_%s", g->name);
			if (init)
				sb_printf(c, " = %" PRId64 "LL", init->num);
		}
		sb_puts(c, ";\n");
	}
}

/* Helpers every module gets; small enough to inline. */
static const char prelude[] =
	"#include <linux/kernel.h>\n"
	"#include <linux/string.h>\n"
	"#include \"stp_runtime.h\"\n\n"
	"/* Count a statement against MAXACTION; every body has an out label. */\n"
	"#define STP_ACTION(where) do { \\\n"
	"\tif (unlikely(++c->actions > MAXACTION)) { \\\n"
	"\t\tc->last_stmt = (where); \\\n"
	"\t\t_stp_error(c, \"MAXACTION exceeded\"); \\\n"
	"\t\tgoto out; \\\n"
	"\t} \\\n"
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

int emit_program(struct session *s)
{
	struct strbuf frames = STRBUF_INIT, code = STRBUF_INIT;
	struct strbuf *c = &s->c_code;
	int i;

	sb_puts(c, "// SPDX-License-Identifier: GPL-2.0-or-later\n");
	sb_printf(c, "/* Generated by stap from %s. */\n", s->user_file->name);
	sb_puts(c, prelude);
	for (i = 0; i < s->funcs.len; i++) {
		struct func *f = s->funcs.items[i];
		char *cname = arena_printf(&s->arena, "func_%d", f->id);

		if (f->body->kind == ND_EMBEDDED) {
			diag_error(s, &f->body->loc, "embedded C functions are not supported yet");
			continue;
		}
		sb_printf(c, "static void %s(struct stp_context *c);\n", cname);
		emit_body(s, &frames, &code, cname,
			  arena_printf(&s->arena, "f%d", f->id), &f->locals, f, f->body);
	}
	for (i = 0; i < s->handlers.len; i++) {
		struct probe *pr = s->handlers.items[i];

		emit_body(s, &frames, &code, arena_printf(&s->arena, "probe_%d", pr->id),
			  arena_printf(&s->arena, "p%d", pr->id), &pr->locals, NULL,
			  pr->body);
	}
	emit_globals(s, c);
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
	sb_puts(c, "};\n\nconst size_t stp_locals_size = sizeof(union stp_frame) * (MAXNESTING + 1);\n\n");
	sb_add(c, sb_str(&code), code.len);
	for (i = 0; i < s->probes.len; i++) {
		struct resolved_probe *rp = s->probes.items[i];
		struct srcloc *loc = &rp->probe->loc;
		struct strbuf pp = STRBUF_INIT, at = STRBUF_INIT;

		c_string(&pp, rp->pp, (int)strlen(rp->pp));
		sb_printf(&at, "%s:%d:%d", loc->file->name, loc->line, loc->col);
		sb_printf(c, "static const struct stp_probe " PF_DESC_FMT " = {\n"
			  "\t.pp = %s,\n\t.loc = ", rp->id, sb_str(&pp));
		c_string(c, sb_str(&at), (int)at.len);
		sb_printf(c, ",\n\t.handler = probe_%d,\n\t.state = %s,\n};\n\n",
			  rp->probe->id, rp->family->state);
		sb_free(&pp);
		sb_free(&at);
	}
	emit_family(s, c, 0);
	sb_puts(c, "int stp_script_init(void)\n{\n\treturn 0;\n}\n\n");
	sb_puts(c, "void stp_script_exit(void)\n{\n}\n\n");
	sb_puts(c, "int stp_session_start(void)\n{\n");
	emit_family(s, c, 1);
	sb_puts(c, "\treturn 0;\n}\n\n");
	sb_puts(c, "void stp_session_stop(void)\n{\n");
	emit_family(s, c, 2);
	sb_puts(c, "}\n");
	sb_free(&frames);
	sb_free(&code);
	return s->errors ? -1 : 0;
}
