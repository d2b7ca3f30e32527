// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procfs probes: the table translator/probes/procfs.c emits (struct
 * stp_procfs, stp_runtime.h) becomes files /proc/systemtap/MODULE/NAME
 * at session start, removed at session stop before end probes run.
 *
 *  - Opening a file for reading runs its .read probes, in table order,
 *    into a buffer of that open's own (maxsize bytes, allocated before
 *    the probes run); reads copy from it.
 *  - Each write(2) runs the .write probes with the bytes written as
 *    $value (at most one page a call, as SystemTap).
 *  - /proc/systemtap is shared by every module and never removed: a
 *    module cannot tell whether another still has files under it.
 *    Each module removes its own directory, whose removal waits for
 *    readers and writers inside the handlers to leave.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/proc_fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "stp_internal.h"

static struct proc_dir_entry *stp_procfs_dir;

static void run_rows(struct stp_procfs *first, int write, struct stp_procfs_io *io)
{
	struct stp_hit h = { .procfs = io };
	struct stp_procfs *r;

	for (r = first; r; r = r->next_same)
		if (r->write == write)
			_stp_run_probe_hit(r->probe, NULL, &h);
}

static size_t read_max(struct stp_procfs *first)
{
	size_t max = 0;
	struct stp_procfs *r;

	for (r = first; r; r = r->next_same)
		if (!r->write && r->maxsize > max)
			max = r->maxsize;
	return max;
}

static int procfs_open(struct inode *inode, struct file *f)
{
	struct stp_procfs *first = pde_data(inode);
	struct stp_procfs_io *io;
	size_t max = read_max(first);

	if ((f->f_mode & FMODE_READ) && !max)
		return -EACCES;
	io = kzalloc(sizeof(*io), GFP_KERNEL);
	if (!io)
		return -ENOMEM;
	if (f->f_mode & FMODE_READ) {
		io->buf = kvzalloc(max + 1, GFP_KERNEL);
		if (!io->buf) {
			kfree(io);
			return -ENOMEM;
		}
		io->max = max;
		run_rows(first, 0, io);
	}
	f->private_data = io;
	return 0;
}

static ssize_t procfs_read(struct file *f, char __user *ubuf, size_t n, loff_t *pos)
{
	struct stp_procfs_io *io = f->private_data;

	return simple_read_from_buffer(ubuf, n, pos, io->buf, io->len);
}

static ssize_t procfs_write(struct file *f, const char __user *ubuf, size_t n, loff_t *pos)
{
	struct stp_procfs *first = pde_data(file_inode(f));
	struct stp_procfs_io io;

	if (n > PAGE_SIZE - 1)
		n = PAGE_SIZE - 1;
	io.buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!io.buf)
		return -ENOMEM;
	if (copy_from_user(io.buf, ubuf, n)) {
		kfree(io.buf);
		return -EFAULT;
	}
	io.buf[n] = '\0';
	io.len = n;
	io.max = PAGE_SIZE - 1;
	run_rows(first, 1, &io);
	kfree(io.buf);
	*pos += n;
	return n;
}

static int procfs_release(struct inode *inode, struct file *f)
{
	struct stp_procfs_io *io = f->private_data;

	if (io) {
		kvfree(io->buf);
		kfree(io);
	}
	return 0;
}

static const struct proc_ops stp_procfs_ops = {
	.proc_open = procfs_open,
	.proc_read = procfs_read,
	.proc_write = procfs_write,
	.proc_lseek = default_llseek,
	.proc_release = procfs_release,
};

int _stp_procfs_start(struct stp_procfs *files, size_t n)
{
	char path[64 + MODULE_NAME_LEN];
	struct path p;
	size_t i, j;

	if (!n)
		return 0;
	/*
	 * Another module may have made it: proc_mkdir() of an existing
	 * name warns in the kernel log, so look first.
	 */
	if (!kern_path("/proc/systemtap", LOOKUP_DIRECTORY, &p))
		path_put(&p);
	else
		proc_mkdir("systemtap", NULL);
	snprintf(path, sizeof(path), "systemtap/%s", THIS_MODULE->name);
	stp_procfs_dir = proc_mkdir(path, NULL);
	if (!stp_procfs_dir) {
		_stp_ctl_sendf(STP_CTL_ERROR, "cannot create /proc/%s", path);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct stp_procfs *r = &files[i], *prev = NULL;
		umode_t mode = 0;

		r->pde = NULL;
		r->next_same = NULL;
		for (j = 0; j < i && !prev; j++)
			if (!strcmp(files[j].name, r->name) && files[j].pde)
				prev = &files[j];
		if (prev) {
			while (prev->next_same)
				prev = prev->next_same;
			prev->next_same = r;
			continue;
		}
		/* Owner-only, as SystemTap: read if any row reads, write if any writes. */
		for (j = i; j < n; j++)
			if (!strcmp(files[j].name, r->name))
				mode |= files[j].write ? 0200 : 0400;
		if (r->umask >= 0)
			mode &= ~r->umask;
		r->pde = proc_create_data(r->name, mode, stp_procfs_dir, &stp_procfs_ops, r);
		if (!r->pde) {
			_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: cannot create /proc/%s/%s",
				       r->probe->pp, r->probe->loc, path, r->name);
			_stp_procfs_stop(files, n);
			return -ENOMEM;
		}
	}
	return 0;
}

void _stp_procfs_stop(struct stp_procfs *files, size_t n)
{
	if (!stp_procfs_dir)
		return;
	/* Waits for opens, reads and writes in progress. */
	proc_remove(stp_procfs_dir);
	stp_procfs_dir = NULL;
}

void _stp_procfs_set(struct stp_context *c, const char *s, bool append)
{
	struct stp_procfs_io *io = c->procfs;
	size_t len;

	if (!io)
		return;
	if (!append)
		io->len = 0;
	len = strlen(s);
	if (len > io->max - io->len)
		len = io->max - io->len;
	memcpy(io->buf + io->len, s, len);
	io->len += len;
	io->buf[io->len] = '\0';
}

void _stp_procfs_value(struct stp_context *c, char *dst)
{
	struct stp_procfs_io *io = c->procfs;

	strscpy(dst, io ? io->buf : "", MAXSTRINGLEN);
}
