// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Target variables: DWARF variables, locations and types turned into the
 * C that reads them (see tvar.h).
 *
 * A use resolves in three steps:
 *   1. find the base: a variable in the scopes around the probe's pc, a
 *      family-given argument, $return, a global (@var) or a pointer
 *      (@cast); this gives a struct tval, "where the object is" (in
 *      memory at an address, in a register, or a computed value) and its
 *      DWARF type;
 *   2. walk the member chain (->name, [index]) through the type graph,
 *      each step a new tval;
 *   3. read the result as a scalar (int64_t), or print it ($var$,
 *      $$parms) into a string.
 * Addresses are C expressions of type u64 built while translating the
 * DWARF location expression (a stack machine run at translation time on
 * C expressions instead of numbers).  Every memory read goes through
 * a reader that cannot fault, of the probe's address space: kernel
 * memory (_stp_tv_kread) or the traced task's (_stp_tv_uread), chosen
 * here; see reader().
 *
 * x86-64 only: DWARF register numbers map to struct pt_regs fields.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tvar.h"
#include "dw.h"
#include "probes/probes.h"

/* DWARF x86-64 register numbers 0-16 as struct pt_regs fields. */
static const char *const tv_regs[] = {
	"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "ip",
};

/* How deep $var$$ and @cast chains go, and array elements printed. */
#define TV_MAX_STACK	32
#define TV_MAX_ELEMS	16
#define TV_MAX_SCOPES	64

enum tvk {
	TVK_MEM,	/* the object is in memory at address c */
	TVK_REG,	/* the object is register reg */
	TVK_VAL,	/* the object's value is c (computed, not in memory) */
};

struct tval {
	enum tvk kind;
	const char *c;		/* TVK_MEM: address; TVK_VAL: value (u64 C expressions) */
	const char *reg;	/* TVK_REG: pt_regs field */
	bool has_type;		/* false: void */
	Dwarf_Die type;
	int bit_size;		/* bitfield: width in bits, else 0 */
	int bit_off;		/* bitfield: from the LSB of the storage unit at c */
	int storage;		/* bitfield: bytes loaded from c */
	bool cast_base;		/* @cast(p, "T") itself: [i] indexes as ((T *)p)[i] */
};

/* One resolution in progress. */
struct tv {
	struct session *s;
	struct resolved_probe *rp;
	struct tv_scope *sc;
	const struct srcloc *loc;
	bool quiet;		/* failures are not errors */
	/* Pretty-printing $var$ (not $$parms): char * anywhere is a string. */
	bool pretty_strings;
	bool dry;		/* @defined: resolve, but allocate no @entry slot */
	bool failed;
	bool at_entry;		/* reading at the function's entry (@entry) */
	const char *rd;		/* reader() of rp: "k", "u" or "" */
	int nidx;		/* index expressions used: _tv_i0.. */
	struct node **idx;
};

/* Per-session state: the kernel's DWARF for @cast/@var outside DWARF probes. */
struct tv_state {
	struct dw_object *k;
	struct tv_scope kscope;
	struct vec captured;	/* entry_capture_warning texts said (char *) */
};

