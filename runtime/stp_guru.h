/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a guru script's own embedded C (stap -g) finds declared without
 * including it: every header a script's C got before the kprobe and
 * timer rows and the context functions' headers left stp_runtime.h and
 * tapsets/context.stp (current, task_struct, THIS_MODULE, S_ISDIR, the
 * probe tables' types; struct kprobe, since stp_kprobe.h went without
 * it).  Only -g scripts pay for these; the translator includes this
 * before their first embedded C.
 */
#ifndef STP_GURU_H
#define STP_GURU_H

#include <linux/cred.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/smp.h>
#include <linux/thread_info.h>
#include <linux/uidgid.h>
#include <linux/string.h>
#include "stap_kfeatures.h"
#include "stp_kprobe.h"
#include "stp_timer.h"
#include "stp_tapset.h"

#ifndef STAPCONF_STRLCPY
/*
 * strlcpy() left the kernel in 6.8 for strscpy(), but scripts written
 * for older kernels call it (the examples' ttyspy.stp): same contract,
 * dst truncated and terminated, the length of src returned.
 */
static inline size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}
#endif

#endif /* STP_GURU_H */
