// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SDT markers of user-space ELF files (sdt_ prefix): the STAP_PROBE()
 * macros of <sys/sdt.h> leave, for each marker, an ELF note of type 3
 * named "stapsdt" in .note.stapsdt holding
 *
 *     pc, base, semaphore    three addresses of the file's word size
 *     provider\0 name\0 args\0
 *
 * pc is the marker's nop; base is the link-time address of the
 * .stapsdt.base section, so a file moved by prelink is corrected by the
 * difference; semaphore (0: none) is a 16-bit counter the program tests
 * before computing expensive arguments.  args is a space-separated list
 * of "SIZE@OPERAND" in the assembler's syntax (x86-64 AT&T here):
 * "-4@%edi 8@-16(%rbp) 8@$42 4@counter(%rip)".
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdt.h"
#include "../common/util.h"

/* x86-64 register names (any width) and their struct pt_regs member. */
static const struct {
	const char *names[4];	/* 64-, 32-, 16-, 8-bit */
	const char *member;
} sdt_regs[] = {
	{ { "rax", "eax", "ax", "al" }, "ax" },
	{ { "rbx", "ebx", "bx", "bl" }, "bx" },
	{ { "rcx", "ecx", "cx", "cl" }, "cx" },
	{ { "rdx", "edx", "dx", "dl" }, "dx" },
	{ { "rsi", "esi", "si", "sil" }, "si" },
	{ { "rdi", "edi", "di", "dil" }, "di" },
	{ { "rbp", "ebp", "bp", "bpl" }, "bp" },
	{ { "rsp", "esp", "sp", "spl" }, "sp" },
	{ { "r8", "r8d", "r8w", "r8b" }, "r8" },
	{ { "r9", "r9d", "r9w", "r9b" }, "r9" },
	{ { "r10", "r10d", "r10w", "r10b" }, "r10" },
	{ { "r11", "r11d", "r11w", "r11b" }, "r11" },
	{ { "r12", "r12d", "r12w", "r12b" }, "r12" },
	{ { "r13", "r13d", "r13w", "r13b" }, "r13" },
	{ { "r14", "r14d", "r14w", "r14b" }, "r14" },
	{ { "r15", "r15d", "r15w", "r15b" }, "r15" },
	{ { "rip", "eip", NULL, NULL }, "ip" },
};

/* "%edi" at *p: the pt_regs member, *p moved past it; NULL if not a register. */
static const char *parse_reg(const char **p, int *width)
{
	const char *s = *p;
	size_t n;

	if (*s != '%')
		return NULL;
	s++;
	n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789");
	for (size_t i = 0; i < ARRAY_SIZE(sdt_regs); i++)
		for (int w = 0; w < 4; w++) {
			const char *name = sdt_regs[i].names[w];

			if (name && strlen(name) == n && !strncmp(name, s, n)) {
				*p = s + n;
				if (width)
					*width = 8 >> w;
				return sdt_regs[i].member;
			}
		}
	return NULL;
}

/* The value of ELF symbol name in elf, or -1 if it has none. */
static int sym_value(Elf *elf, const char *name, size_t len, uint64_t *value)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !(d = elf_getdata(scn, NULL)) || !sh.sh_entsize)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (gelf_getsym(d, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
			    (n = elf_strptr(elf, sh.sh_link, sym.st_name)) &&
			    strlen(n) == len && !strncmp(n, name, len)) {
				*value = sym.st_value;
				return 0;
			}
		}
	}
	return -1;
}

