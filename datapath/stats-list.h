/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every counter, one row each: enum stt_counter (stats.h), and the ethtool
 * -S names, drop reasons and folding into ip -s link (stats.c) are all made
 * from these rows, so that they cannot disagree.  A list included with
 * STT_COUNTER() and STT_LIB_COUNTER() defined.  A row of stt's own counters:
 *
 *   STT_COUNTER(COUNTER, "ethtool name", CHARGE, drop reason, folds)
 *
 * and one of the lib/ block, a counter per enum stt_err but STT_OK, named
 * rx_err_<stt_err_name()>, after stt's own in enum stt_err order (stats.c
 * checks that the block has a row for each):
 *
 *   STT_LIB_COUNTER(ERR, CHARGE, drop reason, folds)
 *
 * COUNTER      makes STT_<COUNTER>, in the order of the rows; ERR names
 *              STT_ERR_<ERR> of enum stt_err.
 * CHARGE       the block callers count it in: DEV, the device's, or PORT,
 *              the receive port's, for what happens before the frame's
 *              device is known.  ethtool -S shows the two added up; a
 *              kernel with CONFIG_DEBUG_NET warns when a block holds a
 *              count charged to the other (stats.c).
 * drop reason  NO_DROP if it counts no drops, else DROP(reason) or
 *              LATER(reason, older), as stats.c says.
 * folds        the rtnl_link_stats64 fields that ip -s link adds it to, as
 *              flags or-ed (stats.c), or 0.
 */

/* Transmit. */
STT_COUNTER(TX_FRAMES, "tx_frames", DEV, NO_DROP, 0)
STT_COUNTER(TX_SEGMENTS, "tx_segments", DEV, NO_DROP, 0)
/* Inner GSO we could not carry. */
STT_COUNTER(TX_SW_SEGMENTED, "tx_sw_segmented", DEV, NO_DROP, 0)
/* E.g. the stack's own IPv6 ND: without tunnel metadata a packet has
 * nowhere to be routed.
 */
STT_COUNTER(TX_NO_TUNNEL_INFO, "tx_drop_no_tunnel_info", DEV,
	LATER(TUNNEL_TXINFO, IP_OUTNOROUTES), TX_DROPPED)
/* Refused by IP output, which frees it with its own reason, and counted by
 * iptunnel_xmit() in tx_dropped or tx_errors already.
 */
STT_COUNTER(TX_DROP_IP_OUTPUT, "tx_drop_ip_output", DEV, NO_DROP, 0)
/* Sent while changelink ran. */
STT_COUNTER(TX_DROP_RECONFIG, "tx_drop_reconfig", DEV, DROP(DEV_READY),
	TX_DROPPED)
/* An IPv6 remote, and IPv6 disabled (ipv6.disable=1). */
STT_COUNTER(TX_ERR_FAMILY, "tx_err_family", DEV, DROP(UNHANDLED_PROTO),
	TX_ERRORS)
STT_COUNTER(TX_ERR_ROUTE, "tx_err_route", DEV, DROP(IP_OUTNOROUTES),
	TX_ERRORS | TX_CARRIER_ERRORS)
/* The only route leads back into the device. */
STT_COUNTER(TX_ERR_LOOP, "tx_err_loop", DEV, DROP(IP_OUTNOROUTES),
	TX_ERRORS | COLLISIONS)
STT_COUNTER(TX_ERR_FRAME_TOO_BIG, "tx_err_frame_too_big", DEV,
	DROP(PKT_TOO_BIG), TX_ERRORS)
STT_COUNTER(TX_ERR_NOMEM, "tx_err_nomem", DEV, DROP(NOMEM),
	TX_ERRORS | TX_DROPPED)
STT_COUNTER(TX_ERR_CSUM, "tx_err_csum", DEV, DROP(SKB_CSUM), TX_ERRORS)
STT_COUNTER(TX_ERR_GSO, "tx_err_gso", DEV, DROP(SKB_GSO_SEG), TX_ERRORS)
/* Inner IP header cut short. */
STT_COUNTER(TX_ERR_INNER, "tx_err_inner", DEV, DROP(HDR_TRUNC), TX_ERRORS)

/* Receive, once the frame's device is known. */
STT_COUNTER(RX_FRAMES, "rx_frames", DEV, NO_DROP, 0)
/* Inner headers contradict STT flags. */
STT_COUNTER(RX_ERR_INNER, "rx_err_inner", DEV, DROP(INVALID_PROTO), RX_ERRORS)
/* CE outside on a Not-ECT inner packet; on 6.1, what IP says of a header
 * it cannot accept.
 */
STT_COUNTER(RX_ERR_ECN, "rx_err_ecn", DEV, LATER(IP_TUNNEL_ECN, IP_INHDR),
	RX_ERRORS | RX_FRAME_ERRORS)
/* Sent from the device's own MAC; 6.1's vxlan drops its own frames
 * unspecified too.
 */
STT_COUNTER(RX_ERR_LOOP, "rx_err_loop", DEV, LATER(LOCAL_MAC, NOT_SPECIFIED),
	RX_ERRORS)
