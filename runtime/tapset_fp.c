// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Software binary64 arithmetic for the fp_* tapset functions (see
 * stp_fp.h).  Every operation unpacks its operands into an integer
 * significand and a power of two, computes the exact result (or the
 * result with a sticky bit for what was shifted out) and rounds once in
 * pack().  No division instruction on 128-bit values: kernel modules have
 * no libgcc.
 */
#include "stp_fp.h"

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#define FP_I64_MIN	S64_MIN
#define FP_I64_MAX	S64_MAX
#else
#include <stdio.h>
#include <string.h>
#define FP_I64_MIN	INT64_MIN
#define FP_I64_MAX	INT64_MAX
#endif

#define SIGN(a)		((a) >> 63)
#define EXPF(a)		((int)(((a) >> 52) & 0x7ff))
#define FRAC(a)		((a) & ((1ULL << 52) - 1))
#define DEFAULT_NAN	0x7ff8000000000000ULL	/* SoftFloat's, which 4.8 gives */
#define INF		0x7ff0000000000000ULL
#define IS_NAN(a)	(EXPF(a) == 0x7ff && FRAC(a))
#define IS_INF(a)	(EXPF(a) == 0x7ff && !FRAC(a))
#define IS_ZERO(a)	(!((a) << 1))

typedef unsigned __int128 u128;

/* A NaN operand, quieted (a's first, as x86 does), else the default NaN. */
static uint64_t nan2(uint64_t a, uint64_t b)
{
	if (IS_NAN(a))
		return a | (1ULL << 51);
	if (IS_NAN(b))
		return b | (1ULL << 51);
	return DEFAULT_NAN;
}

/* A finite nonzero a as sig * 2^exp, sig < 2^53. */
static uint64_t unpack(uint64_t a, int *exp)
{
	if (!EXPF(a)) {
		*exp = -1074;
		return FRAC(a);
	}
	*exp = EXPF(a) - 1075;
	return FRAC(a) | (1ULL << 52);
}

/* x >> n, with any bit shifted out ORed into bit 0 (n >= 0). */
static uint64_t shift_jam(uint64_t x, int n)
{
	if (n == 0)
		return x;
	if (n >= 64)
		return x != 0;
	return (x >> n) | ((x << (64 - n)) != 0);
}

/*
 * (-1)^sign * sig * 2^exp rounded to nearest-even.  sig != 0; its bit 0
 * may be a sticky bit standing for nonzero bits below it.
 */
static uint64_t pack(int sign, int exp, uint64_t sig)
{
	int lz = __builtin_clzll(sig);
	int be;
	uint64_t mant, rb, bits;

	sig <<= lz;
	exp -= lz;
	/* The leading bit's biased exponent; the 11 low bits round. */
	be = exp + 63 + 1023;
	if (be > 2046)
		return ((uint64_t)sign << 63) | INF;
	if (be <= 0) {		/* subnormal: fewer significant bits */
		sig = shift_jam(sig, 1 - be);
		be = 1;
	}
	mant = sig >> 11;
	rb = sig & 0x7ff;
	if (rb > 0x400 || (rb == 0x400 && (mant & 1)))
		mant++;
	/* The implicit bit carries into the exponent, also when rounding does. */
	bits = ((uint64_t)(be - 1) << 52) + mant;
	if (EXPF(bits) == 0x7ff)
		bits = INF;
	return ((uint64_t)sign << 63) | bits;
}

static uint64_t add_mag(uint64_t a, uint64_t b, int sign_b)
{
	int sa = SIGN(a), ea, eb, d;
	uint64_t ma, mb, t;

	if (IS_NAN(a) || IS_NAN(b))
		return nan2(a, b);
	if (IS_INF(a) || IS_INF(b)) {
		if (IS_INF(a) && IS_INF(b) && sa != sign_b)
			return DEFAULT_NAN;
		return IS_INF(a) ? a : ((uint64_t)sign_b << 63) | INF;
	}
	if (IS_ZERO(a) && IS_ZERO(b))
		return (uint64_t)(sa & sign_b) << 63;
	if (IS_ZERO(b))
		return a;
	if (IS_ZERO(a))
		return ((uint64_t)sign_b << 63) | (b & ~(1ULL << 63));
	/* 10 guard bits below each significand, the smaller one jammed. */
	ma = unpack(a, &ea) << 10;
	mb = unpack(b, &eb) << 10;
	if (ea < eb || (ea == eb && ma < mb)) {
		int s = sa;

		t = ma, ma = mb, mb = t;
		d = ea, ea = eb, eb = d;
		sa = sign_b;
		sign_b = s;
	}
	mb = shift_jam(mb, ea - eb);
	if (sa == sign_b)
		return pack(sa, ea - 10, ma + mb);
	if (ma == mb)
		return 0;	/* x - x is +0 when rounding to nearest */
	return pack(sa, ea - 10, ma - mb);
}

