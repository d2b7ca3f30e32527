// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PLT entries of x86-64 ELF files, for process("PATH").plt("NAME").
 *
 * An entry is a stub "jmp *SLOT(%rip)" through the GOT slot that the
 * dynamic linker fills with the function's address; .rela.plt holds one
 * R_X86_64_JUMP_SLOT relocation per slot, naming the function.  So an
 * entry's name is that of the relocation of the slot its jump reads.
 * Decoding the jump, rather than assuming "entry i is relocation i",
 * holds for lazy .plt stubs (PLT0 first), for the .plt.sec stubs of
 * -z ibtplt / CET builds (endbr64; bnd jmp), and for linkers that order
 * them differently.
 */
#include <string.h>

#include "plt.h"

#define PLT_ENTRY_SIZE	16

static Elf_Scn *section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* The name of the JUMP_SLOT relocation of GOT slot got, or NULL. */
static const char *slot_name(Elf *elf, Elf_Data *rela, size_t nrela, Elf_Data *syms,
			     size_t strndx, uint64_t got)
{
	for (size_t i = 0; i < nrela; i++) {
		GElf_Rela r;
		GElf_Sym sym;

		if (!gelf_getrela(rela, (int)i, &r) || r.r_offset != got ||
		    GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT)
			continue;
		if (!gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
			return NULL;
		return elf_strptr(elf, strndx, sym.st_name);
	}
	return NULL;
}

int plt_entries(Elf *elf, plt_entry_fn fn, void *arg)
{
	GElf_Shdr rsh, stubs_sh, symsh;
	Elf_Scn *rscn = section(elf, ".rela.plt", &rsh), *stubs, *symscn;
	Elf_Data *rela, *syms, *code;
	size_t nrela, first;
	int n = 0;

	if (!rscn || rsh.sh_type != SHT_RELA || !rsh.sh_entsize)
		return 0;
	/* With .plt.sec the calls go there; .plt then holds only lazy-binding stubs. */
	stubs = section(elf, ".plt.sec", &stubs_sh);
	first = 0;
	if (!stubs) {
		stubs = section(elf, ".plt", &stubs_sh);
		first = PLT_ENTRY_SIZE;	/* PLT0: the resolver's stub */
	}
	symscn = elf_getscn(elf, rsh.sh_link);
	if (!stubs || stubs_sh.sh_type != SHT_PROGBITS || !symscn || !gelf_getshdr(symscn, &symsh))
		return 0;
	rela = elf_getdata(rscn, NULL);
	syms = elf_getdata(symscn, NULL);
	code = elf_getdata(stubs, NULL);
	if (!rela || !syms || !code || !code->d_buf)
		return -1;
	nrela = rsh.sh_size / rsh.sh_entsize;
	for (size_t off = first; off + PLT_ENTRY_SIZE <= code->d_size; off += PLT_ENTRY_SIZE) {
		const unsigned char *b = (const unsigned char *)code->d_buf + off;
		uint64_t vaddr = stubs_sh.sh_addr + off;
		const char *name = NULL;

		/* jmp *disp32(%rip), after an endbr64 or a bnd prefix if any */
		for (size_t k = 0; k <= 6 && !name; k++) {
			int32_t disp;

			if (b[k] != 0xff || b[k + 1] != 0x25)
				continue;
			memcpy(&disp, b + k + 2, sizeof(disp));
			name = slot_name(elf, rela, nrela, syms, symsh.sh_link,
					 vaddr + k + 6 + (int64_t)disp);
		}
		if (!name || !*name)
			continue;
		n++;
		{
			char *at = strchr(name, '@');
			char buf[256];
			int r;

			if (at && (size_t)(at - name) < sizeof(buf)) {
				memcpy(buf, name, at - name);
				buf[at - name] = '\0';
				name = buf;
			}
			r = fn(name, vaddr, arg);
			if (r)
				return r;
		}
	}
	return n;
}

const char *plt_func_before(Elf *elf, uint64_t vaddr)
{
	static const Elf64_Word types[] = { SHT_SYMTAB, SHT_DYNSYM };

	for (size_t t = 0; t < 2; t++) {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;
			const char *best = NULL;
			uint64_t at = 0;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != types[t] || !sh.sh_entsize ||
			    !(d = elf_getdata(scn, NULL)))
				continue;
			for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym sym;

				if (!gelf_getsym(d, (int)i, &sym) ||
				    GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value ||
				    sym.st_value > vaddr || (best && sym.st_value <= at))
					continue;
				best = elf_strptr(elf, sh.sh_link, sym.st_name);
				at = sym.st_value;
			}
			if (best)
				return best;
		}
	}
	return NULL;
}
