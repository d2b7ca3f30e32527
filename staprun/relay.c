// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the module's per-CPU data files (trace0..traceN) back into one
 * stream, in the order the writes happened.
 *
 * Each record carries the CLOCK_MONOTONIC time at which its CPU's writer
 * held that buffer's lock (runtime/relay.c).  Within a file the stamps
 * rise.  Across files we need a horizon: a time H such that no record
 * stamped at or before H can still arrive.  We take H from the clock
 * before reading; every read then takes the buffer's lock after H, so a
 * write not yet in the buffer takes the lock after our read and is
 * stamped later than H.  So after one pass over all files, every record
 * stamped up to H is in hand, and printing those in stamp order is
 * exact.  Later ones wait for the next pass.  The kernel's NMI-safe clock
 * may lag the one we read by a little, hence a margin.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "staprun.h"
#include "stp_ctl.h"
#include "util.h"

#define READ_CHUNK (256 * 1024)
#define FILL_MAX (4 * READ_CHUNK)	/* per file per pass */
#define HORIZON_MARGIN_NS 2000000ULL	/* 2 ms */

struct relay_file {
	int fd;
	int cpu;
	char *buf;		/* bytes read, not yet printed */
	size_t start, len, cap;	/* unprinted bytes are buf[start, len) */
	bool more;		/* the last fill() stopped before the end */
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

	f->more = false;
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
	struct timespec ts = { 0, HORIZON_MARGIN_NS };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * For a file fill() left unfinished, the stamp below which its records
 * are all in hand: those still unread are stamped no earlier than the
 * last header we have (one write split in pieces shares a stamp).
 */
static uint64_t complete_below(const struct relay_file *f)
{
	size_t at = f->start;
	uint64_t ts = 0;

	while (at + sizeof(struct stp_relay_rec) <= f->len) {
		const struct stp_relay_rec *r = (const void *)(f->buf + at);

		ts = r->ts;
		at += sizeof(*r) + STP_RELAY_ALIGN(r->len);
	}
	return ts;
}

#define RUNS_MAX 64	/* runs per emit call */

/* Where merge() is in one file: its next record, stamped ts. */
struct cursor {
	const char *p, *end;	/* end: of the bytes in hand */
	uint64_t ts;		/* UINT64_MAX: no whole record up to horizon */
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
static void merge(struct relay_in *in, uint64_t horizon, relay_emit_fn emit,
		  void *arg)
{
	const int n = in->n;	/* a local: emit() could change *in */
	struct cursor c[n];
	struct relay_run runs[RUNS_MAX];
	/* A run stops at a file's end (stamp UINT64_MAX) even with no horizon. */
	uint64_t cap = horizon < UINT64_MAX ? horizon : UINT64_MAX - 1;
	int i, nruns = 0;

	for (i = 0; i < n; i++) {
		struct relay_file *f = &in->files[i];

		c[i].p = f->buf + f->start;
		c[i].end = f->buf + f->len;
		c[i].ts = cursor_ts(c[i].p, c[i].end, horizon);
	}
	for (;;) {
		uint64_t next, ts;
		const char *p, *start;
		int bi;

		bi = pick(c, n, cap, &next);
		if (c[bi].ts == UINT64_MAX)
			break;
		start = p = c[bi].p;
		do {
			p += sizeof(struct stp_relay_rec) +
			     STP_RELAY_ALIGN(((const struct stp_relay_rec *)p)->len);
			ts = cursor_ts(p, c[bi].end, horizon);
		} while (ts <= next);
		c[bi].p = p;
		c[bi].ts = ts;
		runs[nruns++] = (struct relay_run){ in->files[bi].cpu, p - start,
						    start };
		if (nruns == RUNS_MAX) {
			emit(arg, runs, nruns);
			nruns = 0;
		}
	}
	if (nruns)
		emit(arg, runs, nruns);
	for (i = 0; i < n; i++)
		in->files[i].start = c[i].p - in->files[i].buf;
}

int relay_in_read(struct relay_in *in, bool all, relay_emit_fn emit,
		  void *arg)
{
	bool more;

	do {
		uint64_t horizon = all ? UINT64_MAX :
			now_ns() - HORIZON_MARGIN_NS;
		int i, ret;

		more = false;
		for (i = 0; i < in->n; i++) {
			ret = fill(&in->files[i]);
			if (ret)
				return ret;
			if (in->files[i].more) {
				uint64_t below = complete_below(&in->files[i]);

				more = true;
				if (!below)
					horizon = 0;	/* not even a header */
				else if (below - 1 < horizon)
					horizon = below - 1;
			}
		}
		merge(in, horizon, emit, arg);
		/* Once the writers have stopped, read to the end. */
	} while (all && more);
	return more;
}
