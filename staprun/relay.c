// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the module's per-CPU data files (trace0..traceN) back into one
 * stream, in the order the writes happened.
 *
 * Each record carries the time (the kernel's local_clock() where the TSC
 * is stable, else CLOCK_MONOTONIC: runtime/relay.c) at which its CPU's
 * writer held that buffer's lock.  Within a file
 * the stamps rise.  Across files we need a horizon: a time H such that
 * no record stamped at or before H can still arrive.  For each file the
 * kernel gives a time "now" from its CPU's clock, read before (or, with
 * the lock, as) we take the file's bytes: every record not in hand is
 * stamped at now or later.  H is the earliest of the files' nows, less
 * a margin for the CPUs' clocks (see the margin), so after one pass over
 * all files every record stamped up to H is in hand, and printing those
 * in stamp order is exact.  Later ones wait for the next pass.  Each
 * file's now is its own CPU's clock.
 *
 * The module's trace files are not read() but mapped: the kernel's
 * ioctl (STP_RELAY_IOC_RANGES, runtime/relay.c) says which bytes of the
 * mapping are readable and takes back those we are done with, so no
 * byte is copied on the way to the output; it gives the file's now, read
 * under the lock after the ranges.  Files read() are stap -F's buffers,
 * which writers overwrite (STP_RELAY_IOC_NOW before each read), and
 * files that are not a module's (stap-merge's, a unit test's), which
 * hold all they will hold: no horizon.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "staprun.h"
#include "stp_ctl.h"
#include "util.h"

#define READ_CHUNK (256 * 1024)
#define FILL_MAX (4 * READ_CHUNK)	/* per file per pass */
/*
 * Where the scheduler clock is stable, now is the reader's CPU's TSC
 * and a stamp the writer's: the two CPUs' counters agree only as far as
 * the kernel's sync check sees, and a TSC read is not ordered with the
 * lock around it.  Microseconds cover both, and cost the output nothing
 * but that delay.
 */
#define CLOCK_MARGIN_NS 20000ULL	/* 20 us */

struct relay_file {
	int fd;
	int cpu;
	char *buf;		/* bytes read, not yet printed */
	size_t start, len, cap;	/* unprinted bytes are buf[start, len) */
	bool more;		/* the last fill() stopped before the end */
	bool clocked;		/* read(): a module's, STP_RELAY_IOC_NOW works */
	uint64_t now;		/* the horizon of its last fill() (see the top) */
	/* mapped (map != NULL): the ranges of the last ioctl */
	const char *map;
	size_t map_len;
	struct stp_relay_ranges rr;
	uint64_t done;		/* bytes of rr's ranges printed */
};

static int cmp_cpu(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* File i of in: path, opened for reading with extra flags. */
static int open_one(struct relay_in *in, int i, const char *path, int flags)
{
	struct relay_file *f = &in->files[i];

	memset(f, 0, sizeof(*f));
	in->n = i + 1;
	f->fd = open(path, O_RDONLY | O_CLOEXEC | flags);
	if (f->fd < 0) {
		int ret = -errno;

		util_err("relay: cannot open %s: %s", path, strerror(-ret));
		return ret;
	}
	return 0;
}

int relay_numbered(const char *dir, const char *prefix, int **nums)
{
	size_t plen = strlen(prefix);
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	*nums = NULL;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		const char *num = e->d_name + plen;

		if (strncmp(e->d_name, prefix, plen) || !*num ||
		    strspn(num, "0123456789") != strlen(num))
			continue;
		*nums = xrealloc(*nums, (n + 1) * sizeof(**nums));
		(*nums)[n++] = atoi(num);
	}
	closedir(d);
	qsort(*nums, n, sizeof(**nums), cmp_cpu);
	return n;
}

/*
 * Map a module's trace file, if its module lets us (not while it
 * overwrites: then read()).
 */
static void try_map(struct relay_file *f)
{
	long page = sysconf(_SC_PAGESIZE);
	void *m;

	f->rr.done = 0;
	if (ioctl(f->fd, STP_RELAY_IOC_RANGES, &f->rr) < 0)
		return;
	/* relay's mmap wants exactly its buffer: whole pages. */
	f->map_len = ((size_t)f->rr.subbuf_size * f->rr.n_subbufs + page - 1) &
		     ~(size_t)(page - 1);
	m = mmap(NULL, f->map_len, PROT_READ, MAP_SHARED, f->fd, 0);
	if (m == MAP_FAILED) {
		if (staprun_verbose)
			util_err("relay: cannot map cpu %d's buffer, reading it: %s",
				 f->cpu, strerror(errno));
		return;
	}
	f->map = m;
	f->rr.n = 0;	/* nothing in hand until the first pass */
	if (staprun_verbose)
		util_err("relay: cpu %d's buffer mapped, %u x %u bytes",
			 f->cpu, f->rr.n_subbufs, f->rr.subbuf_size);
}

