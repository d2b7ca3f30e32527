// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * upid armed (testsuite/upid.c): the marker upid:armed has a semaphore
 * (its own file, as _SDT_HAS_SEMAPHORES gives every marker of a file
 * one).  upid_armed() waits until a tracer raises the semaphore, then
 * until the marker's uprobe is in place in this process (the kernel
 * raises a semaphore just before it writes the breakpoint), and fires
 * the marker at once: a tracer whose semaphore went up before its probes
 * were live loses that hit.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <sys/sdt.h>
#include <time.h>

__extension__ unsigned short upid_armed_semaphore __attribute__((section(".probes")));

__attribute__((noinline)) static void armed_site(void)
{
	STAP_PROBE(upid, armed);
}

/* Is the breakpoint (int3) in the first bytes of armed_site()? */
static int site_probed(void)
{
	const volatile unsigned char *code = (const volatile unsigned char *)armed_site;

	for (int i = 0; i < 16; i++)
		if (code[i] == 0xcc)
			return 1;
	return 0;
}

static int waited(const struct timespec *t0, int secs)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - t0->tv_sec > secs;
}

/*
 * 0 once the marker fired; 1 if nothing was probed within 300 s (a big
 * module loads slowly in a loaded VM).  Polled every millisecond: the
 * session would have a lost hit to show only after more than that, and
 * a spinning loop would slow the VM's other CPU's work.
 */
int upid_armed(void)
{
	struct timespec t0, ms = { 0, 1000 * 1000 };

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!*(volatile unsigned short *)&upid_armed_semaphore) {
		nanosleep(&ms, NULL);
		if (waited(&t0, 300))
			return 1;
	}
	while (!site_probed()) {
		nanosleep(&ms, NULL);
		if (waited(&t0, 300))
			return 1;
	}
	armed_site();
	fprintf(stderr, "upid armed\n");
	return 0;
}
