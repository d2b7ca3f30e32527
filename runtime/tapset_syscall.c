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
#include <linux/time.h>
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

static const struct stp_sc_flag fan_init_flags[] = {
	{ 0x1, "FAN_CLOEXEC" }, { 0x2, "FAN_NONBLOCK" }, { 0x10, "FAN_UNLIMITED_QUEUE" },
	{ 0x20, "FAN_UNLIMITED_MARKS" }, { 0x40, "FAN_ENABLE_AUDIT" }, { 0x80, "FAN_REPORT_PIDFD" },
	{ 0x100, "FAN_REPORT_TID" }, { 0x200, "FAN_REPORT_FID" }, { 0x400, "FAN_REPORT_DIR_FID" },
	{ 0x800, "FAN_REPORT_NAME" }, { 0x1000, "FAN_REPORT_TARGET_FID" }, { 0, NULL }
};
static const struct stp_sc_flag in_init_flags[] = {
	{ O_NONBLOCK, "IN_NONBLOCK" }, { O_CLOEXEC, "IN_CLOEXEC" }, { 0, NULL }
};
static const struct stp_sc_flag fan_mark_flags[] = {
	{ 0x1, "FAN_MARK_ADD" }, { 0x2, "FAN_MARK_REMOVE" }, { 0x4, "FAN_MARK_DONT_FOLLOW" },
	{ 0x8, "FAN_MARK_ONLYDIR" }, { 0x10, "FAN_MARK_MOUNT" }, { 0x20, "FAN_MARK_IGNORED_MASK" },
	{ 0x40, "FAN_MARK_IGNORED_SURV_MODIFY" }, { 0x80, "FAN_MARK_FLUSH" },
	{ 0x100, "FAN_MARK_FILESYSTEM" }, { 0x200, "FAN_MARK_EVICTABLE" },
	{ 0x400, "FAN_MARK_IGNORE" }, { 0, NULL }
};
static const struct stp_sc_flag fan_mask_flags[] = {
	{ 0x1, "FAN_ACCESS" }, { 0x2, "FAN_MODIFY" }, { 0x4, "FAN_ATTRIB" },
	{ 0x8, "FAN_CLOSE_WRITE" }, { 0x10, "FAN_CLOSE_NOWRITE" }, { 0x20, "FAN_OPEN" },
	{ 0x40, "FAN_MOVED_FROM" }, { 0x80, "FAN_MOVED_TO" }, { 0x100, "FAN_CREATE" },
	{ 0x200, "FAN_DELETE" }, { 0x400, "FAN_DELETE_SELF" }, { 0x800, "FAN_MOVE_SELF" },
	{ 0x1000, "FAN_OPEN_EXEC" }, { 0x4000, "FAN_Q_OVERFLOW" }, { 0x8000, "FAN_FS_ERROR" },
	{ 0x10000, "FAN_OPEN_PERM" }, { 0x20000, "FAN_ACCESS_PERM" },
	{ 0x40000, "FAN_OPEN_EXEC_PERM" }, { 0x08000000, "FAN_EVENT_ON_CHILD" },
	{ 0x10000000, "FAN_RENAME" }, { 0x40000000, "FAN_ONDIR" }, { 0, NULL }
};
static const struct stp_sc_flag inotify_flags[] = {
	{ 0x1, "IN_ACCESS" }, { 0x2, "IN_MODIFY" }, { 0x4, "IN_ATTRIB" },
	{ 0x8, "IN_CLOSE_WRITE" }, { 0x10, "IN_CLOSE_NOWRITE" }, { 0x20, "IN_OPEN" },
	{ 0x40, "IN_MOVED_FROM" }, { 0x80, "IN_MOVED_TO" }, { 0x100, "IN_CREATE" },
	{ 0x200, "IN_DELETE" }, { 0x400, "IN_DELETE_SELF" }, { 0x800, "IN_MOVE_SELF" },
	{ 0x2000, "IN_UNMOUNT" }, { 0x4000, "IN_Q_OVERFLOW" }, { 0x8000, "IN_IGNORED" },
	{ 0x01000000, "IN_ONLYDIR" }, { 0x02000000, "IN_DONT_FOLLOW" },
	{ 0x04000000, "IN_EXCL_UNLINK" }, { 0x10000000, "IN_MASK_CREATE" },
	{ 0x20000000, "IN_MASK_ADD" }, { 0x40000000, "IN_ISDIR" }, { 0x80000000, "IN_ONESHOT" },
	{ 0, NULL }
};
static const struct stp_sc_flag modinit_flags[] = {
	{ 1, "MODULE_INIT_IGNORE_MODVERSIONS" }, { 2, "MODULE_INIT_IGNORE_VERMAGIC" },
	{ 4, "MODULE_INIT_COMPRESSED_FILE" }, { 0, NULL }
};
static const struct stp_sc_flag mpol_flags[] = {
	{ 1, "MPOL_F_NODE" }, { 2, "MPOL_F_ADDR" }, { 4, "MPOL_F_MEMS_ALLOWED" }, { 0, NULL }
};
static const struct stp_sc_flag mpol_mf_flags[] = {
	{ 1, "MPOL_MF_STRICT" }, { 2, "MPOL_MF_MOVE" }, { 4, "MPOL_MF_MOVE_ALL" }, { 0, NULL }
};
static const struct stp_sc_flag mount_flags[] = {
	{ 1, "MS_RDONLY" }, { 2, "MS_NOSUID" }, { 4, "MS_NODEV" }, { 8, "MS_NOEXEC" },
	{ 16, "MS_SYNCHRONOUS" }, { 32, "MS_REMOUNT" }, { 64, "MS_MANDLOCK" },
	{ 128, "MS_DIRSYNC" }, { 256, "MS_NOSYMFOLLOW" }, { 1024, "MS_NOATIME" },
	{ 2048, "MS_NODIRATIME" }, { 4096, "MS_BIND" }, { 8192, "MS_MOVE" }, { 16384, "MS_REC" },
	{ 32768, "MS_SILENT" }, { 1 << 16, "MS_POSIXACL" }, { 1 << 17, "MS_UNBINDABLE" },
	{ 1 << 18, "MS_PRIVATE" }, { 1 << 19, "MS_SLAVE" }, { 1 << 20, "MS_SHARED" },
	{ 1 << 21, "MS_RELATIME" }, { 1 << 22, "MS_KERNMOUNT" }, { 1 << 23, "MS_I_VERSION" },
	{ 1 << 24, "MS_STRICTATIME" }, { 1 << 25, "MS_LAZYTIME" }, { 0, NULL }
};
static const struct stp_sc_flag msgflg_flags[] = {
	{ 04000, "IPC_NOWAIT" }, { 010000, "MSG_NOERROR" }, { 020000, "MSG_EXCEPT" },
	{ 040000, "MSG_COPY" }, { 0, NULL }
};
static const struct stp_sc_flag shmat_flags[] = {
	{ 010000, "SHM_RDONLY" }, { 020000, "SHM_RND" }, { 040000, "SHM_REMAP" },
	{ 0100000, "SHM_EXEC" }, { 0, NULL }
};
static const struct stp_sc_flag perf_flags[] = {
	{ 1, "PERF_FLAG_FD_NO_GROUP" }, { 2, "PERF_FLAG_FD_OUTPUT" }, { 4, "PERF_FLAG_PID_CGROUP" },
	{ 8, "PERF_FLAG_FD_CLOEXEC" }, { 0, NULL }
};
static const struct stp_sc_flag pkey_flags[] = {
	{ 1, "PKEY_DISABLE_ACCESS" }, { 2, "PKEY_DISABLE_WRITE" }, { 0, NULL }
};
static const struct stp_sc_flag rwf_flags[] = {
	{ 1, "RWF_HIPRI" }, { 2, "RWF_DSYNC" }, { 4, "RWF_SYNC" }, { 8, "RWF_NOWAIT" },
	{ 16, "RWF_APPEND" }, { 0, NULL }
};
static const struct stp_sc_flag seccomp_flags[] = {
	{ 1, "SECCOMP_FILTER_FLAG_TSYNC" }, { 2, "SECCOMP_FILTER_FLAG_LOG" },
	{ 4, "SECCOMP_FILTER_FLAG_SPEC_ALLOW" }, { 8, "SECCOMP_FILTER_FLAG_NEW_LISTENER" },
	{ 16, "SECCOMP_FILTER_FLAG_TSYNC_ESRCH" }, { 32, "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV" },
	{ 0, NULL }
};
static const struct stp_sc_flag kexec_file_flags[] = {
	{ 1, "KEXEC_FILE_UNLOAD" }, { 2, "KEXEC_FILE_ON_CRASH" }, { 4, "KEXEC_FILE_NO_INITRAMFS" },
	{ 0, NULL }
};
static const struct stp_sc_flag kexec_flags[] = {
	{ 1, "KEXEC_ON_CRASH" }, { 2, "KEXEC_PRESERVE_CONTEXT" }, { 0, NULL }
};
static const struct stp_sc_flag flock_flags[] = {
	{ 1, "LOCK_SH" }, { 2, "LOCK_EX" }, { 4, "LOCK_NB" }, { 8, "LOCK_UN" }, { 32, "LOCK_MAND" },
	{ 64, "LOCK_READ" }, { 128, "LOCK_WRITE" }, { 0, NULL }
};
static const struct stp_sc_flag uffd_flags[] = {
	{ O_NONBLOCK, "O_NONBLOCK" }, { O_CLOEXEC, "O_CLOEXEC" }, { 1, "UFFD_USER_MODE_ONLY" },
	{ 0, NULL }
};

