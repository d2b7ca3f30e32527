// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names and dates for the tapset library: ctime(), errno_str(),
 * signal_str(), return_str(); and system().
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/signal.h>
#include <linux/string.h>
#include "stp_internal.h"
#include "stp_tapset.h"

int _stp_ctime(struct stp_context *c, char *dst, int64_t secs)
{
	static const char days[7][4] = {
		"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"	/* from 1970-01-01 */
	};
	static const char months[12][4] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	int64_t day, rem, era, doe, yoe, doy, mp, y, m, d;

	/* SystemTap's range (a 32-bit time_t) and its messages outside it. */
	if (secs < S32_MIN || secs > S32_MAX) {
		dst[0] = '\0';
		_stp_error(c, secs > S32_MAX ? "Time too far in the future to be converted" :
			   "Time too far in the past to be converted");
		return -ERANGE;
	}
	day = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
	rem = secs - day * 86400;

	/* Civil date from days since the epoch (proleptic Gregorian). */
	{
		int64_t z = day + 719468;

		era = (z >= 0 ? z : z - 146096) / 146097;
		doe = z - era * 146097;
		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
		y = yoe + era * 400;
		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
		mp = (5 * doy + 2) / 153;
		d = doy - (153 * mp + 2) / 5 + 1;
		m = mp < 10 ? mp + 3 : mp - 9;
		if (m <= 2)
			y++;
	}
	snprintf(dst, MAXSTRINGLEN, "%s %s %2lld %02lld:%02lld:%02lld %lld",
		 days[((day % 7) + 7) % 7], months[m - 1], (long long)d,
		 (long long)(rem / 3600), (long long)(rem / 60 % 60),
		 (long long)(rem % 60), (long long)y);
	return 0;
}

/* Names by number, built from the kernel's own macros. */
#define N(e) [e] = #e
static const char *const errno_names[] = {
	N(EPERM), N(ENOENT), N(ESRCH), N(EINTR), N(EIO), N(ENXIO), N(E2BIG),
	N(ENOEXEC), N(EBADF), N(ECHILD), N(EAGAIN), N(ENOMEM), N(EACCES),
	N(EFAULT), N(ENOTBLK), N(EBUSY), N(EEXIST), N(EXDEV), N(ENODEV),
	N(ENOTDIR), N(EISDIR), N(EINVAL), N(ENFILE), N(EMFILE), N(ENOTTY),
	N(ETXTBSY), N(EFBIG), N(ENOSPC), N(ESPIPE), N(EROFS), N(EMLINK),
	N(EPIPE), N(EDOM), N(ERANGE), N(EDEADLK), N(ENAMETOOLONG), N(ENOLCK),
	N(ENOSYS), N(ENOTEMPTY), N(ELOOP), N(ENOMSG), N(EIDRM), N(ECHRNG),
	N(EL2NSYNC), N(EL3HLT), N(EL3RST), N(ELNRNG), N(EUNATCH), N(ENOCSI),
	N(EL2HLT), N(EBADE), N(EBADR), N(EXFULL), N(ENOANO), N(EBADRQC),
	N(EBADSLT), N(EBFONT), N(ENOSTR), N(ENODATA), N(ETIME), N(ENOSR),
	N(ENONET), N(ENOPKG), N(EREMOTE), N(ENOLINK), N(EADV), N(ESRMNT),
	N(ECOMM), N(EPROTO), N(EMULTIHOP), N(EDOTDOT), N(EBADMSG),
	N(EOVERFLOW), N(ENOTUNIQ), N(EBADFD), N(EREMCHG), N(ELIBACC),
	N(ELIBBAD), N(ELIBSCN), N(ELIBMAX), N(ELIBEXEC), N(EILSEQ),
	N(ERESTART), N(ESTRPIPE), N(EUSERS), N(ENOTSOCK), N(EDESTADDRREQ),
	N(EMSGSIZE), N(EPROTOTYPE), N(ENOPROTOOPT), N(EPROTONOSUPPORT),
	N(ESOCKTNOSUPPORT), N(EOPNOTSUPP), N(EPFNOSUPPORT), N(EAFNOSUPPORT),
	N(EADDRINUSE), N(EADDRNOTAVAIL), N(ENETDOWN), N(ENETUNREACH),
	N(ENETRESET), N(ECONNABORTED), N(ECONNRESET), N(ENOBUFS), N(EISCONN),
	N(ENOTCONN), N(ESHUTDOWN), N(ETOOMANYREFS), N(ETIMEDOUT),
	N(ECONNREFUSED), N(EHOSTDOWN), N(EHOSTUNREACH), N(EALREADY),
	N(EINPROGRESS), N(ESTALE), N(EUCLEAN), N(ENOTNAM), N(ENAVAIL),
	N(EISNAM), N(EREMOTEIO), N(EDQUOT), N(ENOMEDIUM), N(EMEDIUMTYPE),
	N(ECANCELED), N(ENOKEY), N(EKEYEXPIRED), N(EKEYREVOKED),
	N(EKEYREJECTED), N(EOWNERDEAD), N(ENOTRECOVERABLE),
	/*
	 * SystemTap 4.8 names no more: not ERFKILL or EHWPOISON, nor the
	 * kernel's internal codes (ERESTARTSYS ...), which it prints as "".
	 */
};

