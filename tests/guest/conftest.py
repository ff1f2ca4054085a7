# SPDX-License-Identifier: GPL-2.0
"""pytest driver for the guest rig (run-guest).

Every guest test is parametrized over the installed distro kernels (ids "6.1",
"6.12", ...) and runs one scenario script in a fresh QEMU guest:

    /usr/bin/python3 -m pytest tests/guest -v

Options (each also has an environment variable, for scripts and CI):

  --stt-modules KVER=DIR   directory of .ko files built for kernel KVER (short
                           "6.1" or full release), repeatable.
                           env: STT_MODULES_6_1=DIR, STT_MODULES_6_12=DIR, ...
  --stt-modules-dir TMPL   the same for all kernels at once, a path template
                           with {short} and/or {release}, e.g.
                           _build/{short}/datapath/linux.
                           env: STT_MODULES_DIR=TMPL
  --stt-kernel KVER        only these kernels (repeatable).  env: STT_KERNELS
                           (comma-separated)
  --stt-results DIR        where each test's results go, as DIR/TEST-KVER
                           (default /var/tmp/stt-results).  env: STT_RESULTS_DIR
  --stt-timeout-scale F    multiply every scenario timeout by F (slow or busy
                           machines).  env: STT_TIMEOUT_SCALE

An explicit KVER=DIR wins over the template.  A test that needs the STT
modules fails, naming the kernel and what to pass, when none are given.

The lanes of other Debian releases (a kernel of a root tests/roots/
build-root made, which the guest boots with that root as its /: "6.12-deb13"
and "7.3-deb13" of the Debian 13 root, "7.2-deb14" of the sid root,
"7.2-deb14-ovs40" of the forky root with Open vSwitch 4.0 and the STT series
as packages) run only
the tests marked @pytest.mark.lanes(PATTERN...) with a pattern matching the
lane's kernel (a scenario's "lanes:" key); every other test skips there.
"""

import functools
import json
import os
import re
import subprocess

import pytest

import scenario_cases
from scenario_cases import lane_matches

GUEST_DIR = os.path.dirname(os.path.realpath(__file__))
RUN_GUEST = os.path.join(GUEST_DIR, "run-guest")
SCENARIOS = os.path.join(GUEST_DIR, "scenarios")


def guest_runs(terminalreporter):
    """Every guest run of this session, for the summary: (script, kernel,
    result), from the reports' user properties, so that runs made by
    pytest-xdist workers count too."""
    runs = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":
                continue
            runs += [value for name, value in report.user_properties
                     if name == "guest_run"]
    return runs


def pytest_terminal_summary(terminalreporter):
    runs = guest_runs(terminalreporter)
    if not runs:
        return
    tr = terminalreporter
    tr.section("guest runs (seconds)")
    tr.write_line("%-24s %-6s %-6s %6s %6s %6s" % (
        "scenario", "kernel", "result", "boot", "run", "total"))
    total = 0.0
    for script, kernel, result in runs:
        sec = (result or {}).get("seconds", {})
        total += sec.get("total", 0)
        tr.write_line("%-24s %-6s %-6s %6s %6s %6s" % (
            script, kernel, (result or {}).get("verdict", "?"),
            sec.get("boot_to_scenario", "-"), sec.get("scenario", "-"),
            sec.get("total", "-")))
    tr.write_line("%d guest runs, %.0f s in QEMU" % (len(runs), total))
    for script, kernel, result in runs:
        for crash in (result or {}).get("boot_crashes", []):
            tr.write_line("%s on %s: the kernel stopped before init after "
                          "%s s and was booted again; %s" % (
                              script, kernel, crash["seconds"],
                              crash["first_bad_line"]
                              or "no kernel log line says why"))


