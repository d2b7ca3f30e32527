/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interface between a generated probe module and the runtime.
 *
 * The translator emits one C file (stap_probe.c) that includes this
 * header, defines the symbols in "provided by the generated code" below,
 * and calls the runtime functions.  The runtime's own .c files are built
 * as separate objects of the same module and include this header too.
 *
 * Probe context rules: nothing here allocates or sleeps when called from
 * a probe handler; all memory is set up at module load.
 */
#ifndef STP_RUNTIME_H
#define STP_RUNTIME_H

#include <linux/types.h>
#include <linux/compiler.h>
#include "stp_limits.h"
#include "stp_map.h"

/* Session states.  A probe runs only while the session is in its state. */
enum stp_session_state {
	STP_SESSION_STARTING,	/* begin probes run */
	STP_SESSION_RUNNING,	/* ordinary probes run */
	STP_SESSION_ERROR,	/* error probes run */
	STP_SESSION_STOPPING,	/* end probes run */
	STP_SESSION_STOPPED,
};

struct stp_context;
struct stp_uentries;

/* Capture groups (with the whole match) a script can read back. */
#define STP_MAX_MATCH_GROUPS 10

/*
 * A .callee probe's callers (translator/probes/callee.c): the hit runs
 * only if the stack's return addresses, from the innermost caller out,
 * are ra[0..n): link-time addresses of the kernel moved by its KASLR
 * offset (_printk's address less link_ref), or for a user probe
 * (_stp_ucallers_match) file offsets in the probed file.
 * -DSTAP_CALLEE_MATCHALL runs every hit, as in SystemTap.
 */
struct stp_callers {
	/* _stp_(u)callers_match: named here so that only such modules link an unwinder */
	bool (*match)(struct stp_context *c, const struct stp_callers *cl);
	u64 link_ref;
	u32 n;
	const u64 *ra;
};

/* One probe as the translator emitted it. */
struct stp_probe {
	const char *pp;		/* probe point as written, for pp() */
	const char *pn;		/* the alias the script named, for pn(); else pp */
	const char *label;	/* a .label probe's label, for pnlabel(); else NULL */
	const char *loc;	/* "file:line:col" of the probe keyword */
	void (*handler)(struct stp_context *c);
	u8 state;		/* enum stp_session_state it runs in */
	/*
	 * Reads no register but ax, cx, dx, si, di, r8, r9, bp, sp and ip:
	 * runtime/fentry.c may hand it the partial pt_regs of an ftrace_ops
	 * without SAVE_REGS (translator/emit.c decides).
	 */
	u8 args_regs;
	u32 timed;		/* stap -t: 1 + its row of stp_timed[]; 0 untimed */
	const struct stp_callers *callers;	/* .callee probes, else NULL */
};

/*
 * Per-CPU state of one running probe hit.  Preallocated, one per CPU;
 * a probe that finds its CPU's context busy (reentrancy) is skipped.
 */
struct stp_context {
	const struct stp_probe *probe;
	const char *last_error;	/* non-NULL: the handler must unwind */
	const char *last_stmt;	/* "operator '/' at f.stp:3:7" for errors */
	long actions;		/* statements charged, against MAXACTION_INTERRUPTIBLE */
	long pending;		/* statements run in a loop, not yet charged */
	int nesting;		/* function call depth, against MAXNESTING */
	struct pt_regs *regs;	/* registers at the probe, or NULL */
	int64_t *entry_slots;	/* .return: @entry values saved at entry */
	struct stp_procfs_io *procfs;	/* procfs probes: the file's $value */
	const unsigned long *args;	/* kernel.trace: the tracepoint's arguments */
	unsigned long ret_from;	/* .return: the probed function's entry, or 0 */
	/* process(...) probes: the uprobe hit; memory reads are of user space */
	const struct stp_uprobe *uprobe;
	void *locals;		/* stp_locals_size bytes for the handler */
	char error_buf[MAXSTRINGLEN];
	/* The last =~ / !~ of this hit, for matched(n) and ngroups(). */
	int match_ngroups;	/* groups incl. the whole match; 0: no match */
	int64_t match_groups[2 * STP_MAX_MATCH_GROUPS];	/* start, end */
	char match_subject[MAXSTRINGLEN];
};

