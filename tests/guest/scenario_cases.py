# SPDX-License-Identifier: GPL-2.0
"""The guest tests each scenario declares in its header comment.

A scenario script (scenarios/*.sh) becomes one or more pytest cases through
a block in its leading comment:

    # Test: NAME [ARG...]
    #   What the case checks, in prose (the test's description).
    #   timeout: SECONDS
    #   cpus: 2
    #   nics: e1000e virtio-net-pci,mrg_rxbuf=off
    #   kernels: not debug: lifecycle-dev
    #   host: ovs-autotest

"Test:" starts a case called NAME that runs the script with ARGs.  Indented
lines after it are the case's description, except "KEY: VALUE" lines with
one of these keys (a deeper indented line continues a value):

  timeout   seconds the run may take on a distro kernel (required); the
            debug kernel gets conftest.DEBUG_KERNEL_SLOWDOWN times more
  cpus      guest CPUs (default conftest.DEFAULT_CPUS)
  nics      emulated NICs, run-guest --nic each (default none)
  modules   "no": the scenario needs no STT modules (default: it needs
            stt.ko, and vport-stt.ko where the kernel has legacy vport
            types, built for each kernel)
  kernels   "all" (default: Debian's kernels and the debug kernel);
            "not debug: COVERED_BY" or "debug only: COVERED_BY", naming
            what checks the same on the other kernels; "newest distro:
            WHY" or "oldest distro: WHY" (one Debian kernel, the newest or
            the oldest of those selected);
            "lanes only: WHY": on its lanes alone (see lanes), none of the
            host's.  placement() says where that is among the kernels a
            run selects
  lanes     PATTERN...: runs on the lanes of other Debian releases whose
            kernel's short name ("6.12-deb13", "7.3-deb13", "7.2-deb14",
            "7.2-deb14-ovs40") one of these shell patterns matches
            ("7.*-deb*"); a case
            without the key runs on the host's kernels only (pytest
            marker lanes)
  host      a step run on the host first that adds the scenario's leading
            arguments (HOST_STEPS in test_scenarios.py)
  batch     "alone: WHY": the case boots a guest of its own, never one
            it shares with other cases (conftest.py groups the cases of a
            kernel, module set, NICs and CPU count into batches, one boot
            each; guest-init puts the guest back as a fresh boot left it
            between two runs); WHY says what a shared boot would change
  underlay  "either": the script runs over an IPv4 or an IPv6 underlay,
            as its first argument says ("ipv4", the default, or "ipv6";
            stt-lib.sh's underlay_family); "both: WHAT": each run has
            both (WHAT says how); "ipv4 only: WHY" (the default, then
            without a reason) otherwise

A case whose first argument is "ipv6" is a declared IPv6 case, run by
default like any other.  pytest's --stt-underlay ipv6 (conftest.py) runs
every case of an "either" script over IPv6 instead (NAME_ipv6, on the
kernels of the case), and the declared IPv6 cases not again.
"""

import fnmatch
import os
import re
import shlex

KEYS = ("timeout", "cpus", "nics", "modules", "kernels", "lanes", "host",
        "underlay", "batch")
FAMILIES = ("ipv4", "ipv6")
KERNEL_POLICIES = ("all", "not debug", "debug only", "newest distro",
                   "oldest distro", "lanes only")


