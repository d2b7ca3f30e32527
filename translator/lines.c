// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's source lines for the module (runtime/lines.c reads them):
 * symfileline(), symfile() and symline() (tapsets/backtrace.stp).
 *
 * Only a script whose tapset functions carry a "/ * lines * /" pragma gets
 * the table, and it is large (about 1.6 million rows for Debian's 6.1,
 * 13 MB): it goes into the module as a binary file that the generated C
 * pulls in with .incbin, not as C arrays, which would take kbuild minutes.
 * Its layout is struct stp_lines_hdr (runtime/stp_tapset.h), then
 * u32 offs[nrows] (from base, sorted), u32 info[nrows] (file << 16 |
 * line; line 0: no source line from there on), u32 names[nfiles] (into
 * the string table), then the string table.
 *
 * Rows are the line program's statement rows where the source line
 * changes, over every compile unit, sorted by address; an end of sequence
 * becomes a line-0 row, so that gaps between functions have no line.
 * File names are relative to the kernel source tree ("fs/namei.c"), as
 * the rest of stap names them.
 */
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stap.h"
#include "dw.h"
#include "srcroot.h"
#include "syms.h"
#include "probes/probes.h"

#define LINES_MAGIC	0x4c505453	/* "STPL" */
#define LINES_MAX_FILES	0x10000
#define LINES_MAX_LINE	0xffff

struct row {
	uint64_t addr;
	const char *file;	/* normalised; NULL at an end of sequence */
	uint32_t line;
	uint32_t seq;		/* order of appearance: the later row wins */
};

struct rows {
	struct row *v;
	size_t n, cap;
	struct vec names;	/* every normalised name (malloc'ed), to free */
	struct srcroots roots;	/* prefixes stripped from names */
};

static void push(struct rows *r, uint64_t addr, const char *file, int line)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1 << 20;
		r->v = xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	r->v[r->n] = (struct row){ addr, file, line > 0 && line <= LINES_MAX_LINE ? line : 0,
				   (uint32_t)r->n };
	r->n++;
}


static void read_cu(struct rows *r, Dwarf_Die *cu)
{
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	size_t n, nfiles, i, idx;
	const char **names;
	int prev_line = -1;
	const char *prev_file = NULL;

	if (dwarf_getsrclines(cu, &lines, &n) || dwarf_getsrcfiles(cu, &files, &nfiles))
		return;
	names = xcalloc(nfiles + 1, sizeof(*names));
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Files *lf;
		Dwarf_Addr addr;
		bool end = false, stmt = false;
		int line = 0;

		if (!l || dwarf_lineaddr(l, &addr))
			continue;
		dwarf_lineendsequence(l, &end);
		if (end) {
			push(r, addr, NULL, 0);
			prev_line = -1;
			continue;
		}
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineno(l, &line);
		if (!stmt || dwarf_line_file(l, &lf, &idx) || idx >= nfiles)
			continue;
		if (!names[idx]) {
			const char *src = dwarf_filesrc(files, idx, NULL, NULL);
			char *nm = srcroots_name(&r->roots, src ? src : "??");

			vec_push(&r->names, nm);
			names[idx] = nm;
		}
		if (line == prev_line && names[idx] == prev_file)
			continue;
		push(r, addr, names[idx], line);
		prev_line = line;
		prev_file = names[idx];
	}
	free(names);
}

/* By address; at one address a row with a line wins, then the later one. */
static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (!x->file != !y->file)
		return x->file ? 1 : -1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The blob for rows r (sorted) into out; 0, or -1 if it does not fit. */
