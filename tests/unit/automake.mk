# PLACEHOLDER written by the build engineer so that the build works before
# the real fragment exists; the tests/unit/ owner replaces this file, e.g.:
#   check_PROGRAMS += tests/unit/test-stt
#   tests_unit_test_stt_SOURCES = tests/unit/test-stt.c ...
#   tests_unit_test_stt_LDADD = lib/libstt.a
#   TESTS += tests/unit/test-stt
