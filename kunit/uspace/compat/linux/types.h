/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/types.h>: the kernel's fixed-size types. */
#ifndef COMPAT_LINUX_TYPES_H
#define COMPAT_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;
typedef int32_t s32;
typedef long long s64;

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
