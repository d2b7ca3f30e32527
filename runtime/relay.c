// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace0 data channel: one global relay buffer in debugfs.
 *
 * Relay's default sub-buffer callback already refuses to overwrite
 * unread data, so a full buffer makes relay_reserve() return NULL and we
 * count the bytes we could not write.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/relay.h>
#include <linux/spinlock.h>
#include "stp_internal.h"

/* staprun -s MB sets this; 0 means STP_RELAY_BUFSIZE. */
unsigned int _stp_bufsize;
module_param(_stp_bufsize, uint, 0444);
MODULE_PARM_DESC(_stp_bufsize, "relay buffer size in MB");

static struct rchan *chan;
/* All CPUs share the one buffer, so writers take turns. */
static DEFINE_RAW_SPINLOCK(relay_lock);
static atomic_t lost_bytes = ATOMIC_INIT(0);

static struct dentry *create_buf_file(const char *filename,
				      struct dentry *parent, umode_t mode,
				      struct rchan_buf *buf, int *is_global)
{
	struct dentry *d;

	*is_global = 1;
	d = debugfs_create_file(filename, mode, parent, buf,
				&relay_file_operations);
	return IS_ERR(d) ? NULL : d;
}

static int remove_buf_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static const struct rchan_callbacks relay_cb = {
	.create_buf_file = create_buf_file,
	.remove_buf_file = remove_buf_file,
};

int _stp_relay_init(void)
{
	size_t total = STP_RELAY_BUFSIZE;

	if (_stp_bufsize)
		total = (size_t)_stp_bufsize << 20;
	/* relay_open() creates "trace" + CPU number: trace0 when global. */
	chan = relay_open("trace", _stp_debugfs_dir,
			  max_t(size_t, total / STP_RELAY_SUBBUFS, PAGE_SIZE),
			  STP_RELAY_SUBBUFS, &relay_cb, NULL);
	if (!chan) {
		pr_err("%s: cannot allocate relay buffer of %zu bytes\n",
		       THIS_MODULE->name, total);
		return -ENOMEM;
	}
	return 0;
}

void _stp_relay_exit(void)
{
	if (chan)
		relay_close(chan);
	chan = NULL;
}

void _stp_relay_write(const void *data, size_t len)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&relay_lock, flags);
	while (len) {
		/* relay refuses a single write larger than a sub-buffer. */
		size_t n = min(len, chan->subbuf_size);
		void *p = relay_reserve(chan, n);

		if (!p) {
			atomic_add(len, &lost_bytes);
			break;
		}
		memcpy(p, data, n);
		data += n;
		len -= n;
	}
	raw_spin_unlock_irqrestore(&relay_lock, flags);
}

void _stp_relay_flush(void)
{
	relay_flush(chan);
}

u32 _stp_relay_lost(void)
{
	return atomic_read(&lost_bytes);
}

void _stp_relay_reset_stats(void)
{
	atomic_set(&lost_bytes, 0);
}
