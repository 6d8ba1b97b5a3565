"""Helpers of the OSWorld suite's tests: a fake shell host, a probe over a folder."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from gcc_envs.core.probe import RunResult
from gcc_envs.errors import GCCError
from gcc_envs.osworld.snippets import recognise


class FakeHost:
    """A shell host over a temp home: real files, programs answered from a table."""

    programs = frozenset({"gsettings", "dconf", "xdg-mime"})

    def __init__(
        self, home: Path, writable: bool = True, answers: Mapping[str, str] | None = None
    ) -> None:
        self.home = Path(os.path.realpath(home))
        self.writable = writable
        self.answers = dict(answers or {})
        self.ran: list[list[str]] = []
        self.snippets: list[object] = []

    def run_program(
        self, argv: Sequence[str], timeout_s: float, env: Mapping[str, str]
    ) -> RunResult:
        self.ran.append(list(argv))
        return RunResult(0, self.answers.get(" ".join(argv), ""), "")

    def python(self, code: str, deadline: float) -> RunResult:
        self.snippets.append(recognise(code))
        return RunResult(0, "", "")

    def has_program(self, name: str) -> bool:
        return shutil.which(name) is not None


def _inside(home: Path, path: str | Path) -> Path:
    p = Path(path)
    p = p if p.is_absolute() else home / p
    real = Path(os.path.realpath(p))
    if real != home and Path(os.path.realpath(home)) not in real.parents:
        raise GCCError(f"{path!s} is outside the episode's home")
    return real


def _run(argv: Sequence[str], env: Mapping[str, str], cwd: Path, timeout_s: float) -> RunResult:
    proc = subprocess.Popen(list(argv), env=dict(env), cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    try:
        out, err = proc.communicate(timeout=timeout_s)
        return RunResult(
            proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
        )
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
        return RunResult(-9, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), True)


class FolderProbe:
    """A probe over a home folder: files and commands, no screen."""

    def __init__(self, home: Path, env: Mapping[str, str] | None = None) -> None:
        self.home = Path(os.path.realpath(home))
        self.files: dict[str, Path] = {}
        self.env = dict(env if env is not None else os.environ) | {"HOME": str(self.home)}

    def screenshot(self) -> np.ndarray:
        return np.zeros((8, 8, 3), np.uint8)

    def window_titles(self) -> list[str]:
        return []

    def exists(self, path: str | Path) -> bool:
        try:
            return _inside(self.home, path).exists()
        except GCCError:
            return False

    def read_file(self, path: str | Path) -> bytes:
        p = _inside(self.home, path)
        if not p.is_file():
            raise GCCError(f"{path!s}: no such file")
        return p.read_bytes()

    def run(
        self, argv: Sequence[str], timeout_s: float = 10.0, env: Mapping[str, str] | None = None
    ) -> RunResult:
        return _run(argv, {**self.env, **(env or {})}, self.home, timeout_s)
