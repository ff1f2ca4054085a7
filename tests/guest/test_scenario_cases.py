# SPDX-License-Identifier: GPL-2.0
"""scenario_cases.py reads what scenario headers declare, and refuses a
malformed declaration by file, line and key (no guest)."""

import pytest

from scenario_cases import CaseError, read_cases

GOOD = """\
#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A scenario.
#
# Test: two_ways dev fast
#   What it checks.
#   timeout: 700
#   cpus: 2
#   nics: e1000e virtio-net-pci,mrg_rxbuf=off
#   kernels: not debug: lifecycle-dev (devices made
#     and torn down)
# Test: plain
#   timeout: 300
#   lanes: 6.12-deb13 7.*-deb*
#   batch: alone: reads what the boot
#     left
# Test: over_ipv6 ipv6 fast
#   timeout: 300
#   underlay: either

set -eu
# Test: not_a_test (past the header)
"""


def write(tmp_path, text):
    path = tmp_path / "x.sh"
    path.write_text(text)
    return str(path)


def test_declarations_read(tmp_path):
    first, second, third = read_cases(write(tmp_path, GOOD))
    assert (first.name, first.args, first.timeout, first.cpus) == \
        ("two_ways", ["dev", "fast"], 700, 2)
    assert first.nics == ("e1000e", "virtio-net-pci,mrg_rxbuf=off")
    assert first.kernel_policy == \
        ("not debug", "lifecycle-dev (devices made and torn down)")
    assert first.about == ["What it checks."]
    assert first.lanes == () and first.needs_modules
    assert first.alone is None
    assert second.alone == "reads what the boot left"
    assert not first.runs_on_lane("7.3-deb13")
    assert (second.name, second.args, second.cpus) == ("plain", [], None)
    assert second.kernel_policy == ("all", "")
    assert second.lanes == ("6.12-deb13", "7.*-deb*")
    assert [second.runs_on_lane(k) for k in
            ("6.12-deb13", "7.3-deb13", "7.2-deb14", "7.2-deb14-ovs40",
             "6.12-deb14", "6.12")] \
        == [True, True, True, True, False, False]
    assert (first.family, first.runs_over_either) == (None, False)
    assert (third.family, third.runs_over_either) == ("ipv6", True)


def test_named_lane(tmp_path):
    """A lane a root's name sets apart (build-root's lane: key) is named
    exactly, and is not the plain lane of its release."""
    case, = read_cases(write(tmp_path, "# Test: t\n#   timeout: 9\n"
                             "#   lanes: 7.2-deb14-ovs40\n"))
    assert [case.runs_on_lane(k) for k in
            ("7.2-deb14-ovs40", "7.2-deb14", "7.2-deb14-other")] == \
        [True, False, False]


def test_case_over_ipv6(tmp_path):
    plain = read_cases(write(tmp_path, GOOD))[1]
    case = plain.over_ipv6()
    assert (case.name, case.args, case.family, case.timeout) == \
        ("plain_ipv6", ["ipv6"], "ipv6", 300)
    assert plain.args == []


@pytest.mark.parametrize("block,message", [
    ("#   cpus: 2\n", "x.sh:1: test t has no timeout"),
    ("#   timeout: ten\n", "x.sh:1: timeout must be a number of seconds"),
    ("#   timeout: 9\n#   kernels: sometimes\n",
     "x.sh:1: kernels: 'sometimes' is not one of"),
    ("#   timeout: 9\n#   kernels: not debug\n",
     "x.sh:1: kernels: not debug needs a reason"),
    ("#   timeout: 9\n#   kernels: oldest distro\n",
     "x.sh:1: kernels: oldest distro needs a reason"),
    ("#   timeout: 9\n# Test: t\n#   timeout: 9\n", "two tests are called t"),
    ("#   timeout: 9\n#   underlay: ipv6\n",
     "x.sh:1: underlay: 'ipv6' is not \"either\""),
    ("#   timeout: 9\n# Test: u ipv6\n#   timeout: 9\n",
     "x.sh:3: test u names the underlay ipv6, but the script does not"),
    ("#   timeout: 9\n#   lanes: trixie\n",
     "x.sh:1: lanes: 'trixie' is not a lane's kernel or a pattern of one"),
    ("#   timeout: 9\n#   lanes: 7.3-deb13 6.12\n",
     "x.sh:1: lanes: '6.12' is not a lane's kernel"),
    ("#   timeout: 9\n#   lanes: 7.2-deb14-\n",
     "x.sh:1: lanes: '7.2-deb14-' is not a lane's kernel"),
    ("#   timeout: 9\n#   lanes:  \n", "x.sh:1: lanes: names no lane"),
    ("#   timeout: 9\n#   batch: alone\n",
     "x.sh:1: batch: 'alone' is not \"alone: WHY\""),
    ("#   timeout: 9\n#   batch: shared\n",
     "x.sh:1: batch: 'shared' is not \"alone: WHY\""),
    ("#   timeout: 9\n#   kernels: lanes only: newer\n",
     "x.sh:1: kernels: lanes only, but no lanes: key names one"),
])
def test_malformed_declarations_refused(tmp_path, block, message):
    with pytest.raises(CaseError) as err:
        read_cases(write(tmp_path, "# Test: t\n" + block))
    assert message in str(err.value)
