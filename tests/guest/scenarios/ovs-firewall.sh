#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# STT through a stateful host firewall with conntrack loaded, the policy an
# operator writes for a tunnel endpoint: input dropped unless loopback,
# established/related or TCP to the STT port; invalid state dropped.
#
# STT segments are taken by a netfilter hook in PRE_ROUTING before conntrack
# (NF_IP_PRI_CONNTRACK - 1), so conntrack and the INPUT chain never see them:
# ping and 16 MiB transfers must work both ways, the accept rule for the STT
# port must count nothing, and no conntrack entry may come from a received
# segment.  Sent segments leave through OUTPUT like any local packet and are
# tracked there (docs/operations.rst), never as invalid; the raw-table notrack rule that
# docs/operations.rst gives keeps them out of conntrack too.  That conntrack does run in
# the hosts is shown by an underlay ping, which it tracks and the policy
# drops.  Last, an output rule drops STT: those frames are counted as refused
# by IP output, not as sent.
#
#	ovs-firewall.sh [ipv4|ipv6]		(the underlay's family)
#
#   vm1 --- br0 [host1] tun0 --- u0 ===== u0 --- tun0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2              10.0.0.2
#                        2001:db8::1   2001:db8::2  (ipv6)
#
# Test: ovs_firewall
#   On the Debian 14 lane too, where the port is Open vSwitch 4.0's stt
#   device.
#   timeout: 600
#   kernels: oldest distro: ovs_firewall_ipv6 runs it over IPv6 on 6.12;
#     the STT hooks' receive path runs under the debug kernel's checks in
#     hostile and nic-underlay
#   lanes: 7.2-deb14-ovs40
#   underlay: either
#
# Test: ovs_firewall_ipv6 ipv6
#   The same over an IPv6 underlay: the IPv6 hook before conntrack.
#   timeout: 600
#   kernels: newest distro: ovs_firewall runs it over IPv4 on 6.1
#   underlay: either

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

underlay_family "${1:-}" && shift
[ $# = 0 ] || fail "usage: ovs-firewall.sh [ipv4|ipv6]"
# conntrack's name for the underlay's ICMP and its echo request type.
case $UL_FAMILY in
ipv4) UL_ICMP=icmp UL_ECHO=8 ;;
ipv6) UL_ICMP=icmpv6 UL_ECHO=128 ;;
esac
# Where the device's standard stats put a frame IP output refused: the
# kernel's iptunnel_xmit() counts it in tx_dropped, ip6tunnel_xmit() in
# tx_errors (as for every IPv6 tunnel, vxlan's and geneve's included).
case $UL_FAMILY in
ipv4) REFUSED_STAT=tx_dropped REFUSED_NAME="TX dropped" ;;
ipv6) REFUSED_STAT=tx_errors REFUSED_NAME="TX errors" ;;
esac

for tool in nft conntrack; do
	command -v $tool > /dev/null ||
		fail "$tool is not installed (Debian packages nftables, conntrack)"
done

stt_two_hosts

run modprobe nf_conntrack
for host in host1 host2; do
	log "+ [$host] nft -f firewall.nft"
	in_ns $host nft -f - <<-EOF
	table inet filter {
		chain input {
			type filter hook input priority filter; policy drop;
			iif lo accept
			ct state established,related accept
			ct state invalid drop
			# Neighbour discovery is never tracked (IPv6 underlay).
			icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert } accept
			tcp dport $STT_PORT counter accept
		}
		# Not policy, a witness: how many sent STT segments conntrack
		# judged invalid (an output "ct state invalid drop" would lose them).
		chain output {
			type filter hook output priority filter; policy accept;
			tcp dport $STT_PORT ct state invalid counter
		}
	}
	EOF
done
run ip netns exec host1 nft list ruleset

ping_sizes vm1 10.0.0.2 1 8972
ping_sizes vm2 10.0.0.1 1 8972
send_file_and_hash vm1 vm2 10.0.0.2 "$(transfer_mib 16)"
send_file_and_hash vm2 vm1 10.0.0.1 "$(transfer_mib 16)"

# Conntrack is live in both hosts: it tracks a ping across the underlay, which
# the far host's policy drops.
log "+ [host1] ping -c 1 $UL_B; [host2] ping -c 1 $UL_A  (both dropped)"
! in_ns host1 "${PING[@]}" -c 1 -W 1 "$UL_B" > /dev/null 2>&1 ||
	fail "[host2] the firewall let an echo request from host1 in"
! in_ns host2 "${PING[@]}" -c 1 -W 1 "$UL_A" > /dev/null 2>&1 ||
	fail "[host1] the firewall let an echo request from host2 in"

