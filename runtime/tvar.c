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
#include "stp_tapset.h"

u64 _stp_tv_noregs(struct stp_context *c)
{
	if (!c->last_error)
		_stp_error(c, "cannot access target variables: no registers in this context");
	return 0;
}

/*
 * The translator picks the reader by the probe's address space (see
 * translator/tvar.c), so user is a constant where these are inlined and
 * a read does not ask at run time.
 */
static __always_inline u64 tv_read(struct stp_context *c, unsigned long addr,
				   int size, bool sign, bool user)
{
	union { u8 b; u16 h; u32 w; u64 q; } v = { .q = 0 };
	u64 r;

	if (c->last_error)
		return 0;
	if (user ? copy_from_user_nofault(&v, (const void __user *)addr, size) :
	    copy_from_kernel_nofault(&v, (const void *)addr, size)) {
		/* SystemTap's words (its location text follows them). */
		if (!stp_skip_badvars)
			_stp_error(c, "read fault [man error::fault] at 0x%lx", addr);
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

u64 _stp_tv_kread(struct stp_context *c, unsigned long addr, int size, bool sign)
{
	return tv_read(c, addr, size, sign, false);
}

u64 _stp_tv_uread(struct stp_context *c, unsigned long addr, int size, bool sign)
{
	return tv_read(c, addr, size, sign, true);
}

/* Code that kernel and process probes both run: a process probe's hit reads its task. */
u64 _stp_tv_read(struct stp_context *c, unsigned long addr, int size, bool sign)
{
	return tv_read(c, addr, size, sign, c->uprobe);
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
	/* Only kernel addresses: a user address here would be a script bug. */
	if (addr < TASK_SIZE_MAX || _stp_kwrite_quiet(addr, &x, size))
		_stp_error(c, "kernel write fault at 0x%016lx", addr);
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

static __always_inline void tv_append_str(struct stp_context *c, char *dst,
					  unsigned long addr, size_t max, bool user)
{
	char buf[MAXSTRINGLEN / 2];
	size_t i;

	if (c->last_error)
		return;
	max = min(max, sizeof(buf));
	if (user ? _stp_ustring(c, buf, addr, max, true) :
	    _stp_kstring(c, buf, addr, max, true)) {
		_stp_tv_append(dst, "0x%lx", addr);
		return;
	}
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

void _stp_tv_append_kstr(struct stp_context *c, char *dst, unsigned long addr,
			 size_t max)
{
	tv_append_str(c, dst, addr, max, false);
}

void _stp_tv_append_ustr(struct stp_context *c, char *dst, unsigned long addr,
			 size_t max)
{
	tv_append_str(c, dst, addr, max, true);
}

void _stp_tv_append_str(struct stp_context *c, char *dst, unsigned long addr,
			size_t max)
{
	tv_append_str(c, dst, addr, max, c->uprobe);
}
