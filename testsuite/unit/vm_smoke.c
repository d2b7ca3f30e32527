// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Drive vm_run() by hand, without the translator:
 *
 *   vm_smoke [-v] [-S] [-1] [-R N] [-t SECS] [-j SECS] [-b SECS] [-c CPUS] [-o DIR] [-f FILE]... -r RELEASE -s STAPRUN \
 *            NAME=MODULE[,ARG...] ...
 *
 * Prints each job's status and output sizes, the kernel problem if any,
 * and with -o DIR writes DIR/NAME.out and DIR/NAME.err for byte-exact
 * comparison.  -S streams the single job's output; -1 runs all vCPUs on
 * one host thread (vm.c); -R N boots again, at most N times, for the
 * jobs after one the guest kernel died in; -j SECS stops a job (and the
 * guest) still running after SECS; -b SECS: the first boot's limit for
 * starting init (-1: none).  Exit status: 0 if the
 * VM ran, 2 if vm_run() failed, 3 on a kernel problem.
 */
#include "util.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: vm_smoke [-v] [-S] [-1] [-R N] [-t SECS] [-j SECS] [-b SECS] [-c CPUS] [-o DIR] [-f FILE]... -r RELEASE -s STAPRUN NAME=MODULE[,ARG...]...\n");
	exit(1);
}

int main(int argc, char **argv)
{
	struct vm_config cfg = { 0 };
	struct vm_result res;
	struct vm_job *jobs;
	struct timespec t0, t1;
	const char *outdir = NULL;
	struct vec files = VEC_INIT;
	int c, i, njobs, ret;

	util_progname = "vm_smoke";
	while ((c = getopt(argc, argv, "vS1R:t:j:b:c:o:r:s:f:")) != -1) {
		switch (c) {
		case 'v': cfg.verbose = 1; break;
		case 'S': cfg.stream = 1; break;
		case '1': cfg.tcg_single = 1; break;
		case 'R': cfg.reboots = atoi(optarg); break;
		case 't': cfg.timeout_s = atoi(optarg); break;
		case 'j': cfg.job_timeout_s = atoi(optarg); break;
		case 'b': cfg.boot_timeout_s = atoi(optarg); break;
		case 'c': cfg.cpus = atoi(optarg); break;
		case 'o': outdir = optarg; break;
		case 'r': cfg.release = optarg; break;
		case 's': cfg.staprun = optarg; break;
		case 'f': vec_push(&files, optarg); break;
		default: usage();
		}
	}
	if (files.len) {
		vec_push(&files, NULL);
		cfg.files = (const char **)files.items;
	}
	njobs = argc - optind;
	if (!cfg.release || !cfg.staprun || njobs < 1)
		usage();
	jobs = xcalloc((size_t)njobs, sizeof(*jobs));
	for (i = 0; i < njobs; i++) {
		char *spec = xstrdup(argv[optind + i]);
		char *eq = strchr(spec, '='), *comma;
		struct vec args = VEC_INIT;

		if (!eq)
			usage();
		*eq = '\0';
		jobs[i].name = spec;
		jobs[i].module = eq + 1;
		for (comma = strchr(eq + 1, ','); comma;
		     comma = strchr(comma + 1, ',')) {
			*comma = '\0';
			vec_push(&args, comma + 1);
		}
		if (args.len) {
			vec_push(&args, NULL);
			jobs[i].staprun_args = (char **)args.items;
		}
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = vm_run(&cfg, jobs, njobs, &res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("vm_run: %d, %.2f s, booted %d, timed_out %d, kernel_problem %d\n",
	       ret, (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       res.booted, res.timed_out, res.kernel_problem);
	for (i = 0; i < njobs; i++) {
		printf("job %s: status %d, stdout %zu bytes, stderr %zu bytes%s%s\n",
		       jobs[i].name, jobs[i].status, jobs[i].out_len,
		       jobs[i].err_len, jobs[i].crashed ? ", crashed" : "",
		       jobs[i].hung ? ", hung" : "");
		if (outdir) {
			char *p = xasprintf("%s/%s.out", outdir, jobs[i].name);

			write_file(p, jobs[i].out, jobs[i].out_len);
			free(p);
			p = xasprintf("%s/%s.err", outdir, jobs[i].name);
			write_file(p, jobs[i].err, jobs[i].err_len);
			free(p);
		}
		free(jobs[i].out);
		free(jobs[i].err);
		free(jobs[i].staprun_args);
		free((char *)jobs[i].name);
	}
	free(jobs);
	vec_free(&files);
	if (res.problem)
		printf("---- kernel problem ----\n%s", res.problem);
	if (res.emulator_problem)
		printf("---- emulator problem ----\n%s", res.emulator_problem);
	if (outdir && res.console) {
		char *p = xasprintf("%s/console.log", outdir);

		write_file(p, res.console, strlen(res.console));
		free(p);
	}
	vm_result_free(&res);
	return ret ? 2 : res.kernel_problem ? 3 : 0;
}
