// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The system call probe aliases, generated from the target kernel
 * (sc_ prefix): syscall.NAME, syscall.NAME.return, nd_syscall.NAME and
 * nd_syscall.NAME.return for every system call the kernel has, and
 * syscall_any / syscall_any.return.
 *
 * Nothing here lists system calls by hand.  The set is the kernel's
 * x86-64 table (its build tree's asm/syscalls_64.h, else its __x64_sys_*
 * symbols); each call's arguments (names and types) are the
 * parameters of its __do_sys_NAME (else __se_sys_NAME) in the kernel's
 * DWARF index.  From them come the variables (`fd`, `filename` and
 * `filename_unquoted` for a user string, `buf_uaddr` for other
 * pointers, `flags_str` where a decoder applies) and argstr, formatted by
 * type.  Small tables hold what cannot be derived: SystemTap's names for
 * a few calls (pread64 is syscall.pread) and arguments (munmap's addr is
 * `start`), and which arguments have a decoder (open flags, AT_FDCWD,
 * SEEK_*, PROT_*, MAP_*, signal names).  A call a newer kernel adds gets
 * its alias, with a plain argstr, with no change here.
 *
 * The aliases are script text, parsed as one more tapset file when a
 * probe point first names syscall, nd_syscall or syscall_any: the alias
 * machinery (sem.c) then does the rest.  Probes sit on the
 * raw_syscalls:sys_enter and sys_exit tracepoints filtered by call
 * number (kernel.trace(...).nr(N), as SystemTap 4.8's), which
 * runtime/tracepoint.c serves with one callback per tracepoint;
 * arguments are read from the user registers saved at entry
 * (runtime/tapset_syscall.c), so no DWARF is used at run time, and
 * syscall and nd_syscall are the same probes.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stap.h"
#include "dw.h"
#include "probes/probes.h"
#include "../runtime/stp_syscall.h"

/* SystemTap's alias names for calls the kernel names otherwise. */
static const char *const sc_renames[][2] = {
	{ "pread64", "pread" }, { "pwrite64", "pwrite" }, { "mmap", "mmap2" },
	{ "newfstat", "fstat" }, { "newstat", "stat" }, { "newlstat", "lstat" },
	{ "newfstatat", "fstatat" }, { "newuname", "uname" }, { "getdents64", "getdents" },
	{ "sendfile64", "sendfile" }, { "pipe2", "pipe" }, { "epoll_create1", "epoll_create" },
	{ "eventfd2", "eventfd" }, { "inotify_init1", "inotify_init" },
	{ "signalfd4", "signalfd" },
};

/*
 * ia32 entry points that are an x86-64 call under another name, with the
 * same arguments: SystemTap's syscall.mmap2 is both (pgoffset in pages
 * for ia32's, in bytes for x86-64's, as the kernel takes them).
 */
static const char *const sc_same32[][2] = {
	{ "mmap_pgoff", "mmap" },
};

/* Renamed calls whose name variable stays the kernel's, as SystemTap's. */
static const char *const sc_kernel_names[] = {
	"pipe2", "eventfd2", "epoll_create1", "inotify_init1", "signalfd4",
};

/* SystemTap's names for some arguments: call ("*": any), kernel name, its name. */
static const char *const sc_argnames[][3] = {
	{ "mprotect", "start", "addr" }, { "pkey_mprotect", "start", "addr" },
	{ "munlock", "start", "addr" }, { "munmap", "addr", "start" },
	{ "munmap", "len", "length" }, { "msync", "len", "length" },
	{ "mmap2", "addr", "start" }, { "mmap2", "len", "length" },
	{ "mmap2", "off", "pgoffset" }, { "nanosleep", "rqtp", "req" },
	{ "nanosleep", "rmtp", "rem" }, { "rename", "oldname", "oldpath" },
	{ "rename", "newname", "newpath" }, { "symlink", "oldname", "oldpath" },
	{ "symlink", "newname", "newpath" }, { "wait4", "upid", "pid" },
	{ "wait4", "stat_addr", "status" }, { "wait4", "ru", "rusage" },
	{ "waitid", "upid", "pid" }, { "waitid", "ru", "rusage" },
	{ "waitpid", "stat_addr", "status" }, { "poll", "timeout_msecs", "timeout" },
	{ "ppoll", "ufds", "fds" }, { "recvfrom", "fd", "s" }, { "recvfrom", "ubuf", "buf" },
	{ "recvfrom", "size", "len" }, { "recvfrom", "addr_len", "addrlen" },
	{ "sendto", "fd", "s" }, { "sendto", "buff", "buf" }, { "sendto", "addr", "to" },
	{ "sendto", "addr_len", "tolen" }, { "recvmsg", "fd", "s" }, { "sendmsg", "fd", "s" },
	{ "recvmmsg", "fd", "s" }, { "sendmmsg", "fd", "s" }, { "shutdown", "fd", "s" },
	{ "fstat", "fd", "filedes" }, { "fstat", "statbuf", "buf" },
	{ "stat", "statbuf", "buf" }, { "lstat", "filename", "path" },
	{ "lstat", "statbuf", "buf" }, { "fstatat", "dfd", "dirfd" },
	{ "fstatat", "filename", "path" }, { "fstatat", "statbuf", "buf" },
	{ "fstatat", "flag", "flags" }, { "readv", "vec", "vector" }, { "readv", "vlen", "count" },
	{ "writev", "vec", "vector" }, { "writev", "vlen", "count" },
	{ "preadv", "vec", "vector" }, { "preadv", "vlen", "count" },
	{ "pwritev", "vec", "vector" }, { "pwritev", "vlen", "count" },
	{ "nice", "increment", "inc" }, { "personality", "personality", "persona" },
	{ "setpriority", "niceval", "prio" }, { "setfsuid", "uid", "fsuid" },
	{ "setfsgid", "gid", "fsgid" }, { "statfs", "pathname", "path" },
	{ "readlinkat", "pathname", "path" }, { "umount", "name", "target" },
	{ "exit", "error_code", "status" }, { "exit_group", "error_code", "status" },
	{ "setns", "flags", "nstype" }, { "*", "timer_id", "timerid" },
	{ "timerfd_gettime", "ufd", "fd" }, { "timerfd_settime", "ufd", "fd" },
	{ "*", "user_mask_ptr", "mask" }, { "select", "inp", "readfds" },
	{ "select", "outp", "writefds" }, { "select", "exp", "exceptfds" },
	{ "select", "tvp", "timeout" }, { "rt_sigprocmask", "nset", "set" },
	{ "rt_sigprocmask", "oset", "oldset" }, { "rt_sigsuspend", "unewset", "set" },
	{ "rt_sigpending", "uset", "set" }, { "socketpair", "usockvec", "sv" },
	{ "setgroups", "gidsetsize", "size" }, { "setgroups", "grouplist", "list" },
	{ "getdents", "dirent", "dirp" }, { "swapon", "specialfile", "path" },
	{ "swapon", "swap_flags", "swapflags" }, { "swapoff", "specialfile", "path" },
	{ "execve", "argv", "args" }, { "execve", "envp", "env_str" },
	{ "execveat", "argv", "args" }, { "execveat", "envp", "env_str" },
	{ "arch_prctl", "option", "code" }, { "arch_prctl", "arg2", "addr" },
	{ "futex", "uaddr", "futex" }, { "futex", "utime", "utime" }, { "lseek", "fd", "fildes" },
	/* Found by aligning each call's arguments with SystemTap 4.8's stap -L. */
	{ "pread", "pos", "offset" },
	{ "accept", "fd", "sockfd" }, { "accept", "upeer_sockaddr", "addr" },
	{ "accept", "upeer_addrlen", "addrlen" }, { "accept4", "fd", "sockfd" },
	{ "accept4", "upeer_sockaddr", "addr" }, { "accept4", "upeer_addrlen", "addrlen" },
	{ "access", "filename", "pathname" }, { "add_key", "_payload", "payload" },
	{ "adjtimex", "txc_p", "buf" }, { "bind", "fd", "sockfd" }, { "bind", "umyaddr", "my_addr" },
	{ "bpf", "uattr", "attr" }, { "chdir", "filename", "path" }, { "chmod", "filename", "path" },
	{ "chown", "filename", "path" }, { "chown", "user", "owner" },
	{ "chroot", "filename", "path" }, { "clock_adjtime", "which_clock", "clk_id" },
	{ "clock_adjtime", "utx", "tx" }, { "clock_getres", "which_clock", "clk_id" },
	{ "clock_getres", "tp", "res" }, { "clock_gettime", "which_clock", "clk_id" },
	{ "clock_nanosleep", "which_clock", "clk_id" }, { "clock_nanosleep", "rqtp", "req" },
	{ "clock_nanosleep", "rmtp", "rem" }, { "clock_settime", "which_clock", "clk_id" },
	{ "connect", "fd", "sockfd" }, { "connect", "uservaddr", "serv_addr" },
	{ "dup", "fildes", "oldfd" }, { "execveat", "fd", "dirfd" }, { "faccessat", "dfd", "dirfd" },
	{ "faccessat", "filename", "pathname" }, { "faccessat2", "dfd", "dirfd" },
	{ "faccessat2", "filename", "pathname" }, { "fanotify_mark", "dfd", "dirfd" },
	{ "fchmod", "fd", "fildes" }, { "fchmodat", "dfd", "dirfd" },
	{ "fchmodat", "filename", "pathname" }, { "fchown", "user", "owner" },
	{ "fchownat", "dfd", "dirfd" }, { "fchownat", "filename", "pathname" },
	{ "fchownat", "user", "owner" }, { "fchownat", "flag", "flags" },
	{ "flistxattr", "fd", "filedes" }, { "flock", "cmd", "operation" },
	{ "fremovexattr", "fd", "filedes" }, { "fsetxattr", "fd", "filedes" },
	{ "get_robust_list", "head_ptr", "list_head" }, { "get_robust_list", "len_ptr", "len" },
	{ "getcpu", "cpup", "cpu" }, { "getcpu", "nodep", "node" }, { "getcpu", "unused", "tcache" },
	{ "getgroups", "gidsetsize", "size" }, { "getgroups", "grouplist", "list" },
	{ "getpeername", "fd", "s" }, { "getpeername", "usockaddr", "name" },
	{ "getpeername", "usockaddr_len", "namelen" }, { "getrandom", "len", "count" },
	{ "getresgid", "rgidp", "rgid" }, { "getresgid", "egidp", "egid" },
	{ "getresgid", "sgidp", "sgid" }, { "getresuid", "ruidp", "ruid" },
	{ "getresuid", "euidp", "euid" }, { "getresuid", "suidp", "suid" },
	{ "getrusage", "ru", "usage" }, { "getsockname", "fd", "s" },
	{ "getsockname", "usockaddr", "name" }, { "getsockname", "usockaddr_len", "namelen" },
	{ "io_setup", "nr_events", "maxevents" }, { "ioctl", "cmd", "request" },
	{ "ioctl", "arg", "argp" }, { "kexec_file_load", "cmdline_ptr", "cmdline" },
	{ "lchown", "filename", "path" }, { "lchown", "user", "owner" },
	{ "link", "oldname", "oldpath" }, { "link", "newname", "newpath" },
	{ "linkat", "olddfd", "olddirfd" }, { "linkat", "oldname", "oldpath" },
	{ "linkat", "newdfd", "newdirfd" }, { "linkat", "newname", "newpath" },
	{ "listen", "fd", "sockfd" }, { "madvise", "len_in", "length" },
	{ "madvise", "behavior", "advice" }, { "mincore", "len", "length" },
	{ "mknod", "filename", "pathname" }, { "mknodat", "dfd", "dirfd" },
	{ "mknodat", "filename", "pathname" }, { "mlock", "start", "addr" },
	{ "mlock2", "start", "addr" }, { "mount", "dev_name", "source" },
	{ "mount", "dir_name", "target" }, { "mount", "type", "filesystemtype" },
	{ "mount", "flags", "mountflags" }, { "mq_notify", "u_notification", "notification" },
	{ "mq_timedreceive", "u_msg_prio", "msg_prio" },
	{ "mq_timedreceive", "u_abs_timeout", "abs_timeout" }, 
	{ "mq_timedsend", "u_abs_timeout", "abs_timeout" }, { "mremap", "addr", "old_address" },
	{ "mremap", "old_len", "old_size" }, { "mremap", "new_len", "new_size" },
	{ "mremap", "new_addr", "new_address" }, { "name_to_handle_at", "flag", "flags" },
	{ "open_by_handle_at", "mountdirfd", "mount_dfd" },
	{ "perf_event_open", "attr_uptr", "attr" }, { "pivot_root", "new_root", "new_root_str" },
	{ "pivot_root", "put_old", "old_root_str" }, 
	{ "process_vm_readv", "lvec", "local_iov" },
	{ "process_vm_readv", "rvec", "remote_iov" }, { "process_vm_writev", "lvec", "local_iov" },
	{ "process_vm_writev", "rvec", "remote_iov" }, { "pselect6", "n", "nfds" },
	{ "pwrite", "pos", "offset" }, { "reboot", "magic1", "magic" },
	{ "reboot", "cmd", "flag" }, 
	{ "sched_getattr", "uattr", "sched_attr" },
	{ "sched_getattr", "usize", "size" }, { "sched_getparam", "param", "p" },
	{ "sched_rr_get_interval", "interval", "tp" }, { "sched_setattr", "uattr", "sched_attr" },
	{ "sched_setparam", "param", "p" }, { "sched_setscheduler", "param", "p" },
	{ "semop", "tsops", "sops" }, { "semtimedop", "tsops", "sops" },
	{ "set_robust_list", "head", "list_head" }, { "setdomainname", "name", "domainname" },
	{ "sethostname", "name", "hostname" }, { "syslog", "buf", "bufp" }, { "time", "tloc", "t" },
	{ "timer_create", "which_clock", "clockid" }, { "timer_create", "timer_event_spec", "evp" },
	{ "timer_create", "created_timer_id", "timerid" }, { "timer_gettime", "setting", "value" },
	{ "timer_settime", "new_setting", "value" }, { "timer_settime", "old_setting", "ovalue" },
	{ "timerfd_gettime", "otmr", "value" }, { "timerfd_settime", "utmr", "value" },
	{ "timerfd_settime", "otmr", "ovalue" }, { "times", "tbuf", "buf" },
	/* Found where the alignment stopped at a type (sc_shapes below). */
	{ "*xattr", "pathname", "path" }, { "fgetxattr", "fd", "filedes" },
	{ "add_key", "_type", "type" }, { "add_key", "_description", "description" },
	{ "request_key", "_type", "type" }, { "request_key", "_description", "description" },
	{ "request_key", "_callout_info", "callout_info" }, { "mq_timed*", "u_msg_ptr", "msg_ptr" },
	{ "acct", "name", "filename" }, { "name_to_handle_at", "name", "pathname" },
	{ "inotify_add_watch", "pathname", "path" }, { "statx", "buffer", "buf" },
	{ "mkdirat", "dfd", "dirfd" }, { "futimesat", "dfd", "dirfd" },
	{ "futimesat", "utimes", "tvp" }, { "utimes", "utimes", "tvp" },
	{ "utimensat", "utimes", "tsp" }, { "utime", "times", "buf" },
	{ "rt_tgsigqueueinfo", "pid", "tid" }, { "capget", "dataptr", "data" },
	{ "clone", "newsp", "stack_start" }, { "clone", "parent_tidptr", "parent_tid" },
	{ "clone", "child_tidptr", "child_tid" }, { "pselect6", "inp", "readfds" },
	{ "pselect6", "outp", "writefds" }, { "pselect6", "exp", "exceptfds" },
	{ "pselect6", "tsp", "timeout" }, { "pselect6", "sig", "sigmask" },
	{ "vmsplice", "uiov", "iov" }, { "getrandom", "ubuf", "buf" },
	{ "p*v2", "vec", "vector" }, { "p*v2", "vlen", "count" },
	{ "lookup_dcookie", "cookie64", "cookie" }, { "lookup_dcookie", "buf", "buffer" },
};

/*
 * argstr where SystemTap shows fewer arguments for some values: call, a
 * condition and the shorter argstr, a format of the decoder's number
 * (futex's wait and wake: 3).
 */
static const struct { const char *call, *cond, *argstr; int kind; } sc_short[] = {
	{ "futex", "(op & 0x7f) < 2",
	  "sprintf(\"%%p, %%s, %%d\", futex_uaddr, __sc_decode(%d, op), val)", STP_SC_FUTEX_OP },
	/* the getters that take no argument */
	{ "prctl", "option == 3 || option == 7 || option == 13 || option == 21 || "
		   "option == 27 || option == 30 || option == 31 || option == 32 || "
		   "option == 34 || option == 39 || option == 42 || option == 46 || option == 58",
	  "__sc_decode(%d, option)", STP_SC_PRCTL },
};

/*
 * Variables SystemTap has beside the arguments, by the kernel's name of
 * the call: those of the other call of a renamed pair (syscall.pipe is
 * pipe and pipe2), values read through a pointer, its spellings.
 */
static const char *const sc_extras[][2] = {
	{ "pipe", "flags = 0\n\tflag_str = \"\"" },
	{ "pipe*", "pipe0 = __sc_arg(1) ? user_int(__sc_arg(1)) : 0\n"
		   "\tpipe1 = __sc_arg(1) ? user_int(__sc_arg(1) + 4) : 0" },
	{ "dup2", "flags = 0\n\tflags_str = \"0x0\"" },
	{ "epoll_create", "flags = 0" }, { "epoll_create1", "size = 0" },
	{ "eventfd", "flags = 0\n\tflags_str = \"0x0\"" }, { "inotify_init", "flags = 0" },
	{ "signalfd", "flags = 0" },
	{ "utime", "actime = __sc_arg(2) ? user_long(__sc_arg(2)) : 0\n"
		   "\tmodtime = __sc_arg(2) ? user_long(__sc_arg(2) + 8) : 0" },
	{ "mq_open", "name_uaddr = __sc_arg(1)\n\tfilename = u_name\n"
		     "\tfilename_unquoted = u_name_unquoted" },
	{ "mkdirat", "pahtname_unquoted = pathname_unquoted" },
	{ "sethostname", "name_str = hostname_str\n\tname_str_unquoted = hostname_str_unquoted" },
	{ "preadv*", "offset = __sc_arg(4)" }, { "pwritev*", "offset = __sc_arg(4)" },
};

/* sc_extras of an ia32 variant (sc_variant32) whose struct is another (old_utimbuf32). */
static const char *const sc_extras32[][2] = {
	{ "utime", "actime = __sc_arg(2) ? user_int(__sc_arg(2)) : 0\n"
		   "\tmodtime = __sc_arg(2) ? user_int(__sc_arg(2) + 4) : 0" },
};

/*
 * How SystemTap shows some arguments otherwise than their type says
 * (call as a glob, kernel name, SC_SH_* bits): a char * that is a
 * buffer, a void * that is a string, a string that also has its address
 * (NAME_uaddr) or raw value (NAME:long), or string variables named
 * NAME_str and NAME_str_unquoted.
 */
enum { SC_SH_PTR = 1, SC_SH_STR = 2, SC_SH_UADDR = 4, SC_SH_RAW = 8, SC_SH_SUFFIX = 16,
       SC_SH_BUF = 32 /* shown as text, as much as its length says */,
       SC_SH_HEX = 64 /* a pointer in hex without 0x (quotactl's addr) */ };
static const struct { const char *call, *arg; int shape; } sc_shapes[] = {
	{ "shm*", "shmaddr", SC_SH_PTR }, { "mq_timed*", "u_msg_ptr", SC_SH_PTR },
	{ "[gs]etsockopt", "optval", SC_SH_PTR }, { "*listxattr", "list", SC_SH_PTR },
	{ "add_key", "_type", SC_SH_PTR }, { "add_key", "_description", SC_SH_PTR },
	{ "request_key", "_callout_info", SC_SH_PTR },
	{ "request_key", "_type", SC_SH_STR | SC_SH_UADDR | SC_SH_SUFFIX },
	{ "request_key", "_description", SC_SH_STR | SC_SH_UADDR | SC_SH_SUFFIX },
	{ "acct", "name", SC_SH_STR }, { "name_to_handle_at", "name", SC_SH_STR },
	{ "mount", "data", SC_SH_STR },
	{ "getxattr", "name", SC_SH_STR | SC_SH_SUFFIX },
	{ "fgetxattr", "name", SC_SH_STR | SC_SH_SUFFIX },
	{ "lgetxattr", "name", SC_SH_STR | SC_SH_SUFFIX },
	{ "removexattr", "name", SC_SH_STR | SC_SH_SUFFIX },
	{ "[lf]removexattr", "name", SC_SH_STR | SC_SH_UADDR | SC_SH_SUFFIX },
	{ "*setxattr", "name", SC_SH_STR | SC_SH_UADDR | SC_SH_SUFFIX },
	{ "l[sl]*xattr", "pathname", SC_SH_UADDR }, { "lremovexattr", "pathname", SC_SH_UADDR },
	{ "setxattr", "pathname", SC_SH_UADDR }, { "listxattr", "pathname", SC_SH_UADDR },
	{ "*setxattr", "value", SC_SH_BUF },
	{ "renameat*", "oldname", SC_SH_RAW | SC_SH_SUFFIX },
	{ "renameat*", "newname", SC_SH_RAW | SC_SH_SUFFIX },
	{ "symlinkat", "oldname", SC_SH_RAW | SC_SH_SUFFIX },
	{ "symlinkat", "newname", SC_SH_RAW | SC_SH_SUFFIX },
	{ "unlinkat", "pathname", SC_SH_RAW | SC_SH_SUFFIX },
	{ "quotactl", "special", SC_SH_RAW | SC_SH_SUFFIX },
	{ "mkdir", "pathname", SC_SH_UADDR }, { "unlink", "pathname", SC_SH_UADDR },
	{ "stat", "filename", SC_SH_UADDR }, { "statx", "filename", SC_SH_UADDR },
	{ "utime", "filename", SC_SH_UADDR }, { "utimes", "filename", SC_SH_UADDR },
	{ "utimensat", "filename", SC_SH_UADDR }, { "truncate", "path", SC_SH_UADDR },
	{ "swapo*", "specialfile", SC_SH_UADDR }, { "mq_unlink", "u_name", SC_SH_UADDR },
	{ "inotify_add_watch", "pathname", SC_SH_UADDR }, { "futimesat", "filename", SC_SH_UADDR },
	{ "cap[gs]et", "header", SC_SH_PTR }, { "cap[gs]et", "data*", SC_SH_PTR },
	/* pointers SystemTap names NAME, not NAME_uaddr */
	{ "ppoll", "tsp", SC_SH_RAW }, { "ppoll", "sigmask", SC_SH_RAW },
	{ "pselect6", "[ioe]*p", SC_SH_RAW }, { "pselect6", "tsp", SC_SH_RAW },
	{ "pselect6", "sig", SC_SH_RAW }, { "*_pages", "*nodes", SC_SH_RAW },
	{ "move_pages", "pages", SC_SH_RAW }, { "move_pages", "status", SC_SH_RAW },
	{ "splice", "off_*", SC_SH_RAW }, { "copy_file_range", "off_*", SC_SH_RAW },
	{ "vmsplice", "uiov", SC_SH_RAW }, { "getrandom", "ubuf", SC_SH_STR },
	{ "quotactl", "addr", SC_SH_HEX },
	{ "set*name", "name", SC_SH_STR | SC_SH_UADDR | SC_SH_SUFFIX },
	{ "uselib", "library", SC_SH_UADDR },
};

/* Decoders (runtime/stp_syscall.h) by call ("*": any) and argument. */
static const struct sc_decoder {
	const char *call, *arg;
	enum stp_sc_kind kind;
} sc_decoders[] = {
	{ "*", "dfd", STP_SC_DFD }, { "*", "olddfd", STP_SC_DFD }, { "*", "newdfd", STP_SC_DFD },
	{ "*", "mountdirfd", STP_SC_DFD },
	{ "open", "flags", STP_SC_OPEN_FLAGS }, { "openat", "flags", STP_SC_OPEN_FLAGS },
	{ "open_by_handle_at", "flags", STP_SC_OPEN_FLAGS },
	{ "lseek", "whence", STP_SC_WHENCE }, { "llseek", "whence", STP_SC_WHENCE },
	{ "mmap2", "prot", STP_SC_PROT }, { "mprotect", "prot", STP_SC_PROT },
	{ "pkey_mprotect", "prot", STP_SC_PROT },
	{ "mmap2", "flags", STP_SC_MMAP_FLAGS },
	{ "access", "mode", STP_SC_ACCESS }, { "faccessat", "mode", STP_SC_ACCESS },
	{ "faccessat2", "mode", STP_SC_ACCESS },
	{ "fstatat", "flags", STP_SC_AT_FLAGS }, { "unlinkat", "flag", STP_SC_AT_FLAGS },
	{ "linkat", "flags", STP_SC_AT_FLAGS }, { "fchownat", "flag", STP_SC_AT_FLAGS },
	{ "utimensat", "flags", STP_SC_AT_FLAGS }, { "statx", "flags", STP_SC_AT_FLAGS },
	{ "wait4", "options", STP_SC_WAIT }, { "waitid", "options", STP_SC_WAIT },
	{ "waitpid", "options", STP_SC_WAIT },
	{ "clone", "clone_flags", STP_SC_CLONE },
	{ "*", "which_clock", STP_SC_CLOCK }, { "*", "clk_id", STP_SC_CLOCK },
	{ "*", "clockid", STP_SC_CLOCK },
	{ "arch_prctl", "option", STP_SC_ARCH_PRCTL }, { "arch_prctl", "code", STP_SC_ARCH_PRCTL },
	{ "getrandom", "flags", STP_SC_GRND },
	{ "prlimit64", "resource", STP_SC_RLIMIT }, { "getrlimit", "resource", STP_SC_RLIMIT },
	{ "setrlimit", "resource", STP_SC_RLIMIT },
	{ "rt_sigprocmask", "how", STP_SC_SIGHOW }, { "sigprocmask", "how", STP_SC_SIGHOW },
	{ "rt_sigprocmask", "nset", STP_SC_SIGSET }, { "rt_sigsuspend", "unewset", STP_SC_SIGSET },
	{ "rt_sigaction", "act", STP_SC_SIGACTION },
	{ "socket", "family", STP_SC_SOCK_FAMILY }, { "socketpair", "family", STP_SC_SOCK_FAMILY },
	{ "socket", "type", STP_SC_SOCK_TYPE }, { "socketpair", "type", STP_SC_SOCK_TYPE },
	{ "socket", "protocol", STP_SC_SOCK_PROTO },
	{ "socketpair", "protocol", STP_SC_SOCK_PROTO },
	{ "accept4", "flags", STP_SC_SOCK_FLAGS },
	{ "sendto", "flags", STP_SC_MSG_FLAGS }, { "recvfrom", "flags", STP_SC_MSG_FLAGS },
	{ "sendmsg", "flags", STP_SC_MSG_FLAGS }, { "recvmsg", "flags", STP_SC_MSG_FLAGS },
	{ "sendmmsg", "flags", STP_SC_MSG_FLAGS }, { "recvmmsg", "flags", STP_SC_MSG_FLAGS },
	{ "shutdown", "how", STP_SC_SHUTDOWN },
	{ "dup3", "flags", STP_SC_FD_FLAGS }, { "pipe", "flags", STP_SC_FD_FLAGS },
	{ "fcntl", "cmd", STP_SC_FCNTL_CMD }, { "eventfd", "flags", STP_SC_EFD_FLAGS },
	{ "epoll_create", "flags", STP_SC_EPOLL_FLAGS }, { "epoll_ctl", "op", STP_SC_EPOLL_OP },
	{ "madvise", "behavior", STP_SC_MADVICE }, { "fadvise64", "advice", STP_SC_FADVICE },
	{ "fallocate", "mode", STP_SC_FALLOC }, { "pipe", "fildes", STP_SC_FDPAIR },
	{ "execveat", "dirfd", STP_SC_DFD }, { "execveat", "flags", STP_SC_AT_FLAGS },
	{ "mlockall", "flags", STP_SC_MCL }, { "memfd_create", "flags", STP_SC_MFD },
	{ "timerfd_create", "flags", STP_SC_TFD }, { "timerfd_settime", "flags", STP_SC_TFD_TIMER },
	{ "umount", "flags", STP_SC_UMOUNT }, { "msync", "flags", STP_SC_MSYNC },
	{ "mremap", "flags", STP_SC_MREMAP }, { "mlock2", "flags", STP_SC_MLOCK },
	{ "clock_nanosleep", "flags", STP_SC_TIMER_FLAGS },
	{ "faccessat2", "flags", STP_SC_ACCESS_AT }, { "renameat2", "flags", STP_SC_RENAME },
	{ "unshare", "unshare_flags", STP_SC_CLONE }, { "getrusage", "who", STP_SC_RUSAGE },
	{ "setitimer", "which", STP_SC_ITIMER }, { "getitimer", "which", STP_SC_ITIMER },
	{ "sched_setscheduler", "policy", STP_SC_SCHED_POLICY },
	{ "sched_get_priority_max", "policy", STP_SC_SCHED_POLICY },
	{ "sched_get_priority_min", "policy", STP_SC_SCHED_POLICY },
	{ "waitid", "which", STP_SC_IDTYPE }, { "setpriority", "which", STP_SC_PRIO_WHICH },
	{ "getpriority", "which", STP_SC_PRIO_WHICH },
	{ "mknod", "mode", STP_SC_MODE }, { "mknodat", "mode", STP_SC_MODE },
	{ "timerfd_settime", "utmr", STP_SC_ITIMERSPEC },
	{ "timer_settime", "new_setting", STP_SC_ITIMERSPEC },
	{ "setitimer", "value", STP_SC_ITIMERVAL }, { "*setxattr", "flags", STP_SC_XATTR },
	{ "[gs]etsockopt", "level", STP_SC_SOCKOPT_LEVEL },
	{ "[gs]etsockopt", "optname", STP_SC_SOCKOPT }, { "bpf", "cmd", STP_SC_BPF_CMD },
	{ "shmctl", "cmd", STP_SC_IPC_CMD }, { "msgctl", "cmd", STP_SC_IPC_CMD },
	{ "shmget", "shmflg", STP_SC_IPC_FLAGS }, { "msgget", "msgflg", STP_SC_IPC_FLAGS },
	{ "semget", "semflg", STP_SC_IPC_FLAGS }, { "msgget", "key", STP_SC_IPC_KEY },
	{ "semget", "key", STP_SC_IPC_KEY },
	{ "*splice", "flags", STP_SC_SPLICE }, { "sync_file_range", "flags", STP_SC_SYNC_RANGE },
	{ "setns", "nstype", STP_SC_CLONE }, { "delete_module", "flags", STP_SC_DELMOD },
	{ "fanotify_init", "flags", STP_SC_FAN_INIT },
	{ "fanotify_init", "event_f_flags", STP_SC_OPEN_FLAGS },
	{ "fanotify_mark", "flags", STP_SC_FAN_MARK }, { "fanotify_mark", "mask", STP_SC_FAN_MASK },
	{ "inotify_add_watch", "mask", STP_SC_INOTIFY_MASK },
	{ "finit_module", "flags", STP_SC_MODINIT }, { "get_mempolicy", "flags", STP_SC_MPOL_FLAGS },
	{ "set_mempolicy", "mode", STP_SC_MPOL_MODE }, { "mbind", "mode", STP_SC_MPOL_MODE },
	{ "mbind", "flags", STP_SC_MPOL_MF }, { "move_pages", "flags", STP_SC_MPOL_MF },
	{ "ioprio_[gs]et", "which", STP_SC_IOPRIO_WHO }, { "ioprio_set", "ioprio", STP_SC_IOPRIO },
	{ "kcmp", "type", STP_SC_KCMP }, { "membarrier", "cmd", STP_SC_MEMBARRIER },
	{ "mount", "flags", STP_SC_MOUNT }, { "mq_open", "oflag", STP_SC_OPEN_FLAGS },
	{ "msg[sr][nc][dv]", "msgflg", STP_SC_MSGFLG }, { "semctl", "cmd", STP_SC_SEM_CMD },
	{ "shmat", "shmflg", STP_SC_SHMAT }, { "name_to_handle_at", "flag", STP_SC_AT_FLAGS },
	{ "perf_event_open", "flags", STP_SC_PERF }, { "pkey_alloc", "init_val", STP_SC_PKEY },
	{ "p*v2", "flags", STP_SC_RWF }, { "quotactl", "cmd", STP_SC_QUOTACTL },
	{ "reboot", "magic1", STP_SC_REBOOT_MAGIC }, { "reboot", "magic2", STP_SC_REBOOT_MAGIC },
	{ "reboot", "cmd", STP_SC_REBOOT_CMD }, { "remap_file_pages", "prot", STP_SC_PROT },
	{ "remap_file_pages", "flags", STP_SC_MMAP_FLAGS }, { "seccomp", "op", STP_SC_SECCOMP_OP },
	{ "seccomp", "flags", STP_SC_SECCOMP_FLAGS }, { "swapon", "swap_flags", STP_SC_SWAPON },
	{ "userfaultfd", "flags", STP_SC_UFFD }, { "memfd_secret", "flags", STP_SC_UFFD },
	{ "kexec_file_load", "flags", STP_SC_KEXEC_FILE }, { "kexec_load", "flags", STP_SC_KEXEC },
	{ "statx", "mask", STP_SC_STATX_MASK }, { "fadvise64", "advice", STP_SC_FADVICE },
	{ "inotify_init", "flags", STP_SC_IN_INIT }, { "flock", "cmd", STP_SC_FLOCK },
	{ "futex", "op", STP_SC_FUTEX_OP }, { "prctl", "option", STP_SC_PRCTL },
	/* structs the caller passes in */
	{ "clock_settime", "tp", STP_SC_TIMESPEC }, { "settimeofday", "tv", STP_SC_TIMEVAL },
	{ "settimeofday", "tz", STP_SC_TIMEZONE }, { "utime", "times", STP_SC_UTIMBUF },
	{ "utimes", "utimes", STP_SC_TIMEVAL2 }, { "futimesat", "utimes", STP_SC_TIMEVAL2 },
	{ "select", "tvp", STP_SC_TIMEVAL }, { "sigaltstack", "uss", STP_SC_STACK },
	{ "rt_*sigqueueinfo", "uinfo", STP_SC_SIGINFO }, { "rt_sigtimedwait", "uthese", STP_SC_SIGSET },
	{ "rt_sigtimedwait", "uinfo", STP_SC_SIGINFO }, { "sched_[gs]etattr", "uattr", STP_SC_SCHED_ATTR },
	{ "sysinfo", "info", STP_SC_SYSINFO }, { "times", "tbuf", STP_SC_TMS },
	{ "adjtimex", "txc_p", STP_SC_TIMEX }, { "clock_adjtime", "utx", STP_SC_TIMEX },
	{ "prlimit64", "new_rlim", STP_SC_RLIMIT_VAL }, { "setrlimit", "rlim", STP_SC_RLIMIT_VAL },
	/* the calls only ia32 has: a struct, a handler, a signal set in a word */
	{ "[gs]et_thread_area", "u_info", STP_SC_USER_DESC }, { "signal", "handler", STP_SC_SIGHANDLER },
	{ "sigsuspend", "mask", STP_SC_SIGSET_WORD }, { "ssetmask", "newmask", STP_SC_SIGSET_WORD },
};

/*
 * Socket addresses (runtime _stp_sc_sockaddr) by call, pointer and length
 * argument: as argstr shows them, and the parts SystemTap names
 * prefix_af, prefix_ip, ... where it has a prefix, else as NAME_str.
 */
static const char *const sc_sockaddrs[][4] = {
	{ "connect", "uservaddr", "addrlen", "uaddr" }, { "bind", "umyaddr", "addrlen", "uaddr" },
	{ "sendto", "addr", "addr_len", NULL },
};

/* Decoded variables SystemTap names otherwise than NAME_str: call, kernel name, its name. */
static const char *const sc_strnames[][3] = {
	{ "sendto", "buff", "buf" }, { "pipe", "flags", "flag_str" },
	{ "clock_settime", "tp", "tp_uaddr_str" }, { "utimes", "utimes", "tvp_uaddr_str" },
	{ "rt_sigqueueinfo", "uinfo", "siginfo_str" }, { "clock_adjtime", "utx", "tx_uaddr_str" },
	{ "io_getevents", "timeout", "timestr" }, { "semctl", "cmd", "cmdstr" },
	{ "utime", "times", "" }, { "inotify_init", "flags", "" }, { "flock", "cmd", "" },
	{ "futex", "op", "" }, { "prctl", "option", "" },
	/* none: argstr shows it */
	{ "pipe", "fildes", "" }, { "getitimer", "which", "" }, { "getpriority", "which", "" },
};

/* Arguments argstr leaves out, as SystemTap's does (clone's tls). */
static const char *const sc_hidden[][2] = {
	{ "clone", "tls" }, { "membarrier", "cpu_id" }, { "preadv*", "pos_h" },
	{ "pwritev*", "pos_h" }, { "sigsuspend", "unused1" }, { "sigsuspend", "unused2" },
};

/* What an argument is, from its DWARF type. */
enum sc_class { SC_SIGNED, SC_UNSIGNED, SC_STRING, SC_POINTER, SC_OCTAL, SC_ADDR, SC_STRV };

struct sc_arg {
	const char *kname;	/* the kernel's parameter name */
	const char *name;	/* the variable's base name */
	enum sc_class cls;
	int bits;		/* of an integer: 8, 16, 32, 64 */
	int decoder;		/* STP_SC_* or 0 */
	const char *str;	/* its decoded (or buffer) variable: NAME_str */
	const char *uaddr;	/* a pointer's variable: NAME_uaddr, or NAME (SC_SH_RAW) */
	int shape;		/* SC_SH_* */
	bool narrow32;		/* 32 bits wide in the compat prototype: signed there */
	bool other32;		/* the compat prototype's struct is another (compat_sigaction) */
	int reg, reg_hi;	/* its register (1-6), and of its high half if split (ia32) */
	bool compat32;		/* always the compat struct (an ia32 variant's argument) */
};

struct sc_call {
	char *kname;		/* __x64_sys_<kname> */
	int nr;			/* its x86-64 number, -1 if unknown */
	const char *name;	/* the alias's: syscall.<name> */
	char *vars;		/* the prototype as the index has it */
	int nparams;
	int nr32;		/* its ia32 number, -1 if none */
	bool compat;		/* ia32 enters through this compat_sys_<kname>... ... */
	const char *cname;
	char *cvars;		/* ... whose prototype this is */
	int cnparams;
	bool map32;		/* the alias covers the ia32 call too */
	bool only32;		/* ia32 only: a name for syscall_any, ... */
	bool alias32;		/* ... and an alias of its own (sc_own32) */
	const char *uname32;	/* ia32's name for syscall_any (_llseek), or NULL */
	const struct sc_call *base;	/* ia32 only: the x86-64 call it is a form of
					 * (pread64 of ia32_pread64), see sc_variant32 */
};

/* Integer typedefs of system call prototypes: width and signedness. */
static const struct { const char *name; int bits; bool is_signed; } sc_ints[] = {
	{ "int", 32, true }, { "unsigned int", 32, false }, { "long int", 64, true },
	{ "long unsigned int", 64, false }, { "long long int", 64, true },
	{ "long long unsigned int", 64, false }, { "short int", 16, true },
	{ "short unsigned int", 16, false }, { "char", 8, true }, { "unsigned char", 8, false },
	{ "size_t", 64, false }, { "ssize_t", 64, true }, { "umode_t", 16, false },
	{ "pid_t", 32, true }, { "uid_t", 32, true }, { "gid_t", 32, true },
	{ "old_uid_t", 16, false }, { "old_gid_t", 16, false }, { "off_t", 64, true },
	{ "loff_t", 64, true }, { "qid_t", 32, false }, { "key_serial_t", 32, true },
	{ "clockid_t", 32, true }, { "timer_t", 32, true }, { "mqd_t", 32, true },
	{ "rwf_t", 32, true }, { "aio_context_t", 64, false }, { "u32", 32, false },
	{ "__u32", 32, false }, { "u64", 64, false }, { "__u64", 64, false },
	{ "s32", 32, true }, { "__s32", 32, true }, { "key_perm_t", 32, false },
	{ "__kernel_old_time_t", 64, true }, { "old_sigset_t", 64, false },
	{ "compat_size_t", 32, false }, { "__kernel_rwf_t", 32, true },
	{ "compat_long_t", 32, true }, { "compat_ulong_t", 32, false },
	{ "compat_off_t", 32, true }, { "compat_ssize_t", 32, true },
	{ "compat_uptr_t", 32, false }, { "compat_int_t", 32, true },
	{ "compat_uint_t", 32, false }, { "compat_pid_t", 32, true },
	{ "compat_time_t", 32, true }, { "compat_clock_t", 32, true },
	{ "compat_key_t", 32, true }, { "compat_loff_t", 64, true },
};

/* The name variable's value: the alias's, or the kernel's (sc_kernel_names). */
static const char *sc_name(const struct sc_call *c)
{
	for (size_t i = 0; i < sizeof(sc_kernel_names) / sizeof(sc_kernel_names[0]); i++)
		if (!strcmp(sc_kernel_names[i], c->kname))
			return c->kname;
	return c->name;
}

static const char *sc_rename(const char *kname)
{
	for (size_t i = 0; i < sizeof(sc_renames) / sizeof(sc_renames[0]); i++)
		if (!strcmp(sc_renames[i][0], kname))
			return sc_renames[i][1];
	return kname;
}

static const char *sc_argname(const char *call, const char *arg)
{
	for (size_t i = 0; i < sizeof(sc_argnames) / sizeof(sc_argnames[0]); i++)
		if (!fnmatch(sc_argnames[i][0], call, 0) && !strcmp(sc_argnames[i][1], arg))
			return sc_argnames[i][2];
	return arg;
}

static int sc_decoder(const char *call, const char *arg)
{
	for (size_t i = 0; i < sizeof(sc_decoders) / sizeof(sc_decoders[0]); i++)
		if (!fnmatch(sc_decoders[i].call, call, 0) && !strcmp(sc_decoders[i].arg, arg))
			return sc_decoders[i].kind;
	return 0;
}

/* The decoded variable of argument kname (SystemTap's name): NAME_str, or the table's. */
static const char *sc_strname(struct session *s, const char *call, const char *kname,
			      const char *name)
{
	for (size_t i = 0; i < sizeof(sc_strnames) / sizeof(sc_strnames[0]); i++)
		if (!strcmp(sc_strnames[i][0], call) && !strcmp(sc_strnames[i][1], kname))
			return sc_strnames[i][2];
	char *str = xasprintf("%s_str", name), *r = arena_strdup(&s->arena, str);

	free(str);
	return r;
}

/* The sc_sockaddrs row of a pointer argument, or NULL. */
static const char *const *sc_sockaddr(const char *call, const char *kname)
{
	for (size_t i = 0; i < sizeof(sc_sockaddrs) / sizeof(sc_sockaddrs[0]); i++)
		if (!strcmp(sc_sockaddrs[i][0], call) && !strcmp(sc_sockaddrs[i][1], kname))
			return sc_sockaddrs[i];
	return NULL;
}

/* Classify DWARF type text ("char const*", "unsigned int", "umode_t"). */
static void sc_classify(const char *call, const char *type, struct sc_arg *a)
{
	size_t n = strlen(type);
	char t[128];

	a->bits = 64;
	a->cls = SC_SIGNED;
	if (!strcmp(type, "char const* const*")) {
		a->cls = SC_STRV;	/* argv, envp: a list of strings */
		return;
	}
	if (n && type[n - 1] == '*') {
		a->cls = !strcmp(type, "char const*") || !strcmp(type, "char*") ?
			 SC_STRING : SC_POINTER;
		/* A buffer of bytes is not a string, however it is typed. */
		if (a->cls == SC_STRING && (strstr(a->kname, "buf") || !strcmp(a->kname, "name")) &&
		    strcmp(call, "umount") && strcmp(call, "utime") && strcmp(call, "utimes"))
			a->cls = SC_POINTER;
		return;
	}
	snprintf(t, sizeof(t), "%s", type);
	n = strlen(t);
	if (n > 6 && !strcmp(t + n - 6, " const"))
		t[n - 6] = '\0';
	for (size_t i = 0; i < sizeof(sc_ints) / sizeof(sc_ints[0]); i++)
		if (!strcmp(sc_ints[i].name, t)) {
			a->bits = sc_ints[i].bits;
			a->cls = sc_ints[i].is_signed ? SC_SIGNED : SC_UNSIGNED;
			break;
		}
	if (!strcmp(t, "umode_t") || (!strcmp(call, "umask") && !strcmp(a->kname, "mask")))
		a->cls = SC_OCTAL;
	/* Descriptors passed as unsigned long (mmap's) are still ints: -1. */
	n = strlen(a->kname);
	if (n >= 2 && !strcmp(a->kname + n - 2, "fd")) {
		a->cls = SC_SIGNED;
		a->bits = 32;
	}
	/* Addresses passed as integers show as pointers (mmap, munmap, brk). */
	if (a->cls == SC_UNSIGNED && a->bits == 64 &&
	    (!strcmp(a->kname, "addr") || !strcmp(a->kname, "start") ||
	     (!strcmp(call, "ioctl") && !strcmp(a->kname, "arg")) ||
	     (!strcmp(call, "fcntl") && !strcmp(a->kname, "arg")) ||
	     !strcmp(a->kname, "new_addr") || !strcmp(a->kname, "brk") ||
	     !strcmp(a->kname, "newsp")))
		a->cls = SC_ADDR;
	/* SystemTap shows these in hex too. */
	if ((!strcmp(call, "fallocate") && !strcmp(a->kname, "offset")) ||
	    (!strcmp(call, "remap_file_pages") && strcmp(a->kname, "start") &&
	     strcmp(a->kname, "prot") && strcmp(a->kname, "flags")) ||
	    ((!fnmatch("preadv*", call, 0) || !fnmatch("pwritev*", call, 0)) &&
	     !strcmp(a->kname, "pos_l")) ||
	    (!strcmp(call, "semctl") && !strcmp(a->kname, "arg")) ||
	    (!strcmp(call, "llseek") && !strncmp(a->kname, "offset_", 7)))
		a->cls = SC_ADDR;
}

/*
 * Parameter i of a prototype as the index writes it ("$fd:int $buf:char*"):
 * its type into buf, NULL if it has none.
 */
static const char *sc_param_type(const char *vars, int i, char *buf, size_t size)
{
	const char *p = vars, *colon = NULL, *end;

	for (int j = 0; p && (p = strchr(p, '$')) && (colon = strchr(p, ':')); j++, p = colon) {
		end = strstr(colon, " $");
		if (!end)
			end = colon + strlen(colon);
		if (j == i) {
			snprintf(buf, size, "%.*s", (int)(end - colon - 1), colon + 1);
			return buf;
		}
	}
	return NULL;
}

/* Are two types as the index writes them the same but for const? */
static bool sc_same_type(const char *a, const char *b)
{
	for (;;) {
		if (!strncmp(a, " const", 6))
			a += 6;
		if (!strncmp(b, " const", 6))
			b += 6;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++, b++;
	}
}

/* The parameters of a prototype as the index writes it ("$fd:int $buf:char*"). */
static int sc_args(struct session *s, const struct sc_call *c, struct sc_arg *out, int max)
{
	const char *p = c->vars;
	int n = 0;

	while (p && (p = strchr(p, '$')) && n < c->nparams && n < max) {
		const char *colon = strchr(p, ':'), *end;
		struct sc_arg *a = &out[n];

		if (!colon)
			break;
		end = strstr(colon, " $");
		if (!end)
			end = colon + strlen(colon);
		a->kname = arena_strndup(&s->arena, p + 1, colon - p - 1);
		char *type = arena_strndup(&s->arena, colon + 1, end - colon - 1);

		p = end;
		/* SYSCALL_DEFINE0's only parameter is the unused register frame. */
		if (strstr(type, "pt_regs"))
			return 0;
		a->name = sc_argname(c->name, a->kname);
		a->str = sc_strname(s, c->name, a->kname, a->name);
		sc_classify(c->name, type, a);
		/* A long in x86-64's prototype that the compat one has as 32 bits
		 * (compat_off_t): the kernel reads it sign-extended from 32. */
		a->narrow32 = false;
		if (c->map32 && c->compat && a->cls == SC_SIGNED && a->bits == 64) {
			struct sc_arg t = { .kname = a->kname };
			char ct[128];

			if (sc_param_type(c->cvars, n, ct, sizeof(ct))) {
				sc_classify(c->name, ct, &t);
				a->narrow32 = t.cls == SC_SIGNED && t.bits == 32;
			}
		}
		a->shape = 0;
		for (size_t j = 0; j < sizeof(sc_shapes) / sizeof(sc_shapes[0]); j++)
			if (!fnmatch(sc_shapes[j].call, c->name, 0) &&
			    !fnmatch(sc_shapes[j].arg, a->kname, 0))
				a->shape = sc_shapes[j].shape;
		if (a->shape & SC_SH_RAW && a->cls == SC_POINTER) {
			a->uaddr = a->name;
		} else {
			char *u = xasprintf("%s_uaddr", a->name);

			a->uaddr = arena_strdup(&s->arena, u);
			free(u);
		}
		if (a->shape & SC_SH_PTR)
			a->cls = SC_POINTER;
		else if (a->shape & SC_SH_STR)
			a->cls = SC_STRING;
		a->decoder = 0;
		a->other32 = a->compat32 = false;
		a->reg = n + 1;
		a->reg_hi = 0;
		if (a->cls == SC_POINTER && c->map32 && c->compat) {
			char ct[128];

			a->other32 = sc_param_type(c->cvars, n, ct, sizeof(ct)) &&
				     !sc_same_type(ct, type);
		}
		if (a->cls == SC_POINTER) {
			/* What the caller passes in (a time, a signal set or
			 * action) is shown as SystemTap shows it. */
			a->decoder = sc_decoder(c->name, a->kname);
			if (!a->decoder && strstr(type, "timespec") && strcmp(a->kname, "rmtp") &&
			    strcmp(a->kname, "tp") && strcmp(a->kname, "interval") &&
			    strcmp(a->kname, "setting"))
				a->decoder = STP_SC_TIMESPEC;
		} else if (a->cls != SC_STRING && a->cls != SC_STRV) {
			/* By the kernel's name, else by SystemTap's. */
			a->decoder = sc_decoder(c->name, a->kname);
			if (!a->decoder)
				a->decoder = sc_decoder(c->name, a->name);
		}
		n++;
	}
	return n;
}

/*
 * An argument's raw value: its register, or (an ia32 variant's 64-bit
 * value in two registers) the two halves.
 */
static const char *sc_raw(const struct sc_arg *a)
{
	static char buf[64];

	if (a->reg_hi)
		snprintf(buf, sizeof(buf), "(__sc_uarg(%d, 32) | __sc_uarg(%d, 32) << 32)",
			 a->reg, a->reg_hi);
	else
		snprintf(buf, sizeof(buf), "__sc_arg(%d)", a->reg);
	return buf;
}

/* The expression of an argument at its width and signedness. */
static void sc_value(struct strbuf *sb, const struct sc_arg *a)
{
	if (a->reg_hi)
		sb_puts(sb, sc_raw(a));
	else if (a->narrow32 && a->compat32)
		sb_printf(sb, "__sc_sarg(%d, 32)", a->reg);
	else if (a->narrow32)
		sb_printf(sb, "__sc_sarg(%d, __sc_compat() ? 32 : 64)", a->reg);
	else if (a->cls == SC_SIGNED && a->bits < 64)
		sb_printf(sb, "__sc_sarg(%d, %d)", a->reg, a->bits);
	else if (a->bits < 64)
		sb_printf(sb, "__sc_uarg(%d, %d)", a->reg, a->bits);
	else
		sb_printf(sb, "__sc_arg(%d)", a->reg);
}

/* A buffer argument's length: the next integer argument named like one. */
static int sc_buf_len(const struct sc_arg *args, int n, int i)
{
	for (int j = i + 1; j < n; j++)
		if (!strcmp(args[j].kname, "count") || !strcmp(args[j].kname, "len") ||
		    !strcmp(args[j].kname, "size"))
			return j;
	return -1;
}

/*
 * A pointer argument's decoded text: where a 32-bit task's entry point
 * reads another struct (compat_sigaction, old_timespec32), the decoder
 * reads that layout (STP_SC_COMPAT32), or shows the address if it knows
 * none.
 */
static void sc_decoded(struct strbuf *sb, const struct sc_arg *a)
{
	if (a->compat32)
		sb_printf(sb, "__sc_decode(%d, %s)", a->decoder | STP_SC_COMPAT32, a->uaddr);
	else if (a->other32)
		sb_printf(sb, "__sc_decode(__sc_compat() ? %d : %d, %s)",
			  a->decoder | STP_SC_COMPAT32, a->decoder, a->uaddr);
	else
		sb_printf(sb, "__sc_decode(%d, %s)", a->decoder, a->uaddr);
}

/* The index of the argument the kernel names kname, -1 if none. */
static int sc_arg_index(const struct sc_arg *args, int n, const char *kname)
{
	for (int j = 0; j < n; j++)
		if (!strcmp(args[j].kname, kname))
			return j;
	return -1;
}

/* The name of parameter i of a prototype as the index writes it, into buf. */
static const char *sc_param_name(const char *vars, int i, char *buf, size_t size)
{
	const char *p = vars, *colon = NULL;

	for (int j = 0; p && (p = strchr(p, '$')) && (colon = strchr(p, ':')); j++, p = colon)
		if (j == i) {
			snprintf(buf, size, "%.*s", (int)(colon - p - 1), p + 1);
			return buf;
		}
	return NULL;
}

static bool sc_ends(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);

	return n >= e && !strcmp(s + n - e, end);
}

