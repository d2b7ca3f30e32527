// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kprobe probes: the table translator/probes/kprobe.c emits (struct
 * stp_kprobe, stp_kprobe.h) is registered at session start and
 * unregistered at session stop, before end probes run.
 *
 *  - Start allocates the table's runtime state (struct stp_kprobe_tab):
 *    each row's struct kprobe or kretprobe, which the kernel hands the
 *    handlers, with a pointer back to the row.  It is not in the row
 *    itself so that the script's C needs no <linux/kprobes.h>.  Stop
 *    frees it once no handler runs.
 *  - Entries name a symbol ("vfs_read", "ext4:ext4_sync_fs") and an
 *    offset into it, which the kernel resolves at registration, or give
 *    an absolute address.
 *  - Entry probes are kprobes whose pre-handler runs the probe; .return
 *    probes are kretprobes whose return handler does.  Either runs with
 *    preemption off; _stp_run_probe does the rest.
 *  - Registration is one register_k*probe() per entry: the kernel's
 *    register_kprobes() gives up on the first failure, and we want to
 *    skip optional entries.  Unregistration goes in batches, because
 *    each unregister_k*probes() call waits for an RCU grace period.
 *  - Hits the kernel missed (a kprobe hit inside another kprobe's
 *    handler; a return beyond maxactive) count as skipped probes.
 *  - A function's entry (STP_KPROBE_FENTRY) is first registered as a
 *    disabled kprobe: if the kernel put it on an ftrace site, fentry.c
 *    takes it over and the kprobe goes once the table's ftrace_ops is
 *    in place; otherwise the kprobe is enabled.
 *  - A .return whose function's ftrace site the translator found, with
 *    no .maxactive(N), goes on the table's fprobe where the kernel has
 *    one (fexit.c), registered after the others; a kretprobe otherwise,
 *    or if the fprobe cannot be registered.
 *  - A row in a module ("ext4:ext4_sync_fs") whose module is not loaded
 *    waits for it, as SystemTap's do: a module notifier registers the
 *    module's rows when it comes, and unregisters them when it goes,
 *    to wait for its next load.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include "stp_internal.h"

/* Entries unregistered with one grace period. */
#define STP_KPROBE_BATCH 32
/* More int3 kprobes than this in a table: none is jump-optimized. */
#ifndef STP_KPROBE_OPTIMIZE_MAX
#define STP_KPROBE_OPTIMIZE_MAX 64
#endif

/*
 * -DSTP_KPROBE_TIMING: each phase of registration and unregistration
 * as a warning, in ms (bench/many_probes.sh).
 */
#ifdef STP_KPROBE_TIMING
#include <linux/ktime.h>
#define KP_T0(t) u64 t = ktime_get_ns()
#define KP_LAP(t, what, n) do { \
	_stp_warn("kprobes: %s: %zu in %llu ms", what, (size_t)(n), \
		  (unsigned long long)((ktime_get_ns() - t) / 1000000)); \
	t = ktime_get_ns(); } while (0)
#else
#define KP_T0(t) do { } while (0)
#define KP_LAP(t, what, n) do { } while (0)
#endif

/* A row's registration: the kernel's kprobe, its handlers' way back to the row. */
struct stp_kprobe_rt {
	struct stp_kprobe *k;	/* the row */
	bool registered;	/* a kprobe (disabled while on_ftrace is pending) */
	bool pending;		/* its module is not loaded: waits for it */
	bool on_ftrace;		/* hit through the table's ftrace_ops or fprobe instead */
	union {
		struct kprobe kp;
		struct kretprobe rp;
	} u;
};

/* A table's: rows[i] is kps[i]'s, which points to it (kps[i].rt) while started. */
struct stp_kprobe_tab {
	struct stp_fentry *fentry;	/* the ftrace_ops (fentry.c) */
	struct stp_fexit *fexit;	/* the .return rows' fprobe (fexit.c) */
	/* With rows in modules: on kp_mod_tabs, for the module notifier. */
	struct list_head mod_link;
	bool mod_rows, mod_armed, noopt;
	size_t n;
	struct stp_kprobe_rt rows[];
};