/* SystemTap's names, without "SIG"; 29 is SIGIO and SIGPOLL. */
#define S(e, name) [e] = name
static const char *const signal_names[] = {
	S(SIGHUP, "HUP"), S(SIGINT, "INT"), S(SIGQUIT, "QUIT"), S(SIGILL, "ILL"),
	S(SIGTRAP, "TRAP"), S(SIGABRT, "ABRT"), S(SIGBUS, "BUS"), S(SIGFPE, "FPE"),
	S(SIGKILL, "KILL"), S(SIGUSR1, "USR1"), S(SIGSEGV, "SEGV"),
	S(SIGUSR2, "USR2"), S(SIGPIPE, "PIPE"), S(SIGALRM, "ALRM"),
	S(SIGTERM, "TERM"), S(SIGSTKFLT, "STKFLT"), S(SIGCHLD, "CHLD"),
	S(SIGCONT, "CONT"), S(SIGSTOP, "STOP"), S(SIGTSTP, "TSTP"),
	S(SIGTTIN, "TTIN"), S(SIGTTOU, "TTOU"), S(SIGURG, "URG"),
	S(SIGXCPU, "XCPU"), S(SIGXFSZ, "XFSZ"), S(SIGVTALRM, "VTALRM"),
	S(SIGPROF, "PROF"), S(SIGWINCH, "WINCH"), S(SIGIO, "IO/POLL"),
	S(SIGPWR, "PWR"), S(SIGSYS, "SYS"),
};
#undef S
#undef N

void _stp_errno_str(char *dst, int64_t err)
{
	uint64_t e = err < 0 ? -(uint64_t)err : (uint64_t)err;

	/* SystemTap returns "" for 0 and for a number it has no name for. */
	if (e < ARRAY_SIZE(errno_names) && errno_names[e])
		strscpy(dst, errno_names[e], MAXSTRINGLEN);
	else
		dst[0] = '\0';
}

static const char *errno_name(int64_t err)
{
	uint64_t e = -(uint64_t)err;

	return e < ARRAY_SIZE(errno_names) ? errno_names[e] : NULL;
}

void _stp_signal_str(char *dst, int64_t sig)
{
	if (sig >= 0 && sig < (int64_t)ARRAY_SIZE(signal_names) && signal_names[sig])
		strscpy(dst, signal_names[sig], MAXSTRINGLEN);
	else if (sig == SIGRTMIN)
		strscpy(dst, "RTMIN", MAXSTRINGLEN);
	else if (sig > SIGRTMIN && sig <= _NSIG)
		snprintf(dst, MAXSTRINGLEN, "RTMIN+%lld", (long long)(sig - SIGRTMIN));
	else
		dst[0] = '\0';	/* 0, negative or past _NSIG: "" as in SystemTap */
}

void _stp_return_str(char *dst, int64_t format, int64_t ret)
{
	const char *name = ret < 0 && ret > -MAX_ERRNO ? errno_name(ret) : NULL;

	/* An error number SystemTap names, in any format; else the number. */
	if (name) {
		snprintf(dst, MAXSTRINGLEN, "%lld (%s)", (long long)ret, name);
		return;
	}
	switch (format) {
	case 2:
		snprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)ret);
		break;
	case 3:
		/* "0" and the digits, "00" for 0 as in SystemTap */
		snprintf(dst, MAXSTRINGLEN, "0%llo", (unsigned long long)ret);
		break;
	default:
		snprintf(dst, MAXSTRINGLEN, "%lld", (long long)ret);
		break;
	}
}

void _stp_system(const char *cmd)
{
	_stp_ctl_sendf(STP_CTL_RUN_CMD, "%s", cmd);
}
