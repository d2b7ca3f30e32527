/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PLT entries of user-space ELF files (.plt probes): see plt.c. */
#ifndef PLT_H
#define PLT_H

#include <gelf.h>
#include <stdint.h>

typedef int (*plt_entry_fn)(const char *name, uint64_t vaddr, void *arg);
/*
 * Call fn on each PLT entry of elf (x86-64: .plt, or .plt.sec where the
 * linker made one) with the name of the function it jumps to, without
 * its symbol version, and the entry's link-time address, in address
 * order, until fn returns non-zero (returned).  Otherwise the number of
 * entries: 0 for a file without a PLT.
 */
int plt_entries(Elf *elf, plt_entry_fn fn, void *arg);
/*
 * The function symbol at or nearest below vaddr in elf's .symtab (else
 * .dynsym), whatever its size: what SystemTap's probefunc() names for a
 * PLT entry (_init, whose section comes before .plt).  NULL if none.
 */
const char *plt_func_before(Elf *elf, uint64_t vaddr);

#endif /* PLT_H */
