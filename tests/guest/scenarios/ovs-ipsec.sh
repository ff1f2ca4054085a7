#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# STT between two Open vSwitch hosts protected by IPsec the way Open vSwitch
# operators set it up: openvswitch-ipsec's ovs-monitor-ipsec turns
# `options:psk=...` on a type=stt interface into strongSwan connections
# (ESP in transport mode for tcp/7471 to and from the peer) and, with
# other_config:ipsec_skb_mark, into drop shunts for plaintext tunnel
# traffic ("prevent_unencrypted_stt"); strongSwan's charon negotiates the
# SAs with IKEv2 and installs them and their policies in the kernel.
#
# What the operator checks: the IKE SA and both CHILD_SAs are up (ipsec
# status, ovs-appctl -t ovs-monitor-ipsec tunnels/show); a ping and 2 MiB
# cross the tunnel, SHA-256 compared; the underlay carries IKE and ESP and
# not one plaintext TCP segment.  Then c, a third namespace on another
# link of host2's with a plain stt device and no SA, sends plaintext STT
# to host2: host2's inbound policy refuses it in the STT receive path
# (rx_err_xfrm_policy counts every frame, rx_frames does not move, its
# datapath looks up no packet and has no flow from c's address).  Which policy refused it is
# read from the kernel: the IN policy of the drop shunt (action block, mark
# 0/0x1; charon's IN policy for the conn selects host1's address only) is
# the one whose use time is set (and XfrmInPolBlock counts the frames where
# the kernel keeps xfrm statistics).  Without ipsec_skb_mark there is no
# shunt and c's frames are accepted, as TCP and VXLAN's UDP would be.
#
#   vm1 --- br0 [host1] stt0 --- u0 ==ESP== u0 --- stt0 [host2] br0 --- vm2
#   10.0.0.1              192.0.2.1     192.0.2.2   u1         10.0.0.2
#                                                   192.0.3.2
#                                                    ||
#                                  c: s0 10.0.0.3   u1 192.0.3.3
#
# Each host's IKE daemon is its own: ovs-monitor-ipsec, and the starter and
# charon that it (re)starts with `ipsec restart`, run in a mount namespace
# of the host's where /etc/ipsec.conf, /etc/ipsec.secrets, /etc/strongswan.d
# and /run are the host's own (the guest's /etc is the read-only host root;
# charon keeps its pid files and sockets directly in /run).
#
# Test: ovs_ipsec
#   timeout: 400
#   kernels: newest distro: IKE is userspace; underlay-policy checks ESP in
#     transport mode and the inbound policy's drop on every kernel series
#   underlay: ipv4 only: its third link, the xfrm states and policies it
#     reads and the plaintext it counts are IPv4 throughout; the receive
#     path's policy check is the same call for either family

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

MIB=2
MONITOR=/usr/share/openvswitch/scripts/ovs-monitor-ipsec

# ipsec_root HOST: where HOST's IKE daemon has its /etc/ipsec.conf,
# /etc/ipsec.secrets, /etc/strongswan.d and /run.
ipsec_root() {
	echo "$(ovs_dir "$1")/ipsec"
}

# start_ovs_ipsec HOST...: what `ovs-ctl --ike-daemon=strongswan
# start-ovs-ipsec` does on a host, for each HOST in a mount namespace of its
# own; the hosts start at the same time (`ipsec restart` waits 2 s).
# charon logs to charon.log beside the Open vSwitch logs (kept in
# $STT_RESULTS/ovs-HOST): the guest has no syslog.
start_ovs_ipsec() {
	local host
	for host; do
		on_exit stop_ovs_ipsec "$host"
	done
	on_each_host_at_once start_monitor "ovs-monitor-ipsec did not start" "$@"
}

start_monitor() {
	local host=$1 dir root
	dir=$(ovs_dir "$host")
	root=$(ipsec_root "$host")
	mkdir -p "$root/run"
	cp -a /etc/strongswan.d "$root/strongswan.d"
	cp /etc/ipsec.conf /etc/ipsec.secrets "$root/"
	cat > "$root/strongswan.d/stt-rig-log.conf" <<-EOF
	charon {
		filelog {
			rig {
				path = $dir/charon.log
				time_format = %T
				ike_name = yes
				flush_line = yes
				default = 1
			}
		}
	}
	EOF
	# (ip netns exec gives its command a mount namespace already; unshare
	# says here that the bind mounts rely on one.)
	host_ovs "$host" unshare --mount sh -c '
		mount --bind "$1/ipsec.conf" /etc/ipsec.conf &&
		mount --bind "$1/ipsec.secrets" /etc/ipsec.secrets &&
		mount --bind "$1/strongswan.d" /etc/strongswan.d &&
		mount --bind "$1/run" /run &&
		shift && exec "$@"' sh "$root" \
		"$MONITOR" --ike-daemon=strongswan --pidfile --log-file \
		--detach "unix:$dir/db.sock"
}

