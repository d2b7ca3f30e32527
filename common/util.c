// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared helpers; see util.h. */
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *util_progname = "stap";

static void oom(void)
{
	fprintf(stderr, "%s: out of memory\n", util_progname);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	return sb_steal(&sb);
}

static void verr(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", util_progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int util_parse_int(const char *arg, long min, long max, int *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < min || n > max)
		return -1;
	*out = (int)n;
	return 0;
}

/* ---- colors ---- */

static enum util_color_when color_when = UTIL_COLOR_AUTO;

int util_color_when(const char *word)
{
	static const char *const words[] = { "auto", "always", "never" };

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(word, words[i]))
			return (int)i;
	return -1;
}

void util_color_set(enum util_color_when when)
{
	color_when = when;
}

/*
 * KEY's value in a SYSTEMTAP_COLORS-style SPEC into out: 1, 0 if KEY is
 * not there, -1 if SPEC is invalid (then nothing is colored).
 */
static int color_lookup(const char *spec, const char *key, char *out,
			size_t outsz)
{
	int found = 0;

	while (*spec) {
		const char *end = spec + strcspn(spec, ":");
		const char *eq = memchr(spec, '=', (size_t)(end - spec));
		size_t klen, vlen;

		if (!eq)
			return -1;
		klen = (size_t)(eq - spec);
		vlen = (size_t)(end - eq - 1);
		if (strspn(eq + 1, "0123456789;") < vlen || vlen >= outsz)
			return -1;
		if (strlen(key) == klen && !strncmp(spec, key, klen)) {
			memcpy(out, eq + 1, vlen);
			out[vlen] = '\0';
			found = 1;
		}
		spec = *end ? end + 1 : end;
	}
	return found;
}

const char *util_color(const char *key)
{
	static const char defaults[] =
		"error=01;31:warning=00;33:source=00;34:caret=01:token=01";
	static char buf[32];
	const char *spec = getenv("SYSTEMTAP_COLORS"), *term = getenv("TERM");

	if (color_when == UTIL_COLOR_NEVER)
		return NULL;
	if (color_when == UTIL_COLOR_AUTO &&
	    (!isatty(STDERR_FILENO) || !term || !strcmp(term, "dumb") ||
	     getenv("NO_COLOR")))
		return NULL;
	if (!spec)
		spec = defaults;
	return color_lookup(spec, key, buf, sizeof(buf)) > 0 ? buf : NULL;
}

void util_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
}

void util_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
	exit(1);
}

/* ---- strbuf ---- */

void sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->cap)
		return;
	if (sb->cap < 64)
		sb->cap = 64;
	while (sb->cap < need)
		sb->cap *= 2;
	sb->buf = xrealloc(sb->buf, sb->cap);
}

void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	if (n)	/* s may be an empty strbuf's NULL buffer */
		memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_putc(struct strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	sb_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

const char *sb_str(struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *sb_steal(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

/* ---- vec ---- */

void vec_push(struct vec *v, void *item)
{
	if (v->len == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->items = xrealloc(v->items, sizeof(void *) * (size_t)v->cap);
	}
	v->items[v->len++] = item;
}

void vec_free(struct vec *v)
{
	free(v->items);
	v->items = NULL;
	v->len = v->cap = 0;
}

/* ---- hash table: open addressing, linear probing ---- */

struct strmap_slot {
	const char *key;	/* NULL: empty */
	void *val;
	uint64_t hash;
};

static struct strmap_slot *strmap_find(const struct strmap *m, const char *key,
				       uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);

	for (;; i = (i + 1) & (m->cap - 1)) {
		struct strmap_slot *sl = &m->slots[i];

		if (!sl->key || (sl->hash == h && !strcmp(sl->key, key)))
			return sl;
	}
}

void *strmap_get(const struct strmap *m, const char *key)
{
	struct strmap_slot *sl;

	if (!m->cap)
		return NULL;
	sl = strmap_find(m, key, hash_bytes(HASH_INIT, key, strlen(key)));
	return sl->key ? sl->val : NULL;
}

void **strmap_put(struct strmap *m, const char *key)
{
	uint64_t h = hash_bytes(HASH_INIT, key, strlen(key));
	struct strmap_slot *sl;

	/* At most half full: probes stay short. */
	if (2 * (m->len + 1) > m->cap) {
		struct strmap old = *m;

		m->cap = old.cap ? 2 * old.cap : 64;
		m->slots = xcalloc(m->cap, sizeof(*m->slots));
		for (size_t i = 0; i < old.cap; i++)
			if (old.slots[i].key)
				*strmap_find(m, old.slots[i].key, old.slots[i].hash) = old.slots[i];
		free(old.slots);
	}
	sl = strmap_find(m, key, h);
	if (!sl->key) {
		sl->key = key;
		sl->hash = h;
		sl->val = NULL;
		m->len++;
	}
	return &sl->val;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	*m = (struct strmap)STRMAP_INIT;
}

/* ---- arena ---- */

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

#define ARENA_BLOCK (64 * 1024)

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = a->head;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!b || b->size - b->used < n) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;

		b = xmalloc(sizeof(*b) + size);
		b->used = 0;
		b->size = size;
		b->next = a->head;
		a->head = b;
	}
	p = b->data + b->used;
	b->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	char *p;

	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	p = arena_strndup(a, sb_str(&sb), sb.len);
	sb_free(&sb);
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
	a->total = 0;
}

