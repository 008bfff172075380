// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the dm-ioband table and message argument parsers.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "../dm-ioband.h"

static void ioband_type_test(struct kunit *test)
{
	enum ioband_group_type t;
	int i;

	for (i = 0; i < IOBAND_NR_TYPES; i++) {
		KUNIT_EXPECT_EQ(test, 0,
				ioband_parse_group_type(ioband_group_type_name(i),
							&t));
		KUNIT_EXPECT_EQ(test, i, (int)t);
	}
	KUNIT_EXPECT_EQ(test, -EINVAL, ioband_parse_group_type("", &t));
	KUNIT_EXPECT_EQ(test, -EINVAL, ioband_parse_group_type("PID", &t));
	KUNIT_EXPECT_EQ(test, -EINVAL, ioband_parse_group_type("pids", &t));
}

static void ioband_policy_test(struct kunit *test)
{
	enum iob_policy p;

	KUNIT_EXPECT_EQ(test, 0, ioband_parse_policy("weight", &p));
	KUNIT_EXPECT_EQ(test, IOB_POLICY_WEIGHT, p);
	KUNIT_EXPECT_EQ(test, 0, ioband_parse_policy("weight-iosize", &p));
	KUNIT_EXPECT_EQ(test, IOB_POLICY_WEIGHT_IOSIZE, p);
	KUNIT_EXPECT_STREQ(test, "weight-iosize",
			   ioband_policy_name(IOB_POLICY_WEIGHT_IOSIZE));
	KUNIT_EXPECT_EQ(test, -EINVAL, ioband_parse_policy("default", &p));
	KUNIT_EXPECT_EQ(test, -EINVAL, ioband_parse_policy("weight ", &p));
}

struct spec_case {
	const char *arg;
	enum ioband_group_type type;
	int ret;
	u64 id;
	unsigned int weight;
};

static const struct spec_case spec_cases[] = {
	{ "1000:40", IOBAND_TYPE_UID, 0, 1000, 40 },
	{ "0:1", IOBAND_TYPE_GID, 0, 0, 1 },
	{ "4294967294:1000000", IOBAND_TYPE_UID, 0, 4294967294ULL, 1000000 },
	{ "1:1", IOBAND_TYPE_PID, 0, 1, 1 },
	{ "0:10", IOBAND_TYPE_PID, -EINVAL },	/* pid 0 */
	{ "0:10", IOBAND_TYPE_PGRP, -EINVAL },
	{ "4294967295:1", IOBAND_TYPE_UID, -EINVAL },	/* (uid_t)-1 */
	{ "4294967296:1", IOBAND_TYPE_UID, -EINVAL },
	{ "100:0", IOBAND_TYPE_UID, -EINVAL },	/* weight 0 */
	{ "100:1000001", IOBAND_TYPE_UID, -EINVAL },
	{ "100:-1", IOBAND_TYPE_UID, -EINVAL },
	{ "100:", IOBAND_TYPE_UID, -EINVAL },
	{ ":100", IOBAND_TYPE_UID, -EINVAL },
	{ "100", IOBAND_TYPE_UID, -EINVAL },
	{ "-1:100", IOBAND_TYPE_UID, -EINVAL },
	{ "a:100", IOBAND_TYPE_UID, -EINVAL },
	{ "1:1:1", IOBAND_TYPE_UID, -EINVAL },
	{ "1000:40", IOBAND_TYPE_NONE, -EINVAL },
	{ "123456789012345678901234567890:1", IOBAND_TYPE_UID, -EINVAL },
};

static void spec_case_desc(const struct spec_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\" as %s", c->arg,
		 ioband_group_type_name(c->type));
}

KUNIT_ARRAY_PARAM(spec, spec_cases, spec_case_desc);

static void ioband_group_spec_test(struct kunit *test)
{
	const struct spec_case *c = test->param_value;
	const char *err = NULL;
	unsigned int weight = 0;
	u64 id = 0;
	int r;

	r = ioband_parse_group_spec(c->arg, c->type, &id, &weight, &err);
	KUNIT_EXPECT_EQ(test, c->ret, r);
	if (r) {
		/* Every rejection says why. */
		KUNIT_EXPECT_NOT_NULL(test, err);
		return;
	}
	KUNIT_EXPECT_EQ(test, c->id, id);
	KUNIT_EXPECT_EQ(test, c->weight, weight);
}

static void ioband_group_id_test(struct kunit *test)
{
	const char *err = NULL;
	u64 id = 0;

	KUNIT_EXPECT_EQ(test, 0, ioband_parse_group_id("42", IOBAND_TYPE_PGRP,
						       &id, &err));
	KUNIT_EXPECT_EQ(test, 42ULL, id);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			ioband_parse_group_id("42", IOBAND_TYPE_NONE, &id,
					      &err));
	KUNIT_EXPECT_NOT_NULL(test, err);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			ioband_parse_group_id("4194305", IOBAND_TYPE_PID, &id,
					      &err));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			ioband_parse_group_id("", IOBAND_TYPE_UID, &id, &err));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			ioband_parse_group_id(" 1", IOBAND_TYPE_UID, &id,
					      &err));
}

static struct kunit_case ioband_table_cases[] = {
	KUNIT_CASE(ioband_type_test),
	KUNIT_CASE(ioband_policy_test),
	KUNIT_CASE_PARAM(ioband_group_spec_test, spec_gen_params),
	KUNIT_CASE(ioband_group_id_test),
	{}
};

static struct kunit_suite ioband_table_suite = {
	.name = "dm-ioband-table",
	.test_cases = ioband_table_cases,
};

kunit_test_suite(ioband_table_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the dm-ioband table parser");
MODULE_LICENSE("GPL");
