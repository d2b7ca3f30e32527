// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit test for staprun/relay.c: merging per-CPU trace files by stamp.
 *
 * Writes trace0..trace2 into a temporary directory as the module would
 * (struct stp_relay_rec headers, payloads padded to 8 bytes), with
 * stamps interleaved across the files, and reads them back the way
 * staprun's session loop does: relay_in_read() passes that are not
 * final, then a final one.  The output must be every record exactly
 * once, in stamp order.
 *
 * The files hold several times what one pass reads of a file, so passes
 * stop part-way through the big files: a merge that printed the other
 * files' records up to the clock's horizon, past what it had of a cut
 * file, would print out of order.  Records of odd lengths check the
 * padding; one write split in pieces (records sharing a stamp) checks
 * that the pieces stay together.
 *
 *   relay_merge_test      exit 0 on success, 1 with a message otherwise
 */
#include "staprun.h"
#include "stp_ctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NFILES 3
#define NRECS 200000	/* ~4.5 MB in trace0: several passes' worth */

int staprun_verbose;	/* relay.c's messages (staprun.c has it in staprun) */

/*
 * Where the output goes: a growing buffer, with the 8 bytes to spare past
 * cap that a batch needs for the merge's 8-byte copies (a relay_batch).
 */
static void sink_put(struct relay_batch *s, const char *data, size_t len)
{
	if (s->len + len > s->cap) {
		s->cap = 2 * (s->len + len);
		s->buf = realloc(s->buf, s->cap + 8);
		if (!s->buf)
			abort();
	}
	memcpy(s->buf + s->len, data, len);
	s->len += len;
}

static void emit(void *arg, const struct relay_run *runs, int n)
{
	for (int i = 0; i < n; i++) {
		const char *p = runs[i].recs, *end = p + runs[i].len;

		if (p == end) {
			fprintf(stderr, "FAIL: an empty run\n");
			exit(1);
		}
		while (p < end) {
			const struct stp_relay_rec *r = (const void *)p;

			p += sizeof(*r) + STP_RELAY_ALIGN(r->len);
			if (p > end) {
				fprintf(stderr, "FAIL: a run ends inside a record\n");
				exit(1);
			}
			sink_put(arg, (const char *)(r + 1), r->len);
		}
	}
}

/*
 * The batch a plain output hands the merge: short records' payloads go
 * straight into its buffer, the others through emit_batch, which appends
 * after them as output_write does.  A small first cap makes the merge
 * meet a full batch too.
 */
static void emit_batch(void *arg, const struct relay_run *runs, int n)
{
	for (int i = 0; i < n; i++) {
		const char *p = runs[i].recs, *end = p + runs[i].len;

		while (p < end) {
			const struct stp_relay_rec *r = (const void *)p;

			p += sizeof(*r) + STP_RELAY_ALIGN(r->len);
			sink_put(arg, (const char *)(r + 1), r->len);
		}
	}
}

/*
 * One relay_in_read into out: through emit alone (no batch), or through
 * a batch (the path staprun takes for plain output; with two files the
 * merge has a loop of its own for it).
 */
static int read_into(struct relay_in *in, bool all, bool batch,
		     struct relay_batch *out)
{
	struct relay_batch b = { 0 };
	int ret;

	if (!batch)
		return relay_in_read(in, all, NULL, emit, out);
	b.cap = 64;
	b.buf = malloc(b.cap + 8);
	if (!b.buf)
		abort();
	ret = relay_in_read(in, all, &b, emit_batch, &b);
	sink_put(out, b.buf, b.len);
	free(b.buf);
	return ret;
}

static void put(FILE *f, unsigned long long ts, const char *text)
{
	struct stp_relay_rec r = { .ts = ts, .len = strlen(text) };
	static const char zero[8];

	fwrite(&r, sizeof(r), 1, f);
	fwrite(text, r.len, 1, f);
	fwrite(zero, STP_RELAY_ALIGN(r.len) - r.len, 1, f);
}

/*
 * Runs of one file and equal stamps: a run of file 0 must stop at file
 * 1's next head, and records stamped alike come out in file (CPU) order,
 * also where the tie falls inside a run.  With two files and with three
 * (the merge has a path of its own for two).
 */
