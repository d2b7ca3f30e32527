// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel addresses to symbols.  The translator emits the kernel's
 * function symbols (from its debuginfo's ELF symtab) into the module
 * when the script uses a symbol or backtrace function; their link-time
 * addresses meet run-time ones through the KASLR offset, which is the
 * run-time address of _printk less its link-time address.  Addresses
 * outside those tables (loadable modules) are asked of the kernel's own
 * kallsyms, sprint_symbol().
 *
 * Lookups run in probe context: a binary search, no locks, no
 * allocation; kallsyms' answer goes through a per-CPU buffer.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/string.h>
#include "stp_tapset.h"
#include "stp_scratch.h"

/* Where the kernel really is: link-time address + this. */
static unsigned long kaslr_offset_of(const struct stp_symtab *t)
{
	return t->link_ref ? (unsigned long)&_printk - (unsigned long)t->link_ref : 0;
}

/* The index of the last symbol at or below off, or -1. */
static long find(const struct stp_symtab *t, u32 off)
{
	long lo = 0, hi = (long)t->n - 1, best = -1;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;

		if (t->offs[mid] <= off) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
}

long _stp_symtab_find(const struct stp_symtab *t, unsigned long rel,
		      unsigned long *off, unsigned long *size)
{
	unsigned long end;
	long i;

	if (!t->n || rel > U32_MAX)
		return -1;
	i = find(t, (u32)rel);
	if (i < 0)
		return -1;
	end = t->sizes[i] ? t->offs[i] + t->sizes[i] :
	      i + 1 < t->n ? t->offs[i + 1] : t->offs[i];
	if (rel >= end)
		return -1;	/* in a gap between symbols */
	*off = rel - t->offs[i];
	*size = end - t->offs[i];
	return i;
}

static int table_lookup(unsigned long addr, char *name, size_t len,
			unsigned long *off, unsigned long *size, const char **mod)
{
	const struct stp_symtab *t;

	for (t = _stp_sym_tables; t->name; t++) {
		unsigned long link = addr - kaslr_offset_of(t);
		long i;

		if (link < t->base)
			continue;
		i = _stp_symtab_find(t, link - t->base, off, size);
		if (i < 0)
			continue;
		strscpy(name, t->strtab + t->names[i], len);
		*mod = t->name;
		return 0;
	}
	return -ENOENT;
}

/* kallsyms' "name+0x1f/0x80 [mod]" into its parts. */

static int kallsyms_lookup_parts(unsigned long addr, char *name, size_t len,
				 unsigned long *off, unsigned long *size,
				 const char **mod)
{
	char *buf = _stp_scratch()->ksym, *modbuf = _stp_scratch()->kmod;
	char *plus, *slash, *br;

	sprint_symbol(buf, addr);
	plus = strrchr(buf, '+');
	if (!plus || buf[0] == '0')
		return -ENOENT;		/* "0xffff...": not a symbol */
	*plus = '\0';
	if (kstrtoul(plus + 1, 0, off))
		*off = 0;
	slash = strchr(plus + 1, '/');
	*size = 0;
	if (slash) {
		char *sp = strchr(slash, ' ');

		if (sp)
			*sp = '\0';
		if (kstrtoul(slash + 1, 0, size))
			*size = 0;
		br = sp ? strchr(sp + 1, '[') : NULL;
	} else {
		br = NULL;
	}
	if (br) {
		size_t n = strcspn(br + 1, " ]");

		n = min_t(size_t, n, MODULE_NAME_LEN - 1);
		memcpy(modbuf, br + 1, n);
		modbuf[n] = '\0';
		*mod = modbuf;
	} else {
		*mod = "kernel";
	}
	strscpy(name, buf, len);
	return 0;
}

int _stp_sym_lookup(unsigned long addr, char *name, size_t len,
		    unsigned long *off, unsigned long *size, const char **mod)
{
	if (!table_lookup(addr, name, len, off, size, mod))
		return 0;
	return kallsyms_lookup_parts(addr, name, len, off, size, mod);
}

/* The symbol name goes into dst itself, the rest is appended. */
void _stp_symdata(char *dst, size_t len, unsigned long addr)
{
	unsigned long off, size;
	const char *mod;
	size_t n;

	if (_stp_sym_lookup(addr, dst, len, &off, &size, &mod)) {
		snprintf(dst, len, "0x%lx", addr);
		return;
	}
	n = strlen(dst);
	snprintf(dst + n, len - n, "+0x%lx/0x%lx [%s]", off, size, mod);
}

void _stp_symname(char *dst, size_t len, unsigned long addr)
{
	unsigned long off, size;
	const char *mod;

	if (_stp_sym_lookup(addr, dst, len, &off, &size, &mod))
		snprintf(dst, len, "0x%lx", addr);
}
