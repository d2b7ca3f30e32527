/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interface every probe family implements: recognise a probe point,
 * check its arguments, and emit the C that registers it.  One file per
 * family under probes/; pf_families[] in probes.c lists them.
 */
#ifndef PROBES_H
#define PROBES_H

#include <elfutils/libdw.h>

#include "../stap.h"

struct probe_family {
	const char *name;	/* for -p2 listings and messages */
	/*
	 * The point forms the family accepts, NULL-terminated, in forms.c's
	 * notation: "kernel.function(S)[.call|.return[.maxactive(N)]]".
	 * Wildcard points are matched against them (pf_form_points).
	 */
	const char *const *forms;
	/*
	 * Its forms are for --dump-probe-types only: neither a wildcard
	 * point nor a did-you-mean stands for them (obsolete.c's, which
	 * cannot be probed).
	 */
	bool listed_only;
	/*
	 * Does this point belong to the family?  Returns 1 and fills rp
	 * (pp, priority, family_data) if so, 0 if not, -1 after reporting
	 * an error (bad argument).
	 */
	int (*resolve)(struct session *s, struct probe_point *pt,
		       struct resolved_probe *rp);
	/*
	 * Optional: one resolved point becomes several probes, one per
	 * match of a wildcard (so pp() and -p2 name the match).  Push onto
	 * out one struct resolved_probe per match (arena-allocated, with pp
	 * and family_data set; sem fills in the rest).  Returns how many, 0
	 * for an optional point that matched nothing (dropped silently), or
	 * -1 after reporting an error.  Without it, the point is one probe.
	 */
	int (*expand)(struct session *s, struct resolved_probe *rp, struct vec *out);
	/*
	 * Optional: the context target variables ($var, $$parms, $return,
	 * @entry) of probe rp are read in; see tvar.h.  Called once per
	 * probe, on the first use of one.  0, or -1 after reporting an
	 * error at loc.  Families without it refuse target variables.
	 */
	int (*tv_scope)(struct session *s, struct resolved_probe *rp,
			const struct srcloc *loc, struct tv_scope *out);
	/*
	 * Optional: rewrite a probe's body (a copy of its own) before pass 2
	 * checks it, for families whose context values are not DWARF
	 * variables (procfs's $value).  Returns the new body.
	 */
	struct node *(*rewrite_body)(struct session *s, struct resolved_probe *rp,
				     struct node *body);
	/* Session state the family's probes run in (enum in stp_runtime.h). */
	const char *state;
	/*
	 * Hits run in a traced task with c->uprobe set: target-variable
	 * reads are of its user memory (tvar.c picks the reader).
	 */
	bool user_space;
	/*
	 * Emit family-level C: declarations, then code inside
	 * stp_session_start() and stp_session_stop().  probes holds this
	 * family's resolved probes, in priority order.  Any may be NULL.
	 */
	void (*emit_decls)(struct session *s, struct strbuf *c, struct vec *probes);
	void (*emit_start)(struct session *s, struct strbuf *c, struct vec *probes);
	void (*emit_stop)(struct session *s, struct strbuf *c, struct vec *probes);
};

extern const struct probe_family *const pf_families[];
extern const int pf_nfamilies;

/*
 * For rewrite_body hooks: call fn on each node of the list at *np and,
 * where fn returns false (not replaced), on the nodes below it.  fn may
 * replace *np (keeping its next link) and return true.
 */
typedef bool (*pf_rewrite_fn)(struct session *s, struct node **np, void *arg);
void pf_rewrite_walk(struct session *s, struct node **np, pf_rewrite_fn fn, void *arg);
/* A call fn(arg) at at's place, taking at's next link (arg may be NULL). */
struct node *pf_call_node(struct session *s, const struct node *at, const char *fn,
			  struct node *arg);

/*
 * Point-syntax errors shared by the families: "unexpected 'c' after
 * AFTER" (with a did-you-mean among valid[0..nvalid)), -1; and c's
 * quoted, non-empty argument, or NULL after "needs a quoted argument".
 */
int pf_unexpected(struct session *s, const struct pp_comp *c, const char *after,
		  const char *const *valid, int nvalid);
const char *pf_string_arg(struct session *s, const struct pp_comp *c, const char *usage);
/*
 * .label("LPATTERN"): fn on each DW_TAG_label under a function's DIE
 * whose name matches LPATTERN (a glob), in its lexical blocks too but
 * not in functions inlined into it (their labels are theirs), with the
 * label's address (as the DIE's DWARF has it) and declared line (0 if
 * none).  A label the compiler dropped has no address and is skipped.
 * Stops at fn's first non-zero return, which it returns.
 */
typedef int (*pf_label_fn)(const char *name, uint64_t pc, int line, void *arg);
/*
 * fn on each DIE of a function's own scope (parent's children, those of
 * its lexical blocks in their place, not the blocks themselves; a
 * function inlined into it is one DIE, not entered: what is in it is
 * its own).  Stops at fn's first non-zero return, which it returns.
 */
