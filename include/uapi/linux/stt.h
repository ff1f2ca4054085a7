/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rtnetlink attributes of link kind "stt" (IFLA_INFO_DATA), shared by the
 * kernel module and the user tools.  Numbers are ABI: append only.
 */
#ifndef _UAPI_LINUX_STT_H
#define _UAPI_LINUX_STT_H

#include <linux/types.h>

#define STT_LINK_KIND "stt"

enum {
	IFLA_STT_UNSPEC,
	IFLA_STT_ID,			/* u64: context id (fixed-peer mode) */
	IFLA_STT_REMOTE,		/* be32: IPv4 remote */
	IFLA_STT_REMOTE6,		/* struct in6_addr: IPv6 remote */
	IFLA_STT_LOCAL,			/* be32: IPv4 source */
	IFLA_STT_LOCAL6,		/* struct in6_addr: IPv6 source */
	IFLA_STT_PORT,			/* be16: destination port */
	IFLA_STT_PORT_RANGE,		/* struct ifla_stt_port_range */
	IFLA_STT_TTL,			/* u8 */
	IFLA_STT_TTL_INHERIT,		/* flag */
	IFLA_STT_TOS,			/* u8; 1 means inherit */
	IFLA_STT_DF,			/* u8: enum ifla_stt_df */
	IFLA_STT_COLLECT_METADATA,	/* flag: external (metadata) mode */
	__IFLA_STT_MAX
};
#define IFLA_STT_MAX (__IFLA_STT_MAX - 1)

/* Source ports, network byte order as in struct ifla_vxlan_port_range. */
struct ifla_stt_port_range {
	__be16 low;
	__be16 high;
};

enum ifla_stt_df {
	STT_DF_UNSET,
	STT_DF_SET,
	STT_DF_INHERIT,
	__STT_DF_END,
};

#endif /* _UAPI_LINUX_STT_H */
