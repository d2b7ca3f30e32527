/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal interfaces between staprun's files.  Errors: negative errno. */
#ifndef STAPRUN_H
#define STAPRUN_H

#include <stdbool.h>
#include <sys/types.h>

extern int staprun_verbose;

/* module.c: debugfs and the module's life */
int mod_mount_debugfs(void);
/* Kernel name of the module in PATH ("/x/stap-a.ko" -> "stap_a"). */
char *mod_name(const char *path);
int mod_load(const char *path, const char *name, const char *params);
/* -R: load PATH's module under NEWNAME instead of NAME. */
int mod_load_renamed(const char *path, const char *name, const char *newname,
		     const char *params);
int mod_unload(const char *name);
/*
 * -d '*': unload every probe module no staprun is attached to (one in
 * use stays, as staprun(8) says), saying so on stdout.  0, or 1 if one
 * could not be unloaded.
 */
int mod_unload_unused(void);
/*
 * -d NAME: unload NAME if it is a probe module no staprun is attached to.
 * staprun's exit code: 0, 1 (it failed), or SystemTap 4.8's 234 (NAME is
 * no such module).
 */
int mod_unload_zombie(const char *name);
bool mod_loaded(const char *name);

/* target.c: the -c CMD child, forked before the module loads. */
struct target {
	const char *cmd;	/* as given to -c */
	char *prog;		/* what it execs: its first word, or /bin/sh */
	pid_t pid;		/* 0: no child */
	int go_fd;		/* held child's pipe: a byte lets it exec */
	int err_fd;		/* close-on-exec pipe: the child's exec errno */
	bool released;		/* told to exec */
	bool exec_failed;
	bool exited;		/* reaped */
	bool failed;		/* exited non-zero or by a signal */
};
/* Parse CMD and fork the child, held before exec. */
int target_fork(struct target *t, const char *cmd);
/* Let the held child exec; -errno (message printed) if it could not. */
int target_release(struct target *t);
/* Reap the child if it exited (warns about a failure); true once it has. */
/* The command has ended (not reaped yet: target_reap() says how). */
bool target_gone(const struct target *t);
bool target_reap(struct target *t);
/*
 * Last call: a child never released exits without running; one that runs
 * is left alone.  Frees what target_fork allocated.
 */
void target_abort(struct target *t);

/* relay.c: the per-CPU data files, merged back into write order. */
struct relay_file;
struct relay_in {
	struct relay_file *files;
	int n;
};
struct stp_relay_rec;
/*
 * A run: consecutive whole records of CPU cpu's file, len bytes in all:
 * each a header, then r->len bytes padded to STP_RELAY_ALIGN.
 */
struct relay_run {
	int cpu;
	size_t len;
	const void *recs;
};
/*
 * n runs in write order.  Runs come in batches: with CPUs writing in
 * turn most runs are one record, and a call per run cost more than the
 * record's own copy.
 */
typedef void (*relay_emit_fn)(void *arg, const struct relay_run *runs, int n);
/*
 * A plain output's batch (output_batch()): the merge copies short records'
 * payloads straight to buf + len, as the output's write would (8 bytes at
 * once: buf has 8 to spare past cap), and passes every other record to
 * emit, which appends after them.  With CPUs writing in turn, runs of one
 * record, the copy in the merge's loop is most of the reader's work.
 * merged counts the record bytes taken either way.
 */
struct relay_batch {
	char *buf;
	size_t len, cap;
	size_t merged;
};
/* The N of every PREFIXN in DIR, ascending, in *nums: how many, or -errno. */
int relay_numbered(const char *dir, const char *prefix, int **nums);
/* Open every traceN in DIR. */
int relay_in_open(struct relay_in *in, const char *dir);
/* The i-th file's descriptor, for poll(), and its CPU. */
int relay_in_fd(const struct relay_in *in, int i);
int relay_in_cpu(const struct relay_in *in, int i);
/* Open FILES (raw records, as bulk mode keeps them) instead: stap-merge. */
int relay_in_open_files(struct relay_in *in, char *const *files, int n);
/*
 * Read all files and pass what is certain to be complete to EMIT in write
 * order; ALL (the module has stopped writing) passes everything.  Returns
 * 1 if a file had more than one pass reads, 0, or -errno.
 */
int relay_in_read(struct relay_in *in, bool all, struct relay_batch *b,
		  relay_emit_fn emit, void *arg);
/*
 * Wait until everything written before this call is below the next
 * read's horizon (its safety margin), e.g. all of the begin probes'
 * output once STARTED has arrived.
 */
void relay_in_settle(void);
void relay_in_close(struct relay_in *in);

/* output.c: where the output goes (see there). */
struct output_cfg {
	const char *path;		/* -o FILE; NULL: stdout */
	unsigned long long rotate_bytes;	/* -S SIZE, in bytes; 0: none */
	unsigned int rotate_keep;	/* -S SIZE,N: files kept; 0: all */
	bool bulk;			/* per-CPU files of raw records */
};
struct output;
/* NULL after a message.  cpus: the CPU numbers, for bulk file names. */
struct output *output_open(const struct output_cfg *cfg, const int *cpus,
			   int ncpus);
/*
 * Runs as relay_emit_fn passes them.  0, or -errno (a message was
 * printed unless it is -EPIPE).
 */
int output_write(struct output *o, const struct relay_run *runs, int n);
int output_flush(struct output *o);
/* The batch relay_in_read may fill, or NULL (see struct relay_batch). */
struct relay_batch *output_batch(struct output *o);
/* SIGUSR2: -o FILE goes on in its next file (FILE.1, ...); else nothing. */
int output_switch(struct output *o);
bool output_broken(const struct output *o);
int output_close(struct output *o);

/*
 * session.c: START the loaded module, copy its output until the session
 * ends.  With a -c target, release it once the begin probes are done and
 * end the session when it exits.  Returns the exit status for staprun (0
 * or 1), or a negative errno if the session could not be run.
 */
enum session_mode {
	SESSION_RUN,		/* START, run, EXIT */
	SESSION_DETACH,		/* -L: START, then leave the probes running */
	SESSION_ATTACH,		/* -A: ATTACH to a running session */
};
struct session_cfg {
	enum session_mode mode;
	bool *detached;		/* out: -L did detach (leave the module be) */
	const struct output_cfg *out;
	struct target *target;	/* -c CMD, or NULL */
	int tick_ms;		/* -T: longest wait between reads (relay
				 * wakes readers only when a sub-buffer fills) */
	bool no_warnings;	/* -w: the script's warnings are not shown */
	int monitor_s;		/* -M: the probe table every so many seconds */
};
int session_run(const char *name, const struct session_cfg *cfg);
/*
 * Catch staprun(8)'s signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR2)
 * from the start; the session acts on them.  signals_stop(): one that
 * ends the session (all but SIGUSR2) came.
 */
void signals_init(void);
bool signals_stop(void);

#endif /* STAPRUN_H */
