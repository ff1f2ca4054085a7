# SPDX-License-Identifier: GPL-2.0
"""pytest driver for the guest rig (run-guest).

Every guest test is parametrized over the installed distro kernels (ids "6.1",
"6.12", ...) and runs one scenario script in a QEMU guest, a fresh one or
one it shares with other cases (batches, below):

    /usr/bin/python3 -m pytest tests/guest -v

Options (each also has an environment variable, for scripts and CI):

  --stt-modules KVER=DIR   directory of .ko files built for kernel KVER (short
                           "6.1" or full release), repeatable.
                           env: STT_MODULES_6_1=DIR, STT_MODULES_6_12=DIR, ...
  --stt-modules-dir TMPL   the same for all kernels at once, a path template
                           with {short} and/or {release}, e.g.
                           _build/{short}/datapath/linux.
                           env: STT_MODULES_DIR=TMPL
  --stt-kernel KVER        only these kernels (repeatable; short name or
                           release).  env: STT_KERNELS (comma-separated).  A
                           name run-guest --list-kernels does not list is an
                           error.
  --stt-results DIR        where each test's results go, as DIR/TEST-KVER
                           (default /var/tmp/stt-results).  env: STT_RESULTS_DIR
  --stt-timeout-scale F    multiply every scenario timeout by F (slow or busy
                           machines).  env: STT_TIMEOUT_SCALE
  --stt-partial            run the scenario cases the selected kernels run,
                           listing those that run on none instead of failing
  --stt-require-kernel KVER  fail unless KVER is selected (repeatable;
                           tests/run-tests names the suite's matrix)
  --stt-modules-version V  every module build the tests load must report
                           version V (tests/run-tests: build-aux/stt-version's)
  --stt-no-batch           boot a guest per scenario case (for debugging)

An explicit KVER=DIR wins over the template.  A test that needs the STT
modules fails, naming the kernel and what to pass, when none are given.

The matrix is checked before any guest boots: each scenario case runs where
its header's "kernels:" and "lanes:" keys put it among the selected kernels
(scenario_cases.placement()), and the run stops, listing them, when a case
pytest kept (not deselected by -k or -m) would run on none of them, unless
--stt-partial says that is meant.

Scenario cases share guest boots: after collection and deselection, the
selected cases of one kernel, module set, CPU count and NICs are grouped
into batches of up to BATCH_SECONDS of expected time (a case whose header
says "batch: alone" boots alone), each batch pinned to one pytest-xdist
worker (--dist loadgroup, xdist_group markers) and run by run-guest --batch
when its first case executes; every case then gets its own result and
verdict.

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
from scenario_cases import kernel_kind, lane_matches

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
    tr = terminalreporter
    unplaced = tr.config.stash.get(UNPLACED, None)
    if unplaced:
        tr.section("scenario cases run on no selected kernel (--stt-partial)")
        for line in unplaced:
            tr.write_line(line)
    runs = guest_runs(terminalreporter)
    if not runs:
        return
    tr.section("guest runs (seconds)")
    tr.write_line("%-24s %-6s %-6s %6s %6s %6s %6s" % (
        "scenario", "kernel", "result", "boot", "run", "total", "cpu"))
    total = cpu = 0.0
    for script, kernel, result in runs:
        sec = (result or {}).get("seconds", {})
        total += sec.get("total", 0)
        cpu += sec.get("cpu", 0)
        tr.write_line("%-24s %-6s %-6s %6s %6s %6s %6s" % (
            script, kernel, (result or {}).get("verdict", "?"),
            sec.get("boot_to_scenario", "-"), sec.get("scenario", "-"),
            sec.get("total", "-"), sec.get("cpu", "-")))
    # CPU time below wall time is a guest asleep: a core left idle unless
    # another guest runs beside it.
    tr.write_line("%d guest runs, %.0f s in QEMU, %.0f s of it on a host "
                  "CPU (%.0f%%)" % (len(runs), total, cpu,
                                   100 * cpu / total if total else 0))
    # A batch's runs share one boot (run-guest --batch); a run without a
    # result.json had one of its own.
    boots = {(result or {}).get("boot", {}).get("id") or i
             for i, (_, _, result) in enumerate(runs)}
    crashes = sum(len((result or {}).get("boot_crashes", []))
                  for _, _, result in runs)
    tr.write_line("%d guest boots for them%s" % (
        len(boots) + crashes, " (%d of them stopped before init and were "
        "booted again)" % crashes if crashes else ""))
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
    group.addoption("--stt-partial", action="store_true",
                    help="run what the selected kernels run, listing the "
                         "scenario cases that run on none of them instead "
                         "of stopping")
    group.addoption("--stt-require-kernel", action="append", default=[],
                    metavar="KVER",
                    help="stop unless the run selects KVER (repeatable)")
    group.addoption("--stt-modules-version", metavar="VERSION",
                    help="the version every module build a test loads must "
                         "report (modinfo), e.g. build-aux/stt-version's")
    group.addoption("--stt-no-batch", action="store_true",
                    help="boot a guest for each scenario case rather than "
                         "one for each batch of cases that can share one")


# Scenario timeouts are multiplied by this on the debug test kernel (KASAN,
# lockdep and kmemleak under software emulation).
DEBUG_KERNEL_SLOWDOWN = 3

# Guest CPUs unless a test asks for more.  Two guests run at a time on a
# 2-core host: with one CPU each, each has a core (two-CPU guests took 1.7
# times as long side by side), and no CPU can run code that another is
# patching (emulation has crashed guests in a static key's int3).  Tests
# about concurrency ask for two.
DEFAULT_CPUS = 1
# MiB of the debug kernel's guests, against run-guest's 3072 for the
# others: kmemleak's two scans after each run read every page's struct page,
# so they take time in proportion to memory (measured: 34 s at 3072 MiB,
# 17 s at 1024), and the debug kernel's transfers are an eighth of the
# others' (lib.sh's transfer_mib).
DEBUG_KERNEL_MEMORY = 1536


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
    return [r for s, r in installed_kernels() if kernel_kind(s) == "distro"]


def newest_distro_kernel():
    """The release of the newest distro kernel of the host, for tests that
    one kernel is enough for."""
    return (distro_kernels() or [None])[-1]


def has_legacy_vports(release):
    """Whether kernel RELEASE's Open vSwitch exports
    __ovs_vport_ops_register, for vport-stt.ko to register vport type 106
    with (Debian's 7.3 has no legacy vport types: stt.ko alone is built
    there), as its modules.symbols says; a kernel without that index in
    its guest's root (the debug kernel, whose modules stay in its tree) is
    taken to have them."""
    path = os.path.join(guest_root(release), "lib/modules", release,
                        "modules.symbols")
    try:
        with open(path) as f:
            return "symbol:__ovs_vport_ops_register " in f.read()
    except FileNotFoundError:
        return True


def on_lane(short):
    """Whether the kernel SHORT is a lane's ("7.3-deb13", "7.2-deb14-ovs40"):
    another root's kernel, which the guest boots with that root as its /."""
    return kernel_kind(short) == "lane"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "lanes(PATTERN, ...): the test runs on the lanes of "
        "other Debian releases whose kernel a PATTERN matches (6.12-deb13, "
        "7.3-deb13, 7.2-deb14, 7.2-deb14-ovs40; shell wildcards) too; every "
        "other test skips there")
    # A wrong name stops the run here, before any collection or worker.
    if config.getoption("stt_kernel") or os.environ.get("STT_KERNELS") or \
            config.getoption("stt_require_kernel") or \
            config.getoption("stt_modules") or \
            any(n.startswith("STT_MODULES_") and n != "STT_MODULES_DIR"
                for n in os.environ):
        selected_kernels(config)


