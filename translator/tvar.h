/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Target variables (tv_ prefix): $var, $var->member[i], $return,
 * @entry(expr), $$parms/$$locals/$$vars/$$return, $var$ and $var$$,
 * @cast, @var and @defined.
 *
 * Pass 2 resolves each use against the DWARF of the probe's context and
 * turns it into C for pass 3: reads of registers (struct pt_regs) and
 * non-faulting reads of memory, with types walked through the DWARF type
 * graph (typedefs, pointers, structs, unions, arrays, bitfields, enums).
 *
 * A probe family that offers target variables implements
 * probe_family.tv_scope, filling a struct tv_scope for one resolved
 * probe.  Two kinds of context exist:
 *
 *   - a DWARF code address (kernel.function, .statement, module(...)):
 *     dbg, fn and pc are set, and variables are looked up in the scopes
 *     around pc (lexical blocks, then the function, then its compile
 *     unit) and read through their DWARF location at pc;
 *   - explicit arguments (kernel.trace): args[] gives each variable's
 *     name, DWARF type and a C expression of its value.
 *
 * The generated C runs in the probe handler, where `c` is the
 * struct stp_context * of the hit (c->regs: registers at the probe).
 */
#ifndef TVAR_H
#define TVAR_H

#include <elfutils/libdw.h>
#include "dw.h"
#include "stap.h"

/* A variable given by the family rather than found at a pc (tracepoints). */
struct tv_arg {
	const char *name;	/* without '$': "prev" */
	Dwarf_Die type;		/* its DWARF type (in tv_scope.dbg) */
	const char *cexpr;	/* C expression of its value as an unsigned
				 * long, valid in the probe handler:
				 * "c->tp_args[0]" */
};

struct tv_scope {
	Dwarf *dbg;		/* owned by the family; lives through pass 3 */
	Dwarf_CFI *cfi;		/* call frame info for DW_OP_call_frame_cfa, or NULL */

	/* DWARF code address contexts */
	bool has_fn;
	Dwarf_Die fn;		/* DW_TAG_subprogram or DW_TAG_inlined_subroutine probed */
	uint64_t pc;		/* the probe's address in dbg's address space */
	uint64_t entry_pc;	/* the function's entry, where @entry reads */
	bool is_return;		/* .return: $return exists; parameters are
				 * read at entry (an implicit @entry) */

	/* explicit-argument contexts (tracepoints) */
	const struct tv_arg *args;
	int nargs;
	const char *tp_name, *tp_system;	/* $$name, $$system; NULL: none */

	/*
	 * Whose addresses dbg's are (dw.h): where a global variable
	 * (DW_OP_addr) is at run time, refused where that is not known; its
	 * name is @cast's default and names the debuginfo in messages.
	 */
	struct dw_space space;
};

/*
 * Resolve target construct n (ND_TARGET, ND_ENTRY, ND_DEFINED, ND_CAST,
 * ND_ATVAR) used in resolved probe rp, whose family's tv_scope is called
 * on first use.  On success n->tv holds the C and the type is returned
 * (TY_LONG or TY_STRING); after an error (reported at n) TY_UNKNOWN.
 * lvalue: n is assigned to (guru mode only).  Idempotent: sem may call it
 * once per fixpoint round.
 */
enum type tv_resolve(struct session *s, struct resolved_probe *rp, struct node *n,
		     bool lvalue);

/*
 * @entry(expr) with expr not a lone target: each ND_TARGET n inside is
 * resolved with this instead, read at entry and saved.
 */
enum type tv_resolve_at_entry(struct session *s, struct resolved_probe *rp, struct node *n);

/*
 * The C type a number read from a target expression has, which a local
 * or a function's result that holds it carries ("autocast").
 */
struct tv_ctype {
	Dwarf_Die type;		/* the value's type */
	bool addr_of;		/* the value is the address of a `type` (&EXPR) */
	const char *rd;		/* reader() of where it was read: the same
				 * address space for what is read through it */
	struct tv_scope *sc;	/* the scope it was read in, or NULL */
	/*
	 * Declared, not looked up yet: the type of this &@cast(...) (a
	 * tapset function's "returns:" pragma), found in the DWARF only when
	 * a value of it is read through, so that a script merely storing
	 * task_current() loads no debuginfo.
	 */
	struct node *decl;
};

/* Are a and b the same type (the same DIE, or one of the same name)? */
bool tv_ctype_same(struct session *s, const struct tv_ctype *a, const struct tv_ctype *b);
/* "struct file*", for messages. */
const char *tv_ctype_name(struct session *s, const struct tv_ctype *c);
/*
 * (e)->members (ND_AUTOCAST) with e a script value of C type ct: resolved
 * as n's own target construct whose value _tv_i0 is e.  As tv_resolve;
 * quiet: a failure is no error (@defined(e->f)).
 */
enum type tv_resolve_autocast(struct session *s, struct resolved_probe *rp, struct node *n,
			      const struct tv_ctype *ct, bool lvalue, bool quiet);

/* What pass 3 emits for a resolved construct (node.tv). */
struct tv_code {
	enum type type;
	/*
	 * TY_LONG: a C expression of type int64_t.  TY_STRING: C statements
	 * that write a NUL-terminated string of at most MAXSTRINGLEN bytes
	 * into `char *_tv_dst`.  Either may fail the hit (c->last_error);
	 * the emitter checks after it.
	 */
	const char *code;
	/*
	 * lvalue (guru): a C statement storing `int64_t _tv_val` into the
	 * variable; NULL if not assignable.
	 */
	const char *store;
	bool constant;		/* @defined: code is "0" or "1", fold it */
	/*
	 * Script expressions the code reads as `int64_t _tv_i0`, `_tv_i1`...
	 * (computed array indexes, the pointer of @cast): the emitter
	 * evaluates them first.
	 */
	int nidx;
	struct node **idx;
	const struct tv_ctype *ctype;	/* TY_LONG: its C type, or NULL */
};

/* C shared by every module that reads target variables (KASLR helper). */
void tv_emit_decls(struct session *s, struct strbuf *c);
/*
 * The DWARF index of the session's kernel (s->release), opened once per
 * session and owned by it, so Dwarf DIEs stay valid through pass 3.
 * NULL with *err (malloc'ed, dw_kernel_open's message) on failure.
 */
struct dw_object *tv_kernel(struct session *s, char **err);
/*
 * Fill the parts of a scope every probe of object o shares: its DWARF and
 * CFI and its address space (the kernel's: KASLR-shifted globals,
 * "kernel" as @cast's default).
 */
void tv_object_scope(struct dw_object *o, struct tv_scope *out);
/*
 * The same for a probe at pc in the function or inlined copy whose DIE is
 * at die_off in o's DWARF (entry_pc: where @entry reads).  false if that
 * DIE cannot be read: the family says so in its own words.
 */
bool tv_object_fn_scope(struct dw_object *o, uint64_t die_off, uint64_t pc, uint64_t entry_pc,
			bool is_return, struct tv_scope *out);
/* Release what tv_resolve kept in the session (s->tv_state). */
void tv_free(struct session *s);

#endif /* TVAR_H */
