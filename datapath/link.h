/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtnetlink kind "stt": what a user asks of a device and what it reports.
 */
#ifndef _STT_LINK_H
#define _STT_LINK_H

int stt_link_init(void);
void stt_link_uninit(void);

#endif /* _STT_LINK_H */
