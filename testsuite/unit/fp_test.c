// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit test for runtime/tapset_fp.c, the software doubles behind the
 * fp_* tapset functions: every operation against the host's FPU (SSE2,
 * IEEE 754, round to nearest-even) on edge values (zeros, subnormals,
 * the largest finite, infinities, NaNs, halfway cases) and on random bit
 * patterns, and decimal conversions against printf/strtod.
 *
 *   fp_test      exit 0 on success, 1 with the first mismatches otherwise
 */
#include "stp_fp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static uint64_t bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

static double dbl(uint64_t u)
{
	double d;

	memcpy(&d, &u, 8);
	return d;
}

/* Equal bits, or both NaN (the host may pick another NaN). */
static void check(const char *op, uint64_t a, uint64_t b, uint64_t got, double want)
{
	if (got == bits(want) || (isnan(want) && isnan(dbl(got))))
		return;
	if (failures++ < 20)
		fprintf(stderr, "%s(%016llx, %016llx) = %016llx, want %016llx (%a)\n",
			op, (unsigned long long)a, (unsigned long long)b,
			(unsigned long long)got, (unsigned long long)bits(want), want);
}

static void check_int(const char *op, uint64_t a, uint64_t b, long long got, long long want)
{
	if (got == want)
		return;
	if (failures++ < 20)
		fprintf(stderr, "%s(%016llx, %016llx) = %lld, want %lld\n", op,
			(unsigned long long)a, (unsigned long long)b, got, want);
}

static uint64_t rnd64(void)
{
	uint64_t r = 0;

	for (int i = 0; i < 4; i++)
		r = (r << 16) ^ (uint64_t)(rand() & 0xffff);
	return r;
}

/* Random doubles, biased toward interesting ones: close exponents, short significands. */
static uint64_t pick(uint64_t other)
{
	static const uint64_t edge[] = {
		0, 1ULL << 63, 1, 0x000fffffffffffffULL, 0x0010000000000000ULL,
		0x7fefffffffffffffULL, 0x7ff0000000000000ULL, 0xfff0000000000000ULL,
		0x7ff8000000000000ULL, 0x3ff0000000000000ULL, 0xbff0000000000000ULL,
		0x3fe0000000000000ULL, 0x4004000000000000ULL, 0x3ff0000000000001ULL,
		0x4330000000000000ULL, 0x43e0000000000000ULL, 0xc3e0000000000000ULL,
	};
	uint64_t r = rnd64();

	switch (rand() % 6) {
	case 0:
		return edge[rand() % (sizeof(edge) / sizeof(edge[0]))];
	case 1:	/* near the other operand's exponent */
		return (other & 0xfff0000000000000ULL) + ((uint64_t)(rand() % 128 - 64) << 52) +
		       (r & 0x000fffffffffffffULL);
	case 2:	/* few significant bits: exact results, ties */
		return (r & 0xfff0000000000000ULL) | (r & 0x000ff00000000000ULL);
	case 3:	/* small exponents: subnormal results */
		return (r & 0x800fffffffffffffULL) | ((uint64_t)(rand() % 64) << 52);
	case 4:	/* small integers */
		return bits((double)(int)(r % 2001 - 1000) / (rand() % 2 ? 1 : 8));
	default:
		return r;
	}
}

static void test_ops(void)
{
	for (int i = 0; i < 2000000; i++) {
		uint64_t a = pick(0), b = pick(a), r;
		double x = dbl(a), y = dbl(b);

		check("add", a, b, _stp_f64_add(a, b), x + y);
		check("sub", a, b, _stp_f64_sub(a, b), x - y);
		check("mul", a, b, _stp_f64_mul(a, b), x * y);
		check("div", a, b, _stp_f64_div(a, b), x / y);
		/*
		 * A zero remainder has x's sign (IEEE 754, SoftFloat);
		 * glibc's remainder() sometimes flips it.
		 */
		r = _stp_f64_rem(a, b);
		if (remainder(x, y) == 0 && !isnan(x) && !isnan(y))
			check_int("rem0", a, b, r, ((uint64_t)signbit(x) ? 1ULL << 63 : 0));
		else
			check("rem", a, b, r, remainder(x, y));
		check("sqrt", a, 0, _stp_f64_sqrt(a), sqrt(x));
		check_int("eq", a, b, _stp_f64_eq(a, b), x == y);
		check_int("lt", a, b, _stp_f64_lt(a, b), x < y);
		check_int("le", a, b, _stp_f64_le(a, b), x <= y);
	}
}