static int encode(struct rows *r, struct strbuf *out, uint64_t printk)
{
	const char **files = xmalloc((r->names.len + 1) * sizeof(*files));
	uint32_t *offs, *info, nfiles = 0, stroff = 0;
	size_t n = 0, i;
	struct stp_lines_hdr {
		uint32_t magic, nrows, nfiles, strtab_len;
		uint64_t base, link_ref;
	} h;

	for (i = 0; i < (size_t)r->names.len; i++)
		files[i] = r->names.items[i];
	qsort(files, r->names.len, sizeof(*files), str_cmp);
	for (i = 0; i < (size_t)r->names.len; i++)
		if (!nfiles || strcmp(files[nfiles - 1], files[i]))
			files[nfiles++] = files[i];
	if (nfiles > LINES_MAX_FILES || !r->n) {
		free(files);
		return -1;
	}
	offs = xmalloc(r->n * sizeof(*offs));
	info = xmalloc(r->n * sizeof(*info));
	for (i = 0; i < r->n; i++) {
		const struct row *w = &r->v[i];
		uint32_t in = 0;

		if (w->addr - r->v[0].addr > UINT32_MAX)
			break;		/* the kernel's text is far smaller than 4 GiB */
		/* The last row at an address wins (row_cmp put it last). */
		if (i + 1 < r->n && r->v[i + 1].addr == w->addr)
			continue;
		if (w->file) {
			const char **f = bsearch(&w->file, files, nfiles, sizeof(*files), str_cmp);

			in = (uint32_t)(f - files) << 16 | w->line;
		}
		if (n && info[n - 1] == in)
			continue;
		offs[n] = (uint32_t)(w->addr - r->v[0].addr);
		info[n++] = in;
	}
	for (i = 0; i < nfiles; i++)
		stroff += strlen(files[i]) + 1;
	h = (struct stp_lines_hdr){ LINES_MAGIC, (uint32_t)n, nfiles, stroff, r->v[0].addr,
				    printk };
	sb_add(out, (const char *)&h, sizeof(h));
	sb_add(out, (const char *)offs, n * sizeof(*offs));
	sb_add(out, (const char *)info, n * sizeof(*info));
	for (i = 0, stroff = 0; i < nfiles; i++) {
		sb_add(out, (const char *)&stroff, sizeof(stroff));
		stroff += strlen(files[i]) + 1;
	}
	for (i = 0; i < nfiles; i++)
		sb_add(out, files[i], strlen(files[i]) + 1);
	free(offs);
	free(info);
	free(files);
	return 0;
}

/* The table of kernel k into out; 0, or -1 with a message in *err. */
static int build(Dwarf *dbg, uint64_t printk, struct strbuf *out, char **err)
{
	struct rows r = { 0 };
	Dwarf_Off off = 0, next;
	size_t hsize;
	int ret;

	srcroots_find(dbg, &r.roots);
	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dbg, off + hsize, &cu))
			read_cu(&r, &cu);
		off = next;
	}
	qsort(r.v, r.n, sizeof(*r.v), row_cmp);
	ret = encode(&r, out, printk);
	if (ret)
		*err = xstrdup(r.n ? "more than 65536 source files" : "no line table");
	for (int i = 0; i < r.names.len; i++)
		free(r.names.items[i]);
	vec_free(&r.names);
	free(r.v);
	srcroots_free(&r.roots);
	return ret;
}

static void empty(struct strbuf *c)
{
	sb_puts(c, "const u32 _stp_lines_blob[1] __aligned(8);\n");
}

void lines_emit(struct session *s, struct strbuf *c)
{
	struct strbuf blob = STRBUF_INIT;
	struct dw_object *k;
	uint64_t printk = 0;
	char *err = NULL, *path;

	if (!syms_script_needs(s, "/* lines */") || !s->tmpdir) {
		empty(c);
		return;
	}
	k = dw_kernel_open(s->release, &err);
	if (k && pf_ksym_addr(s->release, "_printk", &printk) != 1)
		err = xstrdup("no _printk symbol to measure KASLR with");
	else if (k)
		build(dw_dwarf(k), printk, &blob, &err);
	if (k)
		dw_close(k);
	if (err) {
		/* Not fatal: the functions then give addresses in hex, as documented. */
		diag_warn(s, NULL, "no kernel line table for symfileline(): %s", err);
		free(err);
		sb_free(&blob);
		empty(c);
		return;
	}
	path = xasprintf("%s/stp_lines.bin", s->tmpdir);
	if (write_file(path, blob.buf, blob.len) < 0) {
		diag_warn(s, NULL, "cannot write %s: %s", path, strerror(errno));
		empty(c);
	} else {
		/* The path is the translator's own temporary directory: no quotes in it. */
		sb_printf(c, "\n/* The kernel's source lines (translator/lines.c). */\n"
			  "asm(\".pushsection .rodata\\n.balign 8\\n"
			  ".globl _stp_lines_blob\\n_stp_lines_blob:\\n"
			  ".incbin \\\"%s\\\"\\n.popsection\\n\");\n", path);
	}
	free(path);
	sb_free(&blob);
}
