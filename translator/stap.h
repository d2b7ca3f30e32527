/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The translator's one internal header: source files, tokens, the AST,
 * the session that carries one translation, and each pass's entry point.
 *
 * Prefixes: lex_ (lex.c), parse_ (parse.c), sem_ (sem.c), elide_ (elide.c),
 * emit_ (emit.c), build_ (build.c), run_ (run.c), diag_ (diag.c), probe
 * families pf_.
 */
#ifndef STAP_H
#define STAP_H

#include <stdbool.h>
#include <stdint.h>
#include "util.h"

struct session;
struct tapset_lib;
struct node;
struct rx_prog;
struct tv_code;
struct tv_scope;
struct tv_ctype;

/* ---- sources and diagnostics (diag.c) ---- */

struct srcfile {
	const char *name;	/* as shown in messages: "<input>", "x.stp" */
	const char *text;	/* NUL-terminated contents */
	size_t len;
	bool is_tapset;		/* from the tapset library: embedded C allowed */
	/* Generated for that file's code (desugar.c): sees its private names. */
	const struct srcfile *owner;
};

struct srcloc {
	const struct srcfile *file;
	int line, col;		/* 1-based */
	const char *at;		/* pointer into file->text */
	int len;		/* length of the spot to underline */
};

/*
 * "file:line:col: error: message", the source line, a caret under the
 * spot.  Errors are counted in the session; each pass stops the pipeline
 * if it saw any.
 */
void diag_error(struct session *s, const struct srcloc *loc, const char *fmt,
		...) PRINTF_LIKE(3, 4);
void diag_warn(struct session *s, const struct srcloc *loc, const char *fmt,
	       ...) PRINTF_LIKE(3, 4);
/* A "note:" or "hint:" line attached to the previous diagnostic. */
void diag_note(struct session *s, const struct srcloc *loc, const char *fmt,
	       ...) PRINTF_LIKE(3, 4);
