// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * workload: a deterministic program for run/ tests to start with -c, so
 * that a probe sees known system calls with known arguments.  Built
 * statically (testsuite/local.mk): the VM runner copies it into the
 * guest as it is, with no shared libraries to find.  In NAME.args,
 * @WORKLOAD@ stands for its path.
 *
 *   workload read N        one read(2) of N bytes from /dev/zero
 *   workload write N       one write(2) of N bytes to /dev/null
 *   workload open PATH     open(2) PATH read-only and close it
 *   workload open-end PATH the same, with PATH copied to the very end of a
 *                          page that an unmapped page follows (a string
 *                          reader must not read past its NUL); the page
 *                          is at OPEN_END_PAGE, so addresses in it print
 *                          the same on every run
 *   workload getppid N     getppid(2) N times
 *   workload getppid-sh N CMD  getppid(2) N times, then /bin/sh -c CMD
 *                          (to look at files staprun wrote meanwhile)
 *   workload getppid2 N    the same on CPUs 0 and 1 at once: this process
 *                          and a child it forks, each pinned to one
 *                          (probes then contend for their globals' locks)
 *   workload pingpong N    getppid(2) N times on CPU 0 (this process) and
 *                          N times on CPU 1 (a child), strictly taking
 *                          turns through a pair of pipes: parent first
 *   workload kmod [N]      write to /proc/stp_test N times (default 1):
 *                          the test module (testsuite/kmod) runs its
 *                          functions once per write
 *   workload syscalls      a fixed sequence of system calls with known
 *                          arguments (syscalls() below), each made with
 *                          syscall(2) so that libc picks none of them;
 *                          it starts with getppid() as a marker
 *   workload decoders      calls whose arguments SystemTap decodes
 *                          (decoders() below: sockaddrs, flags, commands)
 *   workload decoders2     more of them (decoders2() below)
 *   workload decoders3     still more (decoders3() below: structs, flag
 *                          words, commands)
 *   workload common        the most used calls (file, memory, signal,
 *                          scheduler, clock, socket, process), each made
 *                          once with syscall(2) and fixed arguments, between
 *                          two getppid() markers (common() below)
 *   workload proc          getppid() as a marker, then fork a child that
 *                          execs this program as "workload exit 3" and
 *                          wait for it; raise SIGUSR1 (caught); set a
 *                          SIGUSR2 handler masking every signal; read 5
 *                          bytes of /dev/zero, write 7 to /dev/null
 *   workload exit N        exit with status N
 *   workload fs DIR        file-system traffic in DIR (which must exist):
 *                          16 files created, written (8 KB), fsync'd,
 *                          stat'd, read back, renamed, listed (readdir)
 *                          and removed, and a directory made and removed
 *   workload udp [PORT]    send 5 bytes over UDP from one loopback socket
 *                          to another bound to 127.0.0.1:54321, and
 *                          receive them; with PORT, the sender is bound
 *                          to 127.0.0.1:PORT first (the packet's bytes
 *                          are then the same on every run but the IP id)
 *   workload tcp-refused   connect over TCP to 127.0.0.1:1, where nothing
 *                          listens: a SYN answered by a RST
 *   workload tcp PORT      one TCP connection over loopback from
 *                          127.0.0.1:PORT to a listener on 127.0.0.1:54322:
 *                          5 bytes sent, 7 answered half a second later
 *                          by a server that delays its ACKs (one delayed
 *                          ACK, from the timer), then the client aborts
 *                          it (SO_LINGER 0: a RST, so no FIN handshake whose
 *                          delayed ACKs depend on timing, and no TIME_WAIT);
 *                          then what tcp-refused does
 *   workload sockio        socket.* traffic over loopback UDP: 5 bytes by
 *                          sendto(2) and recv(2), then 3 by write(2) and
 *                          read(2) on the connected sender, then a send(2)
 *                          on a socket with no destination (EDESTADDRREQ);
 *                          sockets closed in creation order
 *   workload signals       signal.* traffic: SIGUSR1 caught (sigaction),
 *                          SIGUSR2 blocked and unblocked (sigprocmask),
 *                          sigpending; then kill(2), tkill(2) and
 *                          tgkill(2) of itself with SIGUSR1, and kill(2)
 *                          of PID 1 with signal 0 (not permitted unless
 *                          root: either way a permission check)
 *   workload tty           tty.* traffic on a pseudo-terminal: /dev/ptmx
 *                          (or, without one, /dev/pts/ptmx of a devpts
 *                          it mounts on /dev/pts) opened and unlocked, its slave opened, the
 *                          slave's window set to 24x80, "hi" written to
 *                          the slave and read back from the master after
 *                          a poll; both closed
 *   workload vio           writev(2) of 3+4 bytes to /dev/null, then
 *                          readv(2) of 2+5 bytes from /dev/zero
 *   workload ip            (root) over a raw socket to 127.0.0.1: a packet
 *                          of IP protocol 253, which nothing handles, and
 *                          the first fragment of a UDP datagram whose rest
 *                          never comes; with ipfrag_time set to 1 s, waits
 *                          3 s for its reassembly to time out
 *   workload nfsd-null [KO...]  (root) an NFSv4 server and one NULL call to
 *                          it over each transport: loads each KO first
 *                          (finit_module; for a VM whose tracer is loaded
 *                          before them), mounts the nfsd file system on
 *                          /proc/fs/nfsd, enables NFSv4 only (no rpcbind
 *                          or lockd needed), starts one thread, then sends
 *                          ONC RPC NULL calls (program 100003, version 4,
 *                          procedure 0, AUTH_NULL) to 127.0.0.1:2049, xid
 *                          0x5354cc01 over TCP and 0x5354cc02 over UDP,
 *                          checks both replies (accepted: SUCCESS over
 *                          TCP, PROG_MISMATCH over UDP, which NFSv4 does
 *                          not use), stops the thread and unmounts
 *
 * Exits 0, or 1 with a message when a call fails (a test then sees the
 * message on stderr rather than silently missing hits).
 */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/mount.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <sys/stat.h>
#include <dirent.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define WORKLOAD_MAX_BYTES (1 << 20)

static int usage(void)
{
	fprintf(stderr, "usage: workload read N | write N | open PATH | open-end PATH |"
		" getppid N | getppid-sh N CMD | getppid2 N | pingpong N | kmod [N] | syscalls | proc | exit N |"
		" udp [PORT] | sockio | signals | tty | vio | tcp-refused | tcp PORT | ip | fs DIR | decoders |"
		" decoders2 | decoders3 | common | nfsd-null [KO...]\n");
	return 2;
}

static int number(const char *s, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	if (errno || end == s || *end || *out < 0 || *out > max) {
		fprintf(stderr, "workload: '%s' is not a number from 0 to %ld\n", s, max);
		return -1;
	}
	return 0;
}

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "workload: %s %s: %s\n", what, path, strerror(errno));
	return 1;
}

/* One read or write of n bytes on path. */
static int io(const char *path, long n, int writing)
{
	static char buf[WORKLOAD_MAX_BYTES];
	int fd = open(path, writing ? O_WRONLY : O_RDONLY);
	ssize_t got;

	if (fd < 0)
		return fail("cannot open", path);
	got = writing ? write(fd, buf, (size_t)n) : read(fd, buf, (size_t)n);
	if (got != n) {
		if (got >= 0)
			errno = EIO;
		close(fd);
		return fail(writing ? "cannot write" : "cannot read", path);
	}
	close(fd);
	return 0;
}

