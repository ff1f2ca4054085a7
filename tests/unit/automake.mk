# Userspace unit tests of lib/: "make check", or run tests/unit/test-stt
# directly (optionally with test names as arguments).
check_PROGRAMS += tests/unit/test-stt
TESTS += tests/unit/test-stt
tests_unit_test_stt_SOURCES = \
	tests/unit/harness.c \
	tests/unit/harness.h \
	tests/unit/test-hdr.c \
	tests/unit/test-reasm.c \
	tests/unit/test-reasm-random.c \
	tests/unit/test-reference.c \
	tests/unit/test-stt.c \
	tests/unit/test-wire.c \
	tests/unit/tests.h
tests_unit_test_stt_LDADD = lib/libstt.a
# The reference captures and what they decode to (tests/unit/reference),
# read from the source tree.
tests_unit_test_stt_CPPFLAGS = $(AM_CPPFLAGS) \
	-DSTT_REFERENCE_DIR='"$(abs_top_srcdir)/tests/unit/reference"'
