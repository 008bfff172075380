/* SPDX-License-Identifier: GPL-2.0-only */
/* min(), max() and clamp(): tools/include has them in <linux/kernel.h>. */
#include <linux/kernel.h>
