// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A user ELF file's .eh_frame as compact unwind rows for the module's
 * user-stack unwinder (runtime/ustack.c).
 *
 * libdw executes the CFI: for each FDE that .eh_frame_hdr's search table
 * lists, dwarf_cfi_addrframe() gives the rules of one address range at a
 * time, which we reduce to what x86-64 code needs to find its caller:
 * the CFA as rsp or rbp plus an offset, the return address and the saved
 * rbp at CFA-relative slots.  Anything else (DWARF expressions, as in
 * PLT entries) becomes a "no rule" row, where the runtime falls back to
 * frame pointers.  Consecutive rows with equal rules are merged.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "stap.h"
#include "syms.h"

/* x86-64 DWARF register numbers */
enum { DW_RBP = 6, DW_RSP = 7, DW_RA = 16 };

/* A register rule "saved at CFA + off" into *off; false for anything else. */
static bool cfa_slot(const Dwarf_Op *ops, size_t nops, int64_t *off)
{
	if (!nops || ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (nops == 1) {
		*off = 0;
		return true;
	}
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*off = (int64_t)ops[1].number;
		return true;
	}
	if (nops == 3 && (ops[1].atom == DW_OP_consts || ops[1].atom == DW_OP_constu) &&
	    ops[2].atom == DW_OP_plus) {
		*off = (int64_t)ops[1].number;
		return true;
	}
	return false;
}

/* One row's rules from libdw's frame; false if they do not fit a row. */
static bool frame_row(Dwarf_Frame *frame, struct ucfi_row *r)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	int64_t off;

	int64_t reg, cfa_off;

	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1)
		return false;
	/* libdw gives "reg + off" as DW_OP_bregx reg, off */
	if (ops[0].atom == DW_OP_bregx) {
		reg = (int64_t)ops[0].number;
		cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		cfa_off = (int64_t)ops[0].number;
	} else {
		return false;
	}
	if (reg == DW_RSP)
		r->cfa_reg = UCFI_SP;
	else if (reg == DW_RBP)
		r->cfa_reg = UCFI_BP;
	else
		return false;
	if (cfa_off < INT32_MIN || cfa_off > INT32_MAX)
		return false;
	r->cfa_off = (int32_t)cfa_off;
	if (dwarf_frame_register(frame, DW_RA, mem, &ops, &nops) ||
	    !cfa_slot(ops, nops, &off) || off % 8 || off < -1024 || off >= 0)
		return false;
	r->ra = (int8_t)(off / 8);
	r->bp = 0;	/* same value, or undefined: the caller's is ours */
	if (dwarf_frame_register(frame, DW_RBP, mem, &ops, &nops))
		return false;
	if (nops) {
		if (!cfa_slot(ops, nops, &off) || off % 8 || off < -1024 || off >= 0)
			return false;
		r->bp = (int8_t)(off / 8);
	}
	return true;
}

static bool same_rule(const struct ucfi_row *a, const struct ucfi_row *b)
{
	return a->cfa_reg == b->cfa_reg && a->cfa_off == b->cfa_off && a->ra == b->ra &&
	       a->bp == b->bp;
}

static void push_row(struct ucfi_rows *out, const struct ucfi_row *r)
{
	if (out->n && same_rule(&out->rows[out->n - 1], r))
		return;
	if (out->n && out->rows[out->n - 1].pc == r->pc) {
		out->rows[out->n - 1] = *r;	/* an empty range: replaced */
		return;
	}
	if (out->n == out->cap) {
		out->cap = out->cap ? 2 * out->cap : 256;
		out->rows = xrealloc(out->rows, out->cap * sizeof(*out->rows));
	}
	out->rows[out->n++] = *r;
}

/* A little-endian signed 32-bit word. */
static int32_t s32_at(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			 (uint32_t)p[3] << 24);
}

/*
 * The FDE start addresses in .eh_frame_hdr's table, sorted; how many, or
 * 0 if the file has none in the encoding every GNU linker writes
 * (udata4 count, datarel sdata4 pairs).
 */
static size_t fde_starts(Elf *elf, uint64_t **out)
{
	size_t shstrndx, n = 0;
	Elf_Scn *scn = NULL;

	*out = NULL;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;
		const unsigned char *p;
		uint32_t count;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".eh_frame_hdr"))
			continue;
		d = elf_getdata(scn, NULL);
		p = d ? d->d_buf : NULL;
		/* version 1, eh_frame_ptr sdata4 (pcrel or not), count udata4, table datarel sdata4 */
		if (!p || d->d_size < 12 || p[0] != 1 || (p[1] & 0x0f) != DW_EH_PE_sdata4 ||
		    p[2] != DW_EH_PE_udata4 || p[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4))
			return 0;
		count = (uint32_t)s32_at(p + 8);
		if (12 + (size_t)count * 8 > d->d_size)
			return 0;
		*out = xcalloc(count ? count : 1, sizeof(**out));
		for (uint32_t i = 0; i < count; i++)
			(*out)[n++] = sh.sh_addr + (int64_t)s32_at(p + 12 + 8 * (size_t)i);
		return n;
	}
	return 0;
}

int ucfi_read(Elf *elf, struct ucfi_rows *out)
{
	Dwarf_CFI *cfi = dwarf_getcfi_elf(elf);
	uint64_t *starts;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!cfi)
		return 0;
	n = fde_starts(elf, &starts);
	for (size_t i = 0; i < n; i++) {
		uint64_t pc = starts[i], limit = i + 1 < n ? starts[i + 1] : UINT64_MAX;
		struct ucfi_row none = { .cfa_reg = UCFI_NONE };

		while (pc < limit) {
			Dwarf_Frame *frame;
			Dwarf_Addr start, end;
			struct ucfi_row r = { .pc = pc };

			if (dwarf_cfi_addrframe(cfi, pc, &frame))
				break;
			dwarf_frame_info(frame, &start, &end, NULL);
			if (!frame_row(frame, &r))
				r.cfa_reg = UCFI_NONE;
			free(frame);
			push_row(out, &r);
			if (end <= pc)
				break;
			pc = end;
		}
		/* Where the FDE ends short of the next one: no rule. */
		none.pc = pc;
		if (pc < limit)
			push_row(out, &none);
	}
	free(starts);
	dwarf_cfi_end(cfi);
	return 0;
}
