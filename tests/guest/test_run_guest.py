# SPDX-License-Identifier: GPL-2.0
"""run-guest refuses a --batch file it cannot run, before anything boots,
saying which run and which key is wrong (exit status 2)."""

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
