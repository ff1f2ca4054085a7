# SPDX-License-Identifier: GPL-2.0
#
# tests/fuzz/automake.mk -- fuzz targets for lib/ (see tests/fuzz/README.md).
#
# "make check" replays the seed corpus through each target, built with the
# configured compiler plus AddressSanitizer and UndefinedBehaviorSanitizer
# (no libFuzzer needed).  "make fuzz" builds the targets with clang's
# libFuzzer and runs each for FUZZ_SECONDS over a copy of the seed corpus.

# Replay drivers for "make check".
FUZZ_REPLAY_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
check_PROGRAMS += tests/fuzz/replay-hdr tests/fuzz/replay-reasm
TESTS += tests/fuzz/replay-hdr tests/fuzz/replay-reasm

tests_fuzz_replay_hdr_SOURCES = \
	tests/fuzz/fuzz.c \
	tests/fuzz/fuzz.h \
	tests/fuzz/fuzz-hdr.c \
	tests/fuzz/replay.c \
	lib/stt_err.c \
	lib/stt_hdr.c
tests_fuzz_replay_hdr_CPPFLAGS = $(AM_CPPFLAGS) \
	-DFUZZ_CORPUS_DIR='"$(abs_top_srcdir)/tests/fuzz/corpus/hdr"'
tests_fuzz_replay_hdr_CFLAGS = $(AM_CFLAGS) -g $(FUZZ_REPLAY_SAN)
tests_fuzz_replay_hdr_LDFLAGS = $(FUZZ_REPLAY_SAN)

tests_fuzz_replay_reasm_SOURCES = \
	tests/fuzz/fuzz.c \
	tests/fuzz/fuzz.h \
	tests/fuzz/fuzz-reasm.c \
	tests/fuzz/replay.c \
	lib/stt_err.c \
	lib/stt_reasm.c
tests_fuzz_replay_reasm_CPPFLAGS = $(AM_CPPFLAGS) \
	-DFUZZ_CORPUS_DIR='"$(abs_top_srcdir)/tests/fuzz/corpus/reasm"'
tests_fuzz_replay_reasm_CFLAGS = $(AM_CFLAGS) -g $(FUZZ_REPLAY_SAN)
tests_fuzz_replay_reasm_LDFLAGS = $(FUZZ_REPLAY_SAN)

# libFuzzer targets, built only by "make fuzz" / "make fuzz-build" so that
# the ordinary build needs no clang.  lib/ is compiled in with them so that
# its code is instrumented for coverage.
FUZZ_CC = clang-14
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_SECONDS = 60
FUZZ_WORKDIR = tests/fuzz/work

fuzz_common_deps = \
	$(top_srcdir)/tests/fuzz/fuzz.c \
	$(top_srcdir)/tests/fuzz/fuzz.h \
	$(top_srcdir)/lib/stt_err.c \
	$(top_srcdir)/lib/stt_err.h \
	$(top_srcdir)/lib/stt_types.h \
	$(top_srcdir)/lib/stt_wire.h
fuzz_hdr_srcs = \
	$(top_srcdir)/tests/fuzz/fuzz-hdr.c \
	$(top_srcdir)/tests/fuzz/fuzz.c \
	$(top_srcdir)/lib/stt_err.c \
	$(top_srcdir)/lib/stt_hdr.c
fuzz_reasm_srcs = \
	$(top_srcdir)/tests/fuzz/fuzz-reasm.c \
	$(top_srcdir)/tests/fuzz/fuzz.c \
	$(top_srcdir)/lib/stt_err.c \
	$(top_srcdir)/lib/stt_reasm.c

fuzz_compile = \
	command -v $(FUZZ_CC) > /dev/null || { \
	  echo "make fuzz needs clang with libFuzzer ($(FUZZ_CC) not found):" \
	       "apt-get install clang-14 libclang-rt-14-dev," \
	       "or set FUZZ_CC" >&2; exit 1; }; \
	$(MKDIR_P) tests/fuzz && \
	$(FUZZ_CC) $(AM_CPPFLAGS) $(AM_CFLAGS) $(FUZZ_CFLAGS) -o $@

tests/fuzz/fuzz-hdr: $(fuzz_hdr_srcs) $(fuzz_common_deps) \
		$(top_srcdir)/lib/stt_hdr.h
	$(AM_V_CCLD)$(fuzz_compile) $(fuzz_hdr_srcs)

tests/fuzz/fuzz-reasm: $(fuzz_reasm_srcs) $(fuzz_common_deps) \
		$(top_srcdir)/lib/stt_reasm.h
	$(AM_V_CCLD)$(fuzz_compile) $(fuzz_reasm_srcs)

fuzz-build: tests/fuzz/fuzz-hdr tests/fuzz/fuzz-reasm

# Fails on any crash or broken invariant; prints libFuzzer's final stats.
fuzz: fuzz-build
	$(AM_V_at)$(top_srcdir)/tests/fuzz/run-fuzz \
		-t $(FUZZ_SECONDS) -w $(FUZZ_WORKDIR) \
		-c $(top_srcdir)/tests/fuzz/corpus \
		tests/fuzz/fuzz-hdr tests/fuzz/fuzz-reasm

fuzz-clean:
	rm -rf tests/fuzz/fuzz-hdr tests/fuzz/fuzz-reasm $(FUZZ_WORKDIR)

.PHONY: fuzz fuzz-build fuzz-clean

CLEANFILES += tests/fuzz/fuzz-hdr tests/fuzz/fuzz-reasm

EXTRA_DIST += \
	tests/fuzz/README.md \
	tests/fuzz/corpus \
	tests/fuzz/make-corpus \
	tests/fuzz/run-fuzz \
	tests/fuzz/run-short