/* ---- provided by the generated code ---- */

/* Module load: set up globals (maps are preallocated here). 0 or -errno. */
int stp_script_init(void);
/* Module unload: free what stp_script_init set up. */
void stp_script_exit(void);
/*
 * STP_CTL_START, process context: register probes, run begin probes
 * (through _stp_run_probe).  0 or -errno; on failure the generated code
 * has already unregistered what it registered.
 */
int stp_session_start(void);
/*
 * STP_CTL_EXIT, process context: unregister probes, run end probes, print
 * the values of globals that were written but never read.
 */
void stp_session_stop(void);
/* Bytes of per-CPU scratch each handler may use for its locals. */
extern const size_t stp_locals_size;

/* ---- provided by the runtime ---- */

/*
 * Run one probe hit: take this CPU's context (or count a skip), call
 * p->handler, report any error, flush the print buffer.  Any context.
 */
void _stp_run_probe(const struct stp_probe *p, struct pt_regs *regs);

/* What a hit may carry besides registers; every field optional. */
struct stp_hit {
	int64_t *entry_slots;		/* becomes c->entry_slots */
	const unsigned long *args;	/* becomes c->args */
	unsigned long ret_from;		/* becomes c->ret_from */
	struct stp_procfs_io *procfs;	/* becomes c->procfs */
	const struct stp_uprobe *uprobe;	/* becomes c->uprobe */
	/* Run this instead of p->handler (a kretprobe's entry: fill the slots). */
	void (*fn)(struct stp_context *c);
};
/* _stp_run_probe with extras; 0, or -1 if the hit was skipped or failed. */
int _stp_run_probe_hit(const struct stp_probe *p, struct pt_regs *regs,
		       const struct stp_hit *h);

/* Output into this hit's print buffer; flushed when the hit ends. */
void _stp_print(struct stp_context *c, const char *s);
/* switch_file(): later output goes to staprun -o's next file. */
void _stp_switch_file(struct stp_context *c);
void _stp_print_n(struct stp_context *c, const char *s, size_t len);
void _stp_print_char(struct stp_context *c, char ch);
/* printf's plain %d, without vsnprintf: the translator's fast path. */
void _stp_print_lld(struct stp_context *c, long long v);
__printf(2, 3) void _stp_printf(struct stp_context *c, const char *fmt, ...);

/*
 * printf's '*' width and precision, for the kernel's vsnprintf.  As in
 * SystemTap, only the value's low 32 bits count and a negative width is
 * ignored (the kernel would left-justify).  The kernel WARNs beyond its
 * limits (2^15 - 1 for a precision), so both are clamped there: that is
 * past the print buffer, which truncates the output anyway.
 */
#define STP_FMT_MAX 32767
static inline int _stp_fmt_width(int64_t w)
{
	return clamp_t(int, (int)w, 0, STP_FMT_MAX);
}

static inline int _stp_fmt_prec(int64_t p)
{
	return clamp_t(int, (int)p, -1, STP_FMT_MAX);
}

/*
 * "%#o": SystemTap writes a '0' before every value, 0 too ("00", "%#.3o"
 * is "0000"); the kernel, like C, leaves 0 alone.  For 0 one more digit
 * of precision gives SystemTap's text.
 */
static inline int _stp_fmt_oct_prec(uint64_t v, int64_t p)
{
	int prec = _stp_fmt_prec(p);

	return v ? prec : max(prec, 1) + 1;
}

/*
 * Fail the current hit: format the message into c->error_buf and set
 * c->last_error.  The runtime prints "ERROR: <msg> near <last_stmt>".
 */
__printf(2, 3) void _stp_error(struct stp_context *c, const char *fmt, ...);

/* Warning from probe context: "WARNING: <msg>" on staprun's stderr. */
__printf(1, 2) void _stp_warn(const char *fmt, ...);

/*
 * After a regex match: remember the subject and the number of groups
 * whose offsets the matcher wrote into c->match_groups (0: no match).
 */