static int tie_test(int nfiles, bool batch)
{
	static const struct { int file; unsigned long long ts; const char *text; } recs[] = {
		{ 1, 5, "b0 " }, { 0, 10, "a1 " }, { 0, 20, "a2 " },
		{ 0, 20, "a3 " }, { 1, 20, "b1 " }, { 1, 25, "b2 " },
		{ 0, 30, "a4 " }, { 1, 30, "b3 " }, { 1, 31, "b4\n" },
		{ 2, 20, "c0 " }, { 2, 30, "c1 " },
	};
	const char *want = nfiles == 2 ? "b0 a1 a2 a3 b1 b2 a4 b3 b4\n" :
		"b0 a1 a2 a3 b1 c0 b2 a4 b3 c1 b4\n";
	char dir[] = "/tmp/relay_merge_test.XXXXXX", path[64];
	struct relay_batch out = { 0 };
	struct relay_in in;
	FILE *f[3];
	int i, ret = 0;

	if (!mkdtemp(dir))
		return 1;
	for (i = 0; i < nfiles; i++) {
		snprintf(path, sizeof(path), "%s/trace%d", dir, i);
		f[i] = fopen(path, "w");
		if (!f[i])
			return 1;
	}
	for (i = 0; i < (int)(sizeof(recs) / sizeof(recs[0])); i++)
		if (recs[i].file < nfiles)
			put(f[recs[i].file], recs[i].ts, recs[i].text);
	for (i = 0; i < nfiles; i++)
		fclose(f[i]);
	if (relay_in_open(&in, dir) || read_into(&in, true, batch, &out) < 0)
		return 1;
	relay_in_close(&in);
	sink_put(&out, "", 1);
	if (strcmp(out.buf, want)) {
		fprintf(stderr, "FAIL: ties and runs, %d files%s: got %s", nfiles,
			batch ? ", batch" : "", out.buf);
		ret = 1;
	}
	for (i = 0; i < nfiles; i++) {
		snprintf(path, sizeof(path), "%s/trace%d", dir, i);
		unlink(path);
	}
	rmdir(dir);
	free(out.buf);
	return ret;
}

/* NRECS lines over nfiles files, read in passes (see the top). */
static int big_test(int nfiles, bool batch)
{
	char dir[] = "/tmp/relay_merge_test.XXXXXX", path[64], line[64];
	struct relay_in in;
	struct relay_batch out = { 0 };
	unsigned long long ts = 1;
	FILE *f[NFILES];
	int i, passes = 0, bad = 0;
	char *p, *end;
	long want = 0;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	for (i = 0; i < nfiles; i++) {
		snprintf(path, sizeof(path), "%s/trace%d", dir, i);
		f[i] = fopen(path, "w");
		if (!f[i]) {
			perror(path);
			return 1;
		}
	}
	/*
	 * Line k goes to file (k % 7 < 5 ? 0 : k % 7 == 5 ? 1 : 2), so file
	 * 0 is the big one and the others are cut far less often.  Every
	 * 1000th line is written as two pieces sharing one stamp.
	 */
	for (long k = 0; k < NRECS; k++, ts += 3) {
		int which = k % 7 < 5 ? 0 : k % 7 == 5 ? 1 : 2;

		which %= nfiles;

		if (k % 1000 == 999) {
			snprintf(line, sizeof(line), "%ld", k);
			put(f[which], ts, line);
			put(f[which], ts, " split\n");
			continue;
		}
		/* Lengths 7..14: every padding from 0 to 7. */
		snprintf(line, sizeof(line), "%ld%.*s\n", k, (int)(k % 8),
			 "xxxxxxxx");
		put(f[which], ts, line);
	}
	for (i = 0; i < nfiles; i++)
		fclose(f[i]);

	if (relay_in_open(&in, dir))
		return 1;
	/* Stamps are tiny, so the horizon never holds anything back. */
	do {
		size_t before = out.len;

		if (read_into(&in, false, batch, &out) < 0)
			return 1;
		passes++;
		if (out.len == before)
			break;
	} while (passes < 1000);
	if (read_into(&in, true, batch, &out) < 0)
		return 1;
	relay_in_close(&in);

	sink_put(&out, "", 1);
	for (p = out.buf; *p; p = end + 1) {
		long k = strtol(p, &end, 10);

		end = strchr(p, '\n');
		if (!end) {
			fprintf(stderr, "FAIL: unterminated output at line %ld\n", want);
			return 1;
		}
		if (k != want && bad++ < 5)
			fprintf(stderr, "FAIL: line %ld came where line %ld belongs: %.*s\n",
				k, want, (int)(end - p), p);
		if (k % 1000 == 999 &&
		    (end - p < 7 || memcmp(end - 6, " split", 6)) && bad++ < 5)
			fprintf(stderr, "FAIL: line %ld lost its second piece\n", k);
		want = k + 1;
	}
	if (want != NRECS && bad++ < 5)
		fprintf(stderr, "FAIL: %ld lines, expected %d\n", want, NRECS);
	if (passes < 3) {
		fprintf(stderr, "FAIL: %d passes: the files should not fit in one\n", passes);
		bad++;
	}
	for (i = 0; i < nfiles; i++) {
		snprintf(path, sizeof(path), "%s/trace%d", dir, i);
		unlink(path);
	}
	rmdir(dir);
	free(out.buf);
	if (bad) {
		fprintf(stderr, "FAIL: (%d files%s)\n", nfiles, batch ? ", batch" : "");
		return 1;
	}
	printf("relay_merge_test: %d lines from %d files in order%s, %d passes\n",
	       NRECS, nfiles, batch ? " (batch)" : "", passes);
	return 0;
}

int main(void)
{
	if (tie_test(2, false) || tie_test(3, false) ||
	    tie_test(2, true) || tie_test(3, true))
		return 1;
	if (big_test(NFILES, false) || big_test(2, true) || big_test(3, true))
		return 1;
	return 0;
}
