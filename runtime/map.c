// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Associative arrays: a chained hash table over a preallocated array of
 * fixed-size entries.
 *
 * Everything is allocated by _stp_map_new at module load; afterwards an
 * element comes from, and returns to, a free list, so probe context never
 * allocates.  Links are 32-bit entry indexes plus one (0 ends a list),
 * which halves their size and lets entries be found by number for the
 * per-CPU statistics.
 *
 * Concurrency.  Callers hold the global's lock (stp_rwlock_t): for writing around
 * everything except _stp_map_stat_add, which runs under the read lock on
 * many CPUs at once.  For statistics maps, therefore, lookups are
 * lock-free (entries are published with a release store and only
 * unlinked under the write lock), inserting a new key is serialised by
 * the map's raw spinlock, and each CPU adds into its own copy of the
 * element's statistic.  Readers merge the copies into the aggregate kept
 * in the entry itself.
 */
#include <linux/cpumask.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "stp_internal.h"
#include "map_internal.h"

/* Bytes kept for a string key or value: MAXSTRINGLEN with its NUL. */
#define STR_BYTES ALIGN(MAXSTRINGLEN, 8)
/* Bound on max_entries, so sizes and 32-bit indexes cannot overflow. */
#define MAP_MAX_ENTRIES (1U << 26)

struct stp_map_entry {
	const struct stp_map *map;	/* for the iteration accessors */
	u32 hnext;		/* hash chain, or free list */
	u32 prev, next;		/* insertion order */
	u32 hash;
	u32 idx;		/* own index (per-CPU statistics) */
	u32 rank;		/* position in the list while sorting */
	u64 data[];		/* keys, then the value (8-byte aligned) */
};

struct stp_map {
	const char *name;
	u8 nkeys;
	u8 key_types[STP_MAX_KEYS];
	u8 value_type;
	u32 key_off[STP_MAX_KEYS];	/* from the start of an entry */
	u32 val_off;
	size_t entry_size;
	u32 max_entries;
	bool wrap;			/* full: the oldest entry makes room */
	u32 hash_mask;			/* table size - 1 (a power of two) */
	u32 seed;			/* random: no chosen-key collisions */
	u32 *heads;			/* hash table */
	char *entries;			/* max_entries * entry_size */
	u32 free;			/* free list */
	u32 first, last;		/* insertion order */
	int count;
	/* Statistics maps only. */
	struct stp_hist_spec hist;
	int nbuckets;
	size_t stat_bytes;
	void **pcpu;			/* per CPU: max_entries statistics */
	raw_spinlock_t insert_lock;	/* inserts under the read lock */
};

static const char empty_str[] = "";

static inline struct stp_map_entry *ent(const struct stp_map *m, u32 ref)
{
	return (struct stp_map_entry *)(m->entries +
					(size_t)(ref - 1) * m->entry_size);
}

static inline void *field(const struct stp_map_entry *e, u32 off)
{
	return (char *)e + off;
}

static inline bool is_stat_map(const struct stp_map *m)
{
	return m->value_type == STP_STAT;
}

/* This CPU's (or any CPU's) copy of an element's statistic. */
static inline struct stp_stat *pcpu_stat(const struct stp_map *m, int cpu,
					 u32 idx)
{
	return m->pcpu[cpu] + (size_t)idx * m->stat_bytes;
}

/* ---- load / unload ---- */

struct stp_map *_stp_map_new(const struct stp_map_desc *d)
{
	struct stp_map *m;
	size_t off;
	u32 i, max, hsize;
	int cpu;

	if (!d->nkeys || d->nkeys > STP_MAX_KEYS)
		return NULL;
	max = d->max_entries ? d->max_entries : _stp_params.maxmapentries;
	if (max > MAP_MAX_ENTRIES)
		return NULL;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->name = d->name;
	m->nkeys = d->nkeys;
	m->value_type = d->value_type;
	m->max_entries = max;
	m->wrap = d->wrap;
	m->hist = d->hist;

