// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading memory from probe context without faulting: a bad address
 * fails the probe hit with an error instead of oopsing the kernel.
 */
#include <linux/kernel.h>
#include <linux/uaccess.h>
#include "stp_runtime.h"

int _stp_read_mem(struct stp_context *c, void *dst, uint64_t addr, size_t len,
		  bool user)
{
	long ret;

	if (user)
		ret = copy_from_user_nofault(dst, (const void __user *)(unsigned long)addr, len);
	else
		ret = copy_from_kernel_nofault(dst, (const void *)(unsigned long)addr, len);
	if (ret) {
		/* SystemTap's words, for kernel and user memory alike. */
		_stp_error(c, "read fault [man error::fault] at 0x%llx",
			   (unsigned long long)addr);
		return -EFAULT;
	}
	return 0;
}

void _stp_print_mem(struct stp_context *c, uint64_t addr, int64_t bytes,
		    int width, bool hex, bool user, bool left)
{
	/* Hex needs two characters a byte: half a string's worth at most. */
	char raw[MAXSTRINGLEN / 2];
	static const char digits[] = "0123456789abcdef";
	size_t n = bytes < 0 ? 1 : min_t(size_t, bytes, sizeof(raw));
	size_t out = hex ? 2 * n : n, i;
	int pad = width > (int)out ? width - (int)out : 0;

	if (_stp_read_mem(c, raw, addr, n, user))
		return;
	for (i = 0; !left && (int)i < pad; i++)
		_stp_print_char(c, ' ');
	if (!hex) {
		_stp_print_n(c, raw, n);
	} else {
		for (i = 0; i < n; i++) {
			_stp_print_char(c, digits[(unsigned char)raw[i] >> 4]);
			_stp_print_char(c, digits[raw[i] & 0xf]);
		}
	}
	for (i = 0; left && (int)i < pad; i++)
		_stp_print_char(c, ' ');
}