void _stp_match_set(struct stp_context *c, const char *subject, int ngroups);
/* matched(n): group n of the last match into dst, or fail the hit. */
void _stp_match_group(struct stp_context *c, int64_t n, char *dst);

/*
 * Memory (memory.c): copy len bytes at addr from kernel (or user) memory
 * without faulting; 0, or -EFAULT with the hit failed ("kernel read fault
 * at 0x...").  _stp_print_mem is printf's %m / %M.
 */
int _stp_read_mem(struct stp_context *c, void *dst, uint64_t addr, size_t len,
		  bool user);
void _stp_print_mem(struct stp_context *c, uint64_t addr, int64_t bytes,
		    int width, bool hex, bool user, bool left);

/*
 * Target variables (tvar.c): what the translator's C for $var, ->member,
 * $$parms... calls.  Reads never fault; once the hit has failed they do
 * nothing and return 0, so a chain of reads stops at the first fault.
 */
/* A register at the probe; fails the hit where there are none. */
#define STP_TV_REG(c, r) \
	((c)->regs ? (u64)(c)->regs->r : _stp_tv_noregs(c))
u64 _stp_tv_noregs(struct stp_context *c);
/*
 * size bytes (1, 2, 4, 8) at addr, sign- or zero-extended: in kernel
 * memory (kread), the traced task's (uread), or, for code that kernel and
 * process probes both run, the hit's (read: c->uprobe decides).
 */
u64 _stp_tv_kread(struct stp_context *c, unsigned long addr, int size, bool sign);
u64 _stp_tv_uread(struct stp_context *c, unsigned long addr, int size, bool sign);
u64 _stp_tv_read(struct stp_context *c, unsigned long addr, int size, bool sign);
/* Guru-mode writes: store the low size bytes of v at addr. */
void _stp_tv_write(struct stp_context *c, unsigned long addr, int size, u64 v);
/* v's low size bytes, sign- or zero-extended (values in registers). */
static inline u64 _stp_tv_ext(u64 v, int size, bool sign)
{
	int sh = 64 - 8 * size;

	if (size >= 8)
		return v;
	return sign ? (u64)((s64)(v << sh) >> sh) : (v << sh) >> sh;
}
/* Bits [off, off + bits) of v, sign- or zero-extended. */
static inline u64 _stp_tv_bits(u64 v, int off, int bits, bool sign)
{
	v <<= 64 - off - bits;
	return sign ? (u64)((s64)v >> (64 - bits)) : v >> (64 - bits);
}
/* Append to a MAXSTRINGLEN buffer ($$parms, $var$). */
__printf(2, 3) void _stp_tv_append(char *dst, const char *fmt, ...);
/*
 * Append the NUL-terminated string at addr, quoted and escaped as
 * SystemTap prints it, or the bad address on a fault (no error: pretty
 * printing shows what it can); kernel, user or the hit's memory as above.
 */
void _stp_tv_append_kstr(struct stp_context *c, char *dst, unsigned long addr,
			 size_t max);
void _stp_tv_append_ustr(struct stp_context *c, char *dst, unsigned long addr,
			 size_t max);
void _stp_tv_append_str(struct stp_context *c, char *dst, unsigned long addr,
			size_t max);

/* exit(): ask staprun to end the session (end probes then run). */
void _stp_exit(void);

/* Pid of the staprun that opened the control channel (stp_pid()). */
int64_t _stp_ctl_pid(void);

/* Current session state (enum stp_session_state). */
int _stp_session_state(void);

/* ---- target: the -c/-x process (runtime/target.c, target_tree.c) ---- */

/* Pid of the target process (stap -x PID, or the -c CMD child); 0 if none. */
int64_t _stp_target_pid(void);
/* target_set_pid(): is process pid in the target's tree, and not exiting? */
bool _stp_target_set_has(int64_t pid);
/* target_set_report(): prints the target's tree, "PARENT begat PID" lines. */
void _stp_target_set_report(struct stp_context *c);
/* staprun -r N:URI (remote_id(), remote_uri()): -1 and "" otherwise. */
int64_t _stp_remote_index(void);
const char *_stp_remote_host(void);
/*
 * The pid and user namespaces ns_pid() and friends see: those of the
 * process staprun -N PID (stap --target-namespaces=PID) names, else
 * staprun's own.
 */