typedef int (*pf_die_fn)(Dwarf_Die *die, void *arg);
int pf_each_own_die(Dwarf_Die *parent, pf_die_fn fn, void *arg);
/*
 * .exported, as SystemTap 4.8 reads it: whether the function at DIE
 * die_off has external linkage (DW_AT_external: not static), whether or
 * not EXPORT_SYMBOL names it.
 */
bool pf_die_external(Dwarf *dbg, uint64_t die_off);
int pf_each_label(Dwarf_Die *parent, const char *pattern, pf_label_fn fn, void *arg);
/*
 * function(ADDRESS): the out-of-line function whose code holds link-time
 * address addr (the outermost subprogram around it: code inlined there
 * is the function's), its DIE's offset and name (*name); 0 if none.
 */
uint64_t pf_func_at(Dwarf *dbg, uint64_t addr, const char **name);
/*
 * The beginning of the statement holding link-time address addr in cu's
 * line table, as SystemTap 4.8 reads it: the last row at or before it,
 * is_stmt or not (4.8 takes vfs_read + 5 on 6.1, a row GCC does not
 * mark), into *begin.  false if none.
 */
bool pf_stmt_begin(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Addr *begin);
/*
 * .callee / .callees(DEPTH) (callee.c): for each copy of the functions
 * of @o matching @callers, each function matching @pattern it calls
 * (inlined into it, or at a call site the DWARF records), and down to @depth levels every function those call:
 * add(caller, callee, chain, nchain, arg) for each copy of a callee to
 * probe (its inlined copy in the caller, or its out-of-line copies),
 * where chain holds the return addresses of the out-of-line calls on the
 * way, outermost first (link-time addresses).  Stops at add's first
 * non-zero return.  The number of caller copies walked, or -errno:
 * -E2BIG once more than 20000 copies were walked (a deep .callees of a
 * busy function).
 */
/*
 * .callee("PATTERN")[.call|.return] or .callees[(DEPTH)] at c: the
 * callee pattern ("*" for .callees), the depth (1 unless .callees(N))
 * and what follows.  0, or -1 after an error.  A .return probe with
 * callers to check gets an @entry slot (pf_callee_entry_slot): its
 * callers are checked at the entry, which arms the return only if they
 * match.
 */
#define PF_MAX_CALLEE_DEPTH	8
enum pf_callee_suffix { PF_CALLEE_ANY, PF_CALLEE_CALL, PF_CALLEE_RETURN };
int pf_resolve_callee(struct session *s, const struct pp_comp *c, const char **pattern,
		      int *depth, enum pf_callee_suffix *suffix);
void pf_callee_entry_slot(struct resolved_probe *rp);
struct dw_object;
struct dw_pattern;
struct dw_site;
struct dw_stmt;
/*
 * .statement("FUNC@FILE:N").nearest in a module or user file (stmt_near.c):
 * add(st, arg) on the statements of line N in each matching function, or
 * of the closest line of the function's own file with code where N has
 * none (the later on a tie).  dw_statements' count, or -errno.
 */
int pf_nearest_stmts(struct session *s, struct dw_object *o, const struct dw_pattern *pat,
		     int (*add)(const struct dw_stmt *st, void *arg), void *arg);
/* A statement line with no code: a hint naming the lines either side. */
void pf_near_hint(struct session *s, struct dw_object *o, const char *pattern);
typedef int (*pf_callee_add_fn)(const struct dw_site *caller, const struct dw_site *callee,
				const uint64_t *chain, int nchain, void *arg);
int pf_walk_callees(struct session *s, struct dw_object *o, const struct dw_pattern *callers,
		    const char *pattern, int depth, pf_callee_add_fn add, void *arg);
/*
 * The points a point with wildcards in its component names stands for
 * among the families' forms (process.* is process.begin, process.end,
 * ...): each a copy of pt with the names filled in, pushed onto out.
 * Returns how many.
 */
int pf_form_points(struct session *s, const struct probe_point *pt, struct vec *out);
/*
 * For "did you mean": each family form of as many components as pt,
 * written out with pt's arguments where it takes one
 * (kernel.function("vfs_read") for kernel.functoin("vfs_read")).
 */
void pf_form_texts(struct session *s, const struct probe_point *pt, struct vec *out);
/*
 * --dump-probe-types: every plain form, an argument written "(string)"
 * or "(number)" (both, where it takes either), malloc'd, onto out.
 */
void pf_form_list(struct vec *out);
/* The point's component names joined with '.', arguments included. */
char *pf_point_text(struct session *s, const struct probe_point *pt);
/*
 * For families that register kprobes by symbol name (kprobe.c has the
 * symbol tables): how many text symbols of kernel @release are named
 * @name (*ncopies; the kernel resolves a name to the first), and why the
 * kernel would refuse a kprobe there (*why, NULL if it would not).
 * 0, or -1 if the release has no symbol table to tell.
 */