	off = sizeof(struct stp_map_entry);
	for (i = 0; i < d->nkeys; i++) {
		m->key_types[i] = d->key_types[i];
		m->key_off[i] = off;
		if (d->key_types[i] == STP_LONG)
			off += sizeof(int64_t);
		else if (d->key_types[i] == STP_STRING)
			off += STR_BYTES;
		else
			goto fail;
	}
	m->val_off = off;
	switch (d->value_type) {
	case STP_LONG:
		off += sizeof(int64_t);
		break;
	case STP_STRING:
		off += STR_BYTES;
		break;
	case STP_STAT:
		m->nbuckets = _stp_hist_nbuckets(&d->hist);
		if (m->nbuckets < 0)
			goto fail;
		m->stat_bytes = _stp_stat_bytes(m->nbuckets);
		off += m->stat_bytes;	/* the entry keeps the aggregate */
		break;
	default:
		goto fail;
	}
	m->entry_size = ALIGN(off, 8);

	/* Load factor <= 1: chains stay short on average. */
	hsize = roundup_pow_of_two(max);
	m->hash_mask = hsize - 1;
	m->seed = get_random_u32();
	m->heads = kvcalloc(hsize, sizeof(*m->heads), GFP_KERNEL);
	m->entries = kvcalloc(max, m->entry_size, GFP_KERNEL);
	if (!m->heads || !m->entries)
		goto fail;
	_stp_alloc_note(sizeof(*m) + hsize * sizeof(*m->heads) +
			(size_t)max * m->entry_size);

	/* Free list in index order, so a fresh map fills from entry 0. */
	for (i = 0; i < max; i++) {
		struct stp_map_entry *e = ent(m, i + 1);

		e->map = m;
		e->idx = i;
		e->hnext = i + 1 < max ? i + 2 : 0;
	}
	m->free = 1;

	if (is_stat_map(m)) {
		u32 shift = min_t(u32, d->hist.variance_shift, 62);

		raw_spin_lock_init(&m->insert_lock);
		m->pcpu = _stp_pcpu_alloc(max * m->stat_bytes);
		if (!m->pcpu)
			goto fail;
		/* Give every copy its shape once; deletes keep it. */
		for_each_possible_cpu(cpu)
			for (i = 0; i < max; i++)
				_stp_stat_reset(pcpu_stat(m, cpu, i),
						m->nbuckets, shift);
		for (i = 0; i < max; i++)
			_stp_stat_reset(field(ent(m, i + 1), m->val_off),
					m->nbuckets, shift);
	}
	return m;

fail:
	_stp_map_free(m);
	return NULL;
}

void _stp_map_free(struct stp_map *m)
{
	if (!m)
		return;
	_stp_pcpu_free(m->pcpu);
	kvfree(m->entries);
	kvfree(m->heads);
	kfree(m);
}

/* ---- keys ---- */

static inline const char *str_or_empty(const char *s)
{
	return s ? s : empty_str;
}

static u32 hash_keys(const struct stp_map *m, const union stp_key *k)
{
	u32 h = m->seed;
	int i;

	for (i = 0; i < m->nkeys; i++) {
		if (m->key_types[i] == STP_STRING) {
			const char *s = str_or_empty(k[i].s);

			/* Only what is stored counts: strings are truncated. */
			h = jhash(s, strnlen(s, MAXSTRINGLEN - 1), h);
		} else {
			u64 l = k[i].l;

			h = jhash_2words(lower_32_bits(l), upper_32_bits(l), h);
		}
	}
	return h;
}

static bool keys_equal(const struct stp_map *m, const struct stp_map_entry *e,
		       const union stp_key *k)
{
	int i;

	for (i = 0; i < m->nkeys; i++) {
		const void *p = field(e, m->key_off[i]);

		if (m->key_types[i] == STP_STRING) {
			if (strncmp(p, str_or_empty(k[i].s), MAXSTRINGLEN - 1))
				return false;
		} else if (*(const int64_t *)p != k[i].l) {
			return false;
		}
	}
	return true;
}

static struct stp_map_entry *lookup(const struct stp_map *m,
				    const union stp_key *k, u32 hash)
{
	/* Acquire pairs with the release in insert(): see the top. */
	u32 ref = smp_load_acquire(&m->heads[hash & m->hash_mask]);

	while (ref) {
		struct stp_map_entry *e = ent(m, ref);

		if (e->hash == hash && keys_equal(m, e, k))
			return e;
		ref = READ_ONCE(e->hnext);
	}
	return NULL;
}

/* Below: the one place that takes an entry out. */
static void unlink_entry(struct stp_map *m, struct stp_map_entry *e);

