/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal interfaces between staprun's files.  Errors: negative errno. */
#ifndef STAPRUN_H
#define STAPRUN_H

#include <stdbool.h>

extern int staprun_verbose;

/* module.c: debugfs and the module's life */
int mod_mount_debugfs(void);
/* Kernel name of the module in PATH ("/x/stap-a.ko" -> "stap_a"). */
char *mod_name(const char *path);
int mod_load(const char *path, const char *name, const char *params);
int mod_unload(const char *name);

/*
 * session.c: START the loaded module, copy its output to out_fd until the
 * session ends.  Returns the exit status for staprun (0 or 1), or a
 * negative errno if the session could not be run.
 */
int session_run(const char *name, int out_fd);

#endif /* STAPRUN_H */
