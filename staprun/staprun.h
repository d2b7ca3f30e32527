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
int mod_unload(const char *name);

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
typedef void (*relay_emit_fn)(void *arg, const char *data, size_t len);
/* Open every traceN in DIR. */
int relay_in_open(struct relay_in *in, const char *dir);
/* The i-th file's descriptor, for poll(). */
int relay_in_fd(const struct relay_in *in, int i);
/*
 * Read all files and pass what is certain to be complete to EMIT in write
 * order; ALL (the module has stopped writing) passes everything.
 */
int relay_in_read(struct relay_in *in, bool all, relay_emit_fn emit, void *arg);
/*
 * Wait until everything written before this call is below the next
 * read's horizon (its safety margin), e.g. all of the begin probes'
 * output once STARTED has arrived.
 */
void relay_in_settle(void);
void relay_in_close(struct relay_in *in);

/*
 * session.c: START the loaded module, copy its output to out_fd until the
 * session ends.  With a -c target (t non-NULL), release it once the begin
 * probes are done and end the session when it exits; with TIMEOUT_S,
 * end it that many seconds after the begin probes.  Returns the exit
 * status for staprun (0 or 1), or a negative errno if the session could
 * not be run.
 */
int session_run(const char *name, int out_fd, struct target *t,
		unsigned int timeout_s);

#endif /* STAPRUN_H */
