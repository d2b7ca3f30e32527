// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hardware breakpoint probes (stapprobes(3stap), HARDWARE BREAKPOINTS):
 * a data watchpoint on a kernel address, run when the CPU writes (or
 * reads or writes) it.
 *
 *   kernel.data(ADDRESS)[.length(LEN)].write|.rw
 *   kernel.data("SYMBOL").write|.rw
 *
 * ADDRESS is a run-time address; SYMBOL a kernel data symbol, whose
 * link-time address (System.map or the debuginfo's symbol table) meets
 * the run-time one through the KASLR offset, measured at session start
 * on _printk as runtime/sym.c does.  LEN defaults to 1 and is rounded up
 * to what x86 debug registers watch: 1, 2, 4 or 8 bytes.  x86 has no
 * read-only watchpoints: .rw is reads and writes.  Each probe takes one
 * debug register on every CPU (there are four): a fifth point is a
 * warning in pass 2, and the kernel refuses it at registration, which
 * fails the session start.
 *
 * The runtime half is runtime/hwbkpt.c (struct stp_hwbkpt).
 */
#include <inttypes.h>
#include <string.h>

#include "probes.h"

extern const struct probe_family pf_hwbkpt;

#define HWBKPT_MAX_LEN	8	/* x86 debug registers */
#define HWBKPT_MAX	4	/* of them: DR0-DR3 */

struct hwbkpt_point {
	uint64_t addr;		/* link-time if symbol, else run-time */
	bool symbol;
	bool rw;
	int len;
};

static int unexpected(struct session *s, const struct pp_comp *c, const char *after)
{
	static const char *const valid[] = { "write", "rw", "length" };

	return pf_unexpected(s, c, after, valid, (int)ARRAY_SIZE(valid));
}

/* SYMBOL's link-time address into hp; 0 or -1 after a message at c. */
static int resolve_symbol(struct session *s, const struct pp_comp *c,
			  struct hwbkpt_point *hp)
{
	uint64_t printk;
	int r = pf_ksym_addr(s->release, c->arg->str, &hp->addr);

	if (r < 0) {
		diag_error(s, &c->arg->loc, "no symbol table for kernel %s to find '%s' in",
			   s->release, c->arg->str);
		diag_hint(s, "kernel.data(ADDRESS) takes a run-time address instead");
		return -1;
	}
	if (r == 0) {
		diag_error(s, &c->arg->loc, "no kernel symbol '%s'", c->arg->str);
		return -1;
	}
	if (pf_ksym_addr(s->release, "_printk", &printk) != 1) {
		diag_error(s, &c->arg->loc, "kernel %s has no _printk symbol to measure "
			   "KASLR with", s->release);
		return -1;
	}
	hp->symbol = true;
	return 0;
}

/* kernel.data(ADDRESS|"SYMBOL")[.length(LEN)].write|.rw */
static int resolve_hwbkpt(struct session *s, struct probe_point *pt,
			  struct resolved_probe *rp)
{
	struct pp_comp *k = pt->comps, *d = k->next, *c;
	struct hwbkpt_point *hp;

	if (strcmp(k->name, "kernel") || k->arg || !d || strcmp(d->name, "data"))
		return 0;
	hp = arena_alloc(&s->arena, sizeof(*hp));
	hp->len = 1;
	if (d->arg && d->arg->kind == ND_NUM) {
		hp->addr = (uint64_t)d->arg->num;
	} else if (!pf_string_arg(s, d, "kernel.data(ADDRESS) or kernel.data(\"SYMBOL\")")) {
		return -1;
	} else if (resolve_symbol(s, d, hp)) {
		return -1;
	}
	c = d->next;
	if (c && !strcmp(c->name, "length")) {
		if (hp->symbol) {
			diag_error(s, &c->loc, ".length is not valid with a symbol name");
			diag_hint(s, "a symbol is watched for %d byte; kernel.data(ADDRESS)"
				  ".length(LEN) watches more", hp->len);
			return -1;
		}
		if (!c->arg || c->arg->kind != ND_NUM || c->arg->num < 1 ||
		    c->arg->num > HWBKPT_MAX_LEN) {
			diag_error(s, c->arg ? &c->arg->loc : &c->loc,
				   ".length takes a number of bytes from 1 to %d (x86 debug "
				   "registers watch at most %d)", HWBKPT_MAX_LEN, HWBKPT_MAX_LEN);
			return -1;
		}
		/* Rounded up to what a debug register can watch. */
		hp->len = c->arg->num <= 2 ? (int)c->arg->num : c->arg->num <= 4 ? 4 : 8;
		c = c->next;
	}
	if (!c) {
		diag_error(s, &pt->comps->loc, "kernel.data(...) needs .write or .rw");
		return -1;
	}
	if (strcmp(c->name, "write") && strcmp(c->name, "rw"))
		return unexpected(s, c, c == d->next ? "kernel.data(...)" : ".length(LEN)");
	if (c->arg) {
		diag_error(s, &c->arg->loc, ".%s takes no argument", c->name);
		return -1;
	}
	if (c->next)
		return unexpected(s, c->next, arena_printf(&s->arena, ".%s", c->name));
	hp->rw = !strcmp(c->name, "rw");
	/* As SystemTap: a warning in pass 2, the kernel refuses at run time. */
	if (++s->hwbkpts == HWBKPT_MAX + 1)
		diag_warn(s, &pt->comps->loc, "more than %d kernel.data probes: x86 has %d "
			  "debug registers, so setting this one will fail", HWBKPT_MAX,
			  HWBKPT_MAX);
	rp->pp = pf_point_text(s, pt);
	rp->family_data = hp;
	return 1;
}

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	uint64_t printk = 0;

	pf_ksym_addr(s->release, "_printk", &printk);
	sb_puts(c, "/* kernel.data probes: runtime/hwbkpt.c sets them. */\n"
		"static struct stp_hwbkpt stp_hwbkpts[] = {\n");
	for (int i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct hwbkpt_point *hp = rp->family_data;

		sb_printf(c, "\t{ .probe = &" PF_DESC_FMT ", .addr = 0x%" PRIx64 "ULL, "
			  ".link_ref = 0x%" PRIx64 "ULL, .len = %d, .rw = %d },\n", rp->id,
			  hp->addr, hp->symbol ? printk : 0, hp->len, hp->rw);
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t{\n\t\tint rc = _stp_hwbkpt_start(stp_hwbkpts, "
		"ARRAY_SIZE(stp_hwbkpts));\n\n\t\tif (rc)\n\t\t\treturn rc;\n\t}\n");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t_stp_hwbkpt_stop(stp_hwbkpts, ARRAY_SIZE(stp_hwbkpts));\n");
}

const struct probe_family pf_hwbkpt = {
	.name = "kernel.data",
	.forms = (const char *const[]){
		"kernel.data(N)[.length(N)].{write|rw}",
		"kernel.data(S).{write|rw}",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_hwbkpt,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
