"""The state of one confined shell command, its host, and the home-confined file access.

See :mod:`.shell_run` for the interpreter and :mod:`.shell_builtins` for the commands.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from gcc_envs.core.probe import RunResult
from gcc_envs.osworld.shell_parse import ShellError

MAX_OUTPUT = 1 << 20  #: most bytes of output kept from one command
#: Variables the episode owns: a task file's ``export`` of them is ignored (logged).
OWNED_VARS = frozenset({"HOME", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
                        "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "PATH", "USER"})  # fmt: skip


class ShellHost(Protocol):
    """Where a shell string acts: the home's files and the allowlisted programs."""

    home: Path
    #: Whether builtins may write (setup steps) or only read (getters).
    writable: bool
    #: Program names :meth:`run_program` accepts.
    programs: frozenset[str]

    def run_program(
        self, argv: Sequence[str], timeout_s: float, env: Mapping[str, str]
    ) -> RunResult: ...
    def python(self, code: str, deadline: float) -> RunResult: ...
    def has_program(self, name: str) -> bool: ...


@dataclass
class ShellState:
    """One command's run: where it is, its variables, its deadline, how to run a command."""

    host: ShellHost
    deadline: float
    cwd: Path
    vars: dict[str, str]
    #: ``call(state, argv, stdin, assigns) -> (status, stdout, stderr)``: the interpreter's.
    call: Callable[..., tuple[int, bytes, bytes]]
    env: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def assign(st: ShellState, values: Mapping[str, str], exported: bool) -> None:
    for name, value in values.items():
        if name in OWNED_VARS:
            st.notes.append(f"ignored {name}={value!r}: the episode sets {name} itself")
            continue
        st.vars[name] = value
        if exported:
            st.env[name] = value


# ---- paths ---------------------------------------------------------------------------------


def confine(home: Path, cwd: Path, path: str) -> Path:
    """``path`` (relative to ``cwd``) resolved with symlinks; :class:`ShellError` if outside."""
    p = Path(os.path.normpath(cwd / path))
    real, root = Path(os.path.realpath(p)), Path(os.path.realpath(home))
    if real != root and root not in real.parents:
        raise ShellError(f"{path!r} is outside the episode's home; refused")
    return real


def read_path(st: ShellState, path: str) -> bytes:
    if path == "/dev/null":
        return b""
    p = confine(st.host.home, st.cwd, path)
    try:
        return p.read_bytes()[:MAX_OUTPUT]
    except OSError as e:
        raise ExitStatus(1, f"{path}: {e.strerror}") from None


def write_path(st: ShellState, path: str, data: bytes, append: bool = False) -> None:
    if path == "/dev/null":
        return
    if not st.host.writable:
        raise ShellError(f"writing {path!r} is refused: a getter only reads")
    p = confine(st.host.home, st.cwd, path)
    try:
        with open(p, "ab" if append else "wb") as f:
            f.write(data)
    except OSError as e:
        raise ExitStatus(1, f"{path}: {e.strerror}") from None


class ExitStatus(Exception):
    """A builtin's non-zero exit status with its message (not an error of the runner)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


# ---- commands ------------------------------------------------------------------------------


def text_of(b: bytes) -> str:
    return b.decode("utf-8", "replace")
