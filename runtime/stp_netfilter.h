/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netfilter probes (runtime/netfilter.c): the rows the generated code
 * fills.  Apart from stp_runtime.h because <linux/netfilter.h> costs
 * every module's compile a sixth of a second (skbuff.h, the net headers)
 * and only scripts with netfilter probes need it: the netfilter family's
 * code and tapsets/netfilter.stp include this.
 */
#ifndef STP_NETFILTER_H
#define STP_NETFILTER_H

#include "stp_runtime.h"
#include <linux/netfilter.h>

/* c->args of a netfilter probe: $hooknum $skb $in $out $verdict. */
enum { STP_NF_HOOKNUM, STP_NF_SKB, STP_NF_IN, STP_NF_OUT, STP_NF_VERDICT, STP_NF_NARGS };

/* One netfilter probe: a hook in every network namespace. */
struct stp_netfilter {
	const struct stp_probe *probe;
	int pf;			/* NFPROTO_* */
	int hooknum;		/* NF_INET_LOCAL_IN, ... */
	int priority;
	/* runtime-private */
	struct nf_hook_ops ops;
};

/*
 * Process context, from stp_session_start/stp_session_stop: register
 * every row's hook in every namespace (0 or -errno, nothing left
 * registered on failure); stop waits for hooks in flight.
 */
int _stp_netfilter_start(struct stp_netfilter *rows, size_t n);
void _stp_netfilter_stop(struct stp_netfilter *rows, size_t n);

#endif /* STP_NETFILTER_H */