/* A new element for k (known to be absent), or NULL if the map is full. */
static struct stp_map_entry *insert_locked(struct stp_map *m,
					   const union stp_key *k, u32 hash)
{
	struct stp_map_entry *e;
	u32 ref, *head;
	int i;

	/*
	 * A wrap-around array drops its oldest entry (the first in order).
	 * Statistics maps insert under the read lock: a CPU adding to the
	 * dropped entry at that moment may count one sample for the new key.
	 */
	if (!m->free && m->wrap && m->first)
		unlink_entry(m, ent(m, m->first));
	ref = m->free;
	if (!ref)
		return NULL;
	e = ent(m, ref);
	m->free = e->hnext;

	for (i = 0; i < m->nkeys; i++) {
		void *p = field(e, m->key_off[i]);

		if (m->key_types[i] == STP_STRING)
			strscpy(p, str_or_empty(k[i].s), MAXSTRINGLEN);
		else
			*(int64_t *)p = k[i].l;
	}
	if (m->value_type == STP_LONG)
		*(int64_t *)field(e, m->val_off) = 0;
	else if (m->value_type == STP_STRING)
		*(char *)field(e, m->val_off) = '\0';
	/* Statistics are already empty: deletes reset every CPU's copy. */

	e->hash = hash;
	e->prev = m->last;
	e->next = 0;
	if (m->last)
		ent(m, m->last)->next = ref;
	else
		m->first = ref;
	m->last = ref;
	WRITE_ONCE(m->count, m->count + 1);

	head = &m->heads[hash & m->hash_mask];
	e->hnext = *head;
	/* Publish only a complete entry to lock-free lookups. */
	smp_store_release(head, ref);
	return e;
}

static struct stp_map_entry *lookup_or_insert(struct stp_map *m,
					      const union stp_key *k)
{
	u32 hash = hash_keys(m, k);
	struct stp_map_entry *e = lookup(m, k, hash);
	unsigned long flags;

	if (e)
		return e;
	if (!is_stat_map(m))
		return insert_locked(m, k, hash);	/* write lock held */

	/* Other CPUs may be inserting too: they hold only the read lock. */
	raw_spin_lock_irqsave(&m->insert_lock, flags);
	e = lookup(m, k, hash);
	if (!e)
		e = insert_locked(m, k, hash);
	raw_spin_unlock_irqrestore(&m->insert_lock, flags);
	return e;
}

static struct stp_map_entry *find(const struct stp_map *m,
				  const union stp_key *k)
{
	return lookup(m, k, hash_keys(m, k));
}

/* Empty every CPU's copy of an element's statistic (write lock held). */
static void reset_stats(struct stp_map *m, struct stp_map_entry *e)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct stp_stat *st = pcpu_stat(m, cpu, e->idx);

		_stp_stat_reset(st, st->nbuckets, st->shift);
	}
}

/* ---- arrays of longs and strings ---- */

int64_t _stp_map_get_long(struct stp_map *m, const union stp_key *k)
{
	struct stp_map_entry *e = find(m, k);

	return e ? *(int64_t *)field(e, m->val_off) : 0;
}

const char *_stp_map_get_str(struct stp_map *m, const union stp_key *k)
{
	struct stp_map_entry *e = find(m, k);

	return e ? field(e, m->val_off) : empty_str;
}

int _stp_map_set_long(struct stp_map *m, const union stp_key *k, int64_t v)
{
	struct stp_map_entry *e = lookup_or_insert(m, k);

	if (!e)
		return -E2BIG;
	*(int64_t *)field(e, m->val_off) = v;
	return 0;
}

int _stp_map_set_str(struct stp_map *m, const union stp_key *k, const char *v)
{
	struct stp_map_entry *e = lookup_or_insert(m, k);

	if (!e)
		return -E2BIG;
	strscpy(field(e, m->val_off), str_or_empty(v), MAXSTRINGLEN);
	return 0;
}

int _stp_map_add_long(struct stp_map *m, const union stp_key *k,
		      int64_t delta, int64_t *result)
{
	struct stp_map_entry *e = lookup_or_insert(m, k);
	int64_t *p;

	if (!e)
		return -E2BIG;
	p = field(e, m->val_off);
	/* Wraps like any script arithmetic. */
	*p = (int64_t)((u64)*p + (u64)delta);
	if (result)
		*result = *p;
	return 0;
}

