// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Statistics (x <<< v): per-CPU accumulation, merging for readers, the
 * extractors @count ... @variance, and SystemTap's ASCII histograms.
 *
 * A statistic is updated on the hot path of every probe hit, so each CPU
 * adds into its own copy with no shared cache line and no lock beyond the
 * global's read lock; the price is paid by readers, which merge all CPUs
 * under the write lock.
 */
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "stp_internal.h"
#include "map_internal.h"

/* A scalar statistics global. */
struct stp_stat_var {
	struct stp_hist_spec hist;
	void **pcpu;			/* this CPU's struct stp_stat */
	struct stp_stat *agg;		/* merged by _stp_stat_get */
};

/* ---- shape and storage ---- */

int _stp_hist_nbuckets(const struct stp_hist_spec *h)
{
	u64 n;

	if (!h)
		return 0;
	switch (h->kind) {
	case STP_HIST_NONE:
		return 0;
	case STP_HIST_LOG:
		return STP_HIST_LOG_BUCKETS;
	case STP_HIST_LINEAR:
		if (h->interval <= 0 || h->stop < h->start)
			return -1;
		/* Unsigned: stop - start may not fit in an int64_t. */
		n = div64_u64((u64)h->stop - (u64)h->start, h->interval) + 1;
		if (n > STP_HIST_LINEAR_MAX_BUCKETS)
			return -1;
		return n + 2;		/* + underflow and overflow */
	}
	return -1;
}

int _stp_stat_hist_buckets(const struct stp_hist_spec *h)
{
	int n = _stp_hist_nbuckets(h);

	return n > 0 ? n : 0;
}

size_t _stp_stat_bytes(int nbuckets)
{
	return ALIGN(struct_size((struct stp_stat *)NULL, hist, nbuckets), 8);
}

void _stp_stat_reset(struct stp_stat *st, u32 nbuckets, u32 shift)
{
	memset(st, 0, _stp_stat_bytes(nbuckets));
	st->nbuckets = nbuckets;
	st->shift = shift;
}

void **_stp_pcpu_alloc(size_t bytes)
{
	void **pcpu;
	int cpu;

	pcpu = kcalloc(nr_cpu_ids, sizeof(*pcpu), GFP_KERNEL);
	if (!pcpu)
		return NULL;
	for_each_possible_cpu(cpu) {
		/* Node-local: only that CPU writes it on the hot path. */
		pcpu[cpu] = kvzalloc_node(bytes, GFP_KERNEL, cpu_to_node(cpu));
		if (!pcpu[cpu]) {
			_stp_pcpu_free(pcpu);
			return NULL;
		}
	}
	_stp_alloc_note(nr_cpu_ids * sizeof(*pcpu) + num_possible_cpus() * bytes);
	return pcpu;
}

void _stp_pcpu_free(void **pcpu)
{
	int cpu;

	if (!pcpu)
		return;
	for_each_possible_cpu(cpu)
		kvfree(pcpu[cpu]);
	kfree(pcpu);
}

static u32 spec_shift(const struct stp_hist_spec *h)
{
	return h ? min_t(u32, h->variance_shift, 62) : 0;
}

/* ---- accumulation ---- */

/* SystemTap's bucket numbering; see _stp_stat_hist_count in stp_map.h. */
static u32 hist_bucket(const struct stp_hist_spec *h, u32 nbuckets, int64_t v)
{
	u64 i;

	if (h->kind == STP_HIST_LOG) {
		if (v == 0)
			return STP_HIST_LOG_ZERO;
		if (v > 0)
			return STP_HIST_LOG_ZERO + 1 + __fls(v);
		/* -v in unsigned, so INT64_MIN lands in bucket 0. */
		return STP_HIST_LOG_ZERO - 1 - __fls(-(u64)v);
	}
	if (v < h->start)
		return 0;
	i = div64_u64((u64)v - (u64)h->start, h->interval);
	return i < nbuckets - 2 ? i + 1 : nbuckets - 1;
}

