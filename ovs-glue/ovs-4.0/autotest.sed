# SPDX-License-Identifier: GPL-2.0
#
# What Open vSwitch 4.0 prints differently from the 3.1 that ovs-glue/autotest
# is written for: check-series turns ovs-glue/autotest's cases into the ones
# the series adds with these edits, and only these.
# Nothing here is about STT: each is a change of Open vSwitch's own output.

# The Interface status of a dummy-datapath port lists its TX offloads in 4.0
# (3.1: {}), so the options case checks the options and the error only.
/^AT_CHECK(\[ovs-vsctl get Interface p1 options status error\], \[0\], \[dnl$/{
	s/options status error/options error/
	n
	n
	/^{}$/d
}

# ofproto/trace's megaflow shows only the tunnel flags that are matched in
# 4.0 (3.1: -df-csum+key).
/^Megaflow: /s/,tun_flags=-df-csum+key,/,tun_flags=+key,/

# ovs-vsctl exits 65 in 4.0 when ovs-vswitchd reports an error for the
# interface it added (3.1: 0); the message is the same.
/^AT_SETUP(\[tunnel - STT bad options\])$/,/^AT_CLEANUP$/s/\], \[0\], \[\], \[stderr\])$/], [65], [], [stderr])/

# dpctl/dump-flows shows only the tunnel flags a kernel flow matches on in
# 4.0 (3.1: -df+csum+key).
/^recirc_id(0),tunnel(/s/,flags(-df+csum+key))$/,flags(+key))/
