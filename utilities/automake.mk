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
	utilities/stt-link.c \
	utilities/stt-link.h \
	include/uapi/linux/stt.h
nodist_utilities_stt_ctl_SOURCES = stt-version.h
utilities_stt_ctl_CFLAGS = $(AM_CFLAGS) $(LIBNL_CFLAGS)
utilities_stt_ctl_LDADD = $(LIBNL_LIBS)
man_MANS += utilities/stt-ctl.8
EXTRA_DIST += utilities/stt-ctl.8

# link_stt.so: "ip link ... type stt" (configure: BUILD_IPROUTE2_PLUGIN),
# installed where ip looks for it.  A program built -shared, as the plugin
# is a dlopen()ed module, not a library anything links against; it calls
# ip's own functions, left undefined until ip loads it.
iproute2libdir = $(IPROUTE2_LIBDIR)
if BUILD_IPROUTE2_PLUGIN
iproute2lib_PROGRAMS = utilities/link_stt.so
endif
utilities_link_stt_so_SOURCES = \
	utilities/iproute2-abi.h \
	utilities/iproute2-version.c \
	utilities/iproute2-version.h \
	utilities/link_stt.c \
	utilities/stt-link.c \
	utilities/stt-link.h \
	include/uapi/linux/stt.h
nodist_utilities_link_stt_so_SOURCES = stt-version.h
utilities_link_stt_so_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
utilities_link_stt_so_LDFLAGS = -shared

# Installed under the command's name, which the program's file already has.
bashcompletiondir = $(datadir)/bash-completion/completions
EXTRA_DIST += utilities/stt-ctl.bash-completion
install-data-local: install-stt-ctl-completion
uninstall-local: uninstall-stt-ctl-completion
install-stt-ctl-completion:
	$(MKDIR_P) $(DESTDIR)$(bashcompletiondir)
	$(INSTALL_DATA) $(srcdir)/utilities/stt-ctl.bash-completion \
		$(DESTDIR)$(bashcompletiondir)/stt-ctl
uninstall-stt-ctl-completion:
	rm -f $(DESTDIR)$(bashcompletiondir)/stt-ctl
.PHONY: install-stt-ctl-completion uninstall-stt-ctl-completion

# Bringing up plain stt devices at boot: an ifupdown stanza, and a
# configuration file for stt@.service (docs/plain-devices.rst, "At boot").
examplesdir = $(docdir)/examples
dist_examples_DATA = \
	utilities/examples/interfaces \
	utilities/examples/stt1.conf

# systemd: stt@NAME.service makes device NAME from /etc/stt/NAME.conf, and
# stt-generator starts it for every such file; networkd and NetworkManager
# leave Open vSwitch's stt_sys_* devices alone.  Installed under
# --with-systemdir (default $(prefix)/lib/systemd; /lib/systemd on
# Debian 12) and $(prefix)/lib/NetworkManager/conf.d.
systemdsystemunitdir = $(systemdir)/system
systemdsystemunit_DATA = utilities/boot/stt@.service
systemdgeneratordir = $(systemdir)/system-generators
systemdgenerator_SCRIPTS = utilities/boot/stt-generator
systemdnetworkdir = $(systemdir)/network
dist_systemdnetwork_DATA = utilities/boot/10-stt-sys-unmanaged.network
nmconfdir = $(prefix)/lib/NetworkManager/conf.d
dist_nmconf_DATA = utilities/boot/stt-sys-unmanaged.conf
EXTRA_DIST += \
	utilities/boot/stt@.service.in \
	utilities/boot/stt-generator.in
CLEANFILES += $(systemdsystemunit_DATA) $(systemdgenerator_SCRIPTS)
boot_subst = $(MKDIR_P) utilities/boot && \
	sed -e 's|@bindir[@]|$(bindir)|g' \
	    -e 's|@systemdsystemunitdir[@]|$(systemdsystemunitdir)|g' \
	    $(srcdir)/$@.in > $@.tmp
utilities/boot/stt@.service: utilities/boot/stt@.service.in Makefile
	$(AM_V_GEN)$(boot_subst) && mv $@.tmp $@
utilities/boot/stt-generator: utilities/boot/stt-generator.in Makefile
	$(AM_V_GEN)$(boot_subst) && chmod +x $@.tmp && mv $@.tmp $@

# stt-version.h: the full version (build-aux/stt-version), rewritten only
# when it changes, so a new commit rebuilds what prints it and nothing else.
BUILT_SOURCES += stt-version.h
CLEANFILES += stt-version.h
stt-version.h: stt-version-force
	@v=`$(srcdir)/build-aux/stt-version $(srcdir)` && \
	echo "#define STT_FULL_VERSION \"$$v\"" > $@.tmp && \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
stt-version-force:
.PHONY: stt-version-force