def pytest_runtest_setup(item):
    """Skips a test on a lane unless it is marked lanes() with a pattern of
    that lane's kernel: CI time allows each lane a chosen set, and what the
    others check is kernel code that the Debian 12 lanes' runs take."""
    callspec = getattr(item, "callspec", None)
    kver = callspec.params.get("kver") if callspec else None
    if kver and not runs_on_its_lane(item, short_name(kver)):
        pytest.skip("not a test of the lane %s (CI time: the Debian 12 "
                    "lanes take its kernel code paths; mark it lanes(...) "
                    "or give its scenario a lanes: key to run it here)"
                    % short_name(kver))


def runs_on_its_lane(item, short):
    """Whether ITEM runs on kernel SHORT as far as lanes go: any test on a
    Debian 12 kernel, a test on a lane only when marked lanes(...) with a
    pattern of it."""
    marker = item.get_closest_marker("lanes")
    return not on_lane(short) or bool(marker and
                                      lane_matches(marker.args, short))


def listing():
    """The kernels run-guest lists, for a message."""
    return ", ".join("%s (%s)" % k for k in installed_kernels()) or \
        "none: run-guest --list-kernels lists no kernel"


def stray_modules_env():
    """STT_MODULES_* variables of the environment that name no module
    directory variable this file reads (a mistyped kernel)."""
    known = {modules_env_name(s) for s, _ in installed_kernels()} | \
        {"STT_MODULES_DIR"}
    return sorted(name for name in os.environ
                  if name.startswith("STT_MODULES_") and name not in known)


