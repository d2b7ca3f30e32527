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

void srcroots_find(Dwarf *dbg, struct srcroots *r);
/* The name users write (malloc'ed): path cleaned, without its longest
 * matching prefix and "/". */
char *srcroots_name(const struct srcroots *r, const char *path);
void srcroots_free(struct srcroots *r);

#endif
