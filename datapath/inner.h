/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inner packet layouts whose checksum and segmentation offloads the STT
 * header can carry: one rule for transmit and receive, so that a sender
 * never offloads what its receiver refuses.
 */
#ifndef _STT_INNER_H
#define _STT_INNER_H

#include <linux/skbuff.h>

bool stt_inner_layout_ok(struct sk_buff *skb, u8 flags, u8 l4_offset);

#endif /* _STT_INNER_H */
