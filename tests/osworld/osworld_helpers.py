"""Helpers of the OSWorld suite's tests (a fake shell host)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

from gcc_envs.core.probe import RunResult
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
