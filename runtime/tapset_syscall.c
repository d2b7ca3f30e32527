// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * System call arguments for the syscall.* probe aliases: the raw
 * arguments of the current system call, and the decoders that turn flag
 * words and constants into the text argstr shows ("O_RDONLY|O_CREAT",
 * "AT_FDCWD", "SEEK_SET").
 *
 * Arguments come from the user registers saved at system call entry
 * (syscall_get_arguments on task_pt_regs), not from the probed
 * function's own registers: they are right at entry and at return of
 * any function inside the call, with or without DWARF, and for 32-bit
 * (compat) callers too.
 */
#include <linux/fcntl.h>
#include <linux/kernel.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/fs.h>
#include <linux/wait.h>
#include <uapi/linux/wait.h>
#include <linux/time64.h>
#include <linux/uaccess.h>
#include <linux/socket.h>
#include <linux/net.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/un.h>
#include <linux/falloc.h>
#include <uapi/linux/eventpoll.h>
#include <asm/syscall.h>
#include "stp_internal.h"
#include "stp_tapset.h"

int64_t _stp_sc_arg(int n)
{
	unsigned long args[6];

	if (n < 1 || n > 6 || (current->flags & PF_KTHREAD))
		return 0;
	syscall_get_arguments(current, task_pt_regs(current), args);
	return (int64_t)args[n - 1];
}

int64_t _stp_sc_nr(void)
{
	if (current->flags & PF_KTHREAD)
		return -1;
	return syscall_get_nr(current, task_pt_regs(current));
}

struct stp_sc_flag {
	unsigned long bit;
	const char *name;
};

#define F(x) { x, #x }

static const struct stp_sc_flag open_flags[] = {
	F(O_CREAT), F(O_EXCL), F(O_NOCTTY), F(O_TRUNC), F(O_APPEND), F(O_NONBLOCK),
	F(O_DSYNC), F(FASYNC), F(O_DIRECT), F(O_LARGEFILE), F(O_DIRECTORY),
	F(O_NOFOLLOW), F(O_NOATIME), F(O_CLOEXEC), F(__O_SYNC), F(O_PATH),
	F(__O_TMPFILE), { 0, NULL }
};

static const struct stp_sc_flag prot_flags[] = {
	F(PROT_READ), F(PROT_WRITE), F(PROT_EXEC), F(PROT_SEM), F(PROT_GROWSDOWN),
	F(PROT_GROWSUP), { 0, NULL }
};

static const struct stp_sc_flag mmap_flags[] = {
	F(MAP_FIXED), F(MAP_ANONYMOUS), F(MAP_32BIT), F(MAP_GROWSDOWN), F(MAP_DENYWRITE),
	F(MAP_EXECUTABLE), F(MAP_LOCKED), F(MAP_NORESERVE), F(MAP_POPULATE),
	F(MAP_NONBLOCK), F(MAP_STACK), F(MAP_HUGETLB), F(MAP_SYNC), F(MAP_FIXED_NOREPLACE),
	{ 0, NULL }
};

