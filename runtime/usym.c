// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User addresses to files and symbols.  The translator emits the tables
 * of the user files a script may meet (translator/usyms.c), keyed by
 * path; at session start each path becomes its inode.  At run time an
 * address is found in the current task's mappings (find_vma under the
 * mmap lock, taken with a trylock: probe context must not sleep), its
 * mapping's file compared with those inodes, and the address turned into
 * a file offset, which is what the tables hold.
 *
 * Lookups run in probe context: no allocation; the mapping's path, when
 * the file has no table, goes through a per-CPU buffer.
 */
#include <linux/dcache.h>
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "stp_tapset.h"
#include "stp_scratch.h"

static struct inode **usym_inodes;	/* one per _stp_usym_tables entry */
static int usym_n;
static bool usym_started;	/* the per-CPU irq_works are ready */

/*
 * A handler may run with interrupts off, under the scheduler's
 * locks: releasing the mmap lock there could wake a waiting writer and
 * take a run-queue lock we hold.  So the release is deferred to an
 * irq_work, which runs once interrupts are back on (as BPF's stack maps
 * do), and until it has run this CPU keeps holding the lock: further
 * lookups in the same hit reuse it.
 */
struct stp_umm_release {
	struct irq_work work;
	struct mm_struct *mm;	/* held for a pending release, or NULL */
};
static DEFINE_PER_CPU(struct stp_umm_release, stp_umm_release);

static void umm_release(struct irq_work *work)
{
	struct stp_umm_release *r = container_of(work, struct stp_umm_release, work);
	struct mm_struct *mm = READ_ONCE(r->mm);

	WRITE_ONCE(r->mm, NULL);
	if (mm)
		mmap_read_unlock(mm);
}

int _stp_usyms_start(void)
{
	int i, cpu;

	for_each_possible_cpu(cpu)
		init_irq_work(&per_cpu_ptr(&stp_umm_release, cpu)->work, umm_release);
	smp_store_release(&usym_started, true);

	for (usym_n = 0; _stp_usym_tables[usym_n].syms.name; usym_n++)
		;
	if (!usym_n)
		return 0;
	usym_inodes = kcalloc(usym_n, sizeof(*usym_inodes), GFP_KERNEL);
	if (!usym_inodes)
		return -ENOMEM;
	/* A file that is not there (yet) only has no symbols. */
	for (i = 0; i < usym_n; i++) {
		struct path path;

		if (kern_path(_stp_usym_tables[i].syms.name, LOOKUP_FOLLOW, &path))
			continue;
		usym_inodes[i] = igrab(d_inode(path.dentry));
		path_put(&path);
	}
	return 0;
}

void _stp_usyms_stop(void)
{
	int i, cpu;

	/* Probes are gone: wait for the releases they queued. */
	WRITE_ONCE(usym_started, false);
	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(&stp_umm_release, cpu)->work);

	for (i = 0; usym_inodes && i < usym_n; i++)
		if (usym_inodes[i])
			iput(usym_inodes[i]);
	kfree(usym_inodes);
	usym_inodes = NULL;
	usym_n = 0;
}

struct mm_struct *_stp_umm_lock(void)
{
	struct mm_struct *mm = current->mm;
	struct stp_umm_release *r;

	if (!mm || (current->flags & PF_KTHREAD) || in_nmi() || !usym_started)
		return NULL;
	if (!irqs_disabled())
		return mmap_read_trylock(mm) ? mm : NULL;
	r = this_cpu_ptr(&stp_umm_release);
	if (irq_work_is_busy(&r->work))
		return READ_ONCE(r->mm) == mm ? mm : NULL;	/* still held */
	if (!mmap_read_trylock(mm))
		return NULL;
	WRITE_ONCE(r->mm, mm);
	irq_work_queue(&r->work);
	return mm;
}

void _stp_umm_unlock(struct mm_struct *mm)
{
	/* With interrupts off, the irq_work releases it. */
	if (mm && !irqs_disabled())
		mmap_read_unlock(mm);
}


/*
 * The span of the file's image at base, as its ELF program headers (read
 * from the mapping's first page) lay it out, .bss included; else that of
 * its mappings.
 */