int sdt_parse_arg(Elf *elf, const char *text, size_t len, struct sdt_arg *a, char **err)
{
	char *t = xstrndup(text, len), *end;
	const char *p = t, *at = strchr(t, '@');
	int width = 8;

	memset(a, 0, sizeof(*a));
	a->size = -8;
	if (at) {
		long sz = strtol(t, &end, 10);

		if (end != at || !sz || labs(sz) > 8 || (labs(sz) & (labs(sz) - 1)))
			goto bad;
		a->size = (int)sz;
		p = at + 1;
	}
	if (*p == '$') {		/* $imm */
		a->kind = SDT_CONST;
		a->value = strtoll(p + 1, &end, 0);
		if (end == p + 1 || *end)
			goto bad;
	} else if (*p == '%') {		/* %reg */
		a->kind = SDT_REG;
		a->base = parse_reg(&p, &width);
		if (!a->base || *p)
			goto bad;
		if (!at)
			a->size = -width;
	} else {			/* [disp|sym[+-off]](%base[,%index[,scale]]) */
		const char *q = p;

		a->kind = SDT_MEM;
		a->scale = 1;
		if (isalpha((unsigned char)*q) || *q == '_' || *q == '.') {
			size_t n = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "0123456789_.$@");
			uint64_t v;

			if (sym_value(elf, q, n, &v) < 0) {
				*err = xasprintf("SDT argument '%s': no symbol '%.*s' in the file",
						 t, (int)n, q);
				free(t);
				return -1;
			}
			a->kind = SDT_MEM_LINK;
			a->value = (int64_t)v;
			q += n;
		}
		if (*q == '-' || *q == '+' || isdigit((unsigned char)*q)) {
			a->value += strtoll(q, &end, 0);
			q = end;
		}
		if (*q == '(') {
			q++;
			if (*q == '%' && !(a->base = parse_reg(&q, NULL)))
				goto bad;
			if (*q == ',') {
				q++;
				if (!(a->index = parse_reg(&q, NULL)))
					goto bad;
				if (*q == ',') {
					a->scale = (int)strtol(q + 1, &end, 10);
					q = end;
				}
			}
			if (*q++ != ')')
				goto bad;
		}
		if (*q)
			goto bad;
		/* sym(%rip) is the symbol itself; a bare number(%rip) cannot be told. */
		if (a->base && !strcmp(a->base, "ip")) {
			if (a->kind != SDT_MEM_LINK)
				goto bad;
			a->base = NULL;
		} else if (a->kind == SDT_MEM_LINK && (a->base || a->index)) {
			goto bad;
		}
	}
	free(t);
	return 0;
bad:
	*err = xasprintf("SDT argument '%s' is not in a form this translator reads "
			 "(SIZE@%%reg, SIZE@$imm, SIZE@disp(%%base,%%index,scale), "
			 "SIZE@sym(%%rip))", t);
	free(t);
	return -1;
}

int sdt_notes(Elf *elf, sdt_note_fn fn, void *arg)
{
	Elf_Scn *scn = NULL, *notes = NULL;
	uint64_t base_addr = 0;
	bool have_base = false;
	size_t shstrndx, off = 0, next, noff, doff;
	GElf_Nhdr nh;
	Elf_Data *d;
	int n = 0, ret;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return -EIO;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".note.stapsdt") && sh.sh_type == SHT_NOTE)
			notes = scn;
		else if (!strcmp(name, ".stapsdt.base")) {
			base_addr = sh.sh_addr;
			have_base = true;
		}
	}
	if (!notes || !(d = elf_getdata(notes, NULL)))
		return 0;
	for (; (next = gelf_getnote(d, off, &nh, &noff, &doff)) > 0; off = next) {
		const char *desc = (const char *)d->d_buf + doff;
		int wsz = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
		struct sdt_note note;
		const char *s, *e = desc + nh.n_descsz;
		uint64_t v[3] = { 0, 0, 0 };

		if (nh.n_type != 3 || nh.n_namesz != 8 ||
		    memcmp((const char *)d->d_buf + noff, "stapsdt", 8) ||
		    nh.n_descsz < 3 * (size_t)wsz + 3)
			continue;
		for (int i = 0; i < 3; i++)
			memcpy(&v[i], desc + i * wsz, wsz);	/* the host is x86-64: LE */
		s = desc + 3 * wsz;
		note.provider = s;
		s += strnlen(s, e - s) + 1;
		if (s >= e)
			continue;
		note.name = s;
		s += strnlen(s, e - s) + 1;
		note.args = s < e ? s : "";
		note.pc = v[0];
		note.semaphore = v[2];
		/* Prelinked: move pc and semaphore with .stapsdt.base. */
		if (have_base && v[1] && v[1] != base_addr) {
			note.pc += base_addr - v[1];
			if (note.semaphore)
				note.semaphore += base_addr - v[1];
		}
		n++;
		ret = fn(&note, arg);
		if (ret)
			return ret;
	}
	return n;
}
