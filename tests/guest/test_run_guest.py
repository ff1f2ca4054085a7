# SPDX-License-Identifier: GPL-2.0
"""run-guest refuses a --batch file it cannot run, before anything boots,
saying which run and which key is wrong (exit status 2); and it sees a
guest that does not power off after its last run (with a stand-in for
QEMU)."""

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys

import pytest

RUN_GUEST = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "run-guest")


def run_guest(*args):
    return subprocess.run([sys.executable, RUN_GUEST, *args],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("runs,says", [
    ([], "not a list of runs"),
    ([3], "run 1 is not an object"),
    ([{"scenario": "x.sh", "results": "r1"}], "run 1 has no timeout"),
    ([{"scenario": "x.sh", "results": "r1", "timeout": "soon"}],
     "run 1: timeout 'soon' is not a number of seconds"),
    ([{"scenario": "x.sh", "results": "r1", "timeout": 5},
      {"scenario": "x.sh", "results": "r2", "timeout": 5, "args": "-v"}],
     "run 2: args is not a list of strings"),
    ([{"scenario": "x.sh", "results": "r1", "timeout": 5},
      {"scenario": "x.sh", "results": "r1", "timeout": 5}],
     "each run needs a results directory of its own"),
], ids=["empty", "not-object", "no-timeout", "timeout-text", "args-text",
        "shared-results"])
def test_bad_batch_refused(tmp_path, runs, says):
    kernels = run_guest("--list-kernels").stdout.split()
    if not kernels:
        pytest.skip("no kernel installed for run-guest to resolve")
    for run in runs:
        if isinstance(run, dict):
            run["results"] = str(tmp_path / run["results"])
    batch = tmp_path / "runs.json"
    batch.write_text(json.dumps(runs))
    proc = run_guest("--kernel", kernels[0], "--results",
                     str(tmp_path / "boot"), "--batch", str(batch))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "--batch %s: %s" % (batch, says) in proc.stderr, proc.stderr


def run_guest_module():
    """run-guest, loaded as a module."""
    loader = importlib.machinery.SourceFileLoader("run_guest", RUN_GUEST)
    spec = importlib.util.spec_from_loader("run_guest", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


# A stand-in for QEMU: guest-init's markers of one run, then power-off
# at once or never.
FAKE_GUEST = """
import sys, time
for mark in ("started: x.sh", "finished with status 0 after 0.1 s", "done"):
    print("stt-guest: run 1/1 " + mark, flush=True)
if sys.argv[1] == "hang":
    time.sleep(60)
"""


@pytest.mark.parametrize("power_off,hung", [("off", False), ("hang", True)])
def test_guest_that_does_not_power_off_is_seen(tmp_path, power_off, hung):
    """A guest whose last run is done but that does not power off within
    POWEROFF_GRACE is stopped, and the boot says so (run-guest fails that
    run), rather than passing like one that powered off."""
    rig = run_guest_module()
    rig.POWEROFF_GRACE = 2
    booted = rig.boot([sys.executable, "-c", FAKE_GUEST, power_off],
                      str(tmp_path / "console.log"), [30], False)
    assert booted.done() == 1 and booted.timed_out is None
    assert booted.poweroff_hung == hung
    assert booted.wall < 20
