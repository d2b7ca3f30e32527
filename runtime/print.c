// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe output: each CPU's hit prints into its own buffer, which goes to
 * relay when the hit ends or the buffer fills, so one hit's output stays
 * together in one relay record.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "stp_internal.h"

static inline struct stp_cpu *to_cpu(struct stp_context *c)
{
	return container_of(c, struct stp_cpu, c);
}

void _stp_print_flush(struct stp_cpu *sc)
{
	if (!sc->print_len)
		return;
	_stp_relay_write(sc->print_buf, sc->print_len);
	sc->print_len = 0;
}

/*
 * switch_file(): what this hit printed so far goes to the current file,
 * the rest to the next; staprun does the switching (staprun/session.c).
 */
void _stp_switch_file(struct stp_context *c)
{
	_stp_print_flush(to_cpu(c));
	_stp_relay_switch_file();
}

void _stp_print_n(struct stp_context *c, const char *s, size_t len)
{
	struct stp_cpu *sc = to_cpu(c);

	while (len) {
		size_t n = min(len, sizeof(sc->print_buf) - sc->print_len);

		if (!n) {
			_stp_print_flush(sc);
			continue;
		}
		memcpy(sc->print_buf + sc->print_len, s, n);
		sc->print_len += n;
		s += n;
		len -= n;
	}
}

void _stp_print_lld(struct stp_context *c, long long v)
{
	char buf[24];	/* "-9223372036854775808" */
	char *p = buf + sizeof(buf);
	unsigned long long u = v < 0 ? -(unsigned long long)v : v;

	do {
		*--p = '0' + u % 10;
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	_stp_print_n(c, p, buf + sizeof(buf) - p);
}

void _stp_print(struct stp_context *c, const char *s)
{
	_stp_print_n(c, s, strlen(s));
}

void _stp_print_char(struct stp_context *c, char ch)
{
	_stp_print_n(c, &ch, 1);
}

void _stp_printf(struct stp_context *c, const char *fmt, ...)
{
	struct stp_cpu *sc = to_cpu(c);
	size_t room = sizeof(sc->print_buf) - sc->print_len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(sc->print_buf + sc->print_len, room, fmt, ap);
	va_end(ap);
	if (n < room) {
		sc->print_len += n;
		return;
	}

	/* Did not fit: flush and format again into the whole buffer. */
	_stp_print_flush(sc);
	va_start(ap, fmt);
	/* Longer than the whole buffer: truncated, like SystemTap. */
	sc->print_len = vscnprintf(sc->print_buf, sizeof(sc->print_buf),
				   fmt, ap);
	va_end(ap);
}
