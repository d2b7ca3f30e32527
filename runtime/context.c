// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-CPU probe contexts and _stp_run_probe(), the wrapper around every
 * probe hit: reentrancy check, session-state check, error reporting,
 * output flush.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/timex.h>
#include "stp_internal.h"
#include "stp_tapset.h"

atomic_t _stp_state = ATOMIC_INIT(STP_SESSION_STOPPED);
atomic_t _stp_error_count = ATOMIC_INIT(0);
/* Of those, the ones --suppress-handler-errors kept quiet. */
static atomic_t suppressed_errors = ATOMIC_INIT(0);
atomic_t _stp_skip_count = ATOMIC_INIT(0);
atomic_t _stp_exit_flag = ATOMIC_INIT(0);
static atomic_t skip_limit_hit = ATOMIC_INIT(0);
static atomic_t overload_hit = ATOMIC_INIT(0);

static DEFINE_PER_CPU(struct stp_cpu *, stp_cpus);

struct stp_scratch *_stp_scratch(void)
{
	return &this_cpu_read(stp_cpus)->scratch;
}

int _stp_context_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct stp_cpu *sc;

		sc = kvzalloc_node(sizeof(*sc), GFP_KERNEL, cpu_to_node(cpu));
		if (!sc)
			goto nomem;
		per_cpu(stp_cpus, cpu) = sc;
		if (stp_locals_size) {
			sc->c.locals = kvzalloc_node(stp_locals_size, GFP_KERNEL,
						     cpu_to_node(cpu));
			if (!sc->c.locals)
				goto nomem;
		}
	}
	return 0;

nomem:
	_stp_context_exit();
	return -ENOMEM;
}

atomic_long_t _stp_alloc_bytes = ATOMIC_LONG_INIT(0);

void _stp_module_size(char *dst, size_t len)
{
	unsigned long text, data, ctx, net;

#ifdef STAPCONF_MODULE_MEM
	text = THIS_MODULE->mem[MOD_TEXT].size;
	data = THIS_MODULE->mem[MOD_DATA].size + THIS_MODULE->mem[MOD_RODATA].size +
	       THIS_MODULE->mem[MOD_RO_AFTER_INIT].size;
#else
	text = THIS_MODULE->core_layout.text_size;
	data = THIS_MODULE->core_layout.size - text;
#endif
	ctx = (sizeof(struct stp_cpu) + stp_locals_size) * num_possible_cpus();
	net = ((unsigned long)_stp_relay_bufsize_mb() << 20) * num_online_cpus();
	snprintf(dst, len, "%ludata/%lutext/%luctx/%lunet/%lualloc kb",
		 data >> 10, text >> 10, ctx >> 10, net >> 10,
		 (unsigned long)atomic_long_read(&_stp_alloc_bytes) >> 10);
}

void _stp_context_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct stp_cpu *sc = per_cpu(stp_cpus, cpu);

		if (!sc)
			continue;
		kvfree(sc->c.locals);
		kvfree(sc);
		per_cpu(stp_cpus, cpu) = NULL;
	}
}

void _stp_stats_reset(void)
{
	atomic_set(&_stp_error_count, 0);
	atomic_set(&suppressed_errors, 0);
	atomic_set(&_stp_skip_count, 0);
	atomic_set(&_stp_exit_flag, 0);
	atomic_set(&skip_limit_hit, 0);
	atomic_set(&overload_hit, 0);
	_stp_relay_reset_stats();
}

bool _stp_session_failed(void)
{
	return atomic_read(&_stp_error_count) > atomic_read(&suppressed_errors) ||
	       atomic_read(&skip_limit_hit);
}

int _stp_session_state(void)
{
	return atomic_read(&_stp_state);
}

void _stp_exit(void)
{
	/*
	 * Ordinary probes stop at once, as in SystemTap; so do the begin
	 * probes still to come (SystemTap 4.8 runs none after exit()).
	 * ctl.c's timer turns the flag into STP_CTL_REQUEST_EXIT.
	 */
	if (atomic_cmpxchg(&_stp_state, STP_SESSION_RUNNING, STP_SESSION_STOPPING) !=
	    STP_SESSION_RUNNING)
		atomic_cmpxchg(&_stp_state, STP_SESSION_STARTING, STP_SESSION_STOPPING);
	atomic_set(&_stp_exit_flag, 1);
}

/*
 * End the session because of errors: from now on only error probes run
 * (end probes are skipped, as SystemTap documents).  An error in an end
 * probe skips the end probes after it too, as SystemTap 4.8 does; one in
 * an error probe leaves the state alone so the other error probes run.
 */
void _stp_error_shutdown(void)
{
	if (atomic_cmpxchg(&_stp_state, STP_SESSION_RUNNING, STP_SESSION_ERROR) !=
	    STP_SESSION_RUNNING &&
	    atomic_cmpxchg(&_stp_state, STP_SESSION_STARTING, STP_SESSION_ERROR) !=
	    STP_SESSION_STARTING)
		atomic_cmpxchg(&_stp_state, STP_SESSION_STOPPING, STP_SESSION_ERROR);
	_stp_exit();
}