struct pid_namespace *_stp_target_pid_ns(void);
struct user_namespace *_stp_target_user_ns(void);

/* ---- stap -t: the probe hit report (runtime/timing.c) ---- */

/* Emitted by the translator under stap -t: every timed probe, in index order. */
struct stp_timed {
	const struct stp_probe *probe;
	const char *from;	/* "pp from: as written from: alias ..." */
};
extern const struct stp_timed stp_timed[];
extern const int stp_ntimed;
/* stap --skip-badvars: a target variable read that faults gives 0 silently. */
extern const bool stp_skip_badvars;
/* stap --suppress-handler-errors: a handler's error ends it silently. */
extern const bool stp_suppress_handler_errors;
int _stp_timing_init(void);
void _stp_timing_exit(void);
void _stp_timing_add(const struct stp_probe *p, u64 cycles);
void _stp_timing_report(struct stp_context *c);
/* staprun -M: the probe table as MONITOR_TEXT lines */
void _stp_monitor_report(void);

/* ---- globals as module parameters: stap -G (runtime/params.c) ---- */

#include <linux/moduleparam.h>

/* A per-CPU counter global's parameter: set, it replaces the initialiser. */
struct stp_pcpu_param {
	int64_t __percpu *var;
	bool set;
};
extern const struct kernel_param_ops _stp_param_s64_ops;
extern const struct kernel_param_ops _stp_param_pcpu_s64_ops;

/*
 * ---- timer probes: stp_timer.h; kprobes (kprobe.*, kernel.function,
 * module(...).function, kernel.statement): stp_kprobe.h.  Each is included
 * only where its probes are.  <linux/kprobes.h> (ftrace.h, sched.h, fs.h
 * behind it), once four fifths of this header's compile time, is in
 * neither: runtime/kprobe.c keeps the rows' struct kprobe.
 */

/* ---- uprobes: process(...) probes (runtime/uprobe.c) ---- */

/*
 * One argument of an SDT marker (process("X").mark("NAME")), decoded by
 * the translator from the note's "SIZE@OPERAND" text: a register, a
 * constant, or memory at disp(base[,index,scale]).  Registers are
 * offsets into struct pt_regs; -1: none.
 */
struct stp_sdt_arg {
	s8 size;		/* 1, 2, 4, 8; negative: signed */
	u8 kind;		/* STP_SDT_* */
	u8 scale;
	s16 base, index;	/* offsetof(struct pt_regs, ...) or -1 */
	s64 value;		/* the constant, or the displacement */
};
#define STP_SDT_REG	0
#define STP_SDT_CONST	1
#define STP_SDT_MEM	2
/* Symbol-relative memory (sym(%rip)): value is the link-time address. */
#define STP_SDT_MEM_LINK	3

#define STP_UPROBE_RETURN	0x1	/* .return: a uretprobe */
#define STP_UPROBE_OPTIONAL	0x2	/* "?": skipped silently if refused */
#define STP_UPROBE_WILDCARD	0x4	/* a wildcard's match: refused is a warning */

/*
 * A user-space probe (process(...).function/.statement/.mark): an
 * instruction at a file offset of an executable or library, probed in
 * every process that maps the file (or only in process pid), through the
 * kernel's uprobes (runtime/uprobe.c).
 */