/* Is one name the other, or it and "_" and more (tls, tls_val)? */
static bool sc_same_name(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);

	if (n > m)
		return sc_same_name(b, a);
	return !strncmp(a, b, n) && (!b[n] || b[n] == '_');
}

/*
 * The parameters of prototype vars that have the names of base's n, in
 * base's order, as indexes into perm: false unless every one has exactly
 * one.  compat_sys_ia32_clone takes tls before child_tidptr.
 */
static bool sc_perm32(const char *base, const char *vars, int n, int *perm)
{
	char bn[64], cn[64];

	for (int i = 0; i < n; i++) {
		perm[i] = -1;
		if (!sc_param_name(base, i, bn, sizeof(bn)))
			return false;
		for (int j = 0; j < n; j++)
			if (sc_param_name(vars, j, cn, sizeof(cn)) && sc_same_name(bn, cn)) {
				if (perm[i] >= 0)
					return false;
				perm[i] = j;
			}
		if (perm[i] < 0)
			return false;
		for (int k = 0; k < i; k++)
			if (perm[k] == perm[i])
				return false;
	}
	return true;
}

/*
 * An ia32 variant's registers for its x86-64 call's arguments (args[n],
 * of c->base): its own prototype's parameters in order, where a 64-bit
 * integer may come in two (poslo, poshi: low first), and a struct whose
 * type differs is read in its compat layout (old_timespec32).  false if
 * they do not line up.
 */