static struct stp_kprobe_tab *tab_of(const struct stp_kprobe *kps, size_t n)
{
	return n && kps[0].rt ? container_of(kps[0].rt, struct stp_kprobe_tab, rows[0]) : NULL;
}

/* ---- kernel API drift (see kfeatures/) ---- */
#ifdef STAPCONF_GET_KRETPROBE
#define _stp_get_kretprobe(ri) get_kretprobe(ri)
#else
/* get_kretprobe() replaced ri->rp in 5.11. */
#define _stp_get_kretprobe(ri) ((ri)->rp)
#endif

static int kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct stp_kprobe_rt *r = container_of(kp, struct stp_kprobe_rt, u.kp);

	_stp_run_probe(r->k->probe, regs);
	return 0;
}

#ifdef CONFIG_KRETPROBES
static int kretprobe_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = _stp_get_kretprobe(ri);

	/* NULL: the kretprobe is being unregistered. */
	if (rp) {
		const struct stp_kprobe *k = container_of(rp, struct stp_kprobe_rt, u.rp)->k;
		struct stp_hit h = {
			.entry_slots = k->nslots ? (int64_t *)ri->data : NULL,
			.ret_from = (unsigned long)rp->kp.addr,
		};

		_stp_run_probe_hit(k->probe, regs, &h);
	}
	return 0;
}

/*
 * A .return probe that reads @entry values: save them at the function's
 * entry into the instance's data.  Non-zero tells the kernel not to
 * arm the return probe: the entry hit failed or was skipped, so the
 * return handler would read slots nobody filled.
 */
static int kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = _stp_get_kretprobe(ri);
	const struct stp_kprobe *k;
	struct stp_hit h;

	if (!rp)
		return 1;
	k = container_of(rp, struct stp_kprobe_rt, u.rp)->k;
	h = (struct stp_hit){ .entry_slots = (int64_t *)ri->data, .fn = k->entry };
	memset(ri->data, 0, k->nslots * sizeof(int64_t));
	return _stp_run_probe_hit(k->probe, regs, &h) ? 1 : 0;
}
#endif

/* The kernel's name for a registration error and what it usually means. */
static const char *errno_name(int err)
{
	switch (-err) {
	case ENOENT:	return "ENOENT";
	case EINVAL:	return "EINVAL";
	case EILSEQ:	return "EILSEQ";
	case EBUSY:	return "EBUSY";
	case EEXIST:	return "EEXIST";
	case ENOMEM:	return "ENOMEM";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOSYS:	return "ENOSYS";
	default:	return "error";
	}
}

static const char *errno_text(const struct stp_kprobe *k, int err)
{
	switch (-err) {
	case ENOENT:
		if (!k->symbol)
			return "no kernel symbol covers that address";
		return strchr(k->symbol, ':') ? "no such symbol; is the module loaded?"
					      : "no such symbol";
	case EINVAL:	return "the kernel does not allow a kprobe there";
	case EILSEQ:	return "not at an instruction boundary";
	case EBUSY:	return "the address is in use by another facility";
	case EEXIST:	return "already registered";
	case ENOMEM:	return "out of memory";
	case EOPNOTSUPP: return "this kernel has no kretprobes";
	case ENOSYS:	return "this kernel has no kprobes";
	default:	return "see the kernel log";
	}
}

/* "'vfs_read'" or "address 0xffffffff81234567", for messages. */
static void describe(const struct stp_kprobe *k, char *buf, size_t len)
{
	if (k->symbol && k->offset)
		snprintf(buf, len, "'%s'+0x%lx", k->symbol, k->offset);
	else if (k->symbol)
		snprintf(buf, len, "'%s'", k->symbol);
	else
		snprintf(buf, len, "address 0x%lx", k->addr);
}