# stop_ovs_ipsec HOST: stop ovs-monitor-ipsec (which takes its connections
# down) and then strongSwan.
stop_ovs_ipsec() {
	local host=$1 charon
	charon=$(cat "$(ipsec_root "$host")/run/charon.pid" 2>/dev/null) || true
	host_ovs_q "$host" ovs-appctl -t ovs-monitor-ipsec exit 2>/dev/null || true
	host_ipsec "$host" ipsec stop 2>/dev/null || true
	[ -z "$charon" ] || wait_for process_gone "$charon" ||
		log "[$host] charon (pid $charon) did not stop"
}

# host_ipsec HOST COMMAND...: COMMAND in HOST's network namespace and the
# mount namespace its IKE daemon runs in (that of strongSwan's starter), as
# the operator of HOST would run it, e.g. host_ipsec host1 ipsec status.
host_ipsec() {
	local host=$1 pid
	shift
	pid=$(cat "$(ipsec_root "$host")/run/starter.charon.pid") || return
	nsenter --target "$pid" --net --mount "$@"
}

# child_sas_up HOST: `ipsec status` shows an established IKE SA and an
# installed transport-mode CHILD_SA for each of stt0's connections, the one
# into the host's tcp/7471 and the one out to the peer's.
child_sas_up() {
	local status
	status=$(host_ipsec "$1" ipsec status) || return
	echo "$status" | contains -E '^ *[^ ]+\[[0-9]+\]: ESTABLISHED ' &&
		echo "$status" | contains -E '^ *stt0-in-[0-9]+\{[0-9]+\}: +INSTALLED, TRANSPORT' &&
		echo "$status" | contains -E '^ *stt0-out-[0-9]+\{[0-9]+\}: +INSTALLED, TRANSPORT'
}

# xfrm_in_policies NS: NS's IPv4 inbound policies, one a line: selector,
# action, mark and last use ("-": never), for telling which refused what.
xfrm_in_policies() {
	ip -n "$1" -s xfrm policy list dir in | awk '
		function flush() {
			if (sel != "" && sel !~ /:/)
				printf "%s | %s | mark %s | use %s\n", sel, action, mark, use
			sel = ""; action = ""; mark = "-"; use = "-"
		}
		/^src / { flush(); sel = $0; sub(/ *(uid [0-9]+)? *$/, "", sel); next }
		/^[ \t]*dir in / { for (i = 1; i < NF; i++) if ($i == "action") action = $(i + 1) }
		/ use / { for (i = 1; i < NF; i++) if ($i == "use") { use = $(i + 1); if ($(i + 2) != "") use = use " " $(i + 2) } }
		/^[ \t]*mark / { mark = $2 }
		END { flush() }'
}

# xfrm_stat NS NAME: one of the kernel's xfrm counters in NS
# (/proc/net/xfrm_stat, kernels with CONFIG_XFRM_STATISTICS).
xfrm_stat() {
	in_ns "$1" awk -v n="$2" '$1 == n { print $2; found = 1 }
		END { exit !found }' /proc/net/xfrm_stat 2>/dev/null
}

# flows_from HOST ADDR: HOST's datapath flows of tunnel packets from ADDR.
flows_from() {
	dp_flows "$1" | grep -cF "src=$2," || true
}

# dp_lookups HOST: packets HOST's kernel datapath has looked up, hit or
# missed (ovs-dpctl show).
dp_lookups() {
	host_ovs_q "$1" ovs-dpctl show |
		sed -n 's/^ *lookups: hit:\([0-9]*\) missed:\([0-9]*\) .*/\1 \2/p' |
		awk '{ print $1 + $2; found = 1 } END { exit !found }'
}

dp_lookups_at_least() {
	[ "$(dp_lookups "$1")" -ge "$2" ]
}

# decap_counted HOST SENT RX0 REFUSED0: every one of SENT frames is counted
# by HOST's stt device, decapsulated (rx_frames) or refused by policy.
decap_counted() {
	local refused
	refused=$(stt_counter "$1" rx_err_xfrm_policy 2>/dev/null) || refused=$4
	[ $(($(stt_counter "$1" rx_frames) - $3 + refused - $4)) -ge "$2" ]
}

# ---- two Open vSwitch hosts with IPsec ------------------------------------------

add_host host1 host2
add_underlay host1 192.0.2.1/24 host2 192.0.2.2/24
for host in host1 host2; do
	# The drop shunts: tunnel packets with skb mark 0 (all of them here)
	# travel encrypted or not at all.
	host_ovs "$host" ovs-vsctl set Open_vSwitch . \
		other_config:ipsec_skb_mark=0/1
	host_ovs "$host" ovs-vsctl add-br br0
