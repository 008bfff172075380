// SPDX-License-Identifier: GPL-2.0-only
/*
 * main() of the user-space KUnit binaries: runs every suite that
 * kunit_test_suite() or kunit_test_suites() put in the section
 * kunit_test_suites (whose bounds the linker provides), in link order,
 * as KTAP, then prints "N passed, N failed" over all their cases.
 */
#include <kunit/test.h>

int main(void)
{
	struct kunit_suite **s;
	int nr = 0, passed = 0, failed = 0;

	printf("KTAP version 1\n1..%d\n",
	       (int)(__stop_kunit_test_suites - __start_kunit_test_suites));
	for (s = __start_kunit_test_suites; s < __stop_kunit_test_suites; s++)
		kunit_run_suite(*s, ++nr, &passed, &failed);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