/* A link-time kernel address of @k's, moved by the KASLR offset. */
static unsigned long runtime_addr(const struct stp_kprobe *k, u64 link)
{
	return (unsigned long)(link + ((unsigned long)&_printk - (unsigned long)k->link_ref));
}

/*
 * Where the kprobe goes: by address when the translator knew it (the
 * kernel still finds the symbol's start and steps over an ENDBR), else
 * by name, which costs a kallsyms_lookup_name().
 */
static void set_where(struct kprobe *kp, const struct stp_kprobe *k)
{
	if (k->link_ref) {
		kp->addr = (kprobe_opcode_t *)runtime_addr(k, k->link);
	} else if (k->symbol) {
		kp->symbol_name = k->symbol;
		kp->offset = k->offset;
	} else {
		kp->addr = (kprobe_opcode_t *)k->addr;
	}
}

/*
 * A post-handler that does nothing: the kernel never jump-optimizes a
 * kprobe that has one.  With many int3 kprobes (inlined copies of a
 * wildcard's functions) the kprobe optimizer holds kprobe_mutex through
 * an RCU-tasks grace period for every 256 of them while registration
 * waits on that mutex: the functions of fs/proc's files took 41 s to
 * register under TCG, 9 s without the optimizer.  A few probes keep the faster jump.  On a
 * preemptible kernel (Debian's) an unoptimized kprobe single-steps with
 * or without a post-handler, so a hit costs no more for having one.
 */
static void kprobe_post_noop(struct kprobe *kp, struct pt_regs *regs, unsigned long flags)
{
}

/* A .return the table's fprobe may take: its function's ftrace site is known. */
static bool fexit_row(const struct stp_kprobe *k)
{
	return (k->flags & STP_KPROBE_RETURN) && k->ftrace && k->link_ref && k->maxactive < 0;
}

/*
 * Rows on an ftrace site without a kprobe skip the kernel's kprobe
 * checks: a function the kernel's blacklist names (or an unknown list)
 * goes the kprobe way, and is refused there as any kprobe is.
 */
static bool may_skip_kprobe(const struct stp_kprobe *k, const struct stp_kbl *kbl)
{
	return kbl && !_stp_kbl_has(kbl, k->symbol);
}

static int register_one(struct stp_kprobe_rt *r, struct stp_fentry *fe, struct stp_fexit *fx,
			const struct stp_kbl *kbl, bool noopt)
{
	struct stp_kprobe *k = r->k;
	int rc;

	memset(&r->u, 0, sizeof(r->u));
	/* A known ftrace site: straight onto the ops, no kprobe. */
	if (fe && k->ftrace && k->link_ref && (k->flags & STP_KPROBE_FENTRY) &&
	    !(k->flags & STP_KPROBE_RETURN) && may_skip_kprobe(k, kbl)) {
		unsigned long ip = runtime_addr(k, k->ftrace);

		r->u.kp.addr = (kprobe_opcode_t *)ip;
		r->on_ftrace = _stp_fentry_add_ip(fe, k, ip);
		if (r->on_ftrace) {
			r->registered = false;
			return 0;
		}
		memset(&r->u, 0, sizeof(r->u));
	}
	/* Likewise a .return onto the fprobe, which fexit.c registers later. */
	if (fx && fexit_row(k) && may_skip_kprobe(k, kbl)) {
		r->on_ftrace = _stp_fexit_add(fx, k, runtime_addr(k, k->ftrace));
		if (r->on_ftrace) {
			r->registered = false;
			return 0;
		}
	}
	if (k->flags & STP_KPROBE_RETURN) {
#ifdef CONFIG_KRETPROBES
		struct kretprobe *rp = &r->u.rp;

		set_where(&rp->kp, k);
		rp->handler = kretprobe_ret;
		if (k->nslots) {
			rp->entry_handler = kretprobe_entry;
			rp->data_size = k->nslots * sizeof(int64_t);
		}
		rp->maxactive = k->maxactive >= 0 ? k->maxactive : KRETACTIVE;
		rc = register_kretprobe(rp);
#else
		rc = -EOPNOTSUPP;
#endif
	} else {
		struct kprobe *kp = &r->u.kp;
		bool try_ftrace = fe && (k->flags & STP_KPROBE_FENTRY) && k->symbol &&
				  !k->offset;

		set_where(kp, k);
		kp->pre_handler = kprobe_pre;
		if (noopt)
			kp->post_handler = kprobe_post_noop;
		if (try_ftrace)
			kp->flags = KPROBE_FLAG_DISABLED;
		rc = register_kprobe(kp);
		if (!rc && try_ftrace) {
			r->on_ftrace = _stp_fentry_add(fe, k, kp);
			rc = r->on_ftrace ? 0 : enable_kprobe(kp);
			if (rc)
				unregister_kprobe(kp);
		}
	}
	r->registered = rc == 0;
	return rc;
}

