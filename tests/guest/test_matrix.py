# SPDX-License-Identifier: GPL-2.0
"""The kernel matrix is checked (no guest): where scenario_cases.placement()
puts each case among the selected kernels, and what a pytest session of the
guest tests does with a selection, a module override or a kernel that is
missing.  The sessions run on a copy of conftest.py and test_scenarios.py
whose run-guest is a stand-in (FAKE_RUN_GUEST): it lists the kernels the
test gives it and answers every scenario with a PASS, noting what ran where.
"""

import atexit
import functools
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from scenario_cases import all_cases, placement, read_cases

GUEST_DIR = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(os.path.dirname(GUEST_DIR))

# One case per kernel policy, as a scenario header declares them.
POLICIES = """\
# Test: everywhere
#   timeout: 9
# Test: not_debug
#   timeout: 9
#   kernels: not debug: everywhere
# Test: debug_only
#   timeout: 9
#   kernels: debug only: everywhere
# Test: newest
#   timeout: 9
#   kernels: newest distro: one is enough
# Test: oldest
#   timeout: 9
#   kernels: oldest distro: one is enough
# Test: on_lane
#   timeout: 9
#   kernels: lanes only: moved there
#   lanes: 7.3-deb13
# Test: also_lane
#   timeout: 9
#   kernels: oldest distro: one is enough
#   lanes: 7.*-deb*
"""

MATRIX = ["6.1", "6.12", "6.12-debug", "7.2-deb14", "6.12-deb13", "7.3-deb13"]


@pytest.fixture
def cases(tmp_path):
    path = tmp_path / "policies.sh"
    path.write_text(POLICIES)
    return {case.name: case for case in read_cases(str(path))}


def runs_on(case, kernels):
    return [k for k, why in placement(case, kernels).items() if why is None]


def test_placement_of_the_whole_matrix(cases):
    """With every kernel selected, each policy puts its case where the
    scenario headers say."""
    where = {name: runs_on(case, MATRIX) for name, case in cases.items()}
    assert where == {
        "everywhere": ["6.1", "6.12", "6.12-debug"],
        "not_debug": ["6.1", "6.12"],
        "debug_only": ["6.12-debug"],
        "newest": ["6.12"],
        "oldest": ["6.1"],
        "on_lane": ["7.3-deb13"],
        "also_lane": ["6.1", "7.2-deb14", "7.3-deb13"],
    }


def test_placement_moves_rather_than_drops(cases):
    """Narrowing the selection moves a case to a selected kernel: newest and
    oldest are of the selection; debug only takes a Debian kernel without a
    debug kernel; lanes only takes the newest Debian kernel without its
    lane."""
    assert {name: runs_on(case, ["6.1"]) for name, case in cases.items()} \
        == {name: ["6.1"] for name in cases}
    no_debug = ["6.1", "6.12", "7.2-deb14", "6.12-deb13"]
    where = {name: runs_on(case, no_debug) for name, case in cases.items()}
    assert where["debug_only"] == ["6.12"]
    assert where["newest"] == ["6.12"]
    assert where["on_lane"] == ["6.12"]
    assert where["also_lane"] == ["6.1", "7.2-deb14"]


def test_placement_says_where_instead(cases):
    why = placement(cases["debug_only"], ["6.1", "6.12"])
    assert why == {
        "6.1": "kernels: debug only (no debug kernel is selected): "
               "everywhere; it runs on 6.12",
        "6.12": None}
    assert placement(cases["newest"], ["6.1", "7.3-deb13"])["7.3-deb13"] == \
        "not a test of the lane 7.3-deb13 (its lanes: key does not name " \
        "it); it runs on 6.1"


def test_placement_can_find_nowhere(cases):
    """What only Debian's kernels run has no place when only the debug
    kernel is selected; the session check (below) stops such a run."""
    nowhere = sorted(name for name, case in cases.items()
                     if not runs_on(case, ["6.12-debug"]))
    assert nowhere == ["also_lane", "newest", "not_debug", "oldest",
                       "on_lane"]
    assert placement(cases["newest"], ["6.12-debug"])["6.12-debug"] == \
        "kernels: newest distro: one is enough; it runs on no selected kernel"


def test_every_declared_case_is_placed():
    """Every case of scenarios/ runs somewhere on the suite's matrix, on the
    Debian kernels alone, and on any one Debian kernel."""
    for kernels in (MATRIX, MATRIX[:2], ["6.1"], ["6.12"]):
        for case in all_cases(os.path.join(GUEST_DIR, "scenarios")):
            assert runs_on(case, kernels), (case.name, kernels)