@functools.lru_cache(maxsize=None)
def selected_kernels(config):
    """[(short, release)] of the kernels this run selects: those
    --stt-kernel (else STT_KERNELS) names by short name or release, or all
    that run-guest lists.  A name of no kernel, and a kernel that
    --stt-require-kernel requires but the run does not select, are errors
    (pytest.UsageError), as is a module override (--stt-modules KVER=DIR,
    STT_MODULES_KVER) for no kernel: each would shrink the run
    unseen."""
    wanted, how = list(config.getoption("stt_kernel")), "--stt-kernel"
    if not wanted and os.environ.get("STT_KERNELS"):
        wanted = [k.strip() for k in os.environ["STT_KERNELS"].split(",")]
        how = "STT_KERNELS=" + os.environ["STT_KERNELS"]
    kernels = installed_kernels()

    def known(name, among=kernels):
        return any(name in k for k in among)

    malformed = [m for m in config.getoption("stt_modules") if "=" not in m]
    if malformed:
        raise pytest.UsageError("--stt-modules wants KVER=DIR, got %s"
                                % ", ".join(repr(m) for m in malformed))
    for what, names in ((how, wanted), ("--stt-modules", [
            item.partition("=")[0] for item in config.getoption("stt_modules")
    ])):
        unknown = [k for k in names if not known(k)]
        if unknown:
            raise pytest.UsageError(
                "%s names no kernel run-guest --list-kernels lists: %s; the "
                "kernels: %s" % (what, ", ".join(repr(k) for k in unknown),
                                 listing()))
    stray = stray_modules_env()
    if stray:
        raise pytest.UsageError(
            "%s in the environment names no kernel (the kernels: %s; "
            "variables STT_MODULES_6_12, STT_MODULES_6_12_debug, ...)"
            % (", ".join(stray), listing()))
    if wanted:
        kernels = [k for k in kernels if k[0] in wanted or k[1] in wanted]
    missing = [k for k in config.getoption("stt_require_kernel")
               if not known(k, kernels)]
    if missing:
        raise pytest.UsageError(
            "the run must cover the kernels %s (--stt-require-kernel: the "
            "suite's matrix), but it does not select %s; selected: %s; "
            "the kernels: %s" % (
                " ".join(config.getoption("stt_require_kernel")),
                ", ".join(missing), " ".join(s for s, _ in kernels)
                or "none", listing()))
    return kernels


@functools.lru_cache(maxsize=None)
def scenario_matrix(config):
    """{pytest id of a test_scenario case on a kernel ("dev_dev-6.12"):
    (case, release, why it does not run there or None, and whether the
    matrix check counts it)}, for every declared case on every selected
    kernel.  Under --stt-underlay ipv6 the cases that lane leaves out are
    not counted: the user chose that lane."""
    cases = scenario_cases.all_cases(SCENARIOS)
    if config.getoption("stt_underlay") == "ipv6":
        lane = list(ipv6_lane(cases))
    else:
        lane = [(case, None) for case in cases]
    kernels = selected_kernels(config)
    matrix = {}
    for case, left_out in lane:
        where = scenario_cases.placement(case, [s for s, _ in kernels])
        for short, release in kernels:
            matrix["%s-%s" % (case.name, short)] = (
                case, release, left_out or where[short], left_out is None)
    return matrix


