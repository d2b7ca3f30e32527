// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Non-faulting reads and writes for the conversion functions
 * (kernel_string, user_long, set_kernel_int, ...) and string quoting.
 *
 * strncpy_from_{kernel,user}_nofault are not exported to modules, so
 * strings are read with copy_from_{kernel,user}_nofault one page piece
 * at a time: a piece never crosses a page boundary, so a string that
 * ends just before an unmapped page still reads fine.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/hardirq.h>
#include "stp_tapset.h"
#include "stp_scratch.h"

int _stp_kread_quiet(void *dst, uint64_t addr, size_t len)
{
	return copy_from_kernel_nofault(dst, (const void *)(unsigned long)addr, len) ?
		-EFAULT : 0;
}

/*
 * No user address space to read: a kernel thread.  Not in_nmi(): x86
 * runs a kprobe's int3 handler as an NMI, and copy_from_user_nofault()
 * is safe there (it checks that current's mm is the one loaded).
 */
static bool no_user_space(void)
{
	return !current->mm || (current->flags & PF_KTHREAD);
}

int _stp_uread_quiet(void *dst, uint64_t addr, size_t len)
{
	if (no_user_space())
		return -EFAULT;
	return copy_from_user_nofault(dst, (const void __user *)(unsigned long)addr, len) ?
		-EFAULT : 0;
}

/* Read the string at addr page piece by page piece; 0 or -EFAULT. */
static int read_string(char *dst, uint64_t addr, size_t len, bool user)
{
	size_t got = 0;

	if (!len)
		return 0;
	dst[0] = '\0';
	while (got < len - 1) {
		size_t room = PAGE_SIZE - ((addr + got) & (PAGE_SIZE - 1));
		size_t n = min(room, len - 1 - got);
		char *nul;
		int ret = user ? _stp_uread_quiet(dst + got, addr + got, n) :
				 _stp_kread_quiet(dst + got, addr + got, n);

		if (ret) {
			dst[0] = '\0';
			return ret;
		}
		nul = memchr(dst + got, '\0', n);
		if (nul)
			return 0;
		got += n;
	}
	dst[got] = '\0';	/* longer than the buffer: truncated */
	return 0;
}

int _stp_kstring(struct stp_context *c, char *dst, uint64_t addr, size_t len,
		 bool quiet)
{
	int ret = read_string(dst, addr, len, false);

	if (ret && !quiet)
		_stp_error(c, "kernel string copy fault at 0x%llx [man error::fault]",
			   (unsigned long long)addr);
	return ret;
}

int _stp_ustring(struct stp_context *c, char *dst, uint64_t addr, size_t len,
		 bool quiet)
{
	int ret = read_string(dst, addr, len, true);

	if (ret && !quiet)
		_stp_error(c, "user string copy fault %d at 0x%llx [man error::fault]",
			   ret, (unsigned long long)addr);
	return ret;
}

int64_t _stp_kread_scalar(struct stp_context *c, uint64_t addr, size_t size,
			  const char *what)
{
	union { s8 b; s16 h; s32 w; s64 q; } v;

	if (_stp_kread_quiet(&v, addr, size)) {
		if (what)
			_stp_error(c, "kernel %s copy fault at 0x%llx [man error::fault]",
				   what, (unsigned long long)addr);
		else
			_stp_error(c, "read fault [man error::fault] at 0x%llx",
				   (unsigned long long)addr);
		return 0;
	}
	switch (size) {
	case 1: return v.b;
	case 2: return v.h;
	case 4: return v.w;
	default: return v.q;
	}
}

/*
 * copy_to_kernel_nofault() is not exported to modules; the kernel's
 * __put_kernel_nofault() is a macro with an exception-table entry, which
 * works from a module too.  Writes happen only in guru mode.
 */
int _stp_kwrite_quiet(uint64_t addr, const void *src, size_t size)
{
	char *dst = (char *)(unsigned long)addr;
	const char *s = src;
	size_t i;

	pagefault_disable();
	for (i = 0; i < size; i++)
		__put_kernel_nofault(dst + i, s + i, u8, fault);
	pagefault_enable();
	return 0;
fault:
	pagefault_enable();
	return -EFAULT;
}