void diag_hint(struct session *s, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* The best "did you mean" among candidates, or NULL if none is close. */
const char *diag_closest(const char *word, const char *const *cands, int n);

/* ---- tokens (lex.c) ---- */

enum tok_kind {
	TK_IDENT,	/* name, and keywords: the parser tells them apart */
	TK_NUM,		/* 42, 0x2a, 052 */
	TK_STR,		/* "text": str holds it decoded */
	TK_PUNCT,	/* operators and separators, longest match */
	TK_DOLLAR,	/* $name, $$vars, $name$, $1 */
	TK_AT,		/* @name (@sum, @cast, @define...), @1 */
	TK_ARGC,	/* $# and @# */
	TK_EMBEDDED,	/* %{ C code %}: str holds the code */
	TK_EOF,
};

struct token {
	enum tok_kind kind;
	struct token *next;
	struct srcloc loc;
	const char *text;	/* loc.at, loc.len characters long */
	int64_t num;		/* TK_NUM */
	char *str;		/* TK_STR, TK_EMBEDDED, TK_DOLLAR/TK_AT name */
	int str_len;		/* TK_STR: decoded length (may hold NULs) */
	struct token *origin;	/* made by a macro: the "@name" use it
				 * came from (itself maybe expanded); NULL
				 * if written in the file */
};

/* Tokenize a whole file into a list ending with TK_EOF. NULL on error. */
struct token *lex_file(struct session *s, const struct srcfile *f);
bool tok_is(const struct token *t, const char *punct_or_ident);

/* ---- preprocessor (preprocess.c): macros, then %( %? %: %) ---- */

/*
 * Expand @define macros and resolve conditionals in a lex_file() list.
 * Returns the new list (ending with TK_EOF), or NULL after printing
 * diagnostics; NULL in gives NULL out.
 */
struct token *pp_run(struct session *s, struct token *toks);
/* Read every *.stpm in dir: macros visible to every file parsed after. */
int pp_load_library_macros(struct session *s, const char *dir);
/* Release what the preprocessor cached for the session. */
void pp_free(struct session *s);
/* "note: in expansion of macro '@foo'" for each macro t came from. */
void pp_note_expansion(struct session *s, const struct token *t);

/* ---- the AST ---- */

enum type {
	TY_UNKNOWN,
	TY_LONG,
	TY_STRING,
	TY_STATS,	/* statistics aggregate: only <<< and @ops apply */
	TY_VOID,	/* function with no return value */
};

/* Operators of ND_BINARY, ND_UNARY and ND_ASSIGN; op_names[] in ast.c
 * must stay in step. */
enum op {
	OP_NONE,
	OP_ADD,		/* + */
	OP_SUB,		/* - */
	OP_MUL,		/* * */
	OP_DIV,		/* / */
	OP_MOD,		/* % */
	OP_SHL,		/* << */
	OP_SHR,		/* >> */
	OP_BITAND,	/* & */
	OP_BITOR,	/* | */
	OP_BITXOR,	/* ^ */
	OP_AND,		/* && */
	OP_OR,		/* || */
	OP_EQ,		/* == */
	OP_NE,		/* != */
	OP_LT,		/* < */
	OP_LE,		/* <= */
	OP_GT,		/* > */
	OP_GE,		/* >= */
	OP_CONCAT,	/* . */
	OP_MATCH,	/* =~ */
	OP_NOMATCH,	/* !~ */
	OP_NEG,		/* -x */
	OP_PLUS,	/* +x */
	OP_NOT,		/* !x */
	OP_BITNOT,	/* ~x */
	OP_PREINC,	/* ++x */
	OP_PREDEC,	/* --x */
	OP_POSTINC,	/* x++ */
	OP_POSTDEC,	/* x-- */
	OP__COUNT
};
extern const char *const op_names[OP__COUNT];

/* Functions the translator implements itself (sem.c's table). */
enum builtin {
	BI_NONE,
	BI_PRINTF,	/* printf(fmt, ...) */
	BI_SPRINTF,	/* sprintf(fmt, ...) */
	BI_PRINT,	/* print(v, ...) */
	BI_PRINTLN,	/* println(v, ...) */
	BI_SPRINT,	/* sprint(v, ...) */
	BI_SPRINTLN,	/* sprintln(v, ...) */
	BI_EXIT,	/* exit() */
	BI_ERROR,	/* error(msg) */
};

/* A printf format, split into literal text and conversions (format.c). */
struct fmt_conv {
	const char *lit;	/* text before the conversion, '%' doubled */
	char flags[6];		/* of "-+ #0" */
	int width;		/* -1 none, -2 '*' */
	int prec;		/* -1 none, -2 '*' */
	char conv;		/* d i u x X o c s p b; 0 for the trailing text */
};
struct fmt {
	struct fmt_conv *convs;
	int n;			/* conversions + 1 (the last has conv 0) */
	int nargs;		/* values it consumes, '*' included */
	bool has_binary;	/* has %b: only printf can write it */
};
struct fmt *fmt_parse(struct session *s, const struct node *lit, bool report);

enum node_kind {
	/* expressions */
	ND_NUM,		/* 42 */
	ND_STR,		/* "text" */
	ND_VAR,		/* name: a local, a global scalar or a whole array */
	ND_INDEX,	/* name[e1, e2] */
	ND_TARGET,	/* $var, $var->field[3], $$parms: target variable */
	ND_ARG,		/* $1 (number) or @1 (string) */
	ND_ARGC,	/* $# or @# */
	ND_CALL,	/* f(e1, e2) */
	ND_BINARY,	/* lhs op rhs */
	ND_UNARY,	/* op operand, operand op (++/--) */
	ND_ASSIGN,	/* lhs = rhs, lhs op= rhs (op OP_NONE for =) */
	ND_TERNARY,	/* cond ? then : els */
	ND_IN,		/* [e1, e2] in array, e1 in array */
	ND_STATOP,	/* @count(x) @sum @min @max @avg @variance(x[, shift]) */
	ND_HIST,	/* @hist_linear(x, lo, hi, step), @hist_log(x) */
	ND_PUSH,	/* lhs <<< rhs */
	ND_CAST,	/* @cast(e, "type"[, "module"]) then ->members */
	ND_DEFINED,	/* @defined(e) */
	ND_ENTRY,	/* @entry(e) */
	ND_ATVAR,	/* @var("name@file"[, "module"]) */
	ND_AUTOCAST,	/* (e)->members: e a target expression, once sem.c
			 * has folded it (@choose_defined(a, b)->f) */
	/* statements */
	ND_BLOCK,	/* { s1 s2 } */
	ND_EXPR_STMT,	/* e; */
	ND_NULL_STMT,	/* ; */
	ND_IF,		/* if (cond) then else els */
	ND_WHILE,	/* while (cond) body */
	ND_FOR,		/* for (init; cond; step) body */
	ND_FOREACH,	/* foreach ([k1, k2] in a- limit n) body */
	ND_BREAK,	/* break */
	ND_CONTINUE,	/* continue */
	ND_NEXT,	/* next */
	ND_RETURN,	/* return e */
	ND_DELETE,	/* delete a[k], delete a, delete x */
	ND_TRY,		/* try { } catch (msg) { } */
	ND_EMBEDDED,	/* %{ C %} as a function body */
};

/* A member step after a target variable or @cast: ->name, .name, [e]. */
struct member {
	struct member *next;
	struct srcloc loc;
	const char *name;	/* NULL for an index */
	struct node *index;
};

struct node {
	enum node_kind kind;
	struct srcloc loc;	/* the token that names the construct */
	enum type type;		/* filled in by sem */
	enum op op;
	struct node *next;	/* next in a list (block, args, indexes) */

	int64_t num;		/* ND_NUM, ND_ARG (argument number) */
	const char *str;	/* ND_STR (decoded), names, @op name,
				 * ND_EMBEDDED code */
	int str_len;		/* ND_STR: decoded length */
	bool str_arg;		/* ND_ARG/ND_ARGC: @ form (string) */

	struct node *lhs, *rhs;	/* binary, assign, push, index base */
	struct node *cond, *then, *els;
	struct node *init, *step, *body;
	struct node *args;	/* call arguments, indexes, hist params */
	struct member *members;	/* ND_TARGET, ND_CAST, ND_ATVAR */

	/* ND_FOREACH */
	struct node *keys;	/* the loop variables, ND_VAR list */
	struct node *value;	/* v in "foreach (v = [k] in a)", or NULL */
	struct node *array;	/* ND_VAR, or ND_STATOP/ND_INDEX? no: a name */
	int sort_key;		/* 0: none; -1: by value; k>0: by key k */
	int sort_dir;		/* +1 ascending, -1 descending */
	const char *sort_stat;	/* "sum" in "a[k]@sum-" (sort by stat op) */
	struct node *limit;
	struct node *slice;	/* ND_FOREACH "in a[*, e]": one node per index,
				 * ND_NULL_STMT for '*'; sem.c rewrites it */

	/* ND_TRY */
	struct node *catch_var;	/* ND_VAR or NULL */

	/* sem results */
	struct symbol *sym;	/* ND_VAR, ND_INDEX, ND_FOREACH array */
	struct func *func;	/* ND_CALL of a script function */
	enum builtin builtin;	/* ND_CALL of a built-in */
	struct fmt *fmt;	/* printf-family format, parsed */
	struct rx_prog *rx;	/* =~ / !~: the compiled pattern */
	int id;			/* per-kind numbering for emitted C */
	struct tv_code *tv;	/* target constructs: tvar.c's resolution */
};

/*
 * The C type a local's or a function's value carries (SystemTap's
 * "autocast"): what the target expressions assigned to it gave, so that
 * "f = $file; f->f_flags" reads through it.  A second, different type
 * is kept to say where the conflict is (sem.c).
 */
struct carried {
	const struct tv_ctype *type;	/* NULL: none (yet) */
	struct srcloc loc;		/* the value that gave it */
	const struct tv_ctype *other;	/* a different one: no type then */
	struct srcloc other_loc;
};

/* probe point component: kernel . function("vfs_*") . return */
struct pp_comp {
	struct pp_comp *next;
	struct srcloc loc;
	const char *name;	/* "function", "*" allowed in aliases */
	struct node *arg;	/* ND_NUM / ND_STR literal, or NULL */
	/* '?' / '!' after this component inside braces: "{trace("a")!, ...}" */
	bool optional, sufficient;
};

struct probe_point {
	struct probe_point *next;
	struct srcloc loc;
	struct pp_comp *comps;
	bool optional;		/* ? */
	bool sufficient;	/* ! */
	struct node *cond;	/* "if (expr)" on the point */
};

struct probe {
	struct probe *next;
	struct srcloc loc;	/* the "probe" keyword */
	struct probe_point *points;
	struct node *body;	/* ND_BLOCK */
	struct srcfile *file;
	/* aliases: probe name = points { prologue } / += { epilogue } */
	bool is_alias;
	bool alias_epilogue;	/* += */
	struct probe_point *alias_names;
	bool privileged;	/* from a tapset file */
	/* sem results */
	struct vec locals;	/* struct symbol *: the handler's frame */
	int id;			/* handler number in the emitted C */
	/* A handler of its own for one resolved probe (target variables). */
	struct resolved_probe *tv_rp;
};

struct param {
	struct param *next;
	struct srcloc loc;
	const char *name;
	enum type type;		/* from ":long"/":string", else TY_UNKNOWN */
	struct symbol *sym;
};

struct func {
	struct func *next;
	struct srcloc loc;
	const char *name;
	enum type type;		/* declared (":long") or inferred */
	struct param *params;
	int nparams;
	struct node *body;	/* ND_BLOCK or ND_EMBEDDED */
	bool is_private;
	bool used;
	bool returns_value;	/* has a "return e" (sem) */
	const struct srcfile *file;
	int id;
	struct vec locals;	/* struct symbol *: params first, then locals */
	/* embedded C pragmas */
	bool pure, unprivileged, guru;
	/* pragma "returns: struct T *": &@cast(0, "struct T", "kernel"),
	 * whose C type its result carries (task_current()->pid) */
	struct node *returns_cast;
	struct carried ct;	/* the C type of its result (sem.c) */
};

struct global {
	struct global *next;
	struct srcloc loc;
	const char *name;
	struct node *init;	/* literal initialiser or NULL */
	int64_t max_entries;	/* "global a[1000]", 0 if none */
	bool is_array;		/* declared with [...] */
	bool wrap;		/* "global a%": a full array drops its oldest entry */
	bool is_private;
	const struct srcfile *file;
	struct symbol *sym;
};

/* Everything a script file (or tapset file) defines. */
struct program {
	struct probe *probes;
	struct probe *aliases;
	struct func *funcs;
	struct global *globals;
	struct node *embedded;	/* top-level %{ %} blocks, ND_EMBEDDED list */
	bool probes_in;		/* a library file's probes: resolved (sem.c) */
};

/* ---- symbols (sem.c) ---- */

enum sym_kind { SYM_LOCAL, SYM_GLOBAL, SYM_PARAM };

struct symbol {
	enum sym_kind kind;
	const char *name;
	const char *cname;	/* globals: C name part, unique even for private ones */
	enum type type;		/* value type */
	int arity;		/* number of index types; 0 for a scalar */
	enum type key_types[9];
	struct srcloc decl;	/* first declaration or use */
	struct srcloc type_loc;	/* where the type was decided */
	struct global *global;	/* SYM_GLOBAL */
	bool read, written;
	bool unassigned_reported;	/* locals: "never assigned" said once */
	bool sorted;		/* globals: a sorted foreach (sem.c's warning) */
	bool value_read;	/* globals: value used after elision (else autoprinted) */
	bool is_array;		/* indexed anywhere (arity > 0) */
	bool pcpu_counter;	/* globals: a number kept per CPU (emit_map.c) */
	struct node *hist;	/* the @hist_* use that fixes its buckets */
	struct node *variance;	/* the @variance(x, N) that fixes N */
	int id;
	int first_use;		/* globals: 1 + how many were used before it
				 * (probes, then functions): autoprint's order */
	struct carried ct;	/* scalars: the C type of their value (sem.c) */
};

/* ---- the session ---- */

struct script_arg {
	const char *text;
};

struct session {
	struct arena arena;	/* everything of this translation */
	/* options */
	int last_pass;		/* -p N; 5 by default */
	int verbose;		/* -v count, plus --vp's for the pass running */
	int verbose_v;		/* -v count alone */
	int vp[5];		/* --vp ABCDE: each pass's extra verbosity */
	bool example;		/* --example: the script is one of the examples */
	const char *runtime_opt;	/* -R DIR */
	bool keep_tmp;		/* -k */
	bool guru;		/* -g */
	bool skip_badvars;	/* --skip-badvars: bad $vars read as 0 */
	bool suppress_handler_errors;	/* --suppress-handler-errors */
	const char *compatible;	/* --compatible=VERSION: systemtap_v, or NULL */
	bool no_warnings;	/* -w */
	bool warnings_are_errors;	/* -W */
	bool no_global_display;	/* --no-global-var-display */
	struct vec modinfo;	/* --modinfo NAME=VALUE (const char *) */
	bool diag_muted;	/* diag.c: the last warning was suppressed (-w) */
	int diag_quiet;		/* > 0: errors are neither shown nor counted (a
				 * trial, as @defined's) */
	bool unoptimized;	/* -u: no dead-store elision */
	bool timing;		/* -t: the probe hit report at the end */
	int monitor_s;		/* --monitor[=SECS]: staprun -M SECS */
	bool bulk;		/* -b: per-CPU output files */
	bool flight;		/* -F: overwriting buffers; staprun -L or -D */
	const char *rotate;	/* -S SIZE[,N], for staprun */
	const char *color;	/* --color's WHEN, for staprun -C; NULL: auto */
	bool vm;		/* --vm */
	const char *module_name;	/* -m, or the cache's stap_KEY (build.c) */
	bool module_named;	/* -m given */
	/* --disable-cache: CACHE_OFF; --poison-cache: CACHE_WRITE (not read) */
	enum { CACHE_ON, CACHE_WRITE, CACHE_OFF } cache_mode;
	bool clean_cache;	/* --clean-cache */
	/* --privilege=LEVEL (--unprivileged: stapusr); privilege.c checks it */
	enum { PRIV_STAPDEV, PRIV_STAPSYS, PRIV_STAPUSR } privilege;
	const char *cached_ko;	/* pass 4 found the module in the cache */
	const char *release;	/* -r, or the running kernel */
	const char *output_file;	/* -o */
	const char *script_file;	/* the script's path, or NULL for -e */
	const char *script_text;	/* -e text */
	struct vec extra_scripts;	/* -E texts (const char *), <input1>... */
	struct vec defines;	/* -D NAME[=VALUE] */
	struct vec make_args;	/* -B NAME=VALUE: kbuild's make arguments */
	struct vec gvars;	/* -G NAME=VALUE: module parameters for staprun */
	struct vec include_dirs;	/* -I DIR */
	struct vec args;	/* $1.. after the script */
	const char *runtime_dir;
	const char *tapset_dir;
	const char *staprun;
	const char *tmpdir;
	/* --kbuild-defer DIR, --kbuild-batch DIR: the test runner's (build.c) */
	const char *kbuild_defer, *kbuild_batch;
	int vm_timeout;
	int bufsize_mb;		/* -s; 0: the runtime's default */
	int timeout_s;		/* -T; 0: none */
	struct vec vm_insmod;	/* --vm-insmod PATH: .ko files the VM loads
				 * before the script; module("NAME") finds them */
	/* --vm-spawn=PID:CMD: the VM starts CMD as process PID before the
	 * script, and process(PID) probes find their program in CMD */
	int vm_spawn_pid;
	const char *vm_spawn_cmd;
	const char *target_cmd;	/* -c CMD: staprun runs it, target() is its pid */
	int target_pid;		/* -x PID: target() is PID; 0: neither option */
	int namespaces_pid;	/* --target-namespaces=PID (staprun -N); 0: none */
	const char *list_pattern;	/* -l/-L PROBE: list, don't run */
	bool list_vars;		/* -L: with context variables */
	struct vec sym_modules;	/* -d MODULE: symbols wanted for backtraces */
	bool ldd;		/* --ldd: and those of the user files' libraries */
	bool need_usyms;	/* user_files' tables even if no function asks (.callee) */
	struct vec user_files;	/* files process(...) probes are in: their symbols
				 * serve user backtraces (const char *, arena) */
	bool all_modules;	/* --all-modules */
	bool dump_functions;	/* --dump-functions */
	bool dump_aliases;	/* --dump-probe-aliases */
	bool dump_types;	/* --dump-probe-types */
	bool dump_syscalls;	/* --dump-syscalls */

	/* state */
	struct pp_cache *pp;	/* preprocess.c's caches */
	int errors, warnings;
	struct srcfile *user_file;
	struct program user;	/* the user's script */
	struct vec tapset_files;	/* parsed tapset programs */
	struct tapset_lib *lib;	/* session.c: the library files, parsed on demand */
	/* resolved program: what is emitted */
	struct vec probes;	/* struct resolved_probe *, one per point */
	struct vec handlers;	/* struct probe *: bodies to emit */
	struct vec trace_memo;	/* probes/trace.c: struct tr_memo *, in the arena */
	struct vec sc_calls;	/* syscalls.c: the kernel's calls, once collected */
	int hwbkpts;		/* probes/hwbkpt.c: kernel.data points resolved */
	struct vec perf_counters;	/* probes/perf.c: .counter("NAME") names (const char *) */
	struct vec funcs;	/* struct func *, used ones */
	struct vec regexes;	/* struct node *: =~ / !~ sites, node->id numbers them */
	struct vec globals;	/* struct symbol *, used globals */
	void *tv_state;		/* tvar.c's per-session state */
	struct strbuf c_code;	/* pass 3 output */
	char *module_path;	/* pass 4 output */
};

/* A probe after alias expansion and probe-point resolution. */
struct resolved_probe {
	const struct probe_family *family;
	struct probe *probe;		/* the user's probe (body source) */
	struct probe_point *point;	/* the point that matched */
	const char *pp;			/* canonical probe point text */
	const char *label;		/* .label probes: the label's name, for
					 * pnlabel() and stap -l's .label("NAME") */
	const char *pn;			/* the alias the script named, for pn(); or NULL */
	const char *list_pp;		/* what stap -l prints, if not pp (.callee) */
	const char *list_vars;		/* what stap -L adds: "$a:int $b:char*" */
	/*
	 * .callee probes: the return addresses (link-time) the hit's callers
	 * must have, the innermost first (runtime struct stp_callers).
	 */
	const uint64_t *callers;
	int ncallers;
	bool callers_user;		/* ... file offsets of a user file */
	struct node *body;		/* prologues + body + epilogues */
	int64_t priority;		/* begin(N)/end(N) ordering */
	int id;
	struct vec locals;		/* struct symbol *, for the C frame */
	void *family_data;
	/* target variables (tvar.c) */
	struct tv_scope *tvs;		/* the family's context, on first use */
	bool tvs_failed;		/* the family could not give one */
	/*
	 * @entry values of a .return probe: C int64_t expressions evaluated
	 * at function entry into slot i (char *), read back by the handler
	 * as c->entry_slots[i].
	 */
	struct vec entry_exprs;
};

/* ---- passes ---- */

/* session.c: the tapset library, all parsed now (0 or -1), and freeing it all. */
int session_load_tapsets(struct session *s);
/*
 * Or the library's index only (0 or -1): pass 2 then parses the files
 * that may define a name (session_need_tapsets) as it meets the name.
 */
int session_index_tapsets(struct session *s);
/*
 * Parse the library files not parsed yet that may define name, as kind
 * 'f' (a function), 'g' (a global) or 'a' (an alias whose first
 * component is name, or matches it if name is a wildcard); kind 0: every
 * file.  Each program parsed is pushed onto s->tapset_files and added.
 * 0, or -1 if one did not parse (diagnostics printed).
 */
int session_need_tapsets(struct session *s, char kind, const char *name, struct vec *added);
/* The number of library files, parsed or not. */
int session_tapset_count(struct session *s);
void session_free(struct session *s);

/* Pass 1: parse the user's script. 0 or -1 (diagnostics printed). */
int parse_file(struct session *s, struct srcfile *f, struct program *out);
struct srcfile *source_load(struct session *s, const char *path);
/* Is the n characters at s a script keyword (if, while, delete, ...)? */
bool parse_is_keyword(const char *s, size_t n);
struct srcfile *source_from_string(struct session *s, const char *name,
				   const char *text);
/*
 * Rewrite the array slices of program p (desugar.c): foreach over a[*, e],
 * [e, *] in a, delete a[*, e].  0, or -1 after a message.
 */
int desugar_program(struct session *s, struct program *p);
/*
 * The system call aliases of the session's kernel (syscalls.c), parsed
 * into *out; 0, or -1 after a message at loc.  sc_wanted: does a probe
 * point's first component name them (syscall, nd_syscall, a glob)?
 */
int sc_tapset(struct session *s, const struct srcloc *loc, struct program *out);
/*
 * The same, only the parts named (SC_PART_*): a script that probes
 * syscall.* is spared the parse of the .return and nd_syscall aliases.
 * sc_parts: the parts a probe point may need.
 */
enum {
	SC_PART_ENTRY = 1, SC_PART_RETURN = 2, SC_PART_ND_ENTRY = 4,
	SC_PART_ND_RETURN = 8, SC_PART_ANY = 16, SC_PART_ALL = 31,
};
int sc_tapset_parts(struct session *s, const struct srcloc *loc, struct program *out,
		    int parts);
int sc_parts(const struct probe_point *pt);
bool sc_wanted(const char *first);
/* stap --dump-syscalls: the aliases' calls, one a line (syscalls.c); exit status. */
int sc_dump(struct session *s);
/* Is name a function the system call library defines (syscall_name)? */
bool sc_defines(const char *name);
/* -p1 output: the program in canonical form. */
void ast_print_program(struct strbuf *sb, const struct program *p);
void ast_print_expr(struct strbuf *sb, const struct node *n);
/* Probe points as written: "a.b(1)!, c?" (their '!', '?' and conditions). */
void ast_print_points(struct strbuf *sb, const struct probe_point *pp);
void ast_print_point(struct strbuf *sb, const struct probe_point *pp);
/*
 * A deep copy of n and the list it heads (before pass 2: sem results are
 * copied as they are), for probes that need a body of their own.
 */
struct node *ast_clone(struct arena *a, const struct node *n);
const char *type_name(enum type t);

/* Pass 2: load tapsets, resolve probes, functions, globals, types. */
int sem_elaborate(struct session *s);
void sem_print(struct session *s, struct strbuf *sb);	/* -p2 listing */
/* After pass 2 (elide.c): drop dead stores and effect-free statements (not -u). */
void elide_dead_stores(struct session *s);
/* Mark the globals whose value the program reads (symbol.value_read). */
void elide_find_value_reads(struct session *s);

/* Pass 3: generate the module's C into s->c_code. */
/* Each -G NAME=VALUE names a settable global and fits its type; 0 or -1. */
int check_gvars(struct session *s);
int emit_program(struct session *s);

/*
 * Pass 4: build NAME.ko with kbuild in s->tmpdir; sets s->module_path.
 * With --kbuild-defer, 1: the build directory was left for kbuild_batch.
 */
int build_module(struct session *s);
/* --kbuild-batch DIR: one kbuild for every DIR/NAME/; 0 if all built. */
int kbuild_batch(struct session *s, const char *dir);
/* The kernel build tree for a release, or NULL with a message. */
char *build_kernel_tree(struct session *s, const char *release);

/*
 * The module cache (cache.c): a 128-bit key over everything a build
 * reads, the module name it gives (stap_KEY), and the kept modules.
 */
struct cache_key {
	uint64_t a, b;
};
void ckey_init(struct cache_key *k);
void ckey_add(struct cache_key *k, const void *data, size_t len);
void ckey_str(struct cache_key *k, const char *s);
char *cache_module_name(const struct cache_key *k);
/* The kept NAME.ko, touched as used, or NULL (none, or not reading the cache). */
char *cache_lookup(struct session *s, const char *name);
/* Keep KO and its C as NAME's entry: the entry's module, or NULL (not kept). */
char *cache_store(struct session *s, const char *name, const char *ko,
		  const struct strbuf *c);
/* --clean-cache: prune the cache to its limit now; exit status. */
int cache_clean(struct session *s);

/* --privilege: the level names, by s->privilege. */
extern const char *const priv_names[];
/* After pass 2: what --privilege=stapusr refuses, reported; 0 or -1. */
int priv_check(struct session *s);
/* Whether a probe point form ("timer.ms(number)") is stapusr's. */
bool priv_form_allowed(const char *form);

/* Pass 5: run the module on this host or in a VM. Returns exit status. */
int run_module(struct session *s);
/* --dump-functions (dump.c): the tapset library's functions; exit status. */
int dump_functions(struct session *s);
/* stap --dump-probe-aliases: "NAME = POINTS" a line (dump.c); exit status. */
int dump_probe_aliases(struct session *s);
/* stap --dump-probe-types: the probe point forms, sorted (dump.c); exit status. */
int dump_probe_types(struct session *s);
/* -l/-L: print the probe points matching pattern; the exit status. */
int list_probes(struct session *s, const char *pattern, bool with_vars);

/*
 * -c CMD: 0 if CMD parses and its program exists on this host, else -1
 * with a message ("stap: -c: cannot find 'foo' in PATH").
 */
int run_check_target_cmd(const char *cmd);
/* --vm-spawn PID:CMD: 0 with *pid and *cmd set, else -1 with a message. */
int run_check_spawn(const char *arg, int *pid, const char **cmd);
/* --vm-insmod PATH: 0 if PATH is a readable NAME.ko, else -1 with a message. */
int run_check_insmod(const char *path);

/* Newest release with /boot/vmlinuz-R and /lib/modules/R/build. */
char *run_newest_provisioned_release(void);
/* --vm-batch DIR: every module in DIR in one boot; see run.c. */
int run_vm_batch(struct session *s, const char *dir);

#endif /* STAP_H */