static const struct { int kind; const struct stp_sc_flag *flags; } flag_kinds[] = {
	{ STP_SC_IN_INIT, in_init_flags }, { STP_SC_FAN_MARK, fan_mark_flags },
	{ STP_SC_FAN_MASK, fan_mask_flags }, { STP_SC_INOTIFY_MASK, inotify_flags },
	{ STP_SC_MODINIT, modinit_flags }, { STP_SC_MPOL_FLAGS, mpol_flags },
	{ STP_SC_MPOL_MF, mpol_mf_flags }, { STP_SC_MOUNT, mount_flags },
	{ STP_SC_MSGFLG, msgflg_flags }, { STP_SC_SHMAT, shmat_flags }, { STP_SC_PERF, perf_flags },
	{ STP_SC_PKEY, pkey_flags }, { STP_SC_RWF, rwf_flags },
	{ STP_SC_SECCOMP_FLAGS, seccomp_flags }, { STP_SC_KEXEC_FILE, kexec_file_flags },
	{ STP_SC_KEXEC, kexec_flags },
	{ STP_SC_UFFD, uffd_flags }, { STP_SC_FLOCK, flock_flags },
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
static const char *const sem_cmd[] = {
	"IPC_RMID", "IPC_SET", "IPC_STAT", "IPC_INFO", NULL, NULL, NULL, NULL, NULL, NULL,
	NULL, "GETPID", "GETVAL", "GETALL", "GETNCNT", "GETZCNT", "SETVAL", "SETALL",
	"SEM_STAT", "SEM_INFO", "SEM_STAT_ANY",
};
static const char *const ioprio_who[] = { "IOPRIO_WHO_PROCESS", "IOPRIO_WHO_PGRP",
					  "IOPRIO_WHO_USER" };
static const char *const kcmp_type[] = { "KCMP_FILE", "KCMP_VM", "KCMP_FILES", "KCMP_FS",
					 "KCMP_SIGHAND", "KCMP_IO", "KCMP_SYSVSEM",
					 "KCMP_EPOLL_TFD" };
static const char *const seccomp_op[] = { "SECCOMP_SET_MODE_STRICT", "SECCOMP_SET_MODE_FILTER",
					  "SECCOMP_GET_ACTION_AVAIL",
					  "SECCOMP_GET_NOTIF_SIZES" };

static const struct {
	int kind, first;
	const char *const *names;
	size_t n;
} enum_kinds[] = {
	{ STP_SC_BPF_CMD, 0, bpf_cmd, ARRAY_SIZE(bpf_cmd) },
	{ STP_SC_IPC_CMD, 0, ipc_cmd, ARRAY_SIZE(ipc_cmd) },
	{ STP_SC_SEM_CMD, 0, sem_cmd, ARRAY_SIZE(sem_cmd) },
	{ STP_SC_IOPRIO_WHO, 1, ioprio_who, ARRAY_SIZE(ioprio_who) },
	{ STP_SC_KCMP, 0, kcmp_type, ARRAY_SIZE(kcmp_type) },
	{ STP_SC_SECCOMP_OP, 0, seccomp_op, ARRAY_SIZE(seccomp_op) },
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

/*
 * A signal set as SystemTap shows one: [EMPTY], or its members among the
 * 30 classic signals joined by '|', in this order (SIGPIPE before
 * SIGUSR2; no SIGSTKFLT and no real-time signals: reference-stap's
 * output for a full mask), in the @size bytes at @dst (a part of a
 * string being built: its room left).
 */
static void sigset_strn(char *dst, size_t size, u64 set)
{
	static const struct { u8 sig; const char *name; } sigs[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
		{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGPIPE, "SIGPIPE" },
		{ SIGUSR2, "SIGUSR2" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
		{ SIGCHLD, "SIGCHLD" }, { SIGCONT, "SIGCONT" }, { SIGSTOP, "SIGSTOP" },
		{ SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" }, { SIGTTOU, "SIGTTOU" },
		{ SIGURG, "SIGURG" }, { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
		{ SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" }, { SIGWINCH, "SIGWINCH" },
		{ SIGIO, "SIGIO/SIGPOLL" }, { SIGPWR, "SIGPWR" }, { SIGSYS, "SIGSYS" },
	};
	size_t len, i;

	if (!set) {
		strscpy(dst, "[EMPTY]", size);
		return;
	}
	len = scnprintf(dst, size, "[");
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		if (set & (1ULL << (sigs[i].sig - 1)))
			len += scnprintf(dst + len, size - len, "%s%s", len > 1 ? "|" : "",
					 sigs[i].name);
	scnprintf(dst + len, size - len, "]");
}

static void sigset_str(char *dst, u64 set)
{
	sigset_strn(dst, MAXSTRINGLEN, set);
}

/* struct sigaction as argstr shows it: {SIG_DFL}, {0x4010, SA_RESTART, 0x4020, [SIGUSR1]} */
static void sigaction_str(char *dst, unsigned long handler, unsigned long flags,
			  unsigned long restorer, u64 mask);

/* An interval and a value (struct itimerval, itimerspec: div 1000) in microseconds. */
static void itimer_str(char *dst, const long long *t, int div)
{
	scnprintf(dst, MAXSTRINGLEN, "[%lld.%06lld,%lld.%06lld]", t[0], t[1] / div, t[2],
		  t[3] / div);
}

/* The name of value v in names[] (NULL holes allowed), else v in decimal. */
static void enum_str(char *dst, int64_t v, const char *const *names, size_t n)
{
	if (v >= 0 && (uint64_t)v < n && names[v])
		strscpy(dst, names[v], MAXSTRINGLEN);
	else
		scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
}

/*
 * Names of the bits of v joined by '|', what is left in hex after them,
 * in the @size bytes at @dst.
 */
static void flag_strn(char *dst, size_t size, unsigned long v, const struct stp_sc_flag *t,
		      const char *first)
{
	size_t len = 0;

	dst[0] = '\0';
	if (first)
		len = strscpy(dst, first, size) > 0 ? strlen(dst) : 0;
	for (; t->name; t++) {
		if (!(v & t->bit) || (v & t->bit) != t->bit)
			continue;
		v &= ~t->bit;
		len += scnprintf(dst + len, size - len, "%s%s", len ? "|" : "", t->name);
	}
	if (v || !len)
		scnprintf(dst + len, size - len, "%s0x%lx", len ? "|" : "", v);
}

static void flag_str(char *dst, unsigned long v, const struct stp_sc_flag *t,
		     const char *first)
{
	flag_strn(dst, MAXSTRINGLEN, v, t, first);
}

static void sigaction_str(char *dst, unsigned long handler, unsigned long flags,
			  unsigned long restorer, u64 mask)
{
	size_t len;

	if (handler == (unsigned long)SIG_DFL || handler == (unsigned long)SIG_IGN) {
		strscpy(dst, handler ? "{SIG_IGN}" : "{SIG_DFL}", MAXSTRINGLEN);
		return;
	}
	/* Each part gets the room left: a full mask alone fills a string. */
	len = scnprintf(dst, MAXSTRINGLEN, "{0x%lx, ", handler);
	flag_strn(dst + len, MAXSTRINGLEN - len, flags, sa_flags, NULL);
	len = strlen(dst);
	len += scnprintf(dst + len, MAXSTRINGLEN - len, ", 0x%lx, ", restorer);
	sigset_strn(dst + len, MAXSTRINGLEN - len, mask);
	len = strlen(dst);
	scnprintf(dst + len, MAXSTRINGLEN - len, "}");
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

/* Selectors with flags or parts beside the name; false if kind is not one. */
static bool sc_special_str(char *dst, int kind, int64_t v)
{
	static const char *const mpol_mode[] = { "MPOL_DEFAULT", "MPOL_PREFERRED", "MPOL_BIND",
						 "MPOL_INTERLEAVE", "MPOL_LOCAL",
						 "MPOL_PREFERRED_MANY" };
	static const struct stp_sc_flag mpol_mode_flags[] = {
		{ 1 << 15, "MPOL_F_STATIC_NODES" }, { 1 << 14, "MPOL_F_RELATIVE_NODES" },
		{ 1 << 13, "MPOL_F_NUMA_BALANCING" }, { 0, NULL }
	};
	static const char *const ioprio_class[] = { "IOPRIO_CLASS_NONE", "IOPRIO_CLASS_RT",
						    "IOPRIO_CLASS_BE", "IOPRIO_CLASS_IDLE" };
	static const struct { int64_t v; const char *name; } named[] = {
		{ 0xfee1dead, "LINUX_REBOOT_MAGIC1" }, { 672274793, "LINUX_REBOOT_MAGIC2" },
		{ 85072278, "LINUX_REBOOT_MAGIC2A" }, { 369367448, "LINUX_REBOOT_MAGIC2B" },
		{ 537993216, "LINUX_REBOOT_MAGIC2C" },
	};
	static const struct { unsigned int v; const char *name; } reboot_cmd[] = {
		{ 0x01234567, "LINUX_REBOOT_CMD_RESTART" }, { 0xCDEF0123, "LINUX_REBOOT_CMD_HALT" },
		{ 0x89ABCDEF, "LINUX_REBOOT_CMD_CAD_ON" }, { 0x00000000, "LINUX_REBOOT_CMD_CAD_OFF" },
		{ 0x4321FEDC, "LINUX_REBOOT_CMD_POWER_OFF" },
		{ 0xA1B2C3D4, "LINUX_REBOOT_CMD_RESTART2" },
		{ 0xD000FCE2, "LINUX_REBOOT_CMD_SW_SUSPEND" }, { 0x45584543, "LINUX_REBOOT_CMD_KEXEC" },
	};
	static const char *const membarrier[] = {
		"MEMBARRIER_CMD_GLOBAL", "MEMBARRIER_CMD_GLOBAL_EXPEDITED",
		"MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED", "MEMBARRIER_CMD_PRIVATE_EXPEDITED",
		"MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED",
		"MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE",
		"MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE",
		"MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ",
		"MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ",
	};
	static const char *const qcmd[] = { NULL, "Q_SYNC", "Q_QUOTAON", "Q_QUOTAOFF",
					    "Q_GETFMT", "Q_GETINFO", "Q_SETINFO", "Q_GETQUOTA",
					    "Q_SETQUOTA", "Q_GETNEXTQUOTA" };
	static const char *const qtype[] = { "USRQUOTA", "GRPQUOTA", "PRJQUOTA" };
	char part[64];
	size_t len, i;

	switch (kind) {
	case STP_SC_FAN_INIT: {
		/* the notification class (a field), then the flags */
		static const char *const cls[] = { "FAN_CLASS_NOTIF", "FAN_CLASS_CONTENT",
						   "FAN_CLASS_PRE_CONTENT", NULL };

		enum_str(part, (v >> 2) & 3, cls, ARRAY_SIZE(cls));
		flag_str(dst, (unsigned int)v & ~0xcU, fan_init_flags, part);
		return true;
	}
	case STP_SC_FUTEX_OP: {
		/* the command, _PRIVATE, then |FUTEX_CLOCK_REALTIME */
		static const char *const ops[] = {
			"FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_FD", "FUTEX_REQUEUE",
			"FUTEX_CMP_REQUEUE", "FUTEX_WAKE_OP", "FUTEX_LOCK_PI", "FUTEX_UNLOCK_PI",
			"FUTEX_TRYLOCK_PI", "FUTEX_WAIT_BITSET", "FUTEX_WAKE_BITSET",
			"FUTEX_WAIT_REQUEUE_PI", "FUTEX_CMP_REQUEUE_PI", "FUTEX_LOCK_PI2",
		};

		enum_str(dst, v & 0x7f, ops, ARRAY_SIZE(ops));
		len = strlen(dst);
		if (v & 128)
			len += scnprintf(dst + len, MAXSTRINGLEN - len, "_PRIVATE");
		if (v & 256)
			scnprintf(dst + len, MAXSTRINGLEN - len, "|FUTEX_CLOCK_REALTIME");
		return true;
	}
	case STP_SC_TIME_STATE: {
		/* adjtimex's return: the clock state */
		static const char *const st[] = { "TIME_OK", "TIME_INS", "TIME_DEL", "TIME_OOP",
						  "TIME_WAIT", "TIME_ERROR" };

		if (v >= 0 && v < (int64_t)ARRAY_SIZE(st))
			scnprintf(dst, MAXSTRINGLEN, "%lld (%s)", (long long)v, st[v]);
		else
			scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
		return true;
	}
	case STP_SC_PRCTL: {
		static const char *const opt[] = {
			NULL, "PR_SET_PDEATHSIG", "PR_GET_PDEATHSIG", "PR_GET_DUMPABLE",
			"PR_SET_DUMPABLE", "PR_GET_UNALIGN", "PR_SET_UNALIGN", "PR_GET_KEEPCAPS",
			"PR_SET_KEEPCAPS", "PR_GET_FPEMU", "PR_SET_FPEMU", "PR_GET_FPEXC",
			"PR_SET_FPEXC", "PR_GET_TIMING", "PR_SET_TIMING", "PR_SET_NAME",
			"PR_GET_NAME", NULL, NULL, "PR_GET_ENDIAN", "PR_SET_ENDIAN",
			"PR_GET_SECCOMP", "PR_SET_SECCOMP", "PR_CAPBSET_READ", "PR_CAPBSET_DROP",
			"PR_GET_TSC", "PR_SET_TSC", "PR_GET_SECUREBITS", "PR_SET_SECUREBITS",
			"PR_SET_TIMERSLACK", "PR_GET_TIMERSLACK", "PR_TASK_PERF_EVENTS_DISABLE",
			"PR_TASK_PERF_EVENTS_ENABLE", "PR_MCE_KILL", "PR_MCE_KILL_GET",
			"PR_SET_MM", "PR_SET_CHILD_SUBREAPER", "PR_GET_CHILD_SUBREAPER",
			"PR_SET_NO_NEW_PRIVS", "PR_GET_NO_NEW_PRIVS", "PR_GET_TID_ADDRESS",
			"PR_SET_THP_DISABLE", "PR_GET_THP_DISABLE", "PR_MPX_ENABLE_MANAGEMENT",
			"PR_MPX_DISABLE_MANAGEMENT", "PR_SET_FP_MODE", "PR_GET_FP_MODE",
			"PR_CAP_AMBIENT", NULL, NULL, "PR_SVE_SET_VL", "PR_SVE_GET_VL",
			"PR_GET_SPECULATION_CTRL", "PR_SET_SPECULATION_CTRL", "PR_PAC_RESET_KEYS",
			"PR_SET_TAGGED_ADDR_CTRL", "PR_GET_TAGGED_ADDR_CTRL", "PR_SET_IO_FLUSHER",
			"PR_GET_IO_FLUSHER",
		};

		if (v == 0x59616d61)
			strscpy(dst, "PR_SET_PTRACER", MAXSTRINGLEN);
		else
			enum_str(dst, v, opt, ARRAY_SIZE(opt));
		return true;
	}
	case STP_SC_STATX_MASK:
		/* SystemTap 4.8 shows the mask as it is */
		scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)(unsigned int)v);
		return true;
	case STP_SC_MPOL_MODE:
		enum_str(part, v & 0xfff, mpol_mode, ARRAY_SIZE(mpol_mode));
		flag_str(dst, v & ~0xfffULL, mpol_mode_flags, part);
		return true;
	case STP_SC_IOPRIO:
		/* class << 13 | data */
		enum_str(part, (v >> 13) & 7, ioprio_class, ARRAY_SIZE(ioprio_class));
		scnprintf(dst, MAXSTRINGLEN, "%s|%lld", part, (long long)(v & 0x1fff));
		return true;
	case STP_SC_MEMBARRIER:
		if (!v) {
			strscpy(dst, "MEMBARRIER_CMD_QUERY", MAXSTRINGLEN);
			return true;
		}
		for (i = 0; i < ARRAY_SIZE(membarrier); i++)
			if (v == 1LL << i) {
				strscpy(dst, membarrier[i], MAXSTRINGLEN);
				return true;
			}
		scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
		return true;
	case STP_SC_QUOTACTL: {
		/* QCMD(cmd, type): cmd << 8 | type, cmd 0x8000NN (Q_NN) */
		unsigned int cmd = (unsigned int)v >> 8;

		if ((cmd & ~0xffu) == 0x800000 && (cmd & 0xff) < ARRAY_SIZE(qcmd) &&
		    qcmd[cmd & 0xff])
			strscpy(part, qcmd[cmd & 0xff], sizeof(part));
		else
			scnprintf(part, sizeof(part), "0x%x", cmd);
		len = scnprintf(dst, MAXSTRINGLEN, "%s|", part);
		enum_str(dst + len, v & 0xff, qtype, ARRAY_SIZE(qtype));
		return true;
	}
	case STP_SC_REBOOT_MAGIC:
		for (i = 0; i < ARRAY_SIZE(named); i++)
			if ((unsigned int)v == named[i].v) {
				strscpy(dst, named[i].name, MAXSTRINGLEN);
				return true;
			}
		scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)(unsigned int)v);
		return true;
	case STP_SC_REBOOT_CMD:
		for (i = 0; i < ARRAY_SIZE(reboot_cmd); i++)
			if ((unsigned int)v == reboot_cmd[i].v) {
				strscpy(dst, reboot_cmd[i].name, MAXSTRINGLEN);
				return true;
			}
		scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)(unsigned int)v);
		return true;
	case STP_SC_SWAPON: {
		static const struct stp_sc_flag swap_flags[] = {
			{ 0x10000, "SWAP_FLAG_DISCARD" }, { 0x20000, "SWAP_FLAG_DISCARD_ONCE" },
			{ 0x40000, "SWAP_FLAG_DISCARD_PAGES" }, { 0, NULL }
		};

		/* SWAP_FLAG_PREFER with its priority, then the others */
		len = 0;
		if (v & 0x8000)
			len = scnprintf(dst, MAXSTRINGLEN, "SWAP_FLAG_PREFER|%lld",
					(long long)(v & 0x7fff));
		if (!(v & ~0xffffULL) && len)
			return true;
		flag_strn(dst + len + !!len, MAXSTRINGLEN - len - !!len, v & ~0xffffULL,
			  swap_flags, NULL);
		if (len)
			dst[len] = '|';
		return true;
	}
	}
	return false;
}

/* ADJ_* of struct timex's modes */
static const struct stp_sc_flag adj_flags[] = {
	{ 0xa001, "ADJ_OFFSET_SS_READ" }, { 0x8001, "ADJ_OFFSET_SINGLESHOT" },
	{ 0x0001, "ADJ_OFFSET" }, { 0x0002, "ADJ_FREQUENCY" }, { 0x0004, "ADJ_MAXERROR" },
	{ 0x0008, "ADJ_ESTERROR" }, { 0x0010, "ADJ_STATUS" }, { 0x0020, "ADJ_TIMECONST" },
	{ 0x0080, "ADJ_TAI" }, { 0x0100, "ADJ_SETOFFSET" }, { 0x1000, "ADJ_MICRO" },
	{ 0x2000, "ADJ_NANO" }, { 0x4000, "ADJ_TICK" }, { 0, NULL }
};

/* prefix, then time t as ctime(3) writes it ("Thu Jan  1 00:00:07 1970"). */
static size_t sc_ctime(char *dst, size_t size, const char *prefix, long long t)
{
	static const char *const day[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
					   "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;

	time64_to_tm(t, 0, &tm);
	return scnprintf(dst, size, "%s%s %s %2d %02d:%02d:%02d %ld", prefix, day[tm.tm_wday],
			 mon[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
			 tm.tm_year + 1900);
}

/* A timespec or timeval at t as argstr shows it: [s.fraction], digits decimals. */
static size_t sc_time_str(char *dst, size_t size, const long long *t, int digits)
{
	return scnprintf(dst, size, "[%lld.%0*lld]", t[0], digits, t[1]);
}

/* A struct read from user memory, in its x86-64 layout. */
union sc_struct {
	long long l[26];
	int i[52];
	unsigned char b[208];
};

static void sc_struct_fmt(char *dst, int kind, const union sc_struct *p);

/* Structs read from user memory (STP_SC_TIMEVAL on): NULL, the address if unreadable. */
static void sc_struct_str(char *dst, int kind, int64_t v)
{
	static const size_t sizes[] = {
		[STP_SC_TIMEVAL - STP_SC_TIMEVAL] = 16, [STP_SC_TIMEVAL2 - STP_SC_TIMEVAL] = 32,
		[STP_SC_TIMEZONE - STP_SC_TIMEVAL] = 8, [STP_SC_UTIMBUF - STP_SC_TIMEVAL] = 16,
		[STP_SC_RLIMIT_VAL - STP_SC_TIMEVAL] = 16,
		[STP_SC_SCHED_ATTR - STP_SC_TIMEVAL] = 56, [STP_SC_SYSINFO - STP_SC_TIMEVAL] = 112,
		[STP_SC_TMS - STP_SC_TIMEVAL] = 32, [STP_SC_TIMEX - STP_SC_TIMEVAL] = 208,
		[STP_SC_STACK - STP_SC_TIMEVAL] = 24, [STP_SC_SIGINFO - STP_SC_TIMEVAL] = 128,
		[STP_SC_USER_DESC - STP_SC_TIMEVAL] = 16,
	};
	union sc_struct u;

	if (kind - STP_SC_TIMEVAL >= (int)ARRAY_SIZE(sizes)) {
		scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		return;
	}
	if (!v) {
		strscpy(dst, "NULL", MAXSTRINGLEN);
		return;
	}
	memset(&u, 0, sizeof(u));
	if (copy_from_user_nofault(&u, (void __user *)(unsigned long)v,
				   sizes[kind - STP_SC_TIMEVAL])) {
		scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		return;
	}
	sc_struct_fmt(dst, kind, &u);
}

/* A struct of sc_struct_str's kinds, in its x86-64 layout at *p, as argstr shows it. */
static void sc_struct_fmt(char *dst, int kind, const union sc_struct *p)
{
	size_t len;

	switch (kind) {
	case STP_SC_TIMEVAL:
		sc_time_str(dst, MAXSTRINGLEN, p->l, 6);
		return;
	case STP_SC_TIMEVAL2:
		len = sc_time_str(dst, MAXSTRINGLEN, p->l, 6);
		sc_time_str(dst + len, MAXSTRINGLEN - len, p->l + 2, 6);
		return;
	case STP_SC_TIMEZONE:
		scnprintf(dst, MAXSTRINGLEN, "[%d, %d]", p->i[0], p->i[1]);
		return;
	case STP_SC_UTIMBUF:
		/* as ctime(3) writes them */
		len = sc_ctime(dst, MAXSTRINGLEN, "[", p->l[0]);
		len += sc_ctime(dst + len, MAXSTRINGLEN - len, ", ", p->l[1]);
		scnprintf(dst + len, MAXSTRINGLEN - len, "]");
		return;
	case STP_SC_RLIMIT_VAL:
		scnprintf(dst, MAXSTRINGLEN, "[%lld,%lld]", p->l[0], p->l[1]);
		return;
	case STP_SC_SCHED_ATTR: {
		/* size, policy (u32), flags (u64), nice (s32), priority (u32), runtime,
		 * deadline, period (u64) */
		unsigned long long flags, rt[3];

		memcpy(&flags, p->b + 8, 8);
		memcpy(rt, p->b + 24, 24);
		scnprintf(dst, MAXSTRINGLEN, "{size=%u, sched_policy=%u, sched_flags=%llu, "
			  "sched_nice=%d, sched_priority=%u, sched_runtime=%llu, "
			  "sched_deadline=%llu, sched_period=%llu}", p->i[0], p->i[1], flags,
			  p->i[4], p->i[5], rt[0], rt[1], rt[2]);
		return;
	}
	case STP_SC_SYSINFO:
		scnprintf(dst, MAXSTRINGLEN, "{uptime=%lld, loads=[%llu, %llu, %llu], "
			  "totalram=%llu, freeram=%llu, sharedram=%llu, bufferram=%llu, "
			  "totalswap=%llu, freeswap=%llu, procs=%u}", p->l[0], p->l[1], p->l[2],
			  p->l[3], p->l[4], p->l[5], p->l[6], p->l[7], p->l[8], p->l[9],
			  (unsigned int)(p->l[10] & 0xffff));
		return;
	case STP_SC_TMS:
		scnprintf(dst, MAXSTRINGLEN, "{tms_utime=%lld, tms_stime=%lld, tms_cutime=%lld, "
			  "tms_cstime=%lld}", p->l[0], p->l[1], p->l[2], p->l[3]);
		return;
	case STP_SC_TIMEX:
		/* struct __kernel_timex: modes (u32), offset, freq, maxerror, esterror,
		 * status (s32), constant, precision, tolerance, time (16 bytes), tick;
		 * the modes, then the fields by name, as SystemTap 4.8 */
		flag_str(dst, p->i[0], adj_flags, NULL);
		len = strlen(dst);
		scnprintf(dst + len, MAXSTRINGLEN - len, ", constant=%lld, esterror=%lld, "
			  "freq=%lld, maxerror=%lld, offset=%lld, precision=%lld, status=%d, "
			  "tick=%lld, tolerance=%lld}", p->l[6], p->l[4], p->l[2], p->l[3], p->l[1],
			  p->l[7], p->i[10], p->l[11], p->l[8]);
		memmove(dst + 1, dst, strlen(dst) + 1);
		dst[0] = '{';
		return;
	case STP_SC_STACK: {
		static const struct stp_sc_flag ss_flags[] = {
			{ 1, "SS_ONSTACK" }, { 2, "SS_DISABLE" }, { 0x80000000, "SS_AUTODISARM" },
			{ 0, NULL }
		};
		char f[64];

		flag_strn(f, sizeof(f), (unsigned int)p->i[2], ss_flags, NULL);
		scnprintf(dst, MAXSTRINGLEN, "{ss_sp=0x%llx, ss_flags=%s, ss_size=%lld}",
			  p->l[0], f, p->l[2]);
		return;
	}
	case STP_SC_SIGINFO: {
		static const char *const codes[] = { "SI_USER", "SI_QUEUE", "SI_TIMER",
						     "SI_MESGQ", "SI_ASYNCIO", "SI_SIGIO",
						     "SI_TKILL", "SI_DETHREAD", NULL,
						     "SI_ASYNCNL" };
		char sig[32], code[32];
		int c = p->i[2];

		_stp_sc_decode(sig, STP_SC_SIGNAL, p->i[0]);
		if (c == 0x80)
			strscpy(code, "SI_KERNEL", sizeof(code));
		else if (c <= 0 && -c < (int)ARRAY_SIZE(codes) && codes[-c])
			strscpy(code, codes[-c], sizeof(code));
		else
			scnprintf(code, sizeof(code), "%d", c);
		/* the sender's pid and uid (at offsets 16 and 20) */
		scnprintf(dst, MAXSTRINGLEN, "{si_signo=%s, si_code=%s, si_pid=%d, si_uid=%u}",
			  sig, code, p->i[4], (unsigned int)p->i[5]);
		return;
	}
	case STP_SC_USER_DESC: {
		/* entry, base, limit, then the bit fields in one word */
		unsigned int f = p->i[3];

		scnprintf(dst, MAXSTRINGLEN, "{entry_number=%u, base_addr=%u, limit=%u, "
			  "seg_32bit=%u, contents=%u, read_exec_only=%u, limit_in_pages=%u, "
			  "seg_not_present=%u, useable=%u, lm=%u}", (unsigned int)p->i[0],
			  (unsigned int)p->i[1], (unsigned int)p->i[2], f & 1, (f >> 1) & 3,
			  (f >> 3) & 1, (f >> 4) & 1, (f >> 5) & 1, (f >> 6) & 1, (f >> 7) & 1);
		return;
	}
	}
}

/*
 * A struct a 32-bit task's call reads in its compat layout (kind without
 * STP_SC_COMPAT32): read as 32-bit words and widened into the x86-64
 * layout, shown as that is.  A kind without a compat layout here shows
 * its address.
 */
static void sc_compat_str(char *dst, int kind, int64_t v)
{
	static const struct { int kind; size_t size; } sizes[] = {
		{ STP_SC_SIGACTION, 20 }, { STP_SC_SIGSET, 8 }, { STP_SC_SIGINFO, 20 },
		{ STP_SC_TIMESPEC, 8 }, { STP_SC_TIMEVAL, 8 }, { STP_SC_TIMEVAL2, 16 },
		{ STP_SC_ITIMERSPEC, 16 }, { STP_SC_ITIMERVAL, 16 }, { STP_SC_UTIMBUF, 8 },
		{ STP_SC_RLIMIT_VAL, 8 }, { STP_SC_STACK, 12 }, { STP_SC_TMS, 16 },
		{ STP_SC_SYSINFO, 64 }, { STP_SC_TIMEX, 48 },
	};
	union sc_struct u;
	u32 w[16];
	size_t i, size = 0;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		if (sizes[i].kind == kind)
			size = sizes[i].size;
	if (!v) {
		strscpy(dst, "NULL", MAXSTRINGLEN);
		return;
	}
	memset(w, 0, sizeof(w));
	if (!size || copy_from_user_nofault(w, (void __user *)(unsigned long)v, size)) {
		scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		return;
	}
	memset(&u, 0, sizeof(u));
	switch (kind) {
	case STP_SC_SIGACTION:	/* handler, flags, restorer, mask[2] */
		sigaction_str(dst, w[0], w[1], w[2], w[3] | (u64)w[4] << 32);
		return;
	case STP_SC_SIGSET:	/* two words, low first: a u64's layout */
		sigset_str(dst, w[0] | (u64)w[1] << 32);
		return;
	case STP_SC_TIMESPEC:
		scnprintf(dst, MAXSTRINGLEN, "[%d.%09d]", (s32)w[0], (s32)w[1]);
		return;
	case STP_SC_ITIMERSPEC:
	case STP_SC_ITIMERVAL: {
		long long t[4] = { (s32)w[0], (s32)w[1], (s32)w[2], (s32)w[3] };

		itimer_str(dst, t, kind == STP_SC_ITIMERSPEC ? 1000 : 1);
		return;
	}
	case STP_SC_SIGINFO:	/* signo, errno, code, then the sender's pid and uid */
		u.i[0] = w[0];
		u.i[2] = w[2];
		u.i[4] = w[3];
		u.i[5] = w[4];
		break;
	case STP_SC_STACK:	/* ss_sp, ss_flags, ss_size */
		u.l[0] = w[0];
		u.i[2] = w[1];
		u.l[2] = w[2];
		break;
	case STP_SC_RLIMIT_VAL:	/* COMPAT_RLIM_INFINITY is RLIM_INFINITY to the kernel */
		for (i = 0; i < 2; i++)
			u.l[i] = w[i] == 0xffffffff ? -1LL : w[i];
		break;
	case STP_SC_SYSINFO:	/* uptime, loads[3], six sizes, procs (u16) */
		u.l[0] = (s32)w[0];
		for (i = 1; i < 10; i++)
			u.l[i] = w[i];
		u.l[10] = w[10] & 0xffff;
		break;
	case STP_SC_TIMEX:	/* struct old_timex32: modes, then words as timex's longs */
		for (i = 1; i < 12; i++)
			u.l[i] = (s32)w[i];
		u.i[0] = w[0];
		u.i[10] = w[5];	/* status, an int */
		break;
	default:		/* time pairs and struct tms: signed words */
		for (i = 0; i < size / 4; i++)
			u.l[i] = (s32)w[i];
		break;
	}
	sc_struct_fmt(dst, kind, &u);
}

void _stp_sc_decode(char *dst, int kind, int64_t v)
{
	static const char *const whence[] = { "SEEK_SET", "SEEK_CUR", "SEEK_END",
					      "SEEK_DATA", "SEEK_HOLE" };
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR" };
	size_t i;

	if (kind & STP_SC_COMPAT32) {
		sc_compat_str(dst, kind & ~STP_SC_COMPAT32, v);
		return;
	}
	switch (kind) {
	case STP_SC_SIGHANDLER:
		if (v == (long)SIG_DFL || v == (long)SIG_IGN)
			strscpy(dst, v ? "SIG_IGN" : "SIG_DFL", MAXSTRINGLEN);
		else
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		return;
	case STP_SC_SIGSET_WORD:
		sigset_str(dst, (u32)v);
		return;
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
			len = strlen(dst);	/* "0x0|SIGCHLD" without flags, as SystemTap 4.8 */
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

		if (!v) {
			strscpy(dst, "NULL", MAXSTRINGLEN);
		} else if (copy_from_user_nofault(&sa, (void __user *)(unsigned long)v,
						  sizeof(sa))) {
			scnprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)v);
		} else {
			sigaction_str(dst, sa.handler, sa.flags, sa.restorer, sa.mask);
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
			itimer_str(dst, t, div);
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
		if (kind >= STP_SC_TIMEVAL) {
			sc_struct_str(dst, kind, v);
			return;
		}
		if (sc_special_str(dst, kind, v))
			return;
		break;
	}
	for (i = 0; i < ARRAY_SIZE(flag_kinds); i++)
		if (flag_kinds[i].kind == kind) {
			flag_str(dst, (unsigned int)v, flag_kinds[i].flags, NULL);
			return;
		}
	for (i = 0; i < ARRAY_SIZE(enum_kinds); i++)
		if (enum_kinds[i].kind == kind) {
			int64_t k = v - enum_kinds[i].first;

			/* a value outside the table in decimal, as it is */
			if (k >= 0 && (uint64_t)k < enum_kinds[i].n && enum_kinds[i].names[k])
				strscpy(dst, enum_kinds[i].names[k], MAXSTRINGLEN);
			else
				scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
			return;
		}
	scnprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
}
