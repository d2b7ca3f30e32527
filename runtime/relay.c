// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace0 data channel: one global relay buffer in debugfs.
 *
 * Relay's default sub-buffer callback already refuses to overwrite
 * unread data, so a full buffer makes relay_reserve() return NULL and we
 * count the bytes we could not write.
 *
 * trace0 has its own read(): relay_file_read() samples subbufs_produced
 * before it advances subbufs_consumed, so a writer switching sub-buffers
 * on another CPU in between makes the difference underflow and the
 * reader jump back up to n_subbufs - 1 sub-buffers, delivering old data
 * a second time (seen as duplicated output under load).  Our read takes
 * the writers' lock, copies into a bounce buffer and consumes through
 * relay_subbufs_consumed(), so reader and writers never overlap.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/relay.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/mutex.h>
#include "stp_internal.h"

/* staprun -s MB sets this; 0 means STP_RELAY_BUFSIZE. */
unsigned int _stp_bufsize;
module_param(_stp_bufsize, uint, 0444);
MODULE_PARM_DESC(_stp_bufsize, "relay buffer size in MB");

static struct rchan *chan;
/* All CPUs share the one buffer, so writers (and the reader) take turns. */
static DEFINE_RAW_SPINLOCK(relay_lock);
static atomic_t lost_bytes = ATOMIC_INIT(0);

/* The reader's side: one reader at a time, bytes read of the oldest sub-buffer. */
static DEFINE_MUTEX(read_mutex);
static size_t read_bytes;
static char *bounce;		/* one sub-buffer, for copying out unlocked */
static struct file_operations trace_fops;

/* Copy what is readable now into bounce; called with relay_lock held. */
static size_t take_locked(struct rchan_buf *buf, size_t max)
{
	size_t size = chan->subbuf_size, n = chan->n_subbufs;

	for (;;) {
		size_t idx = buf->subbufs_consumed % n, end, avail;

		if (buf->subbufs_consumed == buf->subbufs_produced)
			/* Reading the sub-buffer being written: up to offset. */
			end = min(buf->offset, size);
		else
			end = size - buf->padding[idx];
		if (read_bytes < end) {
			avail = min(end - read_bytes, max);
			memcpy(bounce, buf->start + idx * size + read_bytes, avail);
			read_bytes += avail;
			return avail;
		}
		if (buf->subbufs_consumed == buf->subbufs_produced)
			return 0;
		/* Done with a finished sub-buffer: hand it back to writers. */
		relay_subbufs_consumed(chan, 0, 1);
		read_bytes = 0;
	}
}

static ssize_t trace_read(struct file *filp, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct rchan_buf *buf = filp->private_data;
	unsigned long flags;
	ssize_t done = 0;

	mutex_lock(&read_mutex);
	while (count) {
		size_t n;

		raw_spin_lock_irqsave(&relay_lock, flags);
		n = take_locked(buf, min(count, chan->subbuf_size));
		raw_spin_unlock_irqrestore(&relay_lock, flags);
		if (!n)
			break;
		if (copy_to_user(ubuf, bounce, n)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		ubuf += n;
		count -= n;
		done += n;
	}
	mutex_unlock(&read_mutex);
	return done;
}

static struct dentry *create_buf_file(const char *filename,
				      struct dentry *parent, umode_t mode,
				      struct rchan_buf *buf, int *is_global)
{
	struct dentry *d;

	*is_global = 1;
	d = debugfs_create_file(filename, mode, parent, buf, &trace_fops);
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
	/* Relay's open, poll, mmap and release; our read. */
	trace_fops = relay_file_operations;
	trace_fops.read = trace_read;
	trace_fops.splice_read = NULL;
	bounce = vmalloc(max_t(size_t, total / STP_RELAY_SUBBUFS, PAGE_SIZE));
	if (!bounce)
		return -ENOMEM;
	read_bytes = 0;
	/* relay_open() creates "trace" + CPU number: trace0 when global. */
	chan = relay_open("trace", _stp_debugfs_dir,
			  max_t(size_t, total / STP_RELAY_SUBBUFS, PAGE_SIZE),
			  STP_RELAY_SUBBUFS, &relay_cb, NULL);
	if (!chan) {
		pr_err("%s: cannot allocate relay buffer of %zu bytes\n",
		       THIS_MODULE->name, total);
		vfree(bounce);
		bounce = NULL;
		return -ENOMEM;
	}
	return 0;
}

void _stp_relay_exit(void)
{
	if (chan)
		relay_close(chan);
	chan = NULL;
	vfree(bounce);
	bounce = NULL;
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
	unsigned long flags;

	/* A global channel's flush switches sub-buffers: a writer's job. */
	raw_spin_lock_irqsave(&relay_lock, flags);
	relay_flush(chan);
	raw_spin_unlock_irqrestore(&relay_lock, flags);
}

u32 _stp_relay_lost(void)
{
	return atomic_read(&lost_bytes);
}

void _stp_relay_reset_stats(void)
{
	atomic_set(&lost_bytes, 0);
}