int pf_ksym_check(const char *release, const char *name, const char **why,
		  int *ncopies);
/*
 * Why probes must not go on kernel function @name declared in @file
 * (which may be NULL), though the kernel would allow it (unsafe.c), or
 * NULL.
 */
const char *pf_unsafe_function(const char *name, const char *file);
/*
 * Why the kernel would refuse a kprobe at link-time address @addr of the
 * vmlinux at path @vmlinux though its function allows kprobes (a jump
 * label or static call site), or NULL.
 */
const char *pf_text_reserved(const char *vmlinux, uint64_t addr);
/*
 * The link-time address of the fentry call (ftrace site) of the kernel
 * function starting at link-time address @func in @vmlinux, or 0.
 */
uint64_t pf_ftrace_site(const char *vmlinux, uint64_t func);
/*
 * The link-time address of kernel @release's first symbol named @name,
 * text or data, into *addr: 1, 0 if there is none, -1 if the release has
 * no symbol table.
 */
int pf_ksym_addr(const char *release, const char *name, uint64_t *addr);
/*
 * Call fn on each distinct text symbol name of kernel @release that
 * starts with prefix, in name order.  The count, or -1 if the release
 * has no symbol table.
 */
int pf_ksym_prefix(const char *release, const char *prefix,
		   void (*fn)(const char *name, void *arg), void *arg);
/*
 * A process("PATH") path as the shell finds a program: absolute as
 * given, relative to the working directory if it has a '/', else in
 * $PATH; links are not resolved.  malloc'ed, or NULL if not found.
 */
char *pf_user_path(const char *name);
/* process(PID): PID's program (malloc'd), or NULL after an error at arg. */
char *pf_pid_program(struct session *s, const struct node *arg);
/* The C name of a resolved probe's descriptor: "stp_probe_<id>". */
#define PF_DESC_FMT "stp_probe_%d"

/*
 * The struct stp_kprobe tables of kprobe.* and kernel.function probes
 * (kprobe.c; registered by runtime/kprobe.c).  The flags are the
 * STP_KPROBE_* of runtime/stp_runtime.h, in step with flag_names there.
 */
enum { PF_KP_RETURN = 1, PF_KP_OPTIONAL = 2, PF_KP_WILDCARD = 4, PF_KP_FENTRY = 8 };
void pf_kprobe_row(struct strbuf *c, int probe_id, const char *symbol,
		   uint64_t offset_or_addr, int maxactive, int group, unsigned flags);
/*
 * The same for a .return probe reading nslots @entry values: the row
 * names the entry function stp_entry_<probe_id> the emitter writes.
 */
void pf_kprobe_row_entry(struct strbuf *c, int probe_id, const char *symbol,
			 uint64_t offset_or_addr, int maxactive, int group, unsigned flags,
			 int nslots);
/*
 * The same with the link-time address of symbol + offset (link) and of
 * _printk (link_ref), so that the runtime registers the kernel's kprobe
 * by address, moved by the KASLR offset: a kprobe by name costs a
 * kallsyms_lookup_name(), a scan of every kernel symbol before 6.2.
 * ftrace: an entry's fentry call (pf_ftrace_site), where the runtime
 * hooks it with no kprobe, or 0.
 */
void pf_kprobe_row_link(struct strbuf *c, int probe_id, const char *symbol,
			uint64_t offset, int maxactive, int group, unsigned flags,
			int nslots, uint64_t link, uint64_t link_ref, uint64_t ftrace);
void pf_kprobe_emit_start(struct strbuf *c, const char *table);
void pf_kprobe_emit_stop(struct strbuf *c, const char *table);

/*
 * The session's kernel DWARF (tv_kernel: its DIEs outlive pass 2), or
 * NULL after reporting why at loc (on stderr if loc is NULL; not at all
 * if quiet).
 */
struct dw_object *pf_kernel(struct session *s, const struct srcloc *loc, bool quiet);

/*
 * stap -l / -L for the families that list their own points (list.c
 * dispatches): push one malloc'ed line per point matching pattern, the
 * whole probe point as text ("kernel.trace(\"sched:*\")"), onto lines;
 * with_vars appends the target variables as -L shows them.  Returns 1 if
 * pattern is not the family's, 0 if listed, -1 after a message on stderr.
 */
int pf_trace_list(struct session *s, const char *pattern, bool with_vars,
		  struct vec *lines);
int pf_stmt_list(struct session *s, const char *pattern, bool with_vars,
		 struct vec *lines);
int pf_uprobe_list(struct session *s, const char *pattern, bool with_vars,
		   struct vec *lines);

#endif /* PROBES_H */
