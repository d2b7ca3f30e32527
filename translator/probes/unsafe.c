// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel functions a probe must not go on although the kernel would
 * allow a kprobe there (its own refusals, NOKPROBE_SYMBOL and the
 * __kprobes, .noinstr.text, .entry.text and .init.text ranges, are
 * kprobe.c's ksym_refused).  stapprobes(3stap): SystemTap 4.8 skips such
 * functions of a wildcard with "function NAME is blocklisted"; these are
 * the kinds of function it skips (seen with its -p2 -v on 6.1) that this
 * runtime, or the kernel around a probe hit, depends on:
 *
 *  - locking primitives: every handler takes locks (globals, maps, the
 *    relay and control buffers) and a probe inside one makes each hit a
 *    re-entry that is skipped, or worse, runs with the lock half taken;
 *  - atomic operations, preemption counting, the context switch, soft
 *    interrupts and the local APIC (interrupt delivery and timers), which
 *    every hit goes through;
 *  - traps, NMI and oops handling, notifier chains run from them, and
 *    what the handlers' fault fixups and backtraces call (exception
 *    tables, kernel-text lookups, the current task);
 *  - files: kprobes itself, paravirt operations (interrupt flags), and
 *    the x86 bit operation and port I/O headers.
 *
 * Only wildcards skip them (-v says how many): a point naming one exactly
 * is the user's decision, as with SystemTap's blocklist for a full name.
 */
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes.h"

struct unsafe_rule {
	const char *glob;	/* fnmatch pattern, case-insensitive */
	const char *why;
};

static const char locking[] = "is a locking primitive, which probe handlers use";
static const char irq[] = "is on the path of every probe hit (atomics, preemption, "
			  "interrupts)";
static const char trap[] = "handles traps, NMIs or oopses, or serves a handler's fault "
			   "fixups and backtraces";

static const struct unsafe_rule name_rules[] = {
	{ "*raw_*_lock*", locking }, { "*raw_*_unlock*", locking },
	{ "*raw_*_trylock*", locking },
	{ "*read_lock*", locking }, { "*read_unlock*", locking },
	{ "*read_trylock*", locking },
	{ "*write_lock*", locking }, { "*write_unlock*", locking },
	{ "*write_trylock*", locking },
	{ "*write_seqlock*", locking }, { "*write_sequnlock*", locking },
	{ "*spin_lock*", locking }, { "*spin_unlock*", locking },
	{ "*spin_trylock*", locking }, { "*spin_is_locked*", locking },
	{ "rwsem_*lock*", locking }, { "*mutex_*lock*", locking },
	{ "atomic*", irq }, { "*preempt_count*", irq }, { "preempt_schedule", irq },
	{ "__switch_to", irq }, { "*softirq*", irq }, { "*apic*", irq },
	{ "do_int3", trap }, { "do_trap", trap }, { "default_do_nmi", trap },
	{ "unknown_nmi_error", trap }, { "io_check_error", trap },
	{ "oops_begin", trap }, { "oops_end", trap }, { "__die", trap },
	{ "sync_regs", trap }, { "*setup_rt_frame", trap },
	{ "*notifier_call_chain*", trap }, { "search_exception_tables", trap },
	{ "*kernel_text*", trap }, { "get_current", trap },
	{ "test_ti_thread_flag", trap },
};

static const struct unsafe_rule file_rules[] = {
	{ "kernel/kprobes.c", "is in kprobes itself" },
	{ "arch/*/kernel/kprobes/*", "is in kprobes itself" },
	{ "arch/*/kernel/paravirt.c", "is a paravirt operation (interrupt flags)" },
	{ "arch/*/include/asm/paravirt.h", "is a paravirt operation (interrupt flags)" },
	{ "arch/*/include/asm/bitops.h", "is a bit operation, which probe handlers use" },
	{ "arch/*/include/asm/io.h", "is port or memory-mapped I/O" },
};

const char *pf_unsafe_function(const char *name, const char *file)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(name_rules); i++)
		if (!fnmatch(name_rules[i].glob, name, FNM_CASEFOLD))
			return name_rules[i].why;
	/* A kernel built in a subdirectory (Debian's RT flavour) names the
	 * files under it: the rules match the path or any tail of it. */
	for (const char *f = file; f; f = strchr(f, '/') ? strchr(f, '/') + 1 : NULL)
		for (i = 0; i < ARRAY_SIZE(file_rules); i++)
			if (!fnmatch(file_rules[i].glob, f, FNM_PATHNAME))
				return file_rules[i].why;
	return NULL;
}

/* ---- code the kernel rewrites at run time ---- */

/*
 * The kernel refuses a kprobe inside a jump label (static branch) or a
 * static call site, EINVAL at registration.  Their addresses are in the
 * vmlinux's __jump_table (struct jump_entry: s32 code, s32 target, long
 * key, offsets relative to the field) and .static_call_sites (s32 addr,
 * s32 key).  One table per debuginfo file, loaded once.
 */
struct site_table {
	struct site_table *next;
	char *path;
	uint64_t *r;		/* n (start, end) pairs, by start */
	size_t n;
	uint64_t *mcount;	/* the fentry call sites (__mcount_loc), sorted */
	size_t nmcount;
	Elf *elf;		/* kept open for pf_ftrace_site's ENDBR check */
};

static struct site_table *site_tables;

