# tests/bench/automake.mk -- the benchmark: STT against VXLAN, Geneve and no
# tunnel, with and without Open vSwitch, over IPv4 and IPv6 underlays and
# five underlay profiles (three offload settings of veth, two emulated NICs),
# in one QEMU guest boot (tests/bench/run; not part of "make check").
# "make bench" runs the full matrix, "make bench-quick" a reduced one;
# BENCH_ARGS adds options, e.g. BENCH_ARGS="--runs 5".
EXTRA_DIST += \
	tests/bench/bench.sh \
	tests/bench/debian-packages \
	tests/bench/netns-exit.sh \
	tests/bench/reasm-cpu.sh \
	tests/bench/report \
	tests/bench/run

bench:
	$(srcdir)/tests/bench/run $(BENCH_ARGS)

bench-quick:
	$(srcdir)/tests/bench/run --quick $(BENCH_ARGS)

.PHONY: bench bench-quick
