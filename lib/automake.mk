# PLACEHOLDER written by the build engineer so that the build works before
# the real fragment exists; the lib/ owner replaces this file.
noinst_LIBRARIES += lib/libstt.a
lib_libstt_a_SOURCES = \
	lib/stt_err.c \
	lib/stt_hdr.c \
	lib/stt_reasm.c