/*
 * A hit that did not run because this CPU was already running one (an
 * interrupt, NMI or recursion): counted, but as man stap documents for
 * MAXSKIPPED (the default INTERRUPTIBLE=1), not held against the limit.
 */
void _stp_count_reentry(void)
{
	atomic_inc(&_stp_skip_count);
}

/* A hit that did not run for any other reason: a lock, too little stack. */
void _stp_count_skip(void)
{
	if (atomic_inc_return(&_stp_skip_count) > _stp_params.maxskipped &&
	    !atomic_xchg(&skip_limit_hit, 1)) {
		_stp_ctl_sendf(STP_CTL_ERROR,
			       "Skipped too many probes, check MAXSKIPPED or try again with stap -t for more details.");
		_stp_error_shutdown();
	}
}

/*
 * Free bytes of this task's kernel stack below us.  Interrupt and
 * exception stacks are per-CPU areas whose bounds a module cannot read
 * on every kernel, so hits running on them are not held to MINSTACKSPACE
 * (ULONG_MAX).
 */
static unsigned long stack_free(void)
{
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	unsigned long base = (unsigned long)task_stack_page(current);

	if (sp < base || sp >= base + THREAD_SIZE)
		return ULONG_MAX;
	return sp - base;
}

/*
 * Overload accounting needs each hit's cycles, but get_cycles() is not
 * free (under TCG each rdtsc takes a lock QEMU shares between all
 * vCPUs).  So once a probe's hits on a CPU are short, only about one
 * in OVL_SAMPLE of its consecutive hits there is timed, at random gaps
 * (no pattern in its hits is always missed or always timed), and the
 * untimed ones are charged at its last short figure.  A timed hit of
 * OVL_SHORT cycles or more counts once, as measured, and makes timing
 * exact until a hit is short again: a probe whose hits are long is
 * timed exactly, and a stall that lands in a timed hit (a preempted
 * vCPU) is not multiplied by the gap.  The price: a rare long hit
 * among short ones is charged as short when it falls in a gap.  Any
 * other probe's hit is timed.  Many short hits that add up to an
 * overload are still caught (cli/overload_short).
 */
#define OVL_SAMPLE 8
#define OVL_SHORT 20000

static u32 ovl_next_gap(struct stp_cpu *sc)
{
	u32 x = sc->ovl_rnd ?: 0x9e3779b9 ^ smp_processor_id();

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	sc->ovl_rnd = x;
	return x % (2 * OVL_SAMPLE - 1);	/* 0 .. 2(S-1): mean S-1 */
}

/*
 * Charge this CPU the cycles of @p's hit that started at @start, and
 * the untimed hits before it, in the current interval of
 * STP_OVERLOAD_INTERVAL cycles (a new one begins once that many have
 * passed).  As soon as the interval's sum exceeds
 * STP_OVERLOAD_THRESHOLD the session stops with SystemTap's error: its
 * figure is the sum, just past the threshold, as SystemTap 4.8 reports.
 * Both CPUs may get there at once; one error is reported.
 */
static void overload_charge(struct stp_cpu *sc, const struct stp_probe *p, u64 start)
{
	u64 now = get_cycles(), d = now - start;

	if (!sc->ovl_start || now - sc->ovl_start >= _stp_params.overload_interval) {
		sc->ovl_start = start;
		sc->ovl_cycles = 0;
	}
	sc->ovl_cycles += d + (u64)sc->ovl_untimed * sc->ovl_est;
	sc->ovl_untimed = 0;
	if (d < OVL_SHORT) {
		sc->ovl_probe = p;
		sc->ovl_est = d;
		sc->ovl_gap = ovl_next_gap(sc);
	} else {
		sc->ovl_probe = NULL;
		sc->ovl_gap = 0;
	}
	if (sc->ovl_cycles <= _stp_params.overload_threshold || atomic_xchg(&overload_hit, 1))
		return;
	_stp_ctl_sendf(STP_CTL_ERROR,
		       "probe overhead (%llu cycles) exceeded threshold (%llu cycles) in last %llu cycles",
		       (unsigned long long)sc->ovl_cycles,
		       (unsigned long long)_stp_params.overload_threshold,
		       (unsigned long long)_stp_params.overload_interval);
	atomic_inc(&_stp_error_count);
	_stp_error_shutdown();
}

static void report_error(struct stp_context *c)
{
	/* abort() (tapset_misc.c) unwinds like an error but is not one. */
	if (c->last_error == _stp_abort_msg)
		return;
	/*
	 * stap --suppress-handler-errors: the handler ends, silently, as if
	 * in try { } catch { }; SystemTap still counts it in the summary.
	 */
	if (stp_suppress_handler_errors) {
		atomic_inc(&suppressed_errors);
		atomic_inc(&_stp_error_count);
		return;
	}
	if (c->last_stmt)
		_stp_ctl_sendf(STP_CTL_ERROR, "%s near %s", c->last_error,
			       c->last_stmt);
	else
		_stp_ctl_sendf(STP_CTL_ERROR, "%s", c->last_error);
	/* SystemTap semantics: more than MAXERRORS errors end the session. */
	if (atomic_inc_return(&_stp_error_count) > _stp_params.maxerrors)
		_stp_error_shutdown();
}