static const struct stp_sc_flag access_flags[] = {
	/* unistd.h's values; the kernel has no names for them */
	{ 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" }, { 0, NULL }
};

static const struct stp_sc_flag at_flags[] = {
	F(AT_SYMLINK_NOFOLLOW), F(AT_REMOVEDIR), F(AT_SYMLINK_FOLLOW), F(AT_NO_AUTOMOUNT),
	F(AT_EMPTY_PATH), { 0, NULL }
};

static const struct stp_sc_flag wait_flags[] = {
	F(WNOHANG), F(WUNTRACED), F(WEXITED), F(WCONTINUED), F(WNOWAIT), F(__WNOTHREAD),
	F(__WALL), F(__WCLONE), { 0, NULL }
};

static const struct stp_sc_flag clone_flags[] = {
	F(CLONE_VM), F(CLONE_FS), F(CLONE_FILES), F(CLONE_SIGHAND), F(CLONE_PIDFD),
	F(CLONE_PTRACE), F(CLONE_VFORK), F(CLONE_PARENT), F(CLONE_THREAD), F(CLONE_NEWNS),
	F(CLONE_SYSVSEM), F(CLONE_SETTLS), F(CLONE_PARENT_SETTID), F(CLONE_CHILD_CLEARTID),
	F(CLONE_DETACHED), F(CLONE_UNTRACED), F(CLONE_CHILD_SETTID), F(CLONE_NEWCGROUP),
	F(CLONE_NEWUTS), F(CLONE_NEWIPC), F(CLONE_NEWUSER), F(CLONE_NEWPID), F(CLONE_NEWNET),
	F(CLONE_IO), { 0, NULL }
};

static const struct stp_sc_flag grnd_flags[] = {
	{ 1, "GRND_NONBLOCK" }, { 2, "GRND_RANDOM" }, { 4, "GRND_INSECURE" }, { 0, NULL }
};

/* SystemTap's order */
static const struct stp_sc_flag sock_flags[] = {
	F(SOCK_CLOEXEC), F(SOCK_NONBLOCK), { 0, NULL }
};

static const struct stp_sc_flag msg_flags[] = {
	F(MSG_OOB), F(MSG_PEEK), F(MSG_DONTROUTE), F(MSG_CTRUNC), { 0x10, "MSG_PROXY" }, F(MSG_TRUNC),
	F(MSG_DONTWAIT), F(MSG_EOR), F(MSG_WAITALL), F(MSG_FIN), F(MSG_SYN), F(MSG_CONFIRM),
	F(MSG_RST), F(MSG_ERRQUEUE), F(MSG_NOSIGNAL), F(MSG_MORE), F(MSG_WAITFORONE),
	F(MSG_FASTOPEN), F(MSG_CMSG_CLOEXEC), { 0, NULL }
};

static const struct stp_sc_flag fd_flags[] = {
	F(O_NONBLOCK), F(O_CLOEXEC), F(O_DIRECT), { 0, NULL }
};

/* linux/eventfd.h's, which older trees do not export: O_CLOEXEC, O_NONBLOCK, 1 */
static const struct stp_sc_flag efd_flags[] = {
	{ 1, "EFD_SEMAPHORE" }, { O_NONBLOCK, "EFD_NONBLOCK" }, { O_CLOEXEC, "EFD_CLOEXEC" },
	{ 0, NULL }
};

static const struct stp_sc_flag falloc_flags[] = {
	F(FALLOC_FL_KEEP_SIZE), F(FALLOC_FL_PUNCH_HOLE), F(FALLOC_FL_NO_HIDE_STALE),
	F(FALLOC_FL_COLLAPSE_RANGE), F(FALLOC_FL_ZERO_RANGE), F(FALLOC_FL_INSERT_RANGE),
	F(FALLOC_FL_UNSHARE_RANGE), { 0, NULL }
};

#undef F

/* Flag words by decoder kind: uapi values, which not every header exports. */
static const struct stp_sc_flag mcl_flags[] = {
	{ 1, "MCL_CURRENT" }, { 2, "MCL_FUTURE" }, { 4, "MCL_ONFAULT" }, { 0, NULL }
};
static const struct stp_sc_flag mfd_flags[] = {
	{ 1, "MFD_CLOEXEC" }, { 2, "MFD_ALLOW_SEALING" }, { 4, "MFD_HUGETLB" },
	{ 8, "MFD_NOEXEC_SEAL" }, { 0x10, "MFD_EXEC" }, { 0, NULL }
};
static const struct stp_sc_flag tfd_flags[] = {
	{ O_CLOEXEC, "TFD_CLOEXEC" }, { O_NONBLOCK, "TFD_NONBLOCK" }, { 0, NULL }
};
static const struct stp_sc_flag tfd_timer_flags[] = {
	{ 1, "TFD_TIMER_ABSTIME" }, { 2, "TFD_TIMER_CANCEL_ON_SET" }, { 0, NULL }
};
static const struct stp_sc_flag umount_flags[] = {
	{ 1, "MNT_FORCE" }, { 2, "MNT_DETACH" }, { 4, "MNT_EXPIRE" }, { 8, "UMOUNT_NOFOLLOW" },
	{ 0, NULL }
};
static const struct stp_sc_flag msync_flags[] = {
	{ 1, "MS_ASYNC" }, { 2, "MS_INVALIDATE" }, { 4, "MS_SYNC" }, { 0, NULL }
};
static const struct stp_sc_flag mremap_flags[] = {
	{ 1, "MREMAP_MAYMOVE" }, { 2, "MREMAP_FIXED" }, { 4, "MREMAP_DONTUNMAP" }, { 0, NULL }
};
static const struct stp_sc_flag mlock_flags[] = { { 1, "MLOCK_ONFAULT" }, { 0, NULL } };
static const struct stp_sc_flag timer_flags[] = { { 1, "TIMER_ABSTIME" }, { 0, NULL } };
static const struct stp_sc_flag access_at_flags[] = {
	{ 0x100, "AT_SYMLINK_NOFOLLOW" }, { 0x200, "AT_EACCESS" }, { 0x1000, "AT_EMPTY_PATH" },
	{ 0, NULL }
};
static const struct stp_sc_flag rename_flags[] = {
	{ 1, "RENAME_NOREPLACE" }, { 2, "RENAME_EXCHANGE" }, { 4, "RENAME_WHITEOUT" }, { 0, NULL }
};

static const struct stp_sc_flag xattr_flags[] = {
	{ 1, "XATTR_CREATE" }, { 2, "XATTR_REPLACE" }, { 0, NULL }
};

static const struct stp_sc_flag splice_flags[] = {
	{ 1, "SPLICE_F_MOVE" }, { 2, "SPLICE_F_NONBLOCK" }, { 4, "SPLICE_F_MORE" },
	{ 8, "SPLICE_F_GIFT" }, { 0, NULL }
};
static const struct stp_sc_flag sync_range_flags[] = {
	{ 1, "SYNC_FILE_RANGE_WAIT_BEFORE" }, { 2, "SYNC_FILE_RANGE_WRITE" },
	{ 4, "SYNC_FILE_RANGE_WAIT_AFTER" }, { 0, NULL }
};
static const struct stp_sc_flag delmod_flags[] = {
	{ O_TRUNC, "O_TRUNC" }, { O_NONBLOCK, "O_NONBLOCK" }, { 0, NULL }
};

static const struct { int kind; const struct stp_sc_flag *flags; } flag_kinds[] = {
	{ STP_SC_XATTR, xattr_flags }, { STP_SC_SPLICE, splice_flags },
	{ STP_SC_SYNC_RANGE, sync_range_flags }, { STP_SC_DELMOD, delmod_flags },
	{ STP_SC_MCL, mcl_flags }, { STP_SC_MFD, mfd_flags }, { STP_SC_TFD, tfd_flags },
	{ STP_SC_TFD_TIMER, tfd_timer_flags }, { STP_SC_UMOUNT, umount_flags },
	{ STP_SC_MSYNC, msync_flags }, { STP_SC_MREMAP, mremap_flags },
	{ STP_SC_MLOCK, mlock_flags }, { STP_SC_TIMER_FLAGS, timer_flags },
	{ STP_SC_ACCESS_AT, access_at_flags }, { STP_SC_RENAME, rename_flags },
};

/* Selectors by decoder kind: names from value first on. */
static const char *const rusage_who[] = { "RUSAGE_CHILDREN", "RUSAGE_SELF", "RUSAGE_THREAD" };
static const char *const itimer_which[] = { "ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF" };
static const char *const sched_policy[] = { "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR",
					    "SCHED_BATCH", "SCHED_ISO", "SCHED_IDLE",
					    "SCHED_DEADLINE" };
static const char *const idtype[] = { "P_ALL", "P_PID", "P_PGID", "P_PIDFD" };
static const char *const prio_which[] = { "PRIO_PROCESS", "PRIO_PGRP", "PRIO_USER" };

static const char *const bpf_cmd[] = {
	"BPF_MAP_CREATE", "BPF_MAP_LOOKUP_ELEM", "BPF_MAP_UPDATE_ELEM", "BPF_MAP_DELETE_ELEM",
	"BPF_MAP_GET_NEXT_KEY", "BPF_PROG_LOAD", "BPF_OBJ_PIN", "BPF_OBJ_GET",
	"BPF_PROG_ATTACH", "BPF_PROG_DETACH", "BPF_PROG_TEST_RUN", "BPF_PROG_GET_NEXT_ID",
	"BPF_MAP_GET_NEXT_ID", "BPF_PROG_GET_FD_BY_ID", "BPF_MAP_GET_FD_BY_ID",
	"BPF_OBJ_GET_INFO_BY_FD", "BPF_PROG_QUERY", "BPF_RAW_TRACEPOINT_OPEN", "BPF_BTF_LOAD",
	"BPF_BTF_GET_FD_BY_ID", "BPF_TASK_FD_QUERY", "BPF_MAP_LOOKUP_AND_DELETE_ELEM",
	"BPF_MAP_FREEZE", "BPF_BTF_GET_NEXT_ID", "BPF_MAP_LOOKUP_BATCH",
	"BPF_MAP_LOOKUP_AND_DELETE_BATCH", "BPF_MAP_UPDATE_BATCH", "BPF_MAP_DELETE_BATCH",
	"BPF_LINK_CREATE", "BPF_LINK_UPDATE", "BPF_LINK_GET_FD_BY_ID", "BPF_LINK_GET_NEXT_ID",
	"BPF_ENABLE_STATS", "BPF_ITER_CREATE", "BPF_LINK_DETACH", "BPF_PROG_BIND_MAP",
};
static const char *const ipc_cmd[] = { "IPC_RMID", "IPC_SET", "IPC_STAT", "IPC_INFO" };

static const struct {
	int kind, first;
	const char *const *names;
	size_t n;
} enum_kinds[] = {
	{ STP_SC_BPF_CMD, 0, bpf_cmd, ARRAY_SIZE(bpf_cmd) },
	{ STP_SC_IPC_CMD, 0, ipc_cmd, ARRAY_SIZE(ipc_cmd) },
	{ STP_SC_RUSAGE, -1, rusage_who, ARRAY_SIZE(rusage_who) },
	{ STP_SC_ITIMER, 0, itimer_which, ARRAY_SIZE(itimer_which) },
	{ STP_SC_SCHED_POLICY, 0, sched_policy, ARRAY_SIZE(sched_policy) },
	{ STP_SC_IDTYPE, 0, idtype, ARRAY_SIZE(idtype) },
	{ STP_SC_PRIO_WHICH, 0, prio_which, ARRAY_SIZE(prio_which) },
};

/* SystemTap's order: SA_RESTORER after the POSIX flags. */
static const struct stp_sc_flag sa_flags[] = {
	{ 0x00000001, "SA_NOCLDSTOP" }, { 0x00000002, "SA_NOCLDWAIT" },
	{ 0x00000004, "SA_SIGINFO" }, { 0x08000000, "SA_ONSTACK" },
	{ 0x10000000, "SA_RESTART" }, { 0x40000000, "SA_NODEFER" },
	{ 0x80000000, "SA_RESETHAND" }, { 0x04000000, "SA_RESTORER" }, { 0, NULL }
};

/* A signal set: [EMPTY], or the members' names joined by '|'. */
static void sigset_str(char *dst, u64 set)
{
	size_t len = 0;
	char name[32];
	int sig;

	if (!set) {
		strscpy(dst, "[EMPTY]", MAXSTRINGLEN);
		return;
	}
	len = scnprintf(dst, MAXSTRINGLEN, "[");
	for (sig = 1; sig <= 64; sig++) {
		if (!(set & (1ULL << (sig - 1))))
			continue;
		_stp_signal_str(name, sig);
		if (name[0])
			len += scnprintf(dst + len, MAXSTRINGLEN - len, "%sSIG%s",
					 len > 1 ? "|" : "", name);
		else
			len += scnprintf(dst + len, MAXSTRINGLEN - len, "%s%d",
					 len > 1 ? "|" : "", sig);
	}
	scnprintf(dst + len, MAXSTRINGLEN - len, "]");
}

/* The name of value v in names[] (NULL holes allowed), else v in decimal. */
static void enum_str(char *dst, int64_t v, const char *const *names, size_t n)
{
	if (v >= 0 && (uint64_t)v < n && names[v])
		strscpy(dst, names[v], MAXSTRINGLEN);
	else
		scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
}

/* Names of the bits of v joined by '|', what is left in hex after them. */
static void flag_str(char *dst, unsigned long v, const struct stp_sc_flag *t,
		     const char *first)
{
	size_t len = 0;

	dst[0] = '\0';
	if (first)
		len = strscpy(dst, first, MAXSTRINGLEN) > 0 ? strlen(dst) : 0;
	for (; t->name; t++) {
		if (!(v & t->bit) || (v & t->bit) != t->bit)
			continue;
		v &= ~t->bit;
		len += scnprintf(dst + len, MAXSTRINGLEN - len, "%s%s", len ? "|" : "", t->name);
	}
	if (v || !len)
		scnprintf(dst + len, MAXSTRINGLEN - len, "%s0x%lx", len ? "|" : "", v);
}

/*
 * Address families by number (linux/socket.h): "AF_UNIX" in a socket
 * address, "PF_LOCAL" where socket(2) takes one, as SystemTap shows them.
 */
static void family_str(char *dst, int64_t v, bool pf)
{
	static const char *const af[] = {
		"UNSPEC", "UNIX", "INET", "AX25", "IPX", "APPLETALK", "NETROM", "BRIDGE",
		"ATMPVC", "X25", "INET6", "ROSE", "DECnet", "NETBEUI", "SECURITY", "KEY",
		"NETLINK", "PACKET", "ASH", "ECONET", "ATMSVC", "RDS", "SNA", "IRDA", "PPPOX",
		"WANPIPE", "LLC", "IB", "MPLS", "CAN", "TIPC", "BLUETOOTH", "IUCV", "RXRPC",
		"ISDN", "PHONET", "IEEE802154", "CAIF", "ALG", "NFC", "VSOCK", "KCM",
		"QIPCRTR", "SMC", "XDP", "MCTP",
	};

	if (v < 0 || v >= (int64_t)ARRAY_SIZE(af))
		scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
	else
		scnprintf(dst, MAXSTRINGLEN, "%s_%s", pf ? "PF" : "AF",
			  pf && v == AF_UNIX ? "LOCAL" : af[v]);
}

/* An IP protocol number: v is (family << 32) | protocol. */
static void proto_str(char *dst, int64_t v)
{
	static const struct { int nr; const char *name; } ip[] = {
		{ IPPROTO_IP, "IPPROTO_IP" }, { IPPROTO_ICMP, "IPPROTO_ICMP" },
		{ IPPROTO_IGMP, "IPPROTO_IGMP" }, { IPPROTO_IPIP, "IPPROTO_IPIP" },
		{ IPPROTO_TCP, "IPPROTO_TCP" }, { IPPROTO_EGP, "IPPROTO_EGP" },
		{ IPPROTO_PUP, "IPPROTO_PUP" }, { IPPROTO_UDP, "IPPROTO_UDP" },
		{ IPPROTO_IDP, "IPPROTO_IDP" }, { IPPROTO_TP, "IPPROTO_TP" },
		{ IPPROTO_DCCP, "IPPROTO_DCCP" }, { IPPROTO_IPV6, "IPPROTO_IPV6" },
		{ IPPROTO_RSVP, "IPPROTO_RSVP" }, { IPPROTO_GRE, "IPPROTO_GRE" },
		{ IPPROTO_ESP, "IPPROTO_ESP" }, { IPPROTO_AH, "IPPROTO_AH" },
		{ 58, "IPPROTO_ICMPV6" }, { IPPROTO_MTP, "IPPROTO_MTP" },
		{ IPPROTO_ENCAP, "IPPROTO_ENCAP" }, { IPPROTO_PIM, "IPPROTO_PIM" },
		{ IPPROTO_COMP, "IPPROTO_COMP" }, { IPPROTO_SCTP, "IPPROTO_SCTP" },
		{ IPPROTO_UDPLITE, "IPPROTO_UDPLITE" }, { IPPROTO_RAW, "IPPROTO_RAW" },
	};
	int family = v >> 32, proto = (int)v;
	size_t i;

	if (family == AF_INET || family == AF_INET6)
		for (i = 0; i < ARRAY_SIZE(ip); i++)
			if (ip[i].nr == proto) {
				strscpy(dst, ip[i].name, MAXSTRINGLEN);
				return;
			}
	scnprintf(dst, MAXSTRINGLEN, "%d", proto);
}

/* A socket option level, or an option: (level << 32) | optname. */
static void sockopt_str(char *dst, int64_t v, bool level)
{
	static const char *const so[] = {
		NULL, "SO_DEBUG", "SO_REUSEADDR", "SO_TYPE", "SO_ERROR", "SO_DONTROUTE",
		"SO_BROADCAST", "SO_SNDBUF", "SO_RCVBUF", "SO_KEEPALIVE", "SO_OOBINLINE",
		"SO_NO_CHECK", "SO_PRIORITY", "SO_LINGER", "SO_BSDCOMPAT", "SO_REUSEPORT",
		"SO_PASSCRED", "SO_PEERCRED", "SO_RCVLOWAT", "SO_SNDLOWAT",
	};
	static const char *const tcp[] = {
		NULL, "TCP_NODELAY", "TCP_MAXSEG", "TCP_CORK", "TCP_KEEPIDLE", "TCP_KEEPINTVL",
		"TCP_KEEPCNT", "TCP_SYNCNT", "TCP_LINGER2", "TCP_DEFER_ACCEPT",
		"TCP_WINDOW_CLAMP", "TCP_INFO", "TCP_QUICKACK",
	};
	int lvl = level ? (int)v : (int)(v >> 32), opt = (int)v;

	if (level) {
		const char *name = lvl == SOL_SOCKET ? "SOL_SOCKET" : lvl == SOL_IP ? "SOL_IP" :
				   lvl == SOL_TCP ? "SOL_TCP" : lvl == SOL_UDP ? "SOL_UDP" :
				   lvl == SOL_IPV6 ? "SOL_IPV6" : lvl == SOL_RAW ? "SOL_RAW" : NULL;

		if (name)
			strscpy(dst, name, MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "%d", lvl);
	} else if (lvl == SOL_SOCKET) {
		enum_str(dst, opt, so, ARRAY_SIZE(so));
	} else if (lvl == SOL_TCP) {
		enum_str(dst, opt, tcp, ARRAY_SIZE(tcp));
	} else {
		scnprintf(dst, MAXSTRINGLEN, "%d", opt);
	}
}

static void fcntl_str(char *dst, int64_t v)
{
	static const char *const cmd[] = {
		"F_DUPFD", "F_GETFD", "F_SETFD", "F_GETFL", "F_SETFL", "F_GETLK", "F_SETLK",
		"F_SETLKW", "F_SETOWN", "F_GETOWN", "F_SETSIG", "F_GETSIG", "F_GETLK64",
		"F_SETLK64", "F_SETLKW64", "F_SETOWN_EX", "F_GETOWN_EX", "F_GETOWNER_UIDS",
	};
	/* F_LINUX_SPECIFIC_BASE (1024) on */
	static const char *const linux_cmd[] = {
		"F_SETLEASE", "F_GETLEASE", "F_NOTIFY", NULL, NULL, NULL, "F_DUPFD_CLOEXEC",
		"F_SETPIPE_SZ", "F_GETPIPE_SZ", "F_ADD_SEALS", "F_GET_SEALS",
		"F_GET_RW_HINT", "F_SET_RW_HINT", "F_GET_FILE_RW_HINT", "F_SET_FILE_RW_HINT",
	};

	if (v >= 1024 && v < 1024 + (int64_t)ARRAY_SIZE(linux_cmd) && linux_cmd[v - 1024])
		strscpy(dst, linux_cmd[v - 1024], MAXSTRINGLEN);
	else
		enum_str(dst, v, cmd, ARRAY_SIZE(cmd));
}

static void madvice_str(char *dst, int64_t v)
{
	static const char *const adv[] = {
		"MADV_NORMAL", "MADV_RANDOM", "MADV_SEQUENTIAL", "MADV_WILLNEED",
		"MADV_DONTNEED", NULL, NULL, "MADV_FREE", "MADV_REMOVE", "MADV_DONTFORK",
		"MADV_DOFORK", NULL, "MADV_MERGEABLE", "MADV_UNMERGEABLE", "MADV_HUGEPAGE",
		"MADV_NOHUGEPAGE", "MADV_DONTDUMP", "MADV_DODUMP", "MADV_WIPEONFORK",
		"MADV_KEEPONFORK", "MADV_COLD", "MADV_PAGEOUT", "MADV_POPULATE_READ",
		"MADV_POPULATE_WRITE", "MADV_DONTNEED_LOCKED", "MADV_COLLAPSE",
	};

	if (v == 100)
		strscpy(dst, "MADV_HWPOISON", MAXSTRINGLEN);
	else if (v == 101)
		strscpy(dst, "MADV_SOFT_OFFLINE", MAXSTRINGLEN);
	else
		enum_str(dst, v, adv, ARRAY_SIZE(adv));
}

/*
 * A user struct sockaddr of len bytes at uaddr, or one part of it
 * (enum stp_sc_sockaddr_part): AF_INET, AF_INET6 and AF_UNIX in full,
 * other families by name.  Parts a family has not are "".  SystemTap
 * 4.8 shows an IPv6 flowinfo in network byte order and its scope id as
 * the flowinfo; these are the values.
 */
void _stp_sc_sockaddr(char *dst, unsigned long uaddr, int64_t len, int part)
{
	union {
		sa_family_t family;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
		struct sockaddr_un un;
	} sa;
	char af[32];

	dst[0] = '\0';
	memset(&sa, 0, sizeof(sa));
	if (!uaddr) {
		if (part == STP_SC_SA_ALL)
			strscpy(dst, "NULL", MAXSTRINGLEN);
		return;
	}
	if (len < (int64_t)sizeof(sa_family_t) ||
	    copy_from_user_nofault(&sa, (void __user *)uaddr, min_t(int64_t, len, sizeof(sa)))) {
		if (part == STP_SC_SA_ALL)
			scnprintf(dst, MAXSTRINGLEN, "0x%lx", uaddr);
		return;
	}
	family_str(af, sa.family, false);
	switch (part) {
	case STP_SC_SA_AF:
		strscpy(dst, af, MAXSTRINGLEN);
		return;
	case STP_SC_SA_IP:
		if (sa.family == AF_INET)
			scnprintf(dst, MAXSTRINGLEN, "%pI4", &sa.in.sin_addr);
		else if (sa.family == AF_INET6)
			scnprintf(dst, MAXSTRINGLEN, "%pI6", &sa.in6.sin6_addr);
		return;
	case STP_SC_SA_PORT:
		if (sa.family == AF_INET || sa.family == AF_INET6)
			scnprintf(dst, MAXSTRINGLEN, "%u", ntohs(sa.in.sin_port));
		return;
	case STP_SC_SA_FLOWINFO:
		if (sa.family == AF_INET6)
			scnprintf(dst, MAXSTRINGLEN, "%u", ntohl(sa.in6.sin6_flowinfo));
		return;
	case STP_SC_SA_SCOPE_ID:
		if (sa.family == AF_INET6)
			scnprintf(dst, MAXSTRINGLEN, "%u", sa.in6.sin6_scope_id);
		return;
	}
	if (sa.family == AF_INET)
		scnprintf(dst, MAXSTRINGLEN, "{AF_INET, %pI4, %u}", &sa.in.sin_addr,
			  ntohs(sa.in.sin_port));
	else if (sa.family == AF_INET6)
		scnprintf(dst, MAXSTRINGLEN, "{AF_INET6, %pI6, %u}", &sa.in6.sin6_addr,
			  ntohs(sa.in6.sin6_port));
	else if (sa.family == AF_UNIX)
		scnprintf(dst, MAXSTRINGLEN, "{AF_UNIX, \"%.*s\"}",
			  (int)min_t(int64_t, len - sizeof(sa_family_t), sizeof(sa.un.sun_path)),
			  sa.un.sun_path);
	else
		scnprintf(dst, MAXSTRINGLEN, "{%s}", af);
}

void _stp_sc_decode(char *dst, int kind, int64_t v)
{
	static const char *const whence[] = { "SEEK_SET", "SEEK_CUR", "SEEK_END",
					      "SEEK_DATA", "SEEK_HOLE" };
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR" };
	size_t i;

	switch (kind) {
	case STP_SC_DFD:
		if ((int)v == AT_FDCWD)
			strscpy(dst, "AT_FDCWD", MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "%d", (int)v);
		return;
	case STP_SC_OPEN_FLAGS:
		if ((v & O_ACCMODE) < 3)
			flag_str(dst, (unsigned int)v & ~O_ACCMODE, open_flags, acc[v & O_ACCMODE]);
		else
			flag_str(dst, (unsigned int)v, open_flags, NULL);
		return;
	case STP_SC_WHENCE:
		if ((uint64_t)v < ARRAY_SIZE(whence))
			strscpy(dst, whence[v], MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		return;
	case STP_SC_PROT:
		if (!v)
			strscpy(dst, "PROT_NONE", MAXSTRINGLEN);
		else
			flag_str(dst, v, prot_flags, NULL);
		return;
	case STP_SC_MMAP_FLAGS: {
		static const char *const type[] = { NULL, "MAP_SHARED", "MAP_PRIVATE",
						    "MAP_SHARED_VALIDATE" };
		unsigned long t = v & MAP_TYPE;

		flag_str(dst, v & ~MAP_TYPE, mmap_flags, t && t < 4 ? type[t] : NULL);
		return;
	}
	case STP_SC_ACCESS:
		if (!v)
			strscpy(dst, "F_OK", MAXSTRINGLEN);
		else
			flag_str(dst, v, access_flags, NULL);
		return;
	case STP_SC_AT_FLAGS:
		flag_str(dst, v, at_flags, NULL);
		return;
	case STP_SC_WAIT:
		flag_str(dst, v, wait_flags, NULL);
		return;
	case STP_SC_CLONE: {
		char sig[32];
		size_t len;

		/* The flags, then the exit signal: "CLONE_VM|SIGCHLD". */
		flag_str(dst, v & ~CSIGNAL, clone_flags, NULL);
		if (v & CSIGNAL) {
			_stp_signal_str(sig, v & CSIGNAL);
			len = strlen(dst);
			if (!(v & ~CSIGNAL))
				len = 0;	/* no "0x0|" before the signal */
			scnprintf(dst + len, MAXSTRINGLEN - len, "%sSIG%s", len ? "|" : "", sig);
		}
		return;
	}
	case STP_SC_SIGSET: {
		u64 set;

		if (!v)
			strscpy(dst, "NULL", MAXSTRINGLEN);
		else if (copy_from_user_nofault(&set, (void __user *)(unsigned long)v, sizeof(set)))
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		else
			sigset_str(dst, set);
		return;
	}
	case STP_SC_SIGACTION: {
		struct { unsigned long handler, flags, restorer; u64 mask; } sa;
		size_t len;

		if (!v) {
			strscpy(dst, "NULL", MAXSTRINGLEN);
		} else if (copy_from_user_nofault(&sa, (void __user *)(unsigned long)v,
						  sizeof(sa))) {
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		} else if (sa.handler == (unsigned long)SIG_DFL ||
			   sa.handler == (unsigned long)SIG_IGN) {
			strscpy(dst, sa.handler ? "{SIG_IGN}" : "{SIG_DFL}", MAXSTRINGLEN);
		} else {
			len = scnprintf(dst, MAXSTRINGLEN, "{0x%lx, ", sa.handler);
			flag_str(dst + len, sa.flags, sa_flags, NULL);
			len = strlen(dst);
			len += scnprintf(dst + len, MAXSTRINGLEN - len, ", 0x%lx, ", sa.restorer);
			sigset_str(dst + len, sa.mask);
			len = strlen(dst);
			scnprintf(dst + len, MAXSTRINGLEN - len, "}");
		}
		return;
	}
	case STP_SC_TIMESPEC: {
		struct __kernel_timespec ts;

		if (!v)
			strscpy(dst, "NULL", MAXSTRINGLEN);
		else if (copy_from_user_nofault(&ts, (void __user *)(unsigned long)v, sizeof(ts)))
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		else
			scnprintf(dst, MAXSTRINGLEN, "[%lld.%09lld]", (long long)ts.tv_sec,
				  (long long)ts.tv_nsec);
		return;
	}
	case STP_SC_SIGNAL:
		if (!v) {
			strscpy(dst, "SIG_0", MAXSTRINGLEN);
			return;
		}
		_stp_signal_str(dst + 3, v);
		if (dst[3])
			memcpy(dst, "SIG", 3);
		else
			scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
		return;
	case STP_SC_CLOCK: {
		static const char *const clocks[] = {
			"CLOCK_REALTIME", "CLOCK_MONOTONIC", "CLOCK_PROCESS_CPUTIME_ID",
			"CLOCK_THREAD_CPUTIME_ID", "CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME_COARSE",
			"CLOCK_MONOTONIC_COARSE", "CLOCK_BOOTTIME", "CLOCK_REALTIME_ALARM",
			"CLOCK_BOOTTIME_ALARM", NULL, "CLOCK_TAI",
		};

		enum_str(dst, v, clocks, ARRAY_SIZE(clocks));
		return;
	}
	case STP_SC_ARCH_PRCTL: {
		/* asm/prctl.h: 0x1001 on, then 0x2001 on */
		static const char *const low[] = { NULL, "ARCH_SET_GS", "ARCH_SET_FS",
						   "ARCH_GET_FS", "ARCH_GET_GS", "ARCH_GET_CPUID",
						   "ARCH_SET_CPUID" };

		if (v > 0x1000 && v < 0x1000 + (int64_t)ARRAY_SIZE(low))
			strscpy(dst, low[v - 0x1000], MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
		return;
	}
	case STP_SC_GRND:
		flag_str(dst, v, grnd_flags, NULL);
		return;
	case STP_SC_RLIMIT: {
		static const char *const res[] = {
			"RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_STACK", "RLIMIT_CORE",
			"RLIMIT_RSS", "RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_MEMLOCK",
			"RLIMIT_AS", "RLIMIT_LOCKS", "RLIMIT_SIGPENDING", "RLIMIT_MSGQUEUE",
			"RLIMIT_NICE", "RLIMIT_RTPRIO", "RLIMIT_RTTIME",
		};

		enum_str(dst, v, res, ARRAY_SIZE(res));
		return;
	}
	case STP_SC_SIGHOW: {
		static const char *const how[] = { "SIG_BLOCK", "SIG_UNBLOCK", "SIG_SETMASK" };

		enum_str(dst, v, how, ARRAY_SIZE(how));
		return;
	}
	case STP_SC_SOCK_FAMILY:
		family_str(dst, v, true);
		return;
	case STP_SC_SOCK_TYPE: {
		static const char *const types[] = { NULL, "SOCK_STREAM", "SOCK_DGRAM",
						     "SOCK_RAW", "SOCK_RDM", "SOCK_SEQPACKET",
						     "SOCK_DCCP", NULL, NULL, NULL, "SOCK_PACKET" };
		char t[32];

		enum_str(t, v & SOCK_TYPE_MASK, types, ARRAY_SIZE(types));
		flag_str(dst, v & ~SOCK_TYPE_MASK, sock_flags, t);
		return;
	}
	case STP_SC_SOCK_PROTO:
		/* Of an AF_INET or AF_INET6 socket: the caller passes the family
		 * (argument 1 of socket and socketpair) in the high word. */
		proto_str(dst, v);
		return;
	case STP_SC_SOCK_FLAGS:
		flag_str(dst, v, sock_flags, NULL);
		return;
	case STP_SC_MSG_FLAGS:
		flag_str(dst, (unsigned int)v, msg_flags, NULL);
		return;
	case STP_SC_SHUTDOWN: {
		static const char *const how[] = { "SHUT_RD", "SHUT_WR", "SHUT_RDWR" };

		enum_str(dst, v, how, ARRAY_SIZE(how));
		return;
	}
	case STP_SC_FD_FLAGS:
		flag_str(dst, (unsigned int)v, fd_flags, NULL);
		return;
	case STP_SC_FCNTL_CMD:
		fcntl_str(dst, v);
		return;
	case STP_SC_EFD_FLAGS:
		flag_str(dst, (unsigned int)v, efd_flags, NULL);
		return;
	case STP_SC_EPOLL_FLAGS:
		if (v == EPOLL_CLOEXEC)
			strscpy(dst, "EPOLL_CLOEXEC", MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		return;
	case STP_SC_EPOLL_OP: {
		static const char *const ops[] = { NULL, "EPOLL_CTL_ADD", "EPOLL_CTL_DEL",
						   "EPOLL_CTL_MOD" };

		enum_str(dst, v, ops, ARRAY_SIZE(ops));
		return;
	}
	case STP_SC_MADVICE:
		madvice_str(dst, v);
		return;
	case STP_SC_FADVICE: {
		static const char *const adv[] = { "POSIX_FADV_NORMAL", "POSIX_FADV_RANDOM",
						   "POSIX_FADV_SEQUENTIAL", "POSIX_FADV_WILLNEED",
						   "POSIX_FADV_DONTNEED", "POSIX_FADV_NOREUSE" };

		enum_str(dst, v, adv, ARRAY_SIZE(adv));
		return;
	}
	case STP_SC_FALLOC:
		if (!v)
			strscpy(dst, "0", MAXSTRINGLEN);
		else
			flag_str(dst, (unsigned int)v, falloc_flags, NULL);
		return;
	case STP_SC_FDPAIR: {
		int fds[2];

		if (copy_from_user_nofault(fds, (void __user *)(unsigned long)v, sizeof(fds)))
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		else
			scnprintf(dst, MAXSTRINGLEN, "[%d, %d]", fds[0], fds[1]);
		return;
	}
	case STP_SC_ITIMERSPEC:
	case STP_SC_ITIMERVAL: {
		/* interval, then value; microseconds either way */
		long long t[4];
		int div = kind == STP_SC_ITIMERSPEC ? 1000 : 1;

		if (!v)
			strscpy(dst, "NULL", MAXSTRINGLEN);
		else if (copy_from_user_nofault(t, (void __user *)(unsigned long)v, sizeof(t)))
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		else
			scnprintf(dst, MAXSTRINGLEN, "[%lld.%06lld,%lld.%06lld]", t[0], t[1] / div,
				  t[2], t[3] / div);
		return;
	}
	case STP_SC_IPC_FLAGS: {
		static const struct stp_sc_flag ipc_flags[] = {
			{ 01000, "IPC_CREAT" }, { 02000, "IPC_EXCL" }, { 04000, "IPC_NOWAIT" },
			{ 0, NULL }
		};
		size_t len;

		/* the flags, then the permission bits */
		flag_str(dst, (unsigned int)v & ~0777, ipc_flags, NULL);
		len = (v & ~0777) ? strlen(dst) : 0;
		scnprintf(dst + len, MAXSTRINGLEN - len, "%s%#o", len ? "|" : "",
			  (unsigned int)v & 0777);
		return;
	}
	case STP_SC_IPC_KEY:
		if (!v)
			strscpy(dst, "IPC_PRIVATE", MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "%d", (int)v);
		return;
	case STP_SC_SOCKOPT_LEVEL:
		sockopt_str(dst, v, true);
		return;
	case STP_SC_SOCKOPT:
		sockopt_str(dst, v, false);
		return;
	case STP_SC_MODE: {
		static const char *const type[] = { NULL, "S_IFIFO", "S_IFCHR", NULL, "S_IFDIR",
						    NULL, "S_IFBLK", NULL, "S_IFREG", NULL,
						    "S_IFLNK", NULL, "S_IFSOCK" };
		unsigned int t = ((unsigned int)v & S_IFMT) >> 12;

		if (t && type[t])
			scnprintf(dst, MAXSTRINGLEN, "%s|%#o", type[t], (unsigned int)v & ~S_IFMT);
		else
			scnprintf(dst, MAXSTRINGLEN, "%#o", (unsigned int)v);
		return;
	}
	default:
		break;
	}
	for (i = 0; i < ARRAY_SIZE(flag_kinds); i++)
		if (flag_kinds[i].kind == kind) {
			flag_str(dst, (unsigned int)v, flag_kinds[i].flags, NULL);
			return;
		}
	for (i = 0; i < ARRAY_SIZE(enum_kinds); i++)
		if (enum_kinds[i].kind == kind) {
			enum_str(dst, v - enum_kinds[i].first, enum_kinds[i].names, enum_kinds[i].n);
			/* a value outside the table in decimal, as it is */
			if (dst[0] != enum_kinds[i].names[0][0])
				scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
			return;
		}
	scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
}
