#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stt-ctl's command line, without the kernel: every usage error exits 2
# with its exact message and sends nothing (checked with strace when it
# works here: not even a netlink socket is opened); --help and --version;
# every boundary value is accepted.  Needs neither root nor the module.
#
#	tests/utilities/test-stt-ctl-args.sh [STT_CTL]
#
# STT_CTL defaults to utilities/stt-ctl under the current directory (the
# build directory, as "make check" runs it).

set -u

STT_CTL=${1:-${STT_CTL:-utilities/stt-ctl}}
if [ ! -x "$STT_CTL" ]; then
	echo "test-stt-ctl-args: $STT_CTL not found or not executable" >&2
	exit 99
fi

passed=0
failed=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# strace -f works here (not in every container): then each usage error is
# also checked to open no netlink socket at all.
STRACE=
if command -v strace > /dev/null 2>&1 &&
	strace -f -qq -o /dev/null -e trace=socket true 2> /dev/null; then
	STRACE=strace
else
	echo "note: strace is not usable here: 'nothing sent' is checked by" \
		"the exit status and messages only"
fi

pass() {
	passed=$((passed + 1))
}

failure() {
	failed=$((failed + 1))
	echo "FAIL: $*"
}

# run ARGS...: stt-ctl ARGS, with stdout, stderr, status and (if strace
# works) its socket() calls in $TMP.
run() {
	rc=0
	if [ -n "$STRACE" ]; then
		strace -f -qq -o "$TMP/trace" -e trace=socket,sendto,sendmsg \
			"$STT_CTL" "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
	else
		: > "$TMP/trace"
		"$STT_CTL" "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
	fi
}

quote() {
	local a s=
	for a; do
		s="$s '$a'"
	done
	echo "stt-ctl$s"
}

# fails STATUS MESSAGE ARGS...: stt-ctl ARGS exits with STATUS, nothing on
# stdout, exactly "stt-ctl: MESSAGE" on stderr, no netlink socket.
fails() {
	local want_rc=$1 want="stt-ctl: $2"
	shift 2
	run "$@"
	if [ $rc -ne "$want_rc" ]; then
		failure "$(quote "$@"): status $rc, expected $want_rc ($(cat "$TMP/err"))"
	elif [ -s "$TMP/out" ]; then
		failure "$(quote "$@"): printed on stdout: $(cat "$TMP/out")"
	elif [ "$(cat "$TMP/err")" != "$want" ]; then
		failure "$(quote "$@"): stderr \"$(cat "$TMP/err")\", expected \"$want\""
	elif grep -q 'AF_NETLINK\|sendto\|sendmsg' "$TMP/trace"; then
		failure "$(quote "$@"): talked to the kernel: $(cat "$TMP/trace")"
	else
		pass
	fi
}

# accepted ARGS...: every word of ARGS parses: appending "bogus" makes
# "bogus" the first (and only) complaint.
accepted() {
	usage "unknown word 'bogus' (try 'stt-ctl --help')" "$@" bogus
}

# usage MESSAGE ARGS...: stt-ctl ARGS is a usage error (status 2).
usage() {
	fails 2 "$@"
}

# runtime_error MESSAGE ARGS...: stt-ctl ARGS fails (status 1) before it
# talks to the kernel.
runtime_error() {
	fails 1 "$@"
}

# prints STATUS REGEX ARGS...: stt-ctl ARGS exits with STATUS, stdout
# matches REGEX (grep -E, first line), nothing on stderr.
prints() {
	local want_rc=$1 regex=$2
	shift 2
	run "$@"
	if [ $rc -ne "$want_rc" ]; then
		failure "$(quote "$@"): status $rc, expected $want_rc"
	elif [ -s "$TMP/err" ]; then
		failure "$(quote "$@"): printed on stderr: $(cat "$TMP/err")"
	elif ! head -n 1 "$TMP/out" | grep -Eq "$regex"; then
		failure "$(quote "$@"): stdout does not match /$regex/: $(head -n 1 "$TMP/out")"
	elif grep -q 'AF_NETLINK' "$TMP/trace"; then
		failure "$(quote "$@"): opened a netlink socket"
	else
		pass
	fi
}

HELP="(try 'stt-ctl --help')"

# ---- help and version -------------------------------------------------------

