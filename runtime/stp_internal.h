/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Declarations shared by the runtime's own .c files only; generated code
 * sees stp_runtime.h and nothing else.
 */
#ifndef STP_INTERNAL_H
#define STP_INTERNAL_H

#include <linux/atomic.h>
#include <linux/kernel.h>	/* va_list, __printf */
#include <linux/timer.h>
#include "stp_runtime.h"
#include "stp_kprobe.h"
#include "stp_timer.h"
#include "stp_ctl.h"
#include "stp_scratch.h"
#include "stap_kfeatures.h"	/* generated: STAPCONF_* from kfeatures/ */

/* ---- kernel API drift (see kfeatures/) ---- */
#ifdef STAPCONF_TIMER_DELETE_SYNC
#define _stp_timer_delete_sync(t) timer_delete_sync(t)
#else
#define _stp_timer_delete_sync(t) del_timer_sync(t)
#endif
#ifdef STAPCONF_TIMER_CONTAINER_OF
#define _stp_timer_container_of(var, t, field) timer_container_of(var, t, field)
#else
#define _stp_timer_container_of(var, t, field) from_timer(var, t, field)
#endif

struct dentry;

/*
 * Everything one CPU needs to run a probe hit, allocated at module load.
 * Only the hit that owns @busy touches the rest, so no lock is needed.
 */
struct stp_cpu {
	struct stp_context c;
	int busy;			/* 1 while a hit runs on this CPU */
	/* Overload accounting (context.c): this interval's start, cycles spent. */
	u64 ovl_start;
	u64 ovl_cycles;
	const struct stp_probe *ovl_probe;	/* the one sampled, if any */
	u32 ovl_est;			/* its last (short) timed hit's cycles */
	u32 ovl_untimed;		/* its untimed hits since then */
	u32 ovl_gap;			/* its hits to leave untimed before the next */
	u32 ovl_rnd;			/* xorshift state for the gaps */
	size_t print_len;		/* bytes used in print_buf */
	char print_buf[STP_PRINT_BUFSIZE];
	struct stp_scratch scratch;	/* stp_scratch.h */
};

/* module.c: the session state machine, driven by ctl.c */
extern struct dentry *_stp_debugfs_dir;	/* systemtap/<module>/ */
void _stp_session_start_cmd(void);
void _stp_session_stop_cmd(bool reply);
void _stp_session_attach_cmd(void);

/* target.c: process(PID) probes, at start: 0, or -ESRCH after an error. */
int _stp_check_pid(const struct stp_probe *probe, pid_t pid);

/* utask.c: is current's program (its mm's exe file) inode? */
bool _stp_current_runs(const struct inode *inode);
/* target_tree.c: is t in the -c/-x target's tree (forked in it, see there)? */
bool _stp_in_target_tree(struct task_struct *t);
int _stp_target_set_start(void);	/* module.c, if linked: at start */
void _stp_target_set_stop(void);

/* context.c */
void _stp_error_shutdown(void);
extern atomic_t _stp_state;		/* enum stp_session_state */
extern atomic_t _stp_error_count;
extern atomic_t _stp_skip_count;
extern atomic_t _stp_exit_flag;		/* exit() was called */
int _stp_context_init(void);
void _stp_context_exit(void);
int _stp_namespaces_init(void);		/* target.c: at module load */
void _stp_namespaces_exit(void);
void _stp_stats_reset(void);
bool _stp_session_failed(void);
void _stp_count_skip(void);		/* a probe hit that did not run */
void _stp_count_reentry(void);		/* ... because its CPU was busy */

/*
 * kblacklist.c: the kernel's kprobe blacklist, read at start; NULL if it
 * cannot be read.  _stp_kbl_has: would register_kprobe() refuse the
 * kernel function SYMBOL ("f", or a copy "f.isra.0") as blacklisted?
 */
struct stp_kbl;
struct stp_kbl *_stp_kbl_load(void);
bool _stp_kbl_has(const struct stp_kbl *b, const char *symbol);
void _stp_kbl_free(struct stp_kbl *b);

/*
 * fentry.c: entry probes on the ftrace site, for kprobe.c.  Without the
 * kernel feature the table has no ftrace_ops and every row is a kprobe.
 */