# Every check on both hosts before the verdict: which host and which check
# fails tells where STT met conntrack (receive or transmit side).
problems=()
for host in host1 host2; do
	# An entry whose original source is this host's own address was made by
	# its transmit path (LOCAL_OUT), any other by its receive path.
	case $host in
	host1) self=$UL_A ;;
	host2) self=$UL_B ;;
	esac
	log "+ [$host] conntrack -L -f $UL_FAMILY"
	in_ns $host conntrack -L -f $UL_FAMILY 2>&1 | tee "$WORK/conntrack-$host"
	grep -q "^$UL_ICMP .* src=$self dst=[0-9a-f.:]* type=$UL_ECHO " \
		"$WORK/conntrack-$host" ||
		problems+=("[$host] conntrack did not track the underlay ping: is it running?")
	stt=$(grep -Ec "(sport|dport)=$STT_PORT( |\$)" "$WORK/conntrack-$host") || true
	sent=$(grep -Ec "^tcp .* src=$self dst=[0-9a-f.:]+ sport=[0-9]+ dport=$STT_PORT " \
		"$WORK/conntrack-$host") || true
	[ "$stt" -eq "$sent" ] ||
		problems+=("[$host] conntrack has $((stt - sent)) entries for STT segments $host received")
	[ "$sent" -gt 0 ] ||
		problems+=("[$host] conntrack tracked none of the STT segments $host sent")

	log "+ [$host] nft list chain inet filter input"
	rule=$(in_ns $host nft list chain inet filter input | grep "tcp dport $STT_PORT")
	echo "$rule"
	echo "$rule" | contains 'counter packets 0 bytes 0 accept' ||
		problems+=("[$host] STT segments reached the INPUT chain: $rule")

	invalid=$(in_ns $host nft list chain inet filter output |
		sed -n 's/.*ct state invalid counter packets \([0-9]*\).*/\1/p')
	log "[$host] sent STT segments conntrack judged invalid: $invalid"
	[ "$invalid" = 0 ] ||
		problems+=("[$host] conntrack judged $invalid sent STT segments invalid")

	stt_check_no_errors $host
done
stt_check_frames_balanced host1 host2
[ ${#problems[@]} -eq 0 ] || fail "$(printf '\n  %s' "${problems[@]}")"

# docs/operations.rst's way to keep transmitted STT out of conntrack: notrack at raw.
for host in host1 host2; do
	log "+ [$host] nft: raw output tcp dport $STT_PORT notrack; conntrack -F -f $UL_FAMILY"
	in_ns $host nft -f - <<-EOF
	table inet raw {
		chain output {
			type filter hook output priority raw; policy accept;
			tcp dport $STT_PORT notrack
		}
	}
	EOF
	in_ns $host conntrack -F -f $UL_FAMILY 2> /dev/null
done
send_file_and_hash vm1 vm2 10.0.0.2 "$(transfer_mib 4)"
for host in host1 host2; do
	left=$(in_ns $host conntrack -L -f $UL_FAMILY 2> /dev/null |
		grep -Ec "(sport|dport)=$STT_PORT( |\$)") || true
	[ "$left" -eq 0 ] ||
		fail "[$host] $left conntrack entries for STT despite notrack"
done
log "notrack at raw output: no conntrack entry for STT on either host"

# An output policy that drops STT: the frames IP output refused are counted
# as such (tx_drop_ip_output, and TX dropped in ip -s link, TX errors over
# IPv6), not as sent.
log "+ [host1] nft add rule inet filter output tcp dport $STT_PORT counter drop"
in_ns host1 nft add rule inet filter output tcp dport $STT_PORT counter drop
tx_refused() {
	in_ns host1 cat /sys/class/net/$STT_DEV/statistics/$REFUSED_STAT
}
# vm1's stack may send frames of its own meanwhile, refused as well: each
# moves the device's stat (in the kernel's tunnel send) before stt's counter,
# so the stat is read first before and last after, and never trails.
sent=$(stt_counter host1 tx_frames)
dropped=$(tx_refused)
refused=$(stt_counter host1 tx_drop_ip_output)
no_ping vm1 10.0.0.2
sent_after=$(stt_counter host1 tx_frames)
refused_after=$(stt_counter host1 tx_drop_ip_output)
dropped_after=$(tx_refused)
log "[host1] tx_frames $sent -> $sent_after, tx_drop_ip_output $refused ->" \
	"$refused_after, $REFUSED_NAME $dropped -> $dropped_after"
[ "$sent_after" -eq "$sent" ] ||
	fail "[host1] frames the output policy dropped were counted in tx_frames"
[ "$refused_after" -ge $((refused + 3)) ] ||
	fail "[host1] tx_drop_ip_output did not count the 3 echo requests dropped"
[ $((dropped_after - dropped)) -ge $((refused_after - refused)) ] ||
	fail "[host1] $REFUSED_NAME moved less than tx_drop_ip_output"
