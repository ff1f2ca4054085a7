#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stt-ctl against the stt module: every verb (add, set, del, show, -s, -j),
# what it reads back checked against ip and ethtool, and every refusal with
# its exit code and exact message (the kernel's extack text included).
#
#	stt-ctl.sh [--fixed-peer=yes|auto|no]
#
# External mode is checked always, fixed-peer mode (remote, local, id, ttl,
# tos, df, srcport, changelink, link-netns) by default too.  For a module
# built before fixed-peer mode: "auto" skips those checks when the module
# refuses a fixed-peer add exactly as such a module does (and checks those
# refusals instead), "no" skips them.
#
#   a: s0 (external 7471) s2 (external 4790)  u0 192.0.2.1 === 192.0.2.2 u0  b
#   u: underlay namespace of the link-netns checks
#
# Test: stt_ctl
#   timeout: 600
#   kernels: newest distro: stt-ctl is userspace; the kernel's rtnetlink
#     paths and refusals it meets are stt-device's and dev-netns's on every
#     kernel
#   underlay: both: devices with IPv4 and IPv6 remotes, and the switch

set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../stt-lib.sh"

FIXED_PEER=yes
for arg; do
	case "$arg" in
	--fixed-peer=auto | --fixed-peer=yes | --fixed-peer=no)
		FIXED_PEER=${arg#--fixed-peer=} ;;
	*) fail "usage: stt-ctl.sh [--fixed-peer=yes|auto|no]" ;;
	esac
done

log "stt-ctl: $STT_CTL ($("$STT_CTL" --version))"

# ctl NS ARGS...: stt-ctl ARGS in NS, logged.  ctlq: the same, quietly
# (for output to be captured).
ctl() {
	local ns=$1
	shift
	log "+ [$ns] stt-ctl $*"
	in_ns "$ns" "$STT_CTL" "$@"
}

ctlq() {
	local ns=$1
	shift
	in_ns "$ns" "$STT_CTL" "$@"
}

# refused NS STATUS MESSAGE ARGS...: stt-ctl ARGS in NS must exit with
# STATUS, print nothing on stdout and exactly "stt-ctl: MESSAGE" on stderr.
refused() {
	local ns=$1 want_rc=$2 want=$3 out err rc=0
	shift 3
	log "+ [$ns] stt-ctl $*  (must fail with $want_rc)"
	out=$(in_ns "$ns" "$STT_CTL" "$@" 2> "$WORK/stderr") || rc=$?
	err=$(cat "$WORK/stderr")
	[ "$rc" -eq "$want_rc" ] ||
		fail "stt-ctl $*: exit status $rc, expected $want_rc ($err)"
	[ -z "$out" ] || fail "stt-ctl $*: printed on stdout: $out"
	[ "$err" = "stt-ctl: $want" ] ||
		fail "stt-ctl $*: expected \"stt-ctl: $want\", got \"$err\""
	log "  $err"
}

# shows NS NAME LINE: "stt-ctl show NAME" prints exactly LINE.
shows() {
	local ns=$1 name=$2 want=$3 got
	log "+ [$ns] stt-ctl show $name"
	got=$(ctlq "$ns" show "$name")
	[ "$got" = "$want" ] ||
		fail "stt-ctl show $name: expected \"$want\", got \"$got\""
	log "  $got"
}

no_device() {
	! ip -n "$1" link show "$2" > /dev/null 2>&1 ||
		fail "[$1] $2 exists although its creation was refused"
}

# json NS PYTHON ARGS...: runs PYTHON with "d" the parsed output of
# stt-ctl ARGS, each device's "ifindex" checked against ip's and taken out;
# PYTHON asserts.
json() {
	local ns=$1 code=$2
	shift 2
	log "+ [$ns] stt-ctl $* | check: $code"
	in_ns "$ns" "$STT_CTL" "$@" > "$WORK/out.json" ||
		fail "stt-ctl $* failed"
	ip -n "$ns" -j link show > "$WORK/ip.json"
	/usr/bin/python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
ifindex = {l['ifname']: l['ifindex'] for l in json.load(open(sys.argv[2]))}
for link in d:
    assert link.pop('ifindex') == ifindex[link['ifname']], link
$code
" "$WORK/out.json" "$WORK/ip.json" || fail "stt-ctl $*: $(cat "$WORK/out.json")"
}

