// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Netfilter hook probes (stapprobes(3stap), NETFILTER HOOKS):
 *
 *   netfilter.hook("HOOK").pf("PF")[.priority("PRI")]
 *   netfilter.pf("PF").hook("HOOK")[.priority("PRI")]
 *
 * PF is NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_ARP or NFPROTO_BRIDGE; HOOK
 * one of that family's hooks (NF_INET_LOCAL_IN, NF_IP6_FORWARD,
 * NF_ARP_IN, NF_BR_PRE_ROUTING, ...); PRI a number or an NF_IP_PRI_* /
 * NF_IP6_PRI_* name (default 0).  In guru mode any C identifier or
 * number goes through as written, as SystemTap allows.
 *
 * Each probe is a netfilter hook function registered in every network
 * namespace (runtime/netfilter.c), and sees:
 *   $hooknum  the hook number
 *   $skb      the packet (struct sk_buff *)
 *   $in $out  the input and output devices (struct net_device *), or 0
 *   $verdict  what the hook returns, NF_ACCEPT (1) unless the probe
 *             assigns it (guru mode): "$verdict = 0" drops the packet
 * Their DWARF types come from the kernel's nf_hook_slow(), which every
 * netfilter kernel has: its skb parameter, the in/out members of its
 * struct nf_hook_state, and its unsigned int hook index.  At run time
 * they are c->args[0..4], the verdict written back by __nf_set_verdict
 * (tapsets/netfilter.stp), to which "$verdict = e" is rewritten.
 */
#include <ctype.h>
#include <dwarf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "../dw.h"
#include "../tvar.h"

struct nf_point {
	const char *pf, *hook, *priority;	/* C expressions */
};

struct nf_name {
	const char *name;
	const char *value;	/* C expression */
};

/* Protocol families and their hooks (uapi linux/netfilter*.h). */
static const struct nf_name nf_pfs[] = {
	{ "NFPROTO_IPV4", "NFPROTO_IPV4" },
	{ "NFPROTO_IPV6", "NFPROTO_IPV6" },
	{ "NFPROTO_ARP", "NFPROTO_ARP" },
	{ "NFPROTO_BRIDGE", "NFPROTO_BRIDGE" },
};

/*
 * The NF_IP_*, NF_IP6_* and NF_BR_* names are user-space-only or
 * module-private in the kernel's headers: their values are spelled out.
 */
static const struct nf_name nf_inet_hooks[] = {
	{ "NF_INET_PRE_ROUTING", "NF_INET_PRE_ROUTING" },
	{ "NF_INET_LOCAL_IN", "NF_INET_LOCAL_IN" },
	{ "NF_INET_FORWARD", "NF_INET_FORWARD" },
	{ "NF_INET_LOCAL_OUT", "NF_INET_LOCAL_OUT" },
	{ "NF_INET_POST_ROUTING", "NF_INET_POST_ROUTING" },
	{ "NF_IP_PRE_ROUTING", "0" }, { "NF_IP_LOCAL_IN", "1" }, { "NF_IP_FORWARD", "2" },
	{ "NF_IP_LOCAL_OUT", "3" }, { "NF_IP_POST_ROUTING", "4" },
	{ "NF_IP6_PRE_ROUTING", "0" }, { "NF_IP6_LOCAL_IN", "1" }, { "NF_IP6_FORWARD", "2" },
	{ "NF_IP6_LOCAL_OUT", "3" }, { "NF_IP6_POST_ROUTING", "4" },
	{ NULL, NULL }
};

static const struct nf_name nf_arp_hooks[] = {
	{ "NF_ARP_IN", "NF_ARP_IN" },
	{ "NF_ARP_OUT", "NF_ARP_OUT" },
	{ "NF_ARP_FORWARD", "NF_ARP_FORWARD" },
	{ NULL, NULL }
};

static const struct nf_name nf_br_hooks[] = {
	{ "NF_BR_PRE_ROUTING", "0" }, { "NF_BR_LOCAL_IN", "1" }, { "NF_BR_FORWARD", "2" },
	{ "NF_BR_LOCAL_OUT", "3" }, { "NF_BR_POST_ROUTING", "4" }, { "NF_BR_BROUTING", "5" },
	{ NULL, NULL }
};