/* The probe point's own failure: report it; the caller undoes the start. */
static void report_failure(const struct stp_kprobe *k, int rc)
{
	char what[KSYM_NAME_LEN + 32];

	describe(k, what, sizeof(what));
	_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: cannot register a %s on %s: %s (%d): %s",
		       k->probe->pp, k->probe->loc,
		       k->flags & STP_KPROBE_RETURN ? "kretprobe" : "kprobe",
		       what, errno_name(rc), rc, errno_text(k, rc));
}

/* Unregister a batch of kprobes; empties *nk. */
static void flush_kprobes(struct kprobe **kb, int *nk)
{
	if (*nk)
		unregister_kprobes(kb, *nk);
	*nk = 0;
}

/*
 * After registration: move the rows fentry.c took onto its ftrace_ops
 * and drop their disabled kprobes, or, if the ops cannot be registered,
 * enable those kprobes instead.
 */
static int switch_to_ftrace(struct stp_fentry *fe, bool noopt)
{
	struct kprobe *batch[STP_KPROBE_BATCH], **kb = batch;
	int nk = 0, max = STP_KPROBE_BATCH, rc;
	struct stp_kprobe *k;
	unsigned int i;

	rc = _stp_fentry_arm(fe);
	if (rc) {
		for (i = 0; (k = _stp_fentry_row(fe, i)); i++) {
			k->rt->on_ftrace = false;
			/* A row taken by its ftrace site has no kprobe yet. */
			rc = k->rt->registered ? enable_kprobe(&k->rt->u.kp) :
						 register_one(k->rt, NULL, NULL, NULL, noopt);
			if (rc) {
				report_failure(k, rc);
				return rc;
			}
		}
		return 0;
	}
	/* All in one grace period when there is memory for the list. */
	for (i = 0; _stp_fentry_row(fe, i); i++)
		;
	if (i > STP_KPROBE_BATCH) {
		kb = kvmalloc_array(i, sizeof(*kb), GFP_KERNEL);
		max = kb ? i : STP_KPROBE_BATCH;
		kb = kb ?: batch;
	}
	for (i = 0; (k = _stp_fentry_row(fe, i)); i++) {
		if (!k->rt->registered)
			continue;
		kb[nk++] = &k->rt->u.kp;
		k->rt->registered = false;
		if (nk == max)
			flush_kprobes(kb, &nk);
	}
	flush_kprobes(kb, &nk);
	if (kb != batch)
		kvfree(kb);
	return 0;
}

/*
 * After registration: register the fprobe with the .return rows it took,
 * or make them kretprobes if it cannot be.
 */
static int switch_to_fexit(struct stp_fexit *fx, bool noopt)
{
	struct stp_kprobe *k;
	unsigned int i;
	int rc;

	if (!_stp_fexit_arm(fx))
		return 0;
	for (i = 0; (k = _stp_fexit_row(fx, i)); i++) {
		k->rt->on_ftrace = false;
		rc = register_one(k->rt, NULL, NULL, NULL, noopt);
		if (rc) {
			report_failure(k, rc);
			return rc;
		}
	}
	return 0;
}

