/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building the skb of a received frame from the segments that carried it.
 */
#ifndef _STT_FRAME_H
#define _STT_FRAME_H

#include <linux/skbuff.h>

struct net_device;
struct stt_counters;

/* Where a segment's payload goes in its frame, while the segment waits. */
struct stt_seg_cb {
	u16 offset;
};

#define STT_SEG_CB(skb) ((struct stt_seg_cb *)(skb)->cb)

struct sk_buff *stt_frame_build(struct sk_buff *segs, u16 frame_len,
				struct net_device *dev,
				struct stt_counters __percpu *counters);

#endif /* _STT_FRAME_H */
