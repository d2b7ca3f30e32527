// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One session with a loaded module: START, copy trace* to the output and
 * .cmd messages to stderr, EXIT, drain.  See runtime/stp_ctl.h.
 *
 * With -c CMD the command's child is released once STARTED arrives, and
 * its exit is one more reason to send EXIT; a SIGCHLD handler wakes the
 * loop so that the session ends promptly.
 *
 * staprun(8)'s signals: SIGQUIT (Ctrl-\) detaches as -L does, leaving
 * the probes running for a later -A; SIGUSR2 moves -o FILE's output on
 * to its next file, FILE.1, FILE.2, ... (output_switch()).  Their
 * handlers are staprun's from its first moment (signals_init()): one that
 * comes while the module loads must not take the default action (a core
 * dump, or the end of staprun with the module left loaded).
 *
 * START and EXIT block in the kernel while begin/end probes run, and
 * those probes may print more than the relay buffer holds.  So the loop
 * that reads runs in a thread of its own, and the main thread writes the
 * commands it asks for: the probes run in the task that writes, which
 * must be the process's leader, as SystemTap's stapio is.  A begin
 * probe's tid() is its pid(), and embedded C that walks the process list
 * from current->tasks (which only leaders are on) ends (the examples'
 * plimit.stp looped for ever in a thread).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "staprun.h"
#include "stp_ctl.h"
#include "util.h"

#define CTL_BUF (64 * 1024)
#define BUSY_BYTES (64 * 1024)	/* a read pass this big: poll again in 1 ms */
#define CMD_TICK_MS 5		/* poll interval while begin/end probes run */

struct session {
	const char *name;
	int cmd_fd;
	struct relay_in relay;
	struct output *out;	/* where the records go (output.c) */
	struct relay_batch *batch;	/* its batch, or NULL */
	const struct output_cfg *out_cfg;
	struct target *target;	/* -c CMD, or NULL */
	bool started;		/* STARTED {0} arrived */
	int tick_ms;		/* -T: longest wait between reads */
	size_t pass_bytes;	/* output of the last read pass */
	bool relay_more;	/* it left data in a file for the next one */
	enum session_mode mode;
	bool detached;		/* -L: DETACH sent, the probes run on */
	bool no_warnings;	/* -w */
	uint64_t *warned;	/* hashes of the warnings printed (warned_once) */
	size_t nwarned, warned_cap;	/* entries used, slots (a power of 2) */
	int monitor_s;		/* -M: seconds between probe tables; 0: none */
	time_t monitor_next;	/* CLOCK_MONOTONIC second of the next one */
	bool exit_wanted;	/* REQUEST_EXIT, a signal, or broken output */
	bool exit_sent;
	bool done;		/* EXIT_DONE arrived, or START failed */
	int status;		/* what staprun will exit with */
	struct stp_ctl_status final;

	/* the command writer: the main thread (cmd_server) */
	pthread_mutex_t cmd_lock;
	pthread_cond_t cmd_cond;	/* a command posted or written, the loop over */
	bool cmd_posted;	/* writer_cmd waits for the main thread */
	bool loop_over;		/* run_loop returned (loop_ret) */
	int loop_ret;
	int loop_cpu;		/* where the loop ran when it posted, or -1 */
	bool writer_running;	/* posted, not joined yet (the loop's view) */
	atomic_bool writer_done;
	int writer_ret;
	__u32 writer_cmd;

	/* input.char/input.line: stdin copied into /proc/systemtap/NAME/__stdin */
	bool stdin_tried;
	int stdin_fd;		/* that file, or -1 */
};

/* Set by on_signal, from staprun's start (signals_init()). */
static volatile sig_atomic_t got_signal, got_quit, got_usr2;

/* The output failed (message printed, unless a reader closed a pipe). */
static void out_failed(struct session *s, int err)
{
	if (err != -EPIPE)
		s->status = 1;
	s->exit_wanted = true;
}

static void on_signal(int sig)
{
	if (sig == SIGQUIT)
		got_quit = 1;
	else if (sig == SIGUSR2)
		got_usr2 = 1;
	else
		got_signal = 1;
}

/*
 * SA_RESTART: a write to stderr blocked on a slow terminal (a serial
 * line) must not fail with EINTR when the -c command exits, for stdio
 * would drop the message.  poll() still wakes up: it is never restarted
 * (signal(7)).  Caught, not ignored: an exec'd -c command or system()
 * child gets the default actions back.
 */