int relay_in_open(struct relay_in *in, const char *dir)
{
	int *cpus, n, i, ret = 0;

	memset(in, 0, sizeof(*in));
	/* CPU order, so that records stamped alike print the same each run. */
	n = relay_numbered(dir, "trace", &cpus);
	if (n < 0) {
		util_err("relay: cannot open %s: %s", dir, strerror(-n));
		return n;
	}
	if (!n) {
		util_err("relay: no trace files in %s", dir);
		return -ENOENT;
	}
	in->files = xmalloc(n * sizeof(*in->files));
	for (i = 0; i < n && !ret; i++) {
		char *path = xasprintf("%s/trace%d", dir, cpus[i]);

		ret = open_one(in, i, path, O_NONBLOCK);
		in->files[i].cpu = cpus[i];
		if (!ret)
			try_map(&in->files[i]);
		/* Not a module's file (a test's): it holds all it will. */
		if (!ret && !in->files[i].map)
			in->files[i].clocked =
				ioctl(in->files[i].fd, STP_RELAY_IOC_NOW,
				      &in->files[i].now) == 0;
		free(path);
	}
	free(cpus);
	if (ret)
		relay_in_close(in);
	return ret;
}

int relay_in_open_files(struct relay_in *in, char *const *files, int n)
{
	int i, ret = 0;

	memset(in, 0, sizeof(*in));
	in->files = xmalloc(n * sizeof(*in->files));
	for (i = 0; i < n && !ret; i++) {
		/* FILE_N, stpd_cpuN: the CPU is the number the name ends in. */
		const char *d = files[i] + strlen(files[i]);

		while (d > files[i] && d[-1] >= '0' && d[-1] <= '9')
			d--;
		ret = open_one(in, i, files[i], 0);
		in->files[i].cpu = *d ? atoi(d) : i;
	}
	if (ret)
		relay_in_close(in);
	return ret;
}

void relay_in_close(struct relay_in *in)
{
	for (int i = 0; i < in->n; i++) {
		if (in->files[i].map)
			munmap((void *)in->files[i].map, in->files[i].map_len);
		if (in->files[i].fd >= 0)
			close(in->files[i].fd);
		free(in->files[i].buf);
	}
	free(in->files);
	memset(in, 0, sizeof(*in));
}

int relay_in_fd(const struct relay_in *in, int i)
{
	return in->files[i].fd;
}

int relay_in_cpu(const struct relay_in *in, int i)
{
	return in->files[i].cpu;
}

/*
 * Appends what the file has now, up to FILL_MAX bytes: against writers
 * that never pause, reading until the file is empty could go on forever
 * while nothing is printed and the buffer grows.  The rest waits for the
 * next pass; the writers' buffer holds it or counts what it refuses.
 */
static int fill(struct relay_file *f)
{
	size_t got = 0;

	if (f->map) {
		f->rr.done = f->done;
		f->done = 0;
		if (ioctl(f->fd, STP_RELAY_IOC_RANGES, &f->rr) < 0) {
			int ret = -errno;

			f->rr.n = 0;
			util_err("relay: reading cpu %d's buffer failed: %s",
				 f->cpu, strerror(-ret));
			return ret;
		}
		f->more = f->rr.more;
		return 0;
	}

	f->more = false;
	f->now = UINT64_MAX;
	/* Before the read: see the top. */
	if (f->clocked && ioctl(f->fd, STP_RELAY_IOC_NOW, &f->now) < 0) {
		int ret = -errno;

		util_err("relay: reading cpu %d's clock failed: %s", f->cpu,
			 strerror(-ret));
		return ret;
	}
	while (got < FILL_MAX) {
		ssize_t n;
		size_t want;

		if (f->start && f->start == f->len)
			f->start = f->len = 0;
		if (f->cap - f->len < READ_CHUNK) {
			/* Slide the unprinted bytes down before growing. */
			if (f->start) {
				memmove(f->buf, f->buf + f->start,
					f->len - f->start);
				f->len -= f->start;
				f->start = 0;
			}
			if (f->cap - f->len < READ_CHUNK) {
				f->cap = f->len + 2 * READ_CHUNK;
				f->buf = xrealloc(f->buf, f->cap);
			}
		}
		want = f->cap - f->len;
		n = read(f->fd, f->buf + f->len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0) {
			int ret = -errno;

			util_err("relay: read failed: %s", strerror(-ret));
			return ret;
		}
		f->len += n;
		got += n;
		if ((size_t)n < want)
			return 0;	/* drained, as far as this pass goes */
	}
	f->more = true;
	return 0;
}

