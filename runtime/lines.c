// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel addresses to source lines: symfileline(), symfile(), symline().
 * The table is the blob translator/lines.c describes: rows sorted by
 * link-time offset from base, each holding from its address up to the
 * next row's; the run-time address meets them through the KASLR offset,
 * measured on _printk as runtime/sym.c does.  A binary search in probe
 * context: no locks, no allocation.
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>
#include "stp_tapset.h"

#define STP_LINES_MAGIC 0x4c505453	/* "STPL" */

struct stp_lines_hdr {
	u32 magic, nrows, nfiles, strtab_len;
	u64 base, link_ref;
};

/* addr's file and line; 0, or -ENOENT. */
static int stp_line_find(unsigned long addr, const char **file, unsigned int *line)
{
	const struct stp_lines_hdr *h = (const void *)_stp_lines_blob;
	const u32 *offs, *info, *names;
	unsigned long link, rel;
	long lo, hi, best = -1;
	u32 in;

	if (h->magic != STP_LINES_MAGIC || !h->nrows)
		return -ENOENT;
	offs = (const u32 *)(h + 1);
	info = offs + h->nrows;
	names = info + h->nrows;
	link = addr - ((unsigned long)&_printk - (unsigned long)h->link_ref);
	if (link < h->base || link - h->base > U32_MAX)
		return -ENOENT;
	rel = link - h->base;
	lo = 0;
	hi = (long)h->nrows - 1;
	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;

		if (offs[mid] <= rel) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (best < 0)
		return -ENOENT;
	in = info[best];
	if (!(in & 0xffff) || (in >> 16) >= h->nfiles)
		return -ENOENT;
	*file = (const char *)(names + h->nfiles) + names[in >> 16];
	*line = in & 0xffff;
	return 0;
}

void _stp_symfileline(char *dst, size_t len, unsigned long addr, char what)
{
	const char *file;
	unsigned int line;

	if (stp_line_find(addr, &file, &line))
		snprintf(dst, len, "0x%lx", addr);
	else if (what == 'F')
		strscpy(dst, file, len);
	else if (what == 'L')
		snprintf(dst, len, "%u", line);
	else
		snprintf(dst, len, "%s:%u", file, line);
}