# The stand-in for run-guest: "--list-kernels" prints the file "kernels"
# beside it; a run appends its kernel, results directory and boot (its
# --results) to the file "runs" and writes a PASS result.json, each run of
# a --batch too.  (A shell script: the sessions below start it some sixty
# times.)
FAKE_RUN_GUEST = """\
#!/bin/sh
here=$(dirname "$0")
if [ "$1" = --list-kernels ]; then
	exec cat "$here/kernels"
fi
batch=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--results) results=$2 ;;
	--batch) batch=$2 ;;
	esac
	shift 2
done
if [ -n "$batch" ]; then
	exec /usr/bin/python3 -c '
import json, os, sys
batch, kernel, boot, runs = sys.argv[1:]
items = json.load(open(batch))
for n, run in enumerate(items, 1):
    os.makedirs(run["results"], exist_ok=True)
    with open(os.path.join(run["results"], "result.json"), "w") as f:
        json.dump({"verdict": "PASS", "reasons": [], "seconds": {},
                   "boot": {"id": boot, "runs": len(items), "run": n}}, f)
    with open(runs, "a") as f:
        f.write("%s %s %s\\n" % (kernel, run["results"], boot))
' "$batch" "$kernel" "$results" "$here/runs"
fi
mkdir -p "$results"
echo '{"verdict": "PASS", "reasons": [], "seconds": {}}' \\
	> "$results/result.json"
echo "$kernel $results $results" >> "$here/runs"
"""

VERSION = "0.1+20261205.120000.gfeedbee"


@functools.lru_cache(maxsize=None)
def module(version):
    """A file modinfo reads VERSION from (an object file with a .modinfo
    section, as a kernel module has)."""
    d = tempfile.mkdtemp(prefix="stt-test-matrix.")
    atexit.register(shutil.rmtree, d)
    src = os.path.join(d, "m.c")
    with open(src, "w") as f:
        f.write('static const char v[] __attribute__((section(".modinfo"), '
                'used)) = "version=%s";\n' % version)
    subprocess.run(["gcc", "-c", src, "-o", src[:-1] + "ko"], check=True)
    return src[:-1] + "ko"


class Rig:
    """A copy of the pytest driver around the stand-in run-guest, in TOP
    (laid out as the repository: tests/guest, ovs-glue), with the kernels
    KERNELS and a module build of VERSION for each in TOP/mods/SHORT."""

    def __init__(self, top, kernels, scenarios=None):
        self.top = top
        self.guest = top / "tests" / "guest"
        self.guest.mkdir(parents=True)
        for name in ("conftest.py", "scenario_cases.py", "test_scenarios.py"):
            shutil.copy(os.path.join(GUEST_DIR, name), self.guest)
        if scenarios:
            # {script name: its header}, instead of the tree's scenarios.
            (self.guest / "scenarios").mkdir()
            for name, text in scenarios.items():
                (self.guest / "scenarios" / name).write_text(text)
        else:
            os.symlink(os.path.join(GUEST_DIR, "scenarios"),
                       self.guest / "scenarios")
        fake = self.guest / "run-guest"
        fake.write_text(FAKE_RUN_GUEST)
        fake.chmod(0o755)
        self.stub("ovs-glue/build-ovs", "echo /opt/ovs-4.0")
        self.stub("ovs-glue/autotest/build-testsuites", "true")
        self.set_kernels(kernels)
        self.mods = {}
        for short in MATRIX:
            self.mods[short] = self.build(short, VERSION)

    def stub(self, path, command):
        path = self.top / path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\n%s\n" % command)
        path.chmod(0o755)

    def set_kernels(self, kernels):
        lines = []
        for short in kernels:
            release = {"6.1": "6.1.0-57-amd64",
                       "6.12": "6.12.118+deb12-amd64",
                       "6.12-debug": "6.12.118-stt-debug",
                       "7.2-deb14": "7.2.13+deb14-amd64",
                       "6.12-deb13": "6.12.117+deb13-amd64",
                       "7.3-deb13": "7.3.4+deb13-amd64"}[short]
            root = str(self.top / "roots" / short.split("-")[-1]) \
                if short.endswith(("deb13", "deb14")) else "/"
            lines.append("%s %s %s\n" % (short, release, root))
        (self.guest / "kernels").write_text("".join(lines))
        self.releases = {line.split()[1]: line.split()[0] for line in lines}

    def build(self, name, version):
        """A module directory holding stt.ko and vport-stt.ko of VERSION."""
        d = self.top / "mods" / name
        d.mkdir(parents=True)
        for ko in ("stt.ko", "vport-stt.ko"):
            shutil.copy(module(version), d / ko)
        return str(d)

    def pytest(self, *args, env=None):
        """Runs the copy's guest tests with ARGS: (exit status, output,
        {case name: [kernels it ran on]}); self.boots is then {boot: [case
        names]}, the runs of each guest boot."""
        clean = {k: v for k, v in os.environ.items()
                 if not k.startswith("STT_") and k != "PYTEST_ADDOPTS"}
        # modinfo and dpkg-query, for a user whose PATH lacks them too.
        clean["PATH"] = clean.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin"
        clean.update(env or {})
        runs = self.guest / "runs"
        if runs.exists():
            runs.unlink()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
             "-q", "-rfE", str(self.guest / "test_scenarios.py"),
             "--stt-results", str(self.top / "results"),
             "--stt-modules-dir", str(self.top / "mods" / "{short}")]
            + list(args), cwd=str(self.top), env=clean,
            capture_output=True, text=True)
        ran = {}
        self.boots = {}
        if runs.exists():
            for line in runs.read_text().splitlines():
                release, results, boot = line.split()
                short = self.releases[release]
                test = os.path.basename(results)
                case = test[len("test_"):-len("-" + short)]
                ran.setdefault(case, []).append(short)
                self.boots.setdefault(boot, []).append(case)
        return proc.returncode, proc.stdout + proc.stderr, ran


