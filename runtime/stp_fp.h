/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IEEE 754 binary64 arithmetic in software, for the tapset's fp_*
 * functions (tapsets/fp.stp): probe handlers may not touch the FPU, so a
 * double travels in a long as its bit pattern and every operation here
 * works on the bits.  Results are correctly rounded to nearest-even, as
 * the hardware's would be; a NaN result is the quieted NaN operand or
 * else SoftFloat's default NaN, 0x7ff8000000000000 (not x86's 0xfff8...).  tapset_fp.c
 * implements it; it also builds in user space
 * (testsuite/unit/fp_test.c checks it against the host's FPU).
 */
#ifndef STP_FP_H
#define STP_FP_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stdint.h>
#endif

uint64_t _stp_f64_add(uint64_t a, uint64_t b);
uint64_t _stp_f64_sub(uint64_t a, uint64_t b);
uint64_t _stp_f64_mul(uint64_t a, uint64_t b);
uint64_t _stp_f64_div(uint64_t a, uint64_t b);
/* IEEE remainder: a - n * b, n the integer nearest a / b (ties even). */
uint64_t _stp_f64_rem(uint64_t a, uint64_t b);
uint64_t _stp_f64_sqrt(uint64_t a);
/* 1 or 0; any NaN compares false. */
int _stp_f64_eq(uint64_t a, uint64_t b);
int _stp_f64_lt(uint64_t a, uint64_t b);
int _stp_f64_le(uint64_t a, uint64_t b);
uint64_t _stp_i64_to_f64(int64_t v);
uint64_t _stp_f32_to_f64(uint32_t a);
/*
 * a rounded to an integer in mode (0 nearest-even, 1 toward zero,
 * 2 down, 3 up, 4 nearest with ties away from zero; SoftFloat's
 * numbering, any other toward zero, as in SystemTap 4.8); a NaN gives 0,
 * a value out of range the end of the range nearest it.
 */
int64_t _stp_f64_to_i64(uint64_t a, int mode);
/*
 * a in decimal with prec digits (at least 1) after the point, ties away
 * from zero, into dst of size len (cut to fit); "inf", "-inf", "nan".
 */
char *_stp_f64_to_str(char *dst, int len, uint64_t a, int prec);
/*
 * The double a decimal number ("-12.5", ".5", "1e-3") stands for; *ok is
 * false, and the result 0, for anything else (blanks, "inf", "1.2.3").
 */
uint64_t _stp_str_to_f64(const char *s, bool *ok);

#endif /* STP_FP_H */
