"""``Limits``: what one episode's sandbox may use (``prlimit`` resource limits, a sized home)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Resource limits of an episode (bytes, counts, seconds).

    ``processes`` counts every process and thread of the episode's user (its own per
    episode), so a fork bomb stops there. ``command_memory`` and ``command_cpu_s`` bind the
    commands :meth:`Sandbox.run` runs (task-file shell strings, probes); long-lived programs
    get no address-space cap (browsers reserve far more than they use). ``home_size`` is the
    size of the home's own filesystem (a tmpfs, where the machine lets gcc-gym mount one).
    ``output`` is how much of a command's stdout and stderr each is kept.
    """

    processes: int = 1024
    file_size: int = 1 << 30
    open_files: int = 4096
    command_memory: int = 4 << 30
    command_cpu_s: int = 120
    home_size: int = 2 << 30
    output: int = 1 << 20

    def __post_init__(self) -> None:
        for name in ("processes", "file_size", "open_files", "command_memory", "command_cpu_s",
                     "home_size", "output"):  # fmt: skip
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"Limits.{name} must be a positive int, got {value!r}")

    def prlimit(self, command: bool) -> list[str]:
        """``prlimit`` arguments for a program (``command=False``) or a command."""
        args = [f"--nproc={self.processes}", f"--fsize={self.file_size}",
                f"--nofile={self.open_files}", "--core=0"]  # fmt: skip
        if command:
            args += [f"--as={self.command_memory}", f"--cpu={self.command_cpu_s}"]
        return ["prlimit", *args, "--"]
