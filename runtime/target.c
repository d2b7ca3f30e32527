// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The target process: target() in scripts.  staprun passes its pid as the
 * module parameter _stp_target, from -x PID or from the pid of the -c CMD
 * child it forked (and holds) before loading the module.  0: no target.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include "stp_internal.h"

/* The name is SystemTap's, which staprun(8) documents. */
static int _stp_target;
module_param(_stp_target, int, 0444);
MODULE_PARM_DESC(_stp_target, "pid of the target process (stap -c/-x)");

int64_t _stp_target_pid(void)
{
	return _stp_target;
}