static void PRINTF_LIKE(2, 3) fail(struct tv *t, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	t->failed = true;
	if (t->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag_error(t->s, t->loc, "%s", buf);
}

static void PRINTF_LIKE(2, 3) hint(struct tv *t, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (t->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag_hint(t->s, "%s", buf);
}

static const char *PRINTF_LIKE(2, 3) cfmt(struct tv *t, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	const char *r;
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	r = arena_strdup(&t->s->arena, sb_str(&sb));
	sb_free(&sb);
	return r;
}

/* ---- types ---- */

static const char *die_name(Dwarf_Die *d)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
}

/* d's DW_AT_type into *out; false if it has none (void). */
static bool type_of(Dwarf_Die *d, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(d, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/* Strip typedefs and qualifiers; false for void. */
static bool peel(Dwarf_Die *type, Dwarf_Die *out)
{
	Dwarf_Die d = *type;

	for (int i = 0; i < 64; i++) {
		switch (dwarf_tag(&d)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (!type_of(&d, &d))
				return false;
			continue;
		default:
			*out = d;
			return true;
		}
	}
	return false;
}

/* "struct task_struct*", "unsigned int", for messages: -L's spelling. */
static const char *tname(struct tv *t, const struct tval *v)
{
	Dwarf_Die ty = v->type;
	char *n;
	const char *r;

	if (!v->has_type)
		return "void";
	n = dw_type_name(&ty);
	r = arena_strdup(&t->s->arena, n);
	free(n);
	return r;
}

static int byte_size(Dwarf_Die *type)
{
	Dwarf_Word sz;

	if (dwarf_tag(type) == DW_TAG_pointer_type)
		return 8;
	if (dwarf_aggregate_size(type, &sz) == 0)
		return (int)sz;
	return -1;
}

/* A scalar's size and signedness; false if the type is not one. */
static bool scalar(Dwarf_Die *peeled, int *size, bool *sign, bool *is_float)
{
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;
	Dwarf_Die u;

	*is_float = false;
	switch (dwarf_tag(peeled)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
		*size = 8;
		*sign = false;
		return true;
	case DW_TAG_enumeration_type:
		*size = byte_size(peeled);
		*sign = true;
		if (type_of(peeled, &u) && peel(&u, &u) &&
		    dwarf_formudata(dwarf_attr(&u, DW_AT_encoding, &a), &enc) == 0)
			*sign = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
		return *size > 0;
	case DW_TAG_base_type:
		*size = byte_size(peeled);
		dwarf_formudata(dwarf_attr(peeled, DW_AT_encoding, &a), &enc);
		*sign = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
		*is_float = enc == DW_ATE_float || enc == DW_ATE_complex_float;
		return *size > 0 && *size <= 8;
	default:
		return false;
	}
}

static bool is_char(Dwarf_Die *type)
{
	Dwarf_Die d;
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;

	if (!peel(type, &d) || dwarf_tag(&d) != DW_TAG_base_type || byte_size(&d) != 1)
		return false;
	dwarf_formudata(dwarf_attr(&d, DW_AT_encoding, &a), &enc);
	return enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char;
}

/* ---- locations ---- */

static int translate_ops(struct tv *t, Dwarf_Op *ops, size_t n, struct tval *out, int depth);

static const char *reg_name(struct tv *t, unsigned reg)
{
	if (reg >= sizeof(tv_regs) / sizeof(tv_regs[0])) {
		fail(t, "DWARF register %u has no place in struct pt_regs", reg);
		return NULL;
	}
	return tv_regs[reg];
}

/* The CFA at the probe's pc, from the call frame information. */
static const char *cfa(struct tv *t, int depth)
{
	uint64_t pc = t->at_entry ? t->sc->entry_pc : t->sc->pc;
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t nops;
	struct tval v;

	if (!t->sc->cfi || dwarf_cfi_addrframe(t->sc->cfi, pc, &frame) != 0 ||
	    dwarf_frame_cfa(frame, &ops, &nops) != 0) {
		free(frame);
		fail(t, "no call frame information at 0x%" PRIx64 " to find the frame", pc);
		return NULL;
	}
	if (translate_ops(t, ops, nops, &v, depth + 1) < 0 || v.kind != TVK_MEM) {
		free(frame);
		if (!t->failed)
			fail(t, "unsupported CFA rule at 0x%" PRIx64, pc);
		return NULL;
	}
	free(frame);
	return v.c;
}

/* The enclosing subprogram of the probed code (the frame's owner). */
static bool subprogram(struct tv *t, Dwarf_Die *out)
{
	Dwarf_Die cu, *scopes = NULL;
	uint64_t pc = t->at_entry ? t->sc->entry_pc : t->sc->pc;
	int n;

	if (dwarf_tag(&t->sc->fn) == DW_TAG_subprogram) {
		*out = t->sc->fn;
		return true;
	}
	if (!dwarf_diecu(&t->sc->fn, &cu, NULL, NULL))
		return false;
	n = dwarf_getscopes(&cu, pc, &scopes);
	for (int i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			*out = scopes[i];
			free(scopes);
			return true;
		}
	free(scopes);
	return false;
}

static const char *frame_base(struct tv *t, int depth)
{
	uint64_t pc = t->at_entry ? t->sc->entry_pc : t->sc->pc;
	Dwarf_Die sp;
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;
	struct tval v;

	if (!subprogram(t, &sp) || !dwarf_attr_integrate(&sp, DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, pc, &ops, &nops, 1) != 1) {
		fail(t, "no frame base at 0x%" PRIx64, pc);
		return NULL;
	}
	if (translate_ops(t, ops, nops, &v, depth + 1) < 0)
		return NULL;
	if (v.kind == TVK_REG)
		return cfmt(t, "STP_TV_REG(c, %s)", v.reg);
	return v.c;
}

/*
 * The run-time address of global variable address a (DW_OP_addr) in the
 * probe's address space (dw.h), or NULL after saying it is not known.
 */
static const char *global_addr(struct tv *t, uint64_t a)
{
	switch (t->sc->space.kind) {
	case DW_SPACE_KERNEL:
		return cfmt(t, "_stp_kaddr(0x%" PRIx64 "ULL)", a);
	case DW_SPACE_USER:
		/*
		 * + the load bias: the probed address's run-time one less its
		 * link-time one, ip at an entry hit, the function's entry at a
		 * .return hit (ip is then the caller's, maybe in another file).
		 */
		return cfmt(t, "(0x%" PRIx64 "UL + ((c->ret_from ? c->ret_from : "
			    "instruction_pointer(c->regs)) - c->uprobe->vaddr))", a);
	default:
		fail(t, "global variables cannot be read in this probe");
		return NULL;
	}
}

/*
 * Run DWARF expression ops at translation time over C expressions.
 * The result is a location (TVK_MEM address, TVK_REG) or a value.
 */
static int translate_ops(struct tv *t, Dwarf_Op *ops, size_t n, struct tval *out, int depth)
{
	const char *st[TV_MAX_STACK];
	int sp = 0;

	memset(out, 0, sizeof(*out));
	if (depth > 4) {
		fail(t, "DWARF location expressions nest too deeply");
		return -1;
	}
#define PUSH(x) do { const char *_x = (x); if (sp == TV_MAX_STACK) goto too_deep; st[sp++] = _x; } while (0)
#define NEED(k) do { if (sp < (k)) goto underflow; } while (0)
	for (size_t i = 0; i < n; i++) {
		uint8_t op = ops[i].atom;
		const char *x, *y;

		if (op >= DW_OP_lit0 && op <= DW_OP_lit31) {
			PUSH(cfmt(t, "%dULL", op - DW_OP_lit0));
			continue;
		}
		if ((op >= DW_OP_reg0 && op <= DW_OP_reg31) || op == DW_OP_regx) {
			unsigned r = op == DW_OP_regx ? (unsigned)ops[i].number : op - DW_OP_reg0;

			/* A register location stands alone (a piece may follow). */
			if (i + 1 < n && ops[i + 1].atom != DW_OP_piece)
				goto unsupported;
			out->kind = TVK_REG;
			out->reg = reg_name(t, r);
			return out->reg ? 0 : -1;
		}
		if ((op >= DW_OP_breg0 && op <= DW_OP_breg31) || op == DW_OP_bregx) {
			unsigned r = op == DW_OP_bregx ? (unsigned)ops[i].number : op - DW_OP_breg0;
			int64_t off = op == DW_OP_bregx ? (int64_t)ops[i].number2 : (int64_t)ops[i].number;
			const char *rn = reg_name(t, r);

			if (!rn)
				return -1;
			PUSH(cfmt(t, "(STP_TV_REG(c, %s) + (u64)%" PRId64 "LL)", rn, off));
			continue;
		}
		switch (op) {
		case DW_OP_addr:
			x = global_addr(t, (uint64_t)ops[i].number);
			if (!x)
				return -1;
			PUSH(x);
			break;
		case DW_OP_fbreg:
			x = frame_base(t, depth);
			if (!x)
				return -1;
			PUSH(cfmt(t, "(%s + (u64)%" PRId64 "LL)", x, (int64_t)ops[i].number));
			break;
		case DW_OP_call_frame_cfa:
			x = cfa(t, depth);
			if (!x)
				return -1;
			PUSH(x);
			break;
		case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
		case DW_OP_const8u: case DW_OP_constu:
			PUSH(cfmt(t, "0x%" PRIx64 "ULL", (uint64_t)ops[i].number));
			break;
		case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
		case DW_OP_const8s: case DW_OP_consts:
			PUSH(cfmt(t, "(u64)%" PRId64 "LL", (int64_t)ops[i].number));
			break;
		case DW_OP_plus_uconst:
			NEED(1);
			st[sp - 1] = cfmt(t, "(%s + 0x%" PRIx64 "ULL)", st[sp - 1],
					  (uint64_t)ops[i].number);
			break;
		case DW_OP_dup:
			NEED(1);
			PUSH(st[sp - 1]);
			break;
		case DW_OP_drop:
			NEED(1);
			sp--;
			break;
		case DW_OP_over:
			NEED(2);
			PUSH(st[sp - 2]);
			break;
		case DW_OP_pick:
			NEED((int)ops[i].number + 1);
			PUSH(st[sp - 1 - (int)ops[i].number]);
			break;
		case DW_OP_swap:
			NEED(2);
			x = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = x;
			break;
		case DW_OP_deref:
			NEED(1);
			st[sp - 1] = cfmt(t, "_stp_tv_%sread(c, %s, 8, false)", t->rd, st[sp - 1]);
			break;
		case DW_OP_deref_size:
			NEED(1);
			if (ops[i].number < 1 || ops[i].number > 8)
				goto unsupported;
			st[sp - 1] = cfmt(t, "_stp_tv_%sread(c, %s, %d, false)", t->rd, st[sp - 1],
					  (int)ops[i].number);
			break;
		case DW_OP_neg:
			NEED(1);
			st[sp - 1] = cfmt(t, "(-%s)", st[sp - 1]);
			break;
		case DW_OP_not:
			NEED(1);
			st[sp - 1] = cfmt(t, "(~%s)", st[sp - 1]);
			break;
		case DW_OP_abs:
			NEED(1);
			st[sp - 1] = cfmt(t, "((s64)%s < 0 ? -%s : %s)", st[sp - 1], st[sp - 1],
					  st[sp - 1]);
			break;
		case DW_OP_plus: case DW_OP_minus: case DW_OP_mul: case DW_OP_and:
		case DW_OP_or: case DW_OP_xor: case DW_OP_shl: case DW_OP_shr:
		case DW_OP_shra: {
			static const struct { uint8_t op; const char *c; } bin[] = {
				{ DW_OP_plus, "+" }, { DW_OP_minus, "-" }, { DW_OP_mul, "*" },
				{ DW_OP_and, "&" }, { DW_OP_or, "|" }, { DW_OP_xor, "^" },
				{ DW_OP_shl, "<<" }, { DW_OP_shr, ">>" },
			};
			NEED(2);
			y = st[--sp];
			x = st[sp - 1];
			if (op == DW_OP_shra) {
				st[sp - 1] = cfmt(t, "((u64)((s64)%s >> (%s & 63)))", x, y);
				break;
			}
			for (size_t b = 0; b < sizeof(bin) / sizeof(bin[0]); b++)
				if (bin[b].op == op)
					st[sp - 1] = cfmt(t, "(%s %s %s)", x, bin[b].c, y);
			break;
		}
		case DW_OP_stack_value:
			NEED(1);
			if (i + 1 < n && ops[i + 1].atom != DW_OP_piece)
				goto unsupported;
			out->kind = TVK_VAL;
			out->c = st[sp - 1];
			return 0;
		case DW_OP_implicit_value: {
			Dwarf_Block blk;
			uint64_t v = 0;

			if (dwarf_getlocation_implicit_value(NULL, &ops[i], &blk) != 0 ||
			    blk.length > 8)
				goto unsupported;
			memcpy(&v, blk.data, blk.length);	/* little-endian */
			out->kind = TVK_VAL;
			out->c = cfmt(t, "0x%" PRIx64 "ULL", v);
			return 0;
		}
		case DW_OP_piece:
			/* One piece covering the value: the location before it. */
			if (i + 1 != n)
				goto split;
			goto done;
		case DW_OP_nop:
			break;
		case DW_OP_entry_value:
		case DW_OP_GNU_entry_value:
		case DW_OP_GNU_parameter_ref:
		case DW_OP_implicit_pointer:
		case DW_OP_GNU_implicit_pointer:
			return 1;	/* not accessible: the caller says so */
		default:
			goto unsupported;
		}
	}
done:
	NEED(1);
	out->kind = TVK_MEM;
	out->c = st[sp - 1];
	return 0;
#undef PUSH
#undef NEED
too_deep:
	fail(t, "DWARF location expression is too deep");
	return -1;
underflow:
	fail(t, "malformed DWARF location expression (stack underflow)");
	return -1;
split:
	return 2;	/* split across pieces */
unsupported:
	return 3;
}

/* ---- finding variables ---- */

static bool name_is(Dwarf_Die *d, const char *name)
{
	const char *n = die_name(d);

	return n && !strcmp(n, name);
}

static bool is_var_tag(int tag)
{
	return tag == DW_TAG_variable || tag == DW_TAG_formal_parameter;
}

/*
 * The scopes whose variables are visible at the probe's pc: the function
 * itself, then nested lexical blocks containing pc (innermost last).
 * Inlined callees are not scopes of the caller.
 */
static int scopes_at(struct tv *t, Dwarf_Die *out)
{
	uint64_t pc = t->sc->pc;
	int n = 0;

	out[n++] = t->sc->fn;
	if (t->sc->is_return || t->at_entry)
		return n;
	for (;;) {
		Dwarf_Die c;
		bool deeper = false;

		if (dwarf_child(&out[n - 1], &c) != 0)
			break;
		do {
			if (dwarf_tag(&c) == DW_TAG_lexical_block && dwarf_haspc(&c, pc) > 0 &&
			    n < TV_MAX_SCOPES) {
				out[n++] = c;
				deeper = true;
				break;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
		if (!deeper)
			break;
	}
	return n;
}

/* Visit the variables of one scope DIE. */
typedef bool (*var_fn)(struct tv *t, Dwarf_Die *var, void *arg);

static bool each_var(struct tv *t, Dwarf_Die *scope, var_fn fn, void *arg)
{
	Dwarf_Die c;

	if (dwarf_child(scope, &c) != 0)
		return false;
	do {
		if (is_var_tag(dwarf_tag(&c)) && die_name(&c) && fn(t, &c, arg))
			return true;
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

struct find {
	const char *name;
	Dwarf_Die found;
	Dwarf_Die decl;		/* "extern int g;" in a scope: the CU defines it */
	bool has_decl;
};

static bool find_cb(struct tv *t, Dwarf_Die *var, void *arg)
{
	struct find *f = arg;

	if (!name_is(var, f->name))
		return false;
	if (dwarf_hasattr(var, DW_AT_declaration) && !dwarf_hasattr(var, DW_AT_location) &&
	    !dwarf_hasattr(var, DW_AT_const_value)) {
		if (!f->has_decl)
			f->decl = *var, f->has_decl = true;
		return false;
	}
	f->found = *var;
	return true;
}

/* Every name, for "did you mean" (no cap: the near one may be the last). */
struct names {
	struct strbuf sb;
	struct vec cands;	/* const char * */
};

static bool names_cb(struct tv *t, Dwarf_Die *var, void *arg)
{
	struct names *nm = arg;
	const char *n = die_name(var);

	vec_push(&nm->cands, (void *)n);
	sb_printf(&nm->sb, "%s$%s", nm->sb.len ? " " : "", n);
	return false;
}

/*
 * The variable NAME visible at the probe: innermost scope first, then the
 * CU's globals (in a .return probe too, as SystemTap: read at entry).
 * *global (if not NULL) tells which.
 */
static bool find_var_in(struct tv *t, const char *name, Dwarf_Die *out, bool *global)
{
	Dwarf_Die scopes[TV_MAX_SCOPES], cu;
	struct find f = { .name = name };
	int n = scopes_at(t, scopes);

	if (global)
		*global = false;
	for (int i = n - 1; i >= 0; i--)
		if (each_var(t, &scopes[i], find_cb, &f)) {
			*out = f.found;
			return true;
		}
	if (dwarf_diecu(&t->sc->fn, &cu, NULL, NULL) && each_var(t, &cu, find_cb, &f)) {
		*out = f.found;
		if (global)
			*global = true;
		return true;
	}
	if (f.has_decl) {	/* defined in another CU: its "no location" error */
		*out = f.decl;
		return true;
	}
	return false;
}

static bool find_var(struct tv *t, const char *name, Dwarf_Die *out)
{
	return find_var_in(t, name, out, NULL);
}

/* Is $name a global of the probe's CU (not shadowed by a parameter or local)? */
static bool global_var(struct tv *t, const char *name)
{
	Dwarf_Die var;
	bool global;

	return t->sc->has_fn && find_var_in(t, name, &var, &global) && global;
}

static bool is_param(Dwarf_Die *var)
{
	return dwarf_tag(var) == DW_TAG_formal_parameter;
}

/* "ksys_read" or "ksys_read (inlined)" for messages. */
static const char *fn_name(struct tv *t)
{
	const char *n = t->sc->has_fn ? die_name(&t->sc->fn) : NULL;

	return n ? n : "this function";
}

static void no_such_var(struct tv *t, const char *name)
{
	Dwarf_Die scopes[TV_MAX_SCOPES];
	struct names nm = { .sb = STRBUF_INIT };
	int n;
	const char *near;

	if (!t->sc->has_fn) {
		for (int i = 0; i < t->sc->nargs; i++) {
			vec_push(&nm.cands, (void *)t->sc->args[i].name);
			sb_printf(&nm.sb, "%s$%s", i ? " " : "", t->sc->args[i].name);
		}
		fail(t, "no target variable '$%s' here", name);
	} else {
		n = scopes_at(t, scopes);
		for (int i = n - 1; i >= 0; i--)
			each_var(t, &scopes[i], names_cb, &nm);
		fail(t, "no variable '$%s' in %s at 0x%" PRIx64 "%s", name, fn_name(t),
		     t->sc->pc,
		     t->sc->is_return ? " (a .return probe sees parameters and globals only)" : "");
	}
	near = diag_closest(name, (const char *const *)nm.cands.items, nm.cands.len);
	if (near)
		hint(t, "did you mean '$%s'?", near);
	else if (nm.sb.len)
		hint(t, "variables here: %s", sb_str(&nm.sb));
	sb_free(&nm.sb);
	vec_free(&nm.cands);
}

/* ---- values ---- */

static void entry_slot_code(struct tv *t, const char *expr, struct tval *v);

/*
 * The link-time address of a global the DWARF only declares ("extern
 * unsigned long volatile jiffies;": the linker script defines it, or no
 * unit with DWARF does), from the object's symbol table.  Relocatable
 * objects (.ko) are left out: their symbol values are section offsets.
 */
struct decl_sym {
	const char *name;
	uint64_t addr;
	bool found;
};

static int decl_sym_cb(const char *name, const GElf_Sym *sym, void *arg)
{
	struct decl_sym *d = arg;

	if (sym->st_shndx == SHN_UNDEF || GELF_ST_BIND(sym->st_info) == STB_LOCAL ||
	    (GELF_ST_TYPE(sym->st_info) != STT_OBJECT &&
	     GELF_ST_TYPE(sym->st_info) != STT_NOTYPE) || strcmp(name, d->name))
		return 0;
	d->addr = sym->st_value;
	d->found = true;
	return 1;
}

static bool decl_symbol_addr(struct tv *t, Dwarf_Die *var, const char *name, uint64_t *addr)
{
	Elf *elf = dwarf_getelf(t->sc->dbg);
	struct decl_sym d = { .name = name };
	GElf_Ehdr eh;

	if (dwarf_tag(var) != DW_TAG_variable || !dwarf_hasattr(var, DW_AT_declaration) ||
	    !elf || !gelf_getehdr(elf, &eh) || eh.e_type == ET_REL ||
	    dw_elf_symbols(elf, decl_sym_cb, &d) < 0 || !d.found)
		return false;
	*addr = d.addr;
	return true;
}

/* The location of DWARF variable var at the probe (or at entry). */
static int var_location(struct tv *t, Dwarf_Die *var, const char *name, struct tval *v)
{
	uint64_t pc = t->at_entry ? t->sc->entry_pc : t->sc->pc;
	Dwarf_Op sym_op = { .atom = DW_OP_addr };
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops = 0;
	int r;

	memset(v, 0, sizeof(*v));
	v->has_type = type_of(var, &v->type);
	if (dwarf_attr_integrate(var, DW_AT_const_value, &a)) {
		Dwarf_Sword sv;
		Dwarf_Word uv;

		v->kind = TVK_VAL;
		if (dwarf_formsdata(&a, &sv) == 0)
			v->c = cfmt(t, "(u64)%" PRId64 "LL", (int64_t)sv);
		else if (dwarf_formudata(&a, &uv) == 0)
			v->c = cfmt(t, "0x%" PRIx64 "ULL", (uint64_t)uv);
		else {
			fail(t, "'$%s' is a constant this translator cannot read", name);
			return -1;
		}
		return 0;
	}
	if (!dwarf_attr_integrate(var, DW_AT_location, &a) &&
	    decl_symbol_addr(t, var, name, &sym_op.number)) {
		ops = &sym_op;
		nops = 1;
	} else if (!dwarf_attr_integrate(var, DW_AT_location, &a) ||
	    (r = dwarf_getlocation_addr(&a, pc, &ops, &nops, 1)) <= 0 || nops == 0) {
		r = 1;
		nops = 0;
	}
	if (nops) {
		struct tval loc;

		r = translate_ops(t, ops, nops, &loc, 0);
		if (r < 0)
			return -1;
		v->kind = loc.kind;
		v->c = loc.c;
		v->reg = loc.reg;
	}
	if (r == 0)
		return 0;
	fail(t, "'$%s' is not accessible at this address (pc 0x%" PRIx64 " in %s): %s",
	     name, pc, fn_name(t),
	     r == 1 ? "the compiler optimised it out here" :
	     r == 2 ? "its value is split across registers" :
	     "its DWARF location uses an operation this translator does not support");
	if (r == 1 && is_param(var) && !t->sc->is_return)
		hint(t, "a parameter is often still in place at the function's entry: "
		     "try kprobe-free alternatives like a .call probe, or @entry($%s) "
		     "in a .return probe", name);
	return -1;
}

/* Raw bits of a scalar-sized object (u64 C expression), for @entry slots. */
static const char *raw_bits(struct tv *t, struct tval *v)
{
	Dwarf_Die p;
	int size = 8;

	if (v->has_type && peel(&v->type, &p))
		size = byte_size(&p);
	if (size <= 0 || size > 8) {
		fail(t, "cannot save a %d-byte value at entry", size);
		return NULL;
	}
	switch (v->kind) {
	case TVK_MEM:
		return cfmt(t, "_stp_tv_%sread(c, %s, %d, false)", t->rd, v->c, size);
	case TVK_REG:
		return cfmt(t, "STP_TV_REG(c, %s)", v->reg);
	default:
		return v->c;
	}
}

/* Save expr (u64, evaluated at entry) in a new slot; v reads it back. */
static void entry_slot_code(struct tv *t, const char *expr, struct tval *v)
{
	struct resolved_probe *rp = t->rp;
	int slot = rp->entry_exprs.len;

	vec_push(&rp->entry_exprs, (void *)expr);
	v->kind = TVK_VAL;
	v->c = cfmt(t, "((u64)c->entry_slots[%d])", slot);
	v->bit_size = 0;
}

/* A named base: $name as a variable or argument of the probe. */
static int base_var(struct tv *t, const char *name, struct tval *v)
{
	Dwarf_Die var;

	memset(v, 0, sizeof(*v));
	if (!t->sc->has_fn) {
		for (int i = 0; i < t->sc->nargs; i++)
			if (!strcmp(t->sc->args[i].name, name)) {
				v->kind = TVK_VAL;
				v->c = cfmt(t, "((u64)(%s))", t->sc->args[i].cexpr);
				v->has_type = true;
				v->type = t->sc->args[i].type;
				return 0;
			}
		no_such_var(t, name);
		return -1;
	}
	if (!find_var(t, name, &var)) {
		no_such_var(t, name);
		return -1;
	}
	if (t->sc->is_return && !t->at_entry) {
		/* A .return probe reads parameters as they were at entry. */
		const char *raw;
		bool was = t->at_entry;

		t->at_entry = true;
		if (var_location(t, &var, name, v) < 0) {
			t->at_entry = was;
			return -1;
		}
		raw = raw_bits(t, v);
		t->at_entry = was;
		if (!raw)
			return -1;
		if (!t->dry)
			entry_slot_code(t, raw, v);
		else
			v->kind = TVK_VAL, v->c = "0ULL";
		v->bit_size = 0;
		return 0;
	}
	return var_location(t, &var, name, v);
}

/*
 * Is $name a variable of the probe's function that has no location at the
 * probe address (optimised out there)?  Such a $name$ prints "?".
 */
static bool unavailable_var(struct tv *t, const char *name)
{
	struct tval v;
	Dwarf_Die var;
	bool was = t->quiet, was_dry = t->dry, ok;

	if (!t->sc->has_fn || !find_var(t, name, &var))
		return false;
	t->quiet = true;
	t->dry = true;		/* the real resolution follows: no @entry slot yet */
	t->failed = false;
	ok = base_var(t, name, &v) == 0;
	t->quiet = was;
	t->dry = was_dry;
	t->failed = false;
	return !ok;
}

/* $return in a .return probe: the return register, typed by the function. */
static int base_return(struct tv *t, struct tval *v)
{
	memset(v, 0, sizeof(*v));
	if (!t->sc->has_fn || !t->sc->is_return) {
		fail(t, "'$return' is only available in .return probes");
		return -1;
	}
	if (!type_of(&t->sc->fn, &v->type)) {
		fail(t, "'$return' is not available: %s returns void", fn_name(t));
		return -1;
	}
	v->has_type = true;
	v->kind = TVK_REG;
	v->reg = "ax";
	return 0;
}

/* *v as the pointer it holds: the pointee in memory. */
static int deref(struct tv *t, struct tval *v, const char *what)
{
	Dwarf_Die p, target;
	const char *ptr;

	if (!v->has_type || !peel(&v->type, &p) ||
	    (dwarf_tag(&p) != DW_TAG_pointer_type && dwarf_tag(&p) != DW_TAG_reference_type))
		return 0;
	if (!type_of(&p, &target)) {
		fail(t, "cannot dereference a void pointer for '%s'", what);
		hint(t, "use @cast(PTR, \"struct NAME\")->%s", what);
		return -1;
	}
	switch (v->kind) {
	case TVK_MEM:
		ptr = cfmt(t, "_stp_tv_%sread(c, %s, 8, false)", t->rd, v->c);
		break;
	case TVK_REG:
		ptr = cfmt(t, "STP_TV_REG(c, %s)", v->reg);
		break;
	default:
		ptr = v->c;
	}
	v->kind = TVK_MEM;
	v->c = ptr;
	v->type = target;
	v->bit_size = 0;
	return 0;
}

/* Member name of struct/union type su, looking into anonymous members. */
static bool find_member(Dwarf_Die *su, const char *name, Dwarf_Die *out, uint64_t *off,
			int depth)
{
	Dwarf_Die m, mt;

	if (depth > 8 || dwarf_child(su, &m) != 0)
		return false;
	do {
		Dwarf_Attribute a;
		Dwarf_Word loc = 0;

		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		if (dwarf_attr_integrate(&m, DW_AT_data_member_location, &a))
			dwarf_formudata(&a, &loc);
		if (name_is(&m, name)) {
			*out = m;
			*off += loc;
			return true;
		}
		if (!die_name(&m) && type_of(&m, &mt) && peel(&mt, &mt) &&
		    (dwarf_tag(&mt) == DW_TAG_structure_type || dwarf_tag(&mt) == DW_TAG_union_type)) {
			uint64_t sub = *off + loc;

			if (find_member(&mt, name, out, &sub, depth + 1)) {
				*off = sub;
				return true;
			}
		}
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

static void member_names(Dwarf_Die *su, struct names *nm, int depth)
{
	Dwarf_Die m, mt;

	if (depth > 8 || dwarf_child(su, &m) != 0)
		return;
	do {
		const char *n;

		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		n = die_name(&m);
		if (n) {
			vec_push(&nm->cands, (void *)n);
			sb_printf(&nm->sb, "%s%s", nm->sb.len ? " " : "", n);
		} else if (type_of(&m, &mt) && peel(&mt, &mt)) {
			member_names(&mt, nm, depth + 1);
		}
	} while (dwarf_siblingof(&m, &m) == 0);
}

/* Bitfield placement of member m (at byte offset off) into v. */
static void bitfield(Dwarf_Die *m, uint64_t off, struct tval *v, const char **addr,
		     struct tv *t)
{
	Dwarf_Attribute a;
	Dwarf_Word bits = 0, dbo = 0, bo = 0, bsz = 0;
	uint64_t total, start;
	int size;
	Dwarf_Die mt;

	v->bit_size = 0;
	if (!dwarf_attr_integrate(m, DW_AT_bit_size, &a) || dwarf_formudata(&a, &bits) != 0)
		return;
	size = type_of(m, &mt) && peel(&mt, &mt) ? byte_size(&mt) : 4;
	if (size <= 0 || size > 8)
		size = 4;
	if (dwarf_attr_integrate(m, DW_AT_data_bit_offset, &a) &&
	    dwarf_formudata(&a, &dbo) == 0) {
		total = off * 8 + dbo;	/* off: data_member_location, 0 if absent */
	} else {
		/* DWARF 2/3: bit_offset counts from the storage unit's MSB. */
		if (dwarf_attr_integrate(m, DW_AT_byte_size, &a))
			dwarf_formudata(&a, &bsz);
		if (!bsz)
			bsz = (Dwarf_Word)size;
		if (dwarf_attr_integrate(m, DW_AT_bit_offset, &a))
			dwarf_formudata(&a, &bo);
		total = off * 8 + bsz * 8 - bo - bits;
	}
	start = total / 8 / (uint64_t)size * (uint64_t)size;
	if (total - start * 8 + bits > (uint64_t)size * 8) {
		size = 8;
		start = total / 64 * 8;
	}
	v->bit_size = (int)bits;
	v->bit_off = (int)(total - start * 8);
	v->storage = size;
	*addr = cfmt(t, "(%s + %" PRIu64 "ULL)", *addr, start);
	(void)off;
}

static bool complete_type(Dwarf_Die *su);

static int member(struct tv *t, struct tval *v, const char *name)
{
	Dwarf_Die su, m;
	uint64_t off = 0;
	const char *base;

	if (deref(t, v, name) < 0)
		return -1;
	if (!v->has_type || !peel(&v->type, &su) ||
	    (dwarf_tag(&su) != DW_TAG_structure_type && dwarf_tag(&su) != DW_TAG_union_type &&
	     dwarf_tag(&su) != DW_TAG_class_type)) {
		fail(t, "'->%s' needs a struct or union (or a pointer to one), not '%s'", name,
		     tname(t, v));
		return -1;
	}
	/* Only declared in this CU (struct files_struct in sched.h's users):
	 * the definition is in another CU of the same file. */
	if (dwarf_hasattr(&su, DW_AT_declaration) && !complete_type(&su)) {
		fail(t, "'%s' is only declared here, its members are unknown", tname(t, v));
		hint(t, "use @cast(PTR, \"%s\")->%s to find its definition elsewhere",
		     tname(t, v), name);
		return -1;
	}
	if (!find_member(&su, name, &m, &off, 0)) {
		struct names nm = { .sb = STRBUF_INIT };
		const char *near;

		member_names(&su, &nm, 0);
		fail(t, "'%s' has no member '%s'", tname(t, v), name);
		near = diag_closest(name, (const char *const *)nm.cands.items, nm.cands.len);
		if (near)
			hint(t, "did you mean '->%s'?", near);
		else if (nm.sb.len)
			hint(t, "its members: %s", sb_str(&nm.sb));
		sb_free(&nm.sb);
		vec_free(&nm.cands);
		return -1;
	}
	if (v->kind != TVK_MEM) {
		fail(t, "cannot read member '%s' of a struct the compiler keeps in registers",
		     name);
		return -1;
	}
	base = v->c;
	v->has_type = type_of(&m, &v->type);
	if (dwarf_hasattr(&m, DW_AT_bit_size)) {
		bitfield(&m, off, v, &base, t);
		v->c = base;
	} else {
		v->bit_size = 0;
		v->c = cfmt(t, "(%s + %" PRIu64 "ULL)", base, off);
	}
	return 0;
}

/* Elements of array type arr (first dimension), or -1 if unknown. */
static int64_t array_len(Dwarf_Die *arr)
{
	Dwarf_Die sub;
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (dwarf_child(arr, &sub) != 0)
		return -1;
	do {
		if (dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		if (dwarf_formudata(dwarf_attr_integrate(&sub, DW_AT_count, &a), &w) == 0)
			return (int64_t)w;
		if (dwarf_formudata(dwarf_attr_integrate(&sub, DW_AT_upper_bound, &a), &w) == 0)
			return (int64_t)w + 1;
		return -1;
	} while (dwarf_siblingof(&sub, &sub) == 0);
	return -1;
}

static int index_step(struct tv *t, struct tval *v, struct node *idx)
{
	Dwarf_Die p, elem;
	const char *ic;
	int esz;

	if (!v->has_type || !peel(&v->type, &p)) {
		fail(t, "cannot index a void value");
		return -1;
	}
	if (idx->kind == ND_NUM) {
		ic = cfmt(t, "(u64)%" PRId64 "LL", idx->num);
	} else {
		if (t->nidx == 8) {
			fail(t, "too many computed indexes in one target expression (8 at most)");
			return -1;
		}
		t->idx[t->nidx] = idx;
		ic = cfmt(t, "(u64)_tv_i%d", t->nidx++);
	}
	if (dwarf_tag(&p) == DW_TAG_array_type) {
		int64_t len = array_len(&p);

		if (!type_of(&p, &elem) || (esz = byte_size(&elem)) <= 0 ||
		    !peel(&elem, &elem)) {
			fail(t, "array of unknown element size");
			return -1;
		}
		if (idx->kind == ND_NUM && len > 0 && (idx->num < 0 || idx->num >= len)) {
			fail(t, "index %" PRId64 " is out of bounds: the array has %" PRId64
			     " elements", idx->num, len);
			return -1;
		}
		if (v->kind != TVK_MEM) {
			fail(t, "cannot index an array the compiler keeps in registers");
			return -1;
		}
		type_of(&p, &v->type);
		v->c = cfmt(t, "(%s + %s * %d)", v->c, ic, esz);
		return 0;
	}
	if (dwarf_tag(&p) == DW_TAG_pointer_type) {
		Dwarf_Die target;

		if (!type_of(&p, &target) || !peel(&target, &elem) || (esz = byte_size(&elem)) <= 0) {
			fail(t, "cannot index a pointer to void or to an incomplete type");
			return -1;
		}
		if (deref(t, v, "[]") < 0)
			return -1;
		v->c = cfmt(t, "(%s + %s * %d)", v->c, ic, esz);
		return 0;
	}
	if (v->cast_base && v->kind == TVK_MEM && (esz = byte_size(&p)) > 0) {
		v->c = cfmt(t, "(%s + %s * %d)", v->c, ic, esz);
		v->cast_base = false;
		return 0;
	}
	fail(t, "'[]' needs an array or a pointer, not '%s'", tname(t, v));
	return -1;
}

/* The value of a scalar tval as an int64_t C expression. */
static const char *rvalue(struct tv *t, struct tval *v, const char *what)
{
	Dwarf_Die p;
	int size;
	bool sign, flt;

	if (!v->has_type || !peel(&v->type, &p)) {
		fail(t, "'%s' has type void", what);
		return NULL;
	}
	if (dwarf_tag(&p) == DW_TAG_array_type) {
		if (v->kind != TVK_MEM) {
			fail(t, "'%s' is an array the compiler keeps in registers", what);
			return NULL;
		}
		return cfmt(t, "((int64_t)%s)", v->c);	/* its address, as SystemTap */
	}
	if (!scalar(&p, &size, &sign, &flt)) {
		const char *kind = dwarf_tag(&p) == DW_TAG_union_type ? "a union" :
				   dwarf_tag(&p) == DW_TAG_subroutine_type ? "a function" :
				   "a struct";

		fail(t, "'%s' is %s ('%s'), not a number", what, kind, tname(t, v));
		hint(t, "read one of its members with ->NAME, or print it with %s$", what);
		return NULL;
	}
	if (flt) {
		fail(t, "'%s' is floating point ('%s'), which probes cannot read", what,
		     tname(t, v));
		return NULL;
	}
	if (v->bit_size) {
		const char *raw = v->kind == TVK_MEM ?
			cfmt(t, "_stp_tv_%sread(c, %s, %d, false)", t->rd, v->c, v->storage) :
			v->kind == TVK_REG ? cfmt(t, "STP_TV_REG(c, %s)", v->reg) : v->c;

		return cfmt(t, "((int64_t)_stp_tv_bits(%s, %d, %d, %s))", raw, v->bit_off,
			    v->bit_size, sign ? "true" : "false");
	}
	switch (v->kind) {
	case TVK_MEM:
		return cfmt(t, "((int64_t)_stp_tv_%sread(c, %s, %d, %s))", t->rd, v->c, size,
			    sign ? "true" : "false");
	case TVK_REG:
		return cfmt(t, "((int64_t)_stp_tv_ext(STP_TV_REG(c, %s), %d, %s))", v->reg, size,
			    sign ? "true" : "false");
	default:
		return cfmt(t, "((int64_t)_stp_tv_ext(%s, %d, %s))", v->c, size,
			    sign ? "true" : "false");
	}
}

/* ---- pretty printing: $var$, $$parms ---- */

/* Append "value" of v to _tv_dst; depth: struct levels still expanded. */
static void pretty(struct tv *t, struct strbuf *code, struct tval *v, int depth, bool top,
		   bool hex);

static void pretty_struct(struct tv *t, struct strbuf *code, struct tval *v, Dwarf_Die *su,
			  int depth, bool *first, int guard)
{
	Dwarf_Die m;

	if (guard > 8 || dwarf_child(su, &m) != 0)
		return;
	do {
		Dwarf_Attribute a;
		Dwarf_Word loc = 0;
		struct tval f = *v;
		const char *n;
		Dwarf_Die mt;

		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		if (dwarf_attr_integrate(&m, DW_AT_data_member_location, &a))
			dwarf_formudata(&a, &loc);
		n = die_name(&m);
		f.has_type = type_of(&m, &f.type);
		if (!n) {
			/*
			 * An anonymous struct/union, as SystemTap prints it:
			 * "<union>={...}" or "<class>={...}", at the same depth.
			 */
			if (f.has_type && peel(&f.type, &mt)) {
				bool inner = true;

				f.c = cfmt(t, "(%s + %" PRIu64 "ULL)", v->c, (uint64_t)loc);
				sb_printf(code, "_stp_tv_append(_tv_dst, \"%s%s={\");\n",
					  *first ? "" : ", ",
					  dwarf_tag(&mt) == DW_TAG_union_type ? "<union>" : "<class>");
				*first = false;
				pretty_struct(t, code, &f, &mt, depth, &inner, guard + 1);
				sb_puts(code, "_stp_tv_append(_tv_dst, \"}\");\n");
			}
			continue;
		}
		sb_printf(code, "_stp_tv_append(_tv_dst, \"%s.%s=\");\n", *first ? "" : ", ", n);
		*first = false;
		if (dwarf_hasattr(&m, DW_AT_bit_size)) {
			const char *base = v->c;

			bitfield(&m, loc, &f, &base, t);
			f.c = base;
		} else {
			f.bit_size = 0;
			f.c = cfmt(t, "(%s + %" PRIu64 "ULL)", v->c, (uint64_t)loc);
		}
		pretty(t, code, &f, depth - 1, false, false);
	} while (dwarf_siblingof(&m, &m) == 0);
}

static void pretty(struct tv *t, struct strbuf *code, struct tval *v, int depth, bool top,
		   bool hex)
{
	Dwarf_Die p, target;
	int size;
	bool sign, flt;
	const char *r;
	bool was_quiet = t->quiet;

	if (!v->has_type || !peel(&v->type, &p)) {
		sb_puts(code, "_stp_tv_append(_tv_dst, \"?\");\n");
		return;
	}
	switch (dwarf_tag(&p)) {
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		if (depth <= 0 || v->kind != TVK_MEM) {
			sb_puts(code, "_stp_tv_append(_tv_dst, \"{...}\");\n");
			return;
		}
		{
			bool first = true;

			sb_puts(code, "_stp_tv_append(_tv_dst, \"{\");\n");
			pretty_struct(t, code, v, &p, depth, &first, 0);
			sb_puts(code, "_stp_tv_append(_tv_dst, \"}\");\n");
		}
		return;
	case DW_TAG_array_type: {
		int64_t len = array_len(&p);
		Dwarf_Die elem;
		int esz;

		if (v->kind != TVK_MEM || !type_of(&p, &elem) || (esz = byte_size(&elem)) <= 0) {
			sb_puts(code, "_stp_tv_append(_tv_dst, \"[...]\");\n");
			return;
		}
		if (is_char(&elem)) {
			sb_printf(code, "_stp_tv_append_%sstr(c, _tv_dst, %s, %" PRId64 ");\n", t->rd, v->c,
				  len > 0 ? len + 1 : (int64_t)64);
			return;
		}
		if (depth <= 0 || len <= 0) {
			sb_puts(code, "_stp_tv_append(_tv_dst, \"[...]\");\n");
			return;
		}
		sb_puts(code, "_stp_tv_append(_tv_dst, \"[\");\n");
		for (int64_t i = 0; i < len && i < TV_MAX_ELEMS; i++) {
			struct tval e = { .kind = TVK_MEM, .has_type = true, .type = elem };

			e.c = cfmt(t, "(%s + %" PRId64 ")", v->c, i * esz);
			if (i)
				sb_puts(code, "_stp_tv_append(_tv_dst, \", \");\n");
			pretty(t, code, &e, depth - 1, false, false);
		}
		sb_printf(code, "_stp_tv_append(_tv_dst, \"%s]\");\n",
			  len > TV_MAX_ELEMS ? ", ..." : "");
		return;
	}
	case DW_TAG_pointer_type:
		/* char *: the string; a top-level struct pointer: the struct. */
		if ((depth > 0 || t->pretty_strings) && type_of(&p, &target)) {
			Dwarf_Die tp;

			if (is_char(&target)) {
				struct tval pv = *v;

				t->quiet = true;
				r = rvalue(t, &pv, "");
				t->quiet = was_quiet;
				if (r) {
					sb_printf(code, "_stp_tv_append_%sstr(c, _tv_dst, (unsigned long)%s, "
						  "MAXSTRINGLEN / 2);\n", t->rd, r);
					return;
				}
			}
			if (top && peel(&target, &tp) &&
			    (dwarf_tag(&tp) == DW_TAG_structure_type ||
			     dwarf_tag(&tp) == DW_TAG_union_type)) {
				struct tval sv = *v;

				t->quiet = true;
				if (deref(t, &sv, "") == 0) {
					t->quiet = was_quiet;
					sb_printf(code, "if (!%s) _stp_tv_append(_tv_dst, \"0x0\"); else {\n",
						  rvalue(t, v, ""));
					pretty(t, code, &sv, depth, false, false);
					sb_puts(code, "}\n");
					return;
				}
				t->quiet = was_quiet;
			}
		}
		break;
	default:
		break;
	}
	if (!scalar(&p, &size, &sign, &flt) || flt) {
		sb_puts(code, "_stp_tv_append(_tv_dst, \"?\");\n");
		return;
	}
	t->quiet = true;
	r = rvalue(t, v, "");
	t->quiet = was_quiet;
	if (!r) {
		sb_puts(code, "_stp_tv_append(_tv_dst, \"?\");\n");
		return;
	}
	if (hex || dwarf_tag(&p) == DW_TAG_pointer_type)
		sb_printf(code, "_stp_tv_append(_tv_dst, \"0x%%llx\", (unsigned long long)%s);\n", r);
	else if (sign)
		sb_printf(code, "_stp_tv_append(_tv_dst, \"%%lld\", (long long)%s);\n", r);
	else
		sb_printf(code, "_stp_tv_append(_tv_dst, \"%%llu\", (unsigned long long)%s);\n", r);
}

/*
 * One "name=value" of $$vars: a failed read prints "?" without failing
 * the hit, as SystemTap prints unavailable variables.
 */
static void pretty_named(struct tv *t, struct strbuf *code, const char *name, struct tval *v,
			 bool ok, int depth, bool sep)
{
	sb_printf(code, "{ size_t _tv_l = strlen(_tv_dst);\n_stp_tv_append(_tv_dst, \"%s%s=\");\n",
		  sep ? " " : "", name);
	if (!ok) {
		sb_puts(code, "_stp_tv_append(_tv_dst, \"?\"); (void)_tv_l; }\n");
		return;
	}
	t->pretty_strings = depth > 0;
	pretty(t, code, v, depth, true, depth == 0);
	sb_printf(code, "if (c->last_error) { c->last_error = NULL; _tv_dst[_tv_l] = 0; "
		  "_stp_tv_append(_tv_dst, \"%s%s=?\"); } }\n", sep ? " " : "", name);
}

struct vars_walk {
	struct strbuf *code;
	bool params, locals;
	int depth;
	int n;
	const char *seen[256];
	int nseen;
};

static bool vars_cb(struct tv *t, Dwarf_Die *var, void *arg)
{
	struct vars_walk *w = arg;
	const char *name = die_name(var);
	struct tval v;
	bool ok, was = t->quiet;

	if (is_param(var) ? !w->params : !w->locals)
		return false;
	for (int i = 0; i < w->nseen; i++)	/* shadowed by an inner scope */
		if (!strcmp(w->seen[i], name))
			return false;
	if (w->nseen < 256)
		w->seen[w->nseen++] = name;
	t->quiet = true;
	t->failed = false;
	ok = base_var(t, name, &v) == 0;
	t->quiet = was;
	t->failed = false;
	pretty_named(t, w->code, name, &v, ok, w->depth, w->n++ > 0);
	return false;
}

/* $$vars, $$parms, $$locals, $$return with pretty depth. */
static int special(struct tv *t, const char *what, int depth, struct tv_code *out)
{
	struct strbuf code = STRBUF_INIT;
	struct vars_walk w = { .code = &code, .depth = depth };
	Dwarf_Die scopes[TV_MAX_SCOPES];

	sb_puts(&code, "_tv_dst[0] = 0;\n");
	if (!strcmp(what, "return")) {
		struct tval v;
		Dwarf_Die rt;

		/* A void function's $$return is empty, as SystemTap's. */
		if (t->sc->has_fn && t->sc->is_return && !type_of(&t->sc->fn, &rt))
			goto done;
		if (base_return(t, &v) < 0)
			return -1;
		pretty_named(t, &code, "return", &v, true, depth, false);
		goto done;
	}
	if (t->sc->tp_name && (!strcmp(what, "name") || !strcmp(what, "system"))) {
		/* identifiers, as the kernel names tracepoints: safe in C quotes */
		sb_printf(&code, "_stp_tv_append(_tv_dst, \"%s\");\n",
			  *what == 'n' ? t->sc->tp_name : t->sc->tp_system);
		goto done;
	}
	w.params = !strcmp(what, "vars") || !strcmp(what, "parms");
	w.locals = !strcmp(what, "vars") || !strcmp(what, "locals");
	if (!w.params && !w.locals) {
		fail(t, "unknown '$$%s': use $$vars, $$parms, $$locals or $$return%s", what,
		     t->sc->tp_name ? " (and $$name, $$system in tracepoints)" : "");
		return -1;
	}
	if (!t->sc->has_fn) {
		for (int i = 0; i < t->sc->nargs && w.params; i++) {
			struct tval v;

			base_var(t, t->sc->args[i].name, &v);
			pretty_named(t, &code, t->sc->args[i].name, &v, true, depth, i > 0);
		}
		goto done;
	}
	if (t->sc->is_return)
		w.locals = false;	/* gone at return */
	{
		int n = scopes_at(t, scopes);

		for (int i = n - 1; i >= 0; i--)
			each_var(t, &scopes[i], vars_cb, &w);
	}
done:
	out->type = TY_STRING;
	out->code = arena_strdup(&t->s->arena, sb_str(&code));
	sb_free(&code);
	return 0;
}

/* ---- @cast and @var: types and globals by name ---- */

/* Visit top-level DIEs of every CU (or the one named like file). */
typedef bool (*die_fn)(Dwarf_Die *d, void *arg);

static bool cu_matches(Dwarf_Die *cu, const char *file)
{
	const char *n = die_name(cu);
	size_t ln, lf;

	if (!file)
		return true;
	if (!n)
		return false;
	ln = strlen(n);
	lf = strlen(file);
	return ln >= lf && !strcmp(n + ln - lf, file) && (ln == lf || n[ln - lf - 1] == '/');
}

static bool each_top(Dwarf *dbg, Dwarf_Die *first_cu, const char *file, die_fn fn, void *arg)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (first_cu) {
		Dwarf_Die c;

		if (dwarf_child(first_cu, &c) == 0)
			do {
				if (fn(&c, arg))
					return true;
			} while (dwarf_siblingof(&c, &c) == 0);
	}
	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, c;

		if (dwarf_offdie(dbg, off + hsize, &cu) && cu_matches(&cu, file) &&
		    dwarf_child(&cu, &c) == 0)
			do {
				if (fn(&c, arg))
					return true;
			} while (dwarf_siblingof(&c, &c) == 0);
		off = next;
	}
	return false;
}

struct type_find {
	int tag;		/* 0: struct, union or typedef */
	const char *name;
	Dwarf_Die found;
};

static bool type_cb(Dwarf_Die *d, void *arg)
{
	struct type_find *f = arg;
	int tag = dwarf_tag(d);

	if (f->tag ? tag != f->tag :
	    tag != DW_TAG_structure_type && tag != DW_TAG_union_type && tag != DW_TAG_typedef &&
	    tag != DW_TAG_base_type && tag != DW_TAG_enumeration_type)
		return false;
	if (!name_is(d, f->name) || dwarf_hasattr(d, DW_AT_declaration))
		return false;
	f->found = *d;
	return true;
}

/* *su, a declaration only, as its definition in some CU of its file. */
static bool complete_type(Dwarf_Die *su)
{
	struct type_find f = { .tag = dwarf_tag(su), .name = die_name(su) };
	Dwarf *dbg = dwarf_cu_getdwarf(su->cu);

	if (!f.name || !dbg || !each_top(dbg, NULL, NULL, type_cb, &f))
		return false;
	*su = f.found;
	return true;
}

struct dw_object *tv_kernel(struct session *s, char **err)
{
	struct tv_state *st = s->tv_state;

	*err = NULL;
	if (!st)
		st = s->tv_state = xcalloc(1, sizeof(*st));
	if (!st->k) {
		st->k = dw_kernel_open(s->release, err);
		if (st->k)
			tv_object_scope(st->k, &st->kscope);
	}
	return st->k;
}

void tv_object_scope(struct dw_object *o, struct tv_scope *out)
{
	out->dbg = dw_dwarf(o);
	out->cfi = dw_cfi(o);
	out->space = dw_space(o);
}

bool tv_object_fn_scope(struct dw_object *o, uint64_t die_off, uint64_t pc, uint64_t entry_pc,
			bool is_return, struct tv_scope *out)
{
	tv_object_scope(o, out);
	if (!out->dbg || !dwarf_offdie(out->dbg, die_off, &out->fn))
		return false;
	out->has_fn = true;
	out->pc = pc;
	out->entry_pc = entry_pc;
	out->is_return = is_return;
	return true;
}

/* The scope @cast and @var use: the probe's, else the kernel's DWARF. */
static struct tv_scope *kernel_scope(struct tv *t)
{
	struct tv_state *st;

	if (t->sc && t->sc->dbg)
		return t->sc;
	/* Reported at each use that needs it (once per node: tv_resolve caches). */
	if (!pf_kernel(t->s, t->loc, t->quiet)) {
		t->failed = true;
		return NULL;
	}
	st = t->s->tv_state;
	return st->kscope.dbg ? &st->kscope : NULL;
}

struct modfind {
	char *name, *path;
};

static int first_module(const char *name, const char *path, void *arg)
{
	struct modfind *f = arg;

	f->name = xstrdup(name);
	f->path = xstrdup(path);
	return 1;
}

/* @cast(p, "T", "module"): the types of a module's DWARF. */
static struct tv_scope *module_scope(struct tv *t, const char *name)
{
	struct modfind f = { 0 };
	struct dw_object *m;
	struct tv_scope *sc;
	char *err = NULL;

	dw_find_modules(t->s->release, name, (const char *const *)t->s->vm_insmod.items,
			t->s->vm_insmod.len, first_module, &f);
	if (!f.name) {
		fail(t, "@cast: no module '%s' for kernel %s", name, t->s->release);
		return NULL;
	}
	m = dw_module_open(t->s->release, f.name, f.path, &err);
	free(f.name);
	free(f.path);
	if (!m) {
		fail(t, "@cast: %s", err ? err : "cannot open the module's DWARF");
		free(err);
		return NULL;
	}
	sc = arena_alloc(&t->s->arena, sizeof(*sc));
	tv_object_scope(m, sc);
	if (!sc->dbg) {
		fail(t, "@cast: module '%s' has no DWARF", name);
		return NULL;
	}
	return sc;
}

/* @cast(p, "T", "<stdio.h>"): the types of C headers (dw_header_open). */
static struct tv_scope *header_scope(struct tv *t, const char *headers)
{
	struct tv_scope *sc;
	char *err = NULL;
	struct dw_object *o = dw_header_open(headers, &err);

	if (!o) {
		fail(t, "@cast: %s", err);
		free(err);
		return NULL;
	}
	sc = arena_alloc(&t->s->arena, sizeof(*sc));
	tv_object_scope(o, sc);
	if (!sc->dbg) {
		fail(t, "@cast: no DWARF from %s", headers);
		return NULL;
	}
	return sc;
}

/*
 * @cast's type or module argument: a string literal, or @N, the script
 * argument, which SystemTap substitutes as a literal (sizeof.stp's
 * @cast(0, @1, @2)).  NULL if it is neither.
 */
static const char *cast_string(struct tv *t, const struct node *n)
{
	if (n->kind == ND_STR)
		return n->str;
	if (n->kind == ND_ARG && n->str_arg && n->num >= 1 && n->num <= t->s->args.len)
		return t->s->args.items[n->num - 1];
	return NULL;
}

/* @cast(ptr, "struct foo"[, "module"]): the struct at ptr. */
static int base_cast(struct tv *t, struct node *n, struct tval *v)
{
	struct node *ptr = n->args, *ty = ptr ? ptr->next : NULL, *mod = ty ? ty->next : NULL;
	const char *type = ty ? cast_string(t, ty) : NULL, *m = mod ? cast_string(t, mod) : NULL;
	struct type_find f = { 0 };
	struct tv_scope *ks;
	Dwarf_Die cu, *cup = NULL;
	char *name, *stars;
	int nstars = 0;

	memset(v, 0, sizeof(*v));
	if (!ptr || !type || (mod && (!m || mod->next))) {
		fail(t, "@cast takes a pointer, a type name string and an optional module string");
		return -1;
	}
	ks = NULL;
	if (mod) {
		/*
		 * A kernel type (not a program's path) named in a process
		 * probe is the kernel's, read from kernel memory:
		 * @cast(task_current(), "task_struct", "kernel").
		 * "kernel<linux/sched.h>": headers only narrow SystemTap's search.
		 */
		if (t->sc && t->sc->space.kind == DW_SPACE_USER && !strchr(m, '/') &&
		    m[0] != '<') {
			t->sc = NULL;
			t->rd = "k";
		}
		if (m[0] == '<') {
			ks = header_scope(t, m);
			if (!ks)
				return -1;
		} else if (strncmp(m, "kernel", 6) || (m[6] && m[6] != '<')) {
			ks = module_scope(t, m);
			if (!ks)
				return -1;
		}
	}
	if (!ks)
		ks = kernel_scope(t);
	if (!ks)
		return -1;
	name = arena_strdup(&t->s->arena, type);
	while ((stars = strrchr(name, '*')) && !stars[1]) {
		*stars = 0;
		nstars++;
		while (stars > name && stars[-1] == ' ')
			*--stars = 0;
	}
	if (nstars) {
		fail(t, "@cast to a pointer type ('%s') is not supported: cast to the pointee", type);
		return -1;
	}
	if (!strncmp(name, "struct ", 7))
		f.tag = DW_TAG_structure_type, f.name = name + 7;
	else if (!strncmp(name, "union ", 6))
		f.tag = DW_TAG_union_type, f.name = name + 6;
	else
		f.name = name;
	while (*f.name == ' ')
		f.name++;
	if (t->sc && t->sc->has_fn && dwarf_diecu(&t->sc->fn, &cu, NULL, NULL))
		cup = &cu;
	if (!each_top(ks->dbg, cup, NULL, type_cb, &f)) {
		fail(t, "@cast: no type '%s' in the debuginfo of %s", type,
		     m && m[0] == '<' ? m : ks->space.name ? ks->space.name : "the kernel");
		return -1;
	}
	if (t->nidx == 8) {
		fail(t, "too many computed values in one target expression");
		return -1;
	}
	t->idx[t->nidx] = ptr;
	v->kind = TVK_MEM;
	v->c = cfmt(t, "((u64)_tv_i%d)", t->nidx++);
	v->has_type = true;
	v->type = f.found;
	v->cast_base = true;
	return 0;
}

struct var_find {
	const char *name;
	Dwarf_Die found;
};

static bool gvar_cb(Dwarf_Die *d, void *arg)
{
	struct var_find *f = arg;

	if (dwarf_tag(d) != DW_TAG_variable || !name_is(d, f->name) ||
	    !dwarf_hasattr_integrate(d, DW_AT_location))
		return false;
	f->found = *d;
	return true;
}

/* @var("name[@file]"[, "module"]): a global (or file-static) variable. */
static int base_atvar(struct tv *t, struct node *n, struct tval *v)
{
	struct node *a = n->args, *mod = a ? a->next : NULL;
	struct var_find f = { 0 };
	struct tv_scope *ks, *saved = t->sc;
	Dwarf_Die cu, *cup = NULL;
	char *name, *at;
	int r;

	if (!a || a->kind != ND_STR || (mod && (mod->kind != ND_STR || mod->next))) {
		fail(t, "@var takes a string \"name[@file]\" and an optional module string");
		return -1;
	}
	if (mod && strcmp(mod->str, "kernel")) {
		fail(t, "@var: module '%s' is not supported yet, only the kernel", mod->str);
		return -1;
	}
	ks = kernel_scope(t);
	if (!ks)
		return -1;
	name = arena_strdup(&t->s->arena, a->str);
	at = strchr(name, '@');
	if (at)
		*at++ = 0;
	f.name = name;
	if (!at && t->sc && t->sc->has_fn && dwarf_diecu(&t->sc->fn, &cu, NULL, NULL))
		cup = &cu;
	if (!each_top(ks->dbg, cup, at, gvar_cb, &f)) {
		fail(t, "@var: no global variable '%s'%s%s with a location in the kernel's debuginfo",
		     name, at ? " in " : "", at ? at : "");
		return -1;
	}
	t->sc = ks;
	r = var_location(t, &f.found, name, v);
	t->sc = saved;
	return r;
}

/* ---- the entry point ---- */

static struct tv_scope *probe_scope(struct tv *t)
{
	struct resolved_probe *rp = t->rp;
	int r;

	if (!rp) {
		fail(t, "target variables can only be used in probe handlers");
		return NULL;
	}
	if (rp->tvs)
		return rp->tvs;
	if (rp->tvs_failed)
		return NULL;
	if (!rp->family->tv_scope) {
		rp->tvs_failed = true;
		fail(t, "probe point '%s' has no target variables", rp->pp);
		hint(t, "target variables exist in kernel.function, kernel.statement, "
		     "module(...) and kernel.trace probes; @cast and @var work anywhere");
		return NULL;
	}
	rp->tvs = arena_alloc(&t->s->arena, sizeof(*rp->tvs));
	/* @defined($x) asks quietly: no scope (no debuginfo) is then 0. */
	t->s->diag_quiet += t->quiet;
	r = rp->family->tv_scope(t->s, rp, t->loc, rp->tvs);
	t->s->diag_quiet -= t->quiet;
	if (r < 0) {
		rp->tvs = NULL;
		rp->tvs_failed = !t->quiet;	/* a later plain use reports it */
		t->failed = true;
		return NULL;
	}
	return rp->tvs;
}

/* Finish a long result, or a pretty-printed string with depth > 0. */
static int finish(struct tv *t, struct tval *v, const char *what, int pretty_depth,
		  bool lvalue, struct tv_code *out)
{
	if (pretty_depth) {
		struct strbuf code = STRBUF_INIT;

		sb_puts(&code, "_tv_dst[0] = 0;\n");
		t->pretty_strings = true;
		pretty(t, &code, v, pretty_depth, true, false);
		out->type = TY_STRING;
		out->code = arena_strdup(&t->s->arena, sb_str(&code));
		sb_free(&code);
		return 0;
	}
	out->type = TY_LONG;
	out->code = rvalue(t, v, what);
	if (!out->code)
		return -1;
	if (!lvalue)
		return 0;
	if (!t->s->guru) {
		fail(t, "writing to target variable '%s' needs guru mode (-g)", what);
		return -1;
	}
	if (v->bit_size) {
		fail(t, "writing to bitfield '%s' is not supported", what);
		return -1;
	}
	{
		Dwarf_Die p;
		int size = 8;
		bool sign, flt;

		if (peel(&v->type, &p) && !scalar(&p, &size, &sign, &flt)) {
			fail(t, "'%s' is not a scalar: it cannot be assigned", what);
			return -1;
		}
		if (v->kind == TVK_MEM)
			out->store = cfmt(t, "_stp_tv_write(c, %s, %d, (u64)_tv_val);", v->c, size);
		else if (v->kind == TVK_REG && !(t->sc && t->sc->is_return && strcmp(v->reg, "ax")))
			out->store = cfmt(t, "if (c->regs) c->regs->%s = (unsigned long)_tv_val;",
					  v->reg);
		else {
			fail(t, "'%s' is a computed value here: it cannot be assigned", what);
			return -1;
		}
	}
	return 0;
}

static void wrap_indexes(struct tv *t, struct tv_code *out)
{
	if (!t->nidx)
		return;
	out->nidx = t->nidx;
	out->idx = arena_alloc(&t->s->arena, (size_t)t->nidx * sizeof(*out->idx));
	memcpy(out->idx, t->idx, (size_t)t->nidx * sizeof(*out->idx));
}

static struct tv_code *resolve_entry(struct tv *t, struct node *e);
static int resolve_target(struct tv *t, struct node *n, bool lvalue, struct tv_code *out);

/*
 * $global (and $global->x, $global[1]) in a .return probe: SystemTap reads
 * the whole expression at the entry, as it does parameters ("captured as
 * @entry($global)"); @var("global") reads it at the return.
 */
static int entry_global(struct tv *t, struct node *n, const char *name, int pdepth,
			bool lvalue, struct tv_code *out)
{
	struct tv_code *e;

	if (lvalue || pdepth) {
		fail(t, "'$%s%s' in a .return probe is the global's value at entry: "
		     "it cannot be %s", name, pdepth ? "$" : "",
		     lvalue ? "assigned" : "saved as a string");
		hint(t, "@var(\"%s\") reads the global at the return", name);
		return -1;
	}
	e = resolve_entry(t, n);
	if (!e)
		return -1;
	*out = *e;
	return 0;
}

/* The C type of what v holds as a number, for a script value to carry. */
static const struct tv_ctype *carried_type(struct tv *t, struct tval *v, bool addr_of)
{
	struct tv_ctype *ct;

	if (!v->has_type || v->bit_size)
		return NULL;
	ct = arena_alloc(&t->s->arena, sizeof(*ct));
	ct->type = v->type;
	ct->addr_of = addr_of;
	ct->rd = t->rd;
	ct->sc = t->sc;
	return ct;
}

/*
 * The member chain of n (->name, [index]) from base v, then its value:
 * its address (&), a number or a pretty-printed string.
 */
static int chain(struct tv *t, struct node *n, struct tval *v, struct strbuf *what, bool lvalue,
		 int pdepth, struct tv_code *out)
{
	struct member *m;
	int ret;

	for (m = n->members; m; m = m->next) {
		if (m->name) {
			v->cast_base = false;
			if (member(t, v, m->name) < 0)
				return -1;
			sb_printf(what, "->%s", m->name);
		} else {
			if (index_step(t, v, m->index) < 0)
				return -1;
			sb_puts(what, "[...]");
		}
	}
	if (n->op == OP_BITAND) {	/* & $EXPR */
		if (v->kind != TVK_MEM || v->bit_size) {
			fail(t, "'%s' has no address: the compiler keeps it in a register "
			     "or it is a bitfield", sb_str(what));
			return -1;
		}
		if (lvalue || pdepth) {
			fail(t, "the address '&%s' can only be read as a number", sb_str(what));
			return -1;
		}
		out->type = TY_LONG;
		out->code = cfmt(t, "((int64_t)%s)", v->c);
		out->ctype = carried_type(t, v, true);
		wrap_indexes(t, out);
		return 0;
	}
	ret = finish(t, v, sb_str(what), pdepth, lvalue, out);
	if (!ret && out->type == TY_LONG)
		out->ctype = carried_type(t, v, false);
	wrap_indexes(t, out);
	return ret;
}

static int resolve_target(struct tv *t, struct node *n, bool lvalue, struct tv_code *out)
{
	char *name = arena_strdup(&t->s->arena, n->str ? n->str : "");
	int pdepth = (int)n->num;
	size_t len;
	struct tval v;
	struct strbuf what = STRBUF_INIT;
	int ret;

	if (n->kind == ND_TARGET) {
		/* $x$ / $x$$ lex into the name; $p->x$ into n->num. */
		while ((len = strlen(name)) > 1 && name[len - 1] == '$' && name[0] != '$') {
			name[len - 1] = 0;
			pdepth++;
		}
		if (name[0] == '$') {
			struct tv_scope *sc;
			char *w = name + 1;

			while ((len = strlen(w)) && w[len - 1] == '$') {
				w[len - 1] = 0;
				pdepth++;
			}
			if (n->members) {
				fail(t, "'$$%s' cannot be followed by members", w);
				return -1;
			}
			if (lvalue) {
				fail(t, "'$$%s' cannot be assigned", w);
				return -1;
			}
			sc = probe_scope(t);
			if (!sc)
				return -1;
			t->sc = sc;
			return special(t, w, pdepth, out);
		}
		t->sc = probe_scope(t);
		if (!t->sc)
			return -1;
		if (t->sc->is_return && !t->at_entry && strcmp(name, "return") &&
		    global_var(t, name))
			return entry_global(t, n, name, pdepth, lvalue, out);
		if (!strcmp(name, "return")) {
			if (base_return(t, &v) < 0)
				return -1;
		} else if (pdepth && !n->members && !lvalue && n->op != OP_BITAND &&
			   unavailable_var(t, name)) {
			/* As in $$vars, SystemTap prints "?" for it. */
			out->type = TY_STRING;
			out->code = "_tv_dst[0] = 0;\n_stp_tv_append(_tv_dst, \"?\");\n";
			return 0;
		} else if (base_var(t, name, &v) < 0) {
			return -1;
		}
		sb_printf(&what, "$%s", name);
	} else if (n->kind == ND_CAST) {
		t->sc = t->rp && t->rp->family && t->rp->family->tv_scope ? probe_scope(t) : NULL;
		t->failed = false;
		if (base_cast(t, n, &v) < 0)
			return -1;
		sb_puts(&what, "@cast(...)");
	} else {
		t->sc = t->rp && t->rp->family && t->rp->family->tv_scope ? probe_scope(t) : NULL;
		t->failed = false;
		if (base_atvar(t, n, &v) < 0)
			return -1;
		sb_printf(&what, "@var(\"%s\")", n->args->str);
	}
	ret = chain(t, n, &v, &what, lvalue, pdepth, out);
	sb_free(&what);
	return ret;
}

static enum type resolve_node(struct session *s, struct resolved_probe *rp, struct node *n,
			      bool lvalue);

/* Target expression e evaluated at the function's entry, saved in a slot. */
static struct tv_code *resolve_entry(struct tv *t, struct node *e)
{
	struct tv_code inner = { 0 }, *out;

	if (!t->rp) {
		fail(t, "@entry can only be used in probe handlers");
		return NULL;
	}
	t->sc = probe_scope(t);
	if (!t->sc)
		return NULL;
	if (!t->sc->is_return) {
		fail(t, "@entry is only meaningful in .return probes");
		return NULL;
	}
	t->at_entry = true;
	if (resolve_target(t, e, false, &inner) < 0 || t->failed)
		return NULL;
	if (inner.type != TY_LONG || inner.nidx) {
		fail(t, "@entry saves numbers: '$x$' strings and computed indexes cannot be saved");
		return NULL;
	}
	out = arena_alloc(&t->s->arena, sizeof(*out));
	out->type = TY_LONG;
	if (t->dry) {		/* @defined: no slot */
		out->code = "0";
		return out;
	}
	vec_push(&t->rp->entry_exprs, (void *)inner.code);
	out->code = cfmt(t, "c->entry_slots[%d]", t->rp->entry_exprs.len - 1);
	return out;
}

/*
 * $var (but $return) in a .return probe reads the value at entry, as
 * @entry($var) would: SystemTap 4.8 warns, once per text, in its words
 * (its "$p$" shows as "$p->$").  @entry() and @defined() do not warn.
 */
static void entry_capture_warning(struct session *s, struct node *n)
{
	struct tv_state *st = s->tv_state;
	struct node one = *n;
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(n->str), pd = (size_t)n->num, base;
	char *text;

	/* $p$ and $p$$ keep the pretty-printing '$'s in the name, $p->x$ in num. */
	while (!n->members && pd < 2 && len > pd + 1 && n->str[len - pd - 1] == '$')
		pd++;
	base = n->members ? len : len - pd;	/* the name without those '$'s */
	/*
	 * $return is the return value, not captured ($return$ neither); nor
	 * does SystemTap warn for tapset code (socket.create.return's
	 * $protocol).
	 */
	if ((base == 6 && !strncmp(n->str, "return", 6)) || !strcmp(n->str, "$return") ||
	    (n->loc.file && n->loc.file->is_tapset))
		return;
	one.next = NULL;
	one.num = 0;
	one.str = arena_strndup(&s->arena, n->str, base);
	ast_print_expr(&sb, &one);
	sb_puts(&sb, pd == 2 ? "->$$" : pd == 1 ? "->$" : "");
	if (!st)
		st = s->tv_state = xcalloc(1, sizeof(*st));
	for (int i = 0; i < st->captured.len; i++)
		if (!strcmp(st->captured.items[i], sb_str(&sb))) {
			sb_free(&sb);
			return;
		}
	text = arena_strdup(&s->arena, sb_str(&sb));
	sb_free(&sb);
	vec_push(&st->captured, text);
	diag_warn(s, &n->loc, "confusing usage, value is captured as @entry(%s) in .return "
		  "probe [man stapprobes] RETURN PROBES", text);
}

/*
 * The address space rp's reads are of, known here so that a read does
 * not ask at run time: "u" (_stp_tv_uread: the traced task's memory)
 * for probes whose hits run in a process (family user_space), "k"
 * (_stp_tv_kread) for the others.  Code that probes of both kinds run
 * (a function; a body two probes share, as @cast alone does not make a
 * copy) gets "" (_stp_tv_read, which asks c->uprobe).
 */
static const char *reader(struct session *s, struct resolved_probe *rp)
{
	int user = 0, kernel = 0;

	if (!rp || !rp->family)
		return "";
	if (rp->probe && rp->probe->tv_rp == rp)
		return rp->family->user_space ? "u" : "k";
	for (int i = 0; i < s->probes.len; i++) {
		struct resolved_probe *o = s->probes.items[i];

		if (o == rp || (rp->probe && o->probe == rp->probe))
			*(o->family->user_space ? &user : &kernel) += 1;
	}
	return user && kernel ? "" : user ? "u" : "k";
}

enum type tv_resolve_at_entry(struct session *s, struct resolved_probe *rp, struct node *n)
{
	struct node *idx[8];
	struct tv t = { .s = s, .rp = rp, .loc = &n->loc, .idx = idx, .rd = reader(s, rp) };

	if (!n->tv) {
		n->tv = resolve_entry(&t, n);
		if (!n->tv) {
			n->tv = arena_alloc(&s->arena, sizeof(*n->tv));
			n->tv->type = TY_UNKNOWN;
		}
	}
	return n->tv->type;
}

enum type tv_resolve(struct session *s, struct resolved_probe *rp, struct node *n,
		     bool lvalue)
{
	if (!n->tv) {
		resolve_node(s, rp, n, lvalue);
		if (!n->tv) {	/* failed: remember, so the error is reported once */
			n->tv = arena_alloc(&s->arena, sizeof(*n->tv));
			n->tv->type = TY_UNKNOWN;
		}
	}
	return n->tv->type;
}

/* ---- autocast: script values that carry a C type ---- */

/* c itself, or the type its declaration names, looked up now; NULL if not found. */
static const struct tv_ctype *looked_up(struct session *s, const struct tv_ctype *c)
{
	struct tv_ctype *k;

	if (!c->decl)
		return c;
	if (tv_resolve(s, NULL, c->decl, false) != TY_LONG || !c->decl->tv->ctype)
		return NULL;
	/* A kernel pointer: read as one even in a process probe. */
	k = arena_alloc(&s->arena, sizeof(*k));
	*k = *c->decl->tv->ctype;
	k->rd = "k";
	return k;
}

/* c's type as C spells it, malloc'ed. */
static char *ctype_text(const struct tv_ctype *c)
{
	Dwarf_Die ty = c->type;
	char *n, *r;

	if (c->decl) {	/* &@cast(0, "struct T", "kernel") */
		const char *d = c->decl->args->next->str;

		r = xmalloc(strlen(d) + 2);
		sprintf(r, "%s*", d);
		return r;
	}
	n = dw_type_name(&ty);
	if (!c->addr_of)
		return n;
	r = xmalloc(strlen(n) + 2);
	sprintf(r, "%s*", n);
	free(n);
	return r;
}

const char *tv_ctype_name(struct session *s, const struct tv_ctype *c)
{
	char *n = ctype_text(c);
	const char *r = arena_strdup(&s->arena, n);

	free(n);
	return r;
}

bool tv_ctype_same(struct session *s, const struct tv_ctype *a, const struct tv_ctype *b)
{
	char *na, *nb;
	bool same;

	if (a->decl && a->decl == b->decl)
		return true;
	if (!(a = looked_up(s, a)) || !(b = looked_up(s, b)))
		return false;
	if (strcmp(a->rd, b->rd))
		return false;
	if (a->addr_of == b->addr_of && a->type.addr == b->type.addr)
		return true;
	/* The same struct in another compile unit: one type to a script. */
	na = ctype_text(a);
	nb = ctype_text(b);
	same = !strcmp(na, nb);
	free(na);
	free(nb);
	return same;
}

enum type tv_resolve_autocast(struct session *s, struct resolved_probe *rp, struct node *n,
			      const struct tv_ctype *ct, bool lvalue, bool quiet)
{
	struct node *idx[8];
	struct tv t = { .s = s, .rp = rp, .loc = &n->loc, .idx = idx, .quiet = quiet };
	struct strbuf what = STRBUF_INIT;
	struct tval v = { .has_type = true };
	struct tv_code *out;
	Dwarf_Die p;

	if (n->tv)
		return n->tv->type;
	if (ct->decl && !ct->decl->tv) {
		ct = looked_up(s, ct);
		if (!ct)	/* said at the declaration: say why it was needed */
			diag_note(s, &n->loc, "the type is needed here, to read through the value");
	} else {
		ct = looked_up(s, ct);
	}
	if (!ct)
		return TY_UNKNOWN;
	t.rd = ct->rd;
	t.sc = ct->sc;
	v.type = ct->type;
	idx[t.nidx++] = n->lhs;
	v.c = "((u64)_tv_i0)";
	/* An array's value is its address (rvalue()), as &EXPR's is. */
	v.kind = ct->addr_of || (peel(&v.type, &p) && dwarf_tag(&p) == DW_TAG_array_type) ?
		 TVK_MEM : TVK_VAL;
	v.cast_base = ct->addr_of;	/* (&EXPR)[i]: ((T *)EXPR)[i] */
	ast_print_expr(&what, n->lhs);
	out = arena_alloc(&s->arena, sizeof(*out));
	if (chain(&t, n, &v, &what, lvalue, (int)n->num, out) < 0 || t.failed) {
		out->type = TY_UNKNOWN;
		out->nidx = 0;
	}
	sb_free(&what);
	n->tv = out;
	return out->type;
}

static enum type resolve_node(struct session *s, struct resolved_probe *rp, struct node *n,
			      bool lvalue)
{
	struct node *idx[8];
	struct tv t = { .s = s, .rp = rp, .loc = &n->loc, .idx = idx, .rd = reader(s, rp) };
	struct tv_code *out;

	if (n->kind == ND_DEFINED) {
		struct node *e = n->lhs;

		out = arena_alloc(&s->arena, sizeof(*out));
		out->type = TY_LONG;
		out->constant = true;
		out->code = "1";
		if (e->kind == ND_TARGET || e->kind == ND_CAST || e->kind == ND_ATVAR ||
		    e->kind == ND_ENTRY) {
			struct tv_code tmp = { 0 };
			struct tv q = t;

			q.quiet = true;
			q.dry = true;
			q.loc = &e->loc;
			if (e->kind == ND_ENTRY)
				e = e->lhs;
			/* In a function (no rp) only @cast has a meaning. */
			if ((!rp && e->kind != ND_CAST) ||
			    (e->kind == ND_TARGET && (!rp->family || !rp->family->tv_scope)) ||
			    resolve_target(&q, e, false, &tmp) < 0 || q.failed)
				out->code = "0";
			/* @defined must not leave @entry slots behind. */
		}
		n->tv = out;
		return TY_LONG;
	}
	if (n->kind == ND_ENTRY) {
		struct node *e = n->lhs;

		if (e->kind != ND_TARGET || e->str[0] == '$' || !strcmp(e->str, "return")) {
			fail(&t, "@entry takes a target variable expression, such as @entry($file->f_pos)");
			return TY_UNKNOWN;
		}
		out = resolve_entry(&t, e);
		if (!out)
			return TY_UNKNOWN;
		n->tv = out;
		return TY_LONG;
	}
	out = arena_alloc(&s->arena, sizeof(*out));
	/* --skip-badvars: what cannot be read reads as 0 (not written to). */
	t.quiet = s->skip_badvars && !lvalue;
	if (resolve_target(&t, n, lvalue, out) < 0 || t.failed) {
		if (!t.quiet)
			return TY_UNKNOWN;
		*out = (struct tv_code){ .type = TY_LONG, .constant = true, .code = "0" };
		n->tv = out;
		return TY_LONG;
	}
	if (n->kind == ND_TARGET && t.sc && t.sc->has_fn && t.sc->is_return)
		entry_capture_warning(s, n);
	n->tv = out;
	return out->type;
}

void tv_emit_decls(struct session *s, struct strbuf *c)
{
	struct tv_state *st = s->tv_state;
	uint64_t link = st && st->k ? dw_printk(st->k) : 0;

	for (int i = 0; !link && i < s->probes.len; i++) {
		struct resolved_probe *rp = s->probes.items[i];

		if (rp->tvs && rp->tvs->space.link_printk)
			link = rp->tvs->space.link_printk;
	}
	sb_printf(c, "/* KASLR: run-time minus link-time address of _printk. */\n"
		  "static inline unsigned long _stp_kaddr(unsigned long a)\n"
		  "{\n\treturn a + ((unsigned long)&_printk - 0x%" PRIx64 "UL);\n}\n\n", link);
}

void tv_free(struct session *s)
{
	struct tv_state *st = s->tv_state;

	if (!st)
		return;
	dw_close(st->k);
	vec_free(&st->captured);
	free(st);
	s->tv_state = NULL;
}
