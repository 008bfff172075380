/* SPDX-License-Identifier: GPL-2.0-only */
/* user space: nothing to export (the tree's lib/math/int_sqrt.c exports) */
#ifndef IOBAND_COMPAT_EXPORT_H
#define IOBAND_COMPAT_EXPORT_H
#define EXPORT_SYMBOL(sym)
#endif
