/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by stap and staprun: allocation that cannot fail,
 * a string builder, a growable pointer array, an arena, files and child
 * processes.  Functions that can fail return a negative errno.
 */
#ifndef UTIL_H
#define UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

/* Name printed in front of diagnostics ("stap", "staprun"). */
extern const char *util_progname;

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);

/*
 * An output file name as -o takes it: strftime(3) conversions in PATH are
 * expanded with the local time now (SystemTap's "-o out-%Y%m%d.txt").
 */
char *util_output_path(const char *path);

/*
 * ARG as a whole decimal number from MIN to MAX into *out: 0, or -1
 * (nothing else may follow it; no errno to print, the caller says why).
 */
int util_parse_int(const char *arg, long min, long max, int *out);

/* "progname: message\n" on stderr. */
void util_err(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* util_err, then exit(1). */
void util_die(const char *fmt, ...) PRINTF_LIKE(1, 2) __attribute__((noreturn));

/*
 * Colored diagnostics, as SystemTap's --color[=WHEN] and staprun -C WHEN
 * choose them ("never", "always", "auto": only on a terminal) and
 * SYSTEMTAP_COLORS paints them ("error=01;31:warning=00;33:..." with keys
 * error, warning, source, caret and token; empty or invalid: no color).
 */
enum util_color_when { UTIL_COLOR_AUTO, UTIL_COLOR_ALWAYS, UTIL_COLOR_NEVER };
/* The WHEN word, or -1. */
int util_color_when(const char *word);
void util_color_set(enum util_color_when when);
/* The SGR parameters for KEY on stderr, or NULL: no color for it. */
const char *util_color(const char *key);

/* ---- string builder: buf is always NUL-terminated ---- */
struct strbuf {
	char *buf;
	size_t len, cap;
};
#define STRBUF_INIT { NULL, 0, 0 }
void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_putc(struct strbuf *sb, char c);
void sb_printf(struct strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
const char *sb_str(struct strbuf *sb);	/* "" for an empty builder */
void sb_reset(struct strbuf *sb);	/* len = 0, keeps the memory */
char *sb_steal(struct strbuf *sb);	/* caller frees; sb is reset */
void sb_free(struct strbuf *sb);

/* ---- growable array of pointers ---- */
struct vec {
	void **items;
	int len, cap;
};
#define VEC_INIT { NULL, 0, 0 }
void vec_push(struct vec *v, void *item);
void vec_free(struct vec *v);

/* ---- hash table: string keys (not copied) to pointers ---- */
struct strmap_slot;
struct strmap {
	struct strmap_slot *slots;
	size_t cap, len;	/* cap: 0 or a power of two */
};
#define STRMAP_INIT { NULL, 0, 0 }
void *strmap_get(const struct strmap *m, const char *key);	/* NULL if absent */
/* key's value slot, added holding NULL if key is absent. */
void **strmap_put(struct strmap *m, const char *key);
void strmap_free(struct strmap *m);

/* ---- arena: many small allocations, freed at once ---- */
struct arena_block;
struct arena {
	struct arena_block *head;
	size_t total;		/* bytes handed out, for -v statistics */
};
void *arena_alloc(struct arena *a, size_t n);	/* zeroed, 16-aligned */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
char *arena_printf(struct arena *a, const char *fmt, ...) PRINTF_LIKE(2, 3);
void arena_free(struct arena *a);

/* ---- files ---- */
int read_fd(int fd, struct strbuf *out);	/* to its end; appends */
int read_file(const char *path, struct strbuf *out);	/* appends */
int write_file(const char *path, const void *data, size_t len);
int copy_file(const char *from, const char *to);
int mkdir_p(const char *path, mode_t mode);
int rm_rf(const char *path);
int file_exists(const char *path);
int is_dir(const char *path);
/* Directory of the running executable, from /proc/self/exe. */
char *exe_dir(void);
/* Make a fresh directory from a template ending in XXXXXX under $TMPDIR. */
char *make_temp_dir(const char *prefix);

/* ---- child processes ---- */
/*
 * Run argv[0] (searched in PATH) in cwd (NULL: inherit).  With out
 * non-NULL, stdout and stderr are captured into it; otherwise inherited.
 * timeout_s > 0 kills the child's process group after that many seconds.
 * Returns the exit status (0..255), 128+signal if killed, -ETIMEDOUT, or
 * -errno if it could not be started.
 */
int run_cmd(char *const argv[], const char *cwd, struct strbuf *out,
	    int timeout_s);

/* FNV-1a, for cache keys (not for security). */
uint64_t hash_bytes(uint64_t h, const void *data, size_t len);
#define HASH_INIT 0xcbf29ce484222325ULL

#endif /* UTIL_H */
