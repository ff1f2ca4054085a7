# SPDX-License-Identifier: GPL-2.0
"""Self-tests of the guest rig: it passes what should pass and fails, with the
right reason, what should fail."""

import lzma
import os
import shutil

import pytest

from conftest import GUEST_DIR, Scenario, installed_kernels, \
    newest_distro_kernel

SELFTEST = os.path.join(GUEST_DIR, "selftest")


@pytest.mark.lanes("*-deb*")
def test_boot(scenario):
    """The guest offers scenarios what the rig promises (on every lane
    too, whose guest has another root)."""
    result = scenario.run(os.path.join(SELFTEST, "boot.sh"), timeout=120)
    print("boot to shell %.1f s" % result["seconds"]["boot_to_shell"])


def test_modules(scenario, tmp_path):
    """--modules DIR puts DIR/*.ko in /lib/modules/KVER/extra, ahead of the
    distro's own modules."""
    kdir = "/lib/modules/%s/kernel/drivers/net" % scenario.release
    for name in ("dummy.ko", "dummy.ko.xz"):
        src = os.path.join(kdir, name)
        if not os.path.exists(src):
            continue
        with open(src, "rb") as f:
            data = f.read()
        if name.endswith(".xz"):
            data = lzma.decompress(data)
        (tmp_path / "dummy.ko").write_bytes(data)
        break
    else:
        pytest.skip("no dummy module for " + scenario.release)
    scenario.run(os.path.join(SELFTEST, "modules.sh"), "dummy",
                 modules_dir=str(tmp_path), timeout=180)


# The rig's judgement does not depend on the kernel: one is enough.
@pytest.fixture
def newest(request):
    release = newest_distro_kernel()
    if not release:
        pytest.skip("no kernel installed")
    return Scenario(request.config, release, request.node.name, request.node)


@pytest.mark.parametrize("script,args,timeout,reason", [
    ("exit.sh", ["3"], 120, "scenario exited with status 3"),
    ("kmsg.sh", [], 120, "kernel log has"),
    ("crash.sh", [], 120, "guest stopped before the scenario finished"),
    ("hang.sh", [], 40, "timed out after 40 s"),
], ids=["exit-status", "kernel-warning", "kernel-crash", "timeout"])
def test_rig_fails(newest, script, args, timeout, reason):
    proc, result = newest.invoke(os.path.join(SELFTEST, script), *args,
                                 timeout=timeout)
    report = proc.stdout + proc.stderr
    assert proc.returncode == 1, report
    assert result["verdict"] == "FAIL", report
    assert any(reason in r for r in result["reasons"]), report
    assert "---- guest console" in proc.stdout, report


def test_rig_boots_again_once(newest):
    """A guest that stops before init (here: the initramfs cannot find the
    guest init) is booted once more, its console kept; stopping again fails
    the run."""
    proc, result = newest.invoke(os.path.join(SELFTEST, "boot.sh"),
                                 timeout=120,
                                 append=["rig.init=/no-such-guest-init"])
    report = proc.stdout + proc.stderr
    assert proc.returncode == 1, report
    assert "stopped before init" in proc.stdout, report
    assert any("guest stopped before the scenario finished" in r
               for r in result["reasons"]), report
    crashes = result["boot_crashes"]
    assert len(crashes) == 1, report
    with open(os.path.join(newest.results_dir(), crashes[0]["console"]),
              errors="replace") as f:
        assert "guest init /no-such-guest-init not found" in f.read(), report


def batch_runs(request, newest, count):
    """Scenario runners for runs 1 to COUNT of a batch of this test (each
    its own results directory)."""
    return [Scenario(request.config, newest.release,
                     "%s-run%d" % (request.node.name, n))
            for n in range(1, count + 1)]


def verdicts(results):
    return [r and r["verdict"] for r in results]


