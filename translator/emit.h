/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the pass-3 files: emit.c (bodies, expressions, statements,
 * the module skeleton) and emit_map.c (globals, arrays, statistics).
 */
#ifndef EMIT_H
#define EMIT_H

#include "stap.h"

struct emitter {
	struct session *s;
	struct strbuf *out;	/* the body being written */
	struct strbuf frame;	/* the body's frame struct fields */
	int ntemps;
	int nlabels;
	int brk, cont;		/* labels of the innermost loop */
	int loop_depth;		/* loops around the code being emitted */
	struct func *func;	/* NULL in a probe body */
	int indent;
	const char *err;	/* label errors jump to: "out" or a catch */
	const struct srcloc *loc;	/* statement being emitted, for #line */
	const struct srcfile *qfile;	/* file whose quoted name is qname */
	const char *qname;
};

/* One line of C at the current indent, mapped to the statement's line. */
void emit_line(struct emitter *E, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* A fresh frame temporary of type t: "l->tN". */
const char *emit_temp(struct emitter *E, enum type t);
/* A C expression for n's value; may emit statements first. */
const char *emit_expr(struct emitter *E, struct node *n);
void emit_stmt(struct emitter *E, struct node *n);
/* n's value, copied first if later_effects (later operands) could change it. */
const char *emit_operand(struct emitter *E, struct node *n, bool later_effects);
bool emit_has_effects(const struct node *n);
/* Does n or any node after it in its list have effects? */
bool emit_list_has_effects(const struct node *n);
/* dst = v for a long or string. */
void emit_store(struct emitter *E, const char *dst, enum type t, const char *v);
/* Jump to the error label if the last call failed. */
void emit_check_error(struct emitter *E);
/* A C string literal naming a spot: "operator '/' at f.stp:1:2". */
const char *emit_where(struct emitter *E, const char *what, const struct srcloc *loc);
void emit_c_string(struct strbuf *sb, const char *s, int len);
/* MAXACTION accounting of loops (emit.c): see count_actions(). */
void emit_loop_start(struct emitter *E, const struct node *loop, int extra);
void emit_loop_body(struct emitter *E, struct node *body);
void emit_iteration_end(struct emitter *E, const struct node *body);
/* The token at loc as errors name it: "identifier 'x'", "operator '/'"... */
const char *emit_token_desc(struct emitter *E, const struct srcloc *loc);

/* emit_map.c */
const char *emit_index_read(struct emitter *E, struct node *n);
const char *emit_index_assign(struct emitter *E, struct node *n);
const char *emit_index_crement(struct emitter *E, struct node *n);
const char *emit_push(struct emitter *E, struct node *n);
const char *emit_in(struct emitter *E, struct node *n);
const char *emit_statop(struct emitter *E, struct node *n);
void emit_print_hist(struct emitter *E, struct node *n, struct node *call);
void emit_delete(struct emitter *E, struct node *n);
void emit_foreach(struct emitter *E, struct node *n);
void emit_global_decls(struct session *s, struct strbuf *c);
bool global_is_param(const struct session *s, const struct symbol *g);
void emit_global_init(struct session *s, struct strbuf *c);
void emit_global_exit(struct session *s, struct strbuf *c);
/* The C name of a global's storage: "g_name". */
const char *emit_global_ref(struct emitter *E, struct symbol *sym);
/*
 * regs_use.c: args_regs[i] for each handler whose code, in
 * code[hspan[i][0]..hspan[i][1]), and the functions it calls (fspan, by
 * id) read no register an ftrace_ops without SAVE_REGS leaves unsaved.
 */
void regs_use_mark(struct session *s, const char *code, const size_t (*fspan)[2],
		   const size_t (*hspan)[2], bool *args_regs);
/* A handler printing write-only globals at the end; false if none. */
bool emit_autoprint(struct session *s, struct strbuf *frames, struct strbuf *code);
/*
 * Lock list of a handler; returns its length (0: no globals).  AFTER gets
 * what must run once the locks are taken (folding per-CPU counters).
 */
int emit_locks(struct session *s, struct strbuf *c, const char *name,
	       struct node *body, struct strbuf *after);
/* Decide which globals are per-CPU counters; before emitting code. */
void emit_classify_globals(struct session *s);

#endif /* EMIT_H */