uint64_t _stp_f64_add(uint64_t a, uint64_t b)
{
	return add_mag(a, b, SIGN(b));
}

uint64_t _stp_f64_sub(uint64_t a, uint64_t b)
{
	return add_mag(a, IS_NAN(b) ? b : b ^ (1ULL << 63), !SIGN(b));
}

uint64_t _stp_f64_mul(uint64_t a, uint64_t b)
{
	int s = SIGN(a) ^ SIGN(b), ea, eb, sh;
	u128 p;
	uint64_t hi;

	if (IS_NAN(a) || IS_NAN(b))
		return nan2(a, b);
	if (IS_INF(a) || IS_INF(b)) {
		if (IS_ZERO(a) || IS_ZERO(b))
			return DEFAULT_NAN;
		return ((uint64_t)s << 63) | INF;
	}
	if (IS_ZERO(a) || IS_ZERO(b))
		return (uint64_t)s << 63;
	p = (u128)unpack(a, &ea) * unpack(b, &eb);
	hi = (uint64_t)(p >> 64);
	if (!hi)
		return pack(s, ea + eb, (uint64_t)p);
	sh = 64 - __builtin_clzll(hi);
	return pack(s, ea + eb + sh,
		    (uint64_t)(p >> sh) | ((uint64_t)p << (64 - sh) != 0));
}

/* sig of a finite nonzero a with its leading bit at bit 52. */
static uint64_t unpack_norm(uint64_t a, int *exp)
{
	uint64_t m = unpack(a, exp);
	int sh = __builtin_clzll(m) - 11;

	*exp -= sh;
	return m << sh;
}

uint64_t _stp_f64_div(uint64_t a, uint64_t b)
{
	int s = SIGN(a) ^ SIGN(b), ea, eb, i;
	uint64_t ma, mb, q = 0;

	if (IS_NAN(a) || IS_NAN(b))
		return nan2(a, b);
	if (IS_INF(a))
		return IS_INF(b) ? DEFAULT_NAN : ((uint64_t)s << 63) | INF;
	if (IS_INF(b))
		return (uint64_t)s << 63;
	if (IS_ZERO(b))
		return IS_ZERO(a) ? DEFAULT_NAN : ((uint64_t)s << 63) | INF;
	if (IS_ZERO(a))
		return (uint64_t)s << 63;
	ma = unpack_norm(a, &ea);
	mb = unpack_norm(b, &eb);
	/* 64 quotient bits by long division: ma/mb * 2^63, remainder jammed. */
	for (i = 0; i < 64; i++) {
		q <<= 1;
		if (ma >= mb) {
			ma -= mb;
			q |= 1;
		}
		ma <<= 1;
	}
	return pack(s, ea - eb - 63, q | (ma != 0));
}

uint64_t _stp_f64_rem(uint64_t a, uint64_t b)
{
	int sa = SIGN(a), ea, eb, d, q = 0;
	uint64_t ma, mb, r;

	if (IS_NAN(a) || IS_NAN(b))
		return nan2(a, b);
	if (IS_INF(a) || IS_ZERO(b))
		return DEFAULT_NAN;
	if (IS_INF(b) || IS_ZERO(a))
		return a;
	ma = unpack_norm(a, &ea);
	mb = unpack_norm(b, &eb);
	d = ea - eb;
	if (d < -1)
		return a;	/* |a| < |b| / 2 */
	if (d == -1) {
		/* a / b is in [1/4, 1): n is 1 past a half, ties to n = 0. */
		if (ma <= mb)
			return a;
		return pack(!sa, eb - 1, 2 * mb - ma);
	}
	/* r = a mod b at b's scale; q: the truncated quotient's last bit. */
	r = ma;
	for (;;) {
		q = r >= mb;
		if (q)
			r -= mb;
		if (!d--)
			break;
		r <<= 1;
	}
	if (2 * r > mb || (2 * r == mb && q)) {
		sa = !sa;
		r = mb - r;
	}
	if (!r)
		return (uint64_t)SIGN(a) << 63;
	return pack(sa, eb, r);
}

uint64_t _stp_f64_sqrt(uint64_t a)
{
	int e;
	uint64_t m;
	u128 op, res = 0, one;

	if (IS_NAN(a))
		return nan2(a, a);
	if (IS_ZERO(a))
		return a;
	if (SIGN(a))
		return DEFAULT_NAN;
	if (IS_INF(a))
		return a;
	m = unpack_norm(a, &e);
	if (e & 1) {
		m <<= 1;
		e--;
	}
	/* Digit by digit: sqrt(m * 2^72) has 63 bits; the remainder jams. */
	op = (u128)m << 72;
	one = (u128)1 << 126;
	while (one > op)
		one >>= 2;
	while (one) {
		if (op >= res + one) {
			op -= res + one;
			res = (res >> 1) + one;
		} else {
			res >>= 1;
		}
		one >>= 2;
	}
	return pack(0, (e - 72) / 2, (uint64_t)res | (op != 0));
}

