// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The data channel: one relay buffer per CPU in debugfs (trace0..traceN).
 *
 * Every CPU writes only to its own buffer under its own lock, so probes
 * on different CPUs never wait for each other to print.  Each write is a
 * record, struct stp_relay_rec plus the bytes, stamped with the monotonic
 * clock under that lock; staprun merges the buffers by stamp (see
 * staprun/relay.c for why the order it prints is the order of the writes).
 *
 * Relay's default sub-buffer callback already refuses to overwrite
 * unread data, so a full buffer makes relay_reserve() return NULL and we
 * count the write as a transport failure.
 *
 * The trace files have their own read(): relay_file_read() samples
 * subbufs_produced before it advances subbufs_consumed, so a writer
 * switching sub-buffers in between makes the difference underflow and
 * the reader jump back up to n_subbufs - 1 sub-buffers, delivering old
 * data a second time.  Our read takes the buffer's writer lock to find
 * what is readable and consumes through relay_subbufs_consumed(), so
 * reader and writer never overlap (see trace_read for the copy).
 *
 * staprun does not copy at all: it maps the buffers (relay's mmap) and
 * asks trace_ioctl which bytes are readable, and which it is done with.
 *
 * Which clock stamps them: local_clock(), the clock ftrace and perf
 * stamp their per-CPU buffers with, is a read of this CPU's TSC;
 * CLOCK_MONOTONIC (ktime_get_mono_fast_ns()) reads the clocksource, and
 * where that is an HPET (bench/'s TCG guests) every read is a device
 * access the CPUs queue for: two CPUs printing paid 4.3 times the write
 * cost of one (bench/printf_scaling.sh).  But local_clock() agrees across
 * CPUs only where the kernel trusts the TSC: with an unstable scheduler
 * clock two CPUs' may differ by up to a tick, and a line printed on one
 * CPU after another's (a pipe's reader after its writer) could be merged
 * before it (run/print_cpus failed once in the TCG guests, whose CPU
 * model has no constant TSC).  So the stamps are local_clock() only on
 * bare metal whose TSC the kernel trusted when the module loaded (in a
 * guest the scheduler clock may be the hypervisor's, whatever the TSC),
 * and CLOCK_MONOTONIC elsewhere: as cheap where the clocksource is the
 * TSC or kvm-clock, slower on an HPET, in order everywhere.  The reader's
 * horizon for a CPU's buffer (relay_now) is the same clock:
 * cpu_clock(cpu), at or before every later stamp there, or
 * CLOCK_MONOTONIC now.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/hardirq.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/relay.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/mutex.h>
#include "stp_internal.h"
#include "stp_ctl.h"
#ifdef STAPCONF_CHECK_TSC_UNSTABLE
#include <asm/cpufeature.h>
#include <asm/tsc.h>
#endif

static bool stamp_local __read_mostly;

static __always_inline u64 relay_stamp(void)
{
	return stamp_local ? local_clock() : ktime_get_mono_fast_ns();
}

static void choose_stamp_clock(void)
{
#ifdef STAPCONF_CHECK_TSC_UNSTABLE
	stamp_local = !check_tsc_unstable() &&
		      !boot_cpu_has(X86_FEATURE_HYPERVISOR);
#endif
}

/* stap -F: a full buffer overwrites its oldest sub-buffer (script_params.h). */
extern bool _stp_overwrite;

/* staprun -b MB sets this; 0 means STP_RELAY_BUFSIZE. */
unsigned int _stp_bufsize;
module_param(_stp_bufsize, uint, 0444);
MODULE_PARM_DESC(_stp_bufsize, "relay buffer size in MB, per CPU");

struct relay_cpu {
	raw_spinlock_t lock;	/* this CPU's writers and any reader */
	size_t read_bytes;	/* reader: bytes taken of the oldest sub-buffer */
};

static struct rchan *chan;
static DEFINE_PER_CPU(struct relay_cpu, relay_cpus);
static atomic_t lost_bytes = ATOMIC_INIT(0);
static atomic_t failures = ATOMIC_INIT(0);

/* The reader's side: one reader at a time shares the bounce buffer. */
static DEFINE_MUTEX(read_mutex);
static char *bounce;		/* one sub-buffer, for copying out unlocked */
static struct file_operations trace_fops;

/*
 * How many of the avail bytes at p are whole records: a read never
 * splits one, so that overwriting (which drops whole sub-buffers, each
 * starting with a record) cannot leave the reader with half of one.
 */
static size_t whole_records(const char *p, size_t avail)
{
	size_t off = 0;

	while (off + sizeof(struct stp_relay_rec) <= avail) {
		const struct stp_relay_rec *r = (const void *)(p + off);
		size_t sz = sizeof(*r) + STP_RELAY_ALIGN(r->len);

		if (off + sz > avail)
			break;
		off += sz;
	}
	return off;
}

/*
 * Where the readable bytes of sub-buffer number sub end (sub runs from
 * subbufs_consumed to subbufs_produced); called with the buffer's lock.
 */
static size_t subbuf_end(struct rchan_buf *buf, size_t sub)
{
	if (sub != buf->subbufs_produced)
		return chan->subbuf_size - buf->padding[sub % chan->n_subbufs];
	/*
	 * The one being written, up to its offset.  Past the end (relay
	 * refused a full buffer's writer) it is the slot of the oldest
	 * sub-buffer, which is read by the time sub gets here: nothing new.
	 */
	return buf->offset <= chan->subbuf_size ? buf->offset : 0;
}

/*
 * Where the readable bytes start now, and how many (up to max); called
 * with rc->lock held.  The caller copies them out and advances
 * rc->read_bytes.
 */
static size_t readable_locked(struct rchan_buf *buf, struct relay_cpu *rc,
			      size_t max, const char **where)
{
	size_t size = chan->subbuf_size, n = chan->n_subbufs;

	/*
	 * Overwritten while unread: start at the oldest sub-buffer left.
	 * Without overwriting, this many produced is only a full buffer:
	 * relay refused the writer the reader's sub-buffer, whose rest is
	 * still to read (skipping it lost lines silently, and left staprun
	 * half a record when a read had split one).
	 */
	if (_stp_overwrite &&
	    buf->subbufs_produced - buf->subbufs_consumed >= n) {
		buf->subbufs_consumed = buf->subbufs_produced - n + 1;
		rc->read_bytes = 0;
	}
	for (;;) {
		size_t idx = buf->subbufs_consumed % n, avail;
		size_t end = subbuf_end(buf, buf->subbufs_consumed);
		const char *p;

		if (rc->read_bytes < end) {
			p = buf->start + idx * size + rc->read_bytes;
			avail = min(end - rc->read_bytes, max);
			/*
			 * Overwriting drops whole sub-buffers, each starting
			 * with a record: a read that split one could be left
			 * with half of it.  Otherwise staprun joins the parts.
			 */
			if (_stp_overwrite) {
				size_t whole = whole_records(p, avail);

				/* None whole: a record bigger than max, split. */
				if (whole)
					avail = whole;
			}
			*where = p;
			return avail;
		}
		if (buf->subbufs_consumed == buf->subbufs_produced)
			return 0;
		/* Done with a finished sub-buffer: hand it back to writers. */
		relay_subbufs_consumed(chan, buf->cpu, 1);
		rc->read_bytes = 0;
	}
}

/*
 * STP_RELAY_IOC_RANGES (see stp_ctl.h): the reader has finished with done
 * bytes; hand back the sub-buffers they empty, then list what is left to
 * read as ranges of the mapping.  Called with rc->lock held.  Without
 * overwriting, writers enter no sub-buffer the reader has not handed back
 * and rewrite no byte below the write offset, so the ranges stay valid
 * after the lock is dropped, as for trace_read's unlocked copy.
 */
static int ranges_locked(struct rchan_buf *buf, struct relay_cpu *rc,
			 u64 done, struct stp_relay_ranges *r)
{
	size_t size = chan->subbuf_size, sub;
	size_t off;

	for (;;) {
		size_t end = subbuf_end(buf, buf->subbufs_consumed);
		size_t take = min_t(u64, done, end - min(rc->read_bytes, end));

		rc->read_bytes += take;
		done -= take;
		if (rc->read_bytes < end ||
		    buf->subbufs_consumed == buf->subbufs_produced)
			break;
		relay_subbufs_consumed(chan, buf->cpu, 1);
		rc->read_bytes = 0;
	}
	if (done)
		return -EINVAL;	/* more than was there */
	r->n = r->more = 0;
	sub = buf->subbufs_consumed;
	off = rc->read_bytes;
	for (;;) {
		size_t end = subbuf_end(buf, sub);

		if (off < end) {
			if (r->n == STP_RELAY_RANGES_MAX) {
				r->more = 1;
				break;
			}
			r->r[r->n].off = (sub % chan->n_subbufs) * size + off;
			r->r[r->n].len = end - off;
			r->n++;
		}
		if (sub == buf->subbufs_produced)
			break;
		sub++;
		off = 0;
	}
	return 0;
}

/*
 * For the reader: a time at or before the stamp of every record that
 * buf's CPU writes from now on.  cpu_clock() of another CPU also raises
 * that CPU's clock to at least what it returns, should the scheduler
 * clock turn unstable, so this holds from whichever CPU the reader runs
 * on; CLOCK_MONOTONIC is one clock for all.
 */
static u64 relay_now(const struct rchan_buf *buf)
{
	return stamp_local ? cpu_clock(buf->cpu) : ktime_get_mono_fast_ns();
}

static long trace_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct rchan_buf *buf = filp->private_data;
	struct relay_cpu *rc = per_cpu_ptr(&relay_cpus, buf->cpu);
	struct stp_relay_ranges __user *ur = (void __user *)arg;
	struct stp_relay_ranges r;
	unsigned long flags;
	int ret;

	/* read()ing readers (stap -F's buffers): asked before each read. */
	if (cmd == STP_RELAY_IOC_NOW)
		return put_user(relay_now(buf), (u64 __user *)arg);
	if (cmd != STP_RELAY_IOC_RANGES)
		return -ENOTTY;
	/* Writers may overwrite any sub-buffer: the reader must copy. */
	if (_stp_overwrite)
		return -EOPNOTSUPP;
	if (get_user(r.done, &ur->done))
		return -EFAULT;
	r.subbuf_size = chan->subbuf_size;
	r.n_subbufs = chan->n_subbufs;
	mutex_lock(&read_mutex);
	raw_spin_lock_irqsave(&rc->lock, flags);
	ret = ranges_locked(buf, rc, r.done, &r);
	r.now = relay_now(buf);
	raw_spin_unlock_irqrestore(&rc->lock, flags);
	mutex_unlock(&read_mutex);
	/* The ranges in use only. */
	if (!ret && copy_to_user(ur, &r, sizeof(r) - sizeof(r.r) +
				 r.n * sizeof(r.r[0])))
		ret = -EFAULT;
	return ret;
}

static ssize_t trace_read(struct file *filp, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct rchan_buf *buf = filp->private_data;
	struct relay_cpu *rc = per_cpu_ptr(&relay_cpus, buf->cpu);
	unsigned long flags;
	ssize_t done = 0;

	mutex_lock(&read_mutex);
	while (count) {
		const char *p;
		size_t n;

		raw_spin_lock_irqsave(&rc->lock, flags);
		n = readable_locked(buf, rc, min(count, chan->subbuf_size), &p);
		if (n && _stp_overwrite) {
			/* Writers may overwrite it once unlocked: copy now. */
			memcpy(bounce, p, n);
			p = bounce;
			rc->read_bytes += n;
		}
		raw_spin_unlock_irqrestore(&rc->lock, flags);
		if (!n)
			break;
		/*
		 * Without overwriting, writers never enter a sub-buffer the
		 * reader has not handed back, nor rewrite bytes below the
		 * write offset: copy straight from the buffer, unlocked.
		 */
		if (copy_to_user(ubuf, p, n)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		if (!_stp_overwrite) {
			raw_spin_lock_irqsave(&rc->lock, flags);
			rc->read_bytes += n;
			raw_spin_unlock_irqrestore(&rc->lock, flags);
		}
		ubuf += n;
		count -= n;
		done += n;
		/* A big read against a busy writer must not hog this CPU. */
		cond_resched();
	}
	mutex_unlock(&read_mutex);
	return done;
}

static struct dentry *create_buf_file(const char *filename,
				      struct dentry *parent, umode_t mode,
				      struct rchan_buf *buf, int *is_global)
{
	struct dentry *d;

	*is_global = 0;
	/*
	 * _unsafe: debugfs's full proxy has no mmap.  Without the proxy an
	 * open file holds the module (trace_fops.owner), so the file's
	 * operations cannot outlive it.
	 */
	d = debugfs_create_file_unsafe(filename, mode, parent, buf, &trace_fops);
	return IS_ERR(d) ? NULL : d;
}

static int remove_buf_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

/* Relay's default, unless stap -F asked to overwrite. */
static int subbuf_start(struct rchan_buf *buf, void *subbuf, void *prev_subbuf,
			size_t prev_padding)
{
	return _stp_overwrite || !relay_buf_full(buf);
}

static const struct rchan_callbacks relay_cb = {
	.subbuf_start = subbuf_start,
	.create_buf_file = create_buf_file,
	.remove_buf_file = remove_buf_file,
};

unsigned int _stp_relay_bufsize_mb(void)
{
	return _stp_bufsize ? _stp_bufsize : STP_RELAY_BUFSIZE >> 20;
}

/*
 * Without stap -s, stap(1)'s default of 16 MB a CPU, "or less on smaller
 * memory machines": at most a quarter of free memory shared among the
 * online CPUs, at least 1 MB (as SystemTap 4.8 sizes it).
 */
static unsigned int default_bufsize_mb(void)
{
	struct sysinfo si;
	unsigned long avail;

	si_meminfo(&si);
	avail = (si.freeram + si.bufferram) * si.mem_unit / 4 / num_online_cpus();
	return max(1UL, min(avail >> 20, (unsigned long)STP_RELAY_BUFSIZE >> 20));
}

int _stp_relay_init(void)
{
	size_t total, subbuf;
	int cpu;

	/* Set once, so that the status and -v report the size in use. */
	if (!_stp_bufsize)
		_stp_bufsize = default_bufsize_mb();
	total = (size_t)_stp_bufsize << 20;
	subbuf = max_t(size_t, total / STP_RELAY_SUBBUFS, PAGE_SIZE);

	choose_stamp_clock();
	for_each_possible_cpu(cpu) {
		raw_spin_lock_init(&per_cpu_ptr(&relay_cpus, cpu)->lock);
		per_cpu_ptr(&relay_cpus, cpu)->read_bytes = 0;
	}
	/* Relay's open, poll, mmap and release; our read and ioctl. */
	trace_fops = relay_file_operations;
	trace_fops.owner = THIS_MODULE;
	trace_fops.read = trace_read;
	trace_fops.unlocked_ioctl = trace_ioctl;
	trace_fops.splice_read = NULL;
	bounce = vmalloc(subbuf);
	if (!bounce)
		return -ENOMEM;
	/* relay_open() names each CPU's file "trace" + its number. */
	chan = relay_open("trace", _stp_debugfs_dir, subbuf, STP_RELAY_SUBBUFS,
			  &relay_cb, NULL);
	if (!chan) {
		pr_err("%s: cannot allocate relay buffers of %zu bytes per CPU\n",
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

/*
 * Take this CPU's buffer lock for a writer, interrupts off.  A writer
 * in an NMI may have interrupted the reader or _stp_relay_flush holding
 * this very lock on this CPU: it only tries, and false means the record
 * is lost (counted), never a CPU spinning on itself.
 */
static bool lock_writer(struct relay_cpu *rc)
{
	if (unlikely(in_nmi()))
		return raw_spin_trylock(&rc->lock);
	raw_spin_lock(&rc->lock);
	return true;
}

void _stp_relay_write(const void *data, size_t len)
{
	/*
	 * relay refuses a reservation larger than a sub-buffer.  Records
	 * are padded to 8 bytes so that every header staprun reads is
	 * aligned (sub-buffers are page multiples, headers 16 bytes).
	 */
	size_t max = chan->subbuf_size - sizeof(struct stp_relay_rec);
	struct relay_cpu *rc;
	unsigned long flags;
	u64 ts;

	local_irq_save(flags);
	rc = this_cpu_ptr(&relay_cpus);
	if (!lock_writer(rc)) {
		atomic_add(len, &lost_bytes);
		atomic_inc(&failures);
		local_irq_restore(flags);
		return;
	}
	/* Stamped under the lock: see staprun/relay.c. NMI-safe clocks. */
	ts = relay_stamp();
	while (len) {
		size_t n = min(len, max);
		struct stp_relay_rec *r =
			relay_reserve(chan, sizeof(*r) + STP_RELAY_ALIGN(n));

		if (!r) {
			atomic_add(len, &lost_bytes);
			atomic_inc(&failures);
			break;
		}
		r->ts = ts;
		r->len = n;
		r->flags = 0;
		memcpy(r + 1, data, n);
		/* Old buffer bytes must not reach the reader as padding. */
		memset((char *)(r + 1) + n, 0, STP_RELAY_ALIGN(n) - n);
		data += n;
		len -= n;
	}
	raw_spin_unlock(&rc->lock);
	local_irq_restore(flags);
}

void _stp_relay_switch_file(void)
{
	struct stp_relay_rec *r;
	struct relay_cpu *rc;
	unsigned long flags;

	local_irq_save(flags);
	rc = this_cpu_ptr(&relay_cpus);
	if (!lock_writer(rc)) {
		atomic_inc(&failures);
		local_irq_restore(flags);
		return;
	}
	r = relay_reserve(chan, sizeof(*r));
	if (r) {
		r->ts = relay_stamp();
		r->len = 0;
		r->flags = STP_RELAY_SWITCH_FILE;
	} else {
		atomic_inc(&failures);
	}
	raw_spin_unlock(&rc->lock);
	local_irq_restore(flags);
}

void _stp_relay_flush(void)
{
	unsigned long flags;
	int cpu;

	/*
	 * Finish each CPU's partial sub-buffer so that poll() wakes the
	 * reader; under that CPU's lock, since its writers may be running.
	 */
	for_each_possible_cpu(cpu) {
		struct rchan_buf *buf = *per_cpu_ptr(chan->buf, cpu);
		struct relay_cpu *rc = per_cpu_ptr(&relay_cpus, cpu);

		if (!buf)
			continue;
		raw_spin_lock_irqsave(&rc->lock, flags);
		if (buf->offset && buf->offset <= chan->subbuf_size)
			relay_switch_subbuf(buf, 0);
		raw_spin_unlock_irqrestore(&rc->lock, flags);
	}
}

u32 _stp_relay_lost(void)
{
	return atomic_read(&lost_bytes);
}

u32 _stp_relay_failures(void)
{
	return atomic_read(&failures);
}

void _stp_relay_reset_stats(void)
{
	atomic_set(&lost_bytes, 0);
	atomic_set(&failures, 0);
}
