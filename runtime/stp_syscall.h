/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The argstr decoders of the system call aliases, shared by the kernel
 * runtime (tapset_syscall.c decodes) and the translator (syscalls.c
 * names them in the aliases it writes), so the numbers cannot drift.
 * No includes: it is read by both sides.
 */
#ifndef STP_SYSCALL_H
#define STP_SYSCALL_H

/* What _stp_sc_decode shows a value as (argstr's decoders). */
enum stp_sc_kind {
	STP_SC_DFD = 1,		/* AT_FDCWD, else the number */
	STP_SC_OPEN_FLAGS,	/* O_WRONLY|O_CREAT */
	STP_SC_WHENCE,		/* SEEK_SET */
	STP_SC_PROT,		/* PROT_READ|PROT_WRITE, PROT_NONE */
	STP_SC_MMAP_FLAGS,	/* MAP_PRIVATE|MAP_ANONYMOUS */
	STP_SC_ACCESS,		/* R_OK|W_OK, F_OK */
	STP_SC_AT_FLAGS,	/* AT_SYMLINK_NOFOLLOW */
	STP_SC_WAIT,		/* WNOHANG */
	STP_SC_CLONE,		/* CLONE_VM|..., the exit signal last */
	STP_SC_TIMESPEC,	/* user struct __kernel_timespec: [1.000000500] */
	STP_SC_SIGNAL,		/* SIGHUP, SIG_0 */
	STP_SC_CLOCK,		/* CLOCK_MONOTONIC */
	STP_SC_ARCH_PRCTL,	/* ARCH_SET_FS */
	STP_SC_GRND,		/* GRND_NONBLOCK */
	STP_SC_RLIMIT,		/* RLIMIT_STACK */
	STP_SC_SIGHOW,		/* SIG_SETMASK */
	STP_SC_SIGSET,		/* user sigset_t: [EMPTY], [SIGUSR1|SIGTERM] */
	STP_SC_SIGACTION,	/* user struct sigaction: {SIG_DFL}, {0x4010, SA_RESTART, 0x4020, [SIGUSR1]} */
	STP_SC_SOCK_FAMILY,	/* PF_INET, PF_LOCAL */
	STP_SC_SOCK_TYPE,	/* SOCK_STREAM|SOCK_CLOEXEC */
	STP_SC_SOCK_PROTO,	/* IPPROTO_UDP (of an AF_INET/AF_INET6 socket) */
	STP_SC_SOCK_FLAGS,	/* SOCK_NONBLOCK|SOCK_CLOEXEC (accept4) */
	STP_SC_MSG_FLAGS,	/* MSG_DONTWAIT|MSG_NOSIGNAL */
	STP_SC_SHUTDOWN,	/* SHUT_RDWR */
	STP_SC_FD_FLAGS,	/* O_CLOEXEC|O_NONBLOCK, no access mode (dup3, pipe2) */
	STP_SC_FCNTL_CMD,	/* F_GETFL */
	STP_SC_EFD_FLAGS,	/* EFD_CLOEXEC|EFD_NONBLOCK|EFD_SEMAPHORE */
	STP_SC_EPOLL_FLAGS,	/* EPOLL_CLOEXEC */
	STP_SC_EPOLL_OP,	/* EPOLL_CTL_ADD */
	STP_SC_MADVICE,		/* MADV_DONTNEED */
	STP_SC_FADVICE,		/* POSIX_FADV_SEQUENTIAL */
	STP_SC_FALLOC,		/* FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE */
	STP_SC_FDPAIR,		/* user int[2] (pipe's): [3, 4] */
	/* Flag words (tapset_syscall.c flag_kinds) */
	STP_SC_MCL,		/* MCL_CURRENT|MCL_FUTURE */
	STP_SC_MFD,		/* MFD_CLOEXEC|MFD_ALLOW_SEALING */
	STP_SC_TFD,		/* TFD_CLOEXEC|TFD_NONBLOCK */
	STP_SC_TFD_TIMER,	/* TFD_TIMER_ABSTIME */
	STP_SC_UMOUNT,		/* MNT_DETACH */
	STP_SC_MSYNC,		/* MS_ASYNC */
	STP_SC_MREMAP,		/* MREMAP_MAYMOVE */
	STP_SC_MLOCK,		/* MLOCK_ONFAULT */
	STP_SC_TIMER_FLAGS,	/* TIMER_ABSTIME */
	STP_SC_ACCESS_AT,	/* AT_EACCESS|AT_SYMLINK_NOFOLLOW (faccessat2) */
	STP_SC_RENAME,		/* RENAME_NOREPLACE */
	/* Selectors (tapset_syscall.c enum_kinds) */
	STP_SC_RUSAGE,		/* RUSAGE_CHILDREN */
	STP_SC_ITIMER,		/* ITIMER_PROF */
	STP_SC_SCHED_POLICY,	/* SCHED_FIFO */
	STP_SC_IDTYPE,		/* P_PID */
	STP_SC_PRIO_WHICH,	/* PRIO_PROCESS */
	STP_SC_MODE,		/* S_IFIFO|0600 */
	STP_SC_ITIMERSPEC,	/* user struct __kernel_itimerspec: [0.000000,1.500000] */
	STP_SC_ITIMERVAL,	/* user struct __kernel_old_itimerval: [0.000000,1.500000] */
	STP_SC_XATTR,		/* XATTR_CREATE */
	STP_SC_SOCKOPT_LEVEL,	/* SOL_SOCKET */
	STP_SC_SOCKOPT,		/* SO_TYPE: (level << 32) | optname */
	STP_SC_BPF_CMD,		/* BPF_MAP_CREATE */
	STP_SC_IPC_CMD,		/* IPC_RMID */
	STP_SC_IPC_FLAGS,	/* IPC_CREAT|IPC_EXCL|0600 */
	STP_SC_IPC_KEY,		/* IPC_PRIVATE */
	STP_SC_SPLICE,		/* SPLICE_F_MOVE|SPLICE_F_NONBLOCK */
	STP_SC_SYNC_RANGE,	/* SYNC_FILE_RANGE_WRITE */
	STP_SC_DELMOD,		/* O_TRUNC|O_NONBLOCK (delete_module) */
	/* More flag words (flag_kinds) */
	STP_SC_IN_INIT,		/* IN_NONBLOCK|IN_CLOEXEC (inotify_init1) */
	STP_SC_FAN_MARK,	/* FAN_MARK_ADD */
	STP_SC_FAN_MASK,	/* FAN_OPEN|FAN_ONDIR */
	STP_SC_INOTIFY_MASK,	/* IN_MODIFY|IN_CREATE */
	STP_SC_MODINIT,		/* MODULE_INIT_IGNORE_MODVERSIONS */
	STP_SC_MPOL_FLAGS,	/* MPOL_F_NODE (get_mempolicy) */
	STP_SC_MPOL_MF,		/* MPOL_MF_MOVE (mbind, move_pages) */
	STP_SC_MOUNT,		/* MS_RDONLY|MS_NOSUID */
	STP_SC_MSGFLG,		/* IPC_NOWAIT|MSG_NOERROR */
	STP_SC_SHMAT,		/* SHM_RDONLY */
	STP_SC_PERF,		/* PERF_FLAG_FD_CLOEXEC */
	STP_SC_PKEY,		/* PKEY_DISABLE_ACCESS */
	STP_SC_RWF,		/* RWF_NOWAIT */
	STP_SC_SECCOMP_FLAGS,	/* SECCOMP_FILTER_FLAG_TSYNC */
	STP_SC_KEXEC_FILE,	/* KEXEC_FILE_ON_CRASH */
	STP_SC_KEXEC,		/* KEXEC_ON_CRASH */
	STP_SC_FLOCK,		/* LOCK_EX|LOCK_NB */
	STP_SC_UFFD,		/* O_CLOEXEC|O_NONBLOCK (userfaultfd, memfd_secret) */
	/* More selectors (enum_kinds, sc_special_str) */
	STP_SC_FAN_INIT,	/* FAN_CLASS_NOTIF|FAN_CLOEXEC */
	STP_SC_FUTEX_OP,	/* FUTEX_WAIT_PRIVATE */
	STP_SC_TIME_STATE,	/* 5 (TIME_ERROR): adjtimex's return */
	STP_SC_PRCTL,		/* PR_GET_DUMPABLE */
	STP_SC_STATX_MASK,	/* 0x7ff: SystemTap 4.8 does not decode it */
	STP_SC_MPOL_MODE,	/* MPOL_BIND|MPOL_F_STATIC_NODES */
	STP_SC_IOPRIO_WHO,	/* IOPRIO_WHO_PROCESS */
	STP_SC_IOPRIO,		/* IOPRIO_CLASS_BE|4 */
	STP_SC_KCMP,		/* KCMP_FILE */
	STP_SC_MEMBARRIER,	/* MEMBARRIER_CMD_QUERY */
	STP_SC_SEM_CMD,		/* IPC_STAT, GETVAL */
	STP_SC_QUOTACTL,	/* Q_GETFMT|USRQUOTA */
	STP_SC_REBOOT_MAGIC,	/* LINUX_REBOOT_MAGIC1 */
	STP_SC_REBOOT_CMD,	/* LINUX_REBOOT_CMD_CAD_OFF */
	STP_SC_SECCOMP_OP,	/* SECCOMP_GET_ACTION_AVAIL */
	STP_SC_SWAPON,		/* SWAP_FLAG_PREFER|5 */
	/* More structs read from user memory */
	STP_SC_TIMEVAL,		/* struct __kernel_old_timeval */
	STP_SC_TIMEVAL2,	/* struct __kernel_old_timeval[2] (utimes) */
	STP_SC_TIMEZONE,	/* struct timezone */
	STP_SC_UTIMBUF,		/* struct utimbuf */
	STP_SC_RLIMIT_VAL,	/* struct rlimit: [cur,max] */
	STP_SC_SCHED_ATTR,	/* struct sched_attr */
	STP_SC_SYSINFO,		/* struct sysinfo */
	STP_SC_TMS,		/* struct tms */
	STP_SC_TIMEX,		/* struct __kernel_timex */
	STP_SC_STACK,		/* stack_t (sigaltstack) */
	STP_SC_SIGINFO,		/* siginfo_t */
	STP_SC_USER_DESC,	/* struct user_desc (get/set_thread_area) */
	/* More values */
	STP_SC_SIGHANDLER,	/* a signal handler: SIG_DFL, SIG_IGN, 0x8049010 */
	STP_SC_SIGSET_WORD,	/* an old_sigset_t in a word (sigsuspend, ssetmask): [SIGUSR1] */
};

/*
 * OR'd into a struct's kind: a 32-bit task's call reads it in its compat
 * layout (struct compat_sigaction, old_timespec32, compat_stack_t).
 */
#define STP_SC_COMPAT32 0x1000

/* What _stp_sc_sockaddr shows of a user struct sockaddr. */
enum stp_sc_sockaddr_part {
	STP_SC_SA_ALL,		/* argstr's: {AF_INET, 127.0.0.1, 54322} */
	STP_SC_SA_AF,		/* AF_INET */
	STP_SC_SA_IP,		/* 127.0.0.1, 0000:0000:0000:0000:0000:0000:0000:0001 */
	STP_SC_SA_PORT,		/* 54322 */
	STP_SC_SA_FLOWINFO,	/* of AF_INET6 */
	STP_SC_SA_SCOPE_ID,	/* of AF_INET6 */
};

#endif /* STP_SYSCALL_H */
