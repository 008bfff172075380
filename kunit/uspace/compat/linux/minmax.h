/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * min(), max(), max3() and clamp(): tools/include has them in <linux/kernel.h>,
 * but strict about types (the pointer comparison warns on u64 against an
 * unsigned long long constant).  The kernel's own accept any two operands
 * of the same signedness, and the kernel build checks that: here they only
 * compute.
 */
#include <linux/kernel.h>

#undef min
#undef max
#undef clamp
#undef max3
#define min(x, y) ({ __auto_type _a = (x); __auto_type _b = (y); \
		     _a < _b ? _a : _b; })
#define max(x, y) ({ __auto_type _a = (x); __auto_type _b = (y); \
		     _a > _b ? _a : _b; })
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define max3(x, y, z) max(max(x, y), z)