# ext NAME PORT: what stt-ctl -j prints of an external device (Python).
ext() {
	echo "{'ifname': '$1', 'linkinfo': {'info_kind': 'stt',
	    'info_data': {'external': True, 'port': $2}}}"
}

# The "name: value" counter lines of stt-ctl -s show NAME, as ethtool -S
# prints them.
ctl_counters() {
	in_ns "$1" "$STT_CTL" -s show "$2" |
		awk '/^    counters:$/ { on = 1; next }
			on { sub(/^ +/, ""); print }'
}

ethtool_counters() {
	in_ns "$1" ethtool -S "$2" | awk 'NR > 1 { sub(/^ +/, ""); print }'
}

counters_match() {
	local a b
	a=$(ctl_counters "$1" "$2") && b=$(ethtool_counters "$1" "$2") &&
		[ -n "$a" ] && [ "$a" = "$b" ]
}

# stt-ctl -j -s and ip -j -s -s agree on every rtnl link statistic.
stats_match() {
	local ns=$1 dev=$2
	in_ns "$ns" "$STT_CTL" -j -s show "$dev" > "$WORK/ctl-stats.json" &&
		in_ns "$ns" ip -j -s -s link show "$dev" > "$WORK/ip-stats.json" &&
		/usr/bin/python3 -c '
import json, sys
ctl = json.load(open(sys.argv[1]))[0]["stats64"]
ip = json.load(open(sys.argv[2]))[0]["stats64"]
compared = 0
for d in ("rx", "tx"):
    for k, v in ctl[d].items():
        if k in ip[d]:
            compared += 1
            if ip[d][k] != v:
                sys.exit("%s %s: stt-ctl %d, ip %d" % (d, k, v, ip[d][k]))
if compared < 16:
    sys.exit("only %d statistics in common with ip" % compared)
' "$WORK/ctl-stats.json" "$WORK/ip-stats.json"
}

# nsid_of NS PEER: the nsid of namespace PEER in NS, or nothing.
nsid_of() {
	ip -n "$1" netns list-id |
		awk -v peer="$2" '$1 == "nsid" && $NF == peer ")" { print $2 }'
}

add_ns a
add_ns b
add_ns u
add_underlay a 192.0.2.1/24 b 192.0.2.2/24

# ---- external mode: add, show, refusals ---------------------------------

# The first add loads the module by its rtnl-link-stt alias.
! module_loaded stt || fail "stt.ko is loaded before the first add"
ctl a add s0 external
module_loaded stt || fail "stt-ctl add did not load stt.ko"
shows a s0 "s0: stt external dstport 7471"

refused a 1 "add s1: Device or resource busy: an external stt device already uses this destination port in this namespace" \
	add s1 external
no_device a s1
refused a 1 "add s0: File exists" add s0 external dstport 4791

ctl a add s2 external dstport 4790
shows a s2 "s2: stt external dstport 4790"
# The same port in another namespace is another receive port.
ctl b add s0 external
shows b s0 "s0: stt external dstport 7471"

