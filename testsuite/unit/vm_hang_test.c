// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which guest failures the VM runner takes for the emulator's
 * text-patching race (translator/vm.c) and excuses after a rerun ends:
 * an int3 oops just past an ftrace call site, and a hang with a running
 * vCPU seen in the int3 handlers and at one other address, and seldom
 * elsewhere (the interrupts it still takes).
 * Anything else stays a failure.
 */
#include "vm.h"

#include <stdio.h>

static int fails;

static void check(const char *what, bool got, bool want)
{
	if (got != want) {
		printf("FAIL %s: %d, want %d\n", what, got, want);
		fails++;
	}
}

#define HEAD "stap-vm: job t_x still running after 240 s: the guest was stopped\n"

int main(void)
{
	/* CI, 6.1, run/uprobe_syscall: both vCPUs on one stale int3. */
	check("a vCPU between one site and the int3 handlers",
	      vm_hang_is_tcg_int3(HEAD
		"the vCPUs, sample 1 of 2:\n"
		"  CPU#0 RIP ffffffffb7946509 syscall_trace_enter.constprop.0+0xe9\n"
		"  CPU#1 RIP ffffffffb7946509 syscall_trace_enter.constprop.0+0xe9\n"
		"the vCPUs, sample 2 of 2:\n"
		"  CPU#0 RIP ffffffffb7946509 syscall_trace_enter.constprop.0+0xe9\n"
		"  CPU#1 RIP ffffffffb8400ba0 asm_exc_int3+0x0\n"), true);
	/*
	 * CI, 6.1, run/syscall_decoders3: the same loop after a minute of
	 * soft lockups, so timer interrupts are sampled too.
	 */
	check("the loop, with the interrupts it takes",
	      vm_hang_is_tcg_int3(HEAD
		"the vCPUs, sample 1 of 5:\n"
		"  CPU#0 RIP ffffffff94746509 syscall_trace_enter.constprop.0+0xe9\n"
		"  CPU#1 RIP ffffffff95201220 native_irq_return_iret+0x0\n"
		"the vCPUs, sample 2 of 5:\n"
		"  CPU#0 RIP ffffffff94675a20 native_apic_mem_write+0x0\n"
		"  CPU#1 RIP ffffffff94746509 syscall_trace_enter.constprop.0+0xe9\n"
		"the vCPUs, sample 3 of 5:\n"
		"  CPU#0 RIP ffffffff95048723 irqentry_nmi_enter+0x23\n"
		"  CPU#1 RIP ffffffff9467c40d read_hpet+0x5d\n"
		"the vCPUs, sample 4 of 5:\n"
		"  CPU#0 RIP ffffffff94746509 syscall_trace_enter.constprop.0+0xe9\n"
		"  CPU#1 RIP ffffffff9466ed6b __sysvec_apic_timer_interrupt+0x4b\n"
		"the vCPUs, sample 5 of 5:\n"
		"  CPU#0 RIP ffffffff95200ba0 asm_exc_int3+0x0\n"
		"  CPU#1 RIP ffffffff9475773d timekeeping_update+0xcd\n"), true);
	check("one address twice, the handlers once, elsewhere mostly",
	      vm_hang_is_tcg_int3(HEAD
		"the vCPUs, sample 1 of 6:\n"
		"  CPU#0 RIP ffffffff94746509 syscall_trace_enter.constprop.0+0xe9\n"
		"the vCPUs, sample 2 of 6:\n"
		"  CPU#0 RIP ffffffff94675a20 native_apic_mem_write+0x0\n"
		"the vCPUs, sample 3 of 6:\n"
		"  CPU#0 RIP ffffffff95200ba0 asm_exc_int3+0x0\n"
		"the vCPUs, sample 4 of 6:\n"
		"  CPU#0 RIP ffffffff94746509 syscall_trace_enter.constprop.0+0xe9\n"
		"the vCPUs, sample 5 of 6:\n"
		"  CPU#0 RIP ffffffff9467c40d read_hpet+0x5d\n"
		"the vCPUs, sample 6 of 6:\n"
		"  CPU#0 RIP ffffffff9475773d timekeeping_update+0xcd\n"), false);
	check("in the handlers only",
	      vm_hang_is_tcg_int3(HEAD
		"the vCPUs, sample 1 of 2:\n"
		"  CPU#0 RIP ffffffff9a000010 exc_int3+0x10\n"
		"  CPU#1 RIP ffffffff9a459feb native_safe_halt+0xb, halted\n"
		"the vCPUs, sample 2 of 2:\n"
		"  CPU#0 RIP ffffffff9a000110 kprobe_int3_handler+0x40\n"
		"  CPU#1 RIP ffffffff9a459feb native_safe_halt+0xb, halted\n"), true);
	check("never in the handlers (one site: a spin)",
	      vm_hang_is_tcg_int3(HEAD
		"the vCPUs, sample 1 of 2:\n"
		"  CPU#0 RIP ffffffffb7946509 syscall_trace_enter.constprop.0+0xe9\n"
		"the vCPUs, sample 2 of 2:\n"
		"  CPU#0 RIP ffffffffb7946509 syscall_trace_enter.constprop.0+0xe9\n"), false);
	check("the handlers and two other sites (a kprobe in a loop)",
	      vm_hang_is_tcg_int3(HEAD
		"the vCPUs, sample 1 of 3:\n"
		"  CPU#0 RIP ffffffff9a000010 exc_int3+0x10\n"
		"the vCPUs, sample 2 of 3:\n"
		"  CPU#0 RIP ffffffff9a001234 vfs_read+0x4\n"
		"the vCPUs, sample 3 of 3:\n"
		"  CPU#0 RIP ffffffffc0001234 (not in the kernel image)\n"), false);
	/* The lock deadlock of session 19's rwlock_t on PREEMPT_RT. */
	check("a spinlock deadlock",
	      vm_hang_is_tcg_int3(HEAD
		"the vCPUs, sample 1 of 2:\n"
		"  CPU#0 RIP ffffffff8d05abf0 native_queued_spin_lock_slowpath+0x30\n"
		"  CPU#1 RIP ffffffff8d05abf0 native_queued_spin_lock_slowpath+0x30\n"
		"the vCPUs, sample 2 of 2:\n"
		"  CPU#0 RIP ffffffff8d05abf0 native_queued_spin_lock_slowpath+0x30\n"
		"  CPU#1 RIP ffffffff8d05abf0 native_queued_spin_lock_slowpath+0x30\n"), false);
	check("the handlers and a spin over two addresses",
	      vm_hang_is_tcg_int3(HEAD
		"the vCPUs, sample 1 of 2:\n"
		"  CPU#0 RIP ffffffff9a000010 exc_int3+0x10\n"
		"  CPU#0 RIP ffffffff8d05abf0 native_queued_spin_lock_slowpath+0x30\n"
		"the vCPUs, sample 2 of 2:\n"
		"  CPU#0 RIP ffffffff8d05ac00 native_queued_spin_lock_slowpath+0x40\n"), false);
	check("no samples (the monitor did not answer)",
	      vm_hang_is_tcg_int3(HEAD "  (QEMU's monitor did not answer)\n"), false);
	check("no problem", vm_hang_is_tcg_int3(NULL), false);
	/* A longer name that contains a handler's is not the handler. */
	check("a longer name",
	      vm_hang_is_tcg_int3(HEAD
		"the vCPUs, sample 1 of 1:\n"
		"  CPU#0 RIP ffffffff9a000010 my_exc_int3+0x10\n"), false);

	check("int3 oops past an IBT ftrace site",
	      vm_problem_is_tcg_int3("int3: 0000 [#1] PREEMPT SMP NOPTI\n"
				     "RIP: 0010:__do_sys_getppid+0x5/0x30\n"), true);
	check("int3 oops elsewhere",
	      vm_problem_is_tcg_int3("int3: 0000 [#1] PREEMPT SMP NOPTI\n"
				     "RIP: 0010:__do_sys_getppid+0x9/0x30\n"), false);
	check("a NULL dereference",
	      vm_problem_is_tcg_int3("BUG: kernel NULL pointer dereference\n"
				     "RIP: 0010:oops_init+0x5/0x10\n"), false);
	if (!fails)
		printf("vm_hang_test: all passed\n");
	return fails ? 1 : 0;
}
