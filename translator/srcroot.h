/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Source-tree prefixes of a DWARF file: what to strip from its path names
 * so that they read as users write them ("fs/read_write.c").
 */
#ifndef SRCROOT_H
#define SRCROOT_H

#include <elfutils/libdw.h>

struct srcroots {
	char *prefix[6];	/* longest first */
	int n;
};

/* Lexically clean an absolute or relative path: "a/./b/../c" -> "a/c". */
char *srcroot_clean(const char *path);
void srcroots_find(Dwarf *dbg, struct srcroots *r);
/* path (cleaned) without its longest matching prefix and "/". */
const char *srcroots_strip(const struct srcroots *r, const char *path);
void srcroots_free(struct srcroots *r);

#endif
