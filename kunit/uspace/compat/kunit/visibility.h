/* SPDX-License-Identifier: GPL-2.0-only */
/* user space: see compat/uspace.h */
