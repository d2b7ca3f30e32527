// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a session's output goes (staprun(8) -o, -S, bulk mode): an output
 * object with three implementations behind one interface, so that the
 * session loop never asks which one it has.
 *
 *   stream  stdout, or -o FILE (strftime(3) conversions expanded)
 *   rotate  -o FILE -S SIZE[,N]: FILE.0, FILE.1, ... each up to SIZE MB;
 *           with N, only the newest N are kept
 *   percpu  bulk mode (stap -b): FILE_K, or stpd_cpuK without -o, one
 *           file per CPU holding its raw records (header and payload) for
 *           stap-merge to put back in time order
 *
 * switch_file() marks (STP_RELAY_SWITCH_FILE records) and staprun's
 * SIGUSR2 (output_switch()) move a rotating output on to its next file,
 * and -o FILE's stream on to FILE.1, FILE.2, ... (the numbers rotation
 * would give); stdout and bulk files stay.
 *
 * Every stream batches its writes.  Write errors are reported once, here;
 * a closed pipe (stap ... | head) is quiet: the caller just stops.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "staprun.h"
#include "stp_ctl.h"
#include "util.h"

#define OUT_CHUNK (64 * 1024)

struct stream {
	int fd;
	char *path;		/* NULL: stdout */
	struct relay_batch b;	/* bytes not yet written */
	unsigned long long written;	/* bytes in this file so far */
};

struct output_ops {
	/* Runs of whole records (relay_emit_fn). */
	int (*write)(struct output *o, const struct relay_run *runs, int n);
	int (*flush)(struct output *o);
};

struct output {
	const struct output_ops *ops;
	struct output_cfg cfg;
	struct stream *streams;
	int nstreams;
	/* rotate */
	unsigned int seq;	/* number of the current file */
	bool broken;		/* a write failed: say nothing more */
};

static int stream_open(struct stream *st, char *path)
{
	memset(st, 0, sizeof(*st));
	st->b.buf = xmalloc(OUT_CHUNK + 8);	/* + 8: see plain_write() */
	st->b.cap = OUT_CHUNK;
	st->path = path;
	if (!path) {
		st->fd = STDOUT_FILENO;
		return 0;
	}
	st->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (st->fd < 0) {
		int ret = -errno;

		util_err("output: cannot open %s: %s", path, strerror(-ret));
		return ret;
	}
	return 0;
}

static int stream_flush(struct output *o, struct stream *st)
{
	const char *p = st->b.buf;

	while (st->b.len && !o->broken) {
		ssize_t n = write(st->fd, p, st->b.len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			o->broken = true;
			/* A closed pipe (stap ... | head) is no news. */
			if (ret != -EPIPE)
				util_err("output: cannot write %s: %s",
					 st->path ? st->path : "stdout",
					 strerror(-ret));
			return ret;
		}
		p += n;
		st->b.len -= n;
		st->written += n;
	}
	st->b.len = 0;
	return o->broken ? -EIO : 0;
}

static int stream_put(struct output *o, struct stream *st, const void *data,
		      size_t len)
{
	int ret;

	if (st->b.len + len > OUT_CHUNK) {
		ret = stream_flush(o, st);
		if (ret)
			return ret;
	}
	if (len > OUT_CHUNK) {	/* bigger than a batch: straight through */
		const char *keep = st->b.buf;

		st->b.buf = (char *)data;
		st->b.len = len;
		ret = stream_flush(o, st);
		st->b.buf = (char *)keep;
		return ret;
	}
	memcpy(st->b.buf + st->b.len, data, len);
	st->b.len += len;
	return 0;
}

static int stream_close(struct output *o, struct stream *st)
{
	int ret = stream_flush(o, st);

	if (st->path && st->fd >= 0 && close(st->fd) < 0 && !ret) {
		ret = -errno;
		util_err("output: cannot write %s: %s", st->path,
			 strerror(-ret));
	}
	free(st->b.buf);
	free(st->path);
	return ret;
}

/* ---- stream: stdout or one file ---- */

static int next_file(struct output *o);

/* The record at *p; *p moves on to the next one. */
static const struct stp_relay_rec *next_rec(const char **p)
{
	const struct stp_relay_rec *r = (const void *)*p;

	*p += sizeof(*r) + STP_RELAY_ALIGN(r->len);
	return r;
}

static int plain_write(struct output *o, const struct relay_run *runs, int n)
{
	struct stream *st = &o->streams[0];
	const char *p = runs->recs, *end = p + runs->len;
	int ret;

	for (;;) {
		const struct stp_relay_rec *r;

		if (p == end) {
			if (!--n)
				return 0;
			runs++;
			p = runs->recs;
			end = p + runs->len;
		}
		r = next_rec(&p);

		/*
		 * The common case, a short line: one 8-byte copy (payloads
		 * are padded to 8, and the batch has 8 bytes to spare).
		 */
		if (r->len <= 8 && st->b.len + r->len <= OUT_CHUNK && !r->flags) {
			memcpy(st->b.buf + st->b.len, r + 1, 8);
			st->b.len += r->len;
			continue;
		}
		if (r->flags & STP_RELAY_SWITCH_FILE)
			ret = o->cfg.path ? next_file(o) : 0;
		else
			ret = stream_put(o, st, r + 1, r->len);
		if (ret)
			return ret;
	}
}