static bool sc_map32(const struct sc_call *c, struct sc_arg *args, int n)
{
	const char *vars = c->cname ? c->cvars : c->vars;
	int np = c->cname ? c->cnparams : c->nparams, j = 0, perm[6];
	char ct[128], bt[128], lo[64], hi[64];
	bool byname;

	if (!vars)
		return false;
	byname = np == n && sc_perm32(c->base->vars, vars, n, perm);
	for (int i = 0; i < n; i++, j++) {
		struct sc_arg *a = &args[i], t = { .kname = a->kname };

		if (byname)
			j = perm[i];
		if (j >= np || !sc_param_type(vars, j, ct, sizeof(ct)) ||
		    !sc_param_type(c->base->vars, i, bt, sizeof(bt)))
			return false;
		a->reg = j + 1;
		a->reg_hi = 0;
		a->other32 = a->narrow32 = a->compat32 = false;
		if (a->cls == SC_POINTER || a->cls == SC_STRING || a->cls == SC_STRV) {
			a->compat32 = a->decoder && !sc_same_type(ct, bt);
			continue;
		}
		if (!byname && a->bits == 64 && sc_param_name(vars, j, lo, sizeof(lo)) &&
		    sc_param_name(vars, j + 1, hi, sizeof(hi)) &&
		    (((sc_ends(lo, "lo") || sc_ends(lo, "low")) &&
		      (sc_ends(hi, "hi") || sc_ends(hi, "high"))) ||
		     (sc_ends(lo, "0") && sc_ends(hi, "1")))) {
			a->reg_hi = ++j + 1;
			continue;
		}
		sc_classify(c->base->name, ct, &t);
		a->narrow32 = a->compat32 = a->cls == SC_SIGNED && a->bits == 64 &&
					    t.cls == SC_SIGNED && t.bits == 32;
	}
	return byname || j == np;
}