/* ---- rows in modules not loaded yet ---- */

/* The module part of a row's "module:symbol", or NULL (up to the ':'). */
static const char *row_module(const struct stp_kprobe *k)
{
	return k->symbol && strchr(k->symbol, ':') ? k->symbol : NULL;
}

/* Is @k's module @name (whose '-' the kernel made '_')? */
static bool row_of_module(const struct stp_kprobe *k, const char *name)
{
	const char *m = row_module(k);
	size_t i;

	if (!m)
		return false;
	for (i = 0; m[i] != ':'; i++)
		if (!name[i] || (m[i] != name[i] && !(m[i] == '-' && name[i] == '_')))
			return false;
	return !name[i];
}

/*
 * kp_mod_mutex: the armed tables' rows against the notifier.  Never held
 * while the notifier is (un)registered: the chain's lock is held around
 * the notifier, which takes kp_mod_mutex.
 */
static DEFINE_MUTEX(kp_mod_mutex);
static LIST_HEAD(kp_mod_tabs);
static int kp_mod_users;	/* tables that registered the notifier */

/* Unregister one row now (its module goes): it waits for the next load. */
static void unregister_row(struct stp_kprobe_rt *r);

static void mod_coming(struct stp_kprobe_tab *tab, const char *name)
{
	size_t i;
	int rc;

	for (i = 0; i < tab->n; i++) {
		struct stp_kprobe_rt *r = &tab->rows[i];

		if (!r->pending || !row_of_module(r->k, name))
			continue;
		rc = register_one(r, NULL, NULL, NULL, tab->noopt);
		if (!rc) {
			r->pending = false;
			continue;
		}
		/* The session runs: the refusal cannot stop it. */
		if (!(r->k->flags & STP_KPROBE_OPTIONAL)) {
			char what[KSYM_NAME_LEN + 32];

			describe(r->k, what, sizeof(what));
			_stp_warn("%s at %s: module %s loaded, but cannot register a %s on "
				  "%s: %s (%d): %s", r->k->probe->pp, r->k->probe->loc, name,
				  r->k->flags & STP_KPROBE_RETURN ? "kretprobe" : "kprobe",
				  what, errno_name(rc), rc, errno_text(r->k, rc));
		}
	}
}

static void mod_going(struct stp_kprobe_tab *tab, const char *name)
{
	size_t i;

	for (i = 0; i < tab->n; i++) {
		struct stp_kprobe_rt *r = &tab->rows[i];

		if (r->registered && row_of_module(r->k, name)) {
			unregister_row(r);
			r->pending = true;
		}
	}
}

