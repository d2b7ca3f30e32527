// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 6.12 split uprobe_unregister() into uprobe_unregister_nosync() and
 * uprobe_unregister_sync(), and uprobe_register() returns the struct
 * uprobe * that the former takes (the inode/offset forms are gone).
 */
#include <linux/module.h>
#include <linux/uprobes.h>

void stapconf_test(struct inode *inode, struct uprobe_consumer *uc);
void stapconf_test(struct inode *inode, struct uprobe_consumer *uc)
{
	struct uprobe *u = uprobe_register(inode, 0, 0, uc);

	if (!IS_ERR(u))
		uprobe_unregister_nosync(u, uc);
	uprobe_unregister_sync();
}
MODULE_LICENSE("GPL");
