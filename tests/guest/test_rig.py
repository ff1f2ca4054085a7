# SPDX-License-Identifier: GPL-2.0
"""Self-tests of the guest rig: it passes what should pass and fails, with the
right reason, what should fail."""

import lzma
import os

import pytest

from conftest import GUEST_DIR, Scenario, newest_distro_kernel

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
