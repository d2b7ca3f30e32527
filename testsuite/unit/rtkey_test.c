// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit test for translator/rtkey.c: which -D defines key the runtime
 * object cache (translator/build.c).  A -D the runtime reads must be
 * part of the key, or a module would link a runtime built for another
 * value (say MAXSTRINGLEN=512 objects under a script's MAXSTRINGLEN=16).
 * Checked on small sources for each rule, and on the real runtime: the
 * limits the runtime's own code reads (MAXSTRINGLEN) count, those read
 * by the script's code only (MAXACTION, MAXNESTING) or handed to the
 * runtime as values by script_params.h (MAXERRORS, STP_NO_OVERLOAD, -t's
 * STP_TIMING, ...) do not, and every guarded-default name of
 * stp_limits.h that a runtime .c file names outside comments counts.
 *
 *   rtkey_test      exit 0 on success, 1 with the failures otherwise
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtkey.h"

static int failures;

/* The key of defines (a space-separated list) over sources src. */
static char *key(struct rtkey *k, const char *defines)
{
	struct vec d = VEC_INIT, out = VEC_INIT;
	char *copy = xstrdup(defines), *save, *w;
	struct strbuf sb = STRBUF_INIT;

	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		vec_push(&d, w);
	rtkey_relevant(k, &d, &out);
	for (int i = 0; i < out.len; i++) {
		sb_printf(&sb, "%s%s", i ? " " : "", (char *)out.items[i]);
		free(out.items[i]);
	}
	vec_free(&out);
	vec_free(&d);
	free(copy);
	return sb_steal(&sb) ?: xstrdup("");
}

static void expect(struct rtkey *k, const char *what, const char *defines, const char *want)
{
	char *got = key(k, defines);

	if (strcmp(got, want)) {
		fprintf(stderr, "%s: -D %s: key \"%s\", want \"%s\"\n", what, defines, got, want);
		failures++;
	}
	free(got);
}

static void synthetic(const char *what, const char *src, const char *defines, const char *want)
{
	struct rtkey k = RTKEY_INIT;

	rtkey_scan(&k, src, strlen(src));
	expect(&k, what, defines, want);
	rtkey_free(&k);
}

/* A runtime source rt.c, and script_x.h, which the script's C alone includes. */
static void script_only(const char *what, const char *rt, const char *script,
			const char *defines, const char *want)
{
	struct rtkey k = RTKEY_INIT;

	rtkey_scan_file(&k, "rt.c", rt, strlen(rt));
	rtkey_scan_file(&k, "script_x.h", script, strlen(script));
	expect(&k, what, defines, want);
	rtkey_free(&k);
}

static const char limits[] =
	"#ifndef LIM_A\n#define LIM_A 10\n#endif\n"
	"#ifndef LIM_B\n#define LIM_B (LIM_A * 2)\n#endif\n"
	"#ifndef LIM_C\n#define LIM_C 5\n#endif\n";

static void rules(void)
{
	struct strbuf sb = STRBUF_INIT;

	synthetic("unread default", limits, "LIM_A=3", "");
	synthetic("unknown name (kernel headers may read it)", limits, "DEBUG", "DEBUG=1");
	sb_printf(&sb, "%sint f(void) { return LIM_C; }\n", limits);
	synthetic("read in code", sb.buf, "LIM_C=1 LIM_A=2", "LIM_C=1");
	sb_reset(&sb);
	sb_printf(&sb, "%s#if LIM_B > 4\nint x;\n#endif\n", limits);
	synthetic("read through a default's body", sb.buf, "LIM_A=2", "LIM_A=2");
	sb_reset(&sb);
	sb_printf(&sb, "%s#define TWICE (LIM_A + LIM_A)\nint y = TWICE;\n", limits);
	synthetic("read through a macro's body", sb.buf, "LIM_A=2", "LIM_A=2");
	sb_reset(&sb);
	sb_printf(&sb, "%s#define UNUSED (LIM_A + 1)\n/* LIM_A */ // LIM_A\n"
		  "const char *s = \"LIM_A\";\n#undef LIM_A\n", limits);
	synthetic("comments, strings, #undef, unused macros", sb.buf, "LIM_A=2", "");
	sb_reset(&sb);
	sb_printf(&sb, "%sint z = LIM_C;\n", limits);
	synthetic("a kept value's names are read", sb.buf, "LIM_C=LIM_A LIM_A=7",
		  "LIM_A=7 LIM_C=LIM_A");
	synthetic("last -D wins, duplicates once", sb.buf, "LIM_C=1 LIM_C=2 LIM_C=2", "LIM_C=2");
	synthetic("include guard", "#ifndef G_H\n#define G_H\nint g;\n#endif\n", "G_H", "G_H=1");
	synthetic("guard with more inside",
		  "#ifndef LIM_D\n#define LIM_D 1\nint d;\n#endif\n", "LIM_D=2", "LIM_D=2");
	synthetic("continued line",
		  "#ifndef LIM_E\n#define LIM_E 1\n#endif\nint e = \\\nLIM_E;\n", "LIM_E=2", "LIM_E=2");
	/* A script_*.h header: the script's C alone reads it. */
	script_only("script's default and use", "",
		    "#ifndef LIM_F\n#define LIM_F 1\n#endif\nint f = LIM_F;\n", "LIM_F=2", "");
	script_only("script's #ifdef: the name is the runtime's", "",
		    "#ifdef MODE_G\nbool g = true;\n#endif\n#if defined(MODE_H) && LIM_I\n#endif\n",
		    "MODE_G MODE_H=2 LIM_I=3", "");
	script_only("a runtime object reads the script's default", "int j = LIM_J;\n",
		    "#ifndef LIM_J\n#define LIM_J 1\n#endif\n", "LIM_J=2", "LIM_J=2");
	script_only("the script's macro bodies are not the runtime's",
		    "int k = LIM_K;\n", "#define LIM_K LIM_L\n#ifndef LIM_L\n#define LIM_L 1\n#endif\n",
		    "LIM_L=2", "");
	sb_free(&sb);
}

/* Does a runtime .c file name word outside comments (a line-based look)? */
static bool c_names(const char *dir, const char *word)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *path, line[4096];
		FILE *f;

		if (n < 3 || strcmp(e->d_name + n - 2, ".c"))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		f = fopen(path, "r");
		while (f && !found && fgets(line, sizeof(line), f)) {
			char *p = line + strspn(line, " \t"), *c, *hit;

			if (*p == '*' || !strncmp(p, "/*", 2) || !strncmp(p, "//", 2))
				continue;
			if ((c = strstr(p, "/*")) || (c = strstr(p, "//")))
				*c = 0;
			for (hit = strstr(p, word); hit && !found; hit = strstr(hit + 1, word)) {
				char after = hit[strlen(word)];

				found = (hit == p || !(isalnum((unsigned char)hit[-1]) || hit[-1] == '_')) &&
					!(isalnum((unsigned char)after) || after == '_');
			}
		}
		if (f)
			fclose(f);
		free(path);
	}
	if (d)
		closedir(d);
	return found;
}