void relay_in_settle(void)
{
	struct timespec ts = { 0, CLOCK_MARGIN_NS };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The stamp of the last header in [p, end), or ts. */
static uint64_t last_ts(const char *p, const char *end, uint64_t ts)
{
	while (p < end && (size_t)(end - p) >= sizeof(struct stp_relay_rec)) {
		const struct stp_relay_rec *r = (const void *)p;

		ts = r->ts;
		p += sizeof(*r) + STP_RELAY_ALIGN(r->len);
	}
	return ts;
}

/*
 * For a file fill() left unfinished, the stamp below which its records
 * are all in hand: those still unread are stamped no earlier than the
 * last header we have (one write split in pieces shares a stamp).
 */
static uint64_t complete_below(const struct relay_file *f)
{
	uint64_t ts = 0;

	if (!f->map)
		return last_ts(f->buf + f->start, f->buf + f->len, 0);
	for (unsigned int k = 0; k < f->rr.n; k++) {
		const char *p = f->map + f->rr.r[k].off;

		ts = last_ts(p, p + f->rr.r[k].len, ts);
	}
	return ts;
}

#define RUNS_MAX 64	/* runs per emit call */

/* Where merge() is in one file: its next record, stamped ts. */
struct cursor {
	const char *p, *end;	/* end: of the bytes in hand (of range seg) */
	uint64_t ts;		/* UINT64_MAX: no whole record up to horizon */
	unsigned int seg;	/* mapped: which of the file's ranges */
};

/* The stamp of the record at p, or UINT64_MAX (partial, or past horizon). */
static inline uint64_t cursor_ts(const char *p, const char *end,
				 uint64_t horizon)
{
	const struct stp_relay_rec *r = (const void *)p;

	if ((size_t)(end - p) < sizeof(*r) ||
	    (size_t)(end - p) - sizeof(*r) < STP_RELAY_ALIGN(r->len) ||
	    r->ts > horizon)
		return UINT64_MAX;
	return r->ts;
}

/* Mapped: a cursor at the end of a range goes on to the next. */
static void next_range(const struct relay_file *f, struct cursor *c,
		       uint64_t horizon)
{
	while (c->p == c->end && c->seg + 1 < f->rr.n) {
		c->seg++;
		c->p = f->map + f->rr.r[c->seg].off;
		c->end = c->p + f->rr.r[c->seg].len;
		c->ts = cursor_ts(c->p, c->end, horizon);
	}
}

/*
 * The file whose head comes first (stamp, then file index), and in *next
 * the last stamp its run may take: the run ends before the first record
 * that another file's head precedes, stamped later, or alike where that
 * file comes first (the scan keeps the first of equals, so then its head
 * is later and the - 1 cannot go below it).  No further than cap.
 */
static inline int pick(const struct cursor *c, int n, uint64_t cap,
		       uint64_t *next)
{
	int bi = 0, i;

	if (n == 2) {	/* the usual machine, in two comparisons */
		bi = c[1].ts < c[0].ts;
		*next = bi ? c[0].ts - 1 : c[1].ts;
	} else {
		/* Few files: a scan per run beats keeping a heap. */
		for (i = 1; i < n; i++)
			if (c[i].ts < c[bi].ts)
				bi = i;
		*next = UINT64_MAX;
		for (i = 0; i < n; i++) {
			uint64_t lim = i < bi ? c[i].ts - 1 : c[i].ts;

			if (i != bi && lim < *next)
				*next = lim;
		}
	}
	if (*next > cap)
		*next = cap;
	return bi;
}

/*
 * Emits, in stamp order, the records in hand stamped up to horizon.  The
 * order is by (stamp, file index), so records stamped alike come out in
 * CPU order.  Each run is the consecutive records of one file that come
 * before the first record of any other file, so a reader that falls
 * behind one busy CPU hands over whole stretches at once; emit gets the
 * runs RUNS_MAX at a time.  With CPUs writing in turn most runs are one
 * record, so the loop keeps each file's next stamp at hand and reads
 * each record's header once.
 */
/*
 * One record at *p into the batch (short) or through emit; *p moves on,
 * *ts becomes the next one's stamp.  Inlined twice in merge2_batch, once
 * per file, so that both files' cursors stay in registers, and in
 * run_to_batch for any other number of files.
 */
static inline __attribute__((always_inline)) void
take(struct relay_batch *b, char **buf, size_t *len, size_t *lim, int cpu,
     const char **p, const char *end, uint64_t *ts, uint64_t horizon,
     relay_emit_fn emit, void *arg)
{
	const struct stp_relay_rec *r = (const void *)*p;
	uint32_t rl = r->len;
	size_t sz = sizeof(*r) + STP_RELAY_ALIGN(rl);

	if (rl <= 8 && !r->flags && *len <= *lim) {
		memcpy(*buf + *len, r + 1, 8);
		*len += rl;
	} else {
		struct relay_run run = { cpu, sz, *p };

		b->len = *len;
		emit(arg, &run, 1);
		*buf = b->buf;	/* a switch_file() may swap it */
		*len = b->len;
		*lim = b->cap - 8;
	}
	*p += sz;
	*ts = cursor_ts(*p, end, horizon);
}

/*
 * One run's records from p (see merge), record by record as take() puts
 * them, so that the output keeps their order.  Returns where the run
 * ends, and in *tsp the stamp of the record there.
 */
static inline const char *run_to_batch(struct relay_batch *b, int cpu, const char *p,
				const char *end, uint64_t next,
				uint64_t horizon, uint64_t *tsp,
				relay_emit_fn emit, void *arg)
{
	const char *start = p;
	char *buf = b->buf;
	size_t len = b->len, lim = b->cap - 8;
	uint64_t ts;

	do
		take(b, &buf, &len, &lim, cpu, &p, end, &ts, horizon, emit, arg);
	while (ts <= next);
	b->len = len;
	b->merged += p - start;
	*tsp = ts;
	return p;
}

/*
 * merge2_batch's file at the end of a range (records never span them):
 * through the cursor in memory to the next one.
 */
static void hop(const struct relay_file *f, struct cursor *c,
		struct relay_batch *b, uint64_t horizon, const char **p,
		const char **e, const char **s, uint64_t *t)
{
	b->merged += *p - *s;
	c->p = *p;
	c->ts = *t;
	next_range(f, c, horizon);
	*s = *p = c->p;
	*e = c->end;
	*t = c->ts;
}

/*
 * Two files into a batch, the usual machine: record by record, the
 * earlier head first (file 0's on a tie, as pick() orders them).  With
 * two CPUs writing in turn, runs are one record, and a run's setup cost
 * more than its record's copy; so does keeping the cursors in memory.
 */
static void merge2_batch(struct relay_in *in, struct cursor *c,
			 uint64_t horizon, struct relay_batch *b,
			 relay_emit_fn emit, void *arg)
{
	/* Locals: stores through buf could alias *b or *c. */
	char *buf = b->buf;
	size_t len = b->len, lim = b->cap - 8;
	const char *p0 = c[0].p, *e0 = c[0].end, *p1 = c[1].p, *e1 = c[1].end;
	const char *s0 = p0, *s1 = p1;	/* where each range began */
	uint64_t t0 = c[0].ts, t1 = c[1].ts;
	int cpu0 = in->files[0].cpu, cpu1 = in->files[1].cpu;

	for (;;) {
		if (t0 <= t1) {
			if (t0 == UINT64_MAX)
				break;
			take(b, &buf, &len, &lim, cpu0, &p0, e0, &t0, horizon,
			     emit, arg);
			if (t0 == UINT64_MAX && p0 == e0 && in->files[0].map)
				hop(&in->files[0], &c[0], b, horizon, &p0, &e0, &s0, &t0);
		} else {
			take(b, &buf, &len, &lim, cpu1, &p1, e1, &t1, horizon,
			     emit, arg);
			if (t1 == UINT64_MAX && p1 == e1 && in->files[1].map)
				hop(&in->files[1], &c[1], b, horizon, &p1, &e1, &s1, &t1);
		}
	}
	b->len = len;
	b->merged += (p0 - s0) + (p1 - s1);
	c[0].p = p0;
	c[0].ts = t0;
	c[1].p = p1;
	c[1].ts = t1;
}

/* Any number of files, run by run (see merge). */
static void merge_runs(struct relay_in *in, struct cursor *c,
		       uint64_t horizon, struct relay_batch *b,
		       relay_emit_fn emit, void *arg)
{
	const int n = in->n;	/* a local: emit() could change *in */
	struct relay_run runs[RUNS_MAX];
	/* A run stops at a file's end (stamp UINT64_MAX) even with no horizon. */
	uint64_t cap = horizon < UINT64_MAX ? horizon : UINT64_MAX - 1;
	int nruns = 0;

	for (;;) {
		uint64_t next, ts;
		const char *p, *start;
		int bi;

		bi = pick(c, n, cap, &next);
		if (c[bi].ts == UINT64_MAX)
			break;
		start = p = c[bi].p;
		if (b) {
			p = run_to_batch(b, in->files[bi].cpu, p, c[bi].end,
					 next, horizon, &ts, emit, arg);
		} else {
			do {
				p += sizeof(struct stp_relay_rec) +
				     STP_RELAY_ALIGN(((const struct stp_relay_rec *)p)->len);
				ts = cursor_ts(p, c[bi].end, horizon);
			} while (ts <= next);
			runs[nruns++] = (struct relay_run){ in->files[bi].cpu,
							    p - start, start };
		}
		c[bi].p = p;
		c[bi].ts = ts;
		/* Records never span ranges: a run ends at one's end. */
		if (p == c[bi].end && in->files[bi].map)
			next_range(&in->files[bi], &c[bi], horizon);
		if (nruns == RUNS_MAX) {
			emit(arg, runs, nruns);
			nruns = 0;
		}
	}
	if (nruns)
		emit(arg, runs, nruns);
}

static void merge(struct relay_in *in, uint64_t horizon,
		  struct relay_batch *b, relay_emit_fn emit, void *arg)
{
	const int n = in->n;	/* a local: emit() could change *in */
	struct cursor c[n];
	int i;

	for (i = 0; i < n; i++) {
		struct relay_file *f = &in->files[i];

		c[i].seg = 0;
		if (!f->map) {
			c[i].p = f->buf + f->start;
			c[i].end = f->buf + f->len;
		} else if (f->rr.n) {
			c[i].p = f->map + f->rr.r[0].off;
			c[i].end = c[i].p + f->rr.r[0].len;
		} else {
			c[i].p = c[i].end = NULL;
		}
		c[i].ts = cursor_ts(c[i].p, c[i].end, horizon);
	}
	if (b && n == 2)
		merge2_batch(in, c, horizon, b, emit, arg);
	else
		merge_runs(in, c, horizon, b, emit, arg);
	for (i = 0; i < n; i++) {
		struct relay_file *f = &in->files[i];
		uint64_t done = 0;

		if (!f->map) {
			f->start = c[i].p - f->buf;
			continue;
		}
		if (!f->rr.n)
			continue;
		for (unsigned int k = 0; k < c[i].seg; k++)
			done += f->rr.r[k].len;
		f->done = done + (c[i].p - (f->map + f->rr.r[c[i].seg].off));
		/*
		 * Hand what was printed back now, not at the next pass: for
		 * the writers, for poll() (which reports a file ready while
		 * the reader holds a finished sub-buffer), and so that a
		 * reader that stops here (-L, killed) leaves nothing printed
		 * for the next one (-A) to print again.
		 */
		if (f->done) {
			f->rr.done = f->done;
			if (ioctl(f->fd, STP_RELAY_IOC_RANGES, &f->rr) == 0)
				f->done = 0;
			f->rr.n = 0;
		}
	}
}

int relay_in_read(struct relay_in *in, bool all, struct relay_batch *b,
		  relay_emit_fn emit, void *arg)
{
	bool more;

	do {
		uint64_t horizon = UINT64_MAX;
		int i, ret;

		more = false;
		for (i = 0; i < in->n; i++) {
			struct relay_file *f = &in->files[i];
			uint64_t h;

			ret = fill(f);
			if (ret)
				return ret;
			h = f->map ? f->rr.now : f->now;
			if (!all && h != UINT64_MAX) {
				h = h > CLOCK_MARGIN_NS ? h - CLOCK_MARGIN_NS : 0;
				if (h < horizon)
					horizon = h;
			}
			if (f->more) {
				uint64_t below = complete_below(f);

				more = true;
				if (!below)
					horizon = 0;	/* not even a header */
				else if (below - 1 < horizon)
					horizon = below - 1;
			}
		}
		merge(in, horizon, b, emit, arg);
		/* Once the writers have stopped, read to the end. */
	} while (all && more);
	return more;
}
