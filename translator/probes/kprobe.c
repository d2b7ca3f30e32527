// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kprobe probes (stapprobes(3stap), DWARFLESS): function entries and
 * returns found by name in the kernel's symbol table, no debuginfo.
 *
 *   kprobe.function("NAME")[.call]
 *   kprobe.function("NAME").return[.maxactive(N)]
 *   kprobe.module("MOD").function("NAME")[.call]
 *   kprobe.module("MOD").function("NAME").return[.maxactive(N)]
 *   kprobe.statement(ADDR).absolute                 guru mode only
 *
 * .call changes nothing (a kprobe only ever sees real calls).  NAME is
 * checked against the target kernel's symbol table (ksym_* below):
 * it must be a text symbol the kernel allows kprobes on.  Wildcards
 * (* ? [...]) in NAME expand to every such symbol, an extension: the
 * man page says kprobe names take none.  Module functions cannot be
 * checked without the module: registration decides.
 *
 * A wildcard point stays one probe whose kprobes all run its handler,
 * so pp() gives the pattern, not the matched function, until sem.c
 * lets a family expand one point into several probes.  At run time a
 * kprobe of a wildcard that the kernel refuses is a warning; one the
 * point names exactly is an error that fails the session start, unless
 * the point has '?'.
 *
 * The runtime half is runtime/kprobe.c: this file emits one table,
 * stp_kprobes[], and calls _stp_kprobes_start/_stp_kprobes_stop on it.
 */
#include <ctype.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "probes.h"
#include "../dw.h"
#include "../emit.h"

/* The most kprobes one wildcard may expand to. */
#define KPROBE_MAX_MATCHES	10000
/* .maxactive(N): the kernel allocates N instances up front. */
#define KPROBE_MAX_MAXACTIVE	4096

/* ---- the target kernel's symbol table ---- */

struct ksym {
	const char *name;
	uint64_t addr;
	uint64_t key;		/* the name's first 8 bytes, big-endian: sorts fast */
};

/* Address ranges the kernel refuses kprobes in, and why. */
enum ksym_range {
	KR_KPROBES,	/* __kprobes functions */
	KR_NOINSTR,	/* noinstr functions */
	KR_ENTRY,	/* low-level entry code */
	KR_INIT,	/* .init.text */
	KR_EXIT,	/* .exit.text: no symbols bound it, its section header does */
	KR_NR
};

static const struct {
	const char *start, *end, *why;
} range_defs[KR_NR] = {
	[KR_KPROBES] = { "__kprobes_text_start", "__kprobes_text_end",
			 "is in the kprobes blacklist section (__kprobes)" },
	[KR_NOINSTR] = { "__noinstr_text_start", "__noinstr_text_end",
			 "is noinstr code (.noinstr.text), which must not be instrumented" },
	[KR_ENTRY] = { "__entry_text_start", "__entry_text_end",
		       "is kernel entry code (.entry.text), which kprobes refuse" },
	[KR_INIT] = { "_sinittext", "_einittext",
		      "is in .init.text, which the kernel frees after boot" },
	[KR_EXIT] = { "", "", "is in .exit.text, which built-in code never runs" },
};

/*
 * One kernel's symbols.  Loaded once per process and kept: a symbol
 * file is the same for every translation that targets its kernel (like
 * the kfeatures cache), and a long-lived process may target several.
 */
struct ksym_table {
	struct ksym_table *next;
	char *release;
	char *source;		/* the file the symbols came from */
	struct ksym *syms;	/* text symbols, by name then address */
	size_t n, cap;
	char **nokprobe;	/* NOKPROBE_SYMBOL() names, sorted */
	size_t n_nokprobe, cap_nokprobe;
	uint64_t range[KR_NR][2];	/* [lo, hi); lo == hi: unknown */
	bool have_addrs;	/* false: kallsyms with hidden addresses */
	struct strbuf names;	/* storage the names point into */
	/*
	 * Data symbols, for kernel.data("SYMBOL") only: "NAME\0" then the
	 * 8-byte address, one after another, searched in order (rarely).
	 */
	struct strbuf data;
};

