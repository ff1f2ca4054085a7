/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether the ip that loaded link_stt.so is an iproute2 release that
 * iproute2-abi.h was checked against.
 */
#ifndef STT_IPROUTE2_VERSION_H
#define STT_IPROUTE2_VERSION_H 1

#include <stdbool.h>

/* True if the running program says (ip -V) it is iproute2
 * STT_IPROUTE2_FIRST up to any STT_IPROUTE2_LAST.x.  Otherwise prints,
 * once, why not and which versions link_stt.so needs, and returns false.
 * The answer is cached. */
bool iproute2_running_fits(void);

#endif /* iproute2-version.h */
