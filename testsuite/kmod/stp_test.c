// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp_test: a kernel module for the test suite to probe with
 * module("stp_test").function(...) and .statement(...).
 *
 * Writing anything to /proc/stp_test runs stp_test_run() once, which
 * calls the functions below with fixed arguments, so that every hit
 * reads the same values: ints of each size and signedness, long, a
 * char * string, char[] arrays, a struct with a nested struct, a union,
 * an enum, bitfields, an array member, a pointer chain a->b->c, a bad
 * pointer (for read faults), a function returning a known value, an
 * always-inlined function and statements on known lines.  testsuite/
 * workload's "kmod" verb does the write.
 *
 * Tests name this file's lines (pp() and .statement("...@stp_test.c:N")):
 * a change that moves the lines marked "line N" must update the tests
 * under testsuite/run/kmod_*.  build.sh compiles it against each kernel.
 */
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/types.h>

enum stp_test_color { STP_TEST_RED = 1, STP_TEST_GREEN = 2, STP_TEST_BLUE = 4 };

struct stp_test_inner {
	int x;
	long y;
	char tag[8];
};

union stp_test_word {
	u32 word;
	u8 bytes[4];
};

struct stp_test_node {
	int value;
	const char *name;
	struct stp_test_node *next;
};

struct stp_test_data {
	int id;
	struct stp_test_inner inner;
	union stp_test_word u;
	enum stp_test_color color;
	unsigned int flag_a : 1;
	unsigned int flag_b : 3;
	int sfield : 5;
	int arr[4];
	char name[16];
	const char *str;
	struct stp_test_node *chain;
	struct stp_test_node *bad;	/* not a valid address: reads fault */
};

/* Results go here so that the compiler keeps every computation. */
static long stp_test_sink;
static unsigned int stp_test_runs;

noinline long stp_test_ints(signed char sc, unsigned char uc, short ss, unsigned short us,
			    int si, unsigned int ui, long sl, unsigned long ul,
			    long long sll, unsigned long long ull)
{
	return sc + uc + ss + us + si + (long)ui + sl + (long)ul + (long)sll + (long)ull;
}

noinline size_t stp_test_string(const char *str, const char *name)
{
	char local[12] = "local-array";

	return strlen(str) + strlen(name) + strlen(local);
}

noinline int stp_test_struct(struct stp_test_data *d)
{
	return d->id + d->inner.x + d->arr[2] + d->flag_b + d->color;
}

noinline int stp_test_chain(struct stp_test_node *a)
{
	return a->next->next->value;
}

noinline long stp_test_return(long x)
{
	return x * 3 + 1;
}

noinline int stp_test_step(int acc, int k)
{
	return acc * 2 + k;
}

/* Each statement is a call, so each line has code of its own. */
noinline int stp_test_stmt(int n)
{
	int acc = n;

	acc = stp_test_step(acc, 1);	/* line 103 */
	acc = stp_test_step(acc, 2);	/* line 104 */
	acc = stp_test_step(acc, 3);	/* line 105 */
	return acc;
}

/* Inlined at one call site in stp_test_run; its arguments are not constant. */
static __always_inline int stp_test_inline(int a, int b)
{
	WRITE_ONCE(stp_test_sink, stp_test_sink + a * b);
	return a * b + 7;
}

noinline void stp_test_run(void)
{
	static struct stp_test_node c = { .value = 3, .name = "c" };
	static struct stp_test_node b = { .value = 2, .name = "b", .next = &c };
	static struct stp_test_node a = { .value = 1, .name = "a", .next = &b };
	static struct stp_test_data d = {
		.id = 42,
		.inner = { .x = -7, .y = 1234567890123L, .tag = "inner" },
		.u = { .word = 0x04030201 },
		.color = STP_TEST_GREEN,
		.flag_a = 1,
		.flag_b = 5,
		.sfield = -3,
		.arr = { 10, 20, 30, 40 },
		.name = "stp-test-data",
		.str = "pointed-to string",
		.chain = &a,
		.bad = (struct stp_test_node *)16UL,
	};
	unsigned int run = READ_ONCE(stp_test_runs) + 1;
	long sum = 0;

	WRITE_ONCE(stp_test_runs, run);
	sum += stp_test_ints(-5, 250, -1000, 60000, -100000, 4000000000U, -5000000000L,
			     10000000000UL, -7LL, 18000000000000000000ULL);
	sum += stp_test_string("hello from stp_test", d.name);
	sum += stp_test_struct(&d);
	sum += stp_test_chain(&a);
	sum += stp_test_return(14);
	sum += stp_test_stmt(5);
	sum += stp_test_inline((int)run, 6);	/* line 146: the inlined call */
	WRITE_ONCE(stp_test_sink, stp_test_sink + sum);
}

static ssize_t stp_test_write(struct file *file, const char __user *buf, size_t count,
			      loff_t *pos)
{
	stp_test_run();
	return count;
}

static const struct proc_ops stp_test_ops = {
	.proc_write = stp_test_write,
};

static struct proc_dir_entry *stp_test_entry;

static int __init stp_test_init(void)
{
	stp_test_entry = proc_create("stp_test", 0200, NULL, &stp_test_ops);
	return stp_test_entry ? 0 : -ENOMEM;
}

static void __exit stp_test_exit(void)
{
	proc_remove(stp_test_entry);
}

module_init(stp_test_init);
module_exit(stp_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stap-ng test suite: functions to probe");