static struct ksym_table *ksym_tables;

static bool ksym_name_ok(const char *name)
{
	const char *p;

	if (!*name)
		return false;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '$')
			return false;
	return true;
}

/*
 * Offer one symbol.  text: in an executable section.  Names are
 * copied; the table's names buffer may move, so names are stored as
 * offsets until ksym_finish.
 */
static void ksym_add(struct ksym_table *t, const char *name, uint64_t addr, bool text)
{
	size_t off = t->names.len;
	int k;

	for (k = 0; k < KR_NR && name[0] == '_'; k++) {	/* all start with '_' */
		if (!strcmp(name, range_defs[k].start))
			t->range[k][0] = addr;
		else if (!strcmp(name, range_defs[k].end))
			t->range[k][1] = addr;
	}
	if (!strncmp(name, "_kbl_addr_", 10) && ksym_name_ok(name + 10)) {
		if (t->n_nokprobe == t->cap_nokprobe) {
			t->cap_nokprobe = t->cap_nokprobe ? 2 * t->cap_nokprobe : 256;
			t->nokprobe = xrealloc(t->nokprobe, t->cap_nokprobe * sizeof(char *));
		}
		sb_add(&t->names, name + 10, strlen(name + 10) + 1);
		t->nokprobe[t->n_nokprobe++] = (char *)(uintptr_t)off;
		return;
	}
	if (!text && ksym_name_ok(name)) {
		sb_add(&t->data, name, strlen(name) + 1);
		sb_add(&t->data, (const char *)&addr, sizeof(addr));
	}
	if (!text || !ksym_name_ok(name))
		return;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 65536;
		t->syms = xrealloc(t->syms, t->cap * sizeof(*t->syms));
	}
	sb_add(&t->names, name, strlen(name) + 1);
	t->syms[t->n].name = (const char *)(uintptr_t)off;
	t->syms[t->n++].addr = addr;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c = x->key != y->key ? (x->key < y->key ? -1 : 1) : strcmp(x->name, y->name);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Turn offsets into pointers and sort.  Returns false if no text symbol. */
static bool ksym_finish(struct ksym_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const char *n = t->names.buf + (uintptr_t)t->syms[i].name;
		uint64_t key = 0;

		for (int j = 0; j < 8; j++) {	/* NUL-padded, as strcmp orders */
			key = key << 8 | (unsigned char)*n;
			n += *n != 0;
		}
		t->syms[i].name = t->names.buf + (uintptr_t)t->syms[i].name;
		t->syms[i].key = key;
	}
	for (i = 0; i < t->n_nokprobe; i++)
		t->nokprobe[i] = t->names.buf + (uintptr_t)t->nokprobe[i];
	if (t->n)
		qsort(t->syms, t->n, sizeof(*t->syms), cmp_ksym);
	if (t->n_nokprobe)
		qsort(t->nokprobe, t->n_nokprobe, sizeof(char *), cmp_str);
	for (i = 0; i < t->n && !t->have_addrs; i++)
		t->have_addrs = t->syms[i].addr != 0;
	return t->n > 0;
}

/*
 * "ADDR TYPE NAME" lines: System.map, or /proc/kallsyms (whose module
 * symbols, "NAME\t[mod]", are skipped).  T/t/W/w are text (weak
 * functions show as W).
 */
static bool ksym_load_map(struct ksym_table *t, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], type, name[256], rest[2];
	unsigned long long addr;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%llx %c %255s %1s", &addr, &type, name, rest);

		if (n != 3)
			continue;
		ksym_add(t, name, addr, strchr("TtWw", type) != NULL);
	}
	fclose(f);
	return ksym_finish(t);
}

struct ksym_elf {
	struct ksym_table *t;
	Elf *elf;
	size_t nsec;
	size_t shstrndx;
};