/*
 * A socket address argument: its parts as prefix_af, prefix_ip, ... (or,
 * without a prefix, the whole as NAME_str) into *sb, and argstr's value
 * into *vals.
 */
static void sc_sockaddr_vars(struct strbuf *sb, struct strbuf *vals, const struct sc_arg *a,
			     const char *prefix, const char *len)
{
	static const char *const parts[] = { NULL, "af", "ip", "ip_port", "ipv6_flowinfo",
					     "ipv6_scope_id" };

	if (!prefix) {
		sb_printf(sb, "\t%s = __sc_sockaddr(%s, %s, %d)\n", a->str, a->uaddr, len,
			  STP_SC_SA_ALL);
		sb_printf(vals, ", %s", a->str);
		return;
	}
	for (int p = STP_SC_SA_AF; p <= STP_SC_SA_SCOPE_ID; p++)
		sb_printf(sb, "\t%s_%s = __sc_sockaddr(%s, %s, %d)\n", prefix, parts[p],
			  a->uaddr, len, p);
	sb_printf(vals, ", __sc_sockaddr(%s, %s, %d)", a->uaddr, len, STP_SC_SA_ALL);
}

/*
 * .nr()'s argument: the number, else the name for __NR_<name> (no build
 * tree); and .compat(N), a 32-bit task's number of the same call.
 */