static int kp_mod_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	struct stp_kprobe_tab *tab;

	if (state != MODULE_STATE_COMING && state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&kp_mod_mutex);
	list_for_each_entry(tab, &kp_mod_tabs, mod_link) {
		if (!tab->mod_armed)
			continue;
		if (state == MODULE_STATE_COMING)
			mod_coming(tab, mod->name);
		else
			mod_going(tab, mod->name);
	}
	mutex_unlock(&kp_mod_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block kp_mod_nb = { .notifier_call = kp_mod_notify };

/*
 * Before registration: watch modules, so that one loaded while the
 * table registers is not missed (mod_arm retries the rows it refused).
 */
static void mod_watch(struct stp_kprobe_tab *tab)
{
	if (!tab->mod_rows)
		return;
	if (!kp_mod_users++ && register_module_notifier(&kp_mod_nb)) {
		kp_mod_users--;
		tab->mod_rows = false;	/* rows of unloaded modules are errors */
		return;
	}
	mutex_lock(&kp_mod_mutex);
	list_add(&tab->mod_link, &kp_mod_tabs);
	mutex_unlock(&kp_mod_mutex);
}

/* After registration: the notifier may act; rows whose module came since register now. */
static void mod_arm(struct stp_kprobe_tab *tab)
{
	size_t i;

	if (!tab->mod_rows)
		return;
	mutex_lock(&kp_mod_mutex);
	tab->mod_armed = true;
	for (i = 0; i < tab->n; i++) {
		struct stp_kprobe_rt *r = &tab->rows[i];

		if (r->pending && !register_one(r, NULL, NULL, NULL, tab->noopt))
			r->pending = false;
	}
	mutex_unlock(&kp_mod_mutex);
}

/* At stop: the notifier lets go of the table before its rows go. */
static void mod_unwatch(struct stp_kprobe_tab *tab)
{
	if (!tab->mod_rows || list_empty(&tab->mod_link))
		return;
	mutex_lock(&kp_mod_mutex);
	list_del_init(&tab->mod_link);
	tab->mod_armed = false;
	mutex_unlock(&kp_mod_mutex);
	if (!--kp_mod_users)
		unregister_module_notifier(&kp_mod_nb);
}

/* The table's runtime state, or NULL (reported) if there is no memory for it. */
static struct stp_kprobe_tab *tab_alloc(struct stp_kprobe *kps, size_t n)
{
	struct stp_kprobe_tab *tab;
	size_t i, size = struct_size(tab, rows, n);

	tab = kvzalloc(size, GFP_KERNEL);
	if (!tab) {
		_stp_ctl_sendf(STP_CTL_ERROR, "cannot register %zu kprobes (the first for "
			       "%s at %s): out of memory for their state (%zu bytes)",
			       n, kps[0].probe->pp, kps[0].probe->loc, size);
		return NULL;
	}
	_stp_alloc_note(size);
	tab->n = n;
	INIT_LIST_HEAD(&tab->mod_link);
	for (i = 0; i < n; i++) {
		tab->rows[i].k = &kps[i];
		kps[i].rt = &tab->rows[i];
		tab->mod_rows |= row_module(&kps[i]) != NULL;
	}
	return tab;
}

int _stp_kprobes_start(struct stp_kprobe *kps, size_t n)
{
	struct stp_kprobe_tab *tab;
	struct stp_fentry *fe = NULL;
	struct stp_fexit *fx = NULL;
	struct stp_kbl *kbl = NULL;
	size_t i, first, nfentry = 0, nfexit = 0, nint3 = 0, nknown = 0;
	bool noopt;
	int rc;

	for (i = 0; i < n; i++) {
		nfentry += (kps[i].flags & (STP_KPROBE_FENTRY | STP_KPROBE_RETURN)) ==
			   STP_KPROBE_FENTRY;
		nint3 += !(kps[i].flags & (STP_KPROBE_FENTRY | STP_KPROBE_RETURN));
		nfexit += fexit_row(&kps[i]);
		nknown += kps[i].ftrace && kps[i].link_ref;
	}
	noopt = nint3 > STP_KPROBE_OPTIMIZE_MAX;
	KP_T0(t);
#ifdef STP_KPROBE_TIMING
	unsigned long long kp_ns[2] = { 0, 0 };
	size_t kp_count[2] = { 0, 0 };
#endif

	if (!n)
		return 0;
	tab = tab_of(kps, n) ?: tab_alloc(kps, n);
	if (!tab)
		return -ENOMEM;
	/* Without it (no memory, no kernel support) every row is a kprobe. */
	if (nfentry && !tab->fentry)
		fe = tab->fentry = _stp_fentry_alloc(nfentry);
/* -DSTP_NO_FPROBE: every .return a kretprobe, for bench/entry_overhead.sh. */
#ifndef STP_NO_FPROBE
	if (nfexit && !tab->fexit)
		fx = tab->fexit = _stp_fexit_alloc(nfexit);
#endif

	if (nknown && (fe || fx))
		kbl = _stp_kbl_load();
	tab->noopt = noopt;
	if (list_empty(&tab->mod_link))
		mod_watch(tab);

	/* One group (probe point) at a time: kps[first..i) */
	for (first = 0; first < n; first = i) {
		const struct stp_kprobe *refused = NULL;
		size_t nrefused = 0, nok = 0;
		int refused_rc = 0;

		for (i = first; i < n && kps[i].group == kps[first].group; i++) {
			struct stp_kprobe *k = &kps[i];

			cond_resched();
			if (k->rt->registered) {
				nok++;
				continue;
			}
#ifdef STP_KPROBE_TIMING
			{
				u64 t1 = ktime_get_ns();

				rc = register_one(k->rt, fe, fx, kbl, noopt);
				kp_ns[k->rt->on_ftrace] += ktime_get_ns() - t1;
				kp_count[k->rt->on_ftrace]++;
			}
#else
			rc = register_one(k->rt, fe, fx, kbl, noopt);
#endif
			if (!rc) {
				nok++;
				continue;
			}
			/* No such symbol in a module: not loaded (yet). */
			if (rc == -ENOENT && tab->mod_rows && row_module(k)) {
				k->rt->pending = true;
				nok++;
				continue;
			}
			if (!(k->flags & (STP_KPROBE_OPTIONAL | STP_KPROBE_WILDCARD))) {
				report_failure(k, rc);
				_stp_kbl_free(kbl);
				_stp_kprobes_stop(kps, n);
				return rc;
			}
			if (!nrefused++) {
				refused = k;
				refused_rc = rc;
			}
		}
		if (!refused || (refused->flags & STP_KPROBE_OPTIONAL))
			continue;
		/* A wildcard: fine if something matched registered. */
		if (!nok) {
			report_failure(refused, refused_rc);
			if (nrefused > 1)
				_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: none of its %zu "
					       "functions could be probed",
					       refused->probe->pp, refused->probe->loc,
					       nrefused);
			_stp_kbl_free(kbl);
			_stp_kprobes_stop(kps, n);
			return refused_rc;
		}
		{
			char what[KSYM_NAME_LEN + 32];

			describe(refused, what, sizeof(what));
			_stp_warn("%s at %s: skipped %zu of its %zu functions, which "
				  "the kernel refused; %s: %s (%d): %s",
				  refused->probe->pp, refused->probe->loc, nrefused,
				  nrefused + nok, what, errno_name(refused_rc),
				  refused_rc, errno_text(refused, refused_rc));
		}
	}
	_stp_kbl_free(kbl);
#ifdef STP_KPROBE_TIMING
	_stp_warn("kprobes: %zu on ftrace sites registered in %llu ms, %zu others in %llu ms",
		  kp_count[1], kp_ns[1] / 1000000, kp_count[0], kp_ns[0] / 1000000);
#endif
	KP_LAP(t, "registered", n);
	rc = fe ? switch_to_ftrace(fe, noopt) : 0;
	KP_LAP(t, "moved to ftrace", nfentry);
	if (!rc && fx) {
		rc = switch_to_fexit(fx, noopt);
		KP_LAP(t, "fprobe registered", nfexit);
	}
	if (rc)
		_stp_kprobes_stop(kps, n);
	else
		mod_arm(tab);
	return rc;
}