static int ksym_elf_add(const char *name, const GElf_Sym *sym, void *arg)
{
	struct ksym_elf *r = arg;
	int type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr ssh;
	bool text;

	if (type == STT_SECTION || type == STT_FILE ||
	    sym->st_shndx == SHN_UNDEF || sym->st_shndx >= r->nsec)
		return 0;
	text = gelf_getshdr(elf_getscn(r->elf, sym->st_shndx), &ssh) &&
	       (ssh.sh_flags & SHF_EXECINSTR);
	if (text && !r->t->range[KR_EXIT][1]) {
		const char *sec = elf_strptr(r->elf, r->shstrndx, ssh.sh_name);

		if (sec && !strcmp(sec, ".exit.text")) {
			r->t->range[KR_EXIT][0] = ssh.sh_addr;
			r->t->range[KR_EXIT][1] = ssh.sh_addr + ssh.sh_size;
		}
	}
	ksym_add(r->t, name, sym->st_value, text);
	return 0;
}

/* The symbol table of an unstripped vmlinux (the debuginfo package's). */
static bool ksym_load_elf(struct ksym_table *t, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf = NULL;
	bool ok = false;
	size_t nsec;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getshdrnum(elf, &nsec))
		goto out;
	{
		struct ksym_elf r = { t, elf, nsec, 0 };

		if (elf_getshdrstrndx(elf, &r.shstrndx))
			r.shstrndx = 0;

		dw_elf_symbols(elf, ksym_elf_add, &r);
	}
	ok = ksym_finish(t);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ok;
}

static void ksym_reset(struct ksym_table *t)
{
	free(t->syms);
	free(t->nokprobe);
	sb_free(&t->names);
	sb_free(&t->data);
	memset(t, 0, sizeof(*t));
}

/* The places a kernel's symbols may be, tried in order. */
static const struct {
	const char *fmt;	/* %s: the release */
	bool elf;
} ksym_sources[] = {
	{ "/boot/System.map-%s", false },	/* Debian's is a placeholder */
	{ "/lib/modules/%s/build/System.map", false },
	{ "/usr/lib/debug/boot/vmlinux-%s", true },
	{ "/usr/lib/debug/lib/modules/%s/vmlinux", true },
	{ "/lib/modules/%s/build/vmlinux", true },
};

/* The symbol table of @release, or NULL if none of the sources has one. */
static struct ksym_table *ksym_get(const char *release)
{
	struct ksym_table *t;
	struct utsname u;
	size_t i;

	for (t = ksym_tables; t; t = t->next)
		if (!strcmp(t->release, release))
			return t->n ? t : NULL;
	t = xmalloc(sizeof(*t));
	memset(t, 0, sizeof(*t));
	for (i = 0; i < ARRAY_SIZE(ksym_sources); i++) {
		char *path = xasprintf(ksym_sources[i].fmt, release);

		if (ksym_sources[i].elf ? ksym_load_elf(t, path) : ksym_load_map(t, path)) {
			t->source = path;
			break;
		}
		free(path);
		ksym_reset(t);
	}
	/* The running kernel's own table, when that is the target. */
	if (!t->n && !uname(&u) && !strcmp(u.release, release)) {
		if (ksym_load_map(t, "/proc/kallsyms"))
			t->source = xstrdup("/proc/kallsyms");
		else
			ksym_reset(t);
	}
	t->release = xstrdup(release);
	t->next = ksym_tables;
	ksym_tables = t;
	return t->n ? t : NULL;
}

/* The first symbol named @name (lowest address), or NULL. */
static const struct ksym *ksym_find(const struct ksym_table *t, const char *name)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && !strcmp(t->syms[lo].name, name) ? &t->syms[lo] : NULL;
}

/*
 * Why the kernel would refuse a kprobe on @sym, or NULL if it would
 * not as far as the symbol table tells.  Of several symbols with the
 * name, the kernel resolves the first; it is the one checked.
 */
