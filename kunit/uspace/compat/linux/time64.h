/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/time64.h>. */
#ifndef COMPAT_LINUX_TIME64_H
#define COMPAT_LINUX_TIME64_H
#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_SEC	1000000000ULL
#endif
