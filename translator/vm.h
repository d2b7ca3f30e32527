/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pass 5 inside a throwaway QEMU (TCG) virtual machine that boots a real
 * kernel, for hosts that cannot load modules and for the VM test suite.
 * One boot runs any number of jobs, one after another.
 */
#ifndef VM_H
#define VM_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct vec;

struct vm_job {
	const char *name;	/* unique, [A-Za-z0-9_.-]+ */
	const char *module;	/* host path of the .ko to run */
	char **staprun_args;	/* extra staprun options, NULL-terminated, or NULL */
	char **module_params;	/* NAME=VALUE after the module (stap -G), or NULL */
	/*
	 * Host paths of NAME.ko (or NAME.ko.xz) files insmod'ed, in order,
	 * before staprun and rmmod'ed after it (NULL-terminated, or
	 * NULL).  If one fails to load, the job's stderr says why and
	 * staprun does not run (status 1).
	 */
	const char *const *insmod;
	/*
	 * --vm-spawn: spawn_cmd (words quoted for the guest's shell) runs
	 * in the background as process spawn_pid from before staprun until
	 * after it (killed then if still running).  If that pid is taken,
	 * the job's stderr says so and staprun does not run (status 1).
	 * spawn_pid 0: none.
	 */
	int spawn_pid;
	const char *spawn_cmd;
	/*
	 * Host path of a file the job's staprun reads as its stdin (for
	 * input.char/input.line), or NULL for /dev/null.
	 */
	const char *stdin_file;
	/* results, filled in by vm_run() (caller frees out and err) */
	char *out;		/* the job's stdout, exactly as written */
	size_t out_len;
	char *err;		/* the job's stderr */
	size_t err_len;
	int status;		/* staprun exit status; -1 if it never finished */
	int crashed;		/* the guest kernel died during this job */
	int hung;		/* it ran past job_timeout_s, in two boots */
};

struct vm_config {
	const char *release;	/* kernel release, e.g. "6.1.0-56-amd64" */
	const char *kernel;	/* NULL: /boot/vmlinuz-<release> */
	const char *staprun;	/* host path of the staprun binary */
	const char **files;	/* extra host files copied in at the same path
				 * with their shared libraries; NULL-terminated
				 * or NULL */
	int timeout_s;		/* whole VM; 0: a default scaled by job count */
	int cpus;		/* 0: 2 */
	int mem_mb;		/* 0: 1024 */
	int verbose;		/* print QEMU command line and boot progress */
	int stream;		/* with one job: copy its stdout/stderr to ours
				 * as it arrives instead of buffering */
	int tcg_single;		/* all vCPUs on one host thread (vm.c says
				 * when a test needs it) */
	/*
	 * After the guest kernel dies during a job, boot again (at most
	 * this many times in all) for the jobs after it, so one crash does
	 * not fail a whole batch; 0: stop at the first crash.
	 */
	int reboots;
	/*
	 * A job still running after this many seconds has hung the guest
	 * (or itself): the vCPUs' state goes to the kernel problem, and with
	 * reboots it is handled as a death, its rerun included; 0: no limit
	 * but timeout_s.
	 */
	int job_timeout_s;
	/*
	 * The guest not running its init this many seconds after QEMU
	 * started has hung while booting (no job has run, so nothing of
	 * ours is to blame): it is stopped, the vCPUs' state recorded,
	 * and booted once more, with timeout_s alone as its limit.
	 * 0: VM_BOOT_LIMIT_S; -1: none.
	 */
	int boot_timeout_s;
};

/* A boot takes 3-8 s under TCG, some 30 s on a loaded host. */
#define VM_BOOT_LIMIT_S 60

struct vm_result {
	int booted;		/* the guest's init started */
	int timed_out;		/* killed at timeout_s */
	int kernel_problem;	/* oops, BUG, WARNING or panic in the log */
	char *problem;		/* the offending kernel log lines, or NULL */
	char *console;		/* whole serial console log (caller frees) */
	int running_job;	/* index of the job the guest died in, or -1 */
	int hung;		/* killed in a job past cfg->job_timeout_s */
	int boot_hung;		/* killed before init, past cfg->boot_timeout_s */
	/*
	 * Kernel failures taken for the emulator's, not ours, because the
	 * job they stopped then passed in a new boot (vm.c says which), or
	 * NULL.  They are not in problem and do not set kernel_problem.
	 */
	char *emulator_problem;
};

/*
 * Boot cfg->release, run each job's module with staprun, collect results.
 * Returns 0 if the VM ran all jobs to completion (look at each job's
 * status and at res->kernel_problem), or a negative errno with a message
 * already printed ("qemu-system-x86_64 not found: run ./bootstrap.sh").
 */
/*
 * Append to libs (malloc'ed paths) the shared libraries and the dynamic
 * loader that ldd lists for path; 0 or a negative errno (reported).
 */
int vm_ldd(const char *path, struct vec *libs);

int vm_run(const struct vm_config *cfg, struct vm_job *jobs, int njobs,
	   struct vm_result *res);

void vm_result_free(struct vm_result *res);

/*
 * The registers of a running QEMU's vCPUs, from its human monitor on the
 * unix socket @sock, @samples times 0.1 s apart, each RIP named from
 * /usr/lib/debug/boot/vmlinux-@release when the guest's _stext (from its
 * /proc/kallsyms) is known, or is VM_STEXT_LINK (a kernel not moved by
 * KASLR); malloc'ed text, one line a vCPU (vm_cpus.c).
 */
#define VM_STEXT_LINK UINT64_MAX
char *vm_cpu_state(const char *sock, const char *release, uint64_t guest_stext,
		   int samples);

/* The debuginfo vmlinux of @release, where bootstrap.sh puts it (malloc'ed). */
char *vm_debug_vmlinux(const char *release);
/* Has the vmlinux at @path a PVH entry, so QEMU can boot it (vm_cpus.c)? */
bool vm_vmlinux_bootable(const char *path);

/* Does a kernel problem look like the emulator's int3 race (vm.c)? */
bool vm_problem_is_tcg_int3(const char *problem);
/* Does a hang's problem (the vCPUs' state) look like the same race (vm_cpus.c)? */
bool vm_hang_is_tcg_int3(const char *problem);

/* Host-side helpers, also for callers that prepare cfg->files and jobs. */
struct strbuf;
/* First executable NAME in $PATH (malloc'd), or NULL. */
char *vm_which(const char *name);
/* Append S to SB in single quotes, for the guest's shell. */
void vm_sh_quote(struct strbuf *sb, const char *s);
/*
 * Length of path's ".ko" (or ".ko.xz": Debian's 6.12 ships its modules
 * so) suffix; 0 if neither.
 */
size_t vm_module_suffix(const char *path);

#endif /* VM_H */
