// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Locks on script globals.
 *
 * A probe may fire anywhere, including while another CPU holds a lock
 * for a long-running probe, so a probe never spins unbounded: as in
 * SystemTap, it waits for each lock at most MAXTRYLOCK times
 * TRYLOCKDELAY microseconds and, failing that, gives up the hit
 * (counted as skipped) rather than risk a deadlock or a stall.  Within
 * each wait the lock is tried every 100 ns, so one another CPU's hit
 * holds for a moment is taken as soon as it is free: ordinary
 * contention costs that moment, never a skip.  The translator sorts the
 * locks, so two probes never wait for each other in opposite orders.
 */
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include "stp_internal.h"

/* Every CPU's lock, in CPU order (the same order for every writer). */
bool _stp_trylock_all_cpus(raw_spinlock_t __percpu *l)
{
	int cpu, undo;

	for_each_possible_cpu(cpu) {
		if (raw_spin_trylock(per_cpu_ptr(l, cpu)))
			continue;
		for_each_possible_cpu(undo) {
			if (undo == cpu)
				break;
			raw_spin_unlock(per_cpu_ptr(l, undo));
		}
		return false;
	}
	return true;
}

void _stp_unlock_all_cpus(raw_spinlock_t __percpu *l)
{
	int cpu;

	for_each_possible_cpu(cpu)
		raw_spin_unlock(per_cpu_ptr(l, cpu));
}

/* Tries of one lock per microsecond of waiting. */
#define STP_TRIES_PER_US 10

/* MAXTRYLOCK waits of TRYLOCKDELAY microseconds (script_params.h). */
static bool wait_one(const struct stp_lock_req *r)
{
	u64 tries = _stp_params.maxtrylock *
		    max_t(u64, (u64)_stp_params.trylockdelay * STP_TRIES_PER_US, 1);

	while (tries--) {
		ndelay(1000 / STP_TRIES_PER_US);
		if (_stp_trylock_req(r))
			return true;
	}
	return false;
}

/*
 * _stp_lock_globals (stp_map.h) found reqs[i] taken: wait for it, then
 * take the rest, waiting for each in turn.
 */
bool _stp_lock_globals_wait(const struct stp_lock_req *reqs, int n, int i)
{
	for (; i < n; i++) {
		if (likely(_stp_trylock_req(&reqs[i])) || wait_one(&reqs[i]))
			continue;
		_stp_unlock_globals(reqs, i);
		_stp_count_skip();
		return false;
	}
	return true;
}
