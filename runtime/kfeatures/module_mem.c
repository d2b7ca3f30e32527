// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * struct module describes its memory as mem[MOD_TEXT], mem[MOD_DATA], ...
 * (6.4 on); before, as core_layout's size and text_size.  module_size().
 */
#include <linux/module.h>

unsigned int stapconf_test(struct module *m);
unsigned int stapconf_test(struct module *m)
{
	return m->mem[MOD_TEXT].size + m->mem[MOD_DATA].size;
}
MODULE_LICENSE("GPL");
