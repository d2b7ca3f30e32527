// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names and dates for the tapset library: ctime(), errno_str(),
 * signal_str(), return_str(), and abort().
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

	/* SystemTap documents the 32-bit range and an error outside it. */
	if (secs < S32_MIN || secs > S32_MAX) {
		dst[0] = '\0';
		_stp_error(c, "ctime: time value %lld out of range", (long long)secs);
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
	N(EKEYREJECTED), N(EOWNERDEAD), N(ENOTRECOVERABLE), N(ERFKILL),
	N(EHWPOISON),
	/* the kernel's internal codes, which syscalls may return to probes */
	N(ERESTARTSYS), N(ERESTARTNOINTR), N(ERESTARTNOHAND), N(ENOIOCTLCMD),
	N(ERESTART_RESTARTBLOCK), N(EPROBE_DEFER), N(EOPENSTALE),
	N(ENOPARAM), N(EBADHANDLE), N(ENOTSYNC), N(EBADCOOKIE), N(ENOTSUPP),
	N(ETOOSMALL), N(ESERVERFAULT), N(EBADTYPE), N(EJUKEBOX), N(EIOCBQUEUED),
	N(ERECALLCONFLICT),
};

static const char *const signal_names[] = {
	N(SIGHUP), N(SIGINT), N(SIGQUIT), N(SIGILL), N(SIGTRAP), N(SIGABRT),
	N(SIGBUS), N(SIGFPE), N(SIGKILL), N(SIGUSR1), N(SIGSEGV), N(SIGUSR2),
	N(SIGPIPE), N(SIGALRM), N(SIGTERM), N(SIGSTKFLT), N(SIGCHLD),
	N(SIGCONT), N(SIGSTOP), N(SIGTSTP), N(SIGTTIN), N(SIGTTOU), N(SIGURG),
	N(SIGXCPU), N(SIGXFSZ), N(SIGVTALRM), N(SIGPROF), N(SIGWINCH),
	N(SIGIO), N(SIGPWR), N(SIGSYS),
};
#undef N

void _stp_errno_str(char *dst, int64_t err)
{
	uint64_t e = err < 0 ? -(uint64_t)err : (uint64_t)err;

	if (e < ARRAY_SIZE(errno_names) && errno_names[e])
		strscpy(dst, errno_names[e], MAXSTRINGLEN);
	else
		snprintf(dst, MAXSTRINGLEN, "E#%llu", (unsigned long long)e);
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
		strscpy(dst, "SIGRTMIN", MAXSTRINGLEN);
	else if (sig > SIGRTMIN && sig <= _NSIG)
		snprintf(dst, MAXSTRINGLEN, "SIGRTMIN+%lld", (long long)(sig - SIGRTMIN));
	else
		snprintf(dst, MAXSTRINGLEN, "SIG%lld", (long long)sig);
}

void _stp_return_str(char *dst, int64_t format, int64_t ret)
{
	if (ret < 0 && ret > -MAX_ERRNO) {
		const char *name = errno_name(ret);

		if (name)
			snprintf(dst, MAXSTRINGLEN, "%lld (%s)", (long long)ret, name);
		else
			snprintf(dst, MAXSTRINGLEN, "%lld (E#%lld)", (long long)ret,
				 (long long)-ret);
		return;
	}
	switch (format) {
	case 2:
		snprintf(dst, MAXSTRINGLEN, "0x%llx", (unsigned long long)ret);
		break;
	case 3:
		snprintf(dst, MAXSTRINGLEN, "%#llo", (unsigned long long)ret);
		break;
	default:
		snprintf(dst, MAXSTRINGLEN, "%lld", (long long)ret);
		break;
	}
}

/* The error abort() leaves: context.c ends the hit without reporting it. */
const char _stp_abort_msg[] = "abort()";

void _stp_abort(struct stp_context *c)
{
	_stp_exit();
	c->last_error = _stp_abort_msg;
}
