/* SPDX-License-Identifier: GPL-2.0-only */
/* Forced include of the user-space build: kernel-only annotations. */
#ifndef IOBAND_USPACE_H
#define IOBAND_USPACE_H
#define EXPORT_SYMBOL_IF_KUNIT(sym)
#define MODULE_IMPORT_NS(ns)
/* the kernel's min()/max() for every file, not tools' strict ones */
#include <linux/minmax.h>
/* lib/math/int_sqrt.c: the integer square root, rounded down */
static inline unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0, b;

	for (b = 1UL << (sizeof(long) * 8 - 2); b; b >>= 2) {
		if (x >= r + b) {
			x -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
	}
	return r;
}
#endif