void _stp_run_probe(const struct stp_probe *p, struct pt_regs *regs)
{
	_stp_run_probe_hit(p, regs, NULL);
}

int _stp_run_probe_hit(const struct stp_probe *p, struct pt_regs *regs,
		       const struct stp_hit *h)
{
	struct stp_cpu *sc;
	struct stp_context *c;
	unsigned long flags = 0;
	bool ovl_timed = false;
	int ret = -1;
	u64 start = 0;

	if (atomic_read(&_stp_state) != p->state)
		return -1;

	/*
	 * Interrupts off for the whole hit (preemption with them): the
	 * context, per-CPU statistics and counters and the print buffer are
	 * this CPU's, and a probe hit in an interrupt waits for the handler
	 * to end and then runs.  SystemTap's default (man stap,
	 * INTERRUPTIBLE=1) leaves them on, so that hit finds the CPU busy
	 * and is skipped: a timer.s() report or exit() landing in a busy
	 * handler would be lost (cli/staprun_detach's procfs read cost a
	 * timer.ms() hit that way).  -DINTERRUPTIBLE=1 still asks for that,
	 * e.g. for handlers long enough to matter to interrupt latency.
	 */
	if (_stp_params.irqs_off)
		local_irq_save(flags);
	else
		preempt_disable_notrace();
	sc = this_cpu_read(stp_cpus);
	/*
	 * An interrupt, an NMI, or a probe on a function the handler calls may
	 * hit while this CPU already runs one; the inner hit is skipped
	 * rather than clobbering the context.
	 * cmpxchg_local is atomic against anything on this CPU.
	 */
	if (unlikely(!sc || cmpxchg_local(&sc->busy, 0, 1) != 0)) {
		_stp_count_reentry();
		goto out;
	}
	/* Too little stack left to run a handler safely: skip the hit. */
	if (unlikely(stack_free() < _stp_params.minstackspace)) {
		WRITE_ONCE(sc->busy, 0);
		_stp_count_skip();
		goto out;
	}
	/* Begin, end and error probes are not charged, as in SystemTap 4.8
	 * (run/sigint_begin: a begin probe that runs for a second). */
	if (_stp_params.overload && p->state == STP_SESSION_RUNNING) {
		if (sc->ovl_gap && p == sc->ovl_probe) {
			sc->ovl_gap--;
			sc->ovl_untimed++;
		} else {
			ovl_timed = true;
		}
	}
	if (ovl_timed || p->timed)
		start = get_cycles();

	c = &sc->c;
	c->probe = p;
	c->last_error = NULL;
	c->last_stmt = NULL;
	c->actions = 0;
	c->pending = 0;
	c->nesting = 0;
	c->regs = regs;
	c->match_ngroups = 0;
	c->entry_slots = h ? h->entry_slots : NULL;
	c->args = h ? h->args : NULL;
	c->ret_from = h ? h->ret_from : 0;
	c->procfs = h ? h->procfs : NULL;
	c->uprobe = h ? h->uprobe : NULL;

	/*
	 * A .callee probe called from elsewhere: not a hit.  A .return's is
	 * checked at its entry, whose failure leaves the return unarmed.
	 */
	if (unlikely(p->callers) && !(h && h->ret_from) && !p->callers->match(c, p->callers)) {
		barrier();
		WRITE_ONCE(sc->busy, 0);
		goto out;
	}
	if (h && h->fn)
		h->fn(c);
	else
		p->handler(c);
#ifdef STP_CHECK_IRQS
	/*
	 * Something the handler called turned interrupts back on (as an
	 * rt_mutex's slow path does on PREEMPT_RT): in a probe inside the
	 * scheduler that can deadlock the CPU.  The test suite's builds ask
	 * for this check, and its kernel-log check fails on the warning.
	 */
	if (_stp_params.irqs_off &&
	    WARN_ONCE(!irqs_disabled(), "stap: probe %s turned interrupts on\n", p->pp))
		local_irq_disable();
#endif
	if (unlikely(p->timed))
		_stp_params.timing_add(p, get_cycles() - start);

	if (unlikely(c->last_error))
		report_error(c);
	else
		ret = 0;
	_stp_print_flush(sc);
	if (ovl_timed)
		overload_charge(sc, p, start);
	barrier();
	WRITE_ONCE(sc->busy, 0);
out:
	if (_stp_params.irqs_off)
		local_irq_restore(flags);
	else
		preempt_enable_notrace();
	return ret;
}

void _stp_error(struct stp_context *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->error_buf, sizeof(c->error_buf), fmt, ap);
	va_end(ap);
	c->last_error = c->error_buf;
}

void _stp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_stp_ctl_vsendf(STP_CTL_WARNING, fmt, ap);
	va_end(ap);
}