# Only stt devices, in ifindex order.
got=$(ctlq a show)
[ "$got" = "s0: stt external dstport 7471
s2: stt external dstport 4790" ] || fail "stt-ctl show in a: $got"

# Port 0 and other bad values never reach the kernel: usage errors, no
# device.  (The kernel's own port-0 refusal is checked by stt-device.sh with
# a raw netlink client.)
refused a 2 "bad value '0' for dstport: expected 1-65535" \
	add s3 external dstport 0
no_device a s3
refused a 2 "bad value '65536' for dstport: expected 1-65535" \
	add s3 external dstport 65536
refused a 2 "unknown word 'remote6' (try 'stt-ctl --help')" \
	add s3 external remote6 ::1
no_device a s3

# What set cannot change is refused before asking.
for word in "dstport 4000" external "link-netns u"; do
	refused a 2 "${word%% *} cannot be changed on an existing device: delete the device and add it again" \
		set s0 $word
done
shows a s0 "s0: stt external dstport 7471"

# Devices that do not exist, or are not stt devices.
refused a 1 "show s9: No such device" show s9
refused a 1 "del s9: No such device" del s9
refused a 1 "set s9: No such device" set s9 ttl 1
refused a 1 "show u0: not an stt device (kind veth)" show u0
refused a 1 "del u0: not an stt device (kind veth)" del u0
refused a 1 "set u0: not an stt device (kind veth)" set u0 ttl 1
ip -n a link show u0 > /dev/null || fail "stt-ctl del removed the veth u0"
refused a 1 "show lo: not an stt device" show lo

# ---- JSON ---------------------------------------------------------------

json a "assert d == [$(ext s0 7471), $(ext s2 4790)], d" -j show
json a "assert d == [$(ext s2 4790)], d" -j show s2
json u 'assert d == [], d' -j show
got=$(ctlq u show)
[ -z "$got" ] || fail "stt-ctl show in u printed: $got"

# ---- statistics ---------------------------------------------------------

# No IPv6 on s0: the stack's own neighbour discovery would count as drops
# while we compare.
in_ns a sysctl -qw net.ipv6.conf.s0.disable_ipv6=1
run ip -n a link set s0 up
# A SYN to the STT port: dropped and counted (rx_err_tcp_flags).
in_ns b timeout 5 socat -u /dev/null "TCP:192.0.2.1:7471,connect-timeout=2" \
	2> /dev/null && fail "port 7471 answered although s0 receives on it"
flags=$(stt_counter a rx_err_tcp_flags s0)
[ "$flags" -ge 1 ] || fail "rx_err_tcp_flags is $flags after a SYN"

ctl a -s show s0
wait_for counters_match a s0 ||
	fail "stt-ctl -s show s0 and ethtool -S s0 disagree:
$(diff <(ctl_counters a s0) <(ethtool_counters a s0))"
[ "$(ctl_counters a s0 | awk '$1 == "rx_err_tcp_flags:" { print $2 }')" \
	= "$flags" ] || fail "stt-ctl and ethtool disagree on rx_err_tcp_flags"
log "  every counter of stt-ctl -s show s0 equals ethtool -S s0"
wait_for stats_match a s0 ||
	fail "stt-ctl -j -s and ip -j -s -s disagree: $(stats_match a s0 2>&1)"
log "  stt-ctl -j -s show s0 stats64 equals ip -j -s -s link show s0"
json a 'c = d[0]["counters"]
assert c["rx_err_tcp_flags"] >= 1, c
assert "tx_frames" in c and "reasm_limit_bytes" in c, c
s = d[0]["stats64"]
assert s["rx"]["errors"] >= c["rx_err_tcp_flags"], s' -j -s show s0
# Counters of every device of a dump.
[ "$(ctlq a -s show | grep -c '^    counters:$')" -eq 2 ] ||
	fail "stt-ctl -s show did not print the counters of s0 and s2"
ctlq a -s show s2 | contains '^    RX: ' || fail "stt-ctl -s show s2: no RX line"

# ---- a device deleted while -s show runs ----------------------------------

# vanish NS DEV ARGS...: stt-ctl ARGS in NS under gdb, which deletes DEV
# when stt-ctl first reads counters (after its dump, before DEV's ioctl);
# stt-ctl's output in $WORK/vanish.{out,err}, its exit status printed.
vanish() {
	local ns=$1 dev=$2
	shift 2
	log "+ [$ns] stt-ctl $*  (deleting $dev when it reads counters)" >&2
	in_ns "$ns" gdb -nx -batch -q -ex 'break eth_counters_get' \
		-ex "run $* > $WORK/vanish.out 2> $WORK/vanish.err" \
		-ex "shell ip link del $dev" -ex delete -ex continue \
		-ex 'print $_exitcode' "$STT_CTL" > "$WORK/gdb.log" 2>&1
	sed -n 's/^\$1 = //p' "$WORK/gdb.log"
}

# A dump leaves a vanished device out (a collector polling every few
# seconds keeps the others' data while Open vSwitch re-creates its device);
# a device asked for by name is an error.
ctl u add v0 external dstport 5100
ctl u add v1 external dstport 5101
rc=$(vanish u v0 -s show)
[ "$rc" = 0 ] || fail "stt-ctl -s show: exit '$rc' when v0 vanished: $(cat "$WORK/vanish.err" "$WORK/gdb.log")"
[ ! -s "$WORK/vanish.err" ] || fail "stt-ctl -s show: $(cat "$WORK/vanish.err")"
[ "$(grep -v '^    ' "$WORK/vanish.out")" = "v1: stt external dstport 5101" ] ||
	fail "stt-ctl -s show with v0 gone printed: $(cat "$WORK/vanish.out")"
grep -q '^        tx_frames: 0$' "$WORK/vanish.out" ||
	fail "stt-ctl -s show with v0 gone: no counters of v1"
no_device u v0
rc=$(vanish u v1 -s show v1)
[ "$rc" = 1 ] && [ "$(cat "$WORK/vanish.err")" = "stt-ctl: show v1: cannot read ethtool statistics: No such device" ] ||
	fail "stt-ctl -s show v1, v1 gone: exit '$rc': $(cat "$WORK/vanish.err")"
log "  a vanished device: left out of a dump, an error by name"

# ---- -n NS ------------------------------------------------------------------

# As "ip netns exec NS stt-ctl" does, every command, counters included.
[ "$("$STT_CTL" -n a -s show)" = "$(ctlq a -s show)" ] ||
	fail "stt-ctl -n a -s show differs from it run in a"
log "+ stt-ctl -n u add n0 external dstport 5200"
"$STT_CTL" -n u add n0 external dstport 5200 || fail "stt-ctl -n u add failed"
shows u n0 "n0: stt external dstport 5200"
! ip link show n0 > /dev/null 2>&1 || fail "stt-ctl -n u add made n0 here"
"$STT_CTL" --netns u del n0 || fail "stt-ctl --netns u del failed"
no_device u n0

# ---- link-netns (external devices) ----------------------------------------

[ -z "$(nsid_of a u)" ] || fail "u already has an nsid in a"
refused a 1 "link-netns nope: cannot open /run/netns/nope: No such file or directory" \
	add x0 external dstport 5000 link-netns nope
no_device a x0

# x0 lives in a, its underlay (and receive port) in u: stt-ctl gives u an
# nsid in a.
ctl a add x0 external dstport 5000 link-netns u
id=$(nsid_of a u)
[ -n "$id" ] || fail "stt-ctl did not assign u an nsid in a"
log "  u is nsid $id in a"
shows a x0 "x0: stt external dstport 5000 link-netnsid $id"
json a "assert d == [{'ifname': 'x0', 'link_netnsid': $id,
    'linkinfo': {'info_kind': 'stt',
                 'info_data': {'external': True, 'port': 5000}}}], d" \
	-j show x0
