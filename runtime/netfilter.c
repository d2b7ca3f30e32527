// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netfilter probes: the table translator/probes/netfilter.c emits (struct
 * stp_netfilter, stp_runtime.h) becomes one netfilter hook per row,
 * registered in every network namespace, those created later included
 * (a pernet_operations), at session start, and unregistered at stop.
 *
 *  - The hook runs its probe with c->args = { hook number, skb, in
 *    device, out device, verdict }; the verdict starts as NF_ACCEPT and
 *    a guru probe may change it (__nf_set_verdict writes args[4]).
 *  - A verdict the kernel does not define becomes NF_ACCEPT: the hook
 *    caller would otherwise take it as "stolen" and leak the packet.
 *  - Stop waits for hooks in flight (synchronize_net) before the table
 *    and the module's code can go away.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include <net/net_namespace.h>
#include "stp_internal.h"
#include "stp_netfilter.h"

static struct stp_netfilter *stp_nf_rows;
static size_t stp_nf_nrows;
static bool stp_nf_registered;

static unsigned int stp_nf_hook(void *priv, struct sk_buff *skb,
				const struct nf_hook_state *state)
{
	const struct stp_netfilter *r = priv;
	unsigned long args[STP_NF_NARGS] = {
		state->hook, (unsigned long)skb, (unsigned long)state->in,
		(unsigned long)state->out, NF_ACCEPT,
	};
	struct stp_hit h = { .args = args };

	_stp_run_probe_hit(r->probe, NULL, &h);
	if (args[STP_NF_VERDICT] > NF_MAX_VERDICT)
		return NF_ACCEPT;
	return (unsigned int)args[STP_NF_VERDICT];
}

static void stp_nf_net_exit(struct net *net)
{
	size_t i;

	for (i = 0; i < stp_nf_nrows; i++)
		nf_unregister_net_hook(net, &stp_nf_rows[i].ops);
}

static int stp_nf_net_init(struct net *net)
{
	size_t i;
	int rc;

	for (i = 0; i < stp_nf_nrows; i++) {
		rc = nf_register_net_hook(net, &stp_nf_rows[i].ops);
		if (rc) {
			_stp_warn("netfilter: cannot register hook %d of family %d: %d",
				  stp_nf_rows[i].hooknum, stp_nf_rows[i].pf, rc);
			while (i--)
				nf_unregister_net_hook(net, &stp_nf_rows[i].ops);
			return rc;
		}
	}
	return 0;
}

static struct pernet_operations stp_nf_pernet = {
	.init = stp_nf_net_init,
	.exit = stp_nf_net_exit,
};

int _stp_netfilter_start(struct stp_netfilter *rows, size_t n)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		struct nf_hook_ops *o = &rows[i].ops;

		memset(o, 0, sizeof(*o));
		o->hook = stp_nf_hook;
		o->priv = &rows[i];
		o->pf = rows[i].pf;
		o->hooknum = rows[i].hooknum;
		o->priority = rows[i].priority;
	}
	stp_nf_rows = rows;
	stp_nf_nrows = n;
	rc = register_pernet_subsys(&stp_nf_pernet);
	if (rc)
		return rc;
	stp_nf_registered = true;
	return 0;
}

void _stp_netfilter_stop(struct stp_netfilter *rows, size_t n)
{
	if (!stp_nf_registered)
		return;
	unregister_pernet_subsys(&stp_nf_pernet);
	synchronize_net();
	stp_nf_registered = false;
}