/* Named priorities: enum nf_ip_hook_priorities, nf_ip6_hook_priorities. */
static const char *const nf_priorities[] = {
	"NF_IP_PRI_FIRST", "NF_IP_PRI_RAW_BEFORE_DEFRAG", "NF_IP_PRI_CONNTRACK_DEFRAG",
	"NF_IP_PRI_RAW", "NF_IP_PRI_SELINUX_FIRST", "NF_IP_PRI_CONNTRACK",
	"NF_IP_PRI_MANGLE", "NF_IP_PRI_NAT_DST", "NF_IP_PRI_FILTER", "NF_IP_PRI_SECURITY",
	"NF_IP_PRI_NAT_SRC", "NF_IP_PRI_SELINUX_LAST", "NF_IP_PRI_CONNTRACK_HELPER",
	"NF_IP_PRI_CONNTRACK_CONFIRM", "NF_IP_PRI_LAST",
	"NF_IP6_PRI_FIRST", "NF_IP6_PRI_RAW_BEFORE_DEFRAG", "NF_IP6_PRI_CONNTRACK_DEFRAG",
	"NF_IP6_PRI_RAW", "NF_IP6_PRI_SELINUX_FIRST", "NF_IP6_PRI_CONNTRACK",
	"NF_IP6_PRI_MANGLE", "NF_IP6_PRI_NAT_DST", "NF_IP6_PRI_FILTER",
	"NF_IP6_PRI_SECURITY", "NF_IP6_PRI_NAT_SRC", "NF_IP6_PRI_SELINUX_LAST",
	"NF_IP6_PRI_LAST",
};

/* A decimal integer, optionally negative. */
static bool is_number(const char *v)
{
	if (*v == '-')
		v++;
	if (!*v)
		return false;
	for (; *v; v++)
		if (!isdigit((unsigned char)*v))
			return false;
	return true;
}

static bool is_ident(const char *v)
{
	if (!*v || isdigit((unsigned char)*v))
		return false;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && *v != '_')
			return false;
	return true;
}

/* The string argument of component c, or NULL after an error. */
static const char *str_arg(struct session *s, const struct pp_comp *c)
{
	if (!c->arg || c->arg->kind != ND_STR || (int)strlen(c->arg->str) != c->arg->str_len) {
		diag_error(s, c->arg ? &c->arg->loc : &c->loc,
			   "netfilter .%s takes a quoted name: %s(\"NAME\")", c->name, c->name);
		return NULL;
	}
	return c->arg->str;
}

/* A guru-mode verbatim value: a number or a C identifier. */
static const char *guru_value(struct session *s, const char *v)
{
	return s->guru && (is_number(v) || is_ident(v)) ? v : NULL;
}

static const char *lookup(const struct nf_name *t, const char *v)
{
	for (; t->name; t++)
		if (!strcmp(t->name, v))
			return t->value;
	return NULL;
}

/* Check PF, HOOK and PRI; fill np with their C.  0 or -1. */
static int check_names(struct session *s, const struct pp_comp *pfc, const struct pp_comp *hc,
		       const struct pp_comp *prc, struct nf_point *np)
{
	const char *pf = pfc->arg->str, *hook = hc->arg->str;
	const struct nf_name *hooks = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(nf_pfs); i++)
		if (!strcmp(nf_pfs[i].name, pf)) {
			np->pf = nf_pfs[i].value;
			hooks = i < 2 ? nf_inet_hooks : i == 2 ? nf_arp_hooks : nf_br_hooks;
		}
	if (!np->pf && !(np->pf = guru_value(s, pf))) {
		diag_error(s, &pfc->arg->loc, "unknown netfilter protocol family '%s'", pf);
		diag_hint(s, "one of NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_ARP, NFPROTO_BRIDGE "
			  "(any identifier or number in guru mode)");
		return -1;
	}
	np->hook = hooks ? lookup(hooks, hook) : NULL;
	if (!np->hook && !(np->hook = guru_value(s, hook))) {
		diag_error(s, &hc->arg->loc, "unknown netfilter hook '%s' for %s", hook, pf);
		if (hooks) {
			struct strbuf sb = STRBUF_INIT;

			for (const struct nf_name *h = hooks; h->name; h++)
				sb_printf(&sb, "%s%s", h == hooks ? "" : ", ", h->name);
			diag_hint(s, "%s has %s", pf, sb_str(&sb));
			sb_free(&sb);
		}
		return -1;
	}
	np->priority = "0";
	if (prc) {
		const char *p = prc->arg->str;

		np->priority = is_number(p) && strlen(p) < 12 ? p : NULL;
		for (size_t i = 0; !np->priority && i < ARRAY_SIZE(nf_priorities); i++)
			if (!strcmp(nf_priorities[i], p))
				np->priority = p;
		if (!np->priority && !(np->priority = guru_value(s, p))) {
			diag_error(s, &prc->arg->loc, "unknown netfilter priority '%s'", p);
			diag_hint(s, "a number or an NF_IP_PRI_* / NF_IP6_PRI_* name");
			return -1;
		}
	}
	return 0;
}