! ip -n u link show x0 > /dev/null 2>&1 || fail "x0 was left in u"
# Port 5000 is taken in u, not in a.
refused u 1 "add x1: Device or resource busy: an external stt device already uses this destination port in this namespace" \
	add x1 external dstport 5000
ctl a add x2 external dstport 5000
shows a x2 "x2: stt external dstport 5000"
# A second device over u reuses u's nsid, added with -n a from here:
# link-netns's id is relative to -n's namespace, as with "ip -n".
log "+ stt-ctl -n a add x3 external dstport 5001 link-netns u"
"$STT_CTL" -n a add x3 external dstport 5001 link-netns u ||
	fail "stt-ctl -n a add x3 failed"
[ "$(nsid_of a u)" = "$id" ] || fail "u's nsid in a changed: $(nsid_of a u)"
shows a x3 "x3: stt external dstport 5001 link-netnsid $id"
ctl a del x0
no_device a x0
ctl u add x1 external dstport 5000
shows u x1 "x1: stt external dstport 5000"
ctl u del x1
ctl a del x2
ctl a del x3

# ---- fixed-peer mode ------------------------------------------------------

# One fixed-peer add, as complete as it gets.
FP_ADD=(add fp0 remote 192.0.2.2 local 192.0.2.1 id 0x1122334455667788
	dstport 7471 srcport 49152 65535 ttl 64 tos inherit df unset)
# (df unset, the default, is left out of the text, as "ip -d link" does.)
FP_LINE="fp0: stt remote 192.0.2.2 local 192.0.2.1 id 0x1122334455667788 dstport 7471 srcport 49152 65535 ttl 64 tos inherit"

# What a module without fixed-peer mode answers (its strict policy knows
# only IFLA_STT_PORT and IFLA_STT_COLLECT_METADATA).
NO_FIXED_PEER=("add fp0: Invalid argument: Unsupported attribute (remote)"
	"add fp0: Invalid argument: only external mode is supported: set IFLA_STT_COLLECT_METADATA")

