/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SDT markers (.note.stapsdt) of user-space ELF files: see sdt.c. */
#ifndef SDT_H
#define SDT_H

#include <gelf.h>
#include <stdint.h>

struct sdt_note {
	const char *provider, *name;
	const char *args;	/* "-4@%edi 8@-16(%rbp)", "" if none */
	uint64_t pc;		/* link-time address of the marker */
	uint64_t semaphore;	/* link-time address of its counter; 0: none */
};
typedef int (*sdt_note_fn)(const struct sdt_note *n, void *arg);
/*
 * Call fn on each marker of elf, in file order, until it returns
 * non-zero (returned).  Otherwise the number of markers, or -EIO.
 */
int sdt_notes(Elf *elf, sdt_note_fn fn, void *arg);

enum sdt_kind { SDT_REG, SDT_CONST, SDT_MEM, SDT_MEM_LINK };	/* = STP_SDT_* */
/* One decoded argument; base/index name struct pt_regs members ("di"). */
struct sdt_arg {
	int size;		/* 1, 2, 4, 8; negative: signed */
	enum sdt_kind kind;
	const char *base, *index;	/* NULL: none */
	int scale;
	int64_t value;		/* constant, displacement, or link-time address */
};
/*
 * Decode "SIZE@OPERAND" (len bytes of text); symbols are looked up in
 * elf.  0, or -1 with *err (malloc'ed) saying what is wrong.
 */
int sdt_parse_arg(Elf *elf, const char *text, size_t len, struct sdt_arg *a, char **err);

#endif /* SDT_H */