static const char *ksym_refused(const struct ksym_table *t, const struct ksym *sym)
{
	const char *name = sym->name;
	int k;

	if (t->n_nokprobe && bsearch(&name, t->nokprobe, t->n_nokprobe,
				     sizeof(char *), cmp_str))
		return "is marked NOKPROBE_SYMBOL() by the kernel";
	if (!t->have_addrs)
		return NULL;
	for (k = 0; k < KR_NR; k++)
		if (t->range[k][0] < t->range[k][1] && sym->addr >= t->range[k][0] &&
		    sym->addr < t->range[k][1])
			return range_defs[k].why;
	return NULL;
}

int pf_ksym_check(const char *release, const char *name, const char **why,
		  int *ncopies)
{
	const struct ksym_table *t = ksym_get(release);
	const struct ksym *sym, *end;

	*why = NULL;
	*ncopies = 0;
	if (!t)
		return -1;
	sym = ksym_find(t, name);
	if (!sym)
		return 0;
	for (end = sym; end < t->syms + t->n && !strcmp(end->name, name); end++)
		;
	*ncopies = (int)(end - sym);
	*why = ksym_refused(t, sym);
	return 0;
}

int pf_ksym_addr(const char *release, const char *name, uint64_t *addr)
{
	const struct ksym_table *t = ksym_get(release);
	const struct ksym *sym;

	if (!t)
		return -1;
	sym = ksym_find(t, name);
	if (sym && sym->addr) {
		*addr = sym->addr;
		return 1;
	}
	for (size_t off = 0; off < t->data.len;) {
		const char *n = t->data.buf + off;
		size_t len = strlen(n) + 1;

		if (!strcmp(n, name)) {
			memcpy(addr, n + len, sizeof(*addr));
			return *addr != 0;
		}
		off += len + sizeof(*addr);
	}
	return 0;
}

int pf_ksym_prefix(const char *release, const char *prefix,
		   void (*fn)(const char *name, void *arg), void *arg)
{
	const struct ksym_table *t = ksym_get(release);
	size_t lo = 0, hi, n = strlen(prefix);
	const char *last = NULL;
	int count = 0;

	if (!t)
		return -1;
	for (hi = t->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->syms[mid].name, prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->n && !strncmp(t->syms[lo].name, prefix, n); lo++) {
		if (last && !strcmp(last, t->syms[lo].name))
			continue;
		last = t->syms[lo].name;
		fn(last, arg);
		count++;
	}
	return count;
}

/* Symbols a wildcard never matches: they are not function entries. */
static bool ksym_not_a_function(const char *name)
{
	return !strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6) ||
	       strstr(name, ".cold") != NULL;
}

/* ---- resolving probe points ---- */

/* Flags of a point: bit i is emitted as flag_names[i] (emit_decls). */
#define KP_RETURN	PF_KP_RETURN
#define KP_OPTIONAL	PF_KP_OPTIONAL
#define KP_WILDCARD	PF_KP_WILDCARD

/* What resolve() leaves in resolved_probe.family_data. */
struct kprobe_point {
	unsigned flags;		/* KP_* */
	int maxactive;		/* .maxactive(N); -1: KRETACTIVE */
	const char **syms;	/* functions to probe */
	int nsyms;
	uint64_t addr;		/* kprobe.statement(ADDR).absolute */
};