@pytest.fixture
def rig(tmp_path):
    return Rig(tmp_path, MATRIX)


def declared():
    return {case.name for case in
            all_cases(os.path.join(GUEST_DIR, "scenarios"))}


def test_whole_matrix_runs_every_case(rig):
    status, out, ran = rig.pytest()
    assert status == 0, out
    assert set(ran) == declared(), out


def test_one_kernel_runs_every_case_there(rig):
    """--stt-kernel 6.12 runs every case on 6.12 (newest/oldest distro, debug
    only, lanes only: all of them move there)."""
    status, out, ran = rig.pytest("--stt-kernel", "6.12")
    assert status == 0, out
    assert ran == {case: ["6.12"] for case in declared()}, out


def test_no_debug_kernel_moves_its_cases(rig):
    """Without the debug kernel, what runs on it runs on Debian's 6.12."""
    rig.set_kernels([k for k in MATRIX if k != "6.12-debug"])
    status, out, ran = rig.pytest()
    assert status == 0, out
    assert set(ran) == declared(), out
    for case in ("hostile_ipv6", "nic_underlay_dev_ipv6"):
        assert "6.12" in ran[case], (case, ran[case])


@pytest.mark.parametrize("args,env,named", [
    (["--stt-kernel", "6.13"], {}, "--stt-kernel names no kernel"),
    ([], {"STT_KERNELS": "6.13"}, "STT_KERNELS=6.13 names no kernel"),
    ([], {"STT_KERNELS": "6.1,,6.12"}, "STT_KERNELS=6.1,,6.12 names no "
     "kernel run-guest --list-kernels lists: ''"),
    (["--stt-kernel", ""], {}, "--stt-kernel names no kernel"),
    (["--stt-modules", "6.13=/x"], {}, "--stt-modules names no kernel"),
    ([], {"STT_MODULES_6_13": "/x"}, "STT_MODULES_6_13 in the environment "
     "names no kernel"),
])
def test_unknown_kernel_refused(rig, args, env, named):
    status, out, ran = rig.pytest(*args, env=env)
    assert status == 4, out
    assert named in out, out
    assert "the kernels: 6.1 (6.1.0-57-amd64), 6.12 (6.12.118+deb12-amd64)" \
        in out, out
    assert not ran


def test_case_run_nowhere_stops_the_run(rig):
    """Only the debug kernel: the cases of Debian's kernels would run
    nowhere; the run stops before any guest, naming each; -k deselecting
    them or --stt-partial runs the rest."""
    status, out, ran = rig.pytest("--stt-kernel", "6.12-debug")
    assert status == 4, out
    assert "would run on no selected kernel (6.12-debug)" in out, out
    assert "  vxlan_smoke: kernels: newest distro: " in out, out
    assert "  ovs_basic: kernels: not debug: " in out, out
    assert not ran

    status, out, ran = rig.pytest("--stt-kernel", "6.12-debug",
                                  "-k", "hostile_ipv6 or lifecycle_dev")
    assert status == 0, out
    assert ran == {"hostile_ipv6": ["6.12-debug"],
                   "lifecycle_dev": ["6.12-debug"]}, out

    status, out, ran = rig.pytest("--stt-kernel", "6.12-debug",
                                  "-k", "hostile_ipv6 or vxlan_smoke")
    assert status == 4, out
    assert "1 scenario case(s) would run on no selected kernel" in out, out
    assert "  vxlan_smoke: " in out and "  hostile_ipv6" not in out, out

    status, out, ran = rig.pytest("--stt-kernel", "6.12-debug",
                                  "--stt-partial")
    assert status == 0, out
    assert "run on no selected kernel (--stt-partial)" in out, out
    assert "  vxlan_smoke: kernels: newest distro: " in out, out
    assert set(ran) and all(k == ["6.12-debug"] for k in ran.values()), out


