/* SPDX-License-Identifier: GPL-2.0-only */
/* Forced include of the user-space build: kernel-only annotations. */
#ifndef IOBAND_USPACE_H
#define IOBAND_USPACE_H
#define EXPORT_SYMBOL_IF_KUNIT(sym)
#define MODULE_IMPORT_NS(ns)
#endif