static const char *sc_nr(const struct sc_call *c)
{
	static char buf[64];
	int n;

	if (c->alias32 || c->base)
		n = snprintf(buf, sizeof(buf), "-1)");
	else if (c->nr >= 0)
		n = snprintf(buf, sizeof(buf), "%d)", c->nr);
	else
		n = snprintf(buf, sizeof(buf), "\"%s\")", c->kname);
	if (c->map32 || c->alias32 || c->base)
		snprintf(buf + n, sizeof(buf) - n, ".compat(%d", c->nr32);
	else
		buf[n - 1] = '\0';
	return buf;
}

static void sc_entry(struct strbuf *sb, struct session *s, const struct sc_call *c)
{
	struct sc_arg args[6];
	struct strbuf fmt = STRBUF_INIT, vals = STRBUF_INIT, late = STRBUF_INIT;
	/* An ia32 variant has its x86-64 call's variables, from its own registers. */
	const struct sc_call *b = c->base ? c->base : c;
	int n = sc_args(s, b, args, 6), cut = -1;
	size_t cut_fmt = 0, cut_vals = 0;

	if (c->base)
		sc_map32(c, args, n);
	sb_printf(sb, "probe syscall.%s = kernel.trace(\"raw_syscalls:sys_enter\").nr(%s)\n"
		  "{\n\tname = \"%s\"\n", c->name, sc_nr(c), sc_name(b));
	/* Calls whose buffer argument argstr shows as text. */
	bool writes = !strcmp(c->name, "write") || !strcmp(c->name, "pwrite") ||
		      !strcmp(c->name, "sendto");

	for (int i = 0; i < n; i++) {
		const struct sc_arg *a = &args[i];
		const char *const *sa;
		bool hidden = false;
		int len;

		for (size_t h = 0; h < sizeof(sc_hidden) / sizeof(sc_hidden[0]); h++)
			hidden |= !fnmatch(sc_hidden[h][0], c->name, 0) &&
				  !strcmp(sc_hidden[h][1], a->kname);
		if (hidden) {
			/* The variable, not the text. */
			sb_printf(sb, "\t%s = %s\n", a->name, sc_raw(a));
			continue;
		}
		sb_puts(&fmt, fmt.len ? ", " : "");
		switch (a->cls) {
		case SC_STRING:
			if (a->shape & SC_SH_RAW)
				sb_printf(sb, "\t%s = %s\n", a->name, sc_raw(a));
			if (a->shape & SC_SH_UADDR)
				sb_printf(sb, "\t%s_uaddr = %s\n", a->name, sc_raw(a));
			sb_printf(sb, "\t%s%s = user_string_quoted(%s)\n",
				  a->name, a->shape & SC_SH_SUFFIX ? "_str" : "", sc_raw(a));
			sb_printf(sb, "\t%s%s_unquoted = user_string(%s, \"\")\n",
				  a->name, a->shape & SC_SH_SUFFIX ? "_str" : "", sc_raw(a));
			sb_puts(&fmt, "%s");
			sb_printf(&vals, ", %s%s", a->name, a->shape & SC_SH_SUFFIX ? "_str" : "");
			break;
		case SC_STRV:
			sb_printf(sb, "\t%s = __sc_strv(%s)\n", a->name, sc_raw(a));
			sb_puts(&fmt, "%s");
			sb_printf(&vals, ", %s", a->name);
			break;
		case SC_POINTER:
			sb_printf(sb, "\t%s = %s\n", a->uaddr, sc_raw(a));
			len = writes || (a->shape & SC_SH_BUF) ? sc_buf_len(args, n, i) : -1;
			sa = sc_sockaddr(c->name, a->kname);
			if (sa && (len = sc_arg_index(args, n, sa[2])) >= 0) {
				/* After the length, which comes later: see below. */
				sc_sockaddr_vars(&late, &vals, a, sa[3], args[len].name);
				sb_puts(&fmt, "%s");
			} else if (a->decoder && !*a->str) {
				sb_puts(&fmt, "%s");
				sb_puts(&vals, ", ");
				sc_decoded(&vals, a);
			} else if (a->decoder) {
				sb_printf(sb, "\t%s = ", a->str);
				sc_decoded(sb, a);
				sb_puts(sb, "\n");
				sb_puts(&fmt, "%s");
				sb_printf(&vals, ", %s", a->str);
			} else if (len >= 0) {
				/* After the length, which comes later: see below. */
				sb_printf(&late, "\t%s = __sc_buf(%s, %s)\n",
					  a->str, a->uaddr, args[len].name);
				sb_puts(&fmt, "%s");
				sb_printf(&vals, ", %s", a->str);
			} else {
				sb_puts(&fmt, a->shape & SC_SH_HEX ? "%x" : "%p");
				sb_printf(&vals, ", %s", a->uaddr);
			}
			break;
		default:
			sb_printf(sb, "\t%s = ", a->name);
			sc_value(sb, a);
			sb_puts(sb, "\n");
			if (a->decoder == STP_SC_SOCK_PROTO || a->decoder == STP_SC_SOCKOPT) {
				/* Which protocols (options) there are depends on the
				 * family, the first argument (the level, the one before). */
				sb_printf(sb, "\t%s = __sc_decode(%d, (%s << 32) | %s)\n", a->str,
					  a->decoder, args[a->decoder == STP_SC_SOCKOPT ? i - 1 : 0].name,
					  a->name);
				sb_puts(&fmt, "%s");
				sb_printf(&vals, ", %s", a->str);
			} else if (a->decoder && !*a->str) {
				sb_puts(&fmt, "%s");
				sb_printf(&vals, ", __sc_decode(%d, %s)", a->decoder, a->name);
			} else if (a->decoder) {
				sb_printf(sb, "\t%s = __sc_decode(%d, %s)\n", a->str,
					  a->decoder, a->name);
				sb_puts(&fmt, "%s");
				sb_printf(&vals, ", %s", a->str);
			} else if (!strcmp(a->kname, "sig")) {
				/* SystemTap has both names for it, in different calls. */
				sb_printf(sb, "\t%s_name = __sc_decode(%d, %s)\n"
					  "\t%s_str = %s_name\n", a->name, STP_SC_SIGNAL, a->name,
					  a->name, a->name);
				sb_puts(&fmt, "%s");
				sb_printf(&vals, ", %s_name", a->name);
			} else {
				sb_puts(&fmt, a->cls == SC_OCTAL ? "%#o" : a->cls == SC_ADDR ? "%p" :
					a->cls == SC_UNSIGNED ? "%u" : "%d");
				sb_printf(&vals, ", %s", a->name);
			}
		}
		if (a->decoder == STP_SC_OPEN_FLAGS && i + 1 < n && args[i + 1].cls == SC_OCTAL) {
			cut = i;
			cut_fmt = fmt.len;
			cut_vals = vals.len;
		}
	}
	sb_puts(sb, sb_str(&late));
	sb_free(&late);
	bool extras32 = false;

	for (size_t e = 0; c->base && e < sizeof(sc_extras32) / sizeof(sc_extras32[0]); e++)
		if (!fnmatch(sc_extras32[e][0], b->kname, 0)) {
			sb_printf(sb, "\t%s\n", sc_extras32[e][1]);
			extras32 = true;
		}
	for (size_t e = 0; !extras32 && e < sizeof(sc_extras) / sizeof(sc_extras[0]); e++)
		if (!fnmatch(sc_extras[e][0], b->kname, 0))
			sb_printf(sb, "\t%s\n", sc_extras[e][1]);
	/* open's mode (and mq_open's attributes) mean something only when it
	 * creates (O_CREAT, O_TMPFILE): argstr stops at the flags otherwise. */
	if (cut >= 0) {
		const char *f = sb_str(&fmt), *v = sb_str(&vals);

		sb_printf(sb, "\targstr = %s & %d ? sprintf(\"%s\"%s) : sprintf(\"%.*s\"%.*s)\n}\n",
			  args[cut].name, 0100 | 020000000, f, v, (int)cut_fmt, f,
			  (int)cut_vals, v);
	} else if (n) {
		sb_printf(sb, "\targstr = sprintf(\"%s\"%s)\n", sb_str(&fmt), sb_str(&vals));
		for (size_t e = 0; e < sizeof(sc_short) / sizeof(sc_short[0]); e++)
			if (!strcmp(sc_short[e].call, c->name)) {
				sb_printf(sb, "\tif (%s)\n\t\targstr = ", sc_short[e].cond);
				sb_printf(sb, sc_short[e].argstr, sc_short[e].kind);
				sb_puts(sb, "\n");
			}
		sb_puts(sb, "}\n");
	} else {
		sb_puts(sb, "\targstr = \"\"\n}\n");
	}
	sb_free(&fmt);
	sb_free(&vals);
}

