# SPDX-License-Identifier: GPL-2.0
#
# dkms.mk: how DKMS builds stt for one kernel (dkms.conf's MAKE runs
# "make -f dkms.mk KDIR=... STT_VPORT=y|n ..." in the DKMS build directory,
# adding -jN and KERNELRELEASE).  stt.ko first, alone, so that nothing
# about Open vSwitch can stop it.  Then, where the kernel has Open vSwitch
# with legacy vport types (STT_VPORT=y, dkms.conf's reading of the kernel's
# .config and Module.symvers), vport-stt.ko,
# checked against that kernel's openvswitch.ko (datapath/Kbuild).  If that
# fails (an openvswitch.ko without BTF or of another layout, headers
# installed without the kernel image), a standin vport-stt.ko is built in
# its place, which refuses to load and says why (vport-standin.c): DKMS
# then installs both, and the kernel package that ran DKMS configures.
# Every step's output goes to DKMS's make.log, with a line naming the
# kernel and the reason.
#
#   KDIR                 the kernel's build directory
#   STT_MODULE_VERSION   the version the modules report
#   STT_LIB_OBJS         lib/ objects linked into stt.ko
#   STT_VPORT            y: build vport-stt.ko; n: stt.ko only

KBUILD = $(MAKE) -C $(KDIR) M=$(CURDIR) \
	STT_MODULE_VERSION='$(STT_MODULE_VERSION)' \
	STT_LIB_OBJS='$(STT_LIB_OBJS)'

# The first error of a failed vport-stt.ko build, as a C string's contents:
# the compiler's message, ovs-btf-layout's, or the input make found missing
# (the kernel image, openvswitch.ko).
FIRST_ERROR = grep -m 1 -E 'error:|ovs-btf-layout:|\*\*\* No rule' $(1) | \
	sed -e 's/^.*error: //' \
	    -e "s/^make.*No rule to make target .\([^']*\)., needed by.*/\1 is missing/" \
	    -e 's/\\/\\\\/g' -e 's/"/\\"/g'

# "+": the Kbuild makes share this make's job slots (-jN from DKMS).
modules:
	+$(KBUILD) STT_VPORT=n modules
ifeq ($(STT_VPORT),y)
	+@if $(KBUILD) modules > vport-stt.log 2>&1; then \
		cat vport-stt.log; \
	else \
		cat vport-stt.log; \
		reason=$$($(call FIRST_ERROR,vport-stt.log)); \
		echo "stt: vport-stt.ko cannot be built for kernel $(KERNELRELEASE): $${reason:-see above}; building a standin that refuses to load, saying so (stt.ko is built)"; \
		echo "#define STT_VPORT_STANDIN_REASON \"$${reason:-its build failed (see DKMS make.log)}\"" \
			> vport-standin-reason.h; \
		$(KBUILD) STT_VPORT=standin modules; \
	fi
else
	@echo "stt: vport-stt.ko is not built for kernel $(KERNELRELEASE): it has no Open vSwitch (CONFIG_OPENVSWITCH) or none with legacy vport types"
endif

.PHONY: modules
