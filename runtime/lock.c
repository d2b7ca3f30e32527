// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Locks on script globals.
 *
 * A probe may fire anywhere, including while another CPU holds a lock
 * for a long-running probe, so a probe never spins unbounded: it tries
 * each lock at most MAXTRYLOCK times and, failing that, gives up the
 * hit (counted as skipped, as SystemTap does) rather than risk a
 * deadlock or a stall.  The translator sorts the locks, so two probes
 * never wait for each other in opposite orders.
 */
#include <linux/delay.h>
#include <linux/spinlock.h>
#include "stp_internal.h"

static bool try_one(const struct stp_lock_req *r)
{
	return r->write ? write_trylock(r->lock) : read_trylock(r->lock);
}

static void release_one(const struct stp_lock_req *r)
{
	if (r->write)
		write_unlock(r->lock);
	else
		read_unlock(r->lock);
}

bool _stp_lock_globals(const struct stp_lock_req *reqs, int n)
{
	int i, tries;

	for (i = 0; i < n; i++) {
		for (tries = 1; !try_one(&reqs[i]); tries++) {
			if (tries >= MAXTRYLOCK) {
				_stp_unlock_globals(reqs, i);
				_stp_count_skip();
				return false;
			}
			cpu_relax();
			ndelay(TRYLOCKDELAY);
		}
	}
	return true;
}

void _stp_unlock_globals(const struct stp_lock_req *reqs, int n)
{
	/* Reverse order of taking, the usual discipline. */
	while (n-- > 0)
		release_one(&reqs[n]);
}