/* A little of everything a file system does, in dir. */
static int fs(const char *dir)
{
	static char buf[8192];
	char path[4096], to[4096];
	struct stat st;
	DIR *d;
	int i, fd;

	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		snprintf(to, sizeof(to), "%s/g%d", dir, i);
		fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
		if (fd < 0)
			return fail("cannot create", path);
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) || fsync(fd) ||
		    lseek(fd, 0, SEEK_SET) || read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			close(fd);
			return fail("cannot write and read back", path);
		}
		close(fd);
		if (stat(path, &st) || rename(path, to))
			return fail("cannot stat and rename", path);
	}
	d = opendir(dir);
	if (!d)
		return fail("cannot list", dir);
	while (readdir(d))
		;
	closedir(d);
	for (i = 0; i < 16; i++) {
		snprintf(to, sizeof(to), "%s/g%d", dir, i);
		if (unlink(to))
			return fail("cannot remove", to);
	}
	snprintf(path, sizeof(path), "%s/d", dir);
	if (mkdir(path, 0700) || rmdir(path))
		return fail("cannot make and remove", path);
	return 0;
}

/* open(2) path from the last bytes of a page with no page after it. */
/* Far from this static program's text, data and brk heap. */
#define OPEN_END_PAGE 0x20000000UL

static int open_end(const char *path)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = strlen(path) + 1;
	char *map = mmap((void *)OPEN_END_PAGE, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	char *copy;
	int fd;

	if (map != (char *)OPEN_END_PAGE || (long)len > page || munmap(map + page, page))
		return fail("cannot map a page for", path);
	copy = map + page - len;
	memcpy(copy, path, len);
	fd = open(copy, O_RDONLY);
	if (fd < 0)
		return fail("cannot open", path);
	close(fd);
	return 0;
}

static int kmod(long n)
{
	const char *path = "/proc/stp_test";
	int fd = open(path, O_WRONLY);

	if (fd < 0) {
		fail("cannot open", path);
		fprintf(stderr, "hint: load the test module first (--vm-insmod @KMOD@ in NAME.args)\n");
		return 1;
	}
	for (long i = 0; i < n; i++)
		if (write(fd, "1", 1) != 1) {
			close(fd);
			return fail("cannot write", path);
		}
	close(fd);
	return 0;
}

/*
 * For syscall.* tests: each call's arguments are constants, so argstr is
 * known; pointers into memory vary and tests mask them.  Errors are
 * deliberate where retstr's error form is wanted (the missing file).
 */
static int syscalls(void)
{
	const char *f = "/tmp/stp-sc", *g = "/tmp/stp-sc2", *d = "/tmp/stp-scd";
	struct timespec ts = { 0, 1000 };
	char buf[64];
	void *p;
	long fd;

	syscall(SYS_getppid);
	fd = syscall(SYS_openat, AT_FDCWD, f, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fail("cannot create", f);
	syscall(SYS_write, fd, "hello\n", 6);
	syscall(SYS_lseek, fd, 2L, SEEK_SET);
	syscall(SYS_close, fd);
	fd = syscall(SYS_open, f, O_RDONLY);
	syscall(SYS_read, fd, buf, sizeof(buf));
	syscall(SYS_pread64, fd, buf, 3L, 2L);
	syscall(SYS_dup2, fd, 9);
	syscall(SYS_close, 9);
	syscall(SYS_close, fd);
	syscall(SYS_open, "/nonexistent/stp", O_RDONLY);
	syscall(SYS_access, f, R_OK | W_OK);
	syscall(SYS_chmod, f, 0600);
	syscall(SYS_rename, f, g);
	syscall(SYS_unlink, g);
	syscall(SYS_mkdir, d, 0755);
	syscall(SYS_rmdir, d);
	p = (void *)syscall(SYS_mmap, NULL, 8192L, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
	syscall(SYS_mprotect, p, 4096L, PROT_READ);
	syscall(SYS_munmap, p, 8192L);
	syscall(SYS_nanosleep, &ts, NULL);
	syscall(SYS_kill, (long)getpid(), 0);
	syscall(SYS_getppid);
	return 0;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* For kprocess.*, scheduler.*, signal.* and vfs.* tests. */
static int proc(void)
{
	pid_t child;
	int status;

	syscall(SYS_getppid);
	child = fork();
	if (child < 0)
		return fail("cannot fork", "a child");
	if (child == 0) {
		/* On the stack, resident: a probe's non-faulting reads see them. */
		char path[] = "/proc/self/exe", a0[] = "workload", a1[] = "exit", a2[] = "3";
		char *argv[] = { a0, a1, a2, NULL };

		execv(path, argv);
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 3)
		return fail("child did not exit 3:", "workload exit 3");
	signal(SIGUSR1, on_usr1);
	kill(getpid(), SIGUSR1);
	/* Every signal in the mask: its text alone fills a string. */
	{
		struct sigaction sa = { .sa_handler = on_usr1 };

		sigfillset(&sa.sa_mask);
		sigaction(SIGUSR2, &sa, NULL);
	}
	if (io("/dev/zero", 5, 0) || io("/dev/null", 7, 1))
		return 1;
	return 0;
}

/* For udp.*, netfilter and socket tests: one datagram over loopback. */
static int udp(long from_port)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(54321) };
	struct sockaddr_in from = { .sin_family = AF_INET, .sin_port = htons(from_port) };
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
	char buf[16];

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	from.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&to, sizeof(to)))
		return fail("cannot bind", "127.0.0.1:54321");
	if (from_port && bind(tx, (struct sockaddr *)&from, sizeof(from)))
		return fail("cannot bind the sender to", "127.0.0.1:PORT");
	if (sendto(tx, "hello", 5, 0, (struct sockaddr *)&to, sizeof(to)) != 5 ||
	    recv(rx, buf, sizeof(buf), 0) != 5)
		return fail("cannot send and receive on", "127.0.0.1:54321");
	close(tx);
	close(rx);
	return 0;
}

/* For socket.* tests: sends and receives by message and by file. */
static int sockio(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(54323) };
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
	int lone = socket(AF_INET, SOCK_DGRAM, 0);
	char buf[16];

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (rx < 0 || tx < 0 || lone < 0 || bind(rx, (struct sockaddr *)&to, sizeof(to)))
		return fail("cannot bind", "127.0.0.1:54323");
	if (sendto(tx, "hello", 5, 0, (struct sockaddr *)&to, sizeof(to)) != 5 ||
	    recv(rx, buf, sizeof(buf), 0) != 5)
		return fail("cannot send and receive on", "127.0.0.1:54323");
	if (connect(tx, (struct sockaddr *)&to, sizeof(to)) || write(tx, "abc", 3) != 3 ||
	    read(rx, buf, sizeof(buf)) != 3)
		return fail("cannot write and read on", "127.0.0.1:54323");
	if (send(lone, "x", 1, 0) != -1 || errno != EDESTADDRREQ)
		return fail("a send with no destination did not fail", "");
	close(rx);
	close(tx);
	close(lone);
	return 0;
}