static void sc_return(struct strbuf *sb, const struct sc_call *c)
{
	/* Calls that return addresses show them in hex. */
	int format = !strcmp(c->name, "mmap2") || !strcmp(c->name, "mremap") ||
		     !strcmp(c->name, "shmat") ? 2 : !strcmp(c->name, "umask") ? 3 : 1;

	sb_printf(sb, "probe syscall.%s.return = kernel.trace(\"raw_syscalls:sys_exit\").nr(%s)\n"
		  "{\n\tname = \"%s\"\n\tretval = $ret\n\tretstr = return_str(%d, retval)\n",
		  c->name, sc_nr(c), sc_name(c->base ? c->base : c), format);
	/* adjtimex's clock state: "5 (TIME_ERROR)" */
	if (!strcmp(c->name, "adjtimex"))
		sb_printf(sb, "\tif (retval >= 0)\n\t\tretstr = __sc_decode(%d, retval)\n",
			  STP_SC_TIME_STATE);
	sb_puts(sb, "}\n");
}

struct sc_collect;
static void sc_any(struct strbuf *sb, const struct sc_collect *k);

struct sc_collect {
	struct session *s;
	struct vec calls;	/* struct sc_call * */
	const char *prefix;	/* "__do_sys_", "__se_sys_", "__do_compat_sys_" */
	bool compat;		/* prototypes of the compat entry points */
};

static int sc_cmp(const void *a, const void *b)
{
	const struct sc_call *x = *(void *const *)a, *y = *(void *const *)b;

	return strcmp(x->kname, y->kname);
}

static struct sc_call *sc_find(struct sc_collect *k, const char *kname)
{
	struct sc_call key = { .kname = (char *)kname }, *kp = &key;
	struct sc_call **c = bsearch(&kp, k->calls.items, k->calls.len, sizeof(void *), sc_cmp);

	return c ? *c : NULL;
}

static void sc_entry_fn(const char *sym, void *arg)
{
	struct sc_collect *k = arg;
	struct sc_call *c;

	/* Only whole functions: not the compiler's pieces ("gethostname.cold"). */
	if (sym[strspn(sym, "abcdefghijklmnopqrstuvwxyz0123456789_")])
		return;
	/* Compat entry points (__x64_sys_ia32_*) are not x86-64 calls. */
	if (!strncmp(sym, "__x64_sys_ia32_", 15))
		return;
	c = arena_alloc(&k->s->arena, sizeof(*c));
	c->nr = -1;
	c->nr32 = -1;
	c->kname = arena_strdup(&k->s->arena, sym + strlen("__x64_sys_"));
	c->name = sc_rename(c->kname);
	vec_push(&k->calls, c);
}

static int sc_proto_fn(const struct dw_func *f, void *arg)
{
	struct sc_collect *k = arg;
	struct sc_call *c;

	if (k->compat) {
		/* By the compat entry's name (compat_sys_fcntl64 for fcntl). */
		for (int i = 0; i < k->calls.len; i++) {
			c = k->calls.items[i];
			if (c->compat && !c->cvars &&
			    !strcmp(c->cname + strlen("compat_sys_"), f->name + strlen(k->prefix))) {
				c->cvars = arena_strdup(&k->s->arena, f->vars);
				c->cnparams = f->nparams;
			}
		}
		return 0;
	}
	c = sc_find(k, f->name + strlen(k->prefix));
	if (c && !c->vars) {
		c->vars = arena_strdup(&k->s->arena, f->vars);
		c->nparams = f->nparams;
	}
	return 0;
}

/*
 * The kernel's own x86-64 table, from its build tree's generated
 * asm/syscalls_64.h ("__SYSCALL(17, sys_pread64)"): every call with its
 * number, without the compat entry points the symbol table also has
 * (__x64_sys_ia32_*), and without reading the whole symbol table.  The
 * number of calls, 0 without the file.
 */
static int sc_read_table(struct session *s, struct sc_collect *k)
{
	char *path = xasprintf("/lib/modules/%s/build/arch/x86/include/generated/asm/"
			       "syscalls_64.h", s->release);
	struct strbuf text = STRBUF_INIT;
	const char *p;
	int n = 0;

	if (read_file(path, &text) < 0)
		text.len = 0;
	/* __SYSCALL(N, sys_x), and since 6.11 __SYSCALL_NORETURN(N, sys_x). */
	for (p = text.len ? sb_str(&text) : NULL; p && (p = strstr(p, "__SYSCALL")); p++) {
		const char *open = strchr(p, '(');
		char name[64];
		int nr;

		if (!open || sscanf(open, "(%d, sys_%63[a-z0-9_])", &nr, name) != 2 ||
		    !strcmp(name, "ni_syscall"))
			continue;
		struct sc_call *c = arena_alloc(&s->arena, sizeof(*c));

		c->kname = arena_strdup(&s->arena, name);
		c->name = sc_rename(c->kname);
		c->nr = nr;
		c->nr32 = -1;
		vec_push(&k->calls, c);
		n++;
	}
	sb_free(&text);
	free(path);
	return n;
}

/*
 * The names 32-bit programs know the calls by, which syscall_any uses as
 * SystemTap's does (_llseek, mmap2, stat64: not the entry points'
 * llseek, mmap_pgoff, stat64), from asm/unistd_32_ia32.h
 * ("#define __NR_ia32__llseek 140").
 */
static void sc_read_unames32(struct session *s, struct sc_collect *k)
{
	char *path = xasprintf("/lib/modules/%s/build/arch/x86/include/generated/asm/"
			       "unistd_32_ia32.h", s->release);
	const char *names[1024] = { 0 };
	struct strbuf text = STRBUF_INIT;
	const char *p;

	if (read_file(path, &text) < 0)
		text.len = 0;
	for (p = text.len ? sb_str(&text) : NULL; p && (p = strstr(p, "#define __NR_ia32_")); p++) {
		char name[64];
		int nr;

		if (sscanf(p + 18, "%63[A-Za-z0-9_] %d", name, &nr) == 2 && nr >= 0 && nr < 1024)
			names[nr] = arena_strdup(&s->arena, name);
	}
	for (int i = 0; i < k->calls.len; i++) {
		struct sc_call *c = k->calls.items[i];

		if (c->nr32 >= 0 && c->nr32 < 1024)
			c->uname32 = names[c->nr32];
	}
	sb_free(&text);
	free(path);
}

