// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stap-merge: join the per-CPU files of a bulk-mode session (stap -b)
 * back into one stream, in the order the records were written.
 *
 *   stap-merge [-v] [-o OUTPUT] [FILE ...]
 *
 * With no FILE, the stpd_cpuN files of the current directory, in CPU
 * order.  -v says "[CPU:N, seq=S, length=L]" on a line of its own on
 * stdout before each record, S counting from 1, as SystemTap 4.8's
 * stap-merge prints it (its manual's "[cpu,sequence,length]" is the
 * gist), also when -o sends the records to a file.  The files hold
 * staprun's records (runtime/stp_ctl.h: a time stamp and a length, then
 * the bytes), merged as staprun merges them live (relay.c).  They carry
 * no sequence numbers: 4.8's "sequence had N drops" has no counterpart
 * here (staprun reports lost output as transport failures).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "staprun.h"
#include "stp_ctl.h"
#include "util.h"

int staprun_verbose;

struct merge {
	FILE *out;
	bool verbose;
	unsigned long seq;
	bool failed;
};

static void emit(void *arg, const struct relay_run *runs, int n)
{
	struct merge *m = arg;

	for (int i = 0; i < n; i++) {
		const char *p = runs[i].recs, *end = p + runs[i].len;

		while (p < end) {
			const struct stp_relay_rec *r = (const void *)p;

			p += sizeof(*r) + STP_RELAY_ALIGN(r->len);
			m->seq++;
			if (m->verbose)
				printf("[CPU:%d, seq=%lu, length=%u]\n",
				       runs[i].cpu, m->seq, r->len);
			if (fwrite(r + 1, 1, r->len, m->out) != r->len)
				m->failed = true;
		}
	}
}

/* stpd_cpu0, stpd_cpu1, ... of the current directory, in CPU order. */
static int default_files(struct vec *v)
{
	int *cpus, n = relay_numbered(".", "stpd_cpu", &cpus);

	for (int i = 0; i < n; i++)
		vec_push(v, xasprintf("stpd_cpu%d", cpus[i]));
	free(cpus);
	return n < 0 ? n : 0;
}

int main(int argc, char **argv)
{
	struct merge m = { .out = stdout };
	const char *out_path = NULL;
	struct relay_in in;
	struct vec files = VEC_INIT;
	int opt, ret;

	util_progname = "stap-merge";
	while ((opt = getopt(argc, argv, "vo:h")) != -1) {
		switch (opt) {
		case 'v':
			m.verbose = true;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'h':
			printf("usage: stap-merge [-v] [-o OUTPUT] [FILE ...]\n");
			return 0;
		default:
			fprintf(stderr, "usage: stap-merge [-v] [-o OUTPUT] [FILE ...]\n");
			return 1;
		}
	}
	for (int i = optind; i < argc; i++)
		vec_push(&files, xstrdup(argv[i]));
	if (!files.len && default_files(&files) == 0 && !files.len) {
		util_err("no stpd_cpuN files here; name the per-CPU files of stap -b");
		return 1;
	}
	if (relay_in_open_files(&in, (char *const *)files.items, files.len))
		return 1;
	if (out_path && !(m.out = fopen(out_path, "w"))) {
		util_err("cannot open %s: %s", out_path, strerror(errno));
		return 1;
	}
	ret = relay_in_read(&in, true, NULL, emit, &m);
	relay_in_close(&in);
	if (fflush(m.out) || ferror(m.out) || m.failed ||
	    (out_path && fclose(m.out))) {
		util_err("cannot write %s: %s", out_path ? out_path : "stdout",
			 strerror(errno));
		ret = 1;
	}
	for (int i = 0; i < files.len; i++)
		free(files.items[i]);
	vec_free(&files);
	return ret ? 1 : 0;
}