class Case:
    """One declared test: the script, its arguments and how it runs."""

    def __init__(self, script, name, args, lineno):
        self.script = script
        self.name = name
        self.args = args
        self.lineno = lineno
        self.about = []
        self.options = {}

    def option(self, key, default=None):
        return self.options.get(key, default)

    @property
    def timeout(self):
        return int(self.options["timeout"])

    @property
    def cpus(self):
        return int(self.options["cpus"]) if "cpus" in self.options else None

    @property
    def nics(self):
        return tuple(self.options.get("nics", "").split())

    @property
    def needs_modules(self):
        return self.options.get("modules", "yes") != "no"

    @property
    def kernel_policy(self):
        """(policy, text): e.g. ("not debug", "lifecycle-dev and ...")."""
        policy, _, text = self.options.get("kernels", "all").partition(":")
        return policy.strip(), text.strip()

    @property
    def runs_over_either(self):
        """The script takes an underlay family as its first argument."""
        return self.options.get("underlay") == "either"

    @property
    def family(self):
        """The underlay family the case names, or None."""
        return self.args[0] if self.args[:1] and \
            self.args[0] in FAMILIES else None

    def over_ipv6(self):
        """This case over an IPv6 underlay, named NAME_ipv6."""
        case = Case(self.script, self.name + "_ipv6", ["ipv6"] + self.args,
                    self.lineno)
        case.about = self.about
        case.options = self.options
        return case

    @property
    def alone(self):
        """Why the case must boot a guest of its own, or None."""
        kind, _, why = self.options.get("batch", "").partition(":")
        return why.strip() if kind.strip() == "alone" else None

    @property
    def lanes(self):
        """The lane patterns the case declares (empty: none)."""
        return tuple(self.options.get("lanes", "").split())

    def runs_on_lane(self, short):
        """Whether the lane whose kernel is SHORT ("7.3-deb13") runs it."""
        return lane_matches(self.lanes, short)

    def where(self):
        return "%s:%d" % (self.script, self.lineno)


class CaseError(Exception):
    pass


# A lane's kernel: "X.Y-debNN" (run-guest's short name of a kernel of
# another root); a pattern of one may have shell wildcards.
LANE_PATTERN = re.compile(r"^[0-9.*?\[\]]+-deb[0-9*?\[\]]+(-[a-z0-9*?]+)?$")


def lane_matches(patterns, short):
    """Whether one of the lane PATTERNS matches the kernel SHORT."""
    return any(fnmatch.fnmatchcase(short, p) for p in patterns)


def kernel_kind(short):
    """What the kernel SHORT (run-guest's short name) is: "lane" for a
    lane's ("7.3-deb13", "7.2-deb14-ovs40": another Debian release's,
    booted with that root),
    "debug" for the debug test kernel ("6.12-debug"), "distro" for a
    Debian kernel of the host ("6.1")."""
    if re.search(r"-deb\d+(-[a-z0-9]+)?$", short):
        return "lane"
    return "debug" if short.endswith("-debug") else "distro"


def placement(case, kernels):
    """Where CASE runs among KERNELS, the short names of the kernels a run
    selects in run-guest's order (the host's Debian kernels oldest first):
    {short: None where it runs, else why not, naming where it does}.

    Selecting kernels narrows a run by moving a case, not by dropping it:
    "newest distro" and "oldest distro" are of the selected Debian kernels;
    "debug only" runs on the newest selected Debian kernel
    (6.12, the debug kernel's series, when selected) when no debug kernel
    is selected; "lanes only" there too when none of its lanes is.  A case
    can still run nowhere: one for Debian's kernels alone when only the
    debug kernel or lanes are selected, or any case of the host's kernels
    when only lanes are."""
    distro = [k for k in kernels if kernel_kind(k) == "distro"]
    debug = [k for k in kernels if kernel_kind(k) == "debug"]
    lanes = [k for k in kernels if kernel_kind(k) == "lane"]
    policy, why = case.kernel_policy
    newest = distro[-1:]
    moved = None
    if policy == "all":
        host = distro + debug
    elif policy == "not debug":
        host = distro
    elif policy == "debug only":
        host = debug or newest
        moved = None if debug else "no debug kernel is selected"
    elif policy == "newest distro":
        host = newest
    elif policy == "oldest distro":
        host = distro[:1]
    else:  # "lanes only" (_check() refuses any other policy)
        mine = [k for k in lanes if case.runs_on_lane(k)]
        host = [] if mine else newest
        moved = None if mine else "none of its lanes is selected"
    where = [k for k in kernels if k in host or
             (k in lanes and case.runs_on_lane(k))]
    elsewhere = "it runs on %s" % (", ".join(where) or "no selected kernel")
    rule = policy + (" (%s)" % moved if moved else "") + \
        (": " + why if why else "")
    result = {}
    for k in kernels:
        if k in where:
            result[k] = None
        elif k in lanes:
            result[k] = "not a test of the lane %s (its lanes: key does " \
                "not name it); %s" % (k, elsewhere)
        else:
            result[k] = "kernels: %s; %s" % (rule, elsewhere)
    return result


