// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbol tables for the module (runtime/sym.c reads them; struct
 * stp_symtab in runtime/stp_tapset.h).
 *
 * Only a script that uses a symbol or backtrace function gets a table:
 * the tapset functions that need one say so with a "/ * symbols * /"
 * pragma in their embedded C.  The kernel's table holds every function
 * symbol of its debuginfo's ELF symtab (libelf), sorted by address, as
 * 32-bit offsets from the lowest one, with sizes and names, plus the
 * link-time address of _printk, against which the module measures the
 * KASLR offset at run time.  Every module defines _stp_sym_tables[],
 * empty when nothing needs it.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stap.h"
#include "dw.h"
#include "syms.h"

bool syms_script_needs(struct session *s, const char *pragma)
{
	for (int i = 0; i < s->funcs.len; i++) {
		struct func *f = s->funcs.items[i];

		if (f->body->kind == ND_EMBEDDED && strstr(f->body->str, pragma))
			return true;
	}
	return false;
}

int syms_by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return y->rank - x->rank;	/* the preferred one first */
	/*
	 * Then by name, so that the choice is stable: SystemTap names
	 * SYSCALL_DEFINE0's __do_sys_getppid __ia32_sys_getppid, the first
	 * of its two global aliases.
	 */
	return strcmp(x->name, y->name);
}

/*
 * The function symbols of the ELF file at path into *out (names point
 * into the arena).  0, or -1 with a message in *err.
 */
struct symtab_read {
	struct session *s;
	Elf *elf;
	struct vec *out;
	uint64_t *printk;
	bool objects;		/* data objects too (user files) */
};

/* Keep text symbols (functions, and untyped assembler entry points). */
static int symtab_add(const char *name, const GElf_Sym *sym, void *arg)
{
	struct symtab_read *r = arg;
	GElf_Shdr tsh;
	Elf_Scn *tscn;
	int type = GELF_ST_TYPE(sym->st_info);
	struct sym *e;

	if (!*name)
		return 0;
	if (r->printk && !strcmp(name, "_printk"))
		*r->printk = sym->st_value;
	if (type != STT_FUNC && type != STT_NOTYPE && !(r->objects && type == STT_OBJECT))
		return 0;
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return 0;
	tscn = elf_getscn(r->elf, sym->st_shndx);
	if (!tscn || !gelf_getshdr(tscn, &tsh) ||
	    !(tsh.sh_flags & (type == STT_OBJECT ? SHF_ALLOC : SHF_EXECINSTR)))
		return 0;
	e = arena_alloc(&r->s->arena, sizeof(*e));
	e->addr = sym->st_value;
	e->size = sym->st_size > UINT32_MAX ? 0 : (uint32_t)sym->st_size;
	e->name = arena_strdup(&r->s->arena, name);
	e->rank = (type == STT_FUNC ? 2 : 0) + (GELF_ST_BIND(sym->st_info) == STB_GLOBAL ? 1 : 0);
	/* 6.x pads functions with __pfx_ symbols: not functions, only where the one before ends. */
	if (!strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6))
		e->rank = -1;
	vec_push(r->out, e);
	return 0;
}

int syms_collect(struct session *s, Elf *elf, int type, struct vec *out, uint64_t *printk)
{
	/* Without printk, a user file: SystemTap names its data too (usymdata). */
	struct symtab_read r = { s, elf, out, printk, !printk };

	return dw_elf_symbols_of(elf, type, symtab_add, &r);
}

