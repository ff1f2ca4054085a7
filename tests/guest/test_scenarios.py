# SPDX-License-Identifier: GPL-2.0
"""Every scenario's guest tests, per kernel, as each scenario's header
declares them (scenario_cases.py says how):

    /usr/bin/python3 -m pytest -v tests/guest/test_scenarios.py \\
        --stt-modules-dir '_build/{short}/datapath/linux'
    # one scenario's cases: -k dev_dev;  one kernel: --stt-kernel 6.12

Each case runs its script in scenarios/ in a guest of its own or in one it
shares with the other cases of its batch (conftest.plan_batches()), on the
kernels its header's "kernels:" and "lanes:" keys put it among those
selected (scenario_cases.placement(); a case that would run on none stops
the run, conftest.py); a case fails, naming what to pass, when the module
build for its kernel is missing.  Timeouts are bounds for a busy 2-core
machine, not expected durations.
"""
import os
import subprocess

import pytest

from conftest import DEFAULT_CPUS, batch_of, guest_root, short_name

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__))))


def _run_host(cmd, what):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail("%s failed:\n%s%s" % (what, proc.stdout, proc.stderr),
                    pytrace=False)
    return proc.stdout.strip()


def ovs_basic_args(scenario):
    """The stt version the guest's modules must report, and where they come
    from: with --stt-packaged, what DKMS installed on this host (the guest
    sees the host's /lib/modules), except on a lane of another Debian
    release, whose guest has its own root; otherwise the build under
    test."""
    if scenario.config.getoption("stt_packaged") and \
            not scenario.on_lane():
        version = _run_host(["dpkg-query", "-W", "-f=${Version}",
                             "stt-dkms"], "dpkg-query stt-dkms")
        scenario.expect_version(version, "the stt-dkms package installed")
        return [version, "updates/dkms"], None
    modules = scenario.modules()
    version = _run_host(["modinfo", "-F", "version",
                         os.path.join(modules, "stt.ko")], "modinfo stt.ko")
    return [version], modules


def ovs_autotest_args(scenario):
    """Open vSwitch's testsuites, built (or found current) now on the host
    from the macros of the openvswitch-source package of the guest's root
    (Debian 12's tarball on the host, Debian 13's tree in that lane's
    root); and "stt-only" in a lane: on the host's root Open vSwitch's
    stock tunnel tests run too."""
    root = guest_root(scenario.release)
    if root == "/":
        build, source = "ovs-autotest", []
    else:
        build = "ovs-autotest-" + short_name(scenario.release)
        source = ["--source", os.path.join(root, "usr/src/openvswitch")]
    build = os.path.join(REPO, "_build", build)
    _run_host([os.path.join(REPO, "ovs-glue", "autotest", "build-testsuites")]
              + source + [build], "build-testsuites")
    stock = [] if root == "/" else ["stt-only"]
    return [build] + stock, scenario.modules()


def built_ovs40_prefix():
    """The prefix of Open vSwitch 4.0 with the STT series that build-ovs
    built on the host; fails the case when it is not built (build-ovs
    --if-built builds nothing): a case the matrix placed runs or fails, it
    does not skip."""
    prefix = _run_host([os.path.join(REPO, "ovs-glue", "build-ovs"),
                        "--if-built"], "ovs-glue/build-ovs --if-built")
    if not prefix:
        pytest.fail("Open vSwitch 4.0 with the STT series is not built: "
                    "run ovs-glue/build-ovs (a cold build took 7 to 14 "
                    "minutes on this 2-core machine), or deselect its "
                    "cases (-k 'not ovs40')", pytrace=False)
    return prefix


def lane_ovs40_root(scenario):
    """The root of a lane whose installed Open vSwitch is build-ovs-deb's
    packages (version VERSION+sttN); fails the case on another lane's."""
    root = guest_root(scenario.release)
    version = _run_host(["dpkg-query", "--admindir",
                         os.path.join(root, "var/lib/dpkg"), "-W",
                         "-f=${Version}", "openvswitch-switch"],
                        "dpkg-query openvswitch-switch in " + root)
    if "+stt" not in version:
        pytest.fail("the root %s has openvswitch-switch %s, not the "
                    "packages of ovs-glue/build-ovs-deb (+stt)"
                    % (root, version), pytrace=False)
    return root


def ovs40_args(scenario):
    """Where Open vSwitch 4.0 with the STT series is: build-ovs's prefix,
    or on a lane the installed packages' (/usr)."""
    if scenario.on_lane():
        lane_ovs40_root(scenario)
        return ["/usr"], scenario.modules()
    return [built_ovs40_prefix()], scenario.modules()


def ovs40_autotest_args(scenario):
    """Open vSwitch 4.0's own testsuites with the STT series: build-ovs's
    build, or on a lane the system-kmod-testsuite built (or found current)
    now on the host from the root's openvswitch-source, for the installed
    binaries."""
    if not scenario.on_lane():
        return [built_ovs40_prefix()], scenario.modules()
    root = lane_ovs40_root(scenario)
    build = os.path.join(REPO, "_build",
                         "ovs40-autotest-" + short_name(scenario.release))
    _run_host([os.path.join(REPO, "ovs-glue", "autotest", "build-testsuites"),
               "--own", "--source",
               os.path.join(root, "usr/src/openvswitch"), build],
              "build-testsuites --own")
    return [build], scenario.modules()


# A scenario header's "host: NAME": a function of the Scenario returning
# (leading arguments, module directory or None).
HOST_STEPS = {
    "ovs-basic": ovs_basic_args,
    "ovs-autotest": ovs_autotest_args,
    "ovs40": ovs40_args,
    "ovs40-autotest": ovs40_autotest_args,
}


def case_run(scenario, case):
    """What CASE runs on SCENARIO's kernel: {script, args, modules_dir,
    timeout, cpus, nics}; a host step or module build that is missing
    fails the case."""
    host = case.option("host")
    if host:
        if host not in HOST_STEPS:
            pytest.fail("%s: no host step %r (test_scenarios.HOST_STEPS)"
                        % (case.where(), host), pytrace=False)
        args, modules = HOST_STEPS[host](scenario)
    else:
        args = []
        modules = scenario.modules() if case.needs_modules else None
    # The underlay family leads, before what a host step adds.
    family = [case.family] if case.family else []
    args = family + args + case.args[len(family):]
    return {"script": case.script, "args": args, "modules_dir": modules,
            "timeout": case.timeout, "cpus": case.cpus or DEFAULT_CPUS,
            "nics": case.nics}


def test_scenario(scenario, case, request):
    # Where the case runs (its kernels: and lanes: keys) was decided at
    # collection: conftest.scenario_matrix() skipped it elsewhere; whether
    # it shares a boot with other cases, too (conftest.plan_batches()).
    batch = batch_of(request.node)
    if batch:
        batch.check(request.node, request.config, case_run)
        return
    run = case_run(scenario, case)
    scenario.run(run.pop("script"), *run.pop("args"), **run)