/* netfilter -> 'netfilter' ('.hook(S)' '.pf(S)' | '.pf(S)' '.hook(S)') ('.priority(S)')? */
static int resolve_nf(struct session *s, struct probe_point *pt, struct resolved_probe *rp)
{
	const struct pp_comp *c = pt->comps, *pfc = NULL, *hc = NULL, *prc = NULL;
	struct nf_point *np;

	if (strcmp(c->name, "netfilter") || !c->next ||
	    (strcmp(c->next->name, "hook") && strcmp(c->next->name, "pf")))
		return 0;	/* netfilter.ip.local_in and such are aliases */
	for (c = c->next; c; c = c->next) {
		const struct pp_comp **slot = !strcmp(c->name, "hook") ? &hc :
					      !strcmp(c->name, "pf") ? &pfc :
					      !strcmp(c->name, "priority") ? &prc : NULL;

		if (!slot || *slot || (slot == &prc && (!hc || !pfc))) {
			diag_error(s, &c->loc, "unexpected '%s' in a netfilter probe point", c->name);
			diag_hint(s, "netfilter.hook(\"HOOK\").pf(\"PF\")[.priority(\"PRI\")]");
			return -1;
		}
		if (!str_arg(s, c))
			return -1;
		*slot = c;
	}
	if (!hc || !pfc) {
		diag_error(s, &pt->loc, "a netfilter probe point names a hook and a protocol family");
		diag_hint(s, "netfilter.hook(\"HOOK\").pf(\"PF\")[.priority(\"PRI\")]");
		return -1;
	}
	np = arena_alloc(&s->arena, sizeof(*np));
	if (check_names(s, pfc, hc, prc, np) < 0)
		return -1;
	rp->pp = pf_point_text(s, pt);
	rp->family_data = np;
	return 1;
}

/* ---- $verdict ---- */

static bool is_verdict(const struct node *n)
{
	return n && n->kind == ND_TARGET && n->str && !strcmp(n->str, "verdict") && !n->members;
}

/* "$verdict = e" becomes "__nf_set_verdict(e)" (guru mode only). */
static bool rewrite_verdict(struct session *s, struct node **np, void *arg)
{
	struct node *n = *np;

	if (n->kind != ND_ASSIGN || !is_verdict(n->lhs))
		return false;
	if (!s->guru) {
		diag_error(s, &n->lhs->loc, "writing to target variable '$verdict' "
			   "needs guru mode (-g)");
		return true;
	}
	if (n->op != OP_NONE) {
		diag_error(s, &n->loc, "$verdict can only be assigned with '='");
		return true;
	}
	pf_rewrite_walk(s, &n->rhs, rewrite_verdict, NULL);
	n->rhs->next = NULL;
	*np = pf_call_node(s, n, "__nf_set_verdict", n->rhs);
	return true;
}

static struct node *rewrite_body(struct session *s, struct resolved_probe *rp,
				 struct node *body)
{
	(void)rp;
	pf_rewrite_walk(s, &body, rewrite_verdict, NULL);
	return body;
}

/* ---- target variables ---- */

static bool die_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

static bool die_named(Dwarf_Die *die, const char *name)
{
	const char *n = dwarf_diename(die);

	return n && !strcmp(n, name);
}

static int first_site(const struct dw_site *site, void *arg)
{
	*(uint64_t *)arg = site->die_off;
	return 1;
}

/* The struct a pointer type points to, through typedefs and qualifiers. */
static bool pointee_struct(Dwarf_Die *type, Dwarf_Die *out)
{
	Dwarf_Die t = *type;
	bool ptr = false;

	for (int i = 0; i < 16; i++) {
		int tag = dwarf_tag(&t);

		if (tag == DW_TAG_structure_type) {
			*out = t;
			return ptr;
		}
		if (tag == DW_TAG_pointer_type) {
			if (ptr)
				return false;
			ptr = true;
		} else if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
			   tag != DW_TAG_volatile_type) {
			return false;
		}
		if (!die_type(&t, &t))
			return false;
	}
	return false;
}