struct stp_uprobe {
	const struct stp_probe *probe;
	const char *path;	/* the file, as the target machine sees it */
	const char *func;	/* the function probed or holding the marker */
	u64 offset;		/* of the instruction in the file */
	u64 vaddr;		/* its link-time address (load bias = ip - vaddr) */
	u64 sem_offset;		/* SDT semaphore's file offset; 0: none */
	pid_t pid;		/* only this process; 0: any */
	const char *exe;	/* .library(...): only processes running it; NULL: any */
	u32 group;		/* the probe point it came from */
	u8 flags;		/* STP_UPROBE_* */
	u8 nargs;		/* SDT arguments */
	const struct stp_sdt_arg *args;
	/* .return reading @entry values: fills c->entry_slots[0..nslots) at entry */
	void (*entry)(struct stp_context *c);
	u16 nslots;
	/* runtime-private */
	bool registered;
	struct stp_uentries *entries;	/* saved @entry values in flight */
	struct inode *inode;
	struct inode *exe_inode;	/* exe's */
	void *handle;		/* the kernel's struct uprobe *, where it has one */
	struct uprobe_consumer *uc;
};

/* As _stp_kprobes_start/_stp_kprobes_stop, for uprobes. */
int _stp_uprobes_start(struct stp_uprobe *ups, size_t n);
void _stp_uprobes_stop(struct stp_uprobe *ups, size_t n);
int _stp_uprobes_live(void);
/* SDT argument i (1-based) of the current hit; an error if there is none. */
int64_t _stp_sdt_arg(struct stp_context *c, int i);

/* ---- process and thread events (runtime/utask.c) ---- */

enum {
	STP_UTASK_BEGIN, STP_UTASK_END, STP_UTASK_THREAD_BEGIN, STP_UTASK_THREAD_END,
	STP_UTASK_SYSCALL, STP_UTASK_SYSCALL_RETURN, STP_UTASK_NKINDS,
};
#define STP_UTASK_TARGET	0x1	/* only the -c/-x target and its descendants */

/* One process.begin, .end, .thread.begin/end or .syscall[.return] probe. */
struct stp_utask {
	const struct stp_probe *probe;
	u8 kind;		/* STP_UTASK_* */
	u8 flags;
	const char *path;	/* process("PATH"): its program; NULL: any */
	pid_t pid;		/* process(PID); 0: any */
	/* runtime-private */
	struct inode *inode;
};

/* As _stp_kprobes_start/_stp_kprobes_stop. */
int _stp_utasks_start(struct stp_utask *uts, size_t n);
void _stp_utasks_stop(struct stp_utask *uts, size_t n);
/* .syscall: 0 $syscall, 1..6 $argN; .syscall.return: 0 $syscall, 1 $return. */
int64_t _stp_utask_arg(struct stp_context *c, int i);

/* ---- tracepoints: kernel.trace probes (runtime/tracepoint.c) ---- */

/* struct stp_tracepoint flags; translator/probes/trace.c emits these names. */
#define STP_TRACEPOINT_OPTIONAL	0x1	/* "?": skipped silently if missing */

struct tracepoint;

/*
 * One kernel.trace probe on one tracepoint.  The generated code fills
 * the fields above "runtime-private" in a static table; fn is a callback
 * it generates for the tracepoint's number of arguments, which stores
 * them in an array and calls _stp_tracepoint_hit(data, args).
 */
struct stp_tracepoint {
	const struct stp_probe *probe;
	const char *name;	/* "sched_switch" */
	void *fn;		/* void (*)(void *data, unsigned long a0, ...) */
	u8 flags;		/* STP_TRACEPOINT_* */
	/*
	 * raw_syscalls probes of one system call (the syscall.* aliases):
	 * its x86-64 number (-2: none), else -1, and its 32-bit (ia32)
	 * number for a compat task (-2: none).  Such entries on one
	 * tracepoint share one callback, which runs those whose number is
	 * the current call's, in table order.
	 */
	int nr, nr32;
	/* runtime-private */
	struct tracepoint *tp;
	bool registered;
	struct stp_tracepoint *next_nr;	/* the next filtered entry on tp */
};

/* From a generated callback: data is its struct stp_tracepoint. */
void _stp_tracepoint_hit(void *data, const unsigned long *args);
/*
 * Process context, from stp_session_start/stp_session_stop, as the
 * kprobe pair: start finds every entry's tracepoint in the kernel and
 * registers the callback (a missing optional one is skipped; any other
 * failure is reported, undone, and its -errno returned).  Stop returns
 * only when no callback runs any more; idempotent.
 */