void _stp_stat_accumulate(struct stp_stat *st, const struct stp_hist_spec *h,
			  int64_t v)
{
	/* Shifts and overflowing sums wrap like SystemTap's (kernel C). */
	int64_t vs = (int64_t)((u64)v << st->shift);
	int64_t delta;

	if (!st->count || v < st->min)
		st->min = v;
	if (!st->count || v > st->max)
		st->max = v;
	st->count++;
	st->sum = (int64_t)((u64)st->sum + (u64)v);
	/* Welford, truncating: see struct stp_stat. */
	delta = vs - st->avg_s;
	st->avg_s += div64_s64(delta, st->count);
	st->m2_s += delta * (vs - st->avg_s);
	if (st->nbuckets)
		st->hist[hist_bucket(h, st->nbuckets, v)]++;
}

void _stp_stat_aggregate(struct stp_stat *agg, void *const *pcpu,
			 size_t offset)
{
	const struct stp_stat *p;
	u32 i, nb = agg->nbuckets;
	int cpu;

	_stp_stat_reset(agg, nb, agg->shift);
	for_each_possible_cpu(cpu) {
		p = pcpu[cpu] + offset;
		if (!p->count)
			continue;
		if (!agg->count || p->min < agg->min)
			agg->min = p->min;
		if (!agg->count || p->max > agg->max)
			agg->max = p->max;
		agg->count += p->count;
		agg->sum += p->sum;
		for (i = 0; i < nb; i++)
			agg->hist[i] += p->hist[i];
	}
	if (!agg->count)
		return;
	/*
	 * Pool the per-CPU Welford results around the overall mean: each CPU
	 * adds its own M2 plus n_i * (mean_i - mean)^2.  The overall mean is
	 * taken from the exact sum, so the per-CPU truncation shows up here,
	 * exactly as in SystemTap's documented example.
	 */
	agg->avg_s = div64_s64((int64_t)((u64)agg->sum << agg->shift),
			       agg->count);
	for_each_possible_cpu(cpu) {
		int64_t d;

		p = pcpu[cpu] + offset;
		if (!p->count)
			continue;
		d = p->avg_s - agg->avg_s;
		agg->m2_s += p->m2_s + p->count * d * d;
	}
}

/* ---- scalar statistics globals ---- */

struct stp_stat_var *_stp_stat_new(const struct stp_hist_spec *h)
{
	struct stp_hist_spec none = { .kind = STP_HIST_NONE };
	struct stp_stat_var *sv;
	int nb, cpu;

	if (!h)
		h = &none;
	nb = _stp_hist_nbuckets(h);
	if (nb < 0)
		return NULL;
	sv = kzalloc(sizeof(*sv), GFP_KERNEL);
	if (!sv)
		return NULL;
	sv->hist = *h;
	sv->pcpu = _stp_pcpu_alloc(_stp_stat_bytes(nb));
	sv->agg = kvzalloc(_stp_stat_bytes(nb), GFP_KERNEL);
	if (sv->agg)
		_stp_alloc_note(sizeof(*sv) + _stp_stat_bytes(nb));
	if (!sv->pcpu || !sv->agg) {
		_stp_stat_free(sv);
		return NULL;
	}
	for_each_possible_cpu(cpu)
		_stp_stat_reset(sv->pcpu[cpu], nb, spec_shift(h));
	_stp_stat_reset(sv->agg, nb, spec_shift(h));
	return sv;
}

void _stp_stat_free(struct stp_stat_var *sv)
{
	if (!sv)
		return;
	_stp_pcpu_free(sv->pcpu);
	kvfree(sv->agg);
	kfree(sv);
}

void _stp_stat_add(struct stp_stat_var *sv, int64_t v)
{
	/* Probe context: preemption is off, so this CPU cannot change. */
	_stp_stat_accumulate(sv->pcpu[smp_processor_id()], &sv->hist, v);
}

const struct stp_stat *_stp_stat_get(struct stp_stat_var *sv)
{
	_stp_stat_aggregate(sv->agg, sv->pcpu, 0);
	return sv->agg;
}

void _stp_stat_clear(struct stp_stat_var *sv)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct stp_stat *st = sv->pcpu[cpu];

		_stp_stat_reset(st, st->nbuckets, st->shift);
	}
	_stp_stat_reset(sv->agg, sv->agg->nbuckets, sv->agg->shift);
}

/* ---- extractors ---- */