/*
 * The kernel's ia32 table, asm/syscalls_32.h ("__SYSCALL(3, sys_read)",
 * "__SYSCALL_WITH_COMPAT(5, sys_open, compat_sys_open)"), into the
 * sorted calls: a 32-bit task's number of each x86-64 call it has under
 * the same name, which the alias then covers too (map32; sc_check32
 * drops those whose compat prototype does not line up), and the calls
 * only ia32 has, for syscall_any's names.
 */
static void sc_read_table32(struct session *s, struct sc_collect *k)
{
	char *path = xasprintf("/lib/modules/%s/build/arch/x86/include/generated/asm/"
			       "syscalls_32.h", s->release);
	struct strbuf text = STRBUF_INIT;
	const char *p;
	int n64 = k->calls.len;

	if (read_file(path, &text) < 0)
		text.len = 0;
	for (p = text.len ? sb_str(&text) : NULL; p && (p = strstr(p, "__SYSCALL")); p++) {
		const char *open = strchr(p, '(');
		char name[64], cname[64] = "";
		struct sc_call *c, key = { .kname = name }, *kp = &key, **found;
		int nr;

		if (!open || sscanf(open, "(%d, sys_%63[a-z0-9_], %63[a-z0-9_])", &nr, name,
				    cname) < 2 || !strcmp(name, "ni_syscall"))
			continue;
		for (size_t i = 0; i < sizeof(sc_same32) / sizeof(sc_same32[0]); i++)
			if (!*cname && !strcmp(name, sc_same32[i][0]))
				snprintf(name, sizeof(name), "%s", sc_same32[i][1]);
		found = bsearch(&kp, k->calls.items, n64, sizeof(void *), sc_cmp);
		c = found ? *found : NULL;
		if (c && c->nr32 < 0) {
			size_t len = strlen(name);

			c->nr32 = nr;
			/* The same entry point (sys_getsockopt), or a compat one of
			 * the call's name, maybe of its 64-bit file offsets or times
			 * (compat_sys_fcntl64, compat_sys_ppoll_time64); another
			 * (compat_sys_ia32_clone) takes other arguments. */
			if (!*cname || (!strncmp(cname, "sys_", 4) && !strcmp(cname + 4, name))) {
				c->map32 = true;
			} else if (!strncmp(cname, "compat_sys_", 11) &&
				   !strncmp(cname + 11, name, len) &&
				   (!cname[11 + len] || !strcmp(cname + 11 + len, "64") ||
				    !strcmp(cname + 11 + len, "_time64"))) {
				c->map32 = c->compat = true;
				c->cname = arena_strdup(&s->arena, cname);
			} else if (!strncmp(cname, "compat_sys_", 11)) {
				/* another (compat_sys_ia32_clone): see sc_split32 */
				c->compat = true;
				c->cname = arena_strdup(&s->arena, cname);
			}
			continue;
		}
		c = arena_alloc(&s->arena, sizeof(*c));
		c->kname = arena_strdup(&s->arena, name);
		c->name = c->kname;
		c->nr = -1;
		c->nr32 = nr;
		c->only32 = true;
		/* its own entry point, the x86-64 kernel's function: see sc_own32 */
		c->alias32 = !*cname;
		/* else a compat one, whose prototype sc_variant32 reads */
		if (!strncmp(cname, "compat_sys_", 11)) {
			c->compat = true;
			c->cname = arena_strdup(&s->arena, cname);
		}
		vec_push(&k->calls, c);
	}
	sb_free(&text);
	free(path);
	sc_read_unames32(s, k);
	qsort(k->calls.items, k->calls.len, sizeof(void *), sc_cmp);
}

/*
 * An ia32-only call (llseek, waitpid) has an alias of its own, syscall.NAME
 * with no x86-64 number, where its entry point is the kernel's plain
 * sys_NAME (it reads what an x86-64 call would), its prototype is known,
 * and it is not an older version of an x86-64 call: 16-bit ids
 * (chown16), 32-bit times (nanosleep_time32), 64-bit offsets in two
 * registers (ia32_pread64), old structs (olduname, oldumount), or one
 * with an x86-64 alias's name (the ia32 stat reads __old_kernel_stat,
 * syscall.stat is newstat).
 */
static void sc_own32(const struct sc_collect *k, struct sc_call *c)
{
	size_t n = strlen(c->kname);

	if (!c->alias32)
		return;
	c->alias32 = c->vars && !strstr(c->kname, "old") && strncmp(c->kname, "ia32_", 5) &&
		     !(n > 2 && (!strcmp(c->kname + n - 2, "16") || !strcmp(c->kname + n - 2, "32")));
	for (int i = 0; c->alias32 && i < k->calls.len; i++) {
		const struct sc_call *o = k->calls.items[i];

		if (!o->only32 && !strcmp(o->name, c->name))
			c->alias32 = false;
	}
}

/*
 * An ia32-only entry point that is an older or split form of an x86-64
 * call (ia32_pread64 of pread64, nanosleep_time32 of nanosleep, stat64 of
 * newstat, fadvise64_64 of fadvise64) is that call's alias too, with its
 * own probe: the name with the prefix ia32_ and/or a suffix _time32, 32,
 * _64 or 64 taken off is the x86-64 call's (or its alias's), and the
 * arguments line up (sc_map32).  Names that are an x86-64 call's as they
 * are (stat, sendfile, clone) are older calls with other structs or
 * argument orders: not these.
 */
static void sc_variant32(struct session *s, const struct sc_collect *k, struct sc_call *c)
{
	static const char *const suffixes[] = { "", "_time32", "32", "_64", "64" };
	const char *name = c->kname;
	bool prefix = !strncmp(name, "ia32_", 5);

	if (!c->only32 || c->alias32 || c->nr32 < 0 || c->base)
		return;
	if (prefix)
		name += 5;
	for (size_t x = !prefix; x < sizeof(suffixes) / sizeof(suffixes[0]); x++) {
		size_t n = strlen(name), e = strlen(suffixes[x]);
		char try[64];

		if (n <= e || n - e >= sizeof(try) || strcmp(name + n - e, suffixes[x]))
			continue;
		snprintf(try, sizeof(try), "%.*s", (int)(n - e), name);
		for (int i = 0; i < k->calls.len; i++) {
			struct sc_call *b = k->calls.items[i];
			struct sc_arg args[6];

			if (b->only32 || !b->vars || (strcmp(b->kname, try) && strcmp(b->name, try)))
				continue;
			c->base = b;
			if (sc_map32(c, args, sc_args(s, b, args, 6))) {
				c->name = b->name;
				return;
			}
			c->base = NULL;
		}
	}
}

/*
 * An x86-64 call whose ia32 entry point takes its arguments in another
 * order or layout (compat_sys_ia32_clone: tls before child_tidptr;
 * compat_sys_fanotify_mark: the 64-bit mask in two), so that its alias
 * does not cover it (sc_check32), gets an ia32 variant of its own, as
 * sc_variant32's, where sc_map32 lines them up: the new call, or NULL.
 */
static struct sc_call *sc_split32(struct session *s, struct sc_call *c)
{
	struct sc_call *v;
	struct sc_arg args[6];

	if (c->only32 || c->map32 || c->nr32 < 0 || !c->compat || !c->cvars || !c->vars)
		return NULL;
	v = arena_alloc(&s->arena, sizeof(*v));
	*v = (struct sc_call){ .kname = c->kname, .name = c->name, .nr = -1, .nr32 = c->nr32,
			       .compat = true, .cname = c->cname, .cvars = c->cvars,
			       .cnparams = c->cnparams, .only32 = true, .base = c };
	return sc_map32(v, args, sc_args(s, c, args, 6)) ? v : NULL;
}

/*
 * A compat entry point covered by the x86-64 alias must take the same
 * arguments: as many, none of them a 64-bit integer (which ia32 passes
 * in two registers).
 */
static void sc_check32(struct sc_call *c)
{
	char t[128];

	if (!c->map32 || !c->compat)
		return;
	if (!c->cvars || c->cnparams != c->nparams) {
		c->map32 = false;
		return;
	}
	static const char *const wide[] = { "long long int", "long long unsigned int", "loff_t",
					    "u64", "__u64", "compat_loff_t" };

	/* (A long is one register: an ia32 one, zero-extended.) */
	for (int i = 0; i < c->cnparams && sc_param_type(c->cvars, i, t, sizeof(t)); i++)
		for (size_t j = 0; j < sizeof(wide) / sizeof(wide[0]); j++)
			if (!strncmp(t, wide[j], strlen(wide[j])) &&
			    (!t[strlen(wide[j])] || !strcmp(t + strlen(wide[j]), " const")))
				c->map32 = false;
}

/*
 * One C parameter declaration of syscalls.h ("const char __user *filename")
 * as the DWARF index writes it: "$filename:char const*" into *sb.  The
 * integer spellings are DWARF's ("unsigned long" is "long unsigned int").
 */
static void sc_c_param(struct strbuf *sb, const char *decl, size_t n)
{
	static const char *const ints[][2] = {
		{ "unsigned long", "long unsigned int" }, { "unsigned", "unsigned int" },
		{ "long", "long int" }, { "unsigned long long", "long long unsigned int" },
		{ "long long", "long long int" }, { "short", "short int" },
		{ "unsigned short", "short unsigned int" }, { "unsigned char", "unsigned char" },
	};
	struct strbuf base = STRBUF_INIT, ptr = STRBUF_INIT;
	char word[64], last[64] = "";
	bool konst = false, stars = false;
	size_t i = 0;

	while (i < n) {
		size_t j = i;

		if (decl[i] == ' ' || decl[i] == '\t' || decl[i] == '\n') {
			i++;
			continue;
		}
		if (decl[i] == '*') {
			/* the last word was a type word, not the name */
			if (*last) {
				sb_printf(&base, "%s%s", base.len ? " " : "", last);
				*last = '\0';
			}
			sb_puts(&ptr, "*");
			stars = true;
			i++;
			continue;
		}
		while (j < n && decl[j] != ' ' && decl[j] != '\t' && decl[j] != '\n' && decl[j] != '*')
			j++;
		snprintf(word, sizeof(word), "%.*s", (int)(j - i), decl + i);
		i = j;
		if (!strcmp(word, "__user"))
			continue;
		if (!strcmp(word, "const")) {
			if (stars)
				sb_puts(&ptr, " const");
			else
				konst = true;
			continue;
		}
		if (*last && !stars)
			sb_printf(&base, "%s%s", base.len ? " " : "", last);
		snprintf(last, sizeof(last), "%s", word);
	}
	const char *b = base.len ? sb_str(&base) : "int";

	for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
		if (!strcmp(ints[k][0], b))
			b = ints[k][1];
	sb_printf(sb, "%s$%s:%s%s%s", sb->len ? " " : "", *last ? last : "arg", b,
		  konst ? " const" : "", ptr.len ? sb_str(&ptr) : "");
	sb_free(&base);
	sb_free(&ptr);
}

/*
 * The prototypes of calls the DWARF index has none of (their __do_sys_ and
 * __se_sys_ were inlined: fadvise64 on 6.1), from the kernel headers'
 * linux/syscalls.h ("asmlinkage long sys_fadvise64(int fd, ...)").
 */
static void sc_read_protos(struct session *s, struct sc_collect *k)
{
	static const char *const where[] = { "source", "build" };
	struct strbuf text = STRBUF_INIT;

	for (size_t w = 0; w < 2 && !text.len; w++) {
		char *path = xasprintf("/lib/modules/%s/%s/include/linux/%s.h",
				       s->release, where[w], k->compat ? "compat" : "syscalls");

		if (read_file(path, &text) < 0)
			text.len = 0;
		free(path);
	}
	for (int i = 0; text.len && i < k->calls.len; i++) {
		struct sc_call *c = k->calls.items[i];
		struct strbuf vars = STRBUF_INIT;
		char *key;
		const char *p, *end;
		int n = 0;

		if (k->compat ? !c->compat || c->cvars : c->vars != NULL)
			continue;
		key = k->compat ? xasprintf("asmlinkage long %s(", c->cname) :
				  xasprintf("asmlinkage long sys_%s(", c->kname);
		p = strstr(sb_str(&text), key);
		if (p)
			p += strlen(key);
		free(key);
		end = p ? strchr(p, ')') : NULL;
		while (p && p < end) {
			const char *comma = memchr(p, ',', end - p);
			const char *e = comma ? comma : end;

			while (p < e && (*p == ' ' || *p == '\n' || *p == '\t'))
				p++;
			if (e - p == 4 && !strncmp(p, "void", 4))
				break;
			sc_c_param(&vars, p, e - p);
			n++;
			p = e + 1;
		}
		if (end && k->compat) {
			c->cvars = arena_strdup(&k->s->arena, vars.len ? sb_str(&vars) : "");
			c->cnparams = n;
		} else if (end) {
			c->vars = arena_strdup(&k->s->arena, vars.len ? sb_str(&vars) : "");
			c->nparams = n;
		}
		sb_free(&vars);
	}
	sb_free(&text);
}