fixed_peer_supported() {
	local err rc=0 known
	[ "$FIXED_PEER" != no ] || return 1
	log "+ [a] stt-ctl ${FP_ADD[*]}  (probe: fixed-peer mode)"
	in_ns a "$STT_CTL" "${FP_ADD[@]}" 2> "$WORK/stderr" || rc=$?
	err=$(cat "$WORK/stderr")
	[ $rc -ne 0 ] || return 0
	[ "$FIXED_PEER" = auto ] ||
		fail "fixed-peer add refused (status $rc): $err"
	for known in "${NO_FIXED_PEER[@]}"; do
		if [ $rc -eq 1 ] && [ "$err" = "stt-ctl: $known" ]; then
			log "  $err"
			no_device a fp0
			return 1
		fi
	done
	fail "fixed-peer add refused (status $rc), not as a module without fixed-peer mode would: $err"
}

# Fixed-peer mode: configuration read back exactly, changelink, the
# uniqueness rules and the kernel's refusals with their messages.
fixed_peer_checks() {
	shows a fp0 "$FP_LINE"
	# The id as a hex string, tos inherit as the kernel's 1, as vxlan.
	json a 'assert d == [{"ifname": "fp0", "linkinfo": {"info_kind": "stt",
        "info_data": {"remote": "192.0.2.2", "local": "192.0.2.1",
        "id": "0x1122334455667788", "port": 7471,
        "port_range": {"low": 49152, "high": 65535},
        "ttl": 64, "tos": "0x1", "df": "unset"}}}], d' -j show fp0
	# The largest id, the smallest range, the other spellings.
	ctl a add fp1 remote 192.0.2.3 id 18446744073709551615 srcport 1 1 \
		ttl inherit tos 0 df inherit
	shows a fp1 "fp1: stt remote 192.0.2.3 id 0xffffffffffffffff dstport 7471 srcport 1 1 ttl inherit df inherit"
	json a 'i = d[0]["linkinfo"]["info_data"]
