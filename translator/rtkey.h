/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which -D defines can change the runtime's objects: see rtkey.c. */
#ifndef STAP_RTKEY_H
#define STAP_RTKEY_H

#include <stdbool.h>
#include "util.h"

struct rtkey {
	struct strmap owned;	/* names with a guarded default */
	struct strmap read;	/* names the runtime reads */
	struct vec defs;	/* #define NAME, BODY pairs */
	struct arena names;
};
#define RTKEY_INIT { STRMAP_INIT, STRMAP_INIT, VEC_INIT, { 0 } }

/* Take in one runtime source file (.c or .h). */
void rtkey_scan(struct rtkey *k, const char *text, size_t len);
/* Take in the runtime file name (a base name): as above, or a script_*.h header, one only the script's C includes. */
void rtkey_scan_file(struct rtkey *k, const char *name, const char *text, size_t len);
/*
 * Of defines (-D words: NAME or NAME=VALUE), those that can change the
 * runtime's objects, as "NAME=VALUE" (a bare NAME as NAME=1), one a name
 * (its last), sorted: appended to out, the caller frees them.
 */
void rtkey_relevant(struct rtkey *k, const struct vec *defines, struct vec *out);
void rtkey_free(struct rtkey *k);

#endif
