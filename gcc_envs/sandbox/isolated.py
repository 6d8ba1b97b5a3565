"""A program run on untrusted bytes in a throwaway sandbox of its own.

Evaluators read files an agent made (audio to decode, an image to read text from) with real
programs (ffmpeg, Tesseract). Those programs run as no part of the env's process: each call
gets a fresh :class:`~gcc_envs.sandbox.Sandbox` — its own user, an empty home, no network, no
display — fed the bytes on standard input, and ended (with all it started) when it returns.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from gcc_envs.errors import GCCError
from gcc_envs.sandbox.limits import Limits
from gcc_envs.sandbox.sandbox import Sandbox

#: The most output kept (decoded audio is large: 4 bytes a sample, 22 050 samples a second).
MAX_OUTPUT = 256 << 20


def run_isolated(
    argv: Sequence[str], data: bytes, timeout_s: float = 60.0, max_output: int = MAX_OUTPUT
) -> tuple[int, bytes, bytes]:
    """``(returncode, stdout, stderr)`` of ``argv`` (its program looked up on ``PATH``) run in
    a throwaway sandbox with ``data`` on its standard input. A :class:`GCCError` when the
    program is missing or runs past ``timeout_s``."""
    program = shutil.which(argv[0])
    if program is None:
        raise GCCError(f"{argv[0]} is not installed")
    box = Sandbox(limits=Limits(home_size=64 << 20, output=max_output))
    try:
        code, out, err, timed_out = box.run_bytes(
            [program, *argv[1:]], timeout_s, input=data, cwd=box.home, max_output=max_output
        )
    finally:
        box.close()
    if timed_out:
        raise GCCError(f"{argv[0]} ran past {timeout_s:g} s and was stopped")
    return code, out, err