assert i["id"] == "0xffffffffffffffff" and i["ttl_inherit"] is True \
        and "ttl" not in i and "tos" not in i and i["df"] == "inherit", i' \
		-j show fp1

	# changelink: every changeable word, then back (ttl inherit -> 32
	# clears the inherit flag).
	ctl a set fp0 remote 192.0.2.9 local 192.0.2.1 id 7 srcport 1000 2000 \
		ttl inherit tos 0x10 df set
	shows a fp0 "fp0: stt remote 192.0.2.9 local 192.0.2.1 id 0x7 dstport 7471 srcport 1000 2000 ttl inherit tos 0x10 df set"
	ctl a set fp0 ttl 32
	shows a fp0 "fp0: stt remote 192.0.2.9 local 192.0.2.1 id 0x7 dstport 7471 srcport 1000 2000 ttl 32 tos 0x10 df set"
	ctl a set fp0 remote 192.0.2.2 id 0x1122334455667788 \
		srcport 49152 65535 ttl 64 tos inherit df unset
	shows a fp0 "$FP_LINE"

	# Uniqueness as in geneve: the same (remote, id, port) twice is
	# refused; another id or another remote on the same port is not, nor
	# is an external device on it.
	refused a 1 "add fp2: Device or resource busy: an stt device with this remote and id already uses this destination port in this namespace" \
		add fp2 remote 192.0.2.2 id 0x1122334455667788
	no_device a fp2
	ctl a add fp2 remote 192.0.2.2 id 0x1122334455667789
	ctl a add fp3 remote 192.0.2.4 id 0x1122334455667788
	# set must not make a clash either, and a refused set changes nothing.
	refused a 1 "set fp2: Device or resource busy: an stt device with this remote and id already uses this destination port in this namespace" \
		set fp2 id 0x1122334455667788
	shows a fp2 "fp2: stt remote 192.0.2.2 id 0x1122334455667789 dstport 7471 ttl auto"

	# What the kernel refuses, with its message and the word it points at.
	refused a 1 "add fp4: Invalid argument: attribute not allowed in external mode: tunnel parameters come with each packet (remote)" \
		add fp4 external remote 192.0.2.2
	refused a 1 "add fp4: Invalid argument: an stt device needs a remote address (fixed peer) or external mode" \
		add fp4 id 5
	refused a 1 "add fp4: Invalid argument: remote must be a unicast address (remote)" \
		add fp4 remote 224.0.0.1 id 5
	refused a 1 "add fp4: Invalid argument: local6 is IPv6 but the remote is not: give remote6 (local)" \
		add fp4 remote 192.0.2.2 local 2001:db8::1
	refused a 1 "add fp4: Invalid argument: remote6 must be a unicast address (remote)" \
		add fp4 remote ff02::1 id 5
	refused a 1 "add fp4: Invalid argument: remote6 must not be link-local: an stt device has no underlay interface to scope it to (remote)" \
		add fp4 remote fe80::1 id 5
	refused a 1 "add fp4: Invalid argument: remote6 must not be IPv4-mapped: give an IPv4 remote as remote (remote)" \
		add fp4 remote ::ffff:192.0.2.2 id 5
	no_device a fp4
	refused a 1 "set s0: Operation not supported: an external device has nothing to change: tunnel parameters come with each packet" \
		set s0 ttl 5

	# IPv6 underlay: IFLA_STT_REMOTE6 and LOCAL6, read back as given; a
	# remote of the other family replaces remote and local both.
	ctl a add fp6 remote 2001:db8::2 local 2001:db8::1 id 6
	shows a fp6 "fp6: stt remote 2001:db8::2 local 2001:db8::1 id 0x6 dstport 7471 ttl auto"
	refused a 1 "set fp6: Invalid argument: local is IPv4 but the remote is IPv6: give local6 (local)" \
		set fp6 local 192.0.2.1
	ctl a set fp6 remote 192.0.2.6
	shows a fp6 "fp6: stt remote 192.0.2.6 id 0x6 dstport 7471 ttl auto"
	ctl a set fp6 remote 2001:db8::6
	shows a fp6 "fp6: stt remote 2001:db8::6 id 0x6 dstport 7471 ttl auto"
	ctl a del fp6

	# Source ports on an external device.
	ctl a add s5 external dstport 4800 srcport 1000 2000
	shows a s5 "s5: stt external dstport 4800 srcport 1000 2000"

	# link-netns for a fixed-peer device: created over u, living in a.
	ctl a add fp5 remote 192.0.2.2 id 5 link-netns u
	shows a fp5 "fp5: stt remote 192.0.2.2 id 0x5 dstport 7471 ttl auto link-netnsid $id"

	userns_checks

	# (In ifindex order, and fp5 took its ifindex in u.)
	got=$(ctlq a show | cut -d: -f1 | sort | tr '\n' ' ')
	[ "$got" = "fp0 fp1 fp2 fp3 fp5 s0 s2 s5 " ] ||
		fail "stt-ctl show lists: $got"
	for dev in fp0 fp1 fp2 fp3 s5 fp5; do
		ctl a del "$dev"
		no_device a "$dev"
	done
}

# A container: a network namespace owned by an unprivileged user namespace,
# given a device whose underlay is a.  Root of the container may not
# retarget it (remote, id, ttl, tos...): that would steer packets in a
# namespace it has no rights in.  Root of the host may.
userns_checks() {
	local pid want err rc=0

	ctl a add fp6 remote 192.0.2.2 id 6
	unshare --user --map-root-user --net sleep 600 &
	pid=$!
	BACKGROUND+=("$pid")
	wait_for bash -c "[ \"\$(readlink /proc/$pid/ns/user)\" != \"\$(readlink /proc/self/ns/user)\" ]" ||
		fail "unshare made no user namespace"
	run ip netns attach c "$pid"
	NAMESPACES+=(c)
	run ip -n a link set fp6 netns c
	want="fp6: stt remote 192.0.2.2 id 0x6 dstport 7471 ttl auto link-netnsid 0"
	shows c fp6 "$want"

	log "+ [c, as root of its user namespace] stt-ctl set fp6 remote 172.31.0.99  (must fail with 1)"
	nsenter -t "$pid" --user --net "$STT_CTL" set fp6 remote 172.31.0.99 \
		2> "$WORK/stderr" || rc=$?
	err=$(cat "$WORK/stderr")
	[ "$rc" -eq 1 ] && [ "$err" = "stt-ctl: set fp6: Operation not permitted: changing an stt device needs CAP_NET_ADMIN in its underlay namespace" ] ||
		fail "root of a user namespace changed fp6 (exit $rc): $err"
	log "  $err"
	shows c fp6 "$want"

	ctl c set fp6 ttl 9
	shows c fp6 "${want/ttl auto/ttl 9}"
	ctl c del fp6
	no_device c fp6
}

# ---- ip link: the iproute2 plugin -------------------------------------------

