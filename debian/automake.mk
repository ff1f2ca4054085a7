# debian/automake.mk -- Debian packages.
#
# make deb: builds stt-dkms, stt-utils and stt-iproute2 with
# dpkg-buildpackage from this tree's dist tarball, once "make distcheck" has
# built and tested it, into $(builddir)/deb/ (the .deb files and the build
# log).  The package version is build-aux/stt-version's; debian/changelog
# is written for it, so that a package always names the commit it was
# built from.  DEB_AFTER is what the tarball passes first: the test suite
# builds with DEB_AFTER=dist (tests/packaging/check install), because its
# host checks run distcheck themselves, beside the guests rather than
# before them (tests/run-tests).

EXTRA_DIST += \
	debian/control \
	debian/copyright \
	debian/README.Debian \
	debian/rules \
	debian/source/format \
	debian/stt-dkms.dkms.in \
	debian/stt-dkms.mk \
	debian/stt-dkms.docs \
	debian/stt-dkms.install \
	debian/stt-dkms.postinst \
	debian/stt-dkms.prerm \
	debian/stt-iproute2.docs \
	debian/stt-iproute2.install \
	debian/stt-utils.docs \
	debian/stt-utils.install

DEB_DIR = deb
DEB_AFTER = distcheck
deb: $(DEB_AFTER)
	rm -rf $(DEB_DIR) && $(MKDIR_P) $(DEB_DIR)
	tar -C $(DEB_DIR) -xzf $(distdir).tar.gz
	v=`cat $(DEB_DIR)/$(distdir)/.tarball-version` && \
	rev=`echo "$$v" | sed -n 's/.*\.g\([0-9a-f]*\).*/\1/p'` && \
	{ echo "stt ($$v) unstable; urgency=medium"; \
	  echo; \
	  echo "  * Built by make deb from git commit $${rev:-(unknown)}."; \
	  echo; \
	  echo " -- `sed -n 's/^Maintainer: //p' $(srcdir)/debian/control`  `date -R`"; \
	} > $(DEB_DIR)/$(distdir)/debian/changelog
	cd $(DEB_DIR)/$(distdir) && \
	dpkg-buildpackage -b -us -uc > ../build.log 2>&1 || \
	{ tail -n 40 ../build.log >&2; exit 1; }
	rm -rf $(DEB_DIR)/$(distdir)
	@ls $(DEB_DIR)/*.deb
.PHONY: deb
