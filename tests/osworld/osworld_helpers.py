"""Helpers of the OSWorld suite's tests: a probe over an episode sandbox's home (no screen)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from gcc_envs.core.probe import RunResult
from gcc_envs.errors import GCCError
from gcc_envs.sandbox import Sandbox


def _inside(home: Path, path: str | Path) -> Path:
    p = Path(path)
    p = p if p.is_absolute() else home / p
    real = Path(os.path.realpath(p))
    if real != home and Path(os.path.realpath(home)) not in real.parents:
        raise GCCError(f"{path!s} is outside the episode's home")
    return real


class FolderProbe:
    """A probe over a sandbox's home: files, and commands run inside the sandbox; no screen."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.home = Path(os.path.realpath(sandbox.home))
        self.files: dict[str, Path] = {}
        self.env = {"HOME": str(self.home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}

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
        for root, dirs, files in os.walk(self.home):  # what the test wrote, to the episode
            for name in (*dirs, *files):
                os.lchown(os.path.join(root, name), self.sandbox.uid, self.sandbox.gid)
        return self.sandbox.run(argv, timeout_s, env={**self.env, **(env or {})}, cwd=self.home)
