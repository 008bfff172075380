/* SPDX-License-Identifier: GPL-2.0-only */
/* user space: nothing to export */