bool _stp_map_exists(struct stp_map *m, const union stp_key *k)
{
	return find(m, k) != NULL;
}

/* Take e out of its hash chain and the insertion order, onto the free list. */
static void unlink_entry(struct stp_map *m, struct stp_map_entry *e)
{
	u32 ref = e->idx + 1, *link;

	for (link = &m->heads[e->hash & m->hash_mask]; *link != ref;
	     link = &ent(m, *link)->hnext)
		;
	*link = e->hnext;

	if (e->prev)
		ent(m, e->prev)->next = e->next;
	else
		m->first = e->next;
	if (e->next)
		ent(m, e->next)->prev = e->prev;
	else
		m->last = e->prev;

	if (is_stat_map(m))
		reset_stats(m, e);
	e->hnext = m->free;
	m->free = ref;
	WRITE_ONCE(m->count, m->count - 1);
}

void _stp_map_delete(struct stp_map *m, const union stp_key *k)
{
	struct stp_map_entry *e = lookup(m, k, hash_keys(m, k));

	if (e)
		unlink_entry(m, e);
}

void _stp_map_clear(struct stp_map *m)
{
	u32 ref = m->first;

	/* Touch only the used entries: a big, nearly empty map is cheap. */
	while (ref) {
		struct stp_map_entry *e = ent(m, ref);
		u32 next = e->next;

		m->heads[e->hash & m->hash_mask] = 0;
		if (is_stat_map(m))
			reset_stats(m, e);
		e->hnext = m->free;
		m->free = ref;
		ref = next;
	}
	m->first = 0;
	m->last = 0;
	WRITE_ONCE(m->count, 0);
}

int _stp_map_size(struct stp_map *m)
{
	return READ_ONCE(m->count);
}

/* ---- statistics ---- */

int _stp_map_stat_add(struct stp_map *m, const union stp_key *k, int64_t v)
{
	struct stp_map_entry *e = lookup_or_insert(m, k);

	if (!e)
		return -E2BIG;
	/* Probe context: preemption is off, so this CPU cannot change. */
	_stp_stat_accumulate(pcpu_stat(m, smp_processor_id(), e->idx),
			     &m->hist, v);
	return 0;
}

static struct stp_stat *aggregate(struct stp_map *m, struct stp_map_entry *e)
{
	struct stp_stat *agg = field(e, m->val_off);

	_stp_stat_aggregate(agg, m->pcpu, (size_t)e->idx * m->stat_bytes);
	return agg;
}

const struct stp_stat *_stp_map_get_stat(struct stp_map *m,
					 const union stp_key *k)
{
	struct stp_map_entry *e = find(m, k);
	struct stp_stat *agg;

	if (!e)
		return NULL;
	agg = aggregate(m, e);
	return agg->count ? agg : NULL;
}

/* ---- iteration ---- */

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int cmp_str(const char *a, const char *b)
{
	int r = strcmp(a, b);

	return (r > 0) - (r < 0);
}

static int cmp_key(const struct stp_map *m, const struct stp_map_entry *a,
		   const struct stp_map_entry *b, int i)
{
	const void *pa = field(a, m->key_off[i]), *pb = field(b, m->key_off[i]);

	if (m->key_types[i] == STP_STRING)
		return cmp_str(pa, pb);
	return cmp_i64(*(const int64_t *)pa, *(const int64_t *)pb);
}

struct sort_spec {
	const struct stp_map *m;
	int sort_by, dir;
	enum stp_stat_op op;
};

/*
 * A total order: by the sort key, then by position in the list, so that
 * equal elements keep their order (SystemTap's sorts are stable).
 */
static int cmp_entries(const struct sort_spec *s,
		       const struct stp_map_entry *a,
		       const struct stp_map_entry *b)
{
	const struct stp_map *m = s->m;
	int r = 0;

	if (s->sort_by < 0) {
		const void *pa = field(a, m->val_off);
		const void *pb = field(b, m->val_off);

		if (m->value_type == STP_STRING)
			r = cmp_str(pa, pb);
		else if (m->value_type == STP_STAT)
			r = cmp_i64(_stp_stat_value(pa, s->op),
				    _stp_stat_value(pb, s->op));
		else
			r = cmp_i64(*(const int64_t *)pa, *(const int64_t *)pb);
	} else if (s->sort_by > 0 && s->sort_by <= m->nkeys) {
		r = cmp_key(m, a, b, s->sort_by - 1);
	}
	r *= s->dir;
	return r ? r : cmp_i64(a->rank, b->rank);
}