prints 0 '^Usage: stt-ctl \[OPTIONS\] COMMAND$' --help
prints 0 '^Usage: stt-ctl \[OPTIONS\] COMMAND$' -h
prints 0 '^Usage: stt-ctl \[OPTIONS\] COMMAND$' help
prints 0 '^Usage: stt-ctl \[OPTIONS\] COMMAND$' -s -j --help
prints 0 '^stt-ctl \(stt\) [0-9]+\.[0-9]+' --version
prints 0 '^stt-ctl \(stt\) [0-9]+\.[0-9]+' -V
# Every word and the exit codes are in the help.
run --help
for word in add set del show remote local id dstport srcport ttl tos df \
	external link-netns --netns --statistics --json --version \
	"ttl N|auto|inherit" "Exit status"; do
	if grep -q -- "$word" "$TMP/out"; then
		pass
	else
		failure "--help does not mention $word"
	fi
done

# ---- commands and options ---------------------------------------------------

usage "missing command $HELP"
usage "missing command $HELP" -s -j
usage "unknown command 'foo' $HELP" foo
usage "unknown command 'ADD' $HELP" ADD
usage "unknown command '' $HELP" ''
usage "unknown option '-x' $HELP" -x show
usage "unknown option '--bogus' $HELP" --bogus show
usage "unknown option '--json=1' $HELP" --json=1 show
usage "options go before the command, as in 'stt-ctl -s show'" show -s
usage "options go before the command, as in 'stt-ctl -j show'" show -j
usage "options go before the command, as in 'stt-ctl --json show'" \
	show s0 --json
# -s and -j change only what show prints, -h and -V stand alone: the
# example is the command that does what the option does.
usage "options go before the command, as in 'stt-ctl -j show'" add s0 -j
usage "options go before the command, as in 'stt-ctl -s show'" \
	add s0 external -s
usage "options go before the command, as in 'stt-ctl --help'" del --help
usage "options go before the command, as in 'stt-ctl -V'" show -V
usage "options go before the command, as in 'stt-ctl -n NS add'" \
	add s0 -n a
usage "options go before the command, as in 'stt-ctl --netns NS del'" \
	del --netns a

# -n NS: a name as "ip netns add" takes it, checked before anything else.
NETNS="expected a network namespace name, as in 'ip netns list'"
usage "missing value for -n: $NETNS" -n
usage "missing value for --netns: $NETNS" --netns
for v in '' a/b . ..; do
	usage "bad value '$v' for -n: $NETNS" -n "$v" show
done
# A namespace that does not exist: status 1, naming the file, before any
# netlink socket; a usage error still comes first.
runtime_error "-n stt-test-none: cannot open /run/netns/stt-test-none: No such file or directory" \
	-n stt-test-none show
usage "unknown word 'bogus' $HELP" -n stt-test-none add s0 bogus

# ---- device names -----------------------------------------------------------

for cmd in add set del; do
	usage "$cmd needs a device name $HELP" $cmd
done
NAME_RULE="expected 1-15 characters, none of them '/', ':' or white space"
for cmd in add set del show; do
	for name in '' 0123456789abcdef a/b a:b 'a b' "$(printf 'a\tb')" . ..; do
		usage "bad device name '$name': $NAME_RULE" $cmd "$name"
	done
done
accepted add 0123456789abcde
accepted add s0.100
usage "unknown word 'x' $HELP" del s0 x
usage "unknown word 'x' $HELP" show s0 x

# ---- words: unknown, missing values, twice ---------------------------------

usage "unknown word 'foo' $HELP" add s0 foo
usage "unknown word 'remote6' $HELP" add s0 remote6 ::1
usage "unknown word 'REMOTE' $HELP" add s0 REMOTE 192.0.2.1
usage "unknown word 'key' $HELP" add s0 key 5
usage "unknown word 'link-netnsid' $HELP" add s0 link-netnsid 0
usage "unknown word 'ttl=5' $HELP" add s0 ttl=5
usage "unknown word '' $HELP" add s0 ''

ADDR="expected an IPv4 or IPv6 address"
ID="expected 0-18446744073709551615 (decimal, or hex with 0x)"
PORT="expected 1-65535"
SRCPORT="expected MIN MAX, each 1-65535"
TTL="expected 0-255, auto or inherit"
U8="expected 0-255 or inherit"
DF="expected set, unset or inherit"

usage "missing value for remote: $ADDR" add s0 remote
usage "missing value for local: $ADDR" add s0 local
usage "missing value for id: $ID" add s0 id
usage "missing value for dstport: $PORT" add s0 dstport
usage "missing value for srcport: $SRCPORT" add s0 srcport
usage "missing value for srcport: $SRCPORT" add s0 srcport 1000
usage "missing value for ttl: $TTL" add s0 ttl
usage "missing value for tos: $U8" add s0 tos
usage "missing value for df: $DF" add s0 df
usage "missing value for link-netns: $NETNS" add s0 link-netns
usage "missing value for ttl: $TTL" set s0 remote 192.0.2.2 ttl

