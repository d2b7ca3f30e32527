// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abort(): apart from the tapset's other helpers (tapset_misc.c) because
 * context.c refers to its message in every module, and the archive link
 * (translator/build.c) would take that object's errno and signal tables
 * along.
 */
#include "stp_internal.h"
#include "stp_tapset.h"

/* The error abort() leaves: context.c ends the hit without reporting it. */
const char _stp_abort_msg[] = "abort()";

void _stp_abort(struct stp_context *c)
{
	_stp_exit();
	c->last_error = _stp_abort_msg;
}
