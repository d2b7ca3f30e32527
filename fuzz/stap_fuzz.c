// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for passes 1 and 2: each input is a script, parsed
 * and elaborated in-process the way main.c does it, with the source
 * tree's tapsets/ loaded.  Built with -DFUZZ_PASS=3 (stap_fuzz3), an
 * elaborated script is also translated to C (pass 3), as stap -p3 does.  Every session is freed before the next input,
 * so LeakSanitizer sees what a long-lived compile server would leak.
 *
 * Property checked besides "no crash": an accepted script's -p1 output
 * parses again to the same text (the canonical form is a fixed point);
 * the harness aborts when it is not.
 *
 * FUZZ_TOP (the source tree) comes from fuzz/Makefile.  Diagnostics go to
 * stderr: run with -close_fd_mask=2 to drop them (libFuzzer keeps its own
 * output and the sanitizers' reports); a failed round trip is reported on
 * stdout.  To see a crashing input's diagnostics, run ./stap -p2 on it.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stap.h"
#include "regex.h"

#ifndef FUZZ_PASS
#define FUZZ_PASS 2
#endif

#ifndef FUZZ_TOP
#error "build with -DFUZZ_TOP='\"/path/to/source\"' (see fuzz/Makefile)"
#endif

/* Command-line arguments every input sees: $1 is a number, @2 a string. */
static char *const fuzz_args[] = { "42", "hello" };

static void session_init(struct session *s)
{
	memset(s, 0, sizeof(*s));
	s->last_pass = FUZZ_PASS;
	s->module_name = "stap_fuzz";
	s->guru = true;		/* let embedded C through to pass 2 */
	s->release = "6.1.0-fuzz";	/* no /lib/modules tree: CONFIG_ is unset */
	s->tapset_dir = FUZZ_TOP "/tapsets";
	s->runtime_dir = FUZZ_TOP "/runtime";
	for (size_t i = 0; i < sizeof(fuzz_args) / sizeof(fuzz_args[0]); i++)
		vec_push(&s->args, fuzz_args[i]);
}


/* A fresh session and pass 1 of text in it, as stap runs it: 0 or -1. */
static int pass1(struct session *s, const char *text)
{
	session_init(s);
	if (pp_load_library_macros(s, s->tapset_dir) < 0)
		return -1;
	s->user_file = source_from_string(s, "<input>", text);
	return parse_file(s, s->user_file, &s->user);
}

/* Pass 1 on text; the canonical form in *out (caller frees), or NULL. */
static char *parse_canonical(const char *text)
{
	struct session sess, *s = &sess;
	struct strbuf out = STRBUF_INIT;
	char *res = NULL;

	if (pass1(s, text) < 0)
		goto out;
	ast_print_program(&out, &s->user);
	res = xstrdup(sb_str(&out));
out:
	sb_free(&out);
	session_free(s);
	return res;
}

static void check_round_trip(const char *text)
{
	char *once = parse_canonical(text), *twice;

	if (!once)
		return;
	twice = parse_canonical(once);
	if (!twice || strcmp(once, twice)) {
		fprintf(stdout, "-p1 round trip failed\n--- input\n%s\n--- first -p1\n%s\n"
			"--- second -p1\n%s\n", text, once, twice ? twice : "(rejected)");
		fflush(stdout);
		abort();
	}
	free(once);
	free(twice);
}

/* Passes 1 and 2 (and 3) as stap -p2 (-p3) runs them. */
static void elaborate(const char *text)
{
	struct session sess, *s = &sess;
	struct strbuf out = STRBUF_INIT;

	if (pass1(s, text) < 0)
		goto out;
	if (session_load_tapsets(s) < 0)
		goto out;
	if (sem_elaborate(s) < 0)
		goto out;
	sem_print(s, &out);
	if (FUZZ_PASS >= 3)
		emit_program(s);
out:
	sb_free(&out);
	session_free(s);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	util_progname = "stap";
	setenv("NO_COLOR", "1", 1);
	/* diag.c writes carets a character at a time: buffer them, or long
	 * lines cost a write(2) per column.  Flushed after every input. */
	setvbuf(stderr, NULL, _IOFBF, 1 << 16);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	/* stap refuses scripts with NUL bytes before lexing: not interesting. */
	if (memchr(data, '\0', size))
		return -1;
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	check_round_trip(text);
	elaborate(text);
	fflush(stderr);
	free(text);
	return 0;
}
