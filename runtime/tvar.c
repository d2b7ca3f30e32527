// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Target variables at run time: the helpers the translator's C for
 * $var, $var->member and $$parms calls (see translator/tvar.c).
 */
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/sched.h>
#include "stp_runtime.h"

u64 _stp_tv_noregs(struct stp_context *c)
{
	if (!c->last_error)
		_stp_error(c, "cannot access target variables: no registers in this context");
	return 0;
}

u64 _stp_tv_read(struct stp_context *c, unsigned long addr, int size, bool sign)
{
	union { u8 b; u16 h; u32 w; u64 q; } v = { .q = 0 };
	u64 r;

	if (c->last_error)
		return 0;
	if (copy_from_kernel_nofault(&v, (const void *)addr, size)) {
		_stp_error(c, "kernel read fault at 0x%016lx", addr);
		return 0;
	}
	switch (size) {
	case 1: r = v.b; break;
	case 2: r = v.h; break;
	case 4: r = v.w; break;
	default: r = v.q; break;
	}
	return _stp_tv_ext(r, size, sign);
}

void _stp_tv_write(struct stp_context *c, unsigned long addr, int size, u64 v)
{
	union { u8 b; u16 h; u32 w; u64 q; } x;

	if (c->last_error)
		return;
	switch (size) {
	case 1: x.b = (u8)v; break;
	case 2: x.h = (u16)v; break;
	case 4: x.w = (u32)v; break;
	default: x.q = v; break;
	}
	/*
	 * copy_to_kernel_nofault() is not exported to modules; its
	 * building block __put_kernel_nofault() is a macro we can use.
	 * Only kernel addresses: a user address here would be a script bug.
	 */
	if (addr < TASK_SIZE_MAX)
		goto fault;
	pagefault_disable();
	switch (size) {
	case 1: __put_kernel_nofault((u8 *)addr, &x.b, u8, efault); break;
	case 2: __put_kernel_nofault((u16 *)addr, &x.h, u16, efault); break;
	case 4: __put_kernel_nofault((u32 *)addr, &x.w, u32, efault); break;
	default: __put_kernel_nofault((u64 *)addr, &x.q, u64, efault); break;
	}
	pagefault_enable();
	return;
efault:
	pagefault_enable();
fault:
	_stp_error(c, "kernel write fault at 0x%016lx", addr);
}

long _stp_kstrncpy(char *dst, unsigned long addr, size_t max)
{
	size_t i;

	/* strncpy_from_kernel_nofault() is not exported either. */
	if (!max)
		return 0;
	if (addr < TASK_SIZE_MAX)
		return -EFAULT;
	pagefault_disable();
	for (i = 0; i < max - 1; i++) {
		__get_kernel_nofault(&dst[i], (const char *)addr + i, u8, efault);
		if (!dst[i])
			break;
	}
	pagefault_enable();
	dst[i] = 0;
	return (long)i;
efault:
	pagefault_enable();
	dst[i] = 0;
	return -EFAULT;
}

void _stp_tv_append(char *dst, const char *fmt, ...)
{
	size_t len = strnlen(dst, MAXSTRINGLEN);
	va_list ap;

	if (len >= MAXSTRINGLEN - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(dst + len, MAXSTRINGLEN - len, fmt, ap);
	va_end(ap);
}

void _stp_tv_append_str(struct stp_context *c, char *dst, unsigned long addr,
			size_t max)
{
	char buf[MAXSTRINGLEN / 2];
	long n;
	size_t i;

	if (c->last_error)
		return;
	max = min(max, sizeof(buf));
	n = _stp_kstrncpy(buf, addr, max);
	if (n < 0) {
		_stp_tv_append(dst, "0x%lx", addr);
		return;
	}
	buf[min_t(size_t, n, max - 1)] = 0;
	_stp_tv_append(dst, "\"");
	for (i = 0; buf[i]; i++) {
		unsigned char ch = buf[i];

		switch (ch) {
		case '"':  _stp_tv_append(dst, "\\\""); break;
		case '\\': _stp_tv_append(dst, "\\\\"); break;
		case '\n': _stp_tv_append(dst, "\\n"); break;
		case '\t': _stp_tv_append(dst, "\\t"); break;
		default:
			if (ch < 0x20 || ch >= 0x7f)
				_stp_tv_append(dst, "\\%03o", ch);
			else
				_stp_tv_append(dst, "%c", ch);
		}
	}
	_stp_tv_append(dst, "\"");
}