/* x with prec digits after the point, ties away from zero: glibc's exact digits, rounded by hand. */
static void expect_str(char *out, size_t size, double x, int prec)
{
	char *dot, *p;
	int carry;

	snprintf(out, size, "%.1100f", x);
	dot = strchr(out, '.');
	carry = dot[prec + 1] >= '5';
	dot[prec + 1] = '\0';
	for (p = dot + prec; carry && p >= out; p--) {
		if (*p == '.' || *p == '-')
			continue;
		carry = *p == '9';
		*p = carry ? '0' : *p + 1;
	}
	if (carry) {	/* 9.99 -> 10.0: one more digit in front */
		p = out + (out[0] == '-');
		memmove(p + 1, p, strlen(p) + 1);
		*p = '1';
	}
}

static void test_conversions(void)
{
	static const double round_cases[] = {
		0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.25, 2.75, -2.75, 1e18 + 0.0,
		9.2233720368547758e18, -9.2233720368547758e18, 1e300, 0.0, -0.0, 3.0,
	};
	/* SoftFloat's modes: nearest-even, toward 0, down, up, nearest-away; 5 and 6 toward 0 (4.8). */
	static const long long want[][7] = {
		{ 0, 0, 0, 1, 1, 0, 0 }, { 2, 1, 1, 2, 2, 1, 1 }, { 2, 2, 2, 3, 3, 2, 2 },
		{ 0, 0, -1, 0, -1, 0, 0 }, { -2, -1, -2, -1, -2, -1, -1 },
		{ -2, -2, -3, -2, -3, -2, -2 }, { 0, 0, 0, 1, 0, 0, 0 },
		{ 3, 2, 2, 3, 3, 2, 2 }, { -3, -2, -3, -2, -3, -2, -2 },
		{ 1000000000000000000LL, 1000000000000000000LL, 1000000000000000000LL,
		  1000000000000000000LL, 1000000000000000000LL, 1000000000000000000LL,
		  1000000000000000000LL },
		{ INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX },
		{ INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN },
		{ INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX },
		{ 0 }, { 0 }, { 3, 3, 3, 3, 3, 3, 3 },
	};
	char got[512], exp[1200];

	for (unsigned i = 0; i < sizeof(round_cases) / sizeof(round_cases[0]); i++)
		for (int m = 0; m < 7; m++)
			check_int("to_i64", bits(round_cases[i]), m,
				  _stp_f64_to_i64(bits(round_cases[i]), m), want[i][m]);
	for (int i = 0; i < 200000; i++) {
		int64_t v = (int64_t)rnd64() >> (rand() % 64);
		uint64_t a = pick(0);
		float f;
		uint32_t fb = (uint32_t)rnd64();
		int prec = 1 + rand() % 20;
		bool ok;

		check("i64", (uint64_t)v, 0, _stp_i64_to_f64(v), (double)v);
		memcpy(&f, &fb, 4);
		check("f32", fb, 0, _stp_f32_to_f64(fb), (double)f);
		if (!isnan(dbl(a)) && fabs(dbl(a)) < 9.2e18)
			check_int("to_i64", a, 1, _stp_f64_to_i64(a, 1), (long long)dbl(a));
		if (isfinite(dbl(a)) && fabs(dbl(a)) < 1e100) {
			_stp_f64_to_str(got, sizeof(got), a, prec);
			expect_str(exp, sizeof(exp), dbl(a), prec);
			if (strcmp(got, exp) && failures++ < 20)
				fprintf(stderr, "to_str(%016llx, %d) = %s, want %s\n",
					(unsigned long long)a, prec, got, exp);
		}
		/* Short decimals (the fast path's range) must read back exactly. */
		snprintf(exp, sizeof(exp), "%llue%d",
			 (unsigned long long)(rnd64() >> (11 + rand() % 53)), rand() % 45 - 22);
		check(exp, 0, 0, _stp_str_to_f64(exp, &ok), strtod(exp, NULL));
	}
}

int main(void)
{
	bool ok;

	srand(12345);
	test_ops();
	test_conversions();
	check("-0.125", 0, 0, _stp_str_to_f64("-0.125", &ok), -0.125);
	check_int("ok", 0, 0, ok, 1);
	check("1e", 0, 0, _stp_str_to_f64("1e", &ok), 1.0);
	_stp_str_to_f64("1.2.3", &ok);
	check_int("!ok", 1, 0, ok, 0);
	_stp_str_to_f64(" 1", &ok);
	check_int("!ok", 2, 0, ok, 0);
	if (failures) {
		fprintf(stderr, "%d mismatches\n", failures);
		return 1;
	}
	return 0;
}
