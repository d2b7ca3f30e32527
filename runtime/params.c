// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Script globals as module parameters: stap -G NAME=VALUE, or staprun's
 * NAME=VALUE, set a scalar global of the user's script before the
 * session starts.  Strings use the kernel's module_param_string(); the
 * number parsers are here because script numbers are 64-bit and a
 * per-CPU counter (emit_map.c) keeps its value in CPU 0's copy.
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include "stp_internal.h"

static int set_s64(const char *val, const struct kernel_param *kp)
{
	return kstrtos64(val, 0, kp->arg);
}

const struct kernel_param_ops _stp_param_s64_ops = {
	.set = set_s64,
};

/* The per-CPU counter's CPU 0 copy; @set keeps the initialiser off it. */
static int set_pcpu_s64(const char *val, const struct kernel_param *kp)
{
	struct stp_pcpu_param *p = kp->arg;
	s64 v;
	int ret = kstrtos64(val, 0, &v);

	if (ret)
		return ret;
	*per_cpu_ptr(p->var, 0) = v;
	p->set = true;
	return 0;
}

const struct kernel_param_ops _stp_param_pcpu_s64_ops = {
	.set = set_pcpu_s64,
};