done
start_ovs_ipsec host1 host2
# From before the first tunnel port to after the transfer: IKE, then ESP,
# and never a plaintext segment.
capture_start host2 u0 underlay
add_tunnel_port host1 stt0 stt remote_ip=192.0.2.2 psk=swordfish
add_tunnel_port host2 stt0 stt remote_ip=192.0.2.1 psk=swordfish
add_vm vm1 host1 10.0.0.1/24
add_vm vm2 host2 10.0.0.2/24
# The VMs' IPv6 would send router solicitations and reports at any time;
# host2's frame counts below must move only with c's frames.
for vm in vm1 vm2; do
	in_ns "$vm" sysctl -qw net.ipv6.conf.eth0.disable_ipv6=1
done
wait_for_ports

# The first echo request sets IKE off (auto=route: the kernel's ACQUIRE for
# the trap policy), and the kernel's first ESP SA instantiates and
# self-tests AES-GCM (4 to 20 s under emulation, the debug kernel the
# slowest): the first answer may be long in coming.
WAIT_TIMEOUT=180 ping_sizes vm1 10.0.0.2 1
ping_sizes vm1 10.0.0.2 8972
for host in host1 host2; do
	wait_for child_sas_up "$host" ||
		fail "[$host] the IKE SA and both CHILD_SAs of stt0 are not up"
	log "+ [$host] ipsec status"
	host_ipsec "$host" ipsec status
	out=$(host_ovs "$host" ovs-appctl -t ovs-monitor-ipsec tunnels/show) ||
		fail "[$host] ovs-appctl -t ovs-monitor-ipsec tunnels/show failed"
	echo "$out"
	echo "$out" | contains -E '^Interface name: stt0 v[0-9]+ \(CONFIGURED\)$' ||
		fail "[$host] ovs-monitor-ipsec: stt0 is not CONFIGURED"
	# (Its "IPsec connections that are active" stays empty for stt:
	# ovs-monitor-ipsec files `ipsec status` lines under the name up to
	# their last "-N", "stt0-in" and "stt0-out", not under stt0.)
	policies=$(echo "$out" | sed -n '/^Kernel policies installed:/,/^Kernel security/p' |
		grep -c "dport $STT_PORT\$") || true
	sas=$(echo "$out" | sed -n '/^Kernel security associations installed:/,/^IPsec connections/p' |
		grep -c "port $STT_PORT\$") || true
	[ "$policies" -ge 2 ] && [ "$sas" -ge 4 ] ||
		fail "[$host] tunnels/show: $policies kernel policies to tcp/$STT_PORT, $sas SAs"
done
send_file_and_hash vm1 vm2 10.0.0.2 $MIB
capture_stop "$CAPTURE_PID" underlay

# Every IPv4 packet by protocol: no TCP may cross the underlay but in ESP.
count() {
	tcpdump -nr "$STT_RESULTS/underlay.pcap" "$@" 2>/dev/null | wc -l
}
ike=$(count udp port 500 or udp port 4500)
esp=$(count esp)
clear=$(count tcp)
log "host2's u0: $ike IKE, $esp ESP packets, $clear plaintext TCP"
[ "$clear" -eq 0 ] || fail "plaintext TCP (STT) between host1 and host2: $clear segments"
[ "$ike" -ge 4 ] || fail "only $ike IKE packets on the underlay"
[ "$esp" -gt 0 ] || fail "no ESP on the underlay"
decrypted=$(ip -n host2 -s xfrm state list src 192.0.2.1 dst 192.0.2.2 proto esp |
	awk '/lifetime current:/ { getline; n += $1 } END { print n + 0 }')
log "host2's SAs from host1 decrypted $decrypted bytes"
[ "$decrypted" -gt $((MIB << 20)) ] ||
	fail "host2 decrypted $decrypted bytes, less than the $MIB MiB sent"
for host in host1 host2; do
	stt_check_no_errors "$host"
done

# ---- c -> host2: plaintext STT, refused by host2's inbound policy -------------

add_ns c
add_underlay c 192.0.3.3/24 host2 192.0.3.2/24 1500 u1
run in_ns c "$STT_CTL" add s0 remote 192.0.3.2 id 0
stt_dev_up c s0 10.0.0.3/24
# Straight at vm2, no ARP: only c's echo requests cross.
run ip -n c neigh replace 10.0.0.2 dev s0 nud permanent \
	lladdr "$(in_ns vm2 cat /sys/class/net/eth0/address)"

