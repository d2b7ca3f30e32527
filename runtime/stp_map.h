/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Associative arrays, statistics and global-variable locks: the interface
 * generated code uses (through stp_runtime.h, which includes this).
 *
 * Everything is preallocated when the module loads (_stp_map_new,
 * _stp_stat_new from stp_script_init); nothing here allocates or sleeps
 * in probe context.  Callers hold the global's lock (_stp_lock_globals)
 * around every call, except _stp_map_stat_add/_stp_stat_add, which only
 * need the lock for reading: statistics are per CPU and combined when
 * read.
 */
#ifndef STP_MAP_H
#define STP_MAP_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>

#define STP_MAX_KEYS 9

enum stp_type {
	STP_LONG = 1,
	STP_STRING = 2,
	STP_STAT = 3,
};

/* One key as the caller passes it; the map copies strings it keeps. */
union stp_key {
	int64_t l;
	const char *s;
};

enum stp_hist_kind {
	STP_HIST_NONE,
	STP_HIST_LINEAR,	/* @hist_linear(v, start, stop, interval) */
	STP_HIST_LOG,		/* @hist_log(v) */
};

/*
 * How a statistic accumulates: its histogram, and @variance's bit shift.
 * The shift scales values while they are added (SystemTap allows one
 * shift per global for that reason), so it lives here rather than only
 * in _stp_stat_extract's argument.
 */
struct stp_hist_spec {
	u8 kind;		/* enum stp_hist_kind */
	u8 variance_shift;	/* @variance(x, N)'s N, 0..62; 0 if unused */
	int64_t start, stop, interval;	/* linear only */
};

/* Statistic extractors, as in @count(x) ... @variance(x). */
enum stp_stat_op {
	STP_STAT_COUNT,
	STP_STAT_SUM,
	STP_STAT_MIN,
	STP_STAT_MAX,
	STP_STAT_AVG,
	STP_STAT_VARIANCE,
};

struct stp_context;
struct stp_stat;		/* an aggregate: count, sum, min, max, ... */
struct stp_stat_var;		/* a scalar statistics global (per CPU) */
struct stp_map;			/* an associative array */
struct stp_map_entry;		/* one element, for iteration */

struct stp_map_desc {
	const char *name;	/* the script's name, for messages */
	u8 nkeys;		/* 1..STP_MAX_KEYS */
	u8 key_types[STP_MAX_KEYS];	/* STP_LONG or STP_STRING */
	u8 value_type;		/* STP_LONG, STP_STRING or STP_STAT */
	u32 max_entries;	/* "global a[N]", else MAXMAPENTRIES */
	u8 wrap;		/* "global a%": when full, drop the oldest entry */
	struct stp_hist_spec hist;	/* STP_STAT values with a histogram */
};

/* ---- module load / unload ---- */
struct stp_map *_stp_map_new(const struct stp_map_desc *d);	/* NULL: -ENOMEM */
void _stp_map_free(struct stp_map *m);
struct stp_stat_var *_stp_stat_new(const struct stp_hist_spec *h);
void _stp_stat_free(struct stp_stat_var *sv);

/* ---- arrays of longs and strings ---- */
/* A missing element reads as 0 or "". */
int64_t _stp_map_get_long(struct stp_map *m, const union stp_key *k);
const char *_stp_map_get_str(struct stp_map *m, const union stp_key *k);
/* 0, or -E2BIG if the element is new and the map is full. */
int _stp_map_set_long(struct stp_map *m, const union stp_key *k, int64_t v);
int _stp_map_set_str(struct stp_map *m, const union stp_key *k, const char *v);
/* a[k] += delta; the new value in *result.  0 or -E2BIG. */
int _stp_map_add_long(struct stp_map *m, const union stp_key *k,
		      int64_t delta, int64_t *result);
bool _stp_map_exists(struct stp_map *m, const union stp_key *k);
void _stp_map_delete(struct stp_map *m, const union stp_key *k);
void _stp_map_clear(struct stp_map *m);
/* Number of elements (for a statistics map: with any CPU's data). */
int _stp_map_size(struct stp_map *m);

