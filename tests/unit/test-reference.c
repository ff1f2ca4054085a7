// SPDX-License-Identifier: GPL-2.0
/*
 * The reference captures (tests/unit/reference: STT segments put together
 * by hand from draft-davie-stt, not by lib/) fed through lib/'s receive
 * side: each segment's sequence number decoded by stt_seg_check(), its bytes
 * placed by stt_reasm_add(), the completed frame's header parsed by
 * stt_hdr_parse().  What it decodes must be, field for field and byte for
 * byte, what "expected" there says: a field that lib/ encodes and decodes
 * wrongly the same way passes the round trips of test-hdr.c, not this.
 */

#include "harness.h"
#include "tests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stt_hdr.h"
#include "stt_reasm.h"
#include "stt_wire.h"

#ifndef STT_REFERENCE_DIR
#define STT_REFERENCE_DIR "tests/unit/reference"
#endif

#define ETH_HLEN 14
#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86dd

struct expected {
	char name[64];
	unsigned long long context_id;
	unsigned int flags, l4_offset, mss, vlan;
	u8 inner[STT_MAX_FRAME_LEN];
	size_t inner_len;
};

static u8 frame[STT_MAX_FRAME_LEN];

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)size + 1);
		if (buf && fread(buf, 1, (size_t)size, f) == (size_t)size) {
			buf[size] = '\0';
			*len = (size_t)size;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

static bool parse_hex(const char *hex, u8 *out, size_t *len)
{
	size_t n = strlen(hex), i;

	if (n % 2 || n / 2 > STT_MAX_FRAME_LEN)
		return false;
	for (i = 0; i < n / 2; i++) {
		unsigned int byte;

		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			return false;
		out[i] = (u8)byte;
	}
	*len = n / 2;
	return true;
}

/*
 * Flags by name ("csum_partial|ipv4|tcp", "none"), mapped to bits with
 * lib/'s own definitions: a definition that names the wrong bit then
 * decodes the wire's byte to other flags than these.
 */
static bool parse_flags(char *names, unsigned int *flags)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} known[] = {
		{ "csum_verified", STT_FLAG_CSUM_VERIFIED },
		{ "csum_partial", STT_FLAG_CSUM_PARTIAL },
		{ "ipv4", STT_FLAG_IPV4 },
		{ "tcp", STT_FLAG_TCP },
	};
	char *name, *save = NULL;
	size_t i;

	*flags = 0;
	if (!strcmp(names, "none"))
		return true;
	for (name = strtok_r(names, "|", &save); name;
	     name = strtok_r(NULL, "|", &save)) {
		for (i = 0; i < ARRAY_SIZE(known); i++)
			if (!strcmp(name, known[i].name))
				break;
		if (i == ARRAY_SIZE(known))
			return false;
		*flags |= known[i].bit;
	}
	return true;
}

/*
 * A line of "expected": NAME CONTEXT FLAGS L4_OFFSET MSS VLAN INNER, the
 * context id and the VLAN field in hex (make-reference writes them so).
 */
static bool parse_expected(char *line, struct expected *e)
{
	static char hex[2 * STT_MAX_FRAME_LEN + 1];
	char flags[64];

	/* The width of INNER below: every byte of the longest frame. */
	_Static_assert(sizeof(hex) == 131070 + 1, "INNER's width in sscanf");
	return sscanf(line, "%63s %llx %63s %u %u %x %131070s", e->name,
		      &e->context_id, flags, &e->l4_offset, &e->mss,
		      &e->vlan, hex) == 7 &&
	       parse_flags(flags, &e->flags) &&
	       parse_hex(hex, e->inner, &e->inner_len);
}

/*
 * Where the inner L4 checksum is, from the inner frame alone (untagged IPv4
 * or IPv6, as the references' partial checksums are): 16 in TCP, 6 in UDP.
 */
static unsigned int inner_csum_offset(const struct expected *e)
{
	u8 proto = stt_get_be16(e->inner + 12) == ETH_P_IPV6 ?
		   e->inner[ETH_HLEN + 6] : e->inner[ETH_HLEN + 9];

	return proto == 6 ? 16 : 6;
}

static u32 pcap_u32(const u8 *p, bool big_endian)
{
	return big_endian ? stt_get_be32(p) :
	       (u32)p[3] << 24 | (u32)p[2] << 16 | (u32)p[1] << 8 | p[0];
}

/*
 * The TCP segment of one captured Ethernet frame (IPv4 or IPv6 without
 * extension headers, as STT sends): *@tcp and *@tcp_len, or false.
 */