def pytest_addoption(parser):
    group = parser.getgroup("stt", "STT guest rig")
    group.addoption("--stt-modules", action="append", default=[],
                    metavar="KVER=DIR",
                    help="directory with the .ko files built for KVER")
    group.addoption("--stt-modules-dir", metavar="TEMPLATE",
                    default=os.environ.get("STT_MODULES_DIR"),
                    help="module directory template with {short}/{release}")
    group.addoption("--stt-packaged", action="store_true",
                    help="the stt-dkms package is installed (tests/packaging/"
                         "check install): ovs-basic runs on the distro "
                         "kernels with the modules it installed alone")
    group.addoption("--stt-kernel", action="append", default=[],
                    metavar="KVER", help="run only on these kernels")
    group.addoption("--stt-results", metavar="DIR",
                    default=os.environ.get("STT_RESULTS_DIR",
                                           "/var/tmp/stt-results"),
                    help="parent directory of per-test results")
    group.addoption("--stt-underlay", choices=("ipv4", "ipv6"),
                    default="ipv4",
                    help="ipv6: run every case that can over an IPv6 "
                         "underlay (scenario_cases.py), and no other; "
                         "default: the cases as declared")
    group.addoption("--stt-timeout-scale", type=float,
                    default=float(os.environ.get("STT_TIMEOUT_SCALE", "1")),
                    help="multiply scenario timeouts by this factor")


# Scenario timeouts are multiplied by this on the debug test kernel (KASAN,
# lockdep and kmemleak under software emulation).
DEBUG_KERNEL_SLOWDOWN = 3

# Guest CPUs unless a test asks for more.  Two guests run at a time on a
# 2-core host: with one CPU each, each has a core (two-CPU guests took 1.7
# times as long side by side), and no CPU can run code that another is
# patching (emulation has crashed guests in a static key's int3).  Tests
# about concurrency ask for two.
DEFAULT_CPUS = 1


@functools.lru_cache(maxsize=None)
def listed_kernels():
    """[(short, release, root)] as run-guest lists them: distro kernels
    oldest first, then the debug test kernel ("6.12-debug") if it was
    built, then the lanes' (tests/roots/build-root); ROOT is the guest's / ("/" for the
    host's root)."""
    out = subprocess.run([RUN_GUEST, "--list-kernels"], check=True,
                         capture_output=True, text=True).stdout
    return [tuple(line.split()) for line in out.splitlines() if line]


def installed_kernels():
    """[(short, release)] of listed_kernels()."""
    return [(short, release) for short, release, _ in listed_kernels()]


def guest_root(release):
    """The root filesystem a guest of kernel RELEASE boots with."""
    return next(root for _, known, root in listed_kernels()
                if known == release)


def distro_kernels():
    """The releases of the host's distro kernels, oldest first."""
    return [r for s, r in installed_kernels() if "-" not in s]


def newest_distro_kernel():
    """The release of the newest distro kernel of the host, for tests that
    one kernel is enough for."""
    return (distro_kernels() or [None])[-1]


def oldest_distro_kernel():
    """The release of the oldest distro kernel of the host."""
    return (distro_kernels() or [None])[0]


def on_lane(short):
    """Whether the kernel SHORT is a lane's ("7.3-deb13", "7.2-deb14-ovs40"):
    another root's kernel, which the guest boots with that root as its /."""
    return re.search(r"-deb\d+(-[a-z0-9]+)?$", short) is not None


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "lanes(PATTERN, ...): the test runs on the lanes of "
        "other Debian releases whose kernel a PATTERN matches (6.12-deb13, "
        "7.3-deb13, 7.2-deb14, 7.2-deb14-ovs40; shell wildcards) too; every "
        "other test skips there")


def pytest_runtest_setup(item):
    """Skips a test on a lane unless it is marked lanes() with a pattern of
    that lane's kernel: CI time allows each lane a chosen set, and what the
    others check is kernel code that the Debian 12 lanes' runs take."""
    callspec = getattr(item, "callspec", None)
    kver = callspec.params.get("kver") if callspec else None
    if not kver or not on_lane(short_name(kver)):
        return
    short = short_name(kver)
    marker = item.get_closest_marker("lanes")
    if not marker or not lane_matches(marker.args, short):
        pytest.skip("not a test of the lane %s (CI time: the Debian 12 "
                    "lanes take its kernel code paths; mark it lanes(...) "
                    "or give its scenario a lanes: key to run it here)"
                    % short)


def selected_kernels(config):
    wanted = list(config.getoption("stt_kernel"))
    if not wanted and os.environ.get("STT_KERNELS"):
        wanted = [k.strip() for k in os.environ["STT_KERNELS"].split(",")
                  if k.strip()]
    kernels = installed_kernels()
    if wanted:
        kernels = [(s, r) for s, r in kernels if s in wanted or r in wanted]
    return kernels


def pytest_collection_modifyitems(items):
    """Debug-kernel runs first: they take about twice as long, and with two
    guests at a time the longest ones started last would leave one worker
    idle at the end."""
    items.sort(key=lambda item: not item.name.endswith("-debug]"))