STT_COUNTER(RX_DROP_DEV_DOWN, "rx_drop_dev_down", DEV, DROP(DEV_READY),
	RX_DROPPED)
STT_COUNTER(RX_ERR_NOMEM, "rx_err_nomem", DEV, DROP(NOMEM), RX_DROPPED)

/* Receive, before a device is known. */
STT_COUNTER(RX_SEGMENTS, "rx_segments", PORT, NO_DROP, 0)
STT_COUNTER(RX_FRAMES_REASSEMBLED, "rx_frames_reassembled", PORT, NO_DROP, 0)
/* Payload copied, not shared (frame.c). */
STT_COUNTER(RX_FRAMES_COPIED, "rx_frames_copied", PORT, NO_DROP, 0)
/* 6.1's IP reassembly expires fragments unspecified too. */
STT_COUNTER(RX_REASM_TIMEOUTS, "rx_reasm_timeouts", PORT,
	LATER(FRAG_REASM_TIMEOUT, NOT_SPECIFIED), RX_FRAME_ERRORS | RX_DROPPED)
/* A limit of our own, not the allocator failing. */
STT_COUNTER(RX_REASM_MEM_DROPS, "rx_reasm_mem_drops", PORT, DROP(PROTO_MEM),
	RX_DROPPED)
STT_COUNTER(RX_ERR_BAD_CSUM, "rx_err_bad_csum", PORT, DROP(TCP_CSUM),
	RX_ERRORS | RX_CRC_ERRORS)
STT_COUNTER(RX_ERR_TCP_FLAGS, "rx_err_tcp_flags", PORT, DROP(TCP_FLAGS),
	RX_ERRORS)
STT_COUNTER(RX_ERR_TCP_DOFF, "rx_err_tcp_doff", PORT, DROP(INVALID_PROTO),
	RX_ERRORS)
/* TCP header cut short, in what TCP says of one. */
STT_COUNTER(RX_ERR_TCP_TRUNCATED, "rx_err_tcp_truncated", PORT,
	DROP(PKT_TOO_SMALL), RX_ERRORS)
/* No device takes this sender's context id: TCP's "no socket". */
STT_COUNTER(RX_ERR_NO_DEVICE, "rx_err_no_device", PORT, DROP(NO_SOCKET),
	RX_DROPPED)
STT_COUNTER(RX_ERR_PORT_NOMEM, "rx_err_port_nomem", PORT, DROP(NOMEM),
	RX_DROPPED)
/* Refused by the inbound IPsec policy. */
STT_COUNTER(RX_ERR_XFRM_POLICY, "rx_err_xfrm_policy", PORT, DROP(XFRM_POLICY),
	RX_ERRORS)
/* An IPv6 source that holds an IPv4 address, or none (outer.h). */
STT_COUNTER(RX_ERR_IPV6_SADDR, "rx_err_ipv6_saddr", PORT, DROP(IP_INHDR),
	RX_ERRORS)
/* ICMP "fragmentation needed" or ICMPv6 "packet too big" taken. */
STT_COUNTER(PMTU_UPDATES, "pmtu_updates", PORT, NO_DROP, 0)

/* The lib/ block. */
STT_LIB_COUNTER(FRAME_LEN, PORT, DROP(PKT_TOO_SMALL), RX_ERRORS)
STT_LIB_COUNTER(SEG_EMPTY, PORT, DROP(PKT_TOO_SMALL), RX_ERRORS)
/* The offset is the low half of the TCP sequence number. */
STT_LIB_COUNTER(SEG_OFFSET, PORT, DROP(TCP_INVALID_SEQUENCE), RX_ERRORS)
STT_LIB_COUNTER(SEG_LEN, PORT, DROP(TCP_INVALID_SEQUENCE), RX_ERRORS)
STT_LIB_COUNTER(TRUNCATED, PORT, DROP(HDR_TRUNC), RX_ERRORS)
STT_LIB_COUNTER(VERSION, PORT, DROP(UNHANDLED_PROTO), RX_ERRORS)
STT_LIB_COUNTER(FLAGS, PORT, DROP(INVALID_PROTO), RX_ERRORS)
STT_LIB_COUNTER(L4_OFFSET, PORT, DROP(INVALID_PROTO), RX_ERRORS)
STT_LIB_COUNTER(MSS, PORT, DROP(INVALID_PROTO), RX_ERRORS)
/* On 6.1, what TCP says of data it already has. */
STT_LIB_COUNTER(DUPLICATE, PORT, LATER(DUP_FRAG, TCP_OLD_DATA), RX_ERRORS)
STT_LIB_COUNTER(OVERLAP, PORT, LATER(DUP_FRAG, TCP_OLD_DATA), RX_ERRORS)
STT_LIB_COUNTER(LEN_MISMATCH, PORT, DROP(INVALID_PROTO), RX_ERRORS)
/* A bound on what one frame may cost, as PROTO_MEM is. */
STT_LIB_COUNTER(TOO_FRAGMENTED, PORT, DROP(PROTO_MEM), RX_ERRORS)
STT_LIB_COUNTER(MSS_SMALL, PORT, DROP(INVALID_PROTO), RX_ERRORS)