static void real_runtime(const char *dir)
{
	struct rtkey k = RTKEY_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0;

	if (!d) {
		fprintf(stderr, "cannot open %s\n", dir);
		failures++;
		return;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct strbuf sb = STRBUF_INIT;
		char *path;

		if (n < 3 || (strcmp(e->d_name + n - 2, ".c") && strcmp(e->d_name + n - 2, ".h")))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (read_file(path, &sb) == 0) {
			rtkey_scan_file(&k, e->d_name, sb_str(&sb), sb.len);
			files++;
		}
		sb_free(&sb);
		free(path);
	}
	closedir(d);
	if (files < 10) {
		fprintf(stderr, "%s: only %d runtime sources\n", dir, files);
		failures++;
	}
	expect(&k, "runtime", "MAXACTION=100000 MAXNESTING=5", "");
	/* The runtime's objects take these as values (script_params.h). */
	expect(&k, "runtime", "MAXTRYLOCK=100000 STP_NO_OVERLOAD MAXACTION=5 STP_NO_OVERLOAD", "");
	expect(&k, "runtime", "MAXERRORS=3 TRYLOCKDELAY=2", "");
	expect(&k, "runtime", "MINSTACKSPACE=16000 MAXSKIPPED=9 MAXMAPENTRIES=4", "");
	expect(&k, "runtime", "STP_OVERLOAD_THRESHOLD=5 STP_OVERLOAD_INTERVAL=9", "");
	expect(&k, "runtime", "STP_SUPPRESS_TIME_LIMITS STP_TIMING STP_BULKMODE STP_FLIGHT", "");
	/* ... but a string's size is the layout of the runtime's own buffers. */
	expect(&k, "runtime", "MAXSTRINGLEN=16 MAXMAPENTRIES=4", "MAXSTRINGLEN=16");
	expect(&k, "runtime", "DEBUG", "DEBUG=1");
	/* Every guarded default a .c file names must count. */
	struct strbuf sb = STRBUF_INIT;
	char *p = xasprintf("%s/stp_limits.h", dir), *l, *save;

	read_file(p, &sb);
	for (l = strtok_r(sb.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[128], want[160];

		if (sscanf(l, "#ifndef %127[A-Za-z0-9_]", name) != 1 || !c_names(dir, name))
			continue;
		snprintf(want, sizeof(want), "%s=1", name);
		expect(&k, "a limit runtime/*.c reads", name, want);
	}
	sb_free(&sb);
	free(p);
	rtkey_free(&k);
}

int main(void)
{
	rules();
	real_runtime(RUNTIME_DIR);
	if (failures) {
		fprintf(stderr, "rtkey_test: %d failures\n", failures);
		return 1;
	}
	return 0;
}
