# tests/utilities/automake.mk -- tests of the user tools that need neither
# root nor the kernel module ("make check").
#
# test-stt-ctl-args.sh: stt-ctl's command line (usage errors, their exact
# messages and exit status 2, nothing sent; --help, --version; boundary
# values).  Runs utilities/stt-ctl of the build tree.
TESTS += tests/utilities/test-stt-ctl-args.sh
EXTRA_DIST += tests/utilities/test-stt-ctl-args.sh

# test-iproute2-plugin.sh: "ip -V" is the iproute2 version link_stt.so was
# built for, and ip loads it and reaches its help and parser (skipped when
# configure did not build it).
TESTS += tests/utilities/test-iproute2-plugin.sh
EXTRA_DIST += tests/utilities/test-iproute2-plugin.sh

# test-boot-examples.sh: stt@.service passes systemd-analyze verify,
# stt-generator wants it for each /etc/stt/NAME.conf, and stt-ctl takes the
# words of the examples.
TESTS += tests/utilities/test-boot-examples.sh
EXTRA_DIST += tests/utilities/test-boot-examples.sh

# test-man-pages.sh: stt(4) and stt-ctl(8) format cleanly; stt(4) has every
# counter and module parameter; stt-man refuses a template that drifted.
TESTS += tests/utilities/test-man-pages.sh
EXTRA_DIST += tests/utilities/test-man-pages.sh