# A test_scenario item's node id, its pytest id in brackets.
# (pytest-xdist's --dist loadgroup appends "@GROUP" to the ids it sees.)
SCENARIO_ID = re.compile(
    r"test_scenarios\.py::test_scenario\[(.+)\](@[^\]]*)?$")


def unplaced_cases(config, nodeids):
    """[(case, why)] of the cases that run on no kernel although pytest kept
    one of their items (NODEIDS: those that were neither deselected nor
    left out by --stt-underlay), each with why it does not run where it
    was kept.  No kernel at all places nothing."""
    ids = [m.group(1) for m in map(SCENARIO_ID.search, nodeids) if m]
    if not ids:
        return []
    matrix = scenario_matrix(config)
    kept = {}
    for id in ids:
        if id not in matrix:
            # The empty parameter set of a run without kernels.
            return [(None, "no kernel is selected; the kernels: "
                     + listing())]
        case, _, why, counted = matrix[id]
        if counted:
            kept.setdefault(case.name, (case, []))[1].append(why)
    return [(case, whys[0]) for case, whys in kept.values()
            if None not in whys]


UNPLACED = pytest.StashKey()


def check_matrix(config, nodeids):
    """Stops the run before any guest boots when a scenario case pytest kept
    would run on no selected kernel; under --stt-partial, keeps them for the
    summary."""
    unplaced = unplaced_cases(config, nodeids)
    if not unplaced:
        return
    lines = ["  %s: %s" % (case.name if case else "every case", why)
             for case, why in unplaced]
    if config.getoption("stt_partial"):
        config.stash[UNPLACED] = lines
        return
    pytest.exit(
        "%d scenario case(s) would run on no selected kernel (%s):\n%s\n"
        "Select a kernel they run on (--stt-kernel, STT_KERNELS), deselect "
        "them (-k), or pass --stt-partial to run the others alone." % (
            len(unplaced), " ".join(s for s, _ in selected_kernels(config))
            or "none", "\n".join(lines)),
        returncode=pytest.ExitCode.USAGE_ERROR)


def pytest_collection_finish(session):
    """The matrix check where the items are: in this process, unless it is
    a pytest-xdist worker (the controller checks what they collected)."""
    if not hasattr(session.config, "workerinput"):
        check_matrix(session.config, [i.nodeid for i in session.items])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """pytest-xdist's controller, which collects nothing itself, checks the
    items a worker collected before it hands out any (every worker
    collects the same)."""
    check_matrix(node.config, ids)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """After -k and -m deselected what they do (trylast), the scenario
    cases that can share a boot are grouped into batches (plan_batches());
    the order is then debug-kernel runs first, each kind the longest
    first: they take about twice as long, and with two guests at a time the
    longest ones started last would leave one worker idle at the end.  A
    batch's cases come together, where its first would."""
    batches = plan_batches(config, items)
    units = {}
    for item in items:
        batch = batches.get(item)
        units.setdefault(batch or item, []).append(item)
    # The same order in every pytest-xdist worker, or it stops the run.
    order = sorted(units.items(), key=lambda unit: (
        not unit[1][0].name.endswith("-debug]"),
        -sum(expected_seconds(config, i) for i in unit[1]),
        unit[1][0].nodeid))
    items[:] = [item for _, members in order for item in members]


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
    # Ids end with the kernel ("dev_dev-6.12-debug"), as
    # pytest_collection_modifyitems expects.
    if "case" in metafunc.fixturenames:
        params = []
        for id, (case, release, why, _) in \
                scenario_matrix(metafunc.config).items():
            marks = [pytest.mark.lanes(*case.lanes)] if case.lanes else []
            if why:
                marks.append(pytest.mark.skip(reason=why))
            params.append(pytest.param(case, release, id=id, marks=marks))
        metafunc.parametrize("case,kver", params)
    elif "kver" in metafunc.fixturenames:
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
    """(the module build directory for a kernel, the option or variable
    that gave it), or (None, None) if none did."""
    short = short_name(release)
    for item in config.getoption("stt_modules"):
        key, _, path = item.partition("=")
        if key in (short, release):
            return os.path.abspath(path), "--stt-modules " + item
    name = modules_env_name(short)
    if os.environ.get(name):
        return os.path.abspath(os.environ[name]), name
    template = config.getoption("stt_modules_dir")
    if template:
        path = template.format(short=short, release=release)
        return os.path.abspath(path), "--stt-modules-dir " + template
    return None, None