static unsigned long map_span(struct mm_struct *mm, unsigned long base, struct inode *ino)
{
	struct vm_area_struct *v;
	unsigned long lo = ULONG_MAX, hi = 0, end = base;
	Elf64_Ehdr eh;
	int i;

	if (!_stp_uread_quiet(&eh, base, sizeof(eh)) && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr)) {
		for (i = 0; i < eh.e_phnum && i < 32; i++) {
			Elf64_Phdr ph;

			if (_stp_uread_quiet(&ph, base + eh.e_phoff + i * sizeof(ph), sizeof(ph)))
				break;
			if (ph.p_type != PT_LOAD)
				continue;
			lo = min_t(unsigned long, lo, ph.p_vaddr & PAGE_MASK);
			hi = max_t(unsigned long, hi, PAGE_ALIGN(ph.p_vaddr + ph.p_memsz));
		}
		if (i == eh.e_phnum && hi > lo)
			return hi - lo;
	}
	for (v = find_vma(mm, base), i = 0; v && i < 32; v = find_vma(mm, v->vm_end), i++) {
		if (v->vm_start != end || !v->vm_file || file_inode(v->vm_file) != ino)
			break;
		end = v->vm_end;
	}
	return end - base;
}

/*
 * A mapped file's path.  d_path() may take rename_lock, which the code a
 * hard interrupt interrupted may hold: there, only the file's own name.
 */
static const char *upath(struct file *file)
{
	char *buf = _stp_scratch()->upath;
	const char *path;

	if (in_hardirq()) {
		rcu_read_lock();
		strscpy(buf, READ_ONCE(file->f_path.dentry->d_name.name), 256);
		rcu_read_unlock();
		return buf;
	}
	path = d_path(&file->f_path, buf, 256);
	return IS_ERR(path) ? "?" : path;
}

int _stp_uloc(struct mm_struct *mm, unsigned long addr, struct stp_uloc *l)
{
	struct vm_area_struct *v;
	struct inode *ino;
	unsigned long base;
	int i;

	if (!mm)
		return -ENOENT;
	v = find_vma(mm, addr);
	if (!v || addr < v->vm_start || !v->vm_file)
		return -ENOENT;
	ino = file_inode(v->vm_file);
	base = v->vm_start - (v->vm_pgoff << PAGE_SHIFT);
	l->off = addr - base;
	l->rel = l->off;
	l->size = map_span(mm, base, ino);
	l->t = NULL;
	for (i = 0; i < usym_n; i++)
		if (usym_inodes[i] == ino) {
			l->t = &_stp_usym_tables[i];
			l->path = l->t->syms.name;
			return 0;
		}
	l->path = upath(v->vm_file);
	return 0;
}

/* The symbol holding l's address: its name, or NULL. */
static const char *uloc_sym(const struct stp_uloc *l, unsigned long *off, unsigned long *size)
{
	const struct stp_symtab *t = l->t ? &l->t->syms : NULL;
	long i;

	if (!t || !t->n || l->off < t->base)
		return NULL;
	i = _stp_symtab_find(t, l->off - t->base, off, size);
	return i < 0 ? NULL : t->strtab + t->names[i];
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void _stp_usym_format(char *dst, size_t len, unsigned long addr, enum stp_ufmt how)
{
	struct mm_struct *mm = _stp_umm_lock();
	unsigned long off = 0, size = 0;
	const char *name = NULL;
	struct stp_uloc l;
	bool mapped = !_stp_uloc(mm, addr, &l);
	size_t n = 0;

	if (mapped)
		name = uloc_sym(&l, &off, &size);
	if (how == STP_UFMT_STACK || (how == STP_UFMT_BT && name))
		n = scnprintf(dst, len, " 0x%lx : ", addr);
	else if (how == STP_UFMT_BT)
		n = scnprintf(dst, len, " ");
	dst += n;
	len -= n;
	switch (how) {
	case STP_UFMT_NAME:
		if (name)
			strscpy(dst, name, len);
		else
			scnprintf(dst, len, "0x%lx", addr);
		break;
	case STP_UFMT_BRIEF:
		if (name)
			scnprintf(dst, len, "%s+0x%lx", name, off);
		else
			scnprintf(dst, len, "0x%lx", addr);
		break;
	case STP_UFMT_SHORT:
		if (name)
			scnprintf(dst, len, "%s+0x%lx [%s]", name, off, base_name(l.path));
		else if (mapped)
			scnprintf(dst, len, "0x%lx [%s+0x%lx]", addr, base_name(l.path), l.rel);
		else
			scnprintf(dst, len, "0x%lx", addr);
		break;
	default:
		if (name)
			scnprintf(dst, len, "%s+0x%lx/0x%lx [%s]", name, off, size, l.path);
		else if (mapped)
			scnprintf(dst, len, "0x%lx [%s+0x%lx/0x%lx]", addr, l.path, l.rel, l.size);
		else
			scnprintf(dst, len, "0x%lx", addr);
		break;
	}
	_stp_umm_unlock(mm);
}

int _stp_umodname(char *dst, size_t len, unsigned long addr)
{
	struct mm_struct *mm = _stp_umm_lock();
	struct stp_uloc l;
	int ret = _stp_uloc(mm, addr, &l);

	if (!ret)
		strscpy(dst, l.path, len);
	_stp_umm_unlock(mm);
	return ret;
}
