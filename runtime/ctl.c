// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The .cmd control file: staprun writes START/EXIT, reads queued
 * messages (see stp_ctl.h for the protocol).
 *
 * Probe context may queue messages but must not call wake_up() (it could
 * run inside the scheduler), so a timer wakes readers instead and also
 * turns an exit() request into STP_CTL_REQUEST_EXIT.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hardirq.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include "stp_internal.h"

/*
 * The messages wait in a byte ring, allocated at load with the bounce
 * buffer (STP_CTL_RING bytes in all): each is its header and payload
 * (and a byte for vscnprintf's NUL), padded to 8 bytes, so a short
 * warning takes a few dozen bytes rather than a slot of the longest
 * payload (64 such slots were 66 KB of .bss, most of a one-probe
 * module's memory, and held 60 probe messages at most).
 * A message that would cross the end leaves a pad record there and goes
 * to the start.  The last CTL_RESERVED bytes only the session's own
 * replies (STARTED, REQUEST_EXIT, the dropped-messages warning,
 * EXIT_DONE) may use, so a flood of probe errors can never crowd them out.
 */
#define CTL_RING (STP_CTL_RING - sizeof(struct stp_ctl_msg))
#define CTL_PAD 0		/* a record's type: skip to the ring's start */
#define CTL_RESERVED 1024
#define CTL_TICK (HZ / 50 ? HZ / 50 : 1)

struct stp_ctl_msg {
	struct stp_ctl_hdr hdr;
	char payload[STP_CTL_MAX_PAYLOAD];
};

static struct stp_ctl {
	raw_spinlock_t lock;		/* protects ring, head, tail, used */
	char *ring;			/* CTL_RING bytes of records */
	unsigned int head, tail;	/* oldest record; where the next goes */
	unsigned int used;		/* bytes between them, pads too */
	atomic_t dropped;		/* probe messages lost to a full ring */
	atomic_t exit_sent;
	atomic_t open;			/* .cmd has one opener at a time */
	atomic_t opener;		/* its tgid: staprun's, for stp_pid() */
	bool detached;			/* DETACH: a close leaves probes running */
	bool stopping;			/* timer must not re-arm */
	wait_queue_head_t wq;
	struct timer_list timer;
	struct mutex read_mutex;	/* serializes readers for bounce */
	struct stp_ctl_msg *bounce;	/* a message on its way to user space */
	struct dentry *file;
} ctl;

/* The bytes a message of LEN payload bytes takes in the ring. */
static unsigned int rec_span(u32 len)
{
	return ALIGN(sizeof(struct stp_ctl_hdr) + len + 1, 8);
}

static bool is_session_reply(u32 type)
{
	return type == STP_CTL_STARTED || type == STP_CTL_EXIT_DONE ||
	       type == STP_CTL_REQUEST_EXIT;
}

/*
 * Claims room for a message of LEN payload bytes; the caller fills it
 * and drops the lock.
 */
static struct stp_ctl_hdr *ring_claim(u32 type, u32 len, bool reserved,
				      unsigned long *flags)
{
	unsigned int need = rec_span(len), pad;
	struct stp_ctl_hdr *h;

	/*
	 * An NMI may have interrupted ring_pop holding the lock on this CPU:
	 * it only tries, and a message it cannot queue is dropped (counted).
	 */
	if (unlikely(in_nmi())) {
		local_irq_save(*flags);
		if (!raw_spin_trylock(&ctl.lock)) {
			local_irq_restore(*flags);
			atomic_inc(&ctl.dropped);
			return NULL;
		}
	} else {
		raw_spin_lock_irqsave(&ctl.lock, *flags);
	}
	if (!ctl.used)
		ctl.head = ctl.tail = 0;	/* no pad needed */
	pad = need > CTL_RING - ctl.tail ? CTL_RING - ctl.tail : 0;
	if (!ctl.ring || ctl.used + pad + need +
	    (reserved ? 0 : CTL_RESERVED) > CTL_RING) {
		raw_spin_unlock_irqrestore(&ctl.lock, *flags);
		atomic_inc(&ctl.dropped);
		return NULL;
	}
	if (pad) {
		h = (struct stp_ctl_hdr *)(ctl.ring + ctl.tail);
		h->type = CTL_PAD;
		ctl.used += pad;
		ctl.tail = 0;
	}
	h = (struct stp_ctl_hdr *)(ctl.ring + ctl.tail);
	ctl.tail = (ctl.tail + need) % CTL_RING;
	ctl.used += need;
	h->type = type;
	h->len = len;
	return h;
}