/* The fprobe's misses: skipped hits, with the kretprobes' warning. */
static void account_fexit(struct stp_fexit *fx)
{
	const struct stp_kprobe *k = _stp_fexit_row(fx, 0);
	struct stp_kprobe *r;
	bool others = false;
	unsigned long missed;
	unsigned int i;

	for (i = 0; (r = _stp_fexit_row(fx, i)); i++)
		others |= r->probe != k->probe;
	missed = _stp_fexit_free(fx);
	if (!missed)
		return;
	/* One pool for all: the misses are the table's, not one function's. */
	_stp_warn("%s at %s: missed %lu returns%s; raise .maxactive(N) or "
		  "-DKRETACTIVE=N", k->probe->pp, k->probe->loc, missed,
		  others ? " (its own and other .return probes')" : "");
	atomic_add((int)min_t(unsigned long, missed, INT_MAX), &_stp_skip_count);
}

/* Count the hits the kernel missed on @r as skipped; warn about returns. */
static void account_missed(const struct stp_kprobe_rt *r);

static void unregister_row(struct stp_kprobe_rt *r)
{
	if (r->k->flags & STP_KPROBE_RETURN) {
		struct kretprobe *rp = &r->u.rp;

		unregister_kretprobes(&rp, 1);
	} else {
		struct kprobe *kp = &r->u.kp;

		unregister_kprobes(&kp, 1);
	}
	account_missed(r);
	r->registered = false;
}