/* For signal.* tests: one of each signal system call, in a known order. */
static int signals(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t set, old;
	pid_t me = getpid();

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	if (sigaction(SIGUSR1, &sa, NULL) ||
	    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, &old, 8L) ||
	    syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &set, NULL, 8L) ||
	    syscall(SYS_rt_sigpending, &set, 8L))
		return fail("cannot set up", "signals");
	if (syscall(SYS_kill, (long)me, (long)SIGUSR1) ||
	    syscall(SYS_tkill, (long)me, (long)SIGUSR1) ||
	    syscall(SYS_tgkill, (long)me, (long)me, (long)SIGUSR1))
		return fail("cannot signal", "itself");
	syscall(SYS_kill, 1L, 0L);
	return 0;
}

/* For tty.* tests: one pseudo-terminal pair. */
static int tty(void)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	int master = open("/dev/ptmx", O_RDWR | O_NOCTTY), slave, unlock = 0;
	unsigned int n;
	char path[32], buf[16];
	struct pollfd pfd;

	/* The test VMs mount no devpts: mount one (root) and use its ptmx. */
	if (master < 0 && errno == ENOENT) {
		mkdir("/dev/pts", 0755);
		if (mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666") && errno != EBUSY)
			return fail("cannot mount devpts on", "/dev/pts");
		master = open("/dev/pts/ptmx", O_RDWR | O_NOCTTY);
	}
	if (master < 0 || ioctl(master, TIOCSPTLCK, &unlock) || ioctl(master, TIOCGPTN, &n))
		return fail("cannot open and unlock", "/dev/ptmx");
	snprintf(path, sizeof(path), "/dev/pts/%u", n);
	slave = open(path, O_RDWR | O_NOCTTY);
	if (slave < 0)
		return fail("cannot open", path);
	pfd = (struct pollfd){ .fd = master, .events = POLLIN };
	if (ioctl(slave, TIOCSWINSZ, &ws) || write(slave, "hi", 2) != 2 ||
	    poll(&pfd, 1, 5000) != 1 || read(master, buf, sizeof(buf)) != 2)
		return fail("cannot write and read", path);
	close(slave);
	close(master);
	return 0;
}

/* For vfs.readv/writev tests: one vectored write and read. */
static int vio(void)
{
	char a[8] = "abc", b[8] = "defg";
	struct iovec w[2] = { { a, 3 }, { b, 4 } }, r[2] = { { a, 2 }, { b, 5 } };
	int out = open("/dev/null", O_WRONLY), in = open("/dev/zero", O_RDONLY);

	if (out < 0 || in < 0 || writev(out, w, 2) != 7 || readv(in, r, 2) != 7)
		return fail("cannot writev and readv", "/dev/null, /dev/zero");
	close(out);
	close(in);
	return 0;
}

/* For tcp.* tests: a SYN to a closed loopback port, and its RST. */
static int tcp_refused(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(1) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || !connect(fd, (struct sockaddr *)&to, sizeof(to)) ||
	    errno != ECONNREFUSED)
		return fail("connect was not refused:", "127.0.0.1:1");
	close(fd);
	return 0;
}

/* For the tcpmib/ipmib/linuxmib tests: one whole TCP connection. */
static int tcp(long from_port)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(54322) };
	struct sockaddr_in from = { .sin_family = AF_INET, .sin_port = htons(from_port) };
	struct linger abort_close = { .l_onoff = 1, .l_linger = 0 };
	struct timespec late = { .tv_nsec = 500000000 };
	int zero = 0, one = 1, lfd = socket(AF_INET, SOCK_STREAM, 0), cfd = socket(AF_INET, SOCK_STREAM, 0), sfd;
	char buf[16];

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	from.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd < 0 || cfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&to, sizeof(to)) || listen(lfd, 1))
		return fail("cannot listen on", "127.0.0.1:54322");
	if (setsockopt(cfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(cfd, (struct sockaddr *)&from, sizeof(from)) ||
	    connect(cfd, (struct sockaddr *)&to, sizeof(to)))
		return fail("cannot connect from 127.0.0.1:PORT to", "127.0.0.1:54322");
	sfd = accept(lfd, NULL, NULL);
	/* The server delays its ACKs (no quick ACKs) and answers late: its
	 * ACK of "hello" leaves on the delayed-ACK timer (40 ms), alone. */
	if (sfd < 0 || setsockopt(sfd, IPPROTO_TCP, TCP_QUICKACK, &zero, sizeof(zero)))
		return fail("cannot accept on", "127.0.0.1:54322");
	if (send(cfd, "hello", 5, 0) != 5 || recv(sfd, buf, 5, MSG_WAITALL) != 5 ||
	    nanosleep(&late, NULL) ||
	    send(sfd, "goodbye", 7, 0) != 7 || recv(cfd, buf, 7, MSG_WAITALL) != 7)
		return fail("cannot send and receive on", "127.0.0.1:54322");
	if (setsockopt(cfd, SOL_SOCKET, SO_LINGER, &abort_close, sizeof(abort_close)))
		return fail("cannot set SO_LINGER on", "the client");
	close(cfd);
	close(sfd);
	close(lfd);
	return tcp_refused();
}

/* For the ipmib tests: raw IPv4 packets the kernel counts as errors. */
static int ip(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	unsigned char pkt[36] = { 0 };
	struct iphdr *iph = (struct iphdr *)pkt;
	struct timespec wait = { .tv_sec = 3 };
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW), sysctl;

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sysctl = open("/proc/sys/net/ipv4/ipfrag_time", O_WRONLY);
	if (fd < 0 || sysctl < 0 || write(sysctl, "1\n", 2) != 2)
		return fail("cannot open a raw socket and set", "ipfrag_time (root only)");
	close(sysctl);
	/* The kernel fills in the checksum, and the source address when 0. */
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->daddr = to.sin_addr.s_addr;
	iph->tot_len = htons(24);
	iph->protocol = 253;
	iph->id = htons(1);
	if (sendto(fd, pkt, 24, 0, (struct sockaddr *)&to, sizeof(to)) != 24)
		return fail("cannot send", "an IP packet of protocol 253");
	/* A UDP header and 8 bytes, "more fragments" set. */
	iph->tot_len = htons(36);
	iph->protocol = IPPROTO_UDP;
	iph->id = htons(2);
	iph->frag_off = htons(IP_MF);
	pkt[21] = 7;
	pkt[23] = 9;
	pkt[25] = 16;
	if (sendto(fd, pkt, 36, 0, (struct sockaddr *)&to, sizeof(to)) != 36)
		return fail("cannot send", "a first fragment");
	close(fd);
	return nanosleep(&wait, NULL);
}