@functools.lru_cache(maxsize=None)
def module_version(path):
    """The version modinfo reads in the module at PATH ("" if none)."""
    return subprocess.run(["modinfo", "-F", "version", path],
                          capture_output=True, text=True).stdout.strip()


class Scenario:
    """Runs scenario scripts on one kernel through run-guest."""

    def __init__(self, config, release, test_name, node=None):
        self.config = config
        self.release = release
        self.node = node
        self.test_name = re.sub(r"[^A-Za-z0-9_.-]+", "-", test_name).strip("-")

    def modules(self):
        """The STT module build directory for this kernel; fails the test
        when it was not given or lacks stt.ko, or vport-stt.ko where the
        kernel has legacy vport types for it (has_legacy_vports())."""
        short = short_name(self.release)
        required = ("stt.ko", "vport-stt.ko") if \
            has_legacy_vports(self.release) else ("stt.ko",)
        path, given = modules_dir(self.config, self.release)
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
        for f in required:
            self.expect_version(module_version(os.path.join(path, f)),
                                "%s/%s (from %s)" % (path, f, given))
        return path

    def expect_version(self, version, what):
        """Fails the test unless WHAT, a module build the guest is to load,
        reports the version --stt-modules-version names (when it names
        one): a leftover directory or variable must not stand in for the
        build under test."""
        expected = self.config.getoption("stt_modules_version")
        if expected and version != expected:
            pytest.fail("%s reports version %s, but the tree under test "
                        "builds %s (--stt-modules-version, build-aux/"
                        "stt-version): build it from this tree or drop "
                        "the override" % (what, version or "none",
                                          expected), pytrace=False)

    def on_lane(self):
        """Whether this is a lane of another Debian release, whose guest has
        that root as its / (and so not the host's /lib/modules)."""
        return on_lane(short_name(self.release))

    def results_dir(self):
        """Where run-guest leaves this test's files."""
        return os.path.join(self.config.getoption("stt_results"),
                            "%s-%s" % (self.test_name,
                                       short_name(self.release)))

    def timeout(self, seconds):
        """A scenario's timeout on this kernel."""
        return int(scaled_timeout(self.config, self.release, seconds))

    def guest_command(self, results, modules_dir, append, cpus, nics):
        """run-guest's command line up to its scenario or --batch."""
        cmd = [RUN_GUEST, "--kernel", self.release, "--results", results,
               "--smp", str(cpus)]
        if short_name(self.release).endswith("-debug"):
            cmd += ["--memory", str(DEBUG_KERNEL_MEMORY)]
        dirs = [modules_dir] if isinstance(modules_dir, str) else \
            list(modules_dir or [])
        for d in dirs:
            cmd += ["--modules", d]
        for word in append:
            cmd += ["--append", word]
        for nic in nics:
            cmd += ["--nic", nic]
        return cmd

    def record(self, script, result):
        """RESULT (result.json's, or None) for the summary's table."""
        if self.node is not None:
            self.node.user_properties.append(("guest_run", (
                os.path.basename(script), short_name(self.release), result)))

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
        cmd = self.guest_command(results, modules_dir, append, cpus, nics)
        cmd += ["--timeout", str(self.timeout(timeout)), "--", script]
        cmd += [str(a) for a in args]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        print(proc.stdout + proc.stderr)
        result = read_result(results)
        self.record(script, result)
        return proc, result

    def invoke_batch(self, name, runs, modules_dir=None, append=(),
                     cpus=DEFAULT_CPUS, nics=()):
        """Boot the kernel once and run RUNS one after another in it
        (run-guest --batch; the boot's own files in --stt-results'
        boot-NAME): each a (Scenario of the run's test, script, [args],
        timeout).  Returns (completed run-guest process, [each run's
        result.json or None])."""
        share = os.path.join(self.config.getoption("stt_results"),
                             "boot-" + name)
        os.makedirs(share, exist_ok=True)
        listing = [{"scenario": script if os.path.isabs(script) else
                    os.path.join(SCENARIOS, script),
                    "args": [str(a) for a in args],
                    "results": run.results_dir(),
                    "timeout": run.timeout(timeout)}
                   for run, script, args, timeout in runs]
        path = os.path.join(share, "runs.json")
        with open(path, "w") as f:
            json.dump(listing, f, indent=2)
        cmd = self.guest_command(share, modules_dir, append, cpus, nics)
        proc = subprocess.run(cmd + ["--batch", path], capture_output=True,
                              text=True)
        return proc, [read_result(r["results"]) for r in listing]

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


