// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading and unloading the probe module, and mounting debugfs. */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "staprun.h"
#include "util.h"

#define DEBUGFS "/sys/kernel/debug"
#define DEBUGFS_MAGIC 0x64626720

int mod_mount_debugfs(void)
{
	struct statfs st;

	if (statfs(DEBUGFS, &st) == 0 && st.f_type == DEBUGFS_MAGIC)
		return 0;
	if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL) < 0) {
		int ret = -errno;

		util_err("debugfs: cannot mount on %s: %s", DEBUGFS,
			 strerror(-ret));
		return ret;
	}
	if (staprun_verbose)
		util_err("debugfs: mounted on %s", DEBUGFS);
	return 0;
}

char *mod_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name, *p;
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 3 && strcmp(base + len - 3, ".ko") == 0)
		len -= 3;
	name = xstrndup(base, len);
	/* kbuild turns '-' into '_' in KBUILD_MODNAME. */
	for (p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

static void load_hint(const char *name, int err)
{
	switch (err) {
	case EEXIST:
		util_err("module %s is already loaded; remove it with 'staprun -d %s'",
			 name, name);
		break;
	case ENOEXEC:
		util_err("invalid module format: built for another kernel? see dmesg");
		break;
	case EPERM:
		util_err("loading modules needs root (CAP_SYS_MODULE), and may be blocked by kernel lockdown or Secure Boot; see dmesg");
		break;
	case EKEYREJECTED:
	case EBADMSG:
		util_err("the kernel requires signed modules; see dmesg");
		break;
	case EINVAL:
		util_err("the kernel rejected the module or a name=value parameter; see dmesg");
		break;
	default:
		util_err("see dmesg for the kernel's reason");
	}
}

/*
 * init_module() of FD's bytes, from its current offset: for kernels
 * without finit_module(), and for a module that is not a regular file.
 */
static int load_from_memory(int fd, const char *params)
{
	struct strbuf image = STRBUF_INIT;
	int ret = read_fd(fd, &image);

	if (ret)
		goto out;
	if (syscall(SYS_init_module, image.buf, image.len, params) < 0)
		ret = -errno;
out:
	sb_free(&image);
	return ret;
}

/*
 * staprun -R: the module's own name lives in its .gnu.linkonce.this_module
 * section, a struct module whose name follows an enum and a list_head
 * (offset 24 on x86-64, unchanged for many years).  The bytes there must
 * read as the name the file's name gives, or nothing is changed.
 */
#define THIS_MODULE_NAME_OFFSET 24
#define MODULE_NAME_MAX 56

static int rename_image(struct strbuf *image, const char *old, const char *new)
{
	const Elf64_Ehdr *eh = (const void *)image->buf;
	const Elf64_Shdr *sh;
	const char *names;

	if (image->len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shstrndx >= eh->e_shnum ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > image->len)
		return -ENOEXEC;
	sh = (const void *)(image->buf + eh->e_shoff);
	if (sh[eh->e_shstrndx].sh_offset >= image->len)
		return -ENOEXEC;
	names = image->buf + sh[eh->e_shstrndx].sh_offset;
	for (int i = 0; i < eh->e_shnum; i++) {
		char *field;

		if (sh[i].sh_name >= sh[eh->e_shstrndx].sh_size ||
		    strcmp(names + sh[i].sh_name, ".gnu.linkonce.this_module"))
			continue;
		if (sh[i].sh_offset + THIS_MODULE_NAME_OFFSET + MODULE_NAME_MAX >
		    image->len || sh[i].sh_size < THIS_MODULE_NAME_OFFSET + MODULE_NAME_MAX)
			return -ENOEXEC;
		field = image->buf + sh[i].sh_offset + THIS_MODULE_NAME_OFFSET;
		if (strncmp(field, old, MODULE_NAME_MAX))
			return -ENOEXEC;
		memset(field, 0, MODULE_NAME_MAX);
		strncpy(field, new, MODULE_NAME_MAX - 1);
		return 0;
	}
	return -ENOEXEC;
}

int mod_load_renamed(const char *path, const char *name, const char *newname,
		     const char *params)
{
	struct strbuf image = STRBUF_INIT;
	int ret = read_file(path, &image);

	if (ret) {
		util_err("module: cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	ret = rename_image(&image, name, newname);
	if (ret) {
		util_err("-R: cannot find the name %s in %s to rename it", name, path);
		goto out;
	}
	if (syscall(SYS_init_module, image.buf, image.len, params) < 0) {
		ret = -errno;
		util_err("module: cannot load %s as %s: %s", path, newname, strerror(-ret));
		load_hint(newname, -ret);
	} else if (staprun_verbose) {
		util_err("module: loaded %s as %s", path, newname);
	}
out:
	sb_free(&image);
	return ret;
}

int mod_load(const char *path, const char *name, const char *params)
{
	struct stat st;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		util_err("module: cannot open %s: %s", path, strerror(-ret));
		return ret;
	}
	/*
	 * A module from a pipe or FIFO (staprun <(xzcat m.ko.xz)):
	 * finit_module() takes only regular files, so its bytes go to
	 * init_module().
	 */
	if (!fstat(fd, &st) && !S_ISREG(st.st_mode)) {
		ret = load_from_memory(fd, params);
	} else if (syscall(SYS_finit_module, fd, params, 0) < 0) {
		ret = -errno;
		if (ret == -ENOSYS)
			ret = load_from_memory(fd, params);
	}
	if (ret) {
		util_err("module: cannot load %s: %s", path, strerror(-ret));
		load_hint(name, -ret);
		goto out;
	}
	if (staprun_verbose)
		util_err("module: loaded %s", name);
out:
	close(fd);
	return ret;
}

bool mod_loaded(const char *name)
{
	char *path = xasprintf("/sys/module/%s", name);
	bool ok = access(path, F_OK) == 0;

	free(path);
	return ok;
}

/* "ERROR: ..." in the color the script's errors get (-C). */
static void print_error(const char *fmt, ...)
{
	const char *c = util_color("error");
	va_list ap;

	if (c)
		fprintf(stderr, "\033[%smERROR\033[0m: ", c);
	else
		fputs("ERROR: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * A zombie: a probe module (its control file is there) that no staprun
 * holds (an open .cmd pins the module, so its count is 0).  Not opening
 * .cmd to find out: closing it would stop a detached session's probes.
 */
static bool mod_zombie(const char *name)
{
	/* STP_CTL_DEBUGFS_DIR: stp_ctl.h's __u64 clashes with sys/mount.h's. */
	char *path = xasprintf(DEBUGFS "/systemtap/%s/.cmd", name);
	bool ours = access(path, F_OK) == 0;
	FILE *f;
	int refs = -1;

	free(path);
	if (!ours)
		return false;
	path = xasprintf("/sys/module/%s/refcnt", name);
	f = fopen(path, "r");
	free(path);
	if (f) {
		if (fscanf(f, "%d", &refs) != 1)
			refs = -1;
		fclose(f);
	}
	return refs == 0;
}

int mod_unload_zombie(const char *name)
{
	if (!mod_zombie(name)) {
		/* SystemTap 4.8's words, and its exit code (-EINVAL's byte). */
		print_error("Cannot attach to module %s control channel; not running?",
			    name);
		print_error("'%s' is not a zombie systemtap module.", name);
		return 234;
	}
	return mod_unload(name) ? 1 : 0;
}

int mod_unload_unused(void)
{
	DIR *d = opendir(DEBUGFS "/systemtap");
	struct vec names = VEC_INIT;
	struct dirent *e;
	int ret = 0;

	if (!d)		/* no probe module was ever loaded */
		return errno == ENOENT ? 0 : 1;
	/* Names first: each unload removes its directory from under readdir. */
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && mod_zombie(e->d_name))
			vec_push(&names, xstrdup(e->d_name));
	closedir(d);
	for (int i = 0; i < names.len; i++) {
		/* One attached meanwhile stays, as an attached one does. */
		if (!mod_zombie(names.items[i]))
			;
		else if (mod_unload(names.items[i]))
			ret = 1;
		else	/* SystemTap 4.8 says so on stdout */
			printf("Module %s removed.\n", (char *)names.items[i]);
		free(names.items[i]);
	}
	vec_free(&names);
	return ret;
}

int mod_unload(const char *name)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	int tries, ret = 0;

	/* The last reader may still be letting go of the module's files. */
	for (tries = 1;; tries++) {
		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0) {
			ret = 0;
			break;
		}
		ret = -errno;
		if ((ret != -EAGAIN && ret != -EBUSY) || tries == 50)
			break;
		nanosleep(&pause, NULL);
	}
	if (ret) {
		util_err("module: cannot unload %s: %s%s", name, strerror(-ret),
			 ret == -ENOENT ? " (not loaded)" : "");
		return ret;
	}
	if (staprun_verbose)
		util_err("module: unloaded %s", name);
	return 0;
}
