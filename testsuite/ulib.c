// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libulib.so: the shared library of the user-space probe tests
 * (run/uprobe_library*), built with -g -O0 and linked into uplib and
 * uplib2 (testsuite/uplib.c).
 */
__attribute__((noinline)) int ulib_twice(int i)
{
	extern int ulib_calls;	/* declared here: the function stays at line 7 */

	ulib_calls++;
	return 2 * i;
}

/* Calls in this process: a library global for @var (run/uprobe_return_var). */
int ulib_calls;