int _stp_tracepoints_start(struct stp_tracepoint *tps, size_t n);
void _stp_tracepoints_stop(struct stp_tracepoint *tps, size_t n);

/* ---- procfs probes (runtime/procfs.c) ---- */

/* A procfs probe's $value: the bytes read or written, NUL-terminated. */
struct stp_procfs_io {
	char *buf;
	size_t len, max;
};

struct proc_dir_entry;

/*
 * One procfs probe: the generated table has a row per probe; rows with
 * the same name are one file /proc/systemtap/MODULE/NAME.
 */
struct stp_procfs {
	const struct stp_probe *probe;
	const char *name;
	int write;		/* a .write probe, else .read */
	size_t maxsize;		/* .read: the most bytes $value holds */
	int umask;		/* -1: the default */
	/* runtime-private */
	struct proc_dir_entry *pde;	/* on the file's first row */
	struct stp_procfs *next_same;	/* the file's next row, in table order */
};

int _stp_procfs_start(struct stp_procfs *files, size_t n);
void _stp_procfs_stop(struct stp_procfs *files, size_t n);

/*
 * ---- netfilter probes: stp_netfilter.h, included only where they are
 * (<linux/netfilter.h> was a quarter of this header's compile time).
 */

/* ---- hardware breakpoint probes (runtime/hwbkpt.c) ---- */

struct perf_event;

/* One kernel.data probe: a watchpoint on every CPU. */
struct stp_hwbkpt {
	const struct stp_probe *probe;
	u64 addr;		/* run-time, or link-time if link_ref is set */
	u64 link_ref;		/* link-time address of _printk: KASLR; 0 if none */
	int len;		/* 1, 2, 4 or 8 */
	int rw;			/* reads too, not only writes */
	/* runtime-private */
	struct perf_event *__percpu *bp;
};

/*
 * Process context, from stp_session_start/stp_session_stop: set every
 * row's watchpoint (0 or -errno, nothing left set on failure); stop
 * removes them.
 */
int _stp_hwbkpt_start(struct stp_hwbkpt *rows, size_t n);
void _stp_hwbkpt_stop(struct stp_hwbkpt *rows, size_t n);

/* ---- perf event probes (runtime/perf.c) ---- */

/* One perf.type(T).config(C) probe: an event on every CPU, or on the target. */
struct stp_perf {
	const struct stp_probe *probe;
	u32 type;		/* perf_event_attr.type */
	u64 config;		/* perf_event_attr.config */
	u64 period;		/* events per hit (hits a second if freq); 0: .counter */
	int freq;
	int task;		/* .process: the -c/-x target process only */
	const char *counter;	/* .counter("NAME"): read by @perf, no handler */
	/* runtime-private */
	struct perf_event **events;	/* one per possible CPU, or [0] the task's */
};

/*
 * Process context, from stp_session_start/stp_session_stop: open every
 * row's events (0 or -errno, nothing left open on failure); stop closes
 * them.  _stp_perf_read: the count of counter NAME of the rows started,
 * from this CPU's event or the target process's, or -1 if none here.
 */
int _stp_perf_start(struct stp_perf *rows, size_t n);
void _stp_perf_stop(struct stp_perf *rows, size_t n);
int64_t _stp_perf_read(const char *name);

/*
 * SystemTap's helpers for a script's own embedded C (guru mode):
 * kread(p) is *p read without faulting; a fault jumps to the
 * CATCH_DEREF_FAULT() of the function, which fails the probe hit.
 */
int _stp_kread_quiet(void *dst, uint64_t addr, size_t len);
#define kread(ptr) ({							\
	__typeof__(*(ptr)) _stp_kr_v;					\
	if (_stp_kread_quiet((void *)&_stp_kr_v, (uint64_t)(unsigned long)(ptr), \
			     sizeof(_stp_kr_v)))			\
		goto deref_fault;					\
	_stp_kr_v;							\
})
#define CATCH_DEREF_FAULT()						\
	if (0) {							\
deref_fault: __attribute__((unused));					\
		STAP_ERROR("kernel read fault [man error::fault]");	\
	}

#endif /* STP_RUNTIME_H */