static int read_symtab(struct session *s, const char *path, struct vec *out,
		       uint64_t *printk, char **err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	Elf *elf = NULL;
	size_t shstrndx;

	if (fd < 0) {
		*err = xasprintf("cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		*err = xasprintf("%s: not an ELF file: %s", path, elf_errmsg(-1));
		goto out;
	}
	syms_collect(s, elf, SHT_SYMTAB, out, printk);
	if (!out->len)
		*err = xasprintf("%s has no function symbols (stripped?)", path);
	else
		ret = 0;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

void syms_emit_arrays(struct strbuf *c, const char *id, const struct sym *arr, size_t n)
{
	size_t stroff = 0;

	sb_printf(c, "static const u32 stp_sym_%s_offs[] = {\n", id);
	for (size_t i = 0; i < n; i++)
		sb_printf(c, "0x%" PRIx64 ",%s", arr[i].addr - arr[0].addr, i % 8 == 7 ? "\n" : "");
	sb_printf(c, "\n};\nstatic const u32 stp_sym_%s_sizes[] = {\n", id);
	for (size_t i = 0; i < n; i++)
		sb_printf(c, "0x%x,%s", arr[i].size, i % 8 == 7 ? "\n" : "");
	sb_printf(c, "\n};\nstatic const u32 stp_sym_%s_names[] = {\n", id);
	for (size_t i = 0; i < n; i++) {
		sb_printf(c, "%zu,%s", stroff, i % 8 == 7 ? "\n" : "");
		stroff += strlen(arr[i].name) + 1;
	}
	sb_printf(c, "\n};\nstatic const char stp_sym_%s_strtab[] =\n", id);
	/* ELF symbol names are printable: no escaping needed beyond \0. */
	for (size_t i = 0; i < n; i++)
		sb_printf(c, "\"%s\\0\"\n", arr[i].name);
	sb_puts(c, ";\n");
}

size_t syms_sort(struct vec *syms, struct sym **out)
{
	struct sym *arr = xcalloc((size_t)syms->len + 1, sizeof(*arr));
	size_t n = 0;

	for (int i = 0; i < syms->len; i++)
		arr[i] = *(struct sym *)syms->items[i];
	qsort(arr, (size_t)syms->len, sizeof(*arr), syms_by_addr);
	/* One symbol per address: syms_by_addr put the preferred one first. */
	for (int i = 0; i < syms->len; i++)
		if (!n || arr[n - 1].addr != arr[i].addr)
			arr[n++] = arr[i];
	/*
	 * A symbol reaches to the next one, alignment padding included, as
	 * kallsyms and SystemTap size it (do_sys_openat2+0x0/0x170 where its
	 * ELF size is 0x166); the last keeps its ELF size.
	 */
	for (size_t i = 0; i + 1 < n; i++)
		if (arr[i + 1].addr - arr[i].addr <= UINT32_MAX)
			arr[i].size = (uint32_t)(arr[i + 1].addr - arr[i].addr);
	*out = arr;
	return n;
}

/* The kernel's table as C arrays named stp_sym_kernel_*. */
static void emit_kernel_table(struct strbuf *c, struct vec *syms, uint64_t printk)
{
	struct sym *arr;
	size_t n = syms_sort(syms, &arr);

	/* The padding symbols, which only marked where the one before ends, go. */
	{
		size_t kept = 0;

		for (size_t i = 0; i < n; i++)
			if (arr[i].rank >= 0)
				arr[kept++] = arr[i];
		n = kept;
	}
	/* Offsets are 32-bit: the kernel's text is far smaller than 4 GiB. */
	while (n && arr[n - 1].addr - arr[0].addr > UINT32_MAX)
		n--;

	sb_puts(c, "\n/* The kernel's function symbols (translator/syms.c). */\n");
	syms_emit_arrays(c, "kernel", arr, n);
	sb_printf(c, "const struct stp_symtab _stp_sym_tables[] = {\n"
		  "\t{ .name = \"kernel\", .base = 0x%" PRIx64 "ULL,\n"
		  "\t  .offs = stp_sym_kernel_offs, .sizes = stp_sym_kernel_sizes,\n"
		  "\t  .names = stp_sym_kernel_names, .strtab = stp_sym_kernel_strtab,\n"
		  "\t  .n = %zu, .link_ref = 0x%" PRIx64 "ULL },\n"
		  "\t{ .name = NULL },\n};\n", arr[0].addr, n, printk);
	free(arr);
}

int syms_emit(struct session *s, struct strbuf *c)
{
	struct vec syms = VEC_INIT;
	struct dw_object *k;
	uint64_t printk = 0;
	char *err = NULL;
	int ret = 0;

	sb_puts(c, "\n#include \"stp_tapset.h\"\n");
	usyms_emit(s, c);
	if (!syms_script_needs(s, "/* symbols */"))
		goto empty;
	k = dw_kernel_open(s->release, &err);
	if (!k) {
		/* Not fatal: kallsyms still names kernel addresses at run time. */
		diag_warn(s, NULL, "no kernel symbol table for backtraces: %s; "
			  "using the kernel's kallsyms instead", err);
		free(err);
		goto empty;
	}
	if (read_symtab(s, dw_debuginfo(k), &syms, &printk, &err) < 0 || !printk) {
		diag_warn(s, NULL, "no kernel symbol table for backtraces: %s; "
			  "using the kernel's kallsyms instead",
			  err ? err : "no _printk symbol to measure KASLR with");
		free(err);
		dw_close(k);
		vec_free(&syms);
		goto empty;
	}
	dw_close(k);
	emit_kernel_table(c, &syms, printk);
	vec_free(&syms);
	return ret;
empty:
	sb_puts(c, "const struct stp_symtab _stp_sym_tables[] = { { .name = NULL } };\n");
	return ret;
}