# ip takes link_stt.so from the build tree: IP_LIB_DIR is where ip looks for
# link_KIND.so instead of its own directory (only stt is not built into ip).
IPLIB=$(dirname "$(find_built utilities/link_stt.so)") ||
	fail "utilities/link_stt.so was not built: see configure's summary"

# Every Debian suite's ip as well: tests/iproute2/fetch made on the host a
# root for each (/var/cache/stt-iproute2/SUITE/root, which run-tests fills
# before the guests), where it runs chrooted, with the plugin's directory
# at ROOT/stt and /proc in it (the plugin asks /proc/self/exe -V which
# iproute2 it is in).
IPROUTE2_CACHE=/var/cache/stt-iproute2
SUITE_ROOTS=()
for root in "$IPROUTE2_CACHE"/*/root; do
	[ -e "$root/bin/ip" ] || continue
	run mount --bind "$IPLIB" "$root/stt"
	run mount -t proc proc "$root/proc"
	log "  $(chroot "$root" /bin/ip -V) in $root"
	SUITE_ROOTS+=("$root")
done
[ ${#SUITE_ROOTS[@]} -gt 0 ] ||
	fail "no Debian suite's ip in $IPROUTE2_CACHE: run tests/iproute2/fetch on the host"

# ipl NS ARGS...: ip -n NS ARGS with the plugin, logged; it must succeed
# (a plugin that does not match ip's structures is not reached, or
# misparses).
ipl() {
	local ns=$1
	shift
	log "+ [$ns] ip $*"
	IP_LIB_DIR=$IPLIB ip -n "$ns" "$@" || fail "ip $* failed"
}

# every_ip NS NAME ARGS...: "ip ARGS" in NS with the plugin, by this
# host's ip into $WORK/NAME.0 and by each suite's into $WORK/NAME.1, ...;
# IP_WHO[N] says whose output NAME.N is.
every_ip() {
	local ns=$1 name=$2 n=0 root
	shift 2
	IP_WHO=("ip $(ip -V | sed -n 's/.*\(iproute2-[0-9.]*\).*/\1/p')")
	IP_LIB_DIR=$IPLIB ip -n "$ns" "$@" > "$WORK/$name.0" ||
		fail "ip $* failed"
	for root in "${SUITE_ROOTS[@]}"; do
		n=$((n + 1))
		IP_WHO[n]="$(basename "$(dirname "$root")")'s ip"
		IP_LIB_DIR=/stt in_ns "$ns" chroot "$root" /bin/ip "$@" \
			> "$WORK/$name.$n" || fail "${IP_WHO[n]} $* failed"
	done
}

# same_linkinfo NS DEV: "ip -j -d link show DEV", by every ip, and
# "stt-ctl -j show DEV" give the same linkinfo (info_kind and info_data),
# key by key.
same_linkinfo() {
	local ns=$1 dev=$2 n args=()
	log "+ [$ns] ip -j -d link show $dev == stt-ctl -j show $dev (linkinfo), by ${#SUITE_ROOTS[@]} more ips"
	every_ip "$ns" ip-link -j -d link show "$dev"
	in_ns "$ns" "$STT_CTL" -j show "$dev" > "$WORK/ctl-link.json" ||
		fail "stt-ctl -j show $dev failed"
	for n in "${!IP_WHO[@]}"; do
		args+=("${IP_WHO[n]}" "$WORK/ip-link.$n")
	done
	/usr/bin/python3 -c '
import json, sys
ctl = json.load(open(sys.argv[1]))[0]["linkinfo"]
for who, path in zip(sys.argv[2::2], sys.argv[3::2]):
    ip = json.load(open(path))[0]["linkinfo"]
    for key in sorted(set(ip["info_data"]) | set(ctl["info_data"])):
        a, b = ip["info_data"].get(key), ctl["info_data"].get(key)
        if a != b:
            sys.exit("info_data.%s: %s %r, stt-ctl %r" % (key, who, a, b))
    if ip != ctl:
        sys.exit("linkinfo: %s %r, stt-ctl %r" % (who, ip, ctl))
print("  info_data " + json.dumps(ctl["info_data"], sort_keys=True))
' "$WORK/ctl-link.json" "${args[@]}" ||
		fail "ip and stt-ctl disagree on $dev"
}

