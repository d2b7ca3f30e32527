// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The module cache, as man stap's CACHING section describes it: a built
 * module and the C it came from are kept in $SYSTEMTAP_DIR/cache
 * ($HOME/.systemtap/cache by default) and the same script built again
 * under the same conditions loads the kept module instead of running
 * kbuild.
 *
 * The key is content, not a guess at what matters: build.c feeds it the
 * generated C, the runtime sources, the kernel's detected features, the
 * Kbuild text and every -D and -B, so anything that changes the module
 * changes its name.  Entries are DIR/HH/stap_KEY.ko and stap_KEY.c (HH:
 * the key's first two digits); the module's name is stap_KEY, since
 * staprun names a module by its file.  The cache is a cache: a failure
 * to read or write it is never an error, only a -v line.
 *
 * Its size is kept under cache_mb_limit MiB (256 by default), checked at
 * most once per cache_clean_interval_s seconds (300) after an entry is
 * added, oldest entries first; a hit touches its entry, so "oldest" is
 * the least recently used.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stap.h"

#define CACHE_MB_DEFAULT 256
#define CACHE_CLEAN_S_DEFAULT 300

void ckey_init(struct cache_key *k)
{
	/* Two FNV-1a streams from different bases: 128 bits of name. */
	k->a = HASH_INIT;
	k->b = HASH_INIT ^ 0x5bd1e9955bd1e995ULL;
}

void ckey_add(struct cache_key *k, const void *data, size_t len)
{
	k->a = hash_bytes(k->a, data, len);
	k->b = hash_bytes(k->b, data, len);
	/* The length too, so that "ab"+"c" and "a"+"bc" differ. */
	k->a = hash_bytes(k->a, &len, sizeof(len));
	k->b = hash_bytes(k->b, &len, sizeof(len));
}

void ckey_str(struct cache_key *k, const char *s)
{
	ckey_add(k, s, strlen(s));
}

/* $SYSTEMTAP_DIR/cache, or NULL without a home to put it in. */
static char *cache_root(void)
{
	const char *dir = getenv("SYSTEMTAP_DIR");
	const char *home = getenv("HOME");

	if (dir && *dir)
		return xasprintf("%s/cache", dir);
	if (home && *home)
		return xasprintf("%s/.systemtap/cache", home);
	return NULL;
}

char *cache_module_name(const struct cache_key *k)
{
	return xasprintf("stap_%016llx%016llx", (unsigned long long)k->a,
			 (unsigned long long)k->b);
}

/* DIR/HH/NAME.ext for the cache entry NAME (stap_KEY). */
static char *entry_path(const char *root, const char *name, const char *ext)
{
	return xasprintf("%s/%.2s/%s%s", root, name + 5, name, ext);
}

char *cache_lookup(struct session *s, const char *name)
{
	char *root, *ko = NULL;

	if (s->cache_mode != CACHE_ON || !(root = cache_root()))
		return NULL;
	ko = entry_path(root, name, ".ko");
	free(root);
	if (!file_exists(ko)) {
		free(ko);
		return NULL;
	}
	/* Used now: the cleaner removes the least recently used first. */
	utimensat(AT_FDCWD, ko, NULL, 0);
	return ko;
}

/* A small number kept in DIR/FILE, written there with DEF if absent. */
static long setting(const char *root, const char *file, long def)
{
	char *path = xasprintf("%s/%s", root, file);
	struct strbuf sb = STRBUF_INIT;
	char *end;
	long v = def;

	if (read_file(path, &sb) == 0) {
		long n = strtol(sb_str(&sb), &end, 10);

		if (end != sb_str(&sb) && (*end == '\n' || !*end) && n >= 0)
			v = n;
	} else {
		char text[32];
		int len = snprintf(text, sizeof(text), "%ld\n", def);

		write_file(path, text, len);
	}
	sb_free(&sb);
	free(path);
	return v;
}

struct entry {
	char *stem;		/* DIR/HH/stap_KEY */
	off_t bytes;
	time_t used;
};

static int by_use(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->used < y->used ? -1 : x->used > y->used;
}

/* Add DIR/HH's files to the entries, one per stem (a name less its extension). */
static void scan_sub(const char *sub, struct entry **ents, int *n, int *cap)
{
	DIR *d = opendir(sub);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *dot = strchr(e->d_name, '.'), *path, *stem;
		struct stat st;
		int i;

		if (e->d_name[0] == '.' || !dot)
			continue;
		path = xasprintf("%s/%s", sub, e->d_name);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		stem = xstrndup(path, strlen(path) - strlen(dot));
		free(path);
		for (i = 0; i < *n && strcmp((*ents)[i].stem, stem); i++)
			;
		if (i == *n) {
			if (*n == *cap) {
				*cap = *cap ? 2 * *cap : 64;
				*ents = xrealloc(*ents, *cap * sizeof(**ents));
			}
			(*ents)[(*n)++] = (struct entry){ stem, 0, 0 };
		} else {
			free(stem);
		}
		(*ents)[i].bytes += st.st_size;
		if (st.st_mtime > (*ents)[i].used)
			(*ents)[i].used = st.st_mtime;
	}
	closedir(d);
}

