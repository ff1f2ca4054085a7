# SPDX-License-Identifier: GPL-2.0
# tests/packaging/automake.mk -- the part of tests/packaging/check that
# "make check" runs.  The rest (abi over every kernel and against the debug
# kernel's source, install, purge: packages installed as root) runs from
# tests/run-tests.
#
# test-abi-types.sh: vport-stt.o, built against this tree's kernel, stops
# at the type checks of ovs-abi.h when two member types differ in
# openvswitch.ko's BTF and five prototypes and types in ovs-abi.h, each
# error naming what differs (one Kbuild run, about 30 s; skipped without a
# kernel whose openvswitch.ko has BTF).
TESTS += tests/packaging/test-abi-types.sh
EXTRA_DIST += tests/packaging/test-abi-types.sh

# test-vport-legacy.sh: on a kernel whose openvswitch.ko has no legacy vport
# types (Module.symvers doctored), stt.ko alone is built and Kbuild says
# why (one Kbuild run of the modules).
TESTS += tests/packaging/test-vport-legacy.sh
EXTRA_DIST += tests/packaging/test-vport-legacy.sh

# test-maintainer-notices.sh: stt-dkms's prerm and postinst say when loaded
# modules outlive the package or differ from it (root and unshare -m, for
# a made-up /sys/module; skipped otherwise).
TESTS += tests/packaging/test-maintainer-notices.sh
EXTRA_DIST += tests/packaging/test-maintainer-notices.sh