int64_t _stp_stat_value(const struct stp_stat *st, enum stp_stat_op op)
{
	if (!st || !st->count)
		return 0;
	switch (op) {
	case STP_STAT_COUNT:
		return st->count;
	case STP_STAT_SUM:
		return st->sum;
	case STP_STAT_MIN:
		return st->min;
	case STP_STAT_MAX:
		return st->max;
	case STP_STAT_AVG:
		return div64_s64(st->sum, st->count);
	case STP_STAT_VARIANCE:
		/*
		 * Sample variance M2 / (n - 1), scaled back down by the shift
		 * the values were scaled up with.
		 */
		if (st->count < 2)
			return 0;
		return div64_s64(st->m2_s, st->count - 1) >>
		       min_t(u32, 2 * st->shift, 63);
	}
	return 0;
}

int64_t _stp_stat_extract(struct stp_context *c, const struct stp_stat *st,
			  enum stp_stat_op op, int variance_shift)
{
	/*
	 * variance_shift is not needed: the statistic was accumulated with
	 * its spec's shift, which is the only one that gives a meaning.
	 */
	(void)variance_shift;
	/* @sum of nothing is 0 since SystemTap 1.5; the rest are errors. */
	if (op != STP_STAT_COUNT && op != STP_STAT_SUM && (!st || !st->count)) {
		_stp_error(c, "empty aggregate");
		return 0;
	}
	return _stp_stat_value(st, op);
}

int64_t _stp_stat_hist_count(struct stp_context *c, const struct stp_stat *st,
			     int64_t i)
{
	if (!st || !st->count) {
		_stp_error(c, "empty aggregate");
		return 0;
	}
	if (i < 0 || i >= st->nbuckets) {
		_stp_error(c, "histogram index out of range");
		return 0;
	}
	return st->hist[i];
}

/* ---- histogram printing ---- */

/*
 * The layout reproduces SystemTap byte for byte.  References, all from
 * SystemTap's testsuite/systemtap.maps (expected outputs, compared line
 * by line by the suite): linear.exp, linear_under.exp, linear_over.exp,
 * linear_overunder.exp, linear_large.exp, linear_large_neg.exp,
 * linear_nearlyempty.exp, hist_in_string.exp, log.exp, log_edge.exp,
 * ix_hist.exp, elision.exp (HIST_ELISION -1..3), and the examples in the
 * Language Reference (langref, "@hist_linear", "@hist_log").  What they
 * show:
 *
 *   value |-------------------------------------------------- count
 *       0 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@       177
 *      50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@         170
 *         ~
 *
 * - the value column is right-aligned, as wide as the widest label
 *   among the rows in the printed range (elided ones included), at
 *   least as wide as "value";
 * - the bar column is 50 wide; a bucket gets count / scale '@'s where
 *   scale = ceil(max / 50) (1 when max <= 50), max being the largest
 *   bucket count;
 * - the count is right-aligned to the width of the largest count;
 * - the range printed runs from two buckets below the lowest non-empty
 *   bucket to two above the highest; it never grows into the underflow
 *   or overflow bucket of a linear histogram (those rows, "<start" and
 *   ">stop", appear only when non-empty), and for a log histogram it
 *   does not grow below the 0 bucket from above (no negative rows
 *   unless there are negative samples);
 * - runs of empty buckets are elided with a '~' under the '|': a run
 *   between two non-empty buckets keeps HIST_ELISION buckets on each
 *   side when it is longer than 2 * HIST_ELISION; a leading run keeps
 *   the last HIST_ELISION buckets when it is longer than that; a
 *   trailing run keeps its first HIST_ELISION and shows no '~'; a
 *   negative HIST_ELISION disables elision;
 * - an empty line ends the histogram.
 */
#define HIST_BAR 50
#define HIST_LABEL 24		/* "<-9223372036854775808" and NUL */

static int hist_label(char *buf, const struct stp_hist_spec *h, u32 nb,
		      u32 b)
{
	int64_t v;

	if (h->kind == STP_HIST_LOG) {
		if (b == STP_HIST_LOG_ZERO)
			v = 0;
		else if (b > STP_HIST_LOG_ZERO)
			v = 1LL << (b - STP_HIST_LOG_ZERO - 1);
		else
			v = (int64_t)(-(1ULL << (STP_HIST_LOG_ZERO - 1 - b)));
		return scnprintf(buf, HIST_LABEL, "%lld", v);
	}
	if (b == 0)
		return scnprintf(buf, HIST_LABEL, "<%lld", h->start);
	if (b == nb - 1)
		return scnprintf(buf, HIST_LABEL, ">%lld", h->stop);
	v = (int64_t)((u64)h->start + (u64)(b - 1) * (u64)h->interval);
	return scnprintf(buf, HIST_LABEL, "%lld", v);
}

