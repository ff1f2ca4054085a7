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
	tests/unit/test-stt.c \
	tests/unit/test-wire.c \
	tests/unit/tests.h
tests_unit_test_stt_LDADD = lib/libstt.a