static int sc_list(struct dw_object *dk, const char *glob, dw_func_fn fn, struct sc_collect *k)
{
	struct dw_pattern p = { .name = (char *)glob };

	/* DWARF names them all: the symbol table (~10 MB of vmlinux) is not read. */
	return dw_list_dwarf_functions(dk, &p, fn, k);
}

/*
 * Generate and parse the aliases into *out.  0, or -1 after a message at
 * loc (the point that asked for them).
 */
int sc_tapset(struct session *s, const struct srcloc *loc, struct program *out)
{
	return sc_tapset_parts(s, loc, out, SC_PART_ALL);
}

int sc_tapset_parts(struct session *s, const struct srcloc *loc, struct program *out,
		    int parts)
{
	struct dw_object *dk = pf_kernel(s, loc, false);
	struct sc_collect k = { .s = s };
	struct strbuf sb = STRBUF_INIT;
	bool table;
	int i, r;

	if (!dk)
		return -1;
	/* Collected once a session: later parts reuse them. */
	if (s->sc_calls.len) {
		k.calls = s->sc_calls;
		goto generate;
	}
	/* Without a build tree (-p2 only), the symbols name the calls. */
	r = sc_read_table(s, &k);
	table = r > 0;
	if (r <= 0)
		r = pf_ksym_prefix(s->release, "__x64_sys_", sc_entry_fn, &k);
	if (r <= 0) {
		diag_error(s, loc, "kernel %s has no system call table (asm/syscalls_64.h) "
			   "and no __x64_sys_* symbols: no system call probes on it",
			   s->release);
		vec_free(&k.calls);
		return -1;
	}
	qsort(k.calls.items, k.calls.len, sizeof(void *), sc_cmp);
	if (table)
		sc_read_table32(s, &k);	/* sorts again */
	k.prefix = "__do_sys_";
	sc_list(dk, "__do_sys_*", sc_proto_fn, &k);
	k.prefix = "__se_sys_";
	sc_list(dk, "__se_sys_*", sc_proto_fn, &k);
	sc_read_protos(s, &k);
	k.prefix = "__do_compat_sys_";
	k.compat = true;
	sc_list(dk, "__do_compat_sys_*", sc_proto_fn, &k);
	sc_read_protos(s, &k);
	for (i = 0; i < k.calls.len; i++) {
		sc_check32(k.calls.items[i]);
		sc_own32(&k, k.calls.items[i]);
	}
	int ncalls = k.calls.len;

	for (i = 0; i < ncalls; i++) {
		struct sc_call *v = sc_split32(s, k.calls.items[i]);

		if (v)
			vec_push(&k.calls, v);
	}
	for (i = 0; i < k.calls.len; i++)
		sc_variant32(s, &k, k.calls.items[i]);
	s->sc_calls = k.calls;	/* the calls are in the session's arena */
generate:
	if (!out)
		return 0;	/* sc_dump: the calls only */
	sb_puts(&sb, "// Generated from the kernel's system calls (translator/syscalls.c).\n");
	for (i = 0; i < k.calls.len; i++) {
		struct sc_call *c = k.calls.items[i];

		if (c->only32 && !c->alias32 && !c->base)
			continue;
		if (parts & SC_PART_ENTRY)
			sc_entry(&sb, s, c);
		if (parts & SC_PART_RETURN)
			sc_return(&sb, c);
	}
	for (i = 0; i < k.calls.len; i++) {
		struct sc_call *c = k.calls.items[i];

		if (c->only32 && !c->alias32)
			continue;
		if (parts & SC_PART_ND_ENTRY)
			sb_printf(&sb, "probe nd_syscall.%s = syscall.%s { }\n", c->name, c->name);
		if (parts & SC_PART_ND_RETURN)
			sb_printf(&sb, "probe nd_syscall.%s.return = syscall.%s.return { }\n",
				  c->name, c->name);
	}
	if (parts & SC_PART_ANY)
		sc_any(&sb, &k);

	struct srcfile *f = source_from_string(s, "<syscalls>", sb_str(&sb));

	sb_free(&sb);
	f->is_tapset = true;
	return parse_file(s, f, out);
}

/*
 * syscall_any: the raw_syscalls tracepoints, one probe for every call,
 * with the call's name from a table the kernel headers number
 * (__NR_<kernel name>, for the calls this kernel has).
 */
static void sc_any(struct strbuf *sb, const struct sc_collect *k)
{
	sb_puts(sb, "%{\n#include <asm/unistd.h>\n"
		"static const char *const stp_sc_names[] = {\n");
	for (int i = 0; i < k->calls.len; i++) {
		const struct sc_call *c = k->calls.items[i];

		/* The kernel's name here (pread64, mmap), as SystemTap's. */
		if (c->only32)
			continue;
		if (c->nr >= 0)
			sb_printf(sb, "\t[%d] = \"%s\",\n", c->nr, c->kname);
		else
			sb_printf(sb, "#ifdef __NR_%s\n\t[__NR_%s] = \"%s\",\n#endif\n",
				  c->kname, c->kname, c->kname);
	}
	/* A 32-bit task's calls, by their ia32 numbers (NULL: none known). */
	sb_puts(sb, "};\n#include <linux/compat.h>\n"
		"static const char *const stp_sc_names32[] = {\n");
	int n32 = 0;

	for (int i = 0; i < k->calls.len; i++) {
		const struct sc_call *c = k->calls.items[i];

		/* (a split call's number is its x86-64 call's too: once) */
		if (c->nr32 >= 0 && (!c->base || c->base->nr32 != c->nr32) && ++n32)
			sb_printf(sb, "\t[%d] = \"%s\",\n", c->nr32,
				  c->uname32 ? c->uname32 : c->kname);
	}
	if (!n32)
		sb_puts(sb, "\tNULL,\n");
	sb_puts(sb, "};\n%}\n"
		"function __sc_name:string (nr:long)\n"
		"%{ /* pure */ /* unprivileged */\n"
		"\tif (!(current->flags & PF_KTHREAD) && in_compat_syscall()) {\n"
		"\t\tif (STAP_ARG_nr >= 0 && STAP_ARG_nr < ARRAY_SIZE(stp_sc_names32) &&\n"
		"\t\t    stp_sc_names32[STAP_ARG_nr])\n"
		"\t\t\tstrscpy(STAP_RETVALUE, stp_sc_names32[STAP_ARG_nr], MAXSTRINGLEN);\n"
		"\t\telse\n"
		"\t\t\tsnprintf(STAP_RETVALUE, MAXSTRINGLEN, \"syscall_%lld\", "
		"(long long)STAP_ARG_nr);\n"
		"\t} else if (STAP_ARG_nr >= 0 && STAP_ARG_nr < ARRAY_SIZE(stp_sc_names) &&\n"
		"\t    stp_sc_names[STAP_ARG_nr])\n"
		"\t\tstrscpy(STAP_RETVALUE, stp_sc_names[STAP_ARG_nr], MAXSTRINGLEN);\n"
		"\telse\n"
		"\t\tsnprintf(STAP_RETVALUE, MAXSTRINGLEN, \"syscall_%lld\", "
		"(long long)STAP_ARG_nr);\n"
		"%}\n"
		"/** sfunction syscall_name - Return the name of system call nr (\"read\" for 0), \"\" if none */\n"
		"function syscall_name:string (nr:long)\n"
		"%{ /* pure */ /* unprivileged */\n"
		"\tif (STAP_ARG_nr >= 0 && STAP_ARG_nr < ARRAY_SIZE(stp_sc_names) &&\n"
		"\t    stp_sc_names[STAP_ARG_nr])\n"
		"\t\tstrscpy(STAP_RETVALUE, stp_sc_names[STAP_ARG_nr], MAXSTRINGLEN);\n"
		"\telse\n"
		"\t\tSTAP_RETVALUE[0] = '\\0';\n"
		"%}\n"
		"probe syscall_any = kernel.trace(\"raw_syscalls:sys_enter\")\n"
		"{\n\tsyscall_nr = $id\n\tname = __sc_name(syscall_nr)\n}\n"
		"probe syscall_any.return = kernel.trace(\"raw_syscalls:sys_exit\")\n"
		"{\n\tsyscall_nr = syscall_nr()\n\tname = __sc_name(syscall_nr)\n"
		"\tretval = $ret\n}\n");
}

/*
 * The parts a point may match: syscall.NAME is an entry, three or more
 * components may be a .return; nd_syscall's are built on syscall's.
 */
int sc_parts(const struct probe_point *pt)
{
	const char *first = pt->comps->name;
	int n = 0, parts = 0;

	for (const struct pp_comp *c = pt->comps; c; c = c->next)
		n++;
	if (!fnmatch(first, "syscall", 0))
		parts |= SC_PART_ENTRY | (n >= 3 ? SC_PART_RETURN : 0);
	if (!fnmatch(first, "nd_syscall", 0))
		parts |= SC_PART_ENTRY | SC_PART_ND_ENTRY |
			 (n >= 3 ? SC_PART_RETURN | SC_PART_ND_RETURN : 0);
	if (!fnmatch(first, "syscall_any", 0))
		parts |= SC_PART_ANY;
	return parts;
}

/* Does a probe point's first component ask for these aliases? */
bool sc_wanted(const char *first)
{
	return !fnmatch(first, "syscall", 0) || !fnmatch(first, "nd_syscall", 0) ||
	       !fnmatch(first, "syscall_any", 0);
}

/*
 * stap --dump-syscalls: the aliases' calls for scripts/syscall-man.sh,
 * one a line, tab-separated: alias name, the kernel's name, x86-64
 * number, the ia32 numbers the alias covers (180,181; - if none), the prototype ("char
 * const *filename, int flags, umode_t mode"; - if none or unknown) and
 * the variables of its arguments, in order ("filename flags mode").
 */
int sc_dump(struct session *s)
{
	struct srcloc loc = { 0 };

	if (sc_tapset_parts(s, &loc, NULL, 0) < 0)
		return 1;
	for (int i = 0; i < s->sc_calls.len; i++) {
		const struct sc_call *c = s->sc_calls.items[i];
		char type[128];
		const char *p = c->vars;

		if (c->only32 && !c->alias32)
			continue;
		printf("%s\t%s\t%d\t", c->name, c->kname, c->nr);
		/* its ia32 number, and those of its ia32 variants (180 of pread64) */
		int n32 = 0;

		if (c->map32 || c->alias32)
			n32 += printf("%d", c->nr32) > 0;
		for (int v = 0; v < s->sc_calls.len; v++) {
			const struct sc_call *o = s->sc_calls.items[v];

			if (o->base == c)
				n32 += printf("%s%d", n32 ? "," : "", o->nr32) > 0;
		}
		printf("%s\t", n32 ? "" : "-");
		int j;

		for (j = 0; p && j < c->nparams && sc_param_type(c->vars, j, type,
								   sizeof(type)); j++) {
			const char *d = strchr(p, '$'), *colon = d ? strchr(d, ':') : NULL;
			const char *star = strchr(type, '*');

			if (!colon || strstr(type, "pt_regs"))
				break;
			/* "char const*" and "filename": "char const *filename" */
			if (!star)
				star = type + strlen(type);
			printf("%s%.*s %s%.*s", j ? ", " : "", (int)(star - type), type, star,
			       (int)(colon - d - 1), d + 1);
			p = colon;
		}
		printf("%s\t", j ? "" : c->vars ? "void" : "-");
		/* the variables of the arguments, in order */
		struct sc_arg args[6];
		int n = c->vars ? sc_args(s, c, args, 6) : 0;

		for (j = 0; j < n; j++)
			printf("%s%s", j ? " " : "", args[j].name);
		printf("%s\n", n ? "" : "-");
	}
	return 0;
}

/* Is name a public function of the generated file (sc_any)? */
bool sc_defines(const char *name)
{
	return !strcmp(name, "syscall_name");
}