def _check(case):
    if "timeout" not in case.options:
        raise CaseError("%s: test %s has no timeout" % (case.where(),
                                                        case.name))
    for key in ("timeout", "cpus"):
        value = case.options.get(key)
        if value is not None and not value.isdigit():
            raise CaseError("%s: %s must be a number of %s, not %r" % (
                case.where(), key, "seconds" if key == "timeout" else "CPUs",
                value))
    policy, text = case.kernel_policy
    if policy not in KERNEL_POLICIES:
        raise CaseError("%s: kernels: %r is not one of %s" % (
            case.where(), policy, ", ".join(KERNEL_POLICIES)))
    if policy != "all" and not text:
        raise CaseError("%s: kernels: %s needs a reason after a colon" % (
            case.where(), policy))
    underlay = case.options.get("underlay", "ipv4 only")
    if underlay != "either" and \
            not re.match(r"(both|ipv4 only)(:|$)", underlay):
        raise CaseError("%s: underlay: %r is not \"either\", \"both: "
                        "WHAT\" or \"ipv4 only: WHY\"" % (case.where(),
                                                           underlay))
    if case.family and not case.runs_over_either:
        raise CaseError("%s: test %s names the underlay %s, but the script "
                        "does not declare \"underlay: either\"" % (
                            case.where(), case.name, case.family))
    if "batch" in case.options and not case.alone:
        raise CaseError("%s: batch: %r is not \"alone: WHY\"" % (
            case.where(), case.options["batch"]))
    for pattern in case.lanes:
        if not LANE_PATTERN.match(pattern):
            raise CaseError("%s: lanes: %r is not a lane's kernel or a "
                            "pattern of one (X.Y-debNN[-NAME], e.g. "
                            "7.3-deb13, 7.2-deb14-ovs40 or 7.*-deb*)"
                            % (case.where(), pattern))
    if "lanes" in case.options and not case.lanes:
        raise CaseError("%s: lanes: names no lane" % case.where())
    if policy == "lanes only" and not case.lanes:
        raise CaseError("%s: kernels: lanes only, but no lanes: key names "
                        "one" % case.where())


def read_cases(path):
    """The cases declared in the leading comment of the script at PATH."""
    script = os.path.basename(path)
    cases = []
    case = None
    key = None
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            if not line.startswith("#"):
                break
            text = line[1:].rstrip("\n")
            m = re.match(r" Test: (\S+)(.*)$", text)
            if m:
                case = Case(script, m.group(1), shlex.split(m.group(2)),
                            lineno)
                cases.append(case)
                key = None
                continue
            if case is None:
                continue
            if not text.startswith("   "):
                case = None
                continue
            m = re.match(r"   (\w+): (.*)$", text)
            if m and m.group(1) in KEYS:
                key = m.group(1)
                case.options[key] = m.group(2).strip()
            elif key and text.startswith("     "):
                case.options[key] += " " + text.strip()
            else:
                key = None
                case.about.append(text.strip())
    names = [c.name for c in cases]
    for c in cases:
        _check(c)
        if names.count(c.name) > 1:
            raise CaseError("%s: two tests are called %s" % (c.where(),
                                                             c.name))
    return cases


def all_cases(directory):
    """Every case of every scenario in DIRECTORY, by script name."""
    cases = []
    for name in sorted(os.listdir(directory)):
        if name.endswith(".sh"):
            cases += read_cases(os.path.join(directory, name))
    seen = {}
    for c in cases:
        if c.name in seen:
            raise CaseError("%s: test %s is declared in %s too" % (
                c.where(), c.name, seen[c.name]))
        seen[c.name] = c.where()
    return cases