/* ---- files ---- */

int read_fd(int fd, struct strbuf *out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		sb_add(out, buf, (size_t)n);
	}
	return 0;
}

int read_file(const char *path, struct strbuf *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = read_fd(fd, out);
	close(fd);
	return ret;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write_all(fd, data, len);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = read_file(from, &sb);

	if (!ret)
		ret = write_file(to, sb_str(&sb), sb.len);
	sb_free(&sb);
	return ret;
}

int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, mode) < 0 && errno != EEXIST) {
				ret = -errno;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}

int rm_rf(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int ret = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 ? -errno : 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char *sub;
		int r;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		sub = xasprintf("%s/%s", path, e->d_name);
		r = rm_rf(sub);
		if (r && !ret)
			ret = r;
		free(sub);
	}
	closedir(d);
	if (rmdir(path) < 0 && !ret)
		ret = -errno;
	return ret;
}

int file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *exe_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return xstrdup(".");
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return xstrdup(buf);
}

char *make_temp_dir(const char *prefix)
{
	const char *tmp = getenv("TMPDIR");
	char *path = xasprintf("%s/%sXXXXXX", tmp && *tmp ? tmp : "/tmp",
			       prefix);

	if (!mkdtemp(path)) {
		free(path);
		return NULL;
	}
	return path;
}

/* ---- processes ---- */

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int run_cmd(char *const argv[], const char *cwd, struct strbuf *out,
	    int timeout_s)
{
	int pfd[2] = { -1, -1 };
	int status = 0, timed_out = 0;
	long deadline = timeout_s > 0 ? now_ms() + timeout_s * 1000L : 0;
	pid_t pid;

	if (out && pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		if (out) {
			close(pfd[0]);
			close(pfd[1]);
		}
		return -e;
	}
	if (pid == 0) {
		setpgid(0, 0);
		if (out) {
			dup2(pfd[1], 1);
			dup2(pfd[1], 2);
		}
		if (cwd && chdir(cwd) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", util_progname,
			argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	if (out) {
		close(pfd[1]);
		for (;;) {
			struct pollfd p = { .fd = pfd[0], .events = POLLIN };
			int wait_ms = deadline ? (int)(deadline - now_ms()) : -1;
			char buf[8192];
			ssize_t n;

			if (deadline && wait_ms <= 0) {
				timed_out = 1;
				break;
			}
			if (poll(&p, 1, wait_ms) < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			n = read(pfd[0], buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			sb_add(out, buf, (size_t)n);
		}
		close(pfd[0]);
	}
	for (;;) {
		pid_t r = waitpid(pid, &status, deadline ? WNOHANG : 0);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (timed_out || (deadline && now_ms() >= deadline)) {
			timed_out = 1;
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		if (deadline)
			usleep(20000);
	}
	if (timed_out)
		return -ETIMEDOUT;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

char *util_output_path(const char *path)
{
	char buf[4096];
	struct tm tm;
	time_t now;

	if (!strchr(path, '%'))
		return xstrdup(path);
	now = time(NULL);
	/* An expansion that does not fit, or is empty, keeps the name as given. */
	if (!localtime_r(&now, &tm) || !strftime(buf, sizeof(buf), path, &tm))
		return xstrdup(path);
	return xstrdup(buf);
}
