// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a hung guest's vCPUs are doing (vm.c): their registers from
 * QEMU's human monitor, with each RIP named from the kernel's debuginfo.
 *
 * A guest that stops making progress with its interrupts off leaves no
 * message: TCG has no PMU for the hard-lockup detector, and the soft-
 * lockup one needs a timer interrupt.  The vCPUs' RIPs, sampled a few
 * times, say whether it spins in a loop of ours, in a lock, or at a
 * patched call site (the emulator's text-patching race, vm.c).
 *
 * Also, from the same debuginfo vmlinux: whether QEMU can boot it
 * directly (vm_vmlinux_bootable).
 */
#include "vm.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MON_WAIT_MS 3000

/* Read from @fd until @sb ends in QEMU's "(qemu) " prompt, or time out. */
static int mon_until_prompt(int fd, struct strbuf *sb)
{
	static const char prompt[] = "(qemu) ";
	size_t plen = sizeof(prompt) - 1;
	char buf[4096];

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (sb->len >= plen && !memcmp(sb->buf + sb->len - plen, prompt, plen))
			return 0;
		if (poll(&p, 1, MON_WAIT_MS) <= 0)
			return -ETIMEDOUT;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			return n ? -errno : -EPIPE;
		sb_add(sb, buf, (size_t)n);
	}
}

/* The monitor's reply to @cmd (with its echo and prompt), or NULL. */
static char *mon_command(const char *sock, const char *cmd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct strbuf sb = STRBUF_INIT;
	int fd;

	if (strlen(sock) >= sizeof(sa.sun_path))
		return NULL;
	strcpy(sa.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return NULL;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    mon_until_prompt(fd, &sb) < 0)	/* the banner */
		goto fail;
	sb_reset(&sb);
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd) ||
	    write(fd, "\n", 1) != 1 || mon_until_prompt(fd, &sb) < 0)
		goto fail;
	close(fd);
	return sb_steal(&sb);
fail:
	close(fd);
	sb_free(&sb);
	return NULL;
}

/* ---- naming kernel addresses ---- */

struct ksyms {
	Elf *elf;
	int fd;
	Elf_Data *data;
	size_t n, strndx;
	uint64_t stext;		/* link-time _stext, 0 if not found */
	uint64_t end;		/* link-time _end: past it, a module's */
};

static void ksyms_close(struct ksyms *k)
{
	if (k->elf)
		elf_end(k->elf);
	if (k->fd >= 0)
		close(k->fd);
}

char *vm_debug_vmlinux(const char *release)
{
	return xasprintf("/usr/lib/debug/boot/vmlinux-%s", release);
}

static int ksyms_open(struct ksyms *k, const char *release)
{
	char *path = vm_debug_vmlinux(release);
	Elf_Scn *scn = NULL;

	memset(k, 0, sizeof(*k));
	elf_version(EV_CURRENT);
	k->fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (k->fd < 0)
		return -1;
	k->elf = elf_begin(k->fd, ELF_C_READ_MMAP, NULL);
	while (k->elf && (scn = elf_nextscn(k->elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			k->data = elf_getdata(scn, NULL);
			k->n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			k->strndx = sh.sh_link;
			break;
		}
	}
	for (size_t i = 0; k->data && i < k->n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(k->data, (int)i, &s) ||
		    !(name = elf_strptr(k->elf, k->strndx, s.st_name)))
			continue;
		if (!strcmp(name, "_stext"))
			k->stext = s.st_value;
		else if (!strcmp(name, "_end"))
			k->end = s.st_value;
	}
	if (k->stext)
		return 0;
	ksyms_close(k);
	return -1;
}