/*
 * The types of $hooknum, $skb, $in/$out from nf_hook_slow(struct sk_buff
 * *skb, struct nf_hook_state *state, const struct nf_hook_entries *e,
 * unsigned int s).  0, or -1 if its DWARF is not as expected.
 */
static int nf_types(struct dw_object *k, Dwarf_Die *skb, Dwarf_Die *dev, Dwarf_Die *uint)
{
	struct dw_pattern p = { .name = "nf_hook_slow" };
	Dwarf *dbg = dw_dwarf(k);
	uint64_t off = 0;
	Dwarf_Die fn, c, st, m;
	bool got_skb = false, got_dev = false, got_uint = false;

	if (!dbg || dw_lookup_functions(k, &p, first_site, &off) <= 0 ||
	    !dwarf_offdie(dbg, off, &fn))
		return -1;
	if (dwarf_tag(&fn) == DW_TAG_inlined_subroutine) {
		Dwarf_Attribute a;

		if (!dwarf_attr(&fn, DW_AT_abstract_origin, &a) || !dwarf_formref_die(&a, &fn))
			return -1;
	}
	if (dwarf_child(&fn, &c) != 0)
		return -1;
	do {
		if (dwarf_tag(&c) != DW_TAG_formal_parameter)
			continue;
		if (die_named(&c, "skb"))
			got_skb = die_type(&c, skb);
		else if (die_named(&c, "s"))
			got_uint = die_type(&c, uint);
		else if (die_named(&c, "state") && die_type(&c, &st) && pointee_struct(&st, &st) &&
			 dwarf_child(&st, &m) == 0) {
			do {
				if (die_named(&m, "in"))
					got_dev = die_type(&m, dev);
			} while (dwarf_siblingof(&m, &m) == 0);
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return got_skb && got_dev && got_uint ? 0 : -1;
}

static int tv_scope(struct session *s, struct resolved_probe *rp, const struct srcloc *loc,
		    struct tv_scope *out)
{
	struct dw_object *k = pf_kernel(s, loc, false);
	Dwarf_Die skb, dev, uint;
	struct tv_arg *args;

	(void)rp;
	if (!k)
		return -1;
	if (nf_types(k, &skb, &dev, &uint) < 0) {
		diag_error(s, loc, "cannot find the netfilter types (nf_hook_slow's parameters) "
			   "in the DWARF of kernel %s", s->release);
		return -1;
	}
	tv_object_scope(k, out);
	out->has_fn = false;
	args = arena_alloc(&s->arena, 5 * sizeof(*args));
	args[0] = (struct tv_arg){ "hooknum", uint, "c->args[0]" };
	args[1] = (struct tv_arg){ "skb", skb, "c->args[1]" };
	args[2] = (struct tv_arg){ "in", dev, "c->args[2]" };
	args[3] = (struct tv_arg){ "out", dev, "c->args[3]" };
	args[4] = (struct tv_arg){ "verdict", uint, "c->args[4]" };
	out->args = args;
	out->nargs = 5;
	return 0;
}

/* ---- emitting ---- */

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	sb_puts(c, "/* netfilter probes: runtime/netfilter.c registers the hooks. */\n"
		"#include \"stp_netfilter.h\"\n#include <linux/netfilter_ipv4.h>\n"
		"#include <linux/netfilter_ipv6.h>\n#include <linux/netfilter_arp.h>\n"
		"static struct stp_netfilter stp_netfilters[] = {\n");
	for (int i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct nf_point *np = rp->family_data;

		sb_printf(c, "\t{ .probe = &" PF_DESC_FMT ", .pf = %s, .hooknum = %s, "
			  ".priority = %s },\n", rp->id, np->pf, np->hook, np->priority);
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t{\n\t\tint rc = _stp_netfilter_start(stp_netfilters, "
		"ARRAY_SIZE(stp_netfilters));\n\n\t\tif (rc)\n\t\t\treturn rc;\n\t}\n");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t_stp_netfilter_stop(stp_netfilters, ARRAY_SIZE(stp_netfilters));\n");
}

const struct probe_family pf_netfilter = {
	.name = "netfilter",
	.forms = (const char *const[]){
		"netfilter.{hook(S).pf(S)|pf(S).hook(S)}[.priority(S)]",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_nf,
	.tv_scope = tv_scope,
	.rewrite_body = rewrite_body,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
