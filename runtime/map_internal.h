/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private to map.c and stat.c: the layout of a statistic and the helpers
 * both use.  Generated code sees only the opaque types of stp_map.h.
 */
#ifndef STP_MAP_INTERNAL_H
#define STP_MAP_INTERNAL_H

#include <linux/types.h>
#include "stp_map.h"

/* @hist_log buckets: 64 negative powers of two, zero, 63 positive. */
#define STP_HIST_LOG_BUCKETS 128
#define STP_HIST_LOG_ZERO 64		/* the bucket of the value 0 */

/*
 * Linear histograms larger than this are refused at load time; the
 * translator should reject them first with a message naming the script.
 */
#define STP_HIST_LINEAR_MAX_BUCKETS (1 << 20)

/*
 * One statistic.  Each CPU accumulates into its own copy; readers merge
 * the copies into an aggregate of the same layout.
 *
 * @variance follows SystemTap (stap(1), "Variance uses Welford's online
 * algorithm"): every CPU runs Welford's update in integer arithmetic on
 * values scaled up by 2^shift, and the merge pools the per-CPU results.
 * Integer truncation makes small shifts visibly imprecise, and that
 * imprecision is part of the documented behaviour we reproduce
 * (1..5 gives 12 with shift 0 and 2 with shift 1).
 */
struct stp_stat {
	int64_t count;
	int64_t sum;
	int64_t min, max;
	int64_t avg_s;		/* running mean << shift (per CPU) */
	int64_t m2_s;		/* sum of squared deviations << 2*shift */
	u32 shift;		/* @variance's bit shift, 0..62 */
	u32 nbuckets;		/* entries in hist[] */
	int64_t hist[];		/* bucket counts, see _stp_hist_bucket() */
};

/* Bucket count of a histogram spec (0 for none, -1 if invalid). */
int _stp_hist_nbuckets(const struct stp_hist_spec *h);
/* Bytes of one struct stp_stat with its histogram, 8-byte aligned. */
size_t _stp_stat_bytes(int nbuckets);
/* Empty the statistic, keeping its shape. */
void _stp_stat_reset(struct stp_stat *st, u32 nbuckets, u32 shift);
/* st <<< v, on this CPU's copy (the caller owns st exclusively). */
void _stp_stat_accumulate(struct stp_stat *st, const struct stp_hist_spec *h,
			  int64_t v);
/* The value foreach sorts a statistics array by (0 for an empty one). */
int64_t _stp_stat_value(const struct stp_stat *st, enum stp_stat_op op);
/*
 * Merge the per-CPU copies at pcpu[cpu] + offset (possible CPUs) into
 * agg.  The caller holds the global's write lock, so no CPU is adding.
 */
void _stp_stat_aggregate(struct stp_stat *agg, void *const *pcpu,
			 size_t offset);

/* Per-CPU arrays of @bytes each, zeroed; NULL on failure. */
void **_stp_pcpu_alloc(size_t bytes);
void _stp_pcpu_free(void **pcpu);

#endif /* STP_MAP_INTERNAL_H */