static bool has_wildcard(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Module names as the kernel knows them, '-' allowed for '_'. */
static bool module_name_ok(const char *mod)
{
	const char *p;

	for (p = mod; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return false;
	return p != mod;
}

/* The string argument of @c, or NULL after an error. */
static const char *string_arg(struct session *s, const struct pp_comp *c,
			      const char *what)
{
	if (!c->arg || c->arg->kind != ND_STR) {
		diag_error(s, c->arg ? &c->arg->loc : &c->loc,
			   "%s needs a quoted name: %s(\"NAME\")", what, what);
		return NULL;
	}
	if (!c->arg->str_len || (int)strlen(c->arg->str) != c->arg->str_len) {
		diag_error(s, &c->arg->loc, "%s name must be non-empty text", what);
		return NULL;
	}
	return c->arg->str;
}

/* An error for a component that has no business here; -1. */
static int unexpected(struct session *s, const struct pp_comp *c,
		      const char *after, const char *const *valid, int nvalid)
{
	const char *near = nvalid ? diag_closest(c->name, valid, nvalid) : NULL;

	diag_error(s, &c->loc, "unexpected '%s' after %s", c->name, after);
	if (near)
		diag_hint(s, "did you mean '.%s'?", near);
	return -1;
}

static int no_arg(struct session *s, const struct pp_comp *c, const char *what)
{
	if (!c->arg)
		return 0;
	diag_error(s, &c->arg->loc, "%s takes no argument", what);
	return -1;
}

/* The suffixes after .function(...): .call, .return[.maxactive(N)]. */
static int resolve_suffix(struct session *s, const struct pp_comp *c,
			  struct kprobe_point *kp)
{
	static const char *const after_function[] = { "call", "return" };
	static const char *const after_return[] = { "maxactive" };

	if (!c)
		return 0;
	if (!strcmp(c->name, "call")) {
		if (no_arg(s, c, ".call"))
			return -1;
		return c->next ? unexpected(s, c->next, ".call", NULL, 0) : 0;
	}
	if (strcmp(c->name, "return"))
		return unexpected(s, c, ".function(...)", after_function, 2);
	if (no_arg(s, c, ".return"))
		return -1;
	kp->flags |= KP_RETURN;
	c = c->next;
	if (!c)
		return 0;
	if (strcmp(c->name, "maxactive"))
		return unexpected(s, c, ".return", after_return, 1);
	if (!c->arg || c->arg->kind != ND_NUM) {
		diag_error(s, c->arg ? &c->arg->loc : &c->loc,
			   "maxactive needs a number: .maxactive(N)");
		return -1;
	}
	if (c->arg->num < 1 || c->arg->num > KPROBE_MAX_MAXACTIVE) {
		diag_error(s, &c->arg->loc, "maxactive must be between 1 and %d",
			   KPROBE_MAX_MAXACTIVE);
		return -1;
	}
	kp->maxactive = (int)c->arg->num;
	return c->next ? unexpected(s, c->next, ".maxactive(N)", NULL, 0) : 0;
}

/* The symbol table of the target kernel, or NULL after a message. */
static struct ksym_table *target_symbols(struct session *s, const struct srcloc *loc,
					 bool must)
{
	struct ksym_table *t = ksym_get(s->release);

	if (t)
		return t;
	if (must)
		diag_error(s, loc, "no symbol table for kernel %s to match the "
			   "wildcard against", s->release);
	else
		diag_warn(s, loc, "no symbol table for kernel %s: cannot check "
			  "this function; registration will", s->release);
	diag_hint(s, "looked for /boot/System.map-%s and "
		  "/usr/lib/debug/boot/vmlinux-%s (the linux-image-%s-dbg package)",
		  s->release, s->release, s->release);
	return NULL;
}

/* Closest text symbol names to a missing @name, for a hint. */
static void hint_closest(struct session *s, const struct ksym_table *t,
			 const char *name)
{
	const char **cands = xmalloc(t->n * sizeof(char *));
	size_t len = strlen(name), i;
	const char *near;
	int n = 0;

	/* Only names diag_closest could accept: length within 3. */
	for (i = 0; i < t->n; i++) {
		size_t l = strlen(t->syms[i].name);

		if ((l > len ? l - len : len - l) <= 3 &&
		    (!n || strcmp(cands[n - 1], t->syms[i].name)))
			cands[n++] = t->syms[i].name;
	}
	near = diag_closest(name, cands, n);
	if (near)
		diag_hint(s, "did you mean '%s'?", near);
	free(cands);
}

/* kprobe.function("NAME") in the kernel itself: check or expand NAME. */
static int resolve_kernel_function(struct session *s, const struct probe_point *pt,
				   const struct pp_comp *c, const char *name,
				   struct kprobe_point *kp)
{
	const struct srcloc *loc = &c->arg->loc;
	struct ksym_table *t;
	struct vec found = VEC_INIT;
	const char *why;
	size_t i;

	if (!has_wildcard(name)) {
		const struct ksym *sym;

		kp->syms = arena_alloc(&s->arena, sizeof(char *));
		kp->syms[kp->nsyms++] = name;
		if (!ksym_name_ok(name)) {
			diag_error(s, loc, "'%s' is not a valid function name", name);
			return -1;
		}
		t = target_symbols(s, loc, false);
		if (!t)
			return 0;
		sym = ksym_find(t, name);
		if (!sym) {
			if (pt->optional)
				return 1;
			diag_error(s, loc, "no kernel function '%s'", name);
			hint_closest(s, t, name);
			return -1;
		}
		why = ksym_refused(t, sym);
		if (why) {
			if (pt->optional)
				return 1;
			diag_error(s, loc, "cannot probe '%s': it %s", name, why);
			return -1;
		}
		return 0;
	}
	t = target_symbols(s, loc, true);
	if (!t)
		return -1;
	for (i = 0; i < t->n; i++) {
		const char *n = t->syms[i].name;

		/* Duplicate names: the kernel resolves the first, checked here. */
		if (i && !strcmp(n, t->syms[i - 1].name))
			continue;
		if (fnmatch(name, n, 0) || ksym_not_a_function(n) ||
		    ksym_refused(t, &t->syms[i]))
			continue;
		if (found.len == KPROBE_MAX_MATCHES) {
			diag_error(s, loc, "'%s' matches more than %d functions, "
				   "the most one probe point may probe",
				   name, KPROBE_MAX_MATCHES);
			vec_free(&found);
			return -1;
		}
		vec_push(&found, (void *)n);
	}
	if (!found.len) {
		vec_free(&found);
		if (pt->optional)
			return 1;
		diag_error(s, loc, "no kernel function matches '%s'", name);
		return -1;
	}
	kp->flags |= KP_WILDCARD;
	kp->syms = arena_alloc(&s->arena, (size_t)found.len * sizeof(char *));
	for (i = 0; i < (size_t)found.len; i++)
		kp->syms[kp->nsyms++] = arena_strdup(&s->arena, found.items[i]);
	vec_free(&found);
	return 0;
}

/* [kprobe.module("MOD")].function("NAME")<suffix> */
static int resolve_function(struct session *s, const struct probe_point *pt,
			    const struct pp_comp *c, struct kprobe_point *kp)
{
	const char *mod = NULL, *name;

	if (!strcmp(c->name, "module")) {
		mod = string_arg(s, c, "kprobe.module");
		if (!mod)
			return -1;
		if (!module_name_ok(mod)) {
			diag_error(s, &c->arg->loc, "'%s' is not a module name%s", mod,
				   has_wildcard(mod) ?
				   ": kprobe.module takes no wildcards" : "");
			return -1;
		}
		c = c->next;
		if (!c || strcmp(c->name, "function")) {
			diag_error(s, c ? &c->loc : &pt->loc,
				   "kprobe.module(\"%s\") needs a function: "
				   "kprobe.module(\"%s\").function(\"NAME\")", mod, mod);
			return -1;
		}
	}
	name = string_arg(s, c, "kprobe.function");
	if (!name)
		return -1;
	if (resolve_suffix(s, c->next, kp))
		return -1;
	if (!mod)
		return resolve_kernel_function(s, pt, c, name, kp);
	if (has_wildcard(name)) {
		diag_error(s, &c->arg->loc, "wildcards in kprobe.module(...) functions "
			   "are not supported: the module's symbols are not known "
			   "before it is loaded");
		return -1;
	}
	if (!ksym_name_ok(name)) {
		diag_error(s, &c->arg->loc, "'%s' is not a valid function name", name);
		return -1;
	}
	/* The kernel spells module names with '_'; "MOD:NAME" finds NAME in MOD. */
	char *sym = arena_printf(&s->arena, "%s:%s", mod, name);

	for (char *p = sym; *p != ':'; p++)
		if (*p == '-')
			*p = '_';
	kp->syms = arena_alloc(&s->arena, sizeof(char *));
	kp->syms[kp->nsyms++] = sym;
	return 0;
}

/* kprobe.statement(ADDR).absolute */
static int resolve_statement(struct session *s, const struct probe_point *pt,
			     const struct pp_comp *c, struct kprobe_point *kp)
{
	if (!c->arg || c->arg->kind != ND_NUM) {
		diag_error(s, c->arg ? &c->arg->loc : &c->loc,
			   "kprobe.statement needs an address: "
			   "kprobe.statement(ADDR).absolute");
		return -1;
	}
	if (!c->next || strcmp(c->next->name, "absolute")) {
		static const char *const valid[] = { "absolute" };

		if (c->next)
			return unexpected(s, c->next, "kprobe.statement(ADDR)", valid, 1);
		diag_error(s, &c->loc, "kprobe.statement takes an absolute address "
			   "only: kprobe.statement(ADDR).absolute");
		return -1;
	}
	if (no_arg(s, c->next, ".absolute"))
		return -1;
	if (c->next->next)
		return unexpected(s, c->next->next, ".absolute", NULL, 0);
	if (!s->guru) {
		diag_error(s, &pt->loc, "kprobe.statement(ADDR).absolute is only "
			   "allowed in guru mode");
		diag_hint(s, "use stap -g");
		return -1;
	}
	if (!c->arg->num) {
		diag_error(s, &c->arg->loc, "kprobe.statement address must not be 0");
		return -1;
	}
	kp->addr = (uint64_t)c->arg->num;
	return 0;
}

static int resolve_kprobe(struct session *s, struct probe_point *pt,
			  struct resolved_probe *rp)
{
	static const char *const forms[] = { "function", "module", "statement" };
	struct pp_comp *c = pt->comps;
	struct kprobe_point *kp;
	int r;

	if (strcmp(c->name, "kprobe"))
		return 0;
	if (no_arg(s, c, "kprobe"))
		return -1;
	c = c->next;
	if (!c || (strcmp(c->name, "function") && strcmp(c->name, "module") &&
		   strcmp(c->name, "statement"))) {
		if (!c) {
			diag_error(s, &pt->loc, "kprobe needs a function: "
				   "kprobe.function(\"NAME\"), kprobe.module(\"MOD\")."
				   "function(\"NAME\") or kprobe.statement(ADDR).absolute");
			return -1;
		}
		return unexpected(s, c, "kprobe", forms, (int)ARRAY_SIZE(forms));
	}
	kp = arena_alloc(&s->arena, sizeof(*kp));
	kp->maxactive = -1;
	if (pt->optional)
		kp->flags |= KP_OPTIONAL;
	if (!strcmp(c->name, "statement")) {
		r = resolve_statement(s, pt, c, kp);
		rp->pp = arena_printf(&s->arena, "kprobe.statement(0x%" PRIx64 ").absolute",
				      kp->addr);
	} else {
		r = resolve_function(s, pt, c, kp);
		rp->pp = pf_point_text(s, pt);
	}
	if (r < 0)
		return -1;
	if (r > 0)	/* an optional point that does not exist */
		return 0;
	rp->family_data = kp;
	return 1;
}

/* ---- emitting ---- */

/*
 * A row of a struct stp_kprobe table (runtime/kprobe.c), shared with the
 * kernel.function family: symbol + offset, or an absolute address when
 * symbol is NULL.
 */
void pf_kprobe_row(struct strbuf *c, int probe_id, const char *symbol,
		   uint64_t offset_or_addr, int maxactive, int group, unsigned flags)
{
	pf_kprobe_row_entry(c, probe_id, symbol, offset_or_addr, maxactive, group, flags, 0);
}

void pf_kprobe_row_entry(struct strbuf *c, int probe_id, const char *symbol,
			 uint64_t offset_or_addr, int maxactive, int group, unsigned flags,
			 int nslots)
{
	pf_kprobe_row_link(c, probe_id, symbol, offset_or_addr, maxactive, group, flags,
			   nslots, 0, 0, 0);
}

void pf_kprobe_row_link(struct strbuf *c, int probe_id, const char *symbol,
			uint64_t offset_or_addr, int maxactive, int group, unsigned flags,
			int nslots, uint64_t link, uint64_t link_ref, uint64_t ftrace)
{
	static const char *const flag_names[] = {
		"STP_KPROBE_RETURN", "STP_KPROBE_OPTIONAL", "STP_KPROBE_WILDCARD",
		"STP_KPROBE_FENTRY",
	};
	bool any = false;

	sb_printf(c, "\t{ .probe = &" PF_DESC_FMT ", ", probe_id);
	if (symbol) {
		sb_puts(c, ".symbol = ");
		emit_c_string(c, symbol, (int)strlen(symbol));
		sb_printf(c, ", .offset = 0x%" PRIx64, offset_or_addr);
	} else {
		sb_printf(c, ".addr = 0x%" PRIx64 "UL", offset_or_addr);
	}
	sb_printf(c, ", .maxactive = %d, .group = %d, .flags = ", maxactive, group);
	for (size_t f = 0; f < ARRAY_SIZE(flag_names); f++) {
		if (flags & (1u << f)) {
			sb_printf(c, "%s%s", any ? " | " : "", flag_names[f]);
			any = true;
		}
	}
	if (!any)
		sb_puts(c, "0");
	if (nslots)
		sb_printf(c, ", .entry = stp_entry_%d, .nslots = %d", probe_id, nslots);
	if (link && link_ref)
		sb_printf(c, ", .link = 0x%" PRIx64 "ULL, .link_ref = 0x%" PRIx64 "ULL", link,
			  link_ref);
	if (link && link_ref && ftrace)
		sb_printf(c, ", .ftrace = 0x%" PRIx64 "ULL", ftrace);
	sb_puts(c, " },\n");
}

void pf_kprobe_emit_start(struct strbuf *c, const char *table)
{
	sb_printf(c, "\t{\n\t\tint rc = _stp_kprobes_start(%s, ARRAY_SIZE(%s));\n\n"
		  "\t\tif (rc)\n\t\t\treturn rc;\n\t}\n", table, table);
}

void pf_kprobe_emit_stop(struct strbuf *c, const char *table)
{
	sb_printf(c, "\t_stp_kprobes_stop(%s, ARRAY_SIZE(%s));\n", table, table);
}

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	int i, j;

	(void)s;
	sb_puts(c, "/* kprobe probes: runtime/kprobe.c registers them. */\n"
		"#include \"stp_kprobe.h\"\n"
		"static struct stp_kprobe stp_kprobes[] = {\n");
	for (i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct kprobe_point *kp = rp->family_data;

		/* rp->pp holds only name characters and quotes: safe in a comment. */
		sb_printf(c, "\t/* %s */\n", rp->pp);
		/* A function's entry (symbol + 0) may go on its ftrace site. */
		unsigned flags = kp->flags | (kp->nsyms && !(kp->flags & KP_RETURN) ?
					      PF_KP_FENTRY : 0);

		for (j = 0; j < (kp->nsyms ? kp->nsyms : 1); j++)
			pf_kprobe_row(c, rp->id, kp->nsyms ? kp->syms[j] : NULL,
				      kp->nsyms ? 0 : kp->addr, kp->maxactive, i, flags);
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	pf_kprobe_emit_start(c, "stp_kprobes");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	pf_kprobe_emit_stop(c, "stp_kprobes");
}

const struct probe_family pf_kprobe = {
	.name = "kprobe",
	.forms = (const char *const[]){
		"kprobe[.module(S)].function(S)[.call|.return[.maxactive(N)]]",
		"kprobe.statement(N).absolute",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_kprobe,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