static bool tcp_segment(const u8 *pkt, u32 len, const u8 **tcp, u32 *tcp_len)
{
	u32 l3 = ETH_HLEN, ip_len, hlen;

	if (len < ETH_HLEN + 40)
		return false;
	switch (stt_get_be16(pkt + 12)) {
	case ETH_P_IP:
		hlen = (pkt[l3] & 0xf) * 4u;
		ip_len = stt_get_be16(pkt + l3 + 2);
		if (pkt[l3 + 9] != 6 || ip_len > len - l3 || ip_len < hlen)
			return false;
		break;
	case ETH_P_IPV6:
		hlen = 40;
		ip_len = 40 + stt_get_be16(pkt + l3 + 4);
		if (pkt[l3 + 6] != 6 || ip_len > len - l3)
			return false;
		break;
	default:
		return false;
	}
	*tcp = pkt + l3 + hlen;
	*tcp_len = ip_len - hlen;
	return *tcp_len >= 20;
}

/* Receives every segment of NAME.pcap, which must make exactly @e's frame. */
static void check_capture(const struct expected *e)
{
	char path[512];
	struct stt_reasm reasm;
	struct stt_hdr_fields f;
	size_t len, pos = 24;
	u8 *pcap;
	bool big_endian, started = false, complete = false;
	u32 frame_id = 0, segments = 0;

	snprintf(path, sizeof(path), "%s/%s.pcap", STT_REFERENCE_DIR, e->name);
	pcap = (u8 *)read_file(path, &len);
	if (!check_true(__FILE__, __LINE__, path, pcap && len >= 24))
		goto out;
	big_endian = stt_get_be32(pcap) == 0xa1b2c3d4;
	CHECK(big_endian || stt_get_be32(pcap) == 0xd4c3b2a1);
	CHECK_EQ(pcap_u32(pcap + 20, big_endian), 1);	/* Ethernet */

	while (pos + 16 <= len) {
		u32 caplen = pcap_u32(pcap + pos + 8, big_endian);
		const u8 *tcp = NULL;
		u32 tcp_len = 0, seq, payload_len;
		u16 frame_len, offset;

		pos += 16;
		if (!CHECK(caplen <= len - pos) ||
		    !CHECK(tcp_segment(pcap + pos, caplen, &tcp, &tcp_len)))
			break;
		pos += caplen;
		segments++;

		CHECK_EQ(stt_get_be16(tcp + 2), STT_DEFAULT_PORT);
		seq = stt_get_be32(tcp + 4);
		payload_len = tcp_len - (tcp[12] >> 4) * 4u;
		if (!CHECK_ERR(stt_seg_check(seq, payload_len, &frame_len,
					     &offset), STT_OK))
			break;
		if (!started) {
			stt_reasm_init(&reasm, frame_len);
			frame_id = stt_get_be32(tcp + 8);
			started = true;
		}
		/* One frame a capture: every segment carries its id. */
		CHECK_EQ(stt_get_be32(tcp + 8), frame_id);
		CHECK(!complete);
		if (!CHECK_ERR(stt_reasm_add(&reasm, frame_len, offset,
					     (u16)payload_len), STT_OK))
			break;
		memcpy(frame + offset, tcp + (tcp[12] >> 4) * 4u, payload_len);
		complete = stt_reasm_complete(&reasm);
	}
	CHECK(pos == len);
	if (!check_true(__FILE__, __LINE__, e->name, complete))
		goto out;

	if (!CHECK_ERR(stt_hdr_parse(frame, reasm.frame_len, reasm.frame_len,
				     &f), STT_OK))
		goto out;
	CHECK_EQ(f.context_id, e->context_id);
	CHECK_EQ(f.flags, e->flags);
	CHECK_EQ(f.l4_offset, e->l4_offset);
	CHECK_EQ(f.mss, e->mss);
	CHECK_EQ(f.vlan_present, !!(e->vlan & STT_VLAN_PRESENT));
	CHECK_EQ(f.vlan_tci, e->vlan & ~STT_VLAN_PRESENT);
	if (CHECK_EQ(reasm.frame_len - STT_HDR_LEN, e->inner_len))
		CHECK_MEM(frame + STT_HDR_LEN, e->inner, e->inner_len);
	/* The partial checksum's field, where lib/ says the receiver finds it. */
	if (f.flags & STT_FLAG_CSUM_PARTIAL)
		CHECK_EQ(stt_hdr_csum_offset(&f), inner_csum_offset(e));
	printf("  %s: %u segments, a frame of %u bytes\n", e->name, segments,
	       reasm.frame_len);
out:
	free(pcap);
}

void test_reference_captures(void)
{
	static struct expected e;
	size_t len;
	char *text, *line, *next;
	unsigned int frames = 0;

	text = read_file(STT_REFERENCE_DIR "/expected", &len);
	if (!CHECK(text != NULL))
		return;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '#' || *line == '\0')
			continue;
		if (!check_true(__FILE__, __LINE__, line,
				parse_expected(line, &e)))
			continue;
		check_capture(&e);
		frames++;
	}
	/* Checksum partial, several segments, a tag, inner IPv6, UDP, ARP. */
	CHECK_EQ(frames, 6);
	free(text);
}