int _stp_f64_eq(uint64_t a, uint64_t b)
{
	if (IS_NAN(a) || IS_NAN(b))
		return 0;
	return a == b || (IS_ZERO(a) && IS_ZERO(b));
}

int _stp_f64_lt(uint64_t a, uint64_t b)
{
	if (IS_NAN(a) || IS_NAN(b) || (IS_ZERO(a) && IS_ZERO(b)))
		return 0;
	if (SIGN(a) != SIGN(b))
		return SIGN(a);
	return SIGN(a) ? a > b : a < b;
}

int _stp_f64_le(uint64_t a, uint64_t b)
{
	return _stp_f64_lt(a, b) || _stp_f64_eq(a, b);
}

uint64_t _stp_i64_to_f64(int64_t v)
{
	if (!v)
		return 0;
	return pack(v < 0, 0, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

uint64_t _stp_f32_to_f64(uint32_t a)
{
	uint64_t s = (uint64_t)(a >> 31) << 63;
	int e = (a >> 23) & 0xff;
	uint64_t f = a & 0x7fffff;

	if (e == 0xff)
		return s | INF | (f ? (1ULL << 51) | (f << 29) : 0);
	if (!e)
		return f ? pack(s >> 63, -149, f) : s;
	return s | ((uint64_t)(e - 127 + 1023) << 52) | (f << 29);
}

int64_t _stp_f64_to_i64(uint64_t a, int mode)
{
	int s = SIGN(a), e;
	uint64_t m, n, frac = 0, half;
	bool up;

	/* SystemTap 4.8's results: 0 for a NaN, the nearest end of the range past it. */
	if (IS_NAN(a))
		return 0;
	if (IS_INF(a))
		return s ? FP_I64_MIN : FP_I64_MAX;
	if (IS_ZERO(a))
		return 0;
	m = unpack(a, &e);
	if (e >= 0) {
		if (e > 11)	/* 2^63 and up; -2^63 itself fits */
			return s ? FP_I64_MIN : FP_I64_MAX;
		n = m << e;
	} else if (e <= -64) {
		n = 0;
		frac = 1;
	} else {
		n = m >> -e;
		frac = m & ((1ULL << -e) - 1);
	}
	if (frac) {
		/* Compare the fraction with a half, on its own scale. */
		half = e <= -64 ? 0 : 1ULL << (-e - 1);
		switch (mode) {
		case 0:
			up = e > -64 && (frac > half || (frac == half && (n & 1)));
			break;
		case 2:
			up = s;
			break;
		case 3:
			up = !s;
			break;
		case 4:
			up = e > -64 && frac >= half;
			break;
		default:
			up = false;
		}
		n += up;
	}
	if (n > (uint64_t)FP_I64_MAX + s)
		return s ? FP_I64_MIN : FP_I64_MAX;
	return s ? -(int64_t)(n - 1) - 1 : (int64_t)n;
}

/*
 * Exact decimal printing: the value is sig * 2^exp with up to 1074
 * fraction bits and 1024 integer bits, held in 32-bit limbs.
 */
#define LIMBS 36

/* x = x * mul + add; the carry out. */
static uint32_t big_muladd(uint32_t *x, int n, uint32_t mul, uint32_t add)
{
	uint64_t c = add;
	int i;

	for (i = 0; i < n; i++) {
		c += (uint64_t)x[i] * mul;
		x[i] = (uint32_t)c;
		c >>= 32;
	}
	return (uint32_t)c;
}

/* x = x / 10; the remainder. */
static uint32_t big_div10(uint32_t *x, int n)
{
	uint64_t r = 0;
	int i;

	for (i = n - 1; i >= 0; i--) {
		r = (r << 32) | x[i];
		x[i] = (uint32_t)(r / 10);
		r %= 10;
	}
	return (uint32_t)r;
}

static bool big_zero(const uint32_t *x, int n)
{
	while (n--)
		if (x[n])
			return false;
	return true;
}

/* Bit k of x. */
static int big_bit(const uint32_t *x, int k)
{
	return (x[k / 32] >> (k % 32)) & 1;
}

char *_stp_f64_to_str(char *dst, int len, uint64_t a, int prec)
{
	uint32_t ip[LIMBS], fp[LIMBS];
	char buf[320], *p = buf + sizeof(buf);
	int e = 0, k = 0, i, n, rnd;
	uint64_t m;

	if (IS_NAN(a) || IS_INF(a)) {
		snprintf(dst, len, "%s", IS_NAN(a) ? "nan" : SIGN(a) ? "-inf" : "inf");
		return dst;
	}
	/* At least one digit after the point, as SystemTap 4.8 prints. */
	if (prec < 1)
		prec = 1;
	if (prec > len - 2)
		prec = len - 2;
	memset(ip, 0, sizeof(ip));
	memset(fp, 0, sizeof(fp));
	m = IS_ZERO(a) ? 0 : unpack(a, &e);
	/* ip: the integer part; fp: the k fraction bits. */
	if (m && e >= 0) {
		for (i = 0; i < 2; i++)
			ip[e / 32 + i] |= (uint32_t)((m << (e % 32)) >> (32 * i));
		ip[e / 32 + 2] |= e % 32 ? (uint32_t)(m >> (64 - e % 32)) : 0;
	} else if (m) {
		k = -e;
		for (i = 0; i < 64; i++) {
			if (!((m >> i) & 1))
				continue;
			if (i >= k)
				ip[(i - k) / 32] |= 1U << ((i - k) % 32);
			else
				fp[i / 32] |= 1U << (i % 32);
		}
	}
	/*
	 * The fraction's digits first, into dst: times 10, the digit is what
	 * reaches past bit k.  The integer part goes in front of them once
	 * rounding has carried into it or not.
	 */
	for (i = 0; i < prec; i++) {
		uint32_t d = 0;
		int b;

		if (k) {
			big_muladd(fp, LIMBS, 10, 0);
			for (b = k + 3; b >= k; b--) {
				d = d * 2 + big_bit(fp, b);
				fp[b / 32] &= ~(1U << (b % 32));
			}
		}
		dst[i] = '0' + d;
	}
	/* Half away from zero (SystemTap 4.8 prints 0.125 as 0.13): the next digit. */
	rnd = 0;
	if (k) {
		big_muladd(fp, LIMBS, 10, 0);
		for (i = k + 3; i >= k; i--)
			rnd = rnd * 2 + big_bit(fp, i);
		rnd = rnd >= 5;
	}
	for (i = prec - 1; rnd && i >= 0; i--) {
		rnd = dst[i] == '9';
		dst[i] = rnd ? '0' : dst[i] + 1;
	}
	if (rnd)
		big_muladd(ip, LIMBS, 1, 1);
	do {
		*--p = '0' + big_div10(ip, LIMBS);
	} while (!big_zero(ip, LIMBS));
	if (SIGN(a))
		*--p = '-';
	n = buf + sizeof(buf) - p;	/* the sign and the integer digits */
	if (n + 1 + prec > len - 1)
		prec = len - 2 - n > 0 ? len - 2 - n : 0;
	memmove(dst + n + 1, dst, prec);
	memcpy(dst, p, n);
	dst[n] = '.';
	dst[n + 1 + prec] = '\0';
	return dst;
}

/* 10^n, exact for n <= 22. */
static uint64_t pow10_f64(int n)
{
	uint64_t r = 0x3ff0000000000000ULL, t = 0x4024000000000000ULL;	/* 1, 10 */

	for (; n; n >>= 1) {
		if (n & 1)
			r = _stp_f64_mul(r, t);
		t = _stp_f64_mul(t, t);
	}
	return r;
}

uint64_t _stp_str_to_f64(const char *s, bool *ok)
{
	int neg = 0, dexp = 0, digits = 0, x = 0, xneg = 0;
	uint64_t m = 0, r;

	/*
	 * As SystemTap 4.8 reads them: no blanks, "inf" or "nan"; no digits
	 * at all ("-", or "1e"'s exponent) is zero.
	 */
	*ok = false;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	/* Up to 19 significant digits; later ones only scale. */
	for (; *s >= '0' && *s <= '9'; s++) {
		if (digits < 19) {
			m = m * 10 + (*s - '0');
			digits += m != 0;
		} else {
			dexp++;
		}
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			if (digits < 19) {
				m = m * 10 + (*s - '0');
				digits += m != 0;
				dexp--;
			}
		}
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			xneg = *s++ == '-';
		for (; *s >= '0' && *s <= '9'; s++)
			if (x < 10000)
				x = x * 10 + (*s - '0');
		dexp += xneg ? -x : x;
	}
	if (*s)
		return 0;
	*ok = true;
	r = m ? pack(0, 0, m) : 0;
	/* One rounding when m and 10^|dexp| are exact (m < 2^53, |dexp| <= 22). */
	while (dexp > 0 && !IS_INF(r) && m) {
		int n = dexp > 22 ? 22 : dexp;

		r = _stp_f64_mul(r, pow10_f64(n));
		dexp -= n;
	}
	while (dexp < 0 && !IS_ZERO(r)) {
		int n = dexp < -22 ? 22 : -dexp;

		r = _stp_f64_div(r, pow10_f64(n));
		dexp += n;
	}
	return ((uint64_t)neg << 63) | r;
}