int _stp_uwrite_quiet(uint64_t addr, const void *src, size_t size)
{
	if (no_user_space())
		return -EFAULT;
	return copy_to_user_nofault((void __user *)(unsigned long)addr, src, size) ?
		-EFAULT : 0;
}

static int write_quiet(uint64_t addr, const void *src, size_t size, bool user)
{
	return user ? _stp_uwrite_quiet(addr, src, size) : _stp_kwrite_quiet(addr, src, size);
}

static void write_scalar(struct stp_context *c, uint64_t addr, size_t size,
			 int64_t val, const char *what, bool user)
{
	union { s8 b; s16 h; s32 w; s64 q; } v;

	switch (size) {
	case 1: v.b = (s8)val; break;
	case 2: v.h = (s16)val; break;
	case 4: v.w = (s32)val; break;
	default: v.q = val; break;
	}
	if (!write_quiet(addr, &v, size, user))
		return;
	/* SystemTap's messages: a user address printed 16 digits wide. */
	if (user)
		_stp_error(c, "user %s copy fault at 0x%016llx [man error::fault]",
			   what, (unsigned long long)addr);
	else
		_stp_error(c, "kernel %s copy fault at 0x%llx [man error::fault]",
			   what, (unsigned long long)addr);
}

void _stp_kwrite_scalar(struct stp_context *c, uint64_t addr, size_t size,
			int64_t val, const char *what)
{
	write_scalar(c, addr, size, val, what, false);
}

void _stp_uwrite_scalar(struct stp_context *c, uint64_t addr, size_t size,
			int64_t val, const char *what)
{
	write_scalar(c, addr, size, val, what, true);
}

static int write_string(uint64_t addr, const char *src, size_t n, bool user)
{
	size_t len = min(strnlen(src, MAXSTRINGLEN), n);
	char nul = '\0';

	/* At most n bytes, and then a NUL, as SystemTap writes them. */
	return write_quiet(addr, src, len, user) ?: write_quiet(addr + len, &nul, 1, user);
}

void _stp_kwrite_string(struct stp_context *c, uint64_t addr, const char *src,
			size_t n)
{
	if (write_string(addr, src, n, false))
		_stp_error(c, "kernel string copy fault at 0x%llx [man error::fault]",
			   (unsigned long long)addr);
}

int _stp_uwrite_string(struct stp_context *c, uint64_t addr, const char *src,
		       size_t n, bool warn)
{
	int ret = write_string(addr, src, n, true);

	if (ret && warn)
		_stp_warn("user string copy fault at 0x%llx [man error::fault]",
			  (unsigned long long)addr);
	else if (ret)
		_stp_error(c, "user string copy fault at 0x%llx [man error::fault]",
			   (unsigned long long)addr);
	return ret;
}