/* "name+0xoff" of the link-time address @a, or NULL past every symbol. */
static char *ksyms_name(struct ksyms *k, uint64_t a)
{
	const char *best = NULL;
	uint64_t at = 0, size = 0;
	bool func = false;

	if (k->end && a >= k->end)	/* a module's (named by its own symbols) */
		return NULL;

	for (size_t i = 0; i < k->n; i++) {
		GElf_Sym s;
		const char *name;
		int type;

		if (!gelf_getsym(k->data, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
		    s.st_value > a || s.st_value < at)
			continue;
		type = GELF_ST_TYPE(s.st_info);
		/*
		 * The entry code's symbols (asm_exc_int3) have no type; a
		 * function wins over a label at its address (a section's
		 * __*_start).
		 */
		if ((type != STT_FUNC && type != STT_NOTYPE) ||
		    (s.st_value == at && func && type != STT_FUNC) ||
		    !(name = elf_strptr(k->elf, k->strndx, s.st_name)))
			continue;
		best = name;
		at = s.st_value;
		size = s.st_size;
		func = type == STT_FUNC;
	}
	if (!best || (size && a >= at + size))
		return NULL;
	return xasprintf("%s+0x%" PRIx64, best, a - at);
}

/*
 * One line per vCPU from "info registers -a": its RIP, named when it is
 * in the kernel image (@slide: the guest's _stext minus the link-time
 * one), its privilege level and whether it halted.
 */
static void cpu_lines(struct strbuf *out, const char *regs, struct ksyms *k,
		      int64_t slide)
{
	const char *p = regs;

	while ((p = strstr(p, "CPU#"))) {
		int cpu = atoi(p + 4);
		const char *next = strstr(p + 4, "CPU#"), *rip = strstr(p, "RIP=");
		const char *cpl = strstr(p, "CPL="), *hlt = strstr(p, "HLT=");
		uint64_t a;
		char *name = NULL;

		p += 4;
		if (!rip || (next && rip > next))
			continue;
		a = strtoull(rip + 4, NULL, 16);
		if (k && cpl && atoi(cpl + 4) == 0)
			name = ksyms_name(k, a - (uint64_t)slide);
		sb_printf(out, "  CPU#%d RIP %016" PRIx64 " %s%s\n", cpu, a,
			  name ? name : cpl && atoi(cpl + 4) == 3 ? "(user space)"
				     : "(not in the kernel image: a module's?)",
			  hlt && atoi(hlt + 4) ? ", halted" : "");
		free(name);
	}
}

char *vm_cpu_state(const char *sock, const char *release, uint64_t guest_stext,
		   int samples)
{
	struct strbuf out = STRBUF_INIT;
	struct ksyms k;
	int have_syms = guest_stext && ksyms_open(&k, release) == 0;

	for (int i = 0; i < samples; i++) {
		char *regs;

		if (i)
			usleep(100 * 1000);
		regs = mon_command(sock, "info registers -a");
		if (!regs) {
			sb_puts(&out, "  (QEMU's monitor did not answer)\n");
			break;
		}
		sb_printf(&out, "the vCPUs, sample %d of %d:\n", i + 1, samples);
		cpu_lines(&out, regs, have_syms ? &k : NULL,
			  have_syms && guest_stext != VM_STEXT_LINK
				? (int64_t)(guest_stext - k.stext) : 0);
		free(regs);
	}
	if (guest_stext && !have_syms)
		sb_printf(&out, "  (no /usr/lib/debug/boot/vmlinux-%s to name addresses)\n",
			  release);
	if (have_syms)
		ksyms_close(&k);
	return sb_steal(&out);
}

/*
 * The int3 handlers' path, from the trap to the return: a vCPU looping on
 * a stale int3 is somewhere in it or at the int3 itself.
 */
static bool in_int3_path(const char *name, size_t len)
{
	static const char *const fns[] = {
		"asm_exc_int3", "exc_int3", "do_int3", "do_int3_user",
		"poke_int3_handler", "kprobe_int3_handler", "get_kprobe",
		"irqentry_nmi_enter", "irqentry_nmi_exit", "ct_nmi_enter",
		"ct_nmi_exit", "error_entry", "error_return",
	};
	const char *plus = memchr(name, '+', len);
	size_t n = plus ? (size_t)(plus - name) : len;

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (strlen(fns[i]) == n && !memcmp(fns[i], name, n))
			return true;
	return false;
}

#define MAX_CPUS 64

/*
 * Is this hang (vm_cpu_state's lines in @problem) the other face of the
 * emulator's text-patching race (vm.c): a vCPU that keeps executing a
 * stale int3 whose byte the kernel already restored?  Each trap finds no
 * int3 in memory, so the handler takes it for one another CPU removed
 * and returns to run the instruction again.  Its mark: a running vCPU
 * seen in the int3 handlers and at one other address (the int3's), and
 * seldom anywhere else: the timer interrupts it still takes (a soft
 * lockup's watchdog prints from them) may be sampled too, so up to a
 * third of the samples off the loop are allowed once the int3's address
 * was seen twice.  A CPU spinning on a lock, or in a loop of ours
 * (many addresses), is not.
 */
bool vm_hang_is_tcg_int3(const char *problem)
{
	enum { SITES = 8 };
	struct {
		int int3, halted, n;		/* n: samples off the handlers */
		int nsites, count[SITES];
		uint64_t site[SITES];
	} cpu[MAX_CPUS] = { 0 };
	const char *p = problem ? strstr(problem, "the vCPUs, sample ") : NULL;

	for (; p && *p; p = strchrnul(p, '\n'), p += !!*p) {
		const char *eol = strchrnul(p, '\n'), *name;
		char *end;
		long c;
		uint64_t rip;
		int k;

		if (strncmp(p, "  CPU#", 6))
			continue;
		c = strtol(p + 6, &end, 10);
		if (c < 0 || c >= MAX_CPUS || strncmp(end, " RIP ", 5))
			continue;
		rip = strtoull(end + 5, &end, 16);
		name = end + 1;
		if (*end != ' ' || name >= eol)
			continue;
		if (memmem(name, (size_t)(eol - name), ", halted", 8)) {
			cpu[c].halted = 1;
			continue;
		}
		if (in_int3_path(name, (size_t)(eol - name))) {
			cpu[c].int3++;
			continue;
		}
		cpu[c].n++;
		for (k = 0; k < cpu[c].nsites && cpu[c].site[k] != rip; k++)
			;
		if (k == cpu[c].nsites && k < SITES)
			cpu[c].site[cpu[c].nsites++] = rip;
		if (k < SITES)
			cpu[c].count[k]++;
	}
	for (int i = 0; i < MAX_CPUS; i++) {
		int top = 0, rest;

		if (!cpu[i].int3 || cpu[i].halted)
			continue;
		for (int k = 0; k < cpu[i].nsites; k++)
			if (cpu[i].count[k] > top)
				top = cpu[i].count[k];
		rest = cpu[i].n - top;
		if (rest == 0 || (top >= 2 && 3 * rest <= cpu[i].int3 + top + rest))
			return true;
	}
	return false;
}

/* Xen's ELF note type for a 32-bit PVH entry point (xen/elfnote.h). */
#define XEN_ELFNOTE_PHYS32_ENTRY 18

/*
 * Can QEMU boot @path directly?  An uncompressed vmlinux is bootable when
 * it has the PVH entry note (Xen's PHYS32_ENTRY, CONFIG_PVH), which QEMU
 * looks for in an ELF kernel.
 */
bool vm_vmlinux_bootable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	size_t n = 0;
	bool found = false;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_getphdrnum(elf, &n) == 0) {
		for (size_t i = 0; i < n && !found; i++) {
			GElf_Phdr ph;
			Elf_Data *d;
			GElf_Nhdr nh;
			size_t off = 0, noff, doff;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_NHDR);
			while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0)
				if (nh.n_type == XEN_ELFNOTE_PHYS32_ENTRY && nh.n_namesz == 4 &&
				    !memcmp((char *)d->d_buf + noff, "Xen", 4)) {
					found = true;
					break;
				}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}
