/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers behind the tapset library's embedded-C functions (the tapsets).
 * Tapset files include this header from a top-level %{ %} block; the
 * runtime's tapset_*.c, sym.c and stack.c implement it.
 *
 * Everything here may be called from probe context: nothing allocates,
 * sleeps or faults.  Results go into caller-provided MAXSTRINGLEN
 * buffers (the function's frame in the per-CPU context), never onto the
 * kernel stack.  Functions that fail set the hit's error with
 * _stp_error() and return a negative errno; the caller's STAP_ERROR or
 * plain return then unwinds the handler.
 */
#ifndef STP_TAPSET_H
#define STP_TAPSET_H

#include <linux/types.h>
#include "stp_runtime.h"

struct pt_regs;

/* ---- memory and strings (tapset_mem.c) ---- */

/*
 * Copy the NUL-terminated string at addr (at most len - 1 bytes; dst is
 * always terminated) without faulting.  A fault fails the hit with
 * SystemTap's message, "kernel string copy fault at 0x... [man
 * error::fault]" or "user string copy fault -14 at 0x... [...]", unless
 * quiet, which only returns -EFAULT (dst then holds "").
 * User reads fail (-EFAULT) where there is no user address space: a
 * kernel thread, an NMI.
 */
int _stp_kstring(struct stp_context *c, char *dst, uint64_t addr, size_t len,
		 bool quiet);
int _stp_ustring(struct stp_context *c, char *dst, uint64_t addr, size_t len,
		 bool quiet);
/* Non-faulting read of len bytes; 0 or -EFAULT, never fails the hit. */
int _stp_kread_quiet(void *dst, uint64_t addr, size_t len);
int _stp_uread_quiet(void *dst, uint64_t addr, size_t len);
/* A kernel scalar (1, 2, 4 or 8 bytes) at addr, sign-extended; on a fault
 * fails the hit with "kernel <what> copy fault at 0x... [man error::fault]",
 * or "read fault [man error::fault] at 0x..." if what is NULL (SystemTap's). */
int64_t _stp_kread_scalar(struct stp_context *c, uint64_t addr, size_t size,
			  const char *what);
/* A user number of size bytes at addr, sign-extended if is_signed; 0 if
 * it cannot be read (user_int() and friends). */
int64_t _stp_user_num(uint64_t addr, size_t size, bool is_signed);
/* The same, and on a fault: with warn ("char copy fault at"), the warning
 * "user <warn> 0x... [man error::fault]" (user_char_warn() and friends);
 * without, the error "read fault [man error::fault] at 0x..." (the
 * user_*_error() functions). */
int64_t _stp_user_num_checked(struct stp_context *c, uint64_t addr, size_t size,
			      bool is_signed, const char *warn);
/* tokenize(): the next non-empty token, "" input continuing the last. */
void _stp_tokenize(char *dst, const char *input, const char *delim);
/* Non-faulting write of size bytes into kernel memory; 0 or -EFAULT. */
int _stp_kwrite_quiet(uint64_t addr, const void *src, size_t size);
/* Write size bytes of val at addr (guru set_kernel_*); same errors. */
void _stp_kwrite_scalar(struct stp_context *c, uint64_t addr, size_t size,
			int64_t val, const char *what);
/* Copy up to n bytes of src (kernel string) into kernel memory at addr. */
void _stp_kwrite_string(struct stp_context *c, uint64_t addr, const char *src,
			size_t n);
/* The same into the current task's user memory (guru set_user_*): the
 * scalar's fault is "user <what> copy fault at 0x%016llx ..."; the
 * string's an error, or with warn only a warning; 0 or -EFAULT. */
int _stp_uwrite_quiet(uint64_t addr, const void *src, size_t size);
void _stp_uwrite_scalar(struct stp_context *c, uint64_t addr, size_t size,
			int64_t val, const char *what);
int _stp_uwrite_string(struct stp_context *c, uint64_t addr, const char *src,
		       size_t n, bool warn);
/* The UTF-16 (unit 2) or UTF-32 (unit 4) string at addr, kernel or user, as
 * UTF-8; a fault or a UTF-32 unit that is no character fails the hit. */
int _stp_string_utf(struct stp_context *c, char *dst, uint64_t addr, int unit, bool user);
/* The UTF-8 string src in double quotes, ASCII escaped as string_quoted
 * does, other characters as \uXXXX or \UXXXXXXXX (*_string_quoted_utf*). */
void _stp_utf8_quoted(char *dst, const char *src);

/*
 * SystemTap's text_strn: src with non-printable characters escaped (\n,
 * \t, \", \\, other bytes as \ooo), at most len characters (0: as many
 * as fit), in double quotes if quoted; "..." after it marks input that
 * did not fit.  dst and src must not overlap.
 */
void _stp_text_str(char *dst, const char *src, size_t len, bool quoted);
/* The same for the n bytes at src, NULs included (as "\0"). */
void _stp_text_buf(char *dst, const char *src, size_t n, size_t len, bool quoted);
/*
 * SystemTap's kernel/user_buffer_quoted: inlen bytes at addr (at most
 * MAXSTRINGLEN) quoted as _stp_text_buf does within outlen characters
 * (0: as many as fit), or the address in hex if unreadable.
 */
void _stp_buffer_quoted(char *dst, uint64_t addr, int64_t inlen, int64_t outlen, bool user);
/* The same; 0, or -EFAULT if unreadable (the *_buffer_quoted_error forms). */
int _stp_buffer_quoted_checked(char *dst, uint64_t addr, int64_t inlen, int64_t outlen,
			       bool user);

/* ---- context (tapset_ctx.c) ---- */

/*
 * Register value by name ("ax", "rax", "eax", "ip", ...) from regs; a
 * 32-bit name's value is sign-extended, or zero-extended if zext.
 */
int64_t _stp_register(struct stp_context *c, struct pt_regs *regs,
		      const char *name, bool zext);
/* Function argument n (1-based) of the probed function, by the ABI. */
int64_t _stp_func_arg(struct stp_context *c, int n);
/* Set it (guru set_*_arg): the register, or size bytes of the stack slot. */
void _stp_set_func_arg(struct stp_context *c, int n, int64_t v, size_t size);
/* The address the probe hit: regs' ip, less the int3 a kprobe emulates. */
unsigned long _stp_probe_addr(struct stp_context *c);
void _stp_print_regs(struct stp_context *c, struct pt_regs *regs);
/*
 * The current task's ids and names, out of line so that a script's C
 * needs neither <linux/sched.h> nor <linux/cred.h> (a third of a
 * second of every module's compile): pid() and friends in the init
 * namespaces, uid() and friends in the initial user namespace, as
 * SystemTap's.  execname() and pexecname() copy comm into dst.
 */
int64_t _stp_pid(void);
int64_t _stp_tid(void);
int64_t _stp_ppid(void);
int64_t _stp_pgrp(void);
int64_t _stp_sid(void);
int64_t _stp_uid(void);
int64_t _stp_euid(void);
int64_t _stp_gid(void);
int64_t _stp_egid(void);
int64_t _stp_cpu(void);
void _stp_execname(char *dst);
void _stp_pexecname(char *dst);
/* uaddr(): the user-space address the current task was at, or 0. */
unsigned long _stp_uaddr(struct stp_context *c);
/* The current task's command line, arguments joined by delim. */
void _stp_cmdline(struct stp_context *c, char *dst, int first, int last,
		  const char *delim);
/* The value of the current task's environment variable name, "" if unset. */
void _stp_env_var(struct stp_context *c, char *dst, const char *name);

/* ---- time and names (tapset_misc.c) ---- */

/* "Thu Jan  1 00:00:00 1970"; fails the hit outside 32-bit seconds. */
int _stp_ctime(struct stp_context *c, char *dst, int64_t secs);
/* "ENOENT" for 2 or -2; "E#N" for numbers without a name. */
void _stp_errno_str(char *dst, int64_t err);
/* "SIGHUP" for 1; "SIG" and the number for others. */
void _stp_signal_str(char *dst, int64_t sig);
/* SystemTap's return_str: "-2 (ENOENT)", else the value in format
 * 1 decimal, 2 hex, 3 octal. */
void _stp_return_str(char *dst, int64_t format, int64_t ret);

/*
 * module_size(): "NNdata/NNtext/NNctx/NNnet/NNalloc kb", this module's
 * data and text, its per-CPU contexts, its relay buffers and what the
 * runtime allocated at load (_stp_alloc_note()).
 */
void _stp_module_size(char *dst, size_t len);

/* ---- system calls (tapset_syscall.c) ---- */

#include "stp_syscall.h"


/* Argument n (1-6) of the current task's system call, 0 outside one. */
int64_t _stp_sc_arg(int n);
/* The current system call's number, -1 outside one. */
int64_t _stp_sc_nr(void);
/* kind: enum stp_sc_kind (stp_syscall.h) */
void _stp_sc_decode(char *dst, int kind, int64_t v);
void _stp_sc_sockaddr(char *dst, unsigned long uaddr, int64_t len, int part);

/* procfs probes' $value (runtime/procfs.c): set or append s, or read it. */
void _stp_procfs_set(struct stp_context *c, const char *s, bool append);
void _stp_procfs_value(struct stp_context *c, char *dst);

/* system(): ask staprun to run cmd with /bin/sh -c in the background. */
void _stp_system(const char *cmd);

/* abort(): end the session now, skipping end probes and this handler's
 * remaining statements. */
void _stp_abort(struct stp_context *c);
extern const char _stp_abort_msg[];

/* ---- symbols and stacks (sym.c, stack.c) ---- */

#define STP_MAX_STACK 64	/* frames backtrace() and friends collect */

/*
 * One symbol table the translator emitted (translator/syms.c): the
 * function symbols of the kernel, sorted by address, as offsets from a
 * link-time base.  _stp_sym_tables[] ends with an entry whose name is
 * NULL; a module that needs no symbols gets only that entry.
 */
struct stp_symtab {
	const char *name;	/* "kernel" */
	u64 base;		/* link-time address offsets count from */
	const u32 *offs;	/* sorted */
	const u32 *sizes;	/* 0: unknown, up to the next symbol */
	const u32 *names;	/* offsets into strtab */
	const char *strtab;
	u32 n;
	u64 link_ref;		/* link-time address of _printk: KASLR */
};
extern const struct stp_symtab _stp_sym_tables[];

/*
 * Resolve addr to the symbol holding it: its name into name (at least
 * KSYM_NAME_LEN bytes), its offset and size, and the module's name
 * ("kernel").  Addresses no emitted table holds (modules) are asked of
 * the kernel's kallsyms.  0, or -ENOENT if nothing holds addr.
 */
int _stp_sym_lookup(unsigned long addr, char *name, size_t len,
		    unsigned long *off, unsigned long *size, const char **mod);
/* symdata: "vfs_read+0x17/0x1a0 [kernel]", or "0x..." if unknown. */
void _stp_symdata(char *dst, size_t len, unsigned long addr);
/* symname: "vfs_read", or "0x..." if unknown. */
void _stp_symname(char *dst, size_t len, unsigned long addr);

/*
 * Kernel source lines (runtime/lines.c; translator/lines.c builds the
 * table, empty unless a "/ * lines * /" function is used).
 */
extern const u32 _stp_lines_blob[];
/* What symfileline ("fs/namei.c:4160", what 'f'), symfile ('F') and
 * symline ('L') return for addr: or addr in hex if its line is unknown. */
void _stp_symfileline(char *dst, size_t len, unsigned long addr, char what);

/*
 * The kernel stack of this hit, innermost first: the probed address
 * when the hit has registers, then the return addresses the kernel's
 * unwinder finds.  Up to max addresses; returns how many.  A hit in
 * user mode has no kernel stack (0).
 */
int _stp_stack_pcs(struct stp_context *c, unsigned long *pcs, int max);
/* Were the hit's callers those of its probe's stp_callers? */
bool _stp_callers_match(struct stp_context *c, const struct stp_callers *cl);
bool _stp_ucallers_match(struct stp_context *c, const struct stp_callers *cl);
/*
 * Print (to_str false) or write into dst (MAXSTRINGLEN) one line per
 * hex address in the string addrs: verbose " 0x... : sym+off/size [mod]"
 * lines as print_stack() prints them, or symdata lines as sprint_stack()
 * returns them.
 */
void _stp_syms_print(struct stp_context *c, const char *addrs, bool verbose,
		     char *dst);

/*
 * Print line and a newline (dst NULL), or append them to dst at *out if
 * they fit in MAXSTRINGLEN; false when full.
 */
bool _stp_line_out(struct stp_context *c, const char *line, char *dst, size_t *out);
/* print_backtrace() (dst NULL) and sprint_backtrace() (into dst). */
void _stp_backtrace_syms(struct stp_context *c, bool verbose, char *dst);
/* Hex addresses of frames skip.. (count of them, -1: all), as backtrace(). */
void _stp_backtrace_hex(struct stp_context *c, char *dst, int skip, int count);
/* The address at depth (0: the probe point), or fail the hit. */
int64_t _stp_backtrace_at(struct stp_context *c, int64_t depth);

/*
 * The index of t's symbol holding offset rel (from t->base), its offset
 * and size into *off and *size; -1 if none does (a gap between symbols).
 */
long _stp_symtab_find(const struct stp_symtab *t, unsigned long rel,
		      unsigned long *off, unsigned long *size);

/* ---- user symbols and stacks (usym.c, ustack.c) ---- */

/*
 * A user file's tables (translator/usyms.c): symbols as file offsets
 * (syms.name is the file's path) and .eh_frame unwind rows, sorted by
 * file offset: from pc to the next row, the caller's frame is at CFA =
 * (rsp or rbp, cfa_reg) + cfa_off, its return address at CFA + 8 * ra,
 * its rbp at CFA + 8 * bp (0: unchanged).  STP_UCFI_NONE: no rule, use
 * frame pointers.  The values are translator/syms.h's UCFI_ ones.
 */
enum { STP_UCFI_SP = 0, STP_UCFI_BP = 1, STP_UCFI_NONE = 2 };
struct stp_ucfi {
	u32 pc;
	s32 cfa_off;
	u8 cfa_reg;
	s8 ra, bp;
};
struct stp_usymtab {
	struct stp_symtab syms;
	const struct stp_ucfi *cfi;
	u32 ncfi;
};
extern const struct stp_usymtab _stp_usym_tables[];

/* Session start/stop (module.c): find the tables' files; 0 or -errno. */
int _stp_usyms_start(void);
void _stp_usyms_stop(void);

/* Where a user address is: its file and the offsets SystemTap prints. */
struct stp_uloc {
	const struct stp_usymtab *t;	/* the file's tables, or NULL */
	const char *path;		/* t's path, or the mapping's (per-CPU) */
	unsigned long off;		/* the address's file offset */
	unsigned long rel, size;	/* from the file's load address; span */
};
/*
 * current's mm with its mmap lock held (a trylock: NULL if it is busy,
 * or in interrupt context, or for a kernel thread), for _stp_uloc().
 */
struct mm_struct *_stp_umm_lock(void);
void _stp_umm_unlock(struct mm_struct *mm);
/* 0, or -ENOENT if nothing file-backed is mapped at addr. */
int _stp_uloc(struct mm_struct *mm, unsigned long addr, struct stp_uloc *l);

/* How a user address reads: the _stp_usym_format styles. */
enum stp_ufmt {
	STP_UFMT_NAME,		/* usymname: "leaf", or "0x..." */
	STP_UFMT_DATA,		/* usymdata: "leaf+0x7/0xe [/path]" */
	STP_UFMT_STACK,		/* print_ustack: " 0x... : " + usymdata */
	STP_UFMT_BT,		/* print_ubacktrace: as STACK, but " 0x... [lib+0x..]" */
	STP_UFMT_SHORT,		/* sprint_ubacktrace: "leaf+0x7 [ubt]" */
	STP_UFMT_BRIEF,		/* print_ubacktrace_brief: "leaf+0x7" */
};
void _stp_usym_format(char *dst, size_t len, unsigned long addr, enum stp_ufmt how);
/* umodname: the path of the file mapped at addr; -ENOENT if none. */
int _stp_umodname(char *dst, size_t len, unsigned long addr);

/*
 * The user stack of this hit, innermost first, from the task's user
 * registers (the hit's own in a uprobe): .eh_frame rows where the file
 * has them, else frame pointers.  A file without tables ends the walk
 * after its first frame, with a warning once naming it.  Up to max.
 */
int _stp_ustack_pcs(struct stp_context *c, unsigned long *pcs, int max);
/* ubacktrace (trailing space) and ucallers(count - 1): hex into dst. */
void _stp_ubacktrace_hex(struct stp_context *c, char *dst, int count, bool trailing);
/* ustack(n): the address n frames up this hit's user stack; an error past its end. */
int64_t _stp_ustack_at(struct stp_context *c, int64_t n);

/* Where a user stack walk starts: print_ubacktrace(pc, sp, fp). */
struct stp_ustart {
	unsigned long pc, sp, bp;
};
/*
 * One line per frame of this hit's user stack (from start if not NULL),
 * in the how style, or per word of addrs if not NULL (as print_ustack);
 * printed (dst NULL) or into dst (MAXSTRINGLEN).  print_ubacktrace() in a
 * .return probe starts with "Returning from:" and "Returning to  :" lines.
 */
void _stp_ustack_print(struct stp_context *c, const char *addrs, enum stp_ufmt how,
		       char *dst);
void _stp_ustack_print_from(struct stp_context *c, const struct stp_ustart *start,
			    enum stp_ufmt how);

#endif /* STP_TAPSET_H */