def ipv6_lane(cases):
    """--stt-underlay ipv6: (case, skip reason or None) for each case of
    the suite: a case of a script that runs over either family over IPv6,
    on the kernels of its IPv4 case (so the lane covers what the suite
    does); the cases that name a family already are the lane's own."""
    for case in cases:
        if case.family:
            continue
        if case.runs_over_either:
            yield case.over_ipv6(), None
        else:
            kind, _, why = case.option("underlay", "ipv4 only").partition(":")
            what = "both families in the suite's own run" if kind == "both" \
                else "IPv4 underlay only"
            yield case, what + (": " + why.strip() if why else "")


def pytest_generate_tests(metafunc):
    # The case first, so that ids end with the kernel ("dev_dev-6.12-debug"),
    # as pytest_collection_modifyitems expects.
    if "case" in metafunc.fixturenames:
        cases = scenario_cases.all_cases(SCENARIOS)
        if metafunc.config.getoption("stt_underlay") == "ipv6":
            lane = list(ipv6_lane(cases))
        else:
            lane = [(case, None) for case in cases]
        params = []
        for case, skip in lane:
            marks = [pytest.mark.lanes(*case.lanes)] if case.lanes else []
            if skip:
                marks.append(pytest.mark.skip(reason=skip))
            params.append(pytest.param(case, id=case.name, marks=marks))
        metafunc.parametrize("case", params)
    if "kver" in metafunc.fixturenames:
        kernels = selected_kernels(metafunc.config)
        metafunc.parametrize("kver", [r for _, r in kernels],
                             ids=[s for s, _ in kernels])


def short_name(release):
    for short, known in installed_kernels():
        if known == release:
            return short
    m = re.match(r"(\d+\.\d+)", release)
    return m.group(1) if m else release


def modules_env_name(short):
    """STT_MODULES_6_12_debug for 6.12-debug: a name the shell can set."""
    return "STT_MODULES_" + re.sub(r"[^A-Za-z0-9]", "_", short)


def modules_dir(config, release):
    """The module build directory for a kernel, or None if none was given."""
    short = short_name(release)
    for item in config.getoption("stt_modules"):
        key, sep, path = item.partition("=")
        if not sep:
            raise pytest.UsageError("--stt-modules wants KVER=DIR, got %r"
                                    % item)
        if key in (short, release):
            return os.path.abspath(path)
    env = os.environ.get(modules_env_name(short))
    if env:
        return os.path.abspath(env)
    template = config.getoption("stt_modules_dir")
    if template:
        return os.path.abspath(template.format(short=short, release=release))
    return None


