// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's kprobe blacklist, for the rows runtime/kprobe.c puts on
 * an ftrace site with no kprobe (fentry.c's ftrace_ops, fexit.c's
 * fprobe).  register_kprobe() refuses a blacklisted function with
 * -EINVAL (within_kprobe_blacklist(), which is not exported); ftrace
 * and fprobes do not ask.  The translator refuses the functions it
 * knows of (NOKPROBE_SYMBOL, the __kprobes, noinstr and entry ranges),
 * but the running kernel's list is the authority, so such a row first
 * looks itself up here and, if listed, goes the kprobe way, where the
 * kernel refuses it with the error any kprobe gets.
 *
 * The list is kprobes' debugfs file: a "0xSTART-0xEND\tNAME" line per
 * function (" [MODULE]" after a module's), the area blacklists (entry
 * code, noinstr) expanded to their functions.  Names are enough: the
 * rows are the kernel's own functions, probed at their entry, and the
 * kernel also refuses "f.isra.0"-style copies of a listed "f".
 */
#include <linux/bsearch.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include "stp_internal.h"

#define KBL_FILE "/sys/kernel/debug/kprobes/blacklist"

struct stp_kbl {
	char *text;		/* the file, its names NUL-terminated in place */
	const char **names;	/* sorted */
	unsigned int n;
};

/* The whole file, NUL-terminated, or NULL. */
static char *read_all(struct file *f)
{
	size_t cap = 16384, len = 0;
	char *buf = kvmalloc(cap, GFP_KERNEL);
	loff_t pos = 0;

	while (buf) {
		ssize_t r;

		if (len + 1 == cap) {
			char *nb = kvmalloc(cap * 2, GFP_KERNEL);

			if (nb)
				memcpy(nb, buf, len);
			kvfree(buf);
			buf = nb;
			cap *= 2;
			continue;
		}
		r = kernel_read(f, buf + len, cap - 1 - len, &pos);
		if (r <= 0) {
			if (r < 0)
				break;
			buf[len] = '\0';
			return buf;
		}
		len += r;
	}
	kvfree(buf);
	return NULL;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

struct stp_kbl *_stp_kbl_load(void)
{
	struct stp_kbl *b;
	struct file *f;
	unsigned int lines = 0;
	char *p, *end;

	f = filp_open(KBL_FILE, O_RDONLY, 0);
	if (IS_ERR(f))
		return NULL;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (b)
		b->text = read_all(f);
	filp_close(f, NULL);
	if (!b || !b->text)
		goto fail;
	for (p = b->text; *p; p++)
		lines += *p == '\n';
	b->names = kvmalloc_array(lines + 1, sizeof(*b->names), GFP_KERNEL);
	if (!b->names)
		goto fail;
	for (p = b->text; *p; p = end + 1) {
		char *name;
		bool last;

		end = strchrnul(p, '\n');
		last = !*end;
		*end = '\0';
		name = strchr(p, '\t');
		/* Not a module's function ("NAME [MODULE]"). */
		if (name && !strchr(name, ' '))
			b->names[b->n++] = name + 1;
		if (last)
			break;
	}
	sort(b->names, b->n, sizeof(*b->names), cmp_name, NULL);
	return b;
fail:
	_stp_kbl_free(b);
	return NULL;
}

static bool listed(const struct stp_kbl *b, const char *name)
{
	return bsearch(&name, b->names, b->n, sizeof(*b->names), cmp_name);
}

bool _stp_kbl_has(const struct stp_kbl *b, const char *symbol)
{
	char base[KSYM_NAME_LEN];
	const char *dot;

	if (!symbol)
		return false;
	if (listed(b, symbol))
		return true;
	dot = strchr(symbol, '.');
	if (!dot || dot - symbol >= sizeof(base))
		return false;
	strscpy(base, symbol, dot - symbol + 1);
	return listed(b, base);
}

void _stp_kbl_free(struct stp_kbl *b)
{
	if (!b)
		return;
	kvfree(b->names);
	kvfree(b->text);
	kfree(b);
}