def test_no_kernel_stops_the_run(rig):
    rig.set_kernels([])
    status, out, ran = rig.pytest()
    assert status == 4, out
    assert "every case: no kernel is selected" in out, out


def test_ipv6_lane_counts_its_own_cases(rig):
    """--stt-underlay ipv6 leaves the IPv4-only cases out by choice: they do
    not count as run nowhere."""
    status, out, ran = rig.pytest("--stt-underlay", "ipv6",
                                  "--stt-kernel", "6.12")
    assert status == 0, out
    assert "vxlan_smoke" not in ran and "dev_dev_ipv6" in ran, out


def test_check_in_the_xdist_controller(rig):
    """Two workers, as tests/run-tests runs them: the controller stops the
    run before it hands out a test."""
    status, out, ran = rig.pytest("-n", "2", "--stt-kernel", "6.12-debug")
    assert status == 4, out
    assert "would run on no selected kernel (6.12-debug)" in out, out
    assert not ran
    status, out, ran = rig.pytest("-n", "2", "--stt-kernel", "6.13")
    assert status == 4, out
    assert "--stt-kernel names no kernel" in out and not ran, out
    status, out, ran = rig.pytest("-n", "2", "--stt-kernel", "6.1",
                                  "-k", "hostile")
    assert status == 0, out
    assert ran == {case: ["6.1"] for case in declared()
                   if "hostile" in case}, out


def test_required_kernels(rig):
    """tests/run-tests requires the suite's matrix: a kernel that is not
    listed, or that an --stt-kernel leaves out, stops the run."""
    rig.set_kernels([k for k in MATRIX if k != "6.12-debug"])
    status, out, ran = rig.pytest(*("--stt-require-kernel=" + k
                                    for k in MATRIX))
    assert status == 4, out
    assert "but it does not select 6.12-debug;" in out, out
    rig.set_kernels(MATRIX)
    status, out, ran = rig.pytest("--stt-require-kernel", "6.1",
                                  "--stt-kernel", "6.12")
    assert status == 4, out
    assert "but it does not select 6.1;" in out, out
    assert not ran


def test_module_override_must_be_the_build_under_test(rig, tmp_path):
    """A module directory that --stt-modules or STT_MODULES_* give fails the
    cases that load it when it is not of the version under test; the
    package installed (--stt-packaged) too."""
    old = rig.build("old", "0.1+20261101.000000.g0123456")
    base = ["--stt-modules-version", VERSION, "-k", "dev_external or stt_ctl"]
    status, out, ran = rig.pytest(*base)
    assert status == 0, out
    assert ran == {"dev_external": ["6.12"], "stt_ctl": ["6.12"]}, out
    for args, env, given in (
            (["--stt-modules", "6.12=" + old], {}, "--stt-modules 6.12="),
            ([], {"STT_MODULES_6_12": old}, "STT_MODULES_6_12")):
        status, out, ran = rig.pytest(*(base + args), env=env)
        assert status == 1, out
        assert "%s/stt.ko (from %s" % (old, given) in out, out
        assert "reports version 0.1+20261101.000000.g0123456, but the tree " \
            "under test builds %s" % VERSION in out, out
        assert "2 failed" in out and not ran, out
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    dpkg = bin_dir / "dpkg-query"
    dpkg.write_text("#!/bin/sh\necho 0.1+20261101.000000.g0123456\n")
    dpkg.chmod(0o755)
    status, out, ran = rig.pytest(
        "--stt-modules-version", VERSION, "--stt-packaged", "-k",
        "ovs_basic", env={"PATH": "%s:%s" % (bin_dir, os.environ["PATH"])})
    assert status == 1, out
    assert "the stt-dkms package installed reports version " \
        "0.1+20261101.000000.g0123456, but the tree under test builds" in out
    # The lanes' ovs_basic loads the build directory, of the right version.
    assert sorted(ran["ovs_basic"]) == ["6.12-deb13", "7.2-deb14"], out
    assert list(ran) == ["ovs_basic"], out