# ip_shows NS DEV WORDS: "ip -d link show DEV", by every ip, has the line
# "    stt WORDS ".
ip_shows() {
	local ns=$1 dev=$2 want="    stt $3 " n
	every_ip "$ns" ip-d -d link show "$dev"
	for n in "${!IP_WHO[@]}"; do
		grep -qxF -- "$want" <(sed 's/addrgenmode.*//' "$WORK/ip-d.$n") ||
			fail "${IP_WHO[n]} -d link show $dev has no line \"$want\": $(cat "$WORK/ip-d.$n")"
	done
	log "  ip -d link show $dev, by ${#IP_WHO[@]} ips: ${want# *}"
}

# External devices, and (with fixed-peer mode) a device with every word, its
# id above 2^53, and another with the other spellings, changed by ip link
# set.
plugin_checks() {
	ipl a link add e0 type stt external dstport 4900 srcport 1000 2000
	shows a e0 "e0: stt external dstport 4900 srcport 1000 2000"
	ip_shows a e0 "external dstport 4900 srcport 1000 2000"
	same_linkinfo a e0
	ipl a link del e0
	no_device a e0
	[ "$FIXED_PEER_OK" = yes ] || return 0

	ipl a link add p0 type stt "${FP_ADD[@]:2}"
	shows a p0 "${FP_LINE/fp0:/p0:}"
	ip_shows a p0 "${FP_LINE#fp0: stt }"
	same_linkinfo a p0
	ipl a link add p1 type stt remote 192.0.2.3 id 18446744073709551615 \
		ttl auto tos 0x10 df inherit
	shows a p1 "p1: stt remote 192.0.2.3 id 0xffffffffffffffff dstport 7471 ttl auto tos 0x10 df inherit"
	ip_shows a p1 "remote 192.0.2.3 id 0xffffffffffffffff dstport 7471 ttl auto tos 0x10 df inherit"
	same_linkinfo a p1
	ipl a link set p1 type stt ttl inherit tos inherit df set
	shows a p1 "p1: stt remote 192.0.2.3 id 0xffffffffffffffff dstport 7471 ttl inherit tos inherit df set"
	same_linkinfo a p1
	ipl a link del p0
	ipl a link del p1
	no_device a p0
	no_device a p1
}

FIXED_PEER_OK=no
if fixed_peer_supported; then
	FIXED_PEER_OK=yes
	fixed_peer_checks
elif [ "$FIXED_PEER" = auto ]; then
	log "fixed-peer checks skipped: the module has no fixed-peer mode"
	# Without changelink the kernel refuses any set.
	refused a 1 "set s0: Operation not supported" set s0 ttl 5
	refused a 1 "add s3: Invalid argument: only external mode is supported: set IFLA_STT_COLLECT_METADATA" \
		add s3
	no_device a s3
else
	log "fixed-peer checks skipped (--fixed-peer=no)"
fi
plugin_checks
for root in "${SUITE_ROOTS[@]}"; do
	run umount "$root/proc" "$root/stt"
done

# ---- del ----------------------------------------------------------------

# A device goes with its underlay namespace, wherever it lives.
ctl a add x4 external dstport 5002 link-netns u
run ip netns del u
NAMESPACES=(a b)
wait_for bash -c "! ip -n a link show x4" ||
	fail "x4 outlived its underlay namespace u"
log "  x4 went with u"

ctl a del s0
ctl a delete s2
ctl b del s0
no_device a s0
no_device a s2
got=$(ctlq a show)
[ -z "$got" ] || fail "stt-ctl show after del printed: $got"
json a 'assert d == [], d' -j show

# Nothing left behind: the namespaces go, then the module.
run ip netns del a
run ip netns del b
NAMESPACES=()
run rmmod stt
! module_loaded stt || fail "stt.ko still loaded"

# stt not installed for the running kernel: modprobe finds no stt.ko, the
# kernel knows no kind "stt", and stt-ctl says where to look.
ko=$(modinfo -n stt) || fail "modinfo finds no stt module to hide"
run mv "$ko" "$ko.hidden"
add_ns z
refused z 1 "add s0: Operation not supported: Unknown device type; is stt installed for this kernel? modinfo stt" \
	add s0 external
no_device z s0
run mv "$ko.hidden" "$ko"
ctl z add s0 external
ctl z del s0
run ip netns del z
NAMESPACES=()
run rmmod stt
log "PASS stt-ctl"