int _stp_ctl_send(u32 type, const void *data, u32 len)
{
	struct stp_ctl_hdr *h;
	unsigned long flags;

	len = min_t(u32, len, STP_CTL_MAX_PAYLOAD);
	h = ring_claim(type, len, is_session_reply(type), &flags);
	if (!h)
		return -ENOSPC;
	memcpy(h + 1, data, len);
	raw_spin_unlock_irqrestore(&ctl.lock, flags);
	return 0;
}

static __printf(3, 0) int ctl_vsendf(u32 type, bool reserved, const char *fmt,
				     va_list ap)
{
	struct stp_ctl_hdr *h;
	unsigned long flags;
	va_list aq;
	int n, len;

	/* Measured first: the ring keeps only the bytes the text takes. */
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	n = clamp(n, 0, STP_CTL_MAX_PAYLOAD);
	h = ring_claim(type, n, reserved, &flags);
	if (!h)
		return -ENOSPC;
	/* Formatting under the lock avoids a big buffer on the stack. */
	len = vscnprintf((char *)(h + 1), n + 1, fmt, ap);
	if (len < n) {	/* a string changed meanwhile: give back the rest */
		ctl.tail = ((char *)h - ctl.ring + rec_span(len)) % CTL_RING;
		ctl.used -= rec_span(n) - rec_span(len);
	}
	h->len = len;	/* text without its NUL, per stp_ctl.h */
	raw_spin_unlock_irqrestore(&ctl.lock, flags);
	return 0;
}

int _stp_ctl_vsendf(u32 type, const char *fmt, va_list ap)
{
	return ctl_vsendf(type, false, fmt, ap);
}

int _stp_ctl_sendf(u32 type, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = _stp_ctl_vsendf(type, fmt, ap);
	va_end(ap);
	return ret;
}

/* Tells staprun, once, how many probe messages a full ring swallowed. */
static __printf(1, 2) void report_dropped(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_vsendf(STP_CTL_WARNING, true, fmt, ap);
	va_end(ap);
}

void _stp_ctl_report_dropped(void)
{
	int n = atomic_xchg(&ctl.dropped, 0);

	if (n)
		report_dropped("%d error/warning messages were dropped (STP_CTL_RING is %d bytes)",
			       n, (int)STP_CTL_RING);
}

static bool ring_empty(void)
{
	return READ_ONCE(ctl.used) == 0;
}

void _stp_ctl_wake(void)
{
	wake_up_interruptible(&ctl.wq);
}

static void ctl_tick(struct timer_list *t)
{
	struct stp_ctl *s = _stp_timer_container_of(s, t, timer);

	if (atomic_read(&_stp_exit_flag) && !atomic_xchg(&s->exit_sent, 1))
		_stp_ctl_send(STP_CTL_REQUEST_EXIT, NULL, 0);
	if (!ring_empty())
		wake_up_interruptible(&s->wq);
	if (!READ_ONCE(s->stopping))
		mod_timer(&s->timer, jiffies + CTL_TICK);
}

/* Moves the oldest message to ctl.bounce; false if the ring is empty. */
static bool ring_pop(size_t room, size_t *msg_len)
{
	struct stp_ctl_hdr *h;
	unsigned long flags;
	bool ok = false;

	raw_spin_lock_irqsave(&ctl.lock, flags);
	if (ctl.used) {
		h = (struct stp_ctl_hdr *)(ctl.ring + ctl.head);
		if (h->type == CTL_PAD) {
			ctl.used -= CTL_RING - ctl.head;
			ctl.head = 0;
			h = (struct stp_ctl_hdr *)ctl.ring;
		}
		*msg_len = sizeof(*h) + h->len;
		if (*msg_len <= room) {
			memcpy(ctl.bounce, h, *msg_len);
			ctl.head = (ctl.head + rec_span(h->len)) % CTL_RING;
			ctl.used -= rec_span(h->len);
			ok = true;
		}
	}
	raw_spin_unlock_irqrestore(&ctl.lock, flags);
	return ok;
}