static void sift_down(const struct sort_spec *s, struct stp_map_entry **v,
		      int root, int n)
{
	struct stp_map_entry *tmp;
	int child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && cmp_entries(s, v[child], v[child + 1]) < 0)
			child++;
		if (cmp_entries(s, v[root], v[child]) >= 0)
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
		root = child;
	}
}

/* In place, no recursion, O(n log n) worst case: fit for probe context. */
static void heapsort(const struct sort_spec *s, struct stp_map_entry **v,
		     int n)
{
	struct stp_map_entry *tmp;
	int i;

	for (i = n / 2 - 1; i >= 0; i--)
		sift_down(s, v, i, n);
	for (i = n - 1; i > 0; i--) {
		tmp = v[0];
		v[0] = v[i];
		v[i] = tmp;
		sift_down(s, v, 0, i);
	}
}

/*
 * "foreach ... limit L" sorts only what it shows, in SystemTap's way,
 * whose side effect on the array's order later loops see: the first L
 * elements are sorted, then each later element that beats the last of
 * them moves in at its place, the last moving out to just behind them.
 * The others keep their order.
 */
static void sort_first(const struct sort_spec *s, struct stp_map_entry **v,
		       int n, int limit)
{
	int i, lo, hi;

	heapsort(s, v, limit);
	for (i = limit; i < n; i++) {
		struct stp_map_entry *e = v[i];

		if (cmp_entries(s, e, v[limit - 1]) >= 0)
			continue;
		memmove(&v[limit + 1], &v[limit], (size_t)(i - limit) * sizeof(*v));
		v[limit] = v[limit - 1];
		/* After the equal ones: e comes later in the list than they. */
		for (lo = 0, hi = limit - 1; lo < hi;) {
			int mid = (lo + hi) / 2;

			if (cmp_entries(s, e, v[mid]) < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
		memmove(&v[lo + 1], &v[lo], (size_t)(limit - 1 - lo) * sizeof(*v));
		v[lo] = e;
	}
}

/*
 * Sorting reorders the array itself, as SystemTap's does: a later
 * unsorted foreach, and ties of a later sort, follow the last sort.
 * Statistics maps are aggregated afresh by each foreach in SystemTap,
 * so their order is never kept.  Caller holds the write lock.
 */
int _stp_map_sort(struct stp_map *m, struct stp_map_entry **order,
		  int sort_by, int dir, enum stp_stat_op stat_op, int64_t limit)
{
	struct sort_spec s = {
		.m = m,
		.sort_by = sort_by,
		.dir = dir < 0 ? -1 : 1,
		.op = stat_op,
	};
	u32 ref;
	int n = 0, i;

	for (ref = m->first; ref; ref = ent(m, ref)->next) {
		struct stp_map_entry *e = ent(m, ref);

		if (is_stat_map(m))
			aggregate(m, e);
		e->rank = n;
		order[n++] = e;
	}
	if (sort_by && limit > 0 && limit < n)
		sort_first(&s, order, n, (int)limit);
	else if (sort_by)
		heapsort(&s, order, n);
	if (sort_by && !is_stat_map(m) && n) {
		for (i = 0; i < n; i++) {
			order[i]->prev = i ? order[i - 1]->idx + 1 : 0;
			order[i]->next = i + 1 < n ? order[i + 1]->idx + 1 : 0;
		}
		m->first = order[0]->idx + 1;
		m->last = order[n - 1]->idx + 1;
	}
	if (limit > 0 && limit < n)
		n = limit;
	return n;
}

int64_t _stp_map_entry_key_long(const struct stp_map_entry *e, int i)
{
	return *(const int64_t *)field(e, e->map->key_off[i]);
}

const char *_stp_map_entry_key_str(const struct stp_map_entry *e, int i)
{
	return field(e, e->map->key_off[i]);
}

int64_t _stp_map_entry_long(const struct stp_map_entry *e)
{
	return *(const int64_t *)field(e, e->map->val_off);
}

const char *_stp_map_entry_str(const struct stp_map_entry *e)
{
	return field(e, e->map->val_off);
}

const struct stp_stat *_stp_map_entry_stat(const struct stp_map_entry *e)
{
	return field(e, e->map->val_off);
}