/* getppid() n times on CPU 0 and, in a child, on CPU 1 at the same time. */
static int getppid2(long n)
{
	int status = 0;
	pid_t child = fork();
	cpu_set_t set;

	if (child < 0)
		return fail("cannot fork for", "getppid2");
	CPU_ZERO(&set);
	CPU_SET(child ? 0 : 1, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		if (!child)
			_exit(1);
		waitpid(child, NULL, 0);
		return fail("cannot pin to CPUs", "0 and 1");
	}
	for (long i = 0; i < n; i++)
		getppid();
	if (!child)
		_exit(0);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		return fail("the child on CPU 1", "failed");
	return 0;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Each side makes its call only while it holds the token. */
static int pingpong(long n)
{
	int to_child[2], to_parent[2], status = 0;
	pid_t child;
	char tok = 0;

	if (pipe(to_child) || pipe(to_parent))
		return fail("cannot make pipes for", "pingpong");
	child = fork();
	if (child < 0)
		return fail("cannot fork for", "pingpong");
	if (!child) {
		if (pin(1))
			_exit(1);
		for (long i = 0; i < n; i++) {
			if (read(to_child[0], &tok, 1) != 1)
				_exit(1);
			getppid();
			if (write(to_parent[1], &tok, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	if (pin(0)) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return fail("cannot pin to CPUs", "0 and 1");
	}
	for (long i = 0; i < n; i++) {
		getppid();
		if (write(to_child[1], &tok, 1) != 1 ||
		    read(to_parent[0], &tok, 1) != 1)
			break;
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		return fail("the child on CPU 1", "failed");
	return 0;
}
/*
 * Calls whose arguments SystemTap decodes (socket addresses of three
 * families, flag words, commands), each made once with fixed values;
 * failures do not matter: the probes see the arguments either way.
 */
static int decoders(void)
{
	struct sockaddr_in in4 = { .sin_family = AF_INET, .sin_port = htons(54324) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(54325),
				    .sin6_flowinfo = htonl(7), .sin6_scope_id = 0 };
	struct sockaddr_un { unsigned short family; char path[108]; } un = { AF_UNIX, "/tmp/stp-dec.sock" };
	char m[4096] __attribute__((aligned(4096)));
	long u, s4, s6, fd, ep;
	int p[2] = { 0, 0 };

	in4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	in6.sin6_addr.s6_addr[15] = 1;
	unlink(un.path);
	u = syscall(SYS_socket, AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	syscall(SYS_bind, u, &un, 2L + strlen(un.path) + 1);
	syscall(SYS_listen, u, 1L);
	s4 = syscall(SYS_socket, AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, IPPROTO_UDP);
	syscall(SYS_bind, s4, &in4, (long)sizeof(in4));
	syscall(SYS_sendto, s4, "hi", 2L, MSG_DONTWAIT, &in4, (long)sizeof(in4));
	s6 = syscall(SYS_socket, AF_INET6, SOCK_DGRAM, 0);
	syscall(SYS_connect, s6, &in6, (long)sizeof(in6));
	syscall(SYS_accept4, u, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	syscall(SYS_shutdown, s6, SHUT_RDWR);
	syscall(SYS_dup3, s4, 20L, O_CLOEXEC);
	syscall(SYS_fcntl, 20L, F_GETFD, 0L);
	syscall(SYS_fcntl, 20L, F_SETFL, (long)O_NONBLOCK);
	syscall(SYS_pipe2, p, O_CLOEXEC | O_NONBLOCK);
	fd = syscall(SYS_eventfd2, 3L, 02000000L | 04000L);
	ep = syscall(SYS_epoll_create1, 02000000L);
	syscall(SYS_epoll_ctl, ep, 1L, fd, NULL);
	syscall(SYS_madvise, m, 4096L, 4L);
	syscall(SYS_fallocate, fd, 3L, 0L, 4096L);
	syscall(SYS_close, 20L);
	syscall(SYS_close, u);
	unlink(un.path);
	return 0;
}
/*
 * More calls with flag words, commands and selectors SystemTap decodes;
 * most fail (unmapped 0x10000, /nonexistent): only the arguments matter.
 */
static int decoders2(void)
{
	struct timespec zero[2] = { { 0, 0 }, { 0, 0 } };
	struct { long s, us; } itv[2] = { { 0, 0 }, { 0, 0 } };
	char *argv[] = { "x", NULL };
	long fd;

	syscall(SYS_mlockall, 1L);	/* MCL_CURRENT */
	syscall(SYS_munlockall);
	fd = syscall(SYS_memfd_create, "stp", 3L);	/* MFD_CLOEXEC|MFD_ALLOW_SEALING */
	syscall(SYS_close, fd);
	fd = syscall(SYS_timerfd_create, 1L, 02004000L);	/* TFD_CLOEXEC|TFD_NONBLOCK */
	syscall(SYS_timerfd_settime, fd, 1L, zero, NULL);	/* TFD_TIMER_ABSTIME */
	syscall(SYS_close, fd);
	syscall(SYS_unshare, 0L);
	syscall(SYS_umount2, "/nonexistent", 2L);	/* MNT_DETACH */
	syscall(SYS_msync, 0x10000L, 4096L, 1L);	/* MS_ASYNC */
	/* The fifth argument is unused without MREMAP_FIXED: pass one, or the
	 * register holds whatever the build left there. */
	syscall(SYS_mremap, 0x10000L, 4096L, 8192L, 1L, 0L);	/* MREMAP_MAYMOVE */
	syscall(SYS_mlock2, 0x10000L, 4096L, 1L);	/* MLOCK_ONFAULT */
	syscall(SYS_getrusage, -1L, NULL);	/* RUSAGE_CHILDREN */
	syscall(SYS_setitimer, 2L, itv, NULL);	/* ITIMER_PROF, disarmed */
	syscall(SYS_getitimer, 1L, itv);
	syscall(SYS_sched_get_priority_max, 1L);	/* SCHED_FIFO */
	syscall(SYS_sched_get_priority_min, 2L);
	syscall(SYS_sched_setscheduler, 999999L, 0L, NULL);
	syscall(SYS_waitid, 1L, 999999L, NULL, 5L, NULL);	/* P_PID, WNOHANG|WEXITED */
	syscall(SYS_setpriority, 0L, 0L, 0L);	/* PRIO_PROCESS */
	syscall(SYS_getpriority, 1L, 0L);
	syscall(SYS_clock_nanosleep, 1L, 1L, zero, NULL);	/* TIMER_ABSTIME */
	syscall(SYS_faccessat2, AT_FDCWD, "/nonexistent", 0L, 0x200L);	/* AT_EACCESS */
	syscall(SYS_execveat, AT_FDCWD, "/nonexistent", argv, argv, 0x100L);
	syscall(SYS_mknodat, AT_FDCWD, "/nonexistent/f", (long)(S_IFIFO | 0600), 0L);
	syscall(SYS_renameat2, AT_FDCWD, "/nonexistent/a", AT_FDCWD, "/nonexistent/b", 1L);
	/* strings with an address or raw value, buffers typed char * */
	syscall(SYS_getxattr, "/nonexistent", "user.x", NULL, 0L);
	syscall(SYS_lsetxattr, "/nonexistent", "user.x", "v", 1L, 1L);
	syscall(SYS_fremovexattr, 999L, "user.x");
	syscall(SYS_unlinkat, AT_FDCWD, "/nonexistent/u", 0L);
	syscall(SYS_renameat, AT_FDCWD, "/nonexistent/a", AT_FDCWD, "/nonexistent/b");
	syscall(SYS_mkdir, "/nonexistent/d", 0755L);
	syscall(SYS_shmdt, 0x10000L);
	syscall(SYS_getsockopt, 999L, 1L, 3L, 0x10000L, 0x10000L);
	syscall(SYS_acct, "/nonexistent/acct");
	/* commands and IPC flags; none of them creates anything */
	syscall(SYS_bpf, 0L, NULL, 0L);
	syscall(SYS_shmget, 0x1234L, 4096L, 02000L | 0600L);	/* IPC_EXCL, no IPC_CREAT */
	syscall(SYS_msgget, 0x1234L, 02000L | 0600L);
	syscall(SYS_semget, 0L, 0L, 01000L | 0600L);	/* IPC_PRIVATE, 0 semaphores */
	syscall(SYS_shmctl, 999999L, 2L, NULL);	/* IPC_STAT */
	syscall(SYS_msgctl, 999999L, 0L, NULL);	/* IPC_RMID */
	syscall(SYS_splice, 999L, NULL, 998L, NULL, 4096L, 3L);	/* SPLICE_F_MOVE|NONBLOCK */
	syscall(SYS_vmsplice, 999L, NULL, 0L, 8L);	/* SPLICE_F_GIFT */
	syscall(SYS_sync_file_range, 999L, 0L, 0L, 3L);
	syscall(SYS_setns, 999L, 0x40000000L);	/* CLONE_NEWNET */
	syscall(SYS_delete_module, "stp_nonexistent", 04000L);	/* O_NONBLOCK */
	return 0;
}

/*
 * Calls whose structs, flag words and commands SystemTap decodes, beyond
 * decoders2's; all harmless (a bad descriptor, magic or path, or an
 * invalid clock): only the arguments matter.
 */
static int decoders3(void)
{
	struct timespec ts[2] = { { 1, 500 }, { 2, 0 } };
	struct timeval tv[2] = { { 3, 4 }, { 5, 6 } };
	struct { long ac, mod; } ut = { 7, 8 };
	struct { void *sp; int flags; size_t size; } ss = { NULL, 2, 0 };	/* SS_DISABLE */
	struct { unsigned int size, policy; unsigned long long flags; int nice;
		 unsigned int prio; unsigned long long rt[3]; unsigned int util[2]; } attr;
	int info[32];
	unsigned long set = 1UL << (SIGUSR2 - 1);
	long big[64], fd;
	struct iovec iov = { big, 8 };

	memset(big, 0, sizeof(big));
	memset(info, 0, sizeof(info));
	info[0] = SIGUSR2;
	info[2] = -1;	/* SI_QUEUE */
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.policy = SCHED_BATCH;
	attr.nice = 3;
	syscall(SYS_getppid);
	syscall(SYS_clock_settime, (long)CLOCK_MONOTONIC, ts);	/* EINVAL */
	syscall(SYS_settimeofday, NULL, NULL);
	syscall(SYS_utime, "/nonexistent", &ut);
	syscall(SYS_utimes, "/nonexistent", tv);
	syscall(SYS_futimesat, AT_FDCWD, "/nonexistent", tv);
	syscall(SYS_select, 0L, NULL, NULL, NULL, tv);
	syscall(SYS_sigaltstack, &ss, NULL);
	syscall(SYS_rt_sigqueueinfo, (long)getpid(), 0L, info);
	syscall(SYS_rt_tgsigqueueinfo, (long)getpid(), (long)getpid(), 0L, info);
	syscall(SYS_rt_sigtimedwait, &set, info, ts + 1, 8L);
	syscall(SYS_sched_setattr, 999999L, &attr, 0L);	/* ESRCH */
	syscall(SYS_sched_getattr, 999999L, &attr, (long)sizeof(attr), 0L);
	syscall(SYS_sysinfo, big);
	memset(big, 0, sizeof(big));
	syscall(SYS_times, big);
	memset(big, 0, sizeof(big));
	syscall(SYS_adjtimex, big);
	memset(big, 0, sizeof(big));
	syscall(SYS_clock_adjtime, (long)CLOCK_REALTIME, big);
	memset(big, 0, sizeof(big));
	syscall(SYS_prlimit64, 0L, (long)RLIMIT_CORE, big, NULL);
	syscall(SYS_setrlimit, (long)RLIMIT_CORE, big);
	syscall(SYS_statx, AT_FDCWD, "/tmp", 0L, 0x17L, big + 8);	/* TYPE|MODE|UID|ATIME */
	syscall(SYS_dup2, 0L, 0L);
	syscall(SYS_pipe, big);
	syscall(SYS_close, big[0] & 0xffffffff);
	syscall(SYS_close, big[0] >> 32);
	big[0] = 0;
	fd = syscall(SYS_epoll_create, 5L);
	syscall(SYS_close, fd);
	fd = syscall(SYS_eventfd, 2L);
	syscall(SYS_close, fd);
	fd = syscall(SYS_inotify_init);
	syscall(SYS_close, fd);
	syscall(SYS_signalfd, 999L, &set, 8L);
	syscall(SYS_io_getevents, 0L, 0L, 0L, NULL, ts);
	syscall(SYS_preadv2, 999L, &iov, 1L, 0L, 0L, 8L);	/* RWF_NOWAIT */
	syscall(SYS_pwritev2, 999L, &iov, 1L, 16L, 0L, 1L);	/* RWF_HIPRI */
	syscall(SYS_preadv, 999L, &iov, 1L, 24L, 0L);
	syscall(SYS_fadvise64, 999L, 8L, 16L, 4L);	/* POSIX_FADV_DONTNEED */
	syscall(SYS_getrandom, big, 4L, 3L);	/* GRND_NONBLOCK|GRND_RANDOM */
	/* flag words and commands */
	fd = syscall(SYS_fanotify_init, 0x1L, 0L);	/* FAN_CLOEXEC, O_RDONLY */
	syscall(SYS_fanotify_mark, fd, 1L, 0x20L, (long)AT_FDCWD, "/tmp");	/* ADD, FAN_OPEN */
	syscall(SYS_close, fd);
	fd = syscall(SYS_inotify_init1, 0L);
	syscall(SYS_inotify_add_watch, fd, "/tmp", 0x102L);	/* IN_MODIFY|IN_CREATE */
	syscall(SYS_close, fd);
	syscall(SYS_finit_module, 999L, "", 1L);	/* MODULE_INIT_IGNORE_MODVERSIONS */
	syscall(SYS_get_mempolicy, big, NULL, 0L, NULL, 0L);
	syscall(SYS_set_mempolicy, 0L, NULL, 0L);	/* MPOL_DEFAULT */
	syscall(SYS_mbind, 0x10000L, 4096L, 0L, NULL, 0L, 2L);	/* MPOL_MF_MOVE */
	syscall(SYS_move_pages, 0L, 0L, NULL, NULL, NULL, 2L);
	syscall(SYS_ioprio_get, 1L, 0L);	/* IOPRIO_WHO_PROCESS */
	syscall(SYS_ioprio_set, 1L, 999999L, (long)((2 << 13) | 4));	/* BE, 4 */
	syscall(SYS_kcmp, (long)getpid(), (long)getpid(), 0L, 0L, 0L);	/* KCMP_FILE */
	syscall(SYS_membarrier, 0L, 0L, 0L);	/* MEMBARRIER_CMD_QUERY */
	syscall(SYS_mount, "none", "/nonexistent", "tmpfs", 3L, NULL);	/* MS_RDONLY|MS_NOSUID */
	syscall(SYS_mq_open, "/stp-nonexistent", (long)O_RDONLY, 0600L, NULL);
	syscall(SYS_msgsnd, 999999L, NULL, 0L, 04000L);	/* IPC_NOWAIT */
	syscall(SYS_msgrcv, 999999L, NULL, 0L, 0L, 010000L);	/* MSG_NOERROR */
	syscall(SYS_semctl, 999999L, 0L, 2L, NULL);	/* IPC_STAT */
	syscall(SYS_shmat, 999999L, NULL, 010000L);	/* SHM_RDONLY */
	syscall(SYS_name_to_handle_at, (long)AT_FDCWD, "/nonexistent", NULL, NULL, 0x400L);
	syscall(SYS_perf_event_open, NULL, 0L, -1L, -1L, 8L);	/* PERF_FLAG_FD_CLOEXEC */
	syscall(SYS_pkey_alloc, 0L, 1L);	/* PKEY_DISABLE_ACCESS */
	syscall(SYS_quotactl, (long)((0x800004 << 8) | 0), "/nonexistent", 0L, 0x10000L);	/* Q_GETFMT */
	syscall(SYS_reboot, 0xfee1deadL, 0L, 0L, NULL);	/* bad magic2: EINVAL */
	syscall(SYS_remap_file_pages, 0x10000L, 4096L, 0L, 0L, 0L);
	syscall(SYS_seccomp, 2L, 0L, big);	/* SECCOMP_GET_ACTION_AVAIL */
	syscall(SYS_swapon, "/nonexistent", 0x8005L);	/* SWAP_FLAG_PREFER, 5 */
	syscall(SYS_userfaultfd, (long)(O_CLOEXEC | O_NONBLOCK));
	syscall(SYS_kexec_file_load, 999L, 998L, 0L, "", 2L);	/* KEXEC_FILE_ON_CRASH */
	syscall(SYS_memfd_secret, 0x80000L);	/* O_CLOEXEC */
	syscall(SYS_getppid);
	return 0;
}

/*
 * The calls most traced, each once with fixed arguments, for argstr and
 * retstr as SystemTap shows them.  Buffers are zeroed first, so what a
 * call reads from one is the same on every run; some calls fail on
 * purpose (ENOENT, ENOTTY, EAGAIN), and only their arguments matter.
 */
static int common(void)
{
	const char *f = "/tmp/stp-cm", *l = "/tmp/stp-cml", *d = "/tmp/stp-cmd";
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(54326) };
	struct timespec zero = { 0, 0 }, ms = { 0, 1000000 };
	struct timeval tv0 = { 0, 0 };
	struct { unsigned long handler, flags, restorer, mask; } sa = { 0, 0, 0, 0 }, osa;
	struct { unsigned long cur, max; } rl = { 0, 0 }, orl;
	struct { unsigned int size, policy; unsigned long long flags; int nice;
		 unsigned int prio; unsigned long long rt[3]; unsigned int util[2]; } attr;
	struct { int fd; short ev, rev; } pfd;
	struct iovec iov[2];
	struct { void *name; unsigned int namelen; struct iovec *iov; unsigned long iovlen;
		 void *ctl; unsigned long ctllen; int flags; } mh;
	unsigned long set = 1UL << (SIGUSR2 - 1), oset = 0, fds = 0, cpus[16];
	long big[128], fd, dfd, rx, tx, pid, one = 1;
	char buf[256], *argv[] = { "stp", "-x", NULL }, *envp[] = { "A=1", NULL };
	int p[2] = { -1, -1 }, word = 0, sv[2] = { -1, -1 };
	unsigned int len;
	void *m;

	memset(big, 0, sizeof(big));
	memset(buf, 0, sizeof(buf));
	memset(&attr, 0, sizeof(attr));
	memset(cpus, 0, sizeof(cpus));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	unlink(l);
	unlink(f);
	rmdir(d);
	pin(0);	/* on one CPU, the probes' output comes in the calls' order */
	syscall(SYS_getppid);
	/* files */
	syscall(SYS_chdir, "/tmp");
	fd = syscall(SYS_openat, AT_FDCWD, f, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (fd < 0)
		return fail("cannot create", f);
	syscall(SYS_write, fd, "hello, world\n", 13L);
	syscall(SYS_pwrite64, fd, "XY", 2L, 7L);
	syscall(SYS_lseek, fd, 0L, SEEK_SET);
	syscall(SYS_read, fd, buf, 64L);
	syscall(SYS_pread64, fd, buf, 4L, 2L);
	syscall(SYS_fstat, fd, big);
	syscall(SYS_newfstatat, AT_FDCWD, f, big, (long)AT_SYMLINK_NOFOLLOW);
	syscall(SYS_stat, f, big);
	syscall(SYS_lstat, f, big);
	syscall(SYS_statx, AT_FDCWD, f, (long)AT_SYMLINK_NOFOLLOW, 0x7ffL, big);
	syscall(SYS_fcntl, fd, (long)F_GETFL, 0L);
	syscall(SYS_ioctl, fd, 0x5401L, big);	/* TCGETS: ENOTTY */
	syscall(SYS_fadvise64, fd, 0L, 0L, 2L);	/* POSIX_FADV_SEQUENTIAL */
	syscall(SYS_flock, fd, 2L);	/* LOCK_EX */
	syscall(SYS_ftruncate, fd, 8L);
	syscall(SYS_fsync, fd);
	syscall(SYS_fdatasync, fd);
	m = (void *)syscall(SYS_mmap, NULL, 4096L, (long)PROT_READ, (long)MAP_SHARED, fd, 0L);
	syscall(SYS_msync, m, 4096L, 4L);	/* MS_SYNC */
	syscall(SYS_munmap, m, 4096L);
	syscall(SYS_close, fd);
	syscall(SYS_truncate, f, 2L);
	syscall(SYS_access, f, (long)R_OK);
	syscall(SYS_faccessat, AT_FDCWD, f, (long)W_OK, 0L);
	syscall(SYS_chmod, f, 0600L);
	syscall(SYS_fchmodat, AT_FDCWD, f, 0644L, 0L);
	syscall(SYS_chown, f, -1L, -1L);
	syscall(SYS_utimensat, AT_FDCWD, f, NULL, 0L);
	syscall(SYS_symlink, f, l);
	syscall(SYS_readlink, l, buf, 64L);
	syscall(SYS_readlinkat, AT_FDCWD, l, buf, 64L);
	syscall(SYS_unlink, l);
	syscall(SYS_link, f, l);
	syscall(SYS_rename, l, "/tmp/stp-cm2");
	syscall(SYS_unlinkat, AT_FDCWD, "/tmp/stp-cm2", 0L);
	syscall(SYS_mkdir, d, 0750L);
	dfd = syscall(SYS_open, d, (long)(O_RDONLY | O_DIRECTORY));
	syscall(SYS_getdents64, dfd, buf, 256L);
	syscall(SYS_fchdir, dfd);
	syscall(SYS_getcwd, buf, 256L);
	syscall(SYS_close, dfd);
	syscall(SYS_unlinkat, AT_FDCWD, d, (long)AT_REMOVEDIR);
	syscall(SYS_chdir, "/tmp");
	syscall(SYS_unlink, f);
	syscall(SYS_open, "/nonexistent/stp", (long)(O_WRONLY | O_APPEND));
	syscall(SYS_umask, 022L);
	syscall(SYS_umask, 022L);	/* now 022 */
	/* memory */
	m = (void *)syscall(SYS_mmap, NULL, 8192L, (long)(PROT_READ | PROT_WRITE),
			    (long)(MAP_PRIVATE | MAP_ANONYMOUS), -1L, 0L);
	syscall(SYS_mprotect, m, 4096L, (long)PROT_NONE);
	syscall(SYS_madvise, m, 8192L, 4L);	/* MADV_DONTNEED */
	syscall(SYS_mlock, (char *)m + 4096, 4096L);
	syscall(SYS_munlock, (char *)m + 4096, 4096L);
	syscall(SYS_munmap, m, 8192L);
	/* pipes, polling, futexes */
	syscall(SYS_pipe2, p, (long)O_CLOEXEC);
	pfd.fd = p[0];
	pfd.ev = POLLIN;
	pfd.rev = 0;
	syscall(SYS_poll, &pfd, 1L, 0L);
	syscall(SYS_ppoll, &pfd, 1L, &zero, NULL, 8L);
	fds = 1UL << p[0];
	syscall(SYS_select, (long)p[0] + 1, &fds, NULL, NULL, &tv0);
	fds = 1UL << p[0];
	syscall(SYS_pselect6, (long)p[0] + 1, &fds, NULL, NULL, &zero, NULL);
	syscall(SYS_dup, (long)p[0]);
	syscall(SYS_dup2, (long)p[0], 10L);
	syscall(SYS_dup3, (long)p[0], 11L, (long)O_CLOEXEC);
	syscall(SYS_write, (long)p[1], "ab", 2L);
	iov[0].iov_base = buf;
	iov[0].iov_len = 1;
	iov[1].iov_base = buf + 1;
	iov[1].iov_len = 1;
	syscall(SYS_readv, (long)p[0], iov, 2L);
	syscall(SYS_close, 10L);
	syscall(SYS_close, 11L);
	syscall(SYS_futex, &word, 129L, 1L, NULL, NULL, 0L);	/* FUTEX_WAKE_PRIVATE */
	syscall(SYS_futex, &word, 128L, 1L, &ms, NULL, 0L);	/* FUTEX_WAIT_PRIVATE: EAGAIN */
	/* signals */
	syscall(SYS_rt_sigaction, (long)SIGUSR2, &sa, &osa, 8L);
	syscall(SYS_rt_sigprocmask, (long)SIG_BLOCK, &set, &oset, 8L);
	syscall(SYS_rt_sigpending, &oset, 8L);
	syscall(SYS_rt_sigprocmask, (long)SIG_UNBLOCK, &set, NULL, 8L);
	syscall(SYS_kill, (long)getpid(), 0L);
	/* limits, scheduler, clocks */
	syscall(SYS_getrlimit, (long)RLIMIT_NOFILE, &orl);
	syscall(SYS_setrlimit, (long)RLIMIT_CORE, &rl);
	syscall(SYS_prlimit64, 0L, (long)RLIMIT_CORE, &rl, &orl);
	syscall(SYS_prlimit64, 0L, (long)RLIMIT_NOFILE, NULL, &orl);
	syscall(SYS_getrusage, (long)RUSAGE_SELF, big);
	syscall(SYS_sched_getaffinity, 0L, sizeof(cpus), cpus);
	syscall(SYS_sched_setaffinity, 0L, 8L, cpus);
	syscall(SYS_sched_getscheduler, 0L);
	syscall(SYS_sched_getparam, 0L, big);
	syscall(SYS_sched_setparam, 0L, big);
	syscall(SYS_sched_setscheduler, 0L, (long)SCHED_OTHER, big);
	syscall(SYS_sched_getattr, 0L, &attr, (long)sizeof(attr), 0L);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	syscall(SYS_sched_setattr, 0L, &attr, 0L);
	syscall(SYS_sched_get_priority_max, (long)SCHED_RR);
	syscall(SYS_sched_rr_get_interval, 0L, big);
	syscall(SYS_sched_yield);
	syscall(SYS_clock_gettime, (long)CLOCK_MONOTONIC, big);
	syscall(SYS_clock_getres, (long)CLOCK_REALTIME, big);
	syscall(SYS_clock_nanosleep, (long)CLOCK_MONOTONIC, 0L, &ms, NULL);
	syscall(SYS_nanosleep, &ms, NULL);
	syscall(SYS_gettimeofday, big, NULL);
	memset(big, 0, sizeof(big));
	syscall(SYS_adjtimex, big);	/* modes 0: reads */
	memset(big, 0, sizeof(big));
	syscall(SYS_clock_adjtime, (long)CLOCK_REALTIME, big);
	memset(big, 0, sizeof(big));
	syscall(SYS_sysinfo, big);
	memset(big, 0, sizeof(big));
	syscall(SYS_uname, big);
	memset(buf, 0, sizeof(buf));
	syscall(SYS_getrandom, buf, 8L, 6L);	/* GRND_RANDOM|GRND_INSECURE: EINVAL */
	/* sockets */
	rx = syscall(SYS_socket, (long)AF_INET, (long)(SOCK_DGRAM | SOCK_CLOEXEC), (long)IPPROTO_UDP);
	syscall(SYS_setsockopt, rx, (long)SOL_SOCKET, (long)SO_REUSEADDR, &one, 4L);
	syscall(SYS_bind, rx, &a, (long)sizeof(a));
	len = sizeof(big);
	syscall(SYS_getsockname, rx, big, &len);
	len = sizeof(one);
	syscall(SYS_getsockopt, rx, (long)SOL_SOCKET, (long)SO_TYPE, &one, &len);
	tx = syscall(SYS_socket, (long)AF_INET, (long)SOCK_DGRAM, 0L);
	syscall(SYS_sendto, tx, "hello", 5L, 0L, &a, (long)sizeof(a));
	len = sizeof(big);
	syscall(SYS_recvfrom, rx, buf, 16L, (long)MSG_DONTWAIT, big, &len);
	syscall(SYS_connect, tx, &a, (long)sizeof(a));
	syscall(SYS_sendto, tx, "hi", 2L, (long)MSG_DONTWAIT, NULL, 0L);
	iov[0].iov_base = "abc";
	iov[0].iov_len = 3;
	memset(&mh, 0, sizeof(mh));
	mh.iov = iov;
	mh.iovlen = 1;
	syscall(SYS_sendmsg, tx, &mh, 0L);
	iov[0].iov_base = buf;
	iov[0].iov_len = 16;
	syscall(SYS_recvmsg, rx, &mh, (long)MSG_DONTWAIT);
	syscall(SYS_recvfrom, rx, buf, 16L, (long)MSG_DONTWAIT, NULL, NULL);
	syscall(SYS_shutdown, tx, (long)SHUT_WR);
	syscall(SYS_close, tx);
	syscall(SYS_close, rx);
	syscall(SYS_socketpair, (long)AF_UNIX, (long)SOCK_STREAM, 0L, sv);
	syscall(SYS_close, (long)sv[0]);
	syscall(SYS_close, (long)sv[1]);
	syscall(SYS_close, (long)p[0]);
	syscall(SYS_close, (long)p[1]);
	/* processes */
	syscall(SYS_wait4, -1L, NULL, (long)WNOHANG, NULL);	/* ECHILD */
	pid = syscall(SYS_clone, (long)SIGCHLD, 0L, NULL, NULL, 0L);
	if (pid == 0)
		_exit(7);
	syscall(SYS_wait4, pid, &word, 0L, NULL);
	syscall(SYS_execve, "/nonexistent/stp", argv, envp);
	syscall(SYS_arch_prctl, 0x1003L, big);	/* ARCH_GET_FS */
	syscall(SYS_prctl, 3L, 0L, 0L, 0L, 0L);	/* PR_GET_DUMPABLE */
	syscall(SYS_getuid);
	syscall(SYS_getegid);
	syscall(SYS_getppid);
	return 0;
}

/* "nfsd-null": see the header.  One RPC call message (RFC 5531), 40 bytes. */
static void nfsd_null_call(uint32_t *w, uint32_t xid)
{
	const uint32_t call[10] = { xid, 0 /* CALL */, 2 /* RPC version */, 100003, 4, 0,
				    0, 0 /* AUTH_NULL credential */, 0, 0 /* verifier */ };

	for (int i = 0; i < 10; i++)
		w[i] = htonl(call[i]);
}

/* Is the reply r (n bytes) to xid accepted, with accept_stat stat? */
static int nfsd_null_ok(const uint32_t *r, ssize_t n, uint32_t xid, uint32_t stat)
{
	return n >= 24 && ntohl(r[0]) == xid && ntohl(r[1]) == 1 /* REPLY */ &&
	       r[2] == 0 /* MSG_ACCEPTED */ && ntohl(r[5]) == stat;
}

static int nfsd_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)strlen(text)) {
		fail("write", path);
		return -1;
	}
	return 0;
}

static int nfsd_null(int nko, char **ko)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(2049),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { 10, 0 };
	uint32_t msg[11], reply[32];
	ssize_t n;
	int fd;

	for (int i = 0; i < nko; i++) {
		fd = open(ko[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) < 0 && errno != EEXIST))
			return fail("finit_module", ko[i]);
		close(fd);
	}
	mkdir("/proc/fs/nfsd", 0755);
	if (mount("nfsd", "/proc/fs/nfsd", "nfsd", 0, NULL) < 0 && errno != EBUSY)
		return fail("mount", "/proc/fs/nfsd");
	/* Versions 2 and 3 register with rpcbind, which is not there. */
	if (nfsd_write_file("/proc/fs/nfsd/versions", "-2 -3 +4\n") < 0 ||
	    nfsd_write_file("/proc/fs/nfsd/threads", "1\n") < 0)
		return 1;

	/* TCP: one record, its marker says last fragment, 40 bytes. */
	msg[0] = htonl(0x80000000u | 40);
	nfsd_null_call(msg + 1, 0x5354cc01);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    write(fd, msg, 44) != 44)
		return fail("tcp", "127.0.0.1:2049");
	n = read(fd, reply, sizeof(reply));
	if (n < 4 || !nfsd_null_ok(reply + 1, n - 4, 0x5354cc01, 0 /* SUCCESS */))
		return fail("tcp reply", "127.0.0.1:2049");
	close(fd);

	nfsd_null_call(msg, 0x5354cc02);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (fd < 0 || sendto(fd, msg, 40, 0, (struct sockaddr *)&a, sizeof(a)) != 40)
		return fail("udp", "127.0.0.1:2049");
	n = recv(fd, reply, sizeof(reply), 0);
	/* NFSv4 needs a transport with congestion control: not UDP. */
	if (!nfsd_null_ok(reply, n, 0x5354cc02, 2 /* PROG_MISMATCH */))
		return fail("udp reply", "127.0.0.1:2049");
	close(fd);
	/* No thread and no mount: the modules can be unloaded after. */
	if (nfsd_write_file("/proc/fs/nfsd/threads", "0\n") < 0)
		return 1;
	if (umount("/proc/fs/nfsd") < 0)
		return fail("umount", "/proc/fs/nfsd");
	return 0;
}

int main(int argc, char **argv)
{
	long n = 1;

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "read") || !strcmp(argv[1], "write")) {
		if (argc != 3 || number(argv[2], WORKLOAD_MAX_BYTES, &n))
			return usage();
		return io(argv[1][0] == 'r' ? "/dev/zero" : "/dev/null", n, argv[1][0] == 'w');
	}
	if (!strcmp(argv[1], "open")) {
		int fd;

		if (argc != 3)
			return usage();
		fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			return fail("cannot open", argv[2]);
		close(fd);
		return 0;
	}
	if (!strcmp(argv[1], "open-end")) {
		if (argc != 3)
			return usage();
		return open_end(argv[2]);
	}
	if (!strcmp(argv[1], "getppid")) {
		if (argc != 3 || number(argv[2], 1000000, &n))
			return usage();
		while (n-- > 0)
			getppid();
		return 0;
	}
	if (!strcmp(argv[1], "getppid-sh")) {
		/* Then the shell: a test looks at what the probes wrote. */
		if (argc != 4 || number(argv[2], 1000000, &n))
			return usage();
		while (n-- > 0)
			getppid();
		fflush(stdout);
		execl("/bin/sh", "sh", "-c", argv[3], (char *)NULL);
		return fail("cannot run", "/bin/sh");
	}
	if (!strcmp(argv[1], "getppid2")) {
		if (argc != 3 || number(argv[2], 1000000, &n))
			return usage();
		return getppid2(n);
	}
	if (!strcmp(argv[1], "pingpong")) {
		if (argc != 3 || number(argv[2], 1000000, &n))
			return usage();
		return pingpong(n);
	}
	if (!strcmp(argv[1], "kmod")) {
		if (argc > 3 || (argc == 3 && number(argv[2], 1000000, &n)))
			return usage();
		return kmod(n);
	}
	if (!strcmp(argv[1], "syscalls") && argc == 2)
		return syscalls();
	if (!strcmp(argv[1], "proc") && argc == 2)
		return proc();
	if (!strcmp(argv[1], "decoders") && argc == 2)
		return decoders();
	if (!strcmp(argv[1], "decoders2") && argc == 2)
		return decoders2();
	if (!strcmp(argv[1], "decoders3") && argc == 2)
		return decoders3();
	if (!strcmp(argv[1], "common") && argc == 2)
		return common();
	if (!strcmp(argv[1], "udp") && argc == 2)
		return udp(0);
	if (!strcmp(argv[1], "udp") && argc == 3 && !number(argv[2], 65535, &n))
		return udp(n);
	if (!strcmp(argv[1], "vio") && argc == 2)
		return vio();
	if (!strcmp(argv[1], "tty") && argc == 2)
		return tty();
	if (!strcmp(argv[1], "signals") && argc == 2)
		return signals();
	if (!strcmp(argv[1], "sockio") && argc == 2)
		return sockio();
	if (!strcmp(argv[1], "tcp-refused") && argc == 2)
		return tcp_refused();
	if (!strcmp(argv[1], "tcp") && argc == 3 && !number(argv[2], 65535, &n) && n)
		return tcp(n);
	if (!strcmp(argv[1], "ip") && argc == 2)
		return ip();
	if (!strcmp(argv[1], "fs") && argc == 3)
		return fs(argv[2]);
	if (!strcmp(argv[1], "exit") && argc == 3 && !number(argv[2], 255, &n))
		return (int)n;
	if (!strcmp(argv[1], "nfsd-null"))
		return nfsd_null(argc - 2, argv + 2);
	return usage();
}