static void account_missed(const struct stp_kprobe_rt *r)
{
	const struct stp_kprobe *k = r->k;
	unsigned long missed;

	if (k->flags & STP_KPROBE_RETURN) {
		missed = r->u.rp.nmissed;
		if (missed) {
			char what[KSYM_NAME_LEN + 32];

			describe(k, what, sizeof(what));
			_stp_warn("%s at %s: missed %lu returns of %s; raise "
				  ".maxactive(N) or -DKRETACTIVE=N",
				  k->probe->pp, k->probe->loc, missed, what);
		}
		missed += r->u.rp.kp.nmissed;
	} else {
		missed = r->u.kp.nmissed;
	}
	if (missed)
		atomic_add((int)min_t(unsigned long, missed, INT_MAX), &_stp_skip_count);
}

void _stp_kprobes_stop(struct stp_kprobe *kps, size_t n)
{
	struct stp_kprobe_tab *tab = tab_of(kps, n);
	struct kprobe *kb_stack[STP_KPROBE_BATCH], **kb = kb_stack;
	struct kretprobe *rb_stack[STP_KPROBE_BATCH], **rb = rb_stack;
	int nk = 0, nr = 0, kmax = STP_KPROBE_BATCH, rmax = STP_KPROBE_BATCH;
	size_t i;
	KP_T0(t);

	/* Never started, or stopped already. */
	if (!tab)
		return;
	mod_unwatch(tab);
	/*
	 * One grace period for all when there is memory for the lists: with
	 * thousands of probes, a batch of 32 a grace period took minutes.
	 */
	if (n > STP_KPROBE_BATCH && n <= INT_MAX) {
		kb = kvmalloc_array(n, sizeof(*kb), GFP_KERNEL);
		rb = kvmalloc_array(n, sizeof(*rb), GFP_KERNEL);
		if (kb)
			kmax = n;
		else
			kb = kb_stack;
		if (rb)
			rmax = n;
		else
			rb = rb_stack;
	}

	if (tab->fentry) {
		_stp_fentry_free(tab->fentry);
		tab->fentry = NULL;
		KP_LAP(t, "ftrace_ops unregistered", n);
	}
	if (tab->fexit) {
		account_fexit(tab->fexit);
		tab->fexit = NULL;
		KP_LAP(t, "fprobe unregistered", n);
	}
	for (i = 0; i < n; i++) {
		struct stp_kprobe_rt *r = &tab->rows[i];

		if (!r->registered)
			continue;
		if (r->k->flags & STP_KPROBE_RETURN)
			rb[nr++] = &r->u.rp;
		else
			kb[nk++] = &r->u.kp;
		if (nk == kmax)
			flush_kprobes(kb, &nk);
		if (nr == rmax) {
			unregister_kretprobes(rb, nr);
			nr = 0;
		}
	}
	flush_kprobes(kb, &nk);
	if (nr)
		unregister_kretprobes(rb, nr);
	KP_LAP(t, "kprobes unregistered", n);
	if (kb != kb_stack)
		kvfree(kb);
	if (rb != rb_stack)
		kvfree(rb);
	/* No handler runs any more: the counts are final, the state can go. */
	for (i = 0; i < n; i++) {
		if (tab->rows[i].registered)
			account_missed(&tab->rows[i]);
		kps[i].rt = NULL;
	}
	kvfree(tab);
}
