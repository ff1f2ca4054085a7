# SPDX-License-Identifier: GPL-2.0
"""lib.sh's own flow helpers, run on the host in a scratch scenario (no
guest, no namespace): a scenario tears itself down once, from its own
shell, however its background jobs end, and a background command that
outlives its wait is ended and said."""

import os
import subprocess

LIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib.sh")

# Fifty background commands that end at once, each waited for: every wait
# kills a watchdog that may not have left its fork yet.  The kernel log is
# the host's, not this scenario's: not checked here.
SCENARIO = """\
set -eu
. "{lib}"
check_kernel_log() {{ :; }}
for i in $(seq 50); do
	background "$WORK/job.log" true
	wait_background "$BG_PID" "$WORK/job.log" 30
done
touch "$WORK/still-here"
[ -e "$WORK/still-here" ] || fail "the scenario's directory went away"
log "all waited for"
"""


def run_scenario(tmp_path, name, text):
    """Runs TEXT as scenario NAME.sh: (exit status, its output)."""
    script = tmp_path / (name + ".sh")
    script.write_text(text.format(lib=LIB))
    run = subprocess.run(["bash", str(script)], capture_output=True,
                         text=True, timeout=120,
                         env=dict(os.environ, STT_RESULTS=str(tmp_path)))
    return run.returncode, run.stdout + run.stderr


def test_background_jobs_never_clean_up(tmp_path):
    status, out = run_scenario(tmp_path, "quick-jobs", SCENARIO)
    assert status == 0, out
    assert "all waited for" in out
    assert out.count("cleaning up") == 1, out
    assert out.count("PASS quick-jobs") == 1, out


OUTLIVED = """\
set -eu
. "{lib}"
check_kernel_log() {{ :; }}
background "$WORK/job.log" sleep 600
if wait_background "$BG_PID" "$WORK/job.log" 1; then
	fail "a command that outlived its wait passed"
fi
log "ended: $(kill -0 "$BG_PID" 2> /dev/null && echo no || echo yes)"
"""


def test_background_job_outliving_its_wait(tmp_path):
    status, out = run_scenario(tmp_path, "long-job", OUTLIVED)
    assert status == 0, out
    assert "still running after 1 s" in out, out
    assert "ended: yes" in out and "PASS long-job" in out, out
