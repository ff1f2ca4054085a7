# lib/: the portable STT protocol core.  The same sources are also linked
# into stt.ko by datapath/automake.mk, so keep them free of anything but
# fixed-width integers (see lib/stt_types.h).
noinst_LIBRARIES += lib/libstt.a
lib_libstt_a_SOURCES = \
	lib/stt_err.c \
	lib/stt_err.h \
	lib/stt_hdr.c \
	lib/stt_hdr.h \
	lib/stt_reasm.c \
	lib/stt_reasm.h \
	lib/stt_types.h \
	lib/stt_wire.h