struct stp_fentry;
struct kprobe;
#ifdef STAPCONF_FTRACE_REGS_OPS
struct stp_fentry *_stp_fentry_alloc(unsigned int cap);
/* Take row @k, whose kprobe @kp is registered disabled, if on an ftrace site. */
bool _stp_fentry_add(struct stp_fentry *fe, struct stp_kprobe *k, struct kprobe *kp);
/* Take row @k, which has no kprobe, at ftrace site @ip. */
bool _stp_fentry_add_ip(struct stp_fentry *fe, struct stp_kprobe *k, unsigned long ip);
/* Filter on the rows taken and register the ops; 0 or -errno. */
int _stp_fentry_arm(struct stp_fentry *fe);
/* The @i-th row taken, or NULL past the last. */
struct stp_kprobe *_stp_fentry_row(struct stp_fentry *fe, unsigned int i);
/* Unregister (waiting for running handlers) and free. */
void _stp_fentry_free(struct stp_fentry *fe);
#else
static inline struct stp_fentry *_stp_fentry_alloc(unsigned int cap) { return NULL; }
static inline bool _stp_fentry_add(struct stp_fentry *fe, struct stp_kprobe *k,
				   struct kprobe *kp)
{
	return false;
}
static inline bool _stp_fentry_add_ip(struct stp_fentry *fe, struct stp_kprobe *k,
				      unsigned long ip)
{
	return false;
}
static inline int _stp_fentry_arm(struct stp_fentry *fe) { return 0; }
static inline struct stp_kprobe *_stp_fentry_row(struct stp_fentry *fe, unsigned int i)
{
	return NULL;
}
static inline void _stp_fentry_free(struct stp_fentry *fe) { }
#endif

/*
 * fexit.c: .return probes on an fprobe, for kprobe.c.  Without the
 * kernel feature the table has no fprobe and every .return row is a
 * kretprobe.
 */
struct stp_fexit;
#ifdef STAPCONF_FPROBE_EXIT
struct stp_fexit *_stp_fexit_alloc(unsigned int cap);
/* Take .return row @k, whose function's ftrace site is @ip. */
bool _stp_fexit_add(struct stp_fexit *fx, struct stp_kprobe *k, unsigned long ip);
/* Filter on the rows taken and register the fprobe; 0 or -errno. */
int _stp_fexit_arm(struct stp_fexit *fx);
/* The @i-th row taken, or NULL past the last. */
struct stp_kprobe *_stp_fexit_row(struct stp_fexit *fx, unsigned int i);
/* Unregister (waiting for running handlers), free; the hits it missed. */
unsigned long _stp_fexit_free(struct stp_fexit *fx);
#else
static inline struct stp_fexit *_stp_fexit_alloc(unsigned int cap) { return NULL; }
static inline bool _stp_fexit_add(struct stp_fexit *fx, struct stp_kprobe *k,
				  unsigned long ip)
{
	return false;
}
static inline int _stp_fexit_arm(struct stp_fexit *fx) { return 0; }
static inline struct stp_kprobe *_stp_fexit_row(struct stp_fexit *fx, unsigned int i)
{
	return NULL;
}
static inline unsigned long _stp_fexit_free(struct stp_fexit *fx) { return 0; }
#endif

/* ctl.c: message queue to staprun; _stp_ctl_send* work in any context */
int _stp_ctl_init(void);
void _stp_ctl_exit(void);
int _stp_ctl_send(u32 type, const void *data, u32 len);
__printf(2, 0) int _stp_ctl_vsendf(u32 type, const char *fmt, va_list ap);
__printf(2, 3) int _stp_ctl_sendf(u32 type, const char *fmt, ...);
void _stp_ctl_wake(void);		/* process context only */
void _stp_ctl_report_dropped(void);	/* before EXIT_DONE */

/* relay.c: the per-CPU data channel, trace0..traceN */
int _stp_relay_init(void);
void _stp_relay_exit(void);
void _stp_relay_write(const void *data, size_t len);
/* The STP_RELAY_SWITCH_FILE mark, after this CPU's earlier writes. */
void _stp_relay_switch_file(void);
void _stp_relay_flush(void);		/* process context */
u32 _stp_relay_lost(void);
u32 _stp_relay_failures(void);
unsigned int _stp_relay_bufsize_mb(void);

/*
 * Bytes the runtime allocated for the session at load (maps, statistics,
 * probe tables), for module_size(); the per-CPU contexts and the relay
 * buffers are counted apart.
 */
extern atomic_long_t _stp_alloc_bytes;
static inline void _stp_alloc_note(size_t bytes)
{
	atomic_long_add((long)bytes, &_stp_alloc_bytes);
}
void _stp_relay_reset_stats(void);

/* print.c */
void _stp_print_flush(struct stp_cpu *sc);

#endif /* STP_INTERNAL_H */
