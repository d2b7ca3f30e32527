/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Symbol tables emitted into the module (syms.c). */
#ifndef SYMS_H
#define SYMS_H

#include <gelf.h>

#include "stap.h"

/*
 * Append _stp_sym_tables[] to the module's C: the kernel's function
 * symbols if the script uses a symbol or backtrace function, else an
 * empty table.  Missing debuginfo is a warning (the module then names
 * addresses with the kernel's kallsyms).  Returns 0.
 */
int syms_emit(struct session *s, struct strbuf *c);

/*
 * Append _stp_lines_blob, the kernel's source lines, if the script uses
 * symfileline() and friends (a "/ * lines * /" pragma), else an empty one
 * (lines.c).  Missing debuginfo is a warning.
 */
void lines_emit(struct session *s, struct strbuf *c);

/* The same for the user files' tables, _stp_usym_tables[] (usyms.c). */
void usyms_emit(struct session *s, struct strbuf *c);

/* ---- shared by syms.c and usyms.c ---- */

struct sym {
	uint64_t addr;
	uint32_t size;
	const char *name;
	int rank;		/* which of two at one address wins: higher */
};

/* Does a used tapset function's embedded C hold pragma ("/ * symbols * /")? */
bool syms_script_needs(struct session *s, const char *pragma);
/* elf's function symbols of its first section of type into out; the
 * address of _printk into *printk if not NULL.  As dw_elf_symbols_of. */
int syms_collect(struct session *s, Elf *elf, int type, struct vec *out, uint64_t *printk);
int syms_by_addr(const void *a, const void *b);
/* syms sorted by address, one per address, into a malloc'ed *out; how many. */
size_t syms_sort(struct vec *syms, struct sym **out);
/* arr[0..n) as the arrays stp_sym_ID_{offs,sizes,names,strtab}, offsets
 * counted from arr[0].addr. */
void syms_emit_arrays(struct strbuf *c, const char *id, const struct sym *arr, size_t n);

/*
 * One row of a user file's unwind table (ucfi.c): from pc (link-time,
 * then a file offset) to the next row, the caller's frame is at CFA =
 * (rsp or rbp) + cfa_off, its return address at CFA + 8 * ra and its
 * rbp at CFA + 8 * bp (0: unchanged).  The UCFI_ values are the
 * runtime's STP_UCFI_ ones (runtime/stp_tapset.h): keep them in step.
 */
enum { UCFI_SP = 0, UCFI_BP = 1, UCFI_NONE = 2 };
struct ucfi_row {
	uint64_t pc;
	int32_t cfa_off;
	uint8_t cfa_reg;
	int8_t ra, bp;
};
struct ucfi_rows {
	struct ucfi_row *rows;
	size_t n, cap;
};
/* The rows of elf's .eh_frame, sorted by pc (none if it has none). 0. */
int ucfi_read(Elf *elf, struct ucfi_rows *out);

#endif /* SYMS_H */
