/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <kunit/test.h>: the subset the dm-ioband suites
 * use. Each case runs in turn; a failed expectation prints and marks the
 * case failed, a failed assertion also ends the case (longjmp, as KUnit
 * ends the case's thread). Memory from kunit_kzalloc() is freed after the
 * case. kunit_test_suite() and kunit_test_suites() put the suites in the
 * section kunit_test_suites, as the kernel does; main() in compat/kunit/main.c
 * runs them all, in link order. Output is KTAP-like, closed by
 * "N passed, N failed" over all the suites.
 */
#ifndef COMPAT_KUNIT_TEST_H
#define COMPAT_KUNIT_TEST_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/module.h>

#define GFP_KERNEL 0

#define KUNIT_PARAM_DESC_SIZE 128

struct kunit {
	const char *name;
	const void *param_value;
	int failed;
	jmp_buf abort;
	void **allocs;
	size_t nr_allocs;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn) { .run_case = fn, .name = #fn }
#define KUNIT_CASE_SLOW(fn) KUNIT_CASE(fn)
#define KUNIT_CASE_PARAM(fn, gen) \
	{ .run_case = fn, .name = #fn, .generate_params = gen }

/* As the kernel's: the params of @name are the elements of @array. */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)			\
	static const void *name##_gen_params(const void *prev, char *desc) \
	{								\
		typeof((array)[0]) *__next = prev ?			\
			((typeof(__next))prev) + 1 : (array);		\
		void (*__get_desc)(typeof(__next), char *) = get_desc;	\
		if (__next - (array) < (long)ARRAY_SIZE(array)) {	\
			if (__get_desc)					\
				__get_desc(__next, desc);		\
			return __next;					\
		}							\
		return NULL;						\
	}

static inline void *kunit_kzalloc(struct kunit *test, size_t size, int gfp)
{
	void *p = calloc(1, size ? size : 1);
	void **v;

	(void)gfp;
	if (!p)
		return NULL;
	v = realloc(test->allocs, (test->nr_allocs + 1) * sizeof(*v));
	if (!v) {
		free(p);
		return NULL;
	}
	test->allocs = v;
	test->allocs[test->nr_allocs++] = p;
	return p;
}

static inline void *kunit_kcalloc(struct kunit *test, size_t n, size_t size,
				  int gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kunit_kzalloc(test, n * size, gfp);
}

#define kunit_info(test, fmt, ...) \
	printf("    # %s: " fmt, (test)->name, ##__VA_ARGS__)

#define __KUNIT_FAIL(test, is_assert, fmt, ...) do {			\
	printf("    # %s: %s FAILED at %s:%d: " fmt "\n", (test)->name,	\
	       (is_assert) ? "ASSERTION" : "EXPECTATION", __FILE__,	\
	       __LINE__, ##__VA_ARGS__);					\
	(test)->failed = 1;						\
	if (is_assert)							\
		longjmp((test)->abort, 1);				\
} while (0)

#define __KUNIT_BINARY(test, is_assert, l, op, r, msg) do {		\
	long long __l = (long long)(l), __r = (long long)(r);		\
	if (!(__l op __r))						\
		__KUNIT_FAIL(test, is_assert, "%s %s %s (%lld vs %lld)%s%s", \
			     #l, #op, #r, __l, __r, (msg) ? ": " : "",	\
			     (msg) ? (const char *)(msg) : "");		\
} while (0)

/* The _MSG forms: a format and its arguments, as the kernel's take. */
#define __KUNIT_BINARY_MSG(test, is_assert, l, op, r, fmt, ...) do {	\
	long long __l = (long long)(l), __r = (long long)(r);		\
	if (!(__l op __r))						\
		__KUNIT_FAIL(test, is_assert, "%s %s %s (%lld vs %lld): " fmt, \
			     #l, #op, #r, __l, __r, ##__VA_ARGS__);	\
} while (0)

#define __KUNIT_BOOL_MSG(test, is_assert, cond, want, fmt, ...) do {	\
	if (!!(cond) != (want))						\
		__KUNIT_FAIL(test, is_assert, "%s is %s: " fmt, #cond,	\
			     (want) ? "false" : "true", ##__VA_ARGS__);	\
} while (0)

#define __KUNIT_BOOL(test, is_assert, cond, want, msg) do {		\
	if (!!(cond) != (want))						\
		__KUNIT_FAIL(test, is_assert, "%s is %s%s%s", #cond,	\
			     (want) ? "false" : "true", (msg) ? ": " : "", \
			     (msg) ? (const char *)(msg) : "");		\
} while (0)

#define KUNIT_EXPECT_TRUE(t, c)		__KUNIT_BOOL(t, 0, c, 1, NULL)
#define KUNIT_EXPECT_FALSE(t, c)	__KUNIT_BOOL(t, 0, c, 0, NULL)
#define KUNIT_ASSERT_TRUE(t, c)		__KUNIT_BOOL(t, 1, c, 1, NULL)
#define KUNIT_ASSERT_FALSE(t, c)	__KUNIT_BOOL(t, 1, c, 0, NULL)
#define KUNIT_EXPECT_TRUE_MSG(t, c, ...)	__KUNIT_BOOL_MSG(t, 0, c, 1, __VA_ARGS__)
#define KUNIT_EXPECT_EQ(t, l, r)	__KUNIT_BINARY(t, 0, l, ==, r, NULL)
#define KUNIT_EXPECT_NE(t, l, r)	__KUNIT_BINARY(t, 0, l, !=, r, NULL)
#define KUNIT_EXPECT_PTR_EQ(t, l, r)	\
	__KUNIT_BINARY(t, 0, (uintptr_t)(l), ==, (uintptr_t)(r), NULL)
#define KUNIT_EXPECT_LT(t, l, r)	__KUNIT_BINARY(t, 0, l, <, r, NULL)
#define KUNIT_EXPECT_LE(t, l, r)	__KUNIT_BINARY(t, 0, l, <=, r, NULL)
#define KUNIT_EXPECT_GT(t, l, r)	__KUNIT_BINARY(t, 0, l, >, r, NULL)
#define KUNIT_EXPECT_GE(t, l, r)	__KUNIT_BINARY(t, 0, l, >=, r, NULL)
#define KUNIT_ASSERT_EQ(t, l, r)	__KUNIT_BINARY(t, 1, l, ==, r, NULL)
#define KUNIT_ASSERT_LE(t, l, r)	__KUNIT_BINARY(t, 1, l, <=, r, NULL)
#define KUNIT_ASSERT_GE(t, l, r)	__KUNIT_BINARY(t, 1, l, >=, r, NULL)
#define KUNIT_ASSERT_NOT_NULL(t, p)	__KUNIT_BOOL(t, 1, (p) != NULL, 1, NULL)
#define KUNIT_EXPECT_LE_MSG(t, l, r, ...)	\
	__KUNIT_BINARY_MSG(t, 0, l, <=, r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, ...)	\
	__KUNIT_BINARY_MSG(t, 0, l, >=, r, __VA_ARGS__)
#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...)	\
	__KUNIT_BINARY_MSG(t, 0, l, ==, r, __VA_ARGS__)

static inline int kunit_run_one(struct kunit_case *c, const void *param,
				const char *desc)
{
	static struct kunit test;
	size_t i;

	test = (struct kunit){ .name = c->name, .param_value = param };
	if (!setjmp(test.abort))
		c->run_case(&test);
	for (i = 0; i < test.nr_allocs; i++)
		free(test.allocs[i]);
	free(test.allocs);
	if (desc)
		printf("        %s %s\n", test.failed ? "not ok" : "ok", desc);
	return test.failed;
}

/* Run @c, once per parameter if it has some: failed if any run failed. */
static inline int kunit_run_case(struct kunit_case *c)
{
	char desc[KUNIT_PARAM_DESC_SIZE];
	const void *p = NULL;
	int bad = 0;

	if (!c->generate_params)
		return kunit_run_one(c, NULL, NULL);
	for (desc[0] = 0; (p = c->generate_params(p, desc)); desc[0] = 0)
		bad |= kunit_run_one(c, p, desc);
	return bad;
}

/*
 * Run the cases of @suite, the @nr-th of the binary's suites: "ok @nr" or
 * "not ok @nr" for it, its cases' results added to @passed and @failed.
 */
static inline void kunit_run_suite(struct kunit_suite *suite, int nr,
				   int *passed, int *failed)
{
	/* KUNIT_CASE=<part of a name>: only the cases it names */
	const char *only = getenv("KUNIT_CASE");
	struct kunit_case *c;
	int n = 0, bad, suite_failed = 0;

	for (c = suite->test_cases; c->run_case; c++)
		n++;
	printf("    # Subtest: %s\n    1..%d\n", suite->name, n);
	n = 0;
	for (c = suite->test_cases; c->run_case; c++) {
		if (only && *only && !strstr(c->name, only)) {
			printf("    ok %d %s # SKIP not in KUNIT_CASE\n",
			       ++n, c->name);
			continue;
		}
		bad = kunit_run_case(c);
		printf("    %s %d %s\n", bad ? "not ok" : "ok", ++n, c->name);
		fflush(stdout);
		if (bad) {
			(*failed)++;
			suite_failed = 1;
		} else {
			(*passed)++;
		}
	}
	printf("%s %d %s\n", suite_failed ? "not ok" : "ok", nr, suite->name);
}

#define __KUNIT_CAT(a, b)	a##b
#define __KUNIT_UNIQUE(a, b)	__KUNIT_CAT(a, b)

#define kunit_test_suites(...)						\
	static struct kunit_suite *__KUNIT_UNIQUE(__kunit_suites_,	\
						  __COUNTER__)[]	\
	__attribute__((used, section("kunit_test_suites"),		\
		       aligned(sizeof(struct kunit_suite *)))) =	\
		{ __VA_ARGS__ }

#define kunit_test_suite(suite)	kunit_test_suites(&(suite))

/* The bounds of the section, from the linker: for main(). */
extern struct kunit_suite *__start_kunit_test_suites[];
extern struct kunit_suite *__stop_kunit_test_suites[];

#endif
