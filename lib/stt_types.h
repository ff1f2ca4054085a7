/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/ is compiled into the kernel module and into userspace alike; this is
 * the only place that knows the difference.
 */
#ifndef _STT_TYPES_H
#define _STT_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#endif

#endif /* _STT_TYPES_H */
