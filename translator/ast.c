// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The AST in canonical text form, for -p1.  Parsing this output again
 * gives the same output: every expression is fully parenthesised where
 * precedence could matter and every string is re-escaped.
 */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "stap.h"

/* In step with enum op in stap.h. */
const char *const op_names[OP__COUNT] = {
	[OP_NONE] = "=", [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*",
	[OP_DIV] = "/", [OP_MOD] = "%", [OP_SHL] = "<<", [OP_SHR] = ">>",
	[OP_BITAND] = "&", [OP_BITOR] = "|", [OP_BITXOR] = "^",
	[OP_AND] = "&&", [OP_OR] = "||", [OP_EQ] = "==", [OP_NE] = "!=",
	[OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">", [OP_GE] = ">=",
	[OP_CONCAT] = ".", [OP_MATCH] = "=~", [OP_NOMATCH] = "!~",
	[OP_NEG] = "-", [OP_PLUS] = "+", [OP_NOT] = "!", [OP_BITNOT] = "~",
	[OP_PREINC] = "++", [OP_PREDEC] = "--", [OP_POSTINC] = "++",
	[OP_POSTDEC] = "--",
};

const char *type_name(enum type t)
{
	switch (t) {
	case TY_LONG: return "long";
	case TY_STRING: return "string";
	case TY_STATS: return "stats";
	case TY_VOID: return "void";
	default: return "unknown";
	}
}

static void print_string(struct strbuf *sb, const char *s, int len)
{
	int i;

	sb_putc(sb, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': sb_puts(sb, "\\\""); break;
		case '\\': sb_puts(sb, "\\\\"); break;
		case '\n': sb_puts(sb, "\\n"); break;
		case '\t': sb_puts(sb, "\\t"); break;
		case '\r': sb_puts(sb, "\\r"); break;
		default:
			if (isprint(c))
				sb_putc(sb, (char)c);
			else
				sb_printf(sb, "\\%03o", c);
		}
	}
	sb_putc(sb, '"');
}

static void print_list(struct strbuf *sb, const struct node *n)
{
	for (; n; n = n->next) {
		ast_print_expr(sb, n);
		if (n->next)
			sb_puts(sb, ", ");
	}
}

static void print_members(struct strbuf *sb, const struct member *m)
{
	for (; m; m = m->next) {
		if (m->name) {
			sb_printf(sb, "->%s", m->name);
		} else {
			sb_putc(sb, '[');
			ast_print_expr(sb, m->index);
			sb_putc(sb, ']');
		}
	}
}

void ast_print_expr(struct strbuf *sb, const struct node *n)
{
	switch (n->kind) {
	case ND_EMBEDDED:
		sb_printf(sb, "%%{%s%%}", n->str);
		break;
	case ND_NUM:
		sb_printf(sb, "%" PRId64, n->num);
		break;
	case ND_STR:
		print_string(sb, n->str, n->str_len);
		break;
	case ND_VAR:
		sb_puts(sb, n->str);
		break;
	case ND_INDEX:
		sb_printf(sb, "%s[", n->str);
		print_list(sb, n->args);
		sb_putc(sb, ']');
		break;
	case ND_TARGET:
		sb_printf(sb, "%s$%s", n->op == OP_BITAND ? "&" : "", n->str);
		print_members(sb, n->members);
		sb_puts(sb, n->num == 2 ? "$$" : n->num == 1 ? "$" : "");
		break;
	case ND_ARG:
		sb_printf(sb, "%c%" PRId64, n->str_arg ? '@' : '$', n->num);
		break;
	case ND_ARGC:
		sb_puts(sb, n->str_arg ? "@#" : "$#");
		break;
	case ND_CALL:
		sb_printf(sb, "%s(", n->str);
		print_list(sb, n->args);
		sb_putc(sb, ')');
		break;
	case ND_BINARY:
		sb_putc(sb, '(');
		ast_print_expr(sb, n->lhs);
		sb_printf(sb, ") %s (", op_names[n->op]);
		ast_print_expr(sb, n->rhs);
		sb_putc(sb, ')');
		break;
	case ND_UNARY:
		if (n->op == OP_POSTINC || n->op == OP_POSTDEC) {
			sb_putc(sb, '(');
			ast_print_expr(sb, n->lhs);
			sb_printf(sb, ")%s", op_names[n->op]);
		} else {
			sb_printf(sb, "%s(", op_names[n->op]);
			ast_print_expr(sb, n->lhs);
			sb_putc(sb, ')');
		}
		break;
	case ND_ASSIGN:
		ast_print_expr(sb, n->lhs);
		sb_printf(sb, " %s%s ", n->op == OP_NONE ? "" : op_names[n->op],
			  "=");
		ast_print_expr(sb, n->rhs);
		break;
	case ND_PUSH:
		ast_print_expr(sb, n->lhs);
		sb_puts(sb, " <<< ");
		ast_print_expr(sb, n->rhs);
		break;
	case ND_TERNARY:
		sb_putc(sb, '(');
		ast_print_expr(sb, n->cond);
		sb_puts(sb, ") ? (");
		ast_print_expr(sb, n->then);
		sb_puts(sb, ") : (");
		ast_print_expr(sb, n->els);
		sb_putc(sb, ')');
		break;
	case ND_IN:
		sb_putc(sb, '[');
		print_list(sb, n->args);
		sb_printf(sb, "] in %s", n->str);
		break;
	case ND_STATOP:
	case ND_HIST:
		sb_printf(sb, "@%s(", n->str);
		print_list(sb, n->args);
		sb_putc(sb, ')');
		break;
	case ND_CAST:
	case ND_ATVAR:
		sb_puts(sb, n->op == OP_BITAND ? "&" : "");
		sb_puts(sb, n->kind == ND_CAST ? "@cast(" : "@var(");
		print_list(sb, n->args);
		sb_putc(sb, ')');
		print_members(sb, n->members);
		sb_puts(sb, n->num == 2 ? "$$" : n->num == 1 ? "$" : "");
		break;
	case ND_AUTOCAST:
		sb_puts(sb, n->op == OP_BITAND ? "&(" : "(");
		ast_print_expr(sb, n->lhs);
		sb_putc(sb, ')');
		print_members(sb, n->members);
		sb_puts(sb, n->num == 2 ? "$$" : n->num == 1 ? "$" : "");
		break;
	case ND_DEFINED:
	case ND_ENTRY:
		sb_puts(sb, n->kind == ND_DEFINED ? "@defined(" : "@entry(");
		ast_print_expr(sb, n->lhs);
		sb_putc(sb, ')');
		break;
	case ND_NULL_STMT:	/* '*' of a slice index */
		sb_putc(sb, '*');
		break;
	default:
		sb_puts(sb, "<?>");
	}
}

static void indent(struct strbuf *sb, int depth)
{
	while (depth-- > 0)
		sb_puts(sb, "  ");
}

static void print_stmt(struct strbuf *sb, const struct node *n, int depth);

static void print_body(struct strbuf *sb, const struct node *n, int depth)
{
	if (n->kind == ND_BLOCK) {
		sb_puts(sb, " ");
		print_stmt(sb, n, depth);
	} else {
		sb_putc(sb, '\n');
		indent(sb, depth + 1);
		print_stmt(sb, n, depth + 1);
	}
}

static void print_stmt(struct strbuf *sb, const struct node *n, int depth)
{
	const struct node *k;

	switch (n->kind) {
	case ND_BLOCK:
		sb_puts(sb, "{\n");
		for (k = n->body; k; k = k->next) {
			indent(sb, depth + 1);
			print_stmt(sb, k, depth + 1);
			sb_putc(sb, '\n');
		}
		indent(sb, depth);
		sb_putc(sb, '}');
		break;
	case ND_EXPR_STMT:
		/* The ';' keeps "x++ --y" from re-parsing as "(x++)--". */
		ast_print_expr(sb, n->lhs);
		sb_putc(sb, ';');
		break;
	case ND_NULL_STMT:
		sb_putc(sb, ';');
		break;
	case ND_IF:
		sb_puts(sb, "if (");
		ast_print_expr(sb, n->cond);
		sb_putc(sb, ')');
		print_body(sb, n->then, depth);
		if (n->els) {
			sb_putc(sb, '\n');
			indent(sb, depth);
			sb_puts(sb, "else");
			print_body(sb, n->els, depth);
		}
		break;
	case ND_WHILE:
		sb_puts(sb, "while (");
		ast_print_expr(sb, n->cond);
		sb_putc(sb, ')');
		print_body(sb, n->body, depth);
		break;
	case ND_FOR:
		sb_puts(sb, "for (");
		if (n->init)
			ast_print_expr(sb, n->init);
		sb_puts(sb, "; ");
		if (n->cond)
			ast_print_expr(sb, n->cond);
		sb_puts(sb, "; ");
		if (n->step)
			ast_print_expr(sb, n->step);
		sb_putc(sb, ')');
		print_body(sb, n->body, depth);
		break;
	case ND_FOREACH: {
		int i = 1;

		sb_puts(sb, "foreach (");
		if (n->value)
			sb_printf(sb, "%s = ", n->value->str);
		sb_putc(sb, '[');
		for (k = n->keys; k; k = k->next, i++) {
			sb_puts(sb, k->str);
			if (n->sort_key == i)
				sb_putc(sb, n->sort_dir > 0 ? '+' : '-');
			if (k->next)
				sb_puts(sb, ", ");
		}
		sb_printf(sb, "] in %s", n->array->str);
		if (n->slice) {
			sb_putc(sb, '[');
			for (k = n->slice; k; k = k->next) {
				if (k->kind == ND_NULL_STMT)
					sb_putc(sb, '*');
				else
					ast_print_expr(sb, k);
				if (k->next)
					sb_puts(sb, ", ");
			}
			sb_putc(sb, ']');
		}
		if (n->sort_stat)
			sb_printf(sb, " @%s", n->sort_stat);
		if (n->sort_key < 0)
			sb_putc(sb, n->sort_dir > 0 ? '+' : '-');
		if (n->limit) {
			sb_puts(sb, " limit ");
			ast_print_expr(sb, n->limit);
		}
		sb_putc(sb, ')');
		print_body(sb, n->body, depth);
		break;
	}
	case ND_BREAK:
		sb_puts(sb, "break;");
		break;
	case ND_CONTINUE:
		sb_puts(sb, "continue;");
		break;
	case ND_NEXT:
		sb_puts(sb, "next;");
		break;
	case ND_RETURN:
		sb_puts(sb, "return");
		if (n->lhs) {
			sb_putc(sb, ' ');
			ast_print_expr(sb, n->lhs);
		}
		sb_putc(sb, ';');
		break;
	case ND_DELETE:
		sb_puts(sb, "delete ");
		ast_print_expr(sb, n->lhs);
		sb_putc(sb, ';');
		break;
	case ND_TRY:
		sb_puts(sb, "try ");
		print_stmt(sb, n->body, depth);
		sb_puts(sb, " catch");
		if (n->catch_var)
			sb_printf(sb, " (%s)", n->catch_var->str);
		sb_putc(sb, ' ');
		print_stmt(sb, n->els, depth);
		break;
	case ND_EMBEDDED:
		sb_printf(sb, "%%{%s%%}", n->str);
		break;
	default:
		sb_puts(sb, "<?>");
	}
}

/* One probe point as written, without its optional marks or condition. */
void ast_print_point(struct strbuf *sb, const struct probe_point *pp)
{
	for (const struct pp_comp *c = pp->comps; c; c = c->next) {
		sb_puts(sb, c->name);
		if (c->arg) {
			sb_putc(sb, '(');
			ast_print_expr(sb, c->arg);
			sb_putc(sb, ')');
		}
		if (c->next)
			sb_putc(sb, '.');
	}
}

void ast_print_points(struct strbuf *sb, const struct probe_point *pp)
{
	for (; pp; pp = pp->next) {
		ast_print_point(sb, pp);
		if (pp->sufficient)
			sb_putc(sb, '!');
		else if (pp->optional)
			sb_putc(sb, '?');
		if (pp->cond) {
			sb_puts(sb, " if (");
			ast_print_expr(sb, pp->cond);
			sb_putc(sb, ')');
		}
		if (pp->next)
			sb_puts(sb, ", ");
	}
}

static void print_probe(struct strbuf *sb, const struct probe *p)
{
	sb_puts(sb, "probe ");
	if (p->is_alias) {
		ast_print_points(sb, p->alias_names);
		sb_puts(sb, p->alias_epilogue ? " += " : " = ");
	}
	ast_print_points(sb, p->points);
	sb_putc(sb, ' ');
	print_stmt(sb, p->body, 0);
	sb_putc(sb, '\n');
}

void ast_print_program(struct strbuf *sb, const struct program *prog)
{
	const struct global *g;
	const struct func *f;
	const struct probe *p;
	const struct node *e;

	for (e = prog->embedded; e; e = e->next)
		sb_printf(sb, "%%{%s%%}\n", e->str);
	for (g = prog->globals; g; g = g->next) {
		sb_printf(sb, "%sglobal %s%s", g->is_private ? "private " : "",
			  g->name, g->wrap ? "%" : "");
		if (g->is_array)
			sb_printf(sb, "[%" PRId64 "]", g->max_entries);
		if (g->init) {
			sb_puts(sb, " = ");
			ast_print_expr(sb, g->init);
		}
		sb_putc(sb, '\n');
	}
	for (f = prog->funcs; f; f = f->next) {
		const struct param *pa;

		sb_printf(sb, "%sfunction %s", f->is_private ? "private " : "",
			  f->name);
		if (f->type != TY_UNKNOWN)
			sb_printf(sb, ":%s", type_name(f->type));
		sb_putc(sb, '(');
		for (pa = f->params; pa; pa = pa->next) {
			sb_puts(sb, pa->name);
			if (pa->type != TY_UNKNOWN)
				sb_printf(sb, ":%s", type_name(pa->type));
			if (pa->next)
				sb_puts(sb, ", ");
		}
		sb_puts(sb, ") ");
		print_stmt(sb, f->body, 0);
		sb_putc(sb, '\n');
	}
	for (p = prog->aliases; p; p = p->next)
		print_probe(sb, p);
	for (p = prog->probes; p; p = p->next)
		print_probe(sb, p);
}

static struct member *clone_members(struct arena *a, const struct member *m)
{
	struct member head = { 0 }, *tail = &head;

	for (; m; m = m->next) {
		struct member *c = arena_alloc(a, sizeof(*c));

		*c = *m;
		c->index = ast_clone(a, m->index);
		tail = tail->next = c;
	}
	tail->next = NULL;
	return head.next;
}

struct node *ast_clone(struct arena *a, const struct node *n)
{
	struct node head = { 0 }, *tail = &head;

	for (; n; n = n->next) {
		struct node *c = arena_alloc(a, sizeof(*c));

		*c = *n;
		c->lhs = ast_clone(a, n->lhs);
		c->rhs = ast_clone(a, n->rhs);
		c->cond = ast_clone(a, n->cond);
		c->then = ast_clone(a, n->then);
		c->els = ast_clone(a, n->els);
		c->init = ast_clone(a, n->init);
		c->step = ast_clone(a, n->step);
		c->body = ast_clone(a, n->body);
		c->args = ast_clone(a, n->args);
		c->keys = ast_clone(a, n->keys);
		c->value = ast_clone(a, n->value);
		c->array = ast_clone(a, n->array);
		c->limit = ast_clone(a, n->limit);
		c->slice = ast_clone(a, n->slice);
		c->catch_var = ast_clone(a, n->catch_var);
		c->members = clone_members(a, n->members);
		tail = tail->next = c;
	}
	tail->next = NULL;
	return head.next;
}