struct hist_fmt {
	const struct stp_hist_spec *h;
	const struct stp_stat *st;
	int label_w, count_w;
	int64_t scale;
};

static void hist_row(struct stp_context *c, const struct hist_fmt *f, u32 b)
{
	char label[HIST_LABEL], bar[HIST_BAR + 1];
	int64_t n = f->st->hist[b];
	int at = div64_s64(n, f->scale);

	hist_label(label, f->h, f->st->nbuckets, b);
	memset(bar, '@', at);
	memset(bar + at, ' ', HIST_BAR - at);
	bar[HIST_BAR] = '\0';
	_stp_printf(c, "%*s |%s %*lld\n", f->label_w, label, bar, f->count_w,
		    n);
}

static void hist_rows(struct stp_context *c, const struct hist_fmt *f,
		      u32 from, u32 to)
{
	u32 b;

	for (b = from; b <= to; b++)
		hist_row(c, f, b);
}

static void hist_tilde(struct stp_context *c, const struct hist_fmt *f)
{
	_stp_printf(c, "%*s ~\n", f->label_w, "");
}

static int num_width(int64_t v)
{
	char buf[HIST_LABEL];

	return scnprintf(buf, sizeof(buf), "%lld", v);
}

void _stp_stat_print_hist(struct stp_context *c, const struct stp_stat *st,
			  const struct stp_hist_spec *h)
{
	const int keep = HIST_ELISION;
	struct hist_fmt f = { .h = h, .st = st, .label_w = 5 };
	char label[HIST_LABEL];
	u32 nb, lo, hi, b, end;
	int64_t max = 0;
	int i;

	if (!st || !st->count) {
		_stp_error(c, "empty aggregate");
		return;
	}
	nb = st->nbuckets;
	if (!h || !nb || _stp_hist_nbuckets(h) != nb) {
		_stp_error(c, "histogram type mismatch");
		return;
	}

	for (lo = 0; lo < nb && !st->hist[lo]; lo++)
		;
	for (hi = nb - 1; hi > lo && !st->hist[hi]; hi--)
		;
	if (lo == nb)
		return;		/* cannot happen: count > 0 */
	for (i = 0; i < 2; i++) {
		if (h->kind == STP_HIST_LOG) {
			if (lo != STP_HIST_LOG_ZERO && lo > 0)
				lo--;
			if (hi < nb - 1)
				hi++;
		} else {
			if (lo > 1)
				lo--;
			if (hi + 2 < nb)
				hi++;
		}
	}

	for (b = lo; b <= hi; b++) {
		f.label_w = max(f.label_w, hist_label(label, h, nb, b));
		max = max(max, st->hist[b]);
	}
	f.count_w = num_width(max);
	f.scale = max > HIST_BAR ? div64_s64(max + HIST_BAR - 1, HIST_BAR) : 1;

	_stp_printf(c, "%*s |%.*s count\n", f.label_w, "value", HIST_BAR,
		    "--------------------------------------------------");

	for (b = lo; b <= hi; b = end + 1) {
		u32 run;

		if (st->hist[b]) {
			hist_row(c, &f, b);
			end = b;
			continue;
		}
		for (end = b; end < hi && !st->hist[end + 1]; end++)
			;
		run = end - b + 1;
		if (keep < 0) {
			hist_rows(c, &f, b, end);
		} else if (b == lo) {
			/* Leading: the last 'keep' empty rows before data. */
			if (run > keep) {
				hist_tilde(c, &f);
				if (keep)
					hist_rows(c, &f, end - keep + 1, end);
			} else {
				hist_rows(c, &f, b, end);
			}
		} else if (end == hi) {
			/* Trailing: the first 'keep', no '~'. */
			if (keep)
				hist_rows(c, &f, b, b + min_t(u32, run, keep) - 1);
		} else if (run > 2 * keep) {
			if (keep)
				hist_rows(c, &f, b, b + keep - 1);
			hist_tilde(c, &f);
			if (keep)
				hist_rows(c, &f, end - keep + 1, end);
		} else {
			hist_rows(c, &f, b, end);
		}
	}
	_stp_print_char(c, '\n');
}