def read_result(results):
    """The result.json run-guest left in RESULTS, or None."""
    try:
        with open(os.path.join(results, "result.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# Batches: the scenario cases that can share a boot (same kernel, module
# set, CPUs and NICs; not "batch: alone") run in one guest, in groups of up
# to BATCH_SECONDS of expected time, so that the two workers of
# tests/run-tests stay balanced; a case is expected to take
# EXPECTED_FRACTION of its timeout (the timeouts are bounds for a busy
# machine: runs measured took a fifth to a half of theirs).
BATCH_SECONDS = 900
EXPECTED_FRACTION = 1 / 3
BATCHES = pytest.StashKey()


def scaled_timeout(config, release, seconds):
    """SECONDS of a scenario's timeout on kernel RELEASE: scaled by
    --stt-timeout-scale, and on the debug kernel."""
    seconds *= config.getoption("stt_timeout_scale")
    if short_name(release).endswith("-debug"):
        seconds *= DEBUG_KERNEL_SLOWDOWN
    return seconds


def scenario_case(item):
    """(case, release) of a test_scenario item, or (None, None)."""
    callspec = getattr(item, "callspec", None)
    if not callspec or "case" not in callspec.params:
        return None, None
    return callspec.params["case"], callspec.params["kver"]


def expected_seconds(config, item):
    """How long ITEM's guest is expected to run (0: not a scenario case)."""
    case, release = scenario_case(item)
    if not case:
        return 0
    return scaled_timeout(config, release, case.timeout) * EXPECTED_FRACTION


def boot_key(config, item):
    """What a guest of ITEM must share with the others of its batch (kernel,
    CPUs, NICs, modules), or None when it boots alone: not a scenario
    case, a case that skips or says "batch: alone"."""
    case, release = scenario_case(item)
    if not case or case.alone is not None or \
            item.get_closest_marker("skip"):
        return None
    short = short_name(release)
    if not runs_on_its_lane(item, short):
        return None
    host = case.option("host")
    if host == "ovs-basic" and config.getoption("stt_packaged") and \
            not on_lane(short):
        modules = "packaged"
    else:
        modules = "build" if host or case.needs_modules else "none"
    return release, case.cpus or DEFAULT_CPUS, case.nics, modules


class Batch:
    """Scenario cases that run in one boot: the first to execute runs
    them all (run()), and each then takes its own result (check())."""

    def __init__(self, name, items):
        self.name = name
        self.items = items
        self.outcomes = None

    def run(self, config, prepare):
        """PREPARE(scenario, case) gives each case's run (see
        test_scenarios.case_run()) or fails it; the cases whose runs
        boot alike run in one guest."""
        outcomes = {}
        try:
            self.run_groups(config, prepare, outcomes)
        except Exception as e:
            # Every case of the batch gets the error, not a KeyError.
            for item in self.items:
                outcomes.setdefault(item, e)
            raise
        finally:
            self.outcomes = outcomes

    def run_groups(self, config, prepare, outcomes):
        groups = {}
        for item in self.items:
            case, release = scenario_case(item)
            scenario = Scenario(config, release, "test_" + case.name)
            try:
                run = prepare(scenario, case)
            except pytest.fail.Exception as e:
                outcomes[item] = e
                continue
            boots = (run["modules_dir"], run["cpus"], run["nics"])
            groups.setdefault(boots, []).append((item, scenario, run))
        for n, members in enumerate(groups.values()):
            _, scenario, run = members[0]
            name = self.name + ("-%d" % n if n else "")
            proc, results = scenario.invoke_batch(
                name, [(sc, r["script"], r["args"], r["timeout"])
                       for _, sc, r in members],
                modules_dir=run["modules_dir"], cpus=run["cpus"],
                nics=run["nics"])
            for (item, scenario, run), result in zip(members, results):
                outcomes[item] = (scenario, run, proc, result, name,
                                  len(members))

    def check(self, item, config, prepare):
        """ITEM's own verdict: passes, or fails with its run's report."""
        if self.outcomes is None:
            self.run(config, prepare)
        outcome = self.outcomes[item]
        if isinstance(outcome, BaseException):
            raise outcome
        scenario, run, proc, result, boot, runs = outcome
        scenario.node = item
        scenario.record(run["script"], result)
        try:
            with open(os.path.join(scenario.results_dir(),
                                   "report.txt")) as f:
                report = f.read()
        except OSError:
            report = proc.stdout + proc.stderr
        # The batch's own boot, or one of those it split into (cases
        # whose runs boot differently).
        print("%s (one of %d runs of the boot %s)" % (report, runs, boot))
        if not result or result["verdict"] != "PASS":
            pytest.fail("%s on %s failed:\n%s" % (
                os.path.basename(run["script"]), scenario.release, report),
                pytrace=False)


def plan_batches(config, items):
    """{item: Batch} for the scenario cases among ITEMS that share a boot
    with others: per boot_key(), first-fit by expected time, the longest
    first, up to BATCH_SECONDS each.  Each batch's cases get the marker
    xdist_group(NAME), so that pytest-xdist's --dist loadgroup hands them to
    one worker.  --stt-no-batch, and pytest-xdist without loadgroup (which
    would split a batch over workers), batch nothing."""
    if config.getoption("stt_no_batch") or (
            hasattr(config, "workerinput") and
            not getattr(config.option, "loadgroup", False)):
        return {}
    groups = {}
    for item in items:
        key = boot_key(config, item)
        if key:
            groups.setdefault(key, []).append(item)
    batches = {}
    count = {}
    for key, members in groups.items():
        bins = []
        for item in sorted(members, key=lambda i: -expected_seconds(config,
                                                                     i)):
            seconds = expected_seconds(config, item)
            for b in bins:
                if b[0] + seconds <= BATCH_SECONDS:
                    b[0] += seconds
                    b[1].append(item)
                    break
            else:
                bins.append([seconds, [item]])
        for _, members in bins:
            if len(members) < 2:
                continue
            short = short_name(key[0])
            count[short] = count.get(short, 0) + 1
            batch = Batch("%s-%d" % (short, count[short]), members)
            for item in members:
                item.add_marker(pytest.mark.xdist_group(batch.name))
                # What pytest-xdist does for the marker in its own hook,
                # which runs before -k's deselection (and so before this).
                # An item's hash is its node id's: first the id, then the
                # item into the dict.
                if getattr(config.option, "loadgroup", False):
                    item._nodeid = "%s@%s" % (item.nodeid, batch.name)
                batches[item] = batch
    config.stash[BATCHES] = batches
    return batches


def batch_of(item):
    """The Batch ITEM runs in, or None when it boots alone."""
    return item.config.stash.get(BATCHES, {}).get(item)


@pytest.fixture
def scenario(request, kver):
    """Scenario runner for the test's kernel:
    scenario.run("vxlan-smoke.sh"), scenario.modules()."""
    name = request.node.originalname
    callspec = getattr(request.node, "callspec", None)
    if callspec and "case" in callspec.params:
        name = "test_" + callspec.params["case"].name
    return Scenario(request.config, kver, name, request.node)

