// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libulib.so: the shared library of the user-space probe tests
 * (run/uprobe_library*), built with -g -O0 and linked into uplib and
 * uplib2 (testsuite/uplib.c).
 */
__attribute__((noinline)) int ulib_twice(int i)
{
	return 2 * i;
}
