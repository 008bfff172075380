/* SPDX-License-Identifier: GPL-2.0-only */
/* Forced include of the user-space build: kernel-only annotations. */
#ifndef IOBAND_USPACE_H
#define IOBAND_USPACE_H
#define EXPORT_SYMBOL_IF_KUNIT(sym)
#define MODULE_IMPORT_NS(ns)
/* the kernel's min()/max() for every file, not tools' strict ones */
#include <linux/minmax.h>
/* the tree's lib/math/int_sqrt.c, built beside the policy */
unsigned long int_sqrt(unsigned long x);
/* <linux/math.h>'s, which tools' headers lack */
#ifndef abs_diff
#define abs_diff(a, b) ((a) > (b) ? (a) - (b) : (b) - (a))
#endif
#endif
