"""The suite's own choice of tests: a run with the slow tests leaves out their quick twins (tests/conftest.py)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def _collected(files: list[str], *args: str) -> set[str]:
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-p", "no:xdist", *args, *files], capture_output=True, text=True, cwd=TESTS.parent, check=True)
    return {line.strip() for line in out.stdout.splitlines() if "::" in line}


@pytest.mark.slow
def test_a_run_with_the_slow_tests_leaves_out_their_quick_twins():
    """Each twin names its slow test; the quick loop runs the twin (its slow test is left out), a run with the slow
    tests runs the slow test and not the twin. A twin naming no test of its module would stay in both."""
    uses = {p: len(re.findall(r"quick_case\(\"|mark\.quick_twin\(\"", p.read_text())) for p in TESTS.glob("test_*.py")}
    files = sorted(str(p.relative_to(TESTS.parent)) for p, n in uses.items() if n)
    quick, whole = _collected(files), _collected(files, "-m", "slow or not slow")
    twins = quick - whole
    assert len(twins) == sum(uses.values()) >= 10, sorted(twins)
    assert all(t.endswith("[quick]") or t.endswith("_quick") for t in twins), sorted(twins)
    assert whole > quick - twins  # the slow tests, and every quick test but the twins
