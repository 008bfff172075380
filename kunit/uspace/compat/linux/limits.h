/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/limits.h>. */
#ifndef COMPAT_LINUX_LIMITS_H
#define COMPAT_LINUX_LIMITS_H

#include <limits.h>
#include <linux/types.h>

#define U32_MAX ((u32)~0U)
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))

#endif
