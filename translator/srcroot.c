// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The source tree of a DWARF file, as prefixes to strip from its names.
 * Kernel builds differ: a plain build has an absolute DW_AT_comp_dir, the
 * source tree; Debian builds out of tree with -fdebug-prefix-map, so C
 * units carry a relative comp_dir ("debian/build/build_amd64_none_amd64")
 * and names relative to the top ("fs/read_write.c"), while assembler units
 * keep absolute ones ("/build/reproducible-path/linux-6.1.192/...").  Its
 * PREEMPT_RT flavour builds a patched copy, so even C names carry the copy's
 * directory ("debian/build/source_rt/fs/read_write.c").  So the prefixes
 * are: each kind of comp_dir, the top (an absolute comp_dir minus a
 * relative one), and the source tree as what precedes "init/main.c", both
 * as written and under the top.
 */
#include "srcroot.h"
#include "../common/util.h"

#include <dwarf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Lexically clean an absolute or relative path: "a/./b/../c" -> "a/c". */
static char *srcroot_clean(const char *p)
{
	char *out = xmalloc(strlen(p) + 2), *o = out;
	bool abs = *p == '/';

	if (abs)
		*o++ = '/';
	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			/* skip */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *root = out + abs, *slash;

			if (o > root && !(o - root >= 2 && o[-1] == '.' && o[-2] == '.' &&
					  (o - root == 2 || o[-3] == '/'))) {
				*o = 0;
				slash = strrchr(root, '/');
				o = slash ? slash : root;
			} else if (!abs) {
				if (o > root)
					*o++ = '/';
				*o++ = '.';
				*o++ = '.';
			}
		} else {
			if (o > out + abs)
				*o++ = '/';
			memcpy(o, p, n);
			o += n;
		}
		p += n;
	}
	*o = 0;
	return out;
}

static void add(struct srcroots *r, char *p)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->prefix[i], p))
			break;
	if (!*p || i < r->n || r->n == (int)(sizeof(r->prefix) / sizeof(r->prefix[0]))) {
		free(p);
		return;
	}
	for (i = r->n++; i > 0 && strlen(r->prefix[i - 1]) < strlen(p); i--)
		r->prefix[i] = r->prefix[i - 1];
	r->prefix[i] = p;
}

/* "X/init/main.c" -> "X"; NULL for any other name. */
static char *tree_of(const char *name)
{
	static const char tail[] = "init/main.c";
	char *c = srcroot_clean(name);
	size_t n = strlen(c), t = sizeof(tail) - 1;

	if (n > t && !strcmp(c + n - t, tail) && c[n - t - 1] == '/') {
		c[n - t - 1] = 0;
		return c;
	}
	free(c);
	return NULL;
}

void srcroots_find(Dwarf *dbg, struct srcroots *r)
{
	char *abs_dir = NULL, *rel_dir = NULL, *tree = NULL;
	Dwarf_Off off = 0, next;
	size_t hsize;

	r->n = 0;
	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Attribute a;
		const char *dir, *name;

		if (dwarf_offdie(dbg, off + hsize, &cu)) {
			dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
			if (dir && *dir == '/' && !abs_dir)
				abs_dir = srcroot_clean(dir);
			if (dir && *dir != '/' && !rel_dir)
				rel_dir = srcroot_clean(dir);
			if (!tree && (name = dwarf_diename(&cu)))
				tree = tree_of(name);
		}
		off = next;
	}
	if (abs_dir && rel_dir) {
		size_t la = strlen(abs_dir), lr = strlen(rel_dir);

		if (la > lr + 1 && !strcmp(abs_dir + la - lr, rel_dir) &&
		    abs_dir[la - lr - 1] == '/') {
			char *top = xstrndup(abs_dir, la - lr - 1);

			if (tree && *tree != '/')
				add(r, xasprintf("%s/%s", top, tree));
			add(r, top);
		}
	}
	if (tree)
		add(r, tree);
	if (abs_dir)
		add(r, abs_dir);
	if (rel_dir)
		add(r, rel_dir);
}

char *srcroots_name(const struct srcroots *r, const char *path)
{
	char *c = srcroot_clean(path), *s;

	for (int i = 0; i < r->n; i++) {
		size_t n = strlen(r->prefix[i]);

		if (!strncmp(c, r->prefix[i], n) && c[n] == '/') {
			s = xstrdup(c + n + 1);
			free(c);
			return s;
		}
	}
	return c;
}

void srcroots_free(struct srcroots *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->prefix[i]);
	r->n = 0;
}