static int all_flush(struct output *o)
{
	int ret = 0;

	for (int i = 0; i < o->nstreams && !ret; i++)
		ret = stream_flush(o, &o->streams[i]);
	return ret;
}

static const struct output_ops plain_ops = { plain_write, all_flush };

/* ---- rotate: FILE.0, FILE.1, ... ---- */

static char *rotate_path(const struct output *o, unsigned int seq)
{
	char *base = util_output_path(o->cfg.path), *p;

	p = xasprintf("%s.%u", base, seq);
	free(base);
	return p;
}

/* Close the current file and go on in FILE.<seq + 1>, keeping the newest N. */
static int next_file(struct output *o)
{
	struct stream *st = &o->streams[0];
	int ret;

	ret = stream_close(o, st);
	if (ret)
		return ret;
	o->seq++;
	if (o->cfg.rotate_keep && o->seq >= o->cfg.rotate_keep) {
		char *old = rotate_path(o, o->seq - o->cfg.rotate_keep);

		if (unlink(old) < 0 && errno != ENOENT)
			util_err("output: cannot remove %s: %s", old,
				 strerror(errno));
		free(old);
	}
	ret = stream_open(st, rotate_path(o, o->seq));
	if (ret) {
		o->broken = true;
		st->path = NULL;	/* nothing to close */
		st->fd = -1;
	}
	return ret;
}

static int rotate_one(struct output *o, const struct stp_relay_rec *r)
{
	struct stream *st = &o->streams[0];
	int ret;

	if (r->flags & STP_RELAY_SWITCH_FILE)
		return next_file(o);
	/* A record goes whole into the next file rather than past SIZE. */
	if (st->written + st->b.len && st->written + st->b.len + r->len > o->cfg.rotate_bytes) {
		ret = next_file(o);
		if (ret)
			return ret;
	}
	return stream_put(o, st, r + 1, r->len);
}

static int rotate_write(struct output *o, const struct relay_run *runs, int n)
{
	int ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		const char *p = runs[i].recs, *end = p + runs[i].len;

		while (p < end && !ret)
			ret = rotate_one(o, next_rec(&p));
	}
	return ret;
}

static const struct output_ops rotate_ops = { rotate_write, all_flush };

/* ---- percpu: bulk mode's raw per-CPU files ---- */

static int percpu_write(struct output *o, const struct relay_run *runs, int n)
{
	int ret = 0;

	for (int i = 0; i < n && !ret; i++) {
		int cpu = runs[i].cpu;

		ret = stream_put(o, &o->streams[cpu < o->nstreams ? cpu : 0],
				 runs[i].recs, runs[i].len);
	}
	return ret;
}

static const struct output_ops percpu_ops = { percpu_write, all_flush };

struct output *output_open(const struct output_cfg *cfg, const int *cpus,
			   int ncpus)
{
	struct output *o = xcalloc(1, sizeof(*o));
	int i, ret = 0;

	o->cfg = *cfg;
	if (cfg->bulk) {
		o->ops = &percpu_ops;
		o->nstreams = ncpus;
		o->streams = xcalloc(ncpus, sizeof(*o->streams));
		for (i = 0; i < ncpus && !ret; i++) {
			/* staprun(8): FILE_N, or stpd_cpuN without -o. */
			char *base = cfg->path ? util_output_path(cfg->path) : NULL;

			ret = stream_open(&o->streams[i], base ?
					  xasprintf("%s_%d", base, cpus[i]) :
					  xasprintf("stpd_cpu%d", cpus[i]));
			free(base);
			if (ret)
				o->nstreams = i + 1;	/* the ones to close */
		}
	} else {
		o->ops = cfg->rotate_bytes ? &rotate_ops : &plain_ops;
		o->nstreams = 1;
		o->streams = xcalloc(1, sizeof(*o->streams));
		ret = stream_open(&o->streams[0],
				  cfg->rotate_bytes ? rotate_path(o, 0) :
				  cfg->path ? util_output_path(cfg->path) : NULL);
	}
	if (ret) {
		output_close(o);
		return NULL;
	}
	return o;
}

int output_write(struct output *o, const struct relay_run *runs, int n)
{
	if (n <= 0)
		return 0;
	return o->broken ? -EIO : o->ops->write(o, runs, n);
}

int output_flush(struct output *o)
{
	return o->broken ? -EIO : o->ops->flush(o);
}

struct relay_batch *output_batch(struct output *o)
{
	/* Rotation counts bytes per file, bulk keeps whole records. */
	return o->ops == &plain_ops ? &o->streams[0].b : NULL;
}

int output_switch(struct output *o)
{
	if (o->broken || o->ops == &percpu_ops || !o->cfg.path)
		return 0;
	return next_file(o);
}

bool output_broken(const struct output *o)
{
	return o->broken;
}

int output_close(struct output *o)
{
	int ret = 0;

	for (int i = 0; i < o->nstreams; i++) {
		int r = stream_close(o, &o->streams[i]);

		if (!ret)
			ret = r;
	}
	free(o->streams);
	free(o);
	return ret;
}
