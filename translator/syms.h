/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Symbol tables emitted into the module (syms.c). */
#ifndef SYMS_H
#define SYMS_H

#include "stap.h"

/*
 * Append _stp_sym_tables[] to the module's C: the kernel's function
 * symbols if the script uses a symbol or backtrace function, else an
 * empty table.  Missing debuginfo is a warning (the module then names
 * addresses with the kernel's kallsyms).  Returns 0.
 */
int syms_emit(struct session *s, struct strbuf *c);

#endif /* SYMS_H */