static int cmp_range(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* @len bytes at link-time address @addr of a section with contents, or NULL. */
static const unsigned char *elf_bytes(Elf *elf, uint64_t addr, uint64_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
		    addr + len > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr + len - sh.sh_addr > d->d_size)
			return NULL;
		return (const unsigned char *)d->d_buf + (addr - sh.sh_addr);
	}
	return NULL;
}

static void add_range(struct site_table *t, size_t *cap, uint64_t start, uint64_t len)
{
	if (t->n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		t->r = xrealloc(t->r, *cap * 2 * sizeof(*t->r));
	}
	t->r[2 * t->n] = start;
	t->r[2 * t->n + 1] = start + len;
	t->n++;
}

/* The linker's bounds of the two tables (inside .data..ro_after_init). */
enum { JT_START, JT_STOP, SC_START, SC_STOP, MC_START, MC_STOP, BOUNDS };
static const char *const bound_names[BOUNDS] = {
	"__start___jump_table", "__stop___jump_table",
	"__start_static_call_sites", "__stop_static_call_sites",
	"__start_mcount_loc", "__stop_mcount_loc",
};

static void find_bounds(Elf *elf, uint64_t *b)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Sym sym;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / (sh.sh_entsize ? sh.sh_entsize : 1); i++) {
			const char *name;

			if (!gelf_getsym(d, (int)i, &sym))
				break;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || strncmp(name, "__st", 4))
				continue;
			for (int k = 0; k < BOUNDS; k++)
				if (!strcmp(name, bound_names[k]))
					b[k] = sym.st_value;
		}
	}
}

/* Entries of esize bytes from start to stop: an s32 offset each, first. */
static void add_table(struct site_table *t, size_t *cap, Elf *elf, uint64_t start,
		      uint64_t stop, size_t esize, bool jump)
{
	const unsigned char *p;

	if (!start || stop <= start || !(p = elf_bytes(elf, start, stop - start)))
		return;
	for (uint64_t i = 0; i + esize <= stop - start; i += esize) {
		const unsigned char *insn;
		int32_t rel;
		uint64_t at;

		memcpy(&rel, p + i, sizeof(rel));
		/* The low bits of a static call's offset are flags. */
		at = start + i + (uint64_t)(int64_t)(jump ? rel : rel & ~3);
		/* A jump label is a 2- or 5-byte jmp or nop; a call is 5 bytes. */
		insn = jump ? elf_bytes(elf, at, 1) : NULL;
		add_range(t, cap, at, insn && (*insn == 0xeb || *insn == 0x66) ? 2 : 5);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* __mcount_loc: the absolute link-time address of every fentry call. */
static void add_mcount(struct site_table *t, Elf *elf, uint64_t start, uint64_t stop)
{
	const unsigned char *p;

	if (!start || stop <= start || !(p = elf_bytes(elf, start, stop - start)))
		return;
	t->nmcount = (stop - start) / 8;
	t->mcount = xmalloc(t->nmcount * sizeof(*t->mcount));
	memcpy(t->mcount, p, t->nmcount * sizeof(*t->mcount));
	qsort(t->mcount, t->nmcount, sizeof(*t->mcount), cmp_u64);
}

static void load_sites(struct site_table *t)
{
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);
	uint64_t b[BOUNDS] = { 0 };
	size_t cap = 0;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	/* The descriptor stays open with the Elf, for the process's life. */
	t->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!t->elf) {
		close(fd);
		return;
	}
	find_bounds(t->elf, b);
	add_table(t, &cap, t->elf, b[JT_START], b[JT_STOP], 16, true);
	add_table(t, &cap, t->elf, b[SC_START], b[SC_STOP], 8, false);
	if (t->n)
		qsort(t->r, t->n, 2 * sizeof(*t->r), cmp_range);
	add_mcount(t, t->elf, b[MC_START], b[MC_STOP]);
}

static struct site_table *sites_of(const char *vmlinux)
{
	struct site_table *t;

	for (t = site_tables; t && strcmp(t->path, vmlinux); t = t->next)
		;
	if (!t) {
		t = xmalloc(sizeof(*t));
		memset(t, 0, sizeof(*t));
		t->path = xstrdup(vmlinux);
		load_sites(t);
		t->next = site_tables;
		site_tables = t;
	}
	return t;
}

uint64_t pf_ftrace_site(const char *vmlinux, uint64_t func)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	struct site_table *t = vmlinux ? sites_of(vmlinux) : NULL;
	const unsigned char *insn;
	uint64_t at = func;

	if (!t || !t->nmcount)
		return 0;
	/* With IBT the call follows the function's ENDBR, as ftrace puts it. */
	insn = elf_bytes(t->elf, func, sizeof(endbr64));
	if (insn && !memcmp(insn, endbr64, sizeof(endbr64)))
		at += sizeof(endbr64);
	return bsearch(&at, t->mcount, t->nmcount, sizeof(at), cmp_u64) ? at : 0;
}

const char *pf_text_reserved(const char *vmlinux, uint64_t addr)
{
	struct site_table *t;
	size_t lo = 0, hi;

	if (!vmlinux)
		return NULL;
	t = sites_of(vmlinux);
	/* The last range starting at or before addr (ranges do not overlap). */
	for (hi = t->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->r[2 * mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < t->r[2 * (lo - 1) + 1])
		return "is a jump label or static call site, which the kernel rewrites "
		       "and refuses kprobes in";
	return NULL;
}