void signals_init(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
}

bool signals_stop(void)
{
	return got_signal || got_quit;
}

/* Only interrupts poll(); watch_target() reaps. */
static void on_sigchld(int sig)
{
	(void)sig;
}

/*
 * The probes a command runs keep interrupts off on their CPU for as long
 * as they take: write it away from the CPU the loop is on, so that the
 * loop's poll() timeout, a timer on its own CPU, still fires and it can
 * drain a begin probe's flood while it lasts.  With one CPU there is no
 * choice.  True if the thread's affinity changed (*saved restores it).
 */
static bool away_from(int cpu, cpu_set_t *saved)
{
	cpu_set_t set;

	if (cpu < 0 || sched_getaffinity(0, sizeof(*saved), saved) ||
	    !CPU_ISSET(cpu, saved) || CPU_COUNT(saved) < 2)
		return false;
	set = *saved;
	CPU_CLR(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

static int write_cmd(struct session *s, __u32 cmd, int loop_cpu)
{
	struct stp_ctl_hdr hdr = { .type = cmd, .len = 0 };
	cpu_set_t saved;
	bool moved = away_from(loop_cpu, &saved);
	ssize_t n;

	do
		n = write(s->cmd_fd, &hdr, sizeof(hdr));
	while (n < 0 && errno == EINTR);
	if (moved)
		sched_setaffinity(0, sizeof(saved), &saved);
	return n < 0 ? -errno : 0;
}

/* The main thread, while the loop runs: write each command it posts. */
static void cmd_server(struct session *s)
{
	pthread_mutex_lock(&s->cmd_lock);
	for (;;) {
		while (!s->cmd_posted && !s->loop_over)
			pthread_cond_wait(&s->cmd_cond, &s->cmd_lock);
		if (!s->cmd_posted)
			break;
		s->cmd_posted = false;
		pthread_mutex_unlock(&s->cmd_lock);
		s->writer_ret = write_cmd(s, s->writer_cmd, s->loop_cpu);
		pthread_mutex_lock(&s->cmd_lock);
		atomic_store(&s->writer_done, true);
		pthread_cond_broadcast(&s->cmd_cond);
	}
	pthread_mutex_unlock(&s->cmd_lock);
}

static int writer_join(struct session *s)
{
	if (!s->writer_running)
		return 0;
	pthread_mutex_lock(&s->cmd_lock);
	while (!atomic_load(&s->writer_done))
		pthread_cond_wait(&s->cmd_cond, &s->cmd_lock);
	pthread_mutex_unlock(&s->cmd_lock);
	s->writer_running = false;
	if (s->writer_ret)
		util_err("ctl: cannot send command %u: %s", s->writer_cmd,
			 strerror(-s->writer_ret));
	return s->writer_ret;
}

/* Ask the main thread to write @cmd; writer_join() waits for it. */
static int send_cmd(struct session *s, __u32 cmd)
{
	int ret = writer_join(s);

	if (ret)
		return ret;
	pthread_mutex_lock(&s->cmd_lock);
	s->writer_cmd = cmd;
	s->writer_ret = 0;
	s->loop_cpu = sched_getcpu();
	atomic_store(&s->writer_done, false);
	s->cmd_posted = true;
	pthread_cond_broadcast(&s->cmd_cond);
	pthread_mutex_unlock(&s->cmd_lock);
	s->writer_running = true;
	return 0;
}

/* Runs for the output: a broken output ends the session. */
static void emit_out(void *arg, const struct relay_run *runs, int n)
{
	struct session *s = arg;
	int ret;

	if (output_broken(s->out))
		return;
	if (!s->batch)	/* the batch counts what it merges */
		for (int i = 0; i < n; i++)
			s->pass_bytes += runs[i].len;
	ret = output_write(s->out, runs, n);
	if (ret)
		out_failed(s, ret);
}

/*
 * Copies what the data files have now, in write order; ALL once the
 * module has stopped writing.  Returns 0 or -errno.
 */
static int read_relay(struct session *s, bool all)
{
	int ret, r;

	if (s->batch)
		s->batch->merged = 0;
	ret = relay_in_read(&s->relay, all, s->batch, emit_out, s);
	if (s->batch)
		s->pass_bytes += s->batch->merged;
	s->relay_more = ret > 0;
	if (ret > 0)
		ret = 0;
	if (!output_broken(s->out)) {
		r = output_flush(s->out);
		if (r)
			out_failed(s, r);
	}
	return ret;
}

/* KEY ("error", "warning") names the color of the word, as stap -C does. */
static void print_text(const char *key, const char *word, const char *text,
		       __u32 len)
{
	/* One fprintf per message so lines from stderr stay whole. */
	bool nl = len && text[len - 1] == '\n';
	const char *c = key ? util_color(key) : NULL;

	if (c)
		fprintf(stderr, "\033[%sm%s\033[0m: %.*s%s", c, word, (int)len, text,
			nl ? "" : "\n");
	else
		fprintf(stderr, "%s%s%.*s%s", word, *word ? ": " : "", (int)len, text,
			nl ? "" : "\n");
}

static void handle_status(struct session *s, const struct stp_ctl_hdr *h,
			  const char *payload)
{
	struct stp_ctl_status st = { 0 };

	memcpy(&st, payload, h->len < sizeof(st) ? h->len : sizeof(st));
	if (h->type == STP_CTL_STARTED) {
		if (st.status == -ESRCH && s->mode == SESSION_ATTACH) {
			util_err("cannot attach to %s: its probes were never started",
				 s->name);
			fprintf(stderr, "hint: unload it with staprun -d %s\n", s->name);
			s->status = 1;
			s->done = true;
			return;
		}
		if (st.status) {
			util_err("ctl: module %s failed to start: %s", s->name,
				 strerror(st.status < 0 ? -st.status : EIO));
			s->status = 1;
			s->done = true;
			return;
		}
		s->started = true;
		if (staprun_verbose)
			util_err("ctl: session started");
		return;
	}
	s->final = st;
	if (st.status)
		s->status = 1;
	s->done = true;
}

/*
 * system(): run the command in the background, as SystemTap does.  The
 * child is not waited for here: zombies are reaped by pid in later
 * calls (never with -1, which could reap the -c target).
 */
static void run_system_cmd(const char *cmd, uint32_t len)
{
	static pid_t pids[64];
	static int npids;
	char *text = xstrndup(cmd, len);
	pid_t pid;
	int i, kept = 0;

	for (i = 0; i < npids; i++)
		if (waitpid(pids[i], NULL, WNOHANG) == 0)
			pids[kept++] = pids[i];
	npids = kept;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGCHLD, SIG_DFL);
		execl("/bin/sh", "sh", "-c", text, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		util_err("WARNING: system(\"%s\"): cannot fork: %s", text, strerror(errno));
	else if (npids < (int)(sizeof(pids) / sizeof(pids[0])))
		pids[npids++] = pid;
	free(text);
}

/*
 * Is this the first time the session prints this warning?  SystemTap 4.8
 * prints each distinct warning text once (run/fault_reads: a _warn
 * function failing twice at one address warns once).  The set holds 64-bit
 * FNV-1a hashes in an open-addressed table that doubles at half full.
 */
static bool warned_once(struct session *s, const char *text, uint32_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i, mask;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ULL;
	h |= 1;		/* 0 marks a free slot */
	if (2 * (s->nwarned + 1) > s->warned_cap) {
		size_t cap = s->warned_cap ? 2 * s->warned_cap : 64, j;
		uint64_t *t = xcalloc(cap, sizeof(*t));

		for (j = 0; j < s->warned_cap; j++) {
			if (!s->warned[j])
				continue;
			for (i = s->warned[j] & (cap - 1); t[i]; i = (i + 1) & (cap - 1))
				;
			t[i] = s->warned[j];
		}
		free(s->warned);
		s->warned = t;
		s->warned_cap = cap;
	}
	mask = s->warned_cap - 1;
	for (i = h & mask; s->warned[i]; i = (i + 1) & mask)
		if (s->warned[i] == h)
			return false;
	s->warned[i] = h;
	s->nwarned++;
	return true;
}

static void handle_msg(struct session *s, const struct stp_ctl_hdr *h,
		       const char *payload)
{
	switch (h->type) {
	case STP_CTL_STARTED:
	case STP_CTL_EXIT_DONE:
		handle_status(s, h, payload);
		break;
	case STP_CTL_REQUEST_EXIT:
		s->exit_wanted = true;
		break;
	case STP_CTL_ERROR:
		print_text("error", "ERROR", payload, h->len);
		break;
	case STP_CTL_WARNING:
		if (!s->no_warnings && warned_once(s, payload, h->len))
			print_text("warning", "WARNING", payload, h->len);
		break;
	case STP_CTL_SYSTEM:
		print_text(NULL, "", payload, h->len);
		break;
	case STP_CTL_RUN_CMD:
		run_system_cmd(payload, h->len);
		break;
	case STP_CTL_MONITOR_TEXT:
		/* A table's first line: on a terminal, redraw in place. */
		if (h->len >= 5 && !memcmp(payload, "index", 5))
			fputs(isatty(STDERR_FILENO) ? "\033[H\033[2J" : "\n", stderr);
		print_text(NULL, "", payload, h->len);
		break;
	default:
		if (staprun_verbose)
			util_err("ctl: ignoring message type %u", h->type);
	}
}

static int read_ctl(struct session *s)
{
	static char buf[CTL_BUF];
	struct stp_ctl_hdr h;
	ssize_t n, off = 0;

	n = read(s->cmd_fd, buf, sizeof(buf));
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	if (n == 0)
		return -EPIPE;
	while (off + (ssize_t)sizeof(h) <= n) {
		memcpy(&h, buf + off, sizeof(h));
		off += sizeof(h);
		if (h.len > n - off)
			return -EPROTO;
		handle_msg(s, &h, buf + off);
		off += h.len;
	}
	return 0;
}

/*
 * -c: run the command once the begin probes are done (unless the session
 * is already ending), and end the session when it exits.  The begin
 * probes' output is all in trace* when STARTED arrives: copy it first, so
 * that it comes before anything the command prints.
 */
static int watch_target(struct session *s)
{
	struct target *t = s->target;
	int ret;

	if (!t || t->exited)
		return 0;
	if (s->started && !t->released && !s->exit_wanted && !got_signal) {
		relay_in_settle();
		/*
		 * All of it: one pass reads at most a part of each file (but
		 * a flood from other probes must not hold the command back).
		 */
		for (int pass = 0; pass < 64; pass++) {
			ret = read_relay(s, false);
			if (ret || !s->relay_more)
				break;
		}
		if (ret)
			return ret;
		target_release(t);
		if (t->exec_failed) {
			s->status = 1;
			s->exit_wanted = true;
		}
	}
	/*
	 * What the module said before the command ended (a probe's
	 * warning in its last moments) comes before "Child process
	 * exited": read the control channel once more first.
	 */
	if (target_gone(t)) {
		ret = read_ctl(s);
		if (ret)
			return ret;
	}
	if (target_reap(t)) {
		s->exit_wanted = true;
		if (t->failed)
			s->status = 1;
	}
	return 0;
}

static int open_file(const char *name, const char *file, int flags)
{
	char *path = xasprintf("/sys/kernel/debug/%s/%s/%s",
			       STP_CTL_DEBUGFS_DIR, name, file);
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0) {
		fd = -errno;
		util_err("ctl: cannot open %s: %s", path, strerror(-fd));
	}
	free(path);
	return fd;
}

/* Bulk files are named by CPU: the trace files' numbers. */
static struct output *open_output(struct session *s)
{
	int *cpus = xmalloc(s->relay.n * sizeof(*cpus));
	struct output *o;

	for (int i = 0; i < s->relay.n; i++)
		cpus[i] = relay_in_cpu(&s->relay, i);
	o = output_open(s->out_cfg, cpus, s->relay.n);
	free(cpus);
	return o;
}


/*
 * staprun -L: the begin probes' output is out; tell the module that
 * closing .cmd leaves its probes running, and say how to come back.
 */
static int detach(struct session *s)
{
	int ret;

	relay_in_settle();
	ret = read_relay(s, false);
	if (!ret)
		ret = send_cmd(s, STP_CTL_DETACH);
	if (!ret)
		ret = writer_join(s);
	if (ret)
		return ret;
	s->detached = true;
	s->done = true;
	fprintf(stderr, "\nDisconnecting from systemtap module.\n"
		"To reconnect, type \"staprun -A %s\"\n", s->name);
	return 0;
}

/*
 * input.char and input.line (tapsets/input.stp) are procfs("__stdin").write
 * probes.  The file exists once the session has started if the script has
 * one; staprun then copies its stdin into it one byte a write, so that each
 * character runs the probe on its own ("no newline buffering", as
 * stapprobes(3stap) says).
 */
static void stdin_open(struct session *s, struct pollfd *in)
{
	char *path;

	if (s->stdin_tried || !s->started)
		return;
	s->stdin_tried = true;
	path = xasprintf("/proc/systemtap/%s/__stdin", s->name);
	s->stdin_fd = open(path, O_WRONLY | O_CLOEXEC);
	free(path);
	if (s->stdin_fd >= 0)
		in->fd = STDIN_FILENO;
}

/* At end of file, or once the module refuses a write, copying stops. */
static void stdin_copy(struct session *s, struct pollfd *in)
{
	char buf[4096];
	ssize_t n, i;

	if (in->fd < 0 || !(in->revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	n = read(STDIN_FILENO, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	for (i = 0; i < n; i++)
		if (write(s->stdin_fd, buf + i, 1) != 1)
			break;
	if (n <= 0 || i < n) {
		in->fd = -1;
		close(s->stdin_fd);
		s->stdin_fd = -1;
	}
}

/* -M SECS: ask for the probe table every SECS seconds while running. */
static int monitor(struct session *s)
{
	struct timespec now;

	if (!s->monitor_s || !s->started || s->exit_sent || s->done ||
	    s->writer_running)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec < s->monitor_next)
		return 0;
	s->monitor_next = now.tv_sec + s->monitor_s;
	return send_cmd(s, STP_CTL_MONITOR);
}

static int run_loop(struct session *s)
{
	int i, npfd = 2 + s->relay.n, ret;
	struct pollfd *pfd = xmalloc(npfd * sizeof(*pfd));

	pfd[0] = (struct pollfd){ .fd = s->cmd_fd, .events = POLLIN };
	for (i = 0; i < s->relay.n; i++)
		pfd[1 + i] = (struct pollfd){ .fd = relay_in_fd(&s->relay, i),
					      .events = POLLIN };
	/* stdin, once the script turns out to read it: poll skips fd -1 */
	pfd[npfd - 1] = (struct pollfd){ .fd = -1, .events = POLLIN };

	ret = send_cmd(s, s->mode == SESSION_ATTACH ? STP_CTL_ATTACH : STP_CTL_START);
	while (!ret && !s->done) {
		if (got_signal)
			s->exit_wanted = true;
		/* EXIT before STARTED would race with the begin probes. */
		if (s->exit_wanted && s->started && !s->exit_sent) {
			s->exit_sent = true;
			ret = send_cmd(s, STP_CTL_EXIT);
			if (ret)
				break;
		}
		ret = monitor(s);
		if (ret)
			break;
		/*
		 * Relay wakes readers only when a sub-buffer fills, and not
		 * while the writer's CPU has interrupts off, as it has while
		 * begin or end probes run (a command is in flight): then, or
		 * while output pours in, look again soon.
		 */
		if (poll(pfd, npfd, s->pass_bytes >= BUSY_BYTES ? 1 :
			 s->writer_running ? CMD_TICK_MS : s->tick_ms) < 0 &&
		    errno != EINTR) {
			ret = -errno;
			util_err("ctl: poll failed: %s", strerror(-ret));
			break;
		}
		s->pass_bytes = 0;
		ret = read_relay(s, false);
		if (ret)
			break;
		ret = read_ctl(s);
		if (ret) {
			util_err("ctl: reading %s/.cmd failed: %s", s->name,
				 strerror(-ret));
			break;
		}
		ret = watch_target(s);
		if (ret)
			break;
		if (got_usr2) {
			got_usr2 = 0;
			ret = output_switch(s->out);
			if (ret) {
				out_failed(s, ret);
				ret = 0;
			}
		}
		if ((s->mode == SESSION_DETACH || got_quit) && s->started &&
		    !s->exit_wanted) {
			ret = detach(s);
			break;
		}
		stdin_copy(s, &pfd[npfd - 1]);
		stdin_open(s, &pfd[npfd - 1]);
		/* A failed command write shows only in the thread. */
		if (s->writer_running && atomic_load(&s->writer_done))
			ret = writer_join(s);
	}
	/* EXIT_DONE came after the last write: all output is readable now. */
	if (!ret)
		ret = read_relay(s, s->done && !s->detached);
	if (writer_join(s) && !ret)
		ret = -EIO;
	if (s->stdin_fd >= 0)
		close(s->stdin_fd);
	free(pfd);
	return ret;
}

static void *loop_main(void *arg)
{
	struct session *s = arg;
	int ret = run_loop(s);

	pthread_mutex_lock(&s->cmd_lock);
	s->loop_ret = ret;
	s->loop_over = true;
	pthread_cond_broadcast(&s->cmd_cond);
	pthread_mutex_unlock(&s->cmd_lock);
	return NULL;
}

/*
 * run_loop in its own thread, which takes the signals (its poll() wakes
 * for them), while this one writes the commands (see the top).
 */
static int run_session_loop(struct session *s)
{
	sigset_t all, old;
	pthread_t loop;
	int ret;

	pthread_mutex_init(&s->cmd_lock, NULL);
	pthread_cond_init(&s->cmd_cond, NULL);
	/*
	 * SystemTap's reader is stapio: so scripts see it, in execname() of
	 * the begin probes and of the reads (both threads: the loop's name
	 * is this one's), and so do ps and top.
	 */
	pthread_setname_np(pthread_self(), "stapio");
	ret = -pthread_create(&loop, NULL, loop_main, s);
	if (ret) {
		util_err("cannot start the session's thread: %s", strerror(-ret));
		return ret;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	cmd_server(s);
	pthread_join(loop, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_cond_destroy(&s->cmd_cond);
	pthread_mutex_destroy(&s->cmd_lock);
	return s->loop_ret;
}

static void report(struct session *s)
{
	const struct stp_ctl_status *st = &s->final;

	/* -w: SystemTap 4.8's staprun prints neither summary either. */
	if (s->no_warnings)
		return;
	if (st->errors || st->skipped)
		fprintf(stderr, "WARNING: Number of errors: %u, skipped probes: %u\n",
			st->errors, st->skipped);
	/* With the output gone, lost output is no news either. */
	if (st->transport_failures && !output_broken(s->out))
		fprintf(stderr, "WARNING: There were %u transport failures. Try stap -s to increase the buffer size from %u.\n",
			st->transport_failures, st->bufsize_mb);
}

int session_run(const char *name, const struct session_cfg *cfg)
{
	struct session s = { .name = name, .cmd_fd = -1, .out_cfg = cfg->out,
			     .target = cfg->target, .tick_ms = cfg->tick_ms,
			     .no_warnings = cfg->no_warnings, .mode = cfg->mode,
			     .monitor_s = cfg->monitor_s, .stdin_fd = -1 };
	struct target *t = cfg->target;
	bool relay_open = false;
	char *dir;
	struct sigaction sa = { .sa_handler = on_sigchld, .sa_flags = SA_RESTART };
	int ret;

	sigemptyset(&sa.sa_mask);
	if (t)
		sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* SystemTap 4.8 too lets a SIGUSR2 from before its output go. */
	got_usr2 = 0;

	s.cmd_fd = open_file(name, ".cmd", O_RDWR | O_NONBLOCK);
	if (s.cmd_fd < 0) {
		ret = s.cmd_fd;
		if (ret == -EBUSY)
			fprintf(stderr, "hint: another staprun is attached to %s\n", name);
		goto out;
	}
	dir = xasprintf("/sys/kernel/debug/%s/%s", STP_CTL_DEBUGFS_DIR, name);
	ret = relay_in_open(&s.relay, dir);
	free(dir);
	if (ret)
		goto out;
	relay_open = true;
	s.out = open_output(&s);
	if (!s.out) {
		ret = 1;
		goto out;
	}
	s.batch = output_batch(s.out);
	ret = run_session_loop(&s);
	if (output_close(s.out) && !ret)
		s.status = 1;
	if (!ret) {
		if (!s.detached)
			report(&s);
		ret = s.status;
	}
	*cfg->detached = s.detached;
out:
	/* Closing .cmd stops a session that is still running. */
	if (relay_open)
		relay_in_close(&s.relay);
	if (s.cmd_fd >= 0)
		close(s.cmd_fd);
	free(s.warned);
	return ret;
}
