"""The dataset writer process: all file writing of a recording, on its own core.

:class:`WriterProcess` starts a Python process running :func:`main` and hands it each
episode's begin, rows, frames and end over a pipe; the process drives an
:class:`~gcc_envs.datasets.episode_files.EpisodeFiles` per episode. PNG encoding is the bulk of
the cost of recording, and a thread would not take it off the stepping thread: after every
encode it waits for the GIL. Messages are ``<cI`` (kind, payload length) then the payload:

* ``B`` begin — JSON ``{"folder", "meta", "fsync"}``, followed by the reset frame;
* ``R`` row — one ``steps.jsonl`` line, followed by the frame after that step;
* ``F`` frame — ``<4I`` (height, width, channels or 0 for grey, n params), ``n`` ``<i`` imwrite
  parameters, then the pixels in OpenCV channel order;
* ``E`` end — JSON result; ``S`` sync — answered ``ok`` (or ``error ...``) on stdout once
  everything before it is on disk.

A failure is reported at once as an ``error ...`` line (the recorder raises it on its next
call) and the process writes nothing more. At end of input — the recorder closed, or its
process died — the process finishes the messages it has read and exits, leaving an unfinished
episode readable from its rows: a recorder killed with SIGKILL loses no step it had returned.
"""

from __future__ import annotations

import json
import os
import select
import struct
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from gcc_envs.datasets.frames import png_params
from gcc_envs.errors import DataError

MSG = struct.Struct("<cI")
FRAME = struct.Struct("<4I")
#: Pipe buffer asked for on Linux (default 64 KiB): room for short stalls of the writer.
PIPE_BYTES = 1 << 20


class WriterProcess:
    """Client side: hands episodes over to the writer process."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self._proc = subprocess.Popen(
            [sys.executable, "-c", "from gcc_envs.datasets.writer_process import main; main()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._in: BinaryIO = self._proc.stdin
        self._out: BinaryIO = self._proc.stdout
        _grow_pipe(self._in.fileno())
        self._finalizer = weakref.finalize(self, _stop, self._proc)

    def begin(self, folder: Path, meta: dict[str, Any], fsync: bool) -> None:
        self._send(b"B", json.dumps({"folder": str(folder), "meta": meta, "fsync": fsync}).encode())

    def step(self, line: bytes, bgr: np.ndarray) -> None:
        """The row and its frame as one write (one system call a step: measured faster at
        84x84 than a write per message)."""
        self._check()
        head = _frame_head(bgr)
        pixels = np.ascontiguousarray(bgr).data.cast("B")
        rf = (MSG.pack(b"R", len(line)), line, MSG.pack(b"F", len(head) + bgr.nbytes), head, pixels)
        self._write(b"".join(rf))

    def frame(self, bgr: np.ndarray) -> None:
        self._send(b"F", _frame_head(bgr), extra=bgr.data)

    def end(self, result: dict[str, Any]) -> None:
        self._send(b"E", json.dumps(result).encode())
        self._check()

    def sync(self) -> None:
        """Return once everything handed over is on disk; raise if anything failed."""
        self._send(b"S", b"")
        answer = self._out.readline().decode().strip()
        if answer.startswith("error"):
            raise DataError(f"recording failed: {answer[6:]}")
        if answer != "ok":
            raise DataError(f"the dataset writer process stopped (exit code {self._proc.poll()})")

    def close(self) -> None:
        self._finalizer()

    def _send(self, kind: bytes, payload: bytes, extra: Any = None) -> None:
        size = len(payload) + (extra.nbytes if extra is not None else 0)
        self._write(MSG.pack(kind, size) + payload, extra)

    def _write(self, data: bytes, extra: Any = None) -> None:
        try:
            self._in.write(data)
            if extra is not None:
                self._in.write(extra)
            self._in.flush()
        except (BrokenPipeError, ValueError):
            raise DataError(
                f"the dataset writer process stopped (exit code {self._proc.poll()})"
            ) from None

    def _check(self) -> None:
        """Raise a failure the process reported, without waiting (POSIX pipes)."""
        if os.name == "posix" and select.select([self._out], [], [], 0)[0]:
            line = self._out.readline().decode().strip()
            raise DataError(f"recording failed: {line[6:] if line else 'writer process stopped'}")


def _frame_head(bgr: np.ndarray) -> bytes:
    """An ``F`` message's header: the frame's shape and its PNG parameters."""
    params = png_params(bgr.shape)
    c = bgr.shape[2] if bgr.ndim == 3 else 0
    head = FRAME.pack(bgr.shape[0], bgr.shape[1], c, len(params))
    return head + struct.pack(f"<{len(params)}i", *params)


def _grow_pipe(fd: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):  # not Linux, or above pipe-max-size
        pass


def _stop(proc: subprocess.Popen[bytes]) -> None:
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass
    try:
        proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _read(src: BinaryIO, n: int) -> bytes | None:
    data = src.read(n)
    return data if len(data) == n else None  # short: end of input (the sender died mid-message)


def _frame(payload: bytes) -> np.ndarray:
    h, w, c, n = FRAME.unpack_from(payload)
    pixels = memoryview(payload)[FRAME.size + 4 * n :]
    shape = (h, w) if c == 0 else (h, w, c)
    return np.frombuffer(pixels, np.uint8).reshape(shape)


def _tell(out: BinaryIO, line: str) -> None:
    try:
        out.write(f"{line}\n".encode())
        out.flush()
    except OSError:  # the recorder is gone: keep writing what it handed over
        pass


def serve(src: BinaryIO, out: BinaryIO) -> None:
    """The process's loop: apply messages from ``src`` until end of input."""
    from gcc_envs.datasets.episode_files import EpisodeFiles

    episode: EpisodeFiles | None = None
    error: str | None = None
    begin: dict[str, Any] | None = None  # a begun episode waiting for its reset frame
    row: bytes | None = None  # a row waiting for its frame
    while (head := _read(src, MSG.size)) is not None:
        kind, size = MSG.unpack(head)
        payload = _read(src, size)
        if payload is None:
            break
        if kind == b"S":
            _tell(out, "ok" if error is None else f"error {error}")
            continue
        if error is not None:
            continue  # after a failure write nothing more
        try:
            if kind == b"B":
                begin, episode = json.loads(payload), None
            elif kind == b"R":
                assert episode is not None, "row before begin"
                row = payload
            elif kind == b"F" and begin is not None:
                msg, begin = begin, None
                episode = EpisodeFiles(
                    Path(msg["folder"]), msg["meta"], _frame(payload), msg["fsync"]
                )
            elif kind == b"F":
                assert episode is not None and row is not None, "frame before its row"
                line, row = row, None
                episode.step(line, _frame(payload))
            elif kind == b"E":
                assert episode is not None, "end before begin"
                done, episode = episode, None
                done.finish(json.loads(payload))
        except Exception as e:
            error = f"{type(e).__name__}: {e}".replace("\n", " ")
            _tell(out, f"error {error}")
    if episode is not None:
        episode.abandon()


def main() -> None:
    """Entry point of the writer process (started by :class:`WriterProcess`)."""
    import cv2

    cv2.setNumThreads(1)
    with open(sys.stdin.fileno(), "rb", buffering=PIPE_BYTES, closefd=False) as src:
        serve(src, sys.stdout.buffer)