/* ---- statistics ---- */
/* a[k] <<< v.  0 or -E2BIG. */
int _stp_map_stat_add(struct stp_map *m, const union stp_key *k, int64_t v);
/* The element's aggregate over all CPUs, or NULL if it has no data. */
const struct stp_stat *_stp_map_get_stat(struct stp_map *m,
					 const union stp_key *k);
void _stp_stat_add(struct stp_stat_var *sv, int64_t v);	/* s <<< v */
const struct stp_stat *_stp_stat_get(struct stp_stat_var *sv);	/* never NULL */
void _stp_stat_clear(struct stp_stat_var *sv);		/* delete s */
/*
 * Extract @count/@sum/... from an aggregate (NULL: empty).  @count and
 * @sum of an empty aggregate are 0; the others fail the probe with
 * SystemTap's "empty aggregate" error and return 0.  variance_shift is
 * @variance's optional second argument (0 if absent); it must equal the
 * stp_hist_spec.variance_shift the statistic was created with, which is
 * the one used.  @avg truncates; @variance of one sample is 0.
 */
int64_t _stp_stat_extract(struct stp_context *c, const struct stp_stat *st,
			  enum stp_stat_op op, int variance_shift);
/*
 * print(@hist_linear(...)) / print(@hist_log(...)) in SystemTap's layout.
 * An empty aggregate (NULL or no samples) fails with "empty aggregate"
 * and prints nothing, as SystemTap does.
 */
void _stp_stat_print_hist(struct stp_context *c, const struct stp_stat *st,
			  const struct stp_hist_spec *h);
/*
 * @hist_linear(...)[i] / @hist_log(...)[i] and foreach over buckets.
 * Linear: 0 counts samples below start, 1..N the buckets from start to
 * stop, N+1 those above; log: 0..127, 64 being the value 0 (SystemTap's
 * numbering).  An empty aggregate fails with "empty aggregate", an index
 * outside 0..buckets-1 with "histogram index out of range"; both return 0.
 */
int _stp_stat_hist_buckets(const struct stp_hist_spec *h);
int64_t _stp_stat_hist_count(struct stp_context *c, const struct stp_stat *st,
			     int64_t i);

/* ---- iteration (foreach) ---- */
/*
 * Fill order[] (room for the map's max_entries) with the elements,
 * sorted: sort_by 0 unsorted, -1 by value (for statistics maps by
 * stat_op of the aggregate), k > 0 by key k (1-based); dir +1 ascending,
 * -1 descending.  Equal elements keep their order.  limit > 0 keeps the
 * first limit.  Returns the number of elements.  Statistics maps are
 * aggregated first; the entries are the aggregates.  As in SystemTap, a
 * sort reorders the array (not a statistics array) itself, so the caller
 * holds its write lock.
 */
int _stp_map_sort(struct stp_map *m, struct stp_map_entry **order,
		  int sort_by, int dir, enum stp_stat_op stat_op, int64_t limit);
/*
 * Unsorted iteration is in insertion order (an element deleted and set
 * again moves to the end) or the last sort's order.  Entries
 * stay valid until the map is next modified.  Key index i is 0-based.
 */
int64_t _stp_map_entry_key_long(const struct stp_map_entry *e, int i);
const char *_stp_map_entry_key_str(const struct stp_map_entry *e, int i);
int64_t _stp_map_entry_long(const struct stp_map_entry *e);
const char *_stp_map_entry_str(const struct stp_map_entry *e);
const struct stp_stat *_stp_map_entry_stat(const struct stp_map_entry *e);

