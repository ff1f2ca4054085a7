/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STT_TESTS_H
#define _STT_TESTS_H

void test_be_helpers(void);
void test_seq_encoding(void);
void test_frame_id_cursors(void);
void test_err_names(void);

void test_hdr_wire_bytes(void);
void test_hdr_vlan_bits(void);
void test_hdr_roundtrip(void);
void test_hdr_parse_truncated(void);
void test_hdr_parse_frame_len(void);
void test_hdr_parse_version(void);
void test_hdr_parse_reserved_flags(void);
void test_hdr_parse_l4_offset_unused(void);
void test_hdr_parse_mss_unused(void);
void test_hdr_parse_l4_offset_partial(void);
void test_hdr_parse_mss_floor(void);
void test_hdr_parse_liberal(void);
void test_hdr_csum_offset(void);

void test_seg_check_ok(void);
void test_seg_check_errors(void);
void test_reasm_in_order(void);
void test_reasm_reverse_order(void);
void test_reasm_holes(void);
void test_reasm_duplicates(void);
void test_reasm_overlaps(void);
void test_reasm_len_mismatch(void);
void test_reasm_bounds(void);
void test_reasm_too_fragmented(void);
void test_reasm_complete_needs_all(void);
void test_reasm_random(void);

void test_reference_captures(void);

#endif /* _STT_TESTS_H */