/* Append one code point as UTF-8 at *p (room checked by the caller). */
static size_t put_utf8(char *p, u32 cp)
{
	if (cp < 0x80) {
		p[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		p[0] = 0xc0 | (cp >> 6);
		p[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		p[0] = 0xe0 | (cp >> 12);
		p[1] = 0x80 | ((cp >> 6) & 0x3f);
		p[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	p[0] = 0xf0 | (cp >> 18);
	p[1] = 0x80 | ((cp >> 12) & 0x3f);
	p[2] = 0x80 | ((cp >> 6) & 0x3f);
	p[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/*
 * The UTF-16 (unit 2) or UTF-32 (unit 4) string at addr as UTF-8.  A
 * fault names the unit that faulted, in SystemTap's words (its user
 * message has no errno); so does a UTF-32 unit that is no character.
 */
int _stp_string_utf(struct stp_context *c, char *dst, uint64_t addr, int unit, bool user)
{
	size_t out = 0;
	uint64_t a = addr;

	for (;;) {
		union { u16 h; u32 w; } v;
		u16 lo;
		u32 u, cp;

		if (user ? _stp_uread_quiet(&v, a, unit) : _stp_kread_quiet(&v, a, unit))
			goto fault;
		u = unit == 2 ? v.h : v.w;
		if (!u)
			break;
		cp = u;
		if (unit == 4 && (u > 0x10ffff || (u >= 0xd800 && u < 0xe000))) {
			dst[0] = '\0';
			_stp_error(c, "invalid UTF-32 character U+%X at 0x%llx", u,
				   (unsigned long long)a);
			return -EINVAL;
		}
		a += unit;
		if (unit == 2 && u >= 0xd800 && u < 0xdc00) {	/* a surrogate pair */
			if (user ? _stp_uread_quiet(&lo, a, 2) : _stp_kread_quiet(&lo, a, 2))
				goto fault;
			if (lo >= 0xdc00 && lo < 0xe000) {
				a += 2;
				cp = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			} else {
				cp = 0xfffd;
			}
		} else if (unit == 2 && u >= 0xdc00 && u < 0xe000) {
			cp = 0xfffd;
		}
		if (out + 4 >= MAXSTRINGLEN)
			break;
		out += put_utf8(dst + out, cp);
	}
	dst[out] = '\0';
	return 0;
fault:
	dst[0] = '\0';
	_stp_error(c, "%s string copy fault at 0x%llx [man error::fault]",
		   user ? "user" : "kernel", (unsigned long long)a);
	return -EFAULT;
}

/* The escape for ch ("\\n") in buf, or ch itself; its length. */
static int escape(char *buf, unsigned char ch)
{
	static const char from[] = "\a\b\f\n\r\t\v\"\\";
	static const char to[] = "abfnrtv\"\\";
	const char *p = ch ? strchr(from, ch) : NULL;

	if (!ch) {	/* only in buffers (_stp_text_buf), as SystemTap's "\0" */
		buf[0] = '\\';
		buf[1] = '0';
		return 2;
	}
	if (p) {
		buf[0] = '\\';
		buf[1] = to[p - from];
		return 2;
	}
	if (ch >= 32 && ch < 127) {
		buf[0] = ch;
		return 1;
	}
	buf[0] = '\\';
	buf[1] = '0' + (ch >> 6);
	buf[2] = '0' + ((ch >> 3) & 7);
	buf[3] = '0' + (ch & 7);
	return 4;
}

void _stp_text_str(char *dst, const char *src, size_t len, bool quoted)
{
	_stp_text_buf(dst, src, strlen(src), len, quoted);
}

void _stp_text_buf(char *dst, const char *src, size_t n, size_t len, bool quoted)
{
	/*
	 * len bounds the output, quotes included (0: the whole string
	 * buffer).  Text that does not fit is cut as SystemTap 4.8 cuts it:
	 * quoted, to what fits with the quotes and "..." after them
	 * (text_strn("abcdef", 6, 1) is "a"...); unquoted, to len
	 * characters (or what the buffer holds) and no "..." (run/fault_lang:
	 * text_str of 32 newlines at MAXSTRINGLEN 64 is 31 "\n"s).
	 */
	size_t max = MAXSTRINGLEN - 1, need = quoted ? 2 : 0, limit, room, out = 0, i;
	bool explicit = len && len <= max, dots, cut;
	char buf[4];

	for (i = 0; i < n; i++)
		need += escape(buf, (unsigned char)src[i]);
	limit = explicit ? len : max;
	cut = need > limit;
	dots = cut && quoted;
	room = limit;
	if (cut) {
		size_t keep = (quoted ? 2 : 0) + (dots ? 3 : 0);

		room = limit > keep ? limit - keep : 0;
	} else if (quoted) {
		room -= 2;
	}
	if (quoted)
		dst[out++] = '"';
	for (i = 0; i < n; i++) {
		int k = escape(buf, (unsigned char)src[i]);

		if (out - quoted + k > room)
			break;
		memcpy(dst + out, buf, k);
		out += k;
	}
	if (quoted)
		dst[out++] = '"';
	if (dots) {
		memcpy(dst + out, "...", 3);
		out += 3;
	}
	dst[out] = '\0';
}

/* Decode one UTF-8 sequence at *p (as put_utf8 writes them); advance *p. */
static u32 get_utf8(const unsigned char **p)
{
	const unsigned char *s = *p;
	int n = s[0] < 0xc0 ? 0 : s[0] < 0xe0 ? 1 : s[0] < 0xf0 ? 2 : 3;
	u32 cp = n ? s[0] & (0x3f >> n) : s[0];
	int i;

	for (i = 1; i <= n && (s[i] & 0xc0) == 0x80; i++)
		cp = (cp << 6) | (s[i] & 0x3f);
	*p = s + i;
	return cp;
}

void _stp_utf8_quoted(char *dst, const char *src)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t out = 0;
	char buf[12];

	dst[out++] = '"';
	while (*p) {
		u32 cp = get_utf8(&p);
		int k = cp < 0x80 ? escape(buf, cp) :
			cp < 0x10000 ? snprintf(buf, sizeof(buf), "\\u%04X", cp) :
			snprintf(buf, sizeof(buf), "\\U%08X", cp);

		if (out + k + 1 >= MAXSTRINGLEN)
			break;
		memcpy(dst + out, buf, k);
		out += k;
	}
	dst[out++] = '"';
	dst[out] = '\0';
}

int64_t _stp_user_num_checked(struct stp_context *c, uint64_t addr, size_t size,
			      bool is_signed, const char *warn)
{
	union { u8 b; u16 h; u32 w; u64 q; } v;

	if (_stp_uread_quiet(&v, addr, size)) {
		if (warn)
			_stp_warn("user %s 0x%llx [man error::fault]", warn,
				  (unsigned long long)addr);
		else if (c)
			_stp_error(c, "read fault [man error::fault] at 0x%llx",
				   (unsigned long long)addr);
		return 0;
	}
	switch (size) {
	case 1: return is_signed ? (int64_t)(s8)v.b : v.b;
	case 2: return is_signed ? (int64_t)(s16)v.h : v.h;
	case 4: return is_signed ? (int64_t)(s32)v.w : v.w;
	default: return v.q;
	}
}

int64_t _stp_user_num(uint64_t addr, size_t size, bool is_signed)
{
	return _stp_user_num_checked(NULL, addr, size, is_signed, NULL);
}

/*
 * tokenize() goes on where the previous call on this CPU stopped.  A
 * hit runs alone on its CPU (context.c), so nothing else there touches
 * the state in between.
 */
void _stp_tokenize(char *dst, const char *input, const char *delim)
{
	struct stp_scratch *t = _stp_scratch();
	size_t len;

	if (input[0]) {
		strscpy(t->tokenize, input, MAXSTRINGLEN);
		t->tokenize_pos = 0;
	}
	len = strnlen(t->tokenize, MAXSTRINGLEN);
	if (t->tokenize_pos > len)
		t->tokenize_pos = len;
	/* Only non-empty tokens, as SystemTap returns them. */
	t->tokenize_pos += strspn(t->tokenize + t->tokenize_pos, delim);
	len = strcspn(t->tokenize + t->tokenize_pos, delim);
	memcpy(dst, t->tokenize + t->tokenize_pos, len);
	dst[len] = '\0';
	t->tokenize_pos += len;
}

int _stp_buffer_quoted_checked(char *dst, uint64_t addr, int64_t inlen, int64_t outlen,
			       bool user)
{
	char *buf = _stp_scratch()->raw;
	size_t n = inlen < 0 ? 0 : min_t(uint64_t, inlen, MAXSTRINGLEN);
	int err = user ? _stp_uread_quiet(buf, addr, n) : _stp_kread_quiet(buf, addr, n);

	if (err) {
		snprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)addr);
		return err;
	}
	_stp_text_buf(dst, buf, n, outlen > 0 ? (size_t)outlen : 0, true);
	return 0;
}

void _stp_buffer_quoted(char *dst, uint64_t addr, int64_t inlen, int64_t outlen, bool user)
{
	_stp_buffer_quoted_checked(dst, addr, inlen, outlen, user);
}
