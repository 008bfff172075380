/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dm-ioband: share a block device's bandwidth between jobs by weight.
 *
 * Definitions shared by the target and its KUnit tests.
 */
#ifndef DM_IOBAND_H
#define DM_IOBAND_H

#include <linux/types.h>

#include "dm-ioband-policy.h"

/* Smallest and largest weight of a band group. */
#define IOBAND_WEIGHT_MIN	1U
#define IOBAND_WEIGHT_MAX	IOB_WEIGHT_MAX
/* Largest io_throttle and io_limit (bios in flight per device group). */
#define IOBAND_IO_LIMIT_MAX	4096U

/* How bios are sorted into band groups. */
enum ioband_group_type {
	IOBAND_TYPE_NONE,	/* only the default group */
	IOBAND_TYPE_PID,	/* process id of the submitter */
	IOBAND_TYPE_PGRP,	/* process group of the submitter */
	IOBAND_TYPE_UID,	/* user id of the submitter */
	IOBAND_TYPE_GID,	/* group id of the submitter */
	IOBAND_NR_TYPES
};

#if IS_ENABLED(CONFIG_KUNIT)
/* Parsers, static unless KUnit tests them. */
const char *ioband_group_type_name(enum ioband_group_type type);
const char *ioband_policy_name(enum iob_policy policy);
int ioband_parse_group_type(const char *s, enum ioband_group_type *type);
int ioband_parse_policy(const char *s, enum iob_policy *policy);
int ioband_parse_group_id(const char *s, enum ioband_group_type type,
			  u64 *id, const char **error);
int ioband_parse_weight(const char *s, unsigned int *weight);
int ioband_parse_group_spec(const char *s, enum ioband_group_type type,
			    u64 *id, unsigned int *weight, const char **error);
#endif

#endif /* DM_IOBAND_H */
