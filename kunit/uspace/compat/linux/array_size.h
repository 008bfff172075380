/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/array_size.h>. */
#ifndef COMPAT_LINUX_ARRAY_SIZE_H
#define COMPAT_LINUX_ARRAY_SIZE_H

#undef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))

#endif
