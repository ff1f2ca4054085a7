// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/.  Usage: test-stt [TEST...]; with no arguments every
 * test runs.  Prints one line per test and a summary; exits 1 on failure.
 */

#include "harness.h"
#include "tests.h"

#define T(name) { #name, test_##name }

static const struct test tests[] = {
	T(be_helpers),
	T(seq_encoding),
	T(frame_id_cursors),
	T(err_names),

	T(hdr_wire_bytes),
	T(hdr_vlan_bits),
	T(hdr_roundtrip),
	T(hdr_parse_truncated),
	T(hdr_parse_frame_len),
	T(hdr_parse_version),
	T(hdr_parse_reserved_flags),
	T(hdr_parse_l4_offset_unused),
	T(hdr_parse_mss_unused),
	T(hdr_parse_l4_offset_partial),
	T(hdr_parse_mss_floor),
	T(hdr_parse_liberal),
	T(hdr_csum_offset),

	T(seg_check_ok),
	T(seg_check_errors),
	T(reasm_in_order),
	T(reasm_reverse_order),
	T(reasm_holes),
	T(reasm_duplicates),
	T(reasm_overlaps),
	T(reasm_len_mismatch),
	T(reasm_bounds),
	T(reasm_too_fragmented),
	T(reasm_complete_needs_all),
	T(reasm_random),

	T(reference_captures),
};

int main(int argc, char *argv[])
{
	return test_main(tests, ARRAY_SIZE(tests), argc, argv);
}