def test_ovs40_not_built_fails(rig):
    """A case the matrix placed runs or fails: Open vSwitch 4.0 not built
    is a failure naming what to do, not a skip."""
    rig.stub("ovs-glue/build-ovs", "true")
    status, out, ran = rig.pytest("--stt-kernel", "6.12", "-k", "ovs40")
    assert status == 1, out
    # Every ovs40 case fails (none passes or skips), saying why.
    assert " failed" in out and "passed" not in out and \
        "skipped" not in out, out
    assert "Open vSwitch 4.0 with the STT series is not built" in out, out


def test_run_tests_refuses_selection_from_the_environment(tmp_path):
    """tests/run-tests stops at once on STT_KERNELS or STT_MODULES_*; the
    first thing it would do otherwise (install-deps, here a stand-in)
    says so by its exit status."""
    (tmp_path / "tests").mkdir()
    shutil.copy(os.path.join(REPO, "tests", "run-tests"), tmp_path / "tests")
    deps = tmp_path / "tests" / "install-deps"
    deps.write_text("#!/bin/sh\nexit 99\n")
    deps.chmod(0o755)
    run_tests = str(tmp_path / "tests" / "run-tests")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("STT_")}
    proc = subprocess.run([run_tests], env=clean, capture_output=True,
                          text=True)
    assert proc.returncode == 99, proc.stdout + proc.stderr
    for name in ("STT_KERNELS", "STT_MODULES_6_12", "STT_MODULES_DIR"):
        proc = subprocess.run([run_tests], env=dict(clean, **{name: "6.1"}),
                              capture_output=True, text=True)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert proc.stderr.startswith("run-tests: unset %s first" % name), \
            proc.stderr


# Cases that can and cannot share a boot: a1 and a2 can (together 200 s
# expected, a third of their timeouts); a6 alone is close to a batch's
# BATCH_SECONDS; a3 says it boots alone; a4 has two CPUs, a5 no modules.
BATCHING = """\
# Test: a1
#   timeout: 300
# Test: a2
#   timeout: 300
# Test: a3
#   timeout: 300
#   batch: alone: counts what the boot loaded
# Test: a4
#   timeout: 300
#   cpus: 2
# Test: a5
#   timeout: 300
#   modules: no
# Test: a6
#   timeout: 2500
"""


@pytest.fixture
def batching(tmp_path):
    return Rig(tmp_path, ["6.1", "6.12"], scenarios={"a.sh": BATCHING})


@pytest.mark.parametrize("args", [[], ["-n", "2", "--dist", "loadgroup"]],
                         ids=["one-process", "xdist-loadgroup"])
def test_cases_share_boots(batching, args):
    """Cases of one kernel, module set, CPU count and NICs share a boot,
    up to BATCH_SECONDS of expected time; "batch: alone" boots alone.
    Under pytest-xdist, --dist loadgroup runs each batch on one worker,
    once; each case passes on its own."""
    status, out, ran = batching.pytest("--stt-kernel", "6.12", *args)
    assert status == 0, out
    assert ran == {c: ["6.12"] for c in ("a1", "a2", "a3", "a4", "a5",
                                         "a6")}, out
    assert sorted(sorted(c) for c in batching.boots.values()) == \
        [["a1", "a2"], ["a3"], ["a4"], ["a5"], ["a6"]], out
    assert "6 passed" in out, out
    assert "6 guest runs" in out and "5 guest boots for them" in out, out


@pytest.mark.parametrize("args", [
    ["--stt-no-batch"], ["-k", "a1"], ["-n", "2"],
], ids=["no-batch", "one-case", "xdist-without-loadgroup"])
def test_one_boot_per_case(batching, args):
    """--stt-no-batch, a single case, and pytest-xdist without loadgroup
    (which could hand a batch's cases to both workers) boot once per
    case."""
    status, out, ran = batching.pytest("--stt-kernel", "6.12", *args)
    assert status == 0, out
    assert ran and all(len(c) == 1 for c in batching.boots.values()), out
    assert len(batching.boots) == len(ran), out


def test_batch_that_cannot_start_fails_each_case(batching):
    """A batch that cannot boot (here: its directory of results is taken
    by a file) fails each of its cases with that error, the later ones
    too, rather than with a KeyError of the rig's own."""
    results = batching.top / "results"
    results.mkdir()
    (results / "boot-6.12-1").write_text("in the way\n")
    status, out, ran = batching.pytest("--stt-kernel", "6.12", "-k",
                                       "a1 or a2")
    assert status == 1, out
    assert "2 failed" in out, out
    assert out.count("FileExistsError") >= 2 and "KeyError" not in out, out
