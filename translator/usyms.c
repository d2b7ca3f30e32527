// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User files' symbols and unwind rows for the module (runtime/usym.c and
 * ustack.c read them; struct stp_usymtab in runtime/stp_tapset.h).
 *
 * Only a script that uses a user symbol or backtrace function (a "/ *
 * usymbols * /" pragma in its embedded C) gets tables, for the files its
 * process(...) probes name, the -d files and, with --ldd, the shared
 * libraries those need.  A table is keyed by the file, not by where it is
 * mapped: addresses are file offsets (a symbol's link-time address
 * through its PT_LOAD segment), which the runtime meets through the
 * mapping's vm_pgoff, so PIE programs and libraries need no relocation.
 * Symbols come from .symtab, or .dynsym in a stripped file.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stap.h"
#include "emit.h"
#include "syms.h"
#include "vm.h"

struct segs {
	GElf_Phdr ph[16];
	int n;
};

static void read_segs(Elf *elf, struct segs *sg)
{
	size_t n = 0;

	sg->n = 0;
	if (elf_getphdrnum(elf, &n))
		return;
	for (size_t i = 0; i < n && sg->n < 16; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			sg->ph[sg->n++] = ph;
	}
}

/* The file offset of link-time address va, or -1 if no segment maps it. */
static int64_t file_off(const struct segs *sg, uint64_t va)
{
	for (int i = 0; i < sg->n; i++)
		if (va >= sg->ph[i].p_vaddr && va - sg->ph[i].p_vaddr < sg->ph[i].p_memsz)
			return (int64_t)(va - sg->ph[i].p_vaddr + sg->ph[i].p_offset);
	return -1;
}

/* The rows as stp_ucfi_ID[], at file offsets; how many were emitted. */
static size_t emit_cfi(struct strbuf *c, const char *id, const struct segs *sg,
		       const struct ucfi_rows *rows)
{
	size_t n = 0;

	sb_printf(c, "static const struct stp_ucfi stp_ucfi_%s[] = {\n", id);
	for (size_t i = 0; i < rows->n; i++) {
		const struct ucfi_row *r = &rows->rows[i];
		int64_t off = file_off(sg, r->pc);

		if (off < 0 || off > UINT32_MAX)
			continue;
		sb_printf(c, "{0x%" PRIx64 ",%d,%u,%d,%d},%s", off, r->cfa_off, r->cfa_reg,
			  r->ra, r->bp, ++n % 4 == 0 ? "\n" : "");
	}
	sb_puts(c, "{0}\n};\n");
	return n;
}

/* One file's table entry (C text into ent), its arrays into c. */
static void emit_file(struct session *s, struct strbuf *c, struct strbuf *ent,
		      const char *path, int idx)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct vec syms = VEC_INIT;
	struct ucfi_rows rows;
	struct sym *arr = NULL;
	struct segs sg;
	char id[16];
	size_t n = 0, kept = 0, ncfi;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		diag_warn(s, NULL, "no symbols for %s: %s", path,
			  fd < 0 ? strerror(errno) : "not an ELF file");
		goto out;
	}
	snprintf(id, sizeof(id), "u%d", idx);
	read_segs(elf, &sg);
	if (syms_collect(s, elf, SHT_SYMTAB, &syms, NULL) < 0)
		syms_collect(s, elf, SHT_DYNSYM, &syms, NULL);
	/* Link-time addresses to file offsets, then sorted by those. */
	for (int i = 0; i < syms.len; i++) {
		struct sym *e = syms.items[i];
		int64_t off = file_off(&sg, e->addr);

		if (off >= 0 && off <= UINT32_MAX && e->rank >= 0) {
			e->addr = (uint64_t)off;
			syms.items[kept++] = e;
		}
	}
	syms.len = (int)kept;
	n = syms_sort(&syms, &arr);
	sb_printf(c, "\n/* %s (translator/usyms.c) */\n", path);
	if (n)
		syms_emit_arrays(c, id, arr, n);
	ucfi_read(elf, &rows);
	ncfi = emit_cfi(c, id, &sg, &rows);
	free(rows.rows);
	sb_printf(ent, "\t{ .syms = { .name = ");
	emit_c_string(ent, path, (int)strlen(path));
	if (n)
		sb_printf(ent, ", .base = 0x%" PRIx64 "ULL, .offs = stp_sym_%s_offs, "
			  ".sizes = stp_sym_%s_sizes, .names = stp_sym_%s_names, "
			  ".strtab = stp_sym_%s_strtab", arr[0].addr, id, id, id, id);
	sb_printf(ent, ", .n = %zu },\n\t  .cfi = stp_ucfi_%s, .ncfi = %zu },\n", n, id, ncfi);
out:
	free(arr);
	vec_free(&syms);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

static void add_path(struct vec *v, const char *path)
{
	for (int i = 0; i < v->len; i++)
		if (!strcmp(v->items[i], path))
			return;
	vec_push(v, (void *)path);
}

void usyms_emit(struct session *s, struct strbuf *c)
{
	struct strbuf ent = STRBUF_INIT;
	struct vec files = VEC_INIT, libs = VEC_INIT;

	if (s->need_usyms || syms_script_needs(s, "/* usymbols */")) {
		for (int i = 0; i < s->user_files.len; i++)
			add_path(&files, s->user_files.items[i]);
		/*
		 * -d MODULE: a path names a user file (made absolute: the
		 * module finds it from staprun's directory); a bare name, a
		 * kernel module.
		 */
		for (int i = 0; i < s->sym_modules.len; i++) {
			const char *d = s->sym_modules.items[i];
			char *abs;

			if (!strchr(d, '/'))
				continue;
			abs = d[0] == '/' ? NULL : realpath(d, NULL);
			if (abs) {
				d = arena_strdup(&s->arena, abs);
				free(abs);
			}
			add_path(&files, d);
		}
		for (int i = 0, n = files.len; s->ldd && i < n; i++)
			vm_ldd(files.items[i], &libs);
		for (int i = 0; i < libs.len; i++)
			add_path(&files, libs.items[i]);
	}
	for (int i = 0; i < files.len; i++)
		emit_file(s, c, &ent, files.items[i], i);
	sb_puts(c, "const struct stp_usymtab _stp_usym_tables[] = {\n");
	sb_add(c, sb_str(&ent), ent.len);
	sb_puts(c, "\t{ .syms = { .name = NULL } },\n};\n");
	sb_free(&ent);
	for (int i = 0; i < libs.len; i++)
		free(libs.items[i]);
	vec_free(&libs);
	vec_free(&files);
}
