/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/module.h>: module tags are dropped. */
#ifndef COMPAT_LINUX_MODULE_H
#define COMPAT_LINUX_MODULE_H

#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)

#endif
