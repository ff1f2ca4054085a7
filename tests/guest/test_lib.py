# SPDX-License-Identifier: GPL-2.0
"""lib.sh's own flow helpers, run on the host in a scratch scenario (no
guest, no namespace): a scenario tears itself down once, from its own
shell, however its background jobs end, and a background command that
outlives its wait is ended and said; a pipeline's match is not lost to
SIGPIPE, and no scenario ends a pipeline in a reader that leaves early."""

import glob
import os
import re
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


# A writer that goes on writing after the line that matches, as bash's
# echo does (a write per line) and a busy guest makes slow: grep -q has
# left by then, so under lib.sh's pipefail its pipeline fails with SIGPIPE's
# 141; contains reads to the end.
STILL_WRITING = """\
set -eu
. "{lib}"
check_kernel_log() {{ :; }}
writer() {{ echo first; echo match; sleep 0.5; echo more; }}
status=0
writer | grep -q match || status=$?
log "grep -q: $status"
writer | contains match || fail "contains missed 'match'"
! writer | contains absent || fail "contains found 'absent'"
writer | contains -x -F more || fail "contains missed the last line"
log "first line: $(writer | sed -n 1p)"
"""


def test_contains_reads_to_the_end(tmp_path):
    status, out = run_scenario(tmp_path, "still-writing", STILL_WRITING)
    assert status == 0, out
    assert "grep -q: 141" in out, out
    assert "first line: first" in out and "PASS still-writing" in out, out


# Where a scenario's pipeline ends: not in a reader that leaves before its
# writer is done (grep -q or -m, head), but in contains or sed -n.  sh -c
# strings run in dash, without pipefail.
EARLY_READER = re.compile(r"\|\s*(head\b|grep\b[^|;&)]*\s(-[A-Za-z]*[qm][A-Za-z]*"
                          r"|--quiet|--silent|--max-count)\b)")


def test_no_pipeline_ends_early():
    guest = os.path.dirname(LIB)
    scripts = [LIB, os.path.join(guest, "stt-lib.sh")] + sorted(
        glob.glob(os.path.join(guest, "scenarios", "*.sh")))
    found = []
    for script in scripts:
        with open(script, encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                if line.lstrip().startswith("#") or "sh -c" in line:
                    continue
                if EARLY_READER.search(line):
                    found.append(f"{os.path.relpath(script, guest)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
