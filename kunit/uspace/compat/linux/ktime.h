/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for ktime_get_ns() of <linux/ktime.h>. */
#ifndef COMPAT_LINUX_KTIME_H
#define COMPAT_LINUX_KTIME_H

#include <time.h>
#include <linux/types.h>

static inline u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#endif