def test_batch_fails_only_the_run_that_failed(request, newest):
    """In one boot: a planted kernel warning in run 2 fails run 2 only, an
    exit status 3 in run 3 fails run 3 only; runs 1 and 4 pass, each with
    its own slice of the console and its own kernel log."""
    runs = batch_runs(request, newest, 4)
    proc, results = newest.invoke_batch(request.node.name, [
        (runs[0], os.path.join(SELFTEST, "exit.sh"), ["0"], 120),
        (runs[1], os.path.join(SELFTEST, "kmsg.sh"), [], 120),
        (runs[2], os.path.join(SELFTEST, "exit.sh"), ["3"], 120),
        (runs[3], os.path.join(SELFTEST, "boot.sh"), [], 120)])
    report = proc.stdout + proc.stderr
    assert proc.returncode == 1, report
    assert verdicts(results) == ["PASS", "FAIL", "FAIL", "PASS"], report
    assert any("kernel log has" in r for r in results[1]["reasons"]), report
    assert results[2]["reasons"] == ["scenario exited with status 3"], report
    assert {r["boot"]["id"] for r in results} == \
        {results[0]["boot"]["id"]}, report
    for run, planted in zip(runs, (False, True, False, False)):
        for name in ("console.log", "dmesg.log"):
            with open(os.path.join(run.results_dir(), name)) as f:
                assert ("planted in the kernel log" in f.read()) == \
                    planted, (run.results_dir(), name)


@pytest.mark.parametrize("script,timeout,reason", [
    ("hang.sh", 40, "timed out after 40 s"),
    ("crash.sh", 120, "guest stopped before the scenario finished"),
], ids=["timeout", "kernel-crash"])
def test_batch_after_a_dead_guest(request, newest, script, timeout, reason):
    """A run that hangs or crashes the guest fails by its own timeout or
    the guest's stop; the run after it is reported not run, a failure."""
    runs = batch_runs(request, newest, 3)
    proc, results = newest.invoke_batch(request.node.name, [
        (runs[0], os.path.join(SELFTEST, "exit.sh"), ["0"], 120),
        (runs[1], os.path.join(SELFTEST, script), [], timeout),
        (runs[2], os.path.join(SELFTEST, "exit.sh"), ["0"], 120)])
    report = proc.stdout + proc.stderr
    assert verdicts(results) == ["PASS", "FAIL", "FAIL"], report
    assert any(reason in r for r in results[1]["reasons"]), report
    assert results[2]["reasons"] == [
        "not run: the guest died in run 2 (%s)" % script], report


def test_batch_isolates_runs(request, newest, tmp_path):
    """What run 1 left (a process, a network namespace, a link and a
    datapath, openvswitch.ko and another module, a mount, files in the
    tmpfs work directories) is gone when run 2 starts, and the scenarios'
    own directory, under pytest's /tmp (a tmpfs in the guest, where the rig
    mounts it again, as for a CI clone there), stays."""
    runs = batch_runs(request, newest, 2)
    scenarios = shutil.copytree(SELFTEST, tmp_path / "selftest")
    proc, results = newest.invoke_batch(request.node.name, [
        (runs[0], os.path.join(scenarios, "leftovers.sh"), [], 120),
        (runs[1], os.path.join(scenarios, "fresh.sh"), [], 120)])
    report = proc.stdout + proc.stderr
    with open(os.path.join(runs[1].results_dir(), "scenario.log")) as f:
        report += f.read()
    assert verdicts(results) == ["PASS", "PASS"], report
    with open(os.path.join(runs[0].results_dir(), "isolation.log")) as f:
        undone = f.read()
    for what in ("killing", "deleting datapath", "deleting network "
                 "namespaces: stt-leftover", "deleting links: stt-left0",
                 "openvswitch", "unmounting /tmp/stt-leftover"):
        assert what in undone, undone


def test_debug_kernel_without_kmemleak_fails(request):
    """On the debug kernel, a run without a kmemleak report (kmemleak off)
    fails: a leak check must not pass by being absent (issue 25)."""
    debug = [r for s, r in installed_kernels() if s.endswith("-debug")]
    if not debug:
        pytest.skip("no debug kernel built (tests/debug-kernel/build)")
    scenario = Scenario(request.config, debug[0], request.node.name,
                        request.node)
    proc, result = scenario.invoke(os.path.join(SELFTEST, "exit.sh"), "0",
                                   timeout=120, append=["kmemleak=off"])
    report = proc.stdout + proc.stderr
    assert result["verdict"] == "FAIL", report
    assert "no kmemleak report on the debug kernel (kmemleak off or its " \
        "scan failed)" in result["reasons"], report
