# utilities/automake.mk -- user tools and their man pages.
#
# stt-ctl: create, change, delete and show stt devices over rtnetlink
# (libnl-3, libnl-route-3), their counters over the ethtool ioctl.
bin_PROGRAMS += utilities/stt-ctl
utilities_stt_ctl_SOURCES = \
	utilities/stt-ctl.c \
	utilities/stt-ctl-ethtool.c \
	utilities/stt-ctl-ethtool.h \
	utilities/stt-ctl-json.c \
	utilities/stt-ctl-json.h \
	utilities/stt-ctl-nl.c \
	utilities/stt-ctl-nl.h \
	lib/stt_netlink.h
utilities_stt_ctl_CFLAGS = $(AM_CFLAGS) $(LIBNL_CFLAGS)
utilities_stt_ctl_LDADD = $(LIBNL_LIBS)
man_MANS += utilities/stt-ctl.8
EXTRA_DIST += utilities/stt-ctl.8