/* ---- global-variable locks ---- */
/*
 * A global's reader-writer lock: > 0 readers, -1 a writer, 0 free.  Probes
 * only ever try it (waiting is _stp_lock_globals_wait's loop), so it is
 * a counter, not rwlock_t: on PREEMPT_RT that is an rt_mutex whose
 * read_unlock, racing a writer's trylock, turns interrupts on to wake
 * the writer (in a probe inside __schedule, with the runqueue lock held)
 * and whose every lock and unlock also toggles migration and RCU.
 */
typedef struct {
	atomic_t cnt;
} stp_rwlock_t;
#define STP_RWLOCK(name) stp_rwlock_t name = { ATOMIC_INIT(0) }

static __always_inline bool _stp_read_trylock(stp_rwlock_t *l)
{
	int c = atomic_read(&l->cnt);

	do {
		if (c < 0)
			return false;
	} while (!atomic_try_cmpxchg_acquire(&l->cnt, &c, c + 1));
	return true;
}

static __always_inline bool _stp_write_trylock(stp_rwlock_t *l)
{
	int free = 0;

	return atomic_try_cmpxchg_acquire(&l->cnt, &free, -1);
}

/*
 * A global is guarded either by one stp_rwlock_t or, for statistics, by
 * one raw spinlock per CPU: adding a sample (the only thing a hot probe
 * does to a statistic) takes its own CPU's lock, so CPUs never share a
 * cache line for it; reading, sorting or deleting takes every CPU's lock.
 */
struct stp_lock_req {
	stp_rwlock_t *lock;	/* STP_RWLOCK in the script, or NULL */
	raw_spinlock_t __percpu *pcpu;	/* DEFINE_PER_CPU, when lock is NULL */
	bool write;
};
bool _stp_lock_globals_wait(const struct stp_lock_req *reqs, int n, int i);
bool _stp_trylock_all_cpus(raw_spinlock_t __percpu *l);
void _stp_unlock_all_cpus(raw_spinlock_t __percpu *l);

static __always_inline bool _stp_trylock_req(const struct stp_lock_req *r)
{
	if (r->pcpu)
		return r->write ? _stp_trylock_all_cpus(r->pcpu) :
			raw_spin_trylock(this_cpu_ptr(r->pcpu));
	return r->write ? _stp_write_trylock(r->lock) : _stp_read_trylock(r->lock);
}

static __always_inline void _stp_unlock_req(const struct stp_lock_req *r)
{
	if (r->pcpu && r->write)
		_stp_unlock_all_cpus(r->pcpu);
	else if (r->pcpu)	/* preemption is off: still the CPU that took it */
		raw_spin_unlock(this_cpu_ptr(r->pcpu));
	else if (r->write)
		atomic_set_release(&r->lock->cnt, 0);
	else
		atomic_dec_return_release(&r->lock->cnt);
}

/*
 * Take every lock in reqs (sorted by the translator, so no deadlock),
 * waiting for each at most MAXTRYLOCK x TRYLOCKDELAY us.  On failure
 * release what was taken, count a skipped probe and return false: the
 * hit does not run.  Called with preemption off (probe context).
 * Inline, so that a probe's own constant table folds into a trylock per
 * lock; only a lock that is not free at once goes out of line to wait.
 */
static __always_inline bool _stp_lock_globals(const struct stp_lock_req *reqs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (unlikely(!_stp_trylock_req(&reqs[i])))
			return _stp_lock_globals_wait(reqs, n, i);
	return true;
}

/* Reverse order of taking, the usual discipline. */
static __always_inline void _stp_unlock_globals(const struct stp_lock_req *reqs, int n)
{
	while (n-- > 0)
		_stp_unlock_req(&reqs[n]);
}
/*
 * A per-CPU counter's value is the sum of its slots.  With every CPU's
 * lock held, move the sum into this CPU's slot, which then reads and
 * writes as the value.
 */
static inline void _stp_pcpu_fold(int64_t __percpu *v)
{
	int64_t sum = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		sum += *per_cpu_ptr(v, cpu);
		*per_cpu_ptr(v, cpu) = 0;
	}
	*this_cpu_ptr(v) = sum;
}

#endif /* STP_MAP_H */