log "+ [host2] ip -s xfrm policy list dir in"
xfrm_in_policies host2 | tee "$WORK/policies-before"
stt_counters host2 > "$WORK/counters-before"
rx_before=$(stt_counter host2 rx_frames)
lookups_before=$(dp_lookups host2)
# (A module without the policy check has no such counter: what it does
# with c's frames is judged below all the same.)
refused_before=$(stt_counter host2 rx_err_xfrm_policy) || refused_before=none
block_before=$(xfrm_stat host2 XfrmInPolBlock) || block_before=none
tx_before=$(stt_counter c tx_frames s0)
no_ping c 10.0.0.2
sent=$(($(stt_counter c tx_frames s0) - tx_before))
wait_for decap_counted host2 "$sent" "$rx_before" "${refused_before/none/0}" ||
	log "host2 did not count every frame c sent"
stt_counters host2 > "$WORK/counters-after"
rx=$(($(stt_counter host2 rx_frames) - rx_before))
# A decapsulated frame reaches the datapath a little later.  Its flow may
# be gone soon after: the revalidator deletes flows of tunnel packets that
# no tunnel port takes (host2's stt0 has remote_ip=192.0.2.1).
[ $rx -eq 0 ] || wait_for -t 10 dp_lookups_at_least host2 $((lookups_before + rx)) || true
lookups=$(($(dp_lookups host2) - lookups_before))
flows=$(flows_from host2 192.0.3.3)
log "c sent $sent frames in plaintext; host2's $STT_DEV counters moved:" \
	"$(stt_counters_moved "$WORK/counters-before" "$WORK/counters-after" | tr '\n' ' ')"
log "host2: rx_frames +$rx; datapath lookups +$lookups, flows from 192.0.3.3: $flows"
[ "$sent" -ge 3 ] || fail "c sent $sent frames, not the 3 echo requests"
[ $rx -eq 0 ] && [ $lookups -eq 0 ] && [ "$flows" -eq 0 ] ||
	fail "host2 took plaintext STT from c: rx_frames $rx_before -> $((rx_before + rx)), datapath lookups +$lookups, $flows datapath flows from 192.0.3.3"
[ "$refused_before" != none ] || fail "host2's $STT_DEV has no rx_err_xfrm_policy counter"
refused=$(($(stt_counter host2 rx_err_xfrm_policy) - refused_before))
[ "$refused" -eq "$sent" ] || fail "c sent $sent frames, host2 refused $refused"

# Which inbound policy refused them: the one whose use time was set.
log "+ [host2] ip -s xfrm policy list dir in"
xfrm_in_policies host2 | tee "$WORK/policies-after"
used=$(awk 'NR == FNR { before[$0]; next } !($0 in before)' \
	"$WORK/policies-before" "$WORK/policies-after")
log "inbound policies used by c's frames: ${used:-none}"
[ "$(echo "$used" | wc -l)" -eq 1 ] &&
	[[ $used == "src 0.0.0.0/0 dst 0.0.0.0/0 proto tcp dport $STT_PORT | block | mark 0/0x1 | "* ]] ||
	fail "c's frames were not refused by the drop shunt's inbound policy alone"
if [ "$block_before" != none ]; then
	block=$(($(xfrm_stat host2 XfrmInPolBlock) - block_before))
	log "host2's XfrmInPolBlock: +$block"
	[ "$block" -eq "$sent" ] ||
		fail "XfrmInPolBlock counted $block of c's $sent frames"
else
	log "no XfrmInPolBlock: this kernel keeps no xfrm statistics (CONFIG_XFRM_STATISTICS)"
fi
log "c sent $sent frames in plaintext; host2 refused $refused (rx_err_xfrm_policy) by the drop shunt's inbound policy, decapsulated none"

# ---- without the drop shunt ----------------------------------------------------

# Then no inbound policy covers c (the conns' inbound policies select
# host1's address), and its plaintext STT is host2's like any TCP.
host_ovs host2 ovs-vsctl remove Open_vSwitch . other_config ipsec_skb_mark
no_block_policy() {
	! ip -n host2 xfrm policy list dir in action block | contains .
}
wait_for no_block_policy || fail "the drop shunts stayed after ipsec_skb_mark was removed"
rx_before=$(stt_counter host2 rx_frames)
lookups_before=$(dp_lookups host2)
tx_before=$(stt_counter c tx_frames s0)
no_ping c 10.0.0.2
sent=$(($(stt_counter c tx_frames s0) - tx_before))
wait_for stt_counter_above host2 rx_frames $((rx_before + sent - 1)) ||
	fail "without the drop shunt host2 decapsulated $(($(stt_counter host2 rx_frames) - rx_before)) of c's $sent frames"
wait_for dp_lookups_at_least host2 $((lookups_before + sent)) ||
	fail "without the drop shunt host2's datapath looked up $(($(dp_lookups host2) - lookups_before)) of c's $sent frames"
log "without the drop shunt: c sent $sent frames, host2 decapsulated them" \
	"(rx_frames +$(($(stt_counter host2 rx_frames) - rx_before)))" \
	"and its datapath looked them up (+$(($(dp_lookups host2) - lookups_before)))"