static ssize_t ctl_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	ssize_t done = 0;
	size_t len;
	int ret;

	if (count < sizeof(struct stp_ctl_hdr) + STP_CTL_MAX_PAYLOAD)
		return -EINVAL;	/* must hold any one message */

	while (ring_empty()) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(ctl.wq, !ring_empty());
		if (ret)
			return ret;
	}

	mutex_lock(&ctl.read_mutex);
	while (ring_pop(count - done, &len)) {
		if (copy_to_user(buf + done, ctl.bounce, len)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		done += len;
	}
	mutex_unlock(&ctl.read_mutex);
	return done;
}

static ssize_t ctl_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	struct stp_ctl_hdr hdr;

	if (count < sizeof(hdr) || copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EINVAL;
	if (hdr.len != count - sizeof(hdr))
		return -EINVAL;

	switch (hdr.type) {
	case STP_CTL_START:
		_stp_session_start_cmd();
		break;
	case STP_CTL_EXIT:
		_stp_session_stop_cmd(true);
		break;
	case STP_CTL_DETACH:
		WRITE_ONCE(ctl.detached, true);
		break;
	case STP_CTL_ATTACH:
		_stp_session_attach_cmd();
		break;
	case STP_CTL_MONITOR:
		if (_stp_params.monitor_report) {
			_stp_params.monitor_report();
		} else {
			_stp_ctl_sendf(STP_CTL_MONITOR_TEXT,
				       "no probe table: the module was built without stap --monitor or -t");
			_stp_ctl_wake();
		}
		break;
	default:
		return -EINVAL;
	}
	return count;
}

static __poll_t ctl_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &ctl.wq, wait);
	return (ring_empty() ? 0 : EPOLLIN | EPOLLRDNORM) |
	       EPOLLOUT | EPOLLWRNORM;
}

static int ctl_open(struct inode *inode, struct file *file)
{
	if (atomic_cmpxchg(&ctl.open, 0, 1))
		return -EBUSY;
	WRITE_ONCE(ctl.detached, false);
	atomic_set(&ctl.opener, task_tgid_nr(current));
	return nonseekable_open(inode, file);
}

int64_t _stp_ctl_pid(void)
{
	return atomic_read(&ctl.opener);
}

static int ctl_release(struct inode *inode, struct file *file)
{
	/*
	 * staprun went away without detaching: stop the probes rather than
	 * run unobserved.  Queued messages stay for staprun -A.
	 */
	if (!READ_ONCE(ctl.detached))
		_stp_session_stop_cmd(false);
	atomic_set(&ctl.open, 0);
	return 0;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,	/* an open .cmd pins the module */
	.open = ctl_open,
	.release = ctl_release,
	.read = ctl_read,
	.write = ctl_write,
	.poll = ctl_poll,
};

static void ring_free(void)
{
	unsigned long flags;
	char *ring;

	raw_spin_lock_irqsave(&ctl.lock, flags);
	ring = ctl.ring;
	ctl.ring = NULL;
	ctl.used = 0;
	raw_spin_unlock_irqrestore(&ctl.lock, flags);
	kfree(ring);
}

int _stp_ctl_init(void)
{
	BUILD_BUG_ON(CTL_RING % 8 ||
		     CTL_RING < 2 * (CTL_RESERVED + sizeof(struct stp_ctl_msg)));
	/* Under ctl.lock: a probe may send (and drop) before this. */
	raw_spin_lock_init(&ctl.lock);
	ctl.ring = kmalloc(STP_CTL_RING, GFP_KERNEL);
	if (!ctl.ring)
		return -ENOMEM;
	_stp_alloc_note(STP_CTL_RING);
	ctl.bounce = (struct stp_ctl_msg *)(ctl.ring + CTL_RING);
	init_waitqueue_head(&ctl.wq);
	mutex_init(&ctl.read_mutex);

	ctl.file = debugfs_create_file(".cmd", 0600, _stp_debugfs_dir, NULL,
				       &ctl_fops);
	if (IS_ERR_OR_NULL(ctl.file)) {
		ring_free();
		return ctl.file ? PTR_ERR(ctl.file) : -ENOMEM;
	}
	timer_setup(&ctl.timer, ctl_tick, 0);
	mod_timer(&ctl.timer, jiffies + CTL_TICK);
	return 0;
}

void _stp_ctl_exit(void)
{
	WRITE_ONCE(ctl.stopping, true);
	_stp_timer_delete_sync(&ctl.timer);
	debugfs_remove(ctl.file);
	ring_free();
}
