# utilities/automake.mk -- user tools (stt-ctl) and their man pages.
#
# To come, e.g.:
#   sbin_PROGRAMS += utilities/stt-ctl
#   utilities_stt_ctl_SOURCES = utilities/stt-ctl.c
#   utilities_stt_ctl_CFLAGS = $(AM_CFLAGS) $(LIBNL_CFLAGS)
#   utilities_stt_ctl_LDADD = lib/libstt.a $(LIBNL_LIBS)
#   man_MANS += utilities/stt-ctl.8
#   EXTRA_DIST += utilities/stt-ctl.8
# LIBNL_CFLAGS/LIBNL_LIBS cover libnl-3.0 + libnl-route-3.0; LIBNL_GENL_CFLAGS/
# LIBNL_GENL_LIBS cover libnl-genl-3.0 (AM_CONDITIONAL HAVE_LIBNL_GENL).
