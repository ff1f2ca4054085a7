# tests/utilities/automake.mk -- tests of the user tools that need neither
# root nor the kernel module ("make check").
#
# test-stt-ctl-args.sh: stt-ctl's command line (usage errors, their exact
# messages and exit status 2, nothing sent; --help, --version; boundary
# values).  Runs utilities/stt-ctl of the build tree.
TESTS += tests/utilities/test-stt-ctl-args.sh
EXTRA_DIST += tests/utilities/test-stt-ctl-args.sh
