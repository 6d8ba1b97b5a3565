"""The README's Python examples run as written, each block on its own (a new user pastes one)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
EXTRA = re.compile(r"# needs: pip install -e (?:\.|'\.\[(\w+)\]')")
#: The module each extra brings (the test skips a block whose extra is not installed).
EXTRA_MODULE = {"dataset": "pyarrow", "sb3": "stable_baselines3", "desktop": "mss"}


def test_every_block_says_which_extra_it_needs():
    assert len(BLOCKS) >= 4
    for block in BLOCKS:
        assert EXTRA.match(block), block.splitlines()[0]


@pytest.mark.slow
@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_a_readme_block_runs_alone(block, tmp_path):
    extra = EXTRA.match(block).group(1)
    if extra is not None:
        pytest.importorskip(EXTRA_MODULE[extra], reason=f"the {extra} extra is not installed")
    done = subprocess.run(
        [sys.executable, "-c", block],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    if "RecordTrajectory" in block:
        assert (tmp_path / "data" / "cultivation").is_dir()
