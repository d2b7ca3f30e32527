// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strlcpy() was removed in 6.8 (strscpy() replaces it); guru scripts'
 * embedded C written for older kernels still calls it (stp_guru.h).
 */
#include <linux/module.h>
#include <linux/string.h>

size_t stapconf_test(char *dst, const char *src, size_t n);
size_t stapconf_test(char *dst, const char *src, size_t n)
{
	return strlcpy(dst, src, n);
}
MODULE_LICENSE("GPL");