class Scenario:
    """Runs scenario scripts on one kernel through run-guest."""

    def __init__(self, config, release, test_name, node=None):
        self.config = config
        self.release = release
        self.node = node
        self.test_name = re.sub(r"[^A-Za-z0-9_.-]+", "-", test_name).strip("-")

    def modules(self):
        """The STT module build directory for this kernel; fails the test
        when it was not given or lacks stt.ko or vport-stt.ko (the standin
        where the kernel has no legacy vport types)."""
        short = short_name(self.release)
        required = ("stt.ko", "vport-stt.ko")
        path = modules_dir(self.config, self.release)
        how = ("pass --stt-modules %s=DIR or --stt-modules-dir TEMPLATE, "
               "or set %s" % (short, modules_env_name(short)))
        if path is None:
            pytest.fail("no STT module build directory for kernel %s (%s); "
                        "%s" % (short, self.release, how), pytrace=False)
        missing = [f for f in required
                   if not os.path.isfile(os.path.join(path, f))]
        if not os.path.isdir(path) or missing:
            pytest.fail("STT module build directory for kernel %s is missing "
                        "or incomplete: %s (missing: %s); build the modules "
                        "for %s or %s" % (short, path, ", ".join(missing)
                                          or "the directory", self.release,
                                          how), pytrace=False)
        return path

    def on_debug_kernel_instead(self):
        """Runs the scenario on the debug test kernel rather than on the
        distro kernel it was built from (6.12-debug, not 6.12) when both
        are selected: the same Debian source, with KASAN, kmemleak and
        lockdep watching.  For the scenarios whose kernel paths are
        memory lifetimes (reassembly, hostile input, teardown under
        traffic); the distro kernel of that series then runs the rest,
        and the suite runs each scenario once per kernel series."""
        short = short_name(self.release)
        debug = short + "-debug"
        if any(s == debug for s, _ in selected_kernels(self.config)):
            pytest.skip("runs on %s, the same source with KASAN, kmemleak "
                        "and lockdep" % debug)

    def only_on_debug_kernel(self, covered_by):
        """Skips the test on Debian's kernels, where COVERED_BY (tests or
        scenarios) check what it checks; it runs where KASAN, kmemleak and
        lockdep watch its kernel paths."""
        if not short_name(self.release).endswith("-debug"):
            pytest.skip("on Debian's kernels, %s check the same" % covered_by)

    def on_newest_selected_distro_kernel(self):
        """Whether this is the newest Debian 12 kernel of this session's
        selection: for tests whose outcome does not depend on the kernel
        series (another project's own tests), which run on one only."""
        distro = [r for s, r in selected_kernels(self.config)
                  if "-" not in s]
        return bool(distro) and self.release == distro[-1]

    def on_lane(self):
        """Whether this is a lane of another Debian release, whose guest has
        that root as its / (and so not the host's /lib/modules)."""
        return on_lane(short_name(self.release))

    def skip_on_debug_kernel(self, covered_by):
        """Skips the test on the debug test kernel: the debug-kernel runs of
        COVERED_BY (scenario names) take every kernel code path its scenario
        takes, so KASAN, lockdep and kmemleak would check nothing new there,
        and that kernel's runs are what the suite's time goes to."""
        if short_name(self.release).endswith("-debug"):
            pytest.skip("on the debug kernel, %s take its code paths"
                        % covered_by)

    def results_dir(self):
        """Where run-guest leaves this test's files."""
        return os.path.join(self.config.getoption("stt_results"),
                            "%s-%s" % (self.test_name,
                                       short_name(self.release)))

    def invoke(self, script, *args, modules_dir=None, timeout=300,
               append=(), cpus=DEFAULT_CPUS, nics=()):
        """Boot the kernel with CPUS CPUs and run SCRIPT (a path, or a name
        in scenarios/) with ARGS, APPEND added to the kernel command line
        and an emulated NIC per item of NICS (run-guest --nic, e.g.
        ("e1000e", "virtio-net-pci,mrg_rxbuf=off")).  Returns (completed
        run-guest process, parsed result.json or None)."""
        if not os.path.isabs(script):
            script = os.path.join(SCENARIOS, script)
        results = self.results_dir()
        timeout *= self.config.getoption("stt_timeout_scale")
        if short_name(self.release).endswith("-debug"):
            timeout *= DEBUG_KERNEL_SLOWDOWN
        cmd = [RUN_GUEST, "--kernel", self.release, "--results", results,
               "--timeout", str(int(timeout)), "--smp", str(cpus)]
        dirs = [modules_dir] if isinstance(modules_dir, str) else \
            list(modules_dir or [])
        for d in dirs:
            cmd += ["--modules", d]
        for word in append:
            cmd += ["--append", word]
        for nic in nics:
            cmd += ["--nic", nic]
        cmd += ["--", script] + [str(a) for a in args]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        print(proc.stdout + proc.stderr)
        try:
            with open(os.path.join(results, "result.json")) as f:
                result = json.load(f)
        except (OSError, ValueError):
            result = None
        if self.node is not None:
            self.node.user_properties.append(("guest_run", (
                os.path.basename(script), short_name(self.release), result)))
        return proc, result

    def run(self, script, *args, modules_dir=None, timeout=300,
            cpus=DEFAULT_CPUS, nics=()):
        """Like invoke(), but fail the test with the rig's report unless the
        scenario passed.  Returns the parsed result.json."""
        proc, result = self.invoke(script, *args, modules_dir=modules_dir,
                                   timeout=timeout, cpus=cpus, nics=nics)
        if proc.returncode != 0 or not result or result["verdict"] != "PASS":
            pytest.fail("%s on %s failed:\n%s" % (
                os.path.basename(script), self.release,
                proc.stdout + proc.stderr), pytrace=False)
        return result


@pytest.fixture
def scenario(request, kver):
    """Scenario runner for the test's kernel:
    scenario.run("vxlan-smoke.sh"), scenario.modules()."""
    name = request.node.originalname
    callspec = getattr(request.node, "callspec", None)
    if callspec and "case" in callspec.params:
        name = "test_" + callspec.params["case"].name
    return Scenario(request.config, kver, name, request.node)

