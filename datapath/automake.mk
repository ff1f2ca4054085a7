# datapath/automake.mk -- the kernel modules, built by Kbuild.
#
# The kernel sources are flat files: datapath/*.[ch], datapath/Kbuild and
# the portable core lib/*.[ch], all compiled into one Kbuild directory,
# beside the header tree include/ (Kbuild adds it to the include path).  So
# that the source tree stays clean (and read-only source trees work), the
# modules are built in a "farm" in the build tree,
#
#     $(top_builddir)/datapath/linux/
#
# holding a symlink to each of those files and to include/; stt.ko and
# vport-stt.ko end up there.  The farm is refreshed at every "make" from shell globs, so files
# added to (or removed from) datapath/ or lib/ need no re-run of configure.
#
# Variables given to Kbuild (see datapath/Kbuild):
#   STT_LIB_OBJS        the lib/*.c of the source tree as object names
#                       ("stt_hdr.o stt_reasm.o ..."), for stt-y
#   STT_MODULE_VERSION  build-aux/stt-version's, e.g. 0.1+20261205.143012.gc5efc10
#   W                   Kbuild's extra-warning level, 1 unless "make W=..."
# and STT_VMLINUX or STT_OVS_KO if given to this make (where vport-stt.ko's
# layout check finds the kernel's BTF).
#
# STT_KBUILD_IN, if given, is a command that Kbuild's make runs under, with
# LINUX_BUILD then the build directory as that command sees it: tests/
# build-all builds each lane's modules (tests/roots/) with
#   make modules LINUX_BUILD=/usr/src/linux-headers-REL \
#        STT_KBUILD_IN="tests/roots/in-root ROOT SRC BUILD --"
# so that the root's make and gcc build them there.
# Other Kbuild variables given to this make on its command line (C=1 or C=2
# for sparse, V=1, KCFLAGS=...) reach Kbuild unchanged through MAKEFLAGS.
#
# Targets: all (builds the modules too), modules, modules_install
# (INSTALL_MOD_PATH=... INSTALL_MOD_DIR=..., default "extra"), clean.

STT_FARM = datapath/linux
W = 1
INSTALL_MOD_DIR = extra

# $(MAKE) must appear literally in the recipes (not hidden in a variable)
# for GNU make to hand its jobserver down to Kbuild.
STT_KBUILD_ARGS = -C $(LINUX_BUILD) M=$(abs_top_builddir)/$(STT_FARM) \
	W=$(W) STT_MODULE_VERSION="`$(srcdir)/build-aux/stt-version $(srcdir)`" \
	STT_LIB_OBJS="`cd $(srcdir)/lib && for f in *.c; do \
		test -f "$$f" && echo "$$f"; done | sed 's/\.c$$/.o/' | tr '\n' ' '`"

.PHONY: modules modules_install modules-farm modules-clean

if LINUX_ENABLED
all-local: modules
clean-local: modules-clean

# Symlink every datapath/*.[ch], datapath/Kbuild and lib/*.[ch] into the
# farm (absolute targets), replace links that point elsewhere, and drop
# links whose target is gone.  A basename in both datapath/ and lib/ would
# silently shadow the other in the flat farm, so it is an error.
modules-farm:
	@if test ! -f $(srcdir)/datapath/Kbuild; then \
	  echo "error: $(srcdir)/datapath/Kbuild not found: cannot build the kernel modules" \
	       "(configure --without-linux to build the userspace parts only)" >&2; \
	  exit 1; \
	fi
	$(AM_V_GEN)$(MKDIR_P) $(STT_FARM) && \
	src=`cd $(srcdir) && pwd` && \
	seen=' ' && \
	for f in "$$src"/datapath/*.[ch] "$$src"/datapath/Kbuild "$$src"/lib/*.[ch]; do \
	  test -f "$$f" || continue; \
	  b=`basename "$$f"`; \
	  case "$$seen" in \
	    *" $$b "*) echo "error: $$b exists in both datapath/ and lib/;" \
	                    "the kernel farm $(STT_FARM)/ is flat, rename one" >&2; \
	               exit 1;; \
	  esac; \
	  seen="$$seen$$b "; \
	  l=$(STT_FARM)/$$b; \
	  if test ! -h "$$l" || test "`readlink "$$l"`" != "$$f"; then \
	    rm -f "$$l" && ln -s "$$f" "$$l" || exit 1; \
	  fi; \
	done && \
	if test ! -h $(STT_FARM)/include || \
	   test "`readlink $(STT_FARM)/include`" != "$$src/include"; then \
	  rm -f $(STT_FARM)/include && ln -s "$$src/include" $(STT_FARM)/include || exit 1; \
	fi && \
	for l in $(STT_FARM)/* $(STT_FARM)/Kbuild; do \
	  if test -h "$$l" && test ! -e "$$l"; then rm -f "$$l"; fi; \
	done

modules: modules-farm
	$(AM_V_at)$(STT_KBUILD_IN) $(MAKE) $(STT_KBUILD_ARGS) modules

modules_install: modules
	$(AM_V_at)$(STT_KBUILD_IN) $(MAKE) $(STT_KBUILD_ARGS) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install

modules-clean:
	rm -rf $(STT_FARM)
else
modules modules_install:
	@echo "error: the kernel modules are disabled; re-run configure with --with-linux=DIR" >&2; \
	exit 1
modules-clean:
endif

# datapath/ sources and include/ headers are picked up by glob, so ship
# them by glob too.
dist-hook: datapath-dist
datapath-dist:
	$(MKDIR_P) $(distdir)/datapath
	for f in $(srcdir)/datapath/*.[ch] $(srcdir)/datapath/Kbuild; do \
	  if test -f "$$f"; then cp -p "$$f" $(distdir)/datapath/ || exit 1; fi; \
	done
	for f in $(srcdir)/include/*/*.h $(srcdir)/include/*/*/*.h; do \
	  if test -f "$$f"; then \
	    d=$(distdir)/`dirname "$${f#$(srcdir)/}"` && \
	    $(MKDIR_P) "$$d" && cp -p "$$f" "$$d"/ || exit 1; \
	  fi; \
	done
.PHONY: datapath-dist