/* Remove an entry's files: its stem with any extension, a crashed writer's .tmpN too. */
static void remove_entry(const struct entry *e)
{
	const char *base = strrchr(e->stem, '/') + 1;
	char *sub = xstrndup(e->stem, base - 1 - e->stem);
	size_t n = strlen(base);
	DIR *d = opendir(sub);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		if (!strncmp(de->d_name, base, n) && de->d_name[n] == '.') {
			char *p = xasprintf("%s/%s", sub, de->d_name);

			unlink(p);
			free(p);
		}
	}
	if (d)
		closedir(d);
	free(sub);
}

/*
 * Prune the cache to its limit, oldest first, but never the entry KEEP
 * (a stem: the one just made).  Unless FORCED, only if the clean
 * interval has passed since the last clean (DIR/.cleaned's time stamp).
 */
static int clean(struct session *s, const char *root, bool forced, const char *keep)
{
	long limit_mb = setting(root, "cache_mb_limit", CACHE_MB_DEFAULT);
	long every_s = setting(root, "cache_clean_interval_s", CACHE_CLEAN_S_DEFAULT);
	char *stamp = xasprintf("%s/.cleaned", root);
	struct entry *ents = NULL;
	int n = 0, cap = 0, removed = 0, fd;
	long long total = 0, limit = (long long)limit_mb << 20;
	struct stat st;
	DIR *d;
	struct dirent *e;

	if (!forced && stat(stamp, &st) == 0 && time(NULL) - st.st_mtime < every_s) {
		free(stamp);
		return 0;
	}
	fd = open(stamp, O_WRONLY | O_CREAT, 0644);
	if (fd >= 0) {
		futimens(fd, NULL);
		close(fd);
	}
	free(stamp);
	d = opendir(root);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (strlen(e->d_name) == 2 && e->d_name[0] != '.') {
			char *sub = xasprintf("%s/%s", root, e->d_name);

			scan_sub(sub, &ents, &n, &cap);
			free(sub);
		}
	}
	closedir(d);
	for (int i = 0; i < n; i++)
		total += ents[i].bytes;
	qsort(ents, n, sizeof(*ents), by_use);
	for (int i = 0; i < n; i++) {
		if (total > limit && (!keep || strcmp(ents[i].stem, keep))) {
			remove_entry(&ents[i]);
			total -= ents[i].bytes;
			removed++;
		}
		free(ents[i].stem);
	}
	free(ents);
	if (s->verbose >= 1 && (forced || removed))
		fprintf(stderr, "Cache: removed %d of %d entries from %s (limit %ld MiB), "
			"%lld bytes left\n", removed, n, root, limit_mb, total);
	return 0;
}

char *cache_store(struct session *s, const char *name, const char *ko,
		  const struct strbuf *c)
{
	char *root, *sub = NULL, *dst = NULL, *tmp = NULL, *cdst = NULL;
	int ret;

	if (s->cache_mode == CACHE_OFF || !(root = cache_root()))
		return NULL;
	dst = entry_path(root, name, ".ko");
	sub = xstrndup(dst, strrchr(dst, '/') - dst);
	tmp = xasprintf("%s.tmp%d", dst, (int)getpid());
	ret = mkdir_p(sub, 0755);
	/* Written aside, then renamed: a reader never sees half a module. */
	if (!ret)
		ret = copy_file(ko, tmp);
	if (!ret && rename(tmp, dst) < 0)
		ret = -errno;
	if (ret) {
		unlink(tmp);
		if (s->verbose >= 1)
			fprintf(stderr, "Cache: cannot keep the module in %s: %s\n", sub,
				strerror(-ret));
		free(dst);
		dst = NULL;
	} else {
		/* The C is for people to read; the module does not need it. */
		cdst = entry_path(root, name, ".c");
		free(tmp);
		tmp = xasprintf("%s.tmp%d", cdst, (int)getpid());
		if (write_file(tmp, c->buf, c->len) < 0 || rename(tmp, cdst) < 0)
			unlink(tmp);
		char *stem = xstrndup(dst, strlen(dst) - 3);

		clean(s, root, false, stem);
		free(stem);
	}
	free(cdst);
	free(tmp);
	free(sub);
	free(root);
	return dst;
}

int cache_clean(struct session *s)
{
	char *root = cache_root();
	int ret;

	if (!root) {
		util_err("no cache directory: neither SYSTEMTAP_DIR nor HOME is set");
		return 1;
	}
	ret = is_dir(root) ? clean(s, root, true, NULL) : 0;
	if (ret)
		util_err("cannot clean the cache %s: %s", root, strerror(-ret));
	free(root);
	return ret ? 1 : 0;
}
