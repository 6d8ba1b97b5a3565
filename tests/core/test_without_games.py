"""The core's tests need no game: they pass with every ``gcc_envs.games`` module hidden."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

BLOCKER = '''
import sys


class HideGames:
    """Every import of gcc_envs.games fails, as if the games were not installed."""

    def find_spec(self, name, path=None, target=None):
        if name == "gcc_envs.games" or name.startswith("gcc_envs.games."):
            raise ModuleNotFoundError(f"{name} is hidden from this run", name=name)
        return None


sys.meta_path.insert(0, HideGames())
'''


@pytest.mark.slow
def test_the_core_suite_passes_with_the_games_hidden(tmp_path):
    (tmp_path / "hide_games.py").write_text(BLOCKER)
    root = Path(__file__).resolve().parents[2]
    argv = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "hide_games"]
    argv += ["-p", "no:register_test_specs", "tests/core", "--ignore", __file__]
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    passed = int(run.stdout.strip().splitlines()[-1].split(" passed")[0].split()[-1])
    assert passed >= 300  # the whole core suite ran, not a handful