usage "remote given twice" add s0 remote 192.0.2.1 remote 192.0.2.2
usage "remote given twice" add s0 remote 192.0.2.1 remote 2001:db8::1
usage "local given twice" add s0 local 192.0.2.1 local 192.0.2.1
usage "id given twice" add s0 id 1 id 1
usage "dstport given twice" add s0 dstport 1 dstport 2
usage "srcport given twice" add s0 srcport 1 2 srcport 1 2
usage "ttl given twice" add s0 ttl 1 ttl inherit
usage "tos given twice" add s0 tos inherit tos 1
usage "df given twice" add s0 df set df unset
usage "external given twice" add s0 external external
usage "link-netns given twice" add s0 link-netns a link-netns b
usage "ttl given twice" set s0 ttl 1 ttl 2

# ---- values -----------------------------------------------------------------

for word in remote local; do
	for v in 1.2.3 1.2.3.4.5 256.1.1.1 192.0.2.1/24 x '' ' 192.0.2.1' \
		2001:db8::g 2001:db8:::1 fe80::1%eth0 '[::1]'; do
		usage "bad value '$v' for $word: $ADDR" add s0 $word "$v"
	done
done
for v in -1 +1 ' 1' '1 ' 18446744073709551616 99999999999999999999 \
	0x 0x10000000000000000 0xg 1e3 1.0 x '' 0b1 -0x1; do
	usage "bad value '$v' for id: $ID" add s0 id "$v"
done
for v in 0 65536 -1 x '' 0x0 1.5 99999999999; do
	usage "bad value '$v' for dstport: $PORT" add s0 dstport "$v"
done
for pair in '0 10' '10 0' '0 0' 'x 5' '5 x' '5 70000' '-1 5' '1 65536'; do
	# shellcheck disable=SC2086 # two words
	usage "bad value '$pair' for srcport: $SRCPORT" add s0 srcport $pair
done
usage "bad value '5 4' for srcport: MIN is greater than MAX" \
	add s0 srcport 5 4
usage "bad value '65535 1' for srcport: MIN is greater than MAX" \
	set s0 srcport 65535 1
for v in 256 -1 x '' 1000 0x100 Inherit Auto; do
	usage "bad value '$v' for ttl: $TTL" add s0 ttl "$v"
	usage "bad value '$v' for tos: $U8" add s0 tos "$v"
done
usage "bad value 'auto' for tos: $U8" add s0 tos auto
for v in yes no true 0 1 2 '' SET; do
	usage "bad value '$v' for df: $DF" add s0 df "$v"
done
for v in a/b '' . .. /run/netns/a; do
	usage "bad value '$v' for link-netns: $NETNS" add s0 link-netns "$v"
done
# The first bad word is the one named.
usage "bad value '300' for ttl: $TTL" add s0 ttl 300 tos 300
usage "bad value 'x' for dstport: $PORT" add s0 dstport x bogus

# Boundaries and spellings that must be accepted.
accepted add s0
accepted add s0 remote 192.0.2.2 local 192.0.2.1 id 0x1122334455667788 \
	dstport 7471 srcport 49152 65535 ttl 64 tos inherit df unset
accepted add s0 external dstport 4790 srcport 1 1 link-netns under
accepted add s0 remote 2001:db8::2 local 2001:db8::1
accepted add s0 remote ::ffff:192.0.2.1 local 0.0.0.0
for v in 0 1 18446744073709551615 0xffffffffffffffff 0XFFFFFFFFFFFFFFFF \
	0x0 007 00000000000000000000000000001; do
	accepted add s0 id "$v"
done
for v in 1 65535 0x1 0xffff; do
	accepted add s0 dstport "$v"
done
accepted add s0 srcport 1 65535
for v in 0 255 0xff inherit; do
	accepted add s0 ttl "$v"
	accepted add s0 tos "$v"
done
accepted add s0 ttl auto
for v in set unset inherit; do
	accepted add s0 df "$v"
done
accepted set s0 remote 192.0.2.2 local 192.0.2.1 id 1 srcport 1 2 ttl 1 \
	tos 1 df set

# ---- set --------------------------------------------------------------------

SET_FIXED="cannot be changed on an existing device: delete the device and add it again"
usage "dstport $SET_FIXED" set s0 dstport 7471
usage "external $SET_FIXED" set s0 external
usage "link-netns $SET_FIXED" set s0 link-netns under
usage "dstport $SET_FIXED" set s0 ttl 5 dstport 7471
usage "set needs something to change: one or more of remote, local, id, srcport, ttl, tos, df" \
	set s0

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
