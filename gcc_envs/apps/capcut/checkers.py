"""Checkers of the CapCut twin (Shotcut): the exported video, frame by frame.

An export is any video file saved under ``~/Videos``, ``~/Desktop`` or the home other than
the inputs. Each is read by ``python -m gcc_envs.apps.capcut.frames`` through the probe
(ffprobe for streams, ffmpeg for loudness, OpenCV for the frames' code strips, colours and
stickers); a checker passes when one export shows the task done.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

from gcc_envs.apps.capcut.frames import STICKER_EVERY
from gcc_envs.apps.capcut.media import FPS
from gcc_envs.apps.software.reading import answer, files_in
from gcc_envs.core.probe import DesktopProbe

FOLDERS = ("Videos", "Desktop", ".")
VIDEO_EXT = (".mp4", ".mkv", ".mov", ".webm", ".avi", ".mpg", ".ts", ".m4v")


def exports(probe: DesktopProbe, stickers: bool = False) -> Iterator[dict[str, Any]]:
    """The frames report of each exported video (inputs excluded)."""
    inputs = set(answer(probe).get("inputs", []))
    for folder in FOLDERS:
        for name in files_in(probe, folder):
            rel = f"{folder}/{name}" if folder != "." else name
            if not name.lower().endswith(VIDEO_EXT) or rel in inputs:
                continue
            argv = [sys.executable, "-m", "gcc_envs.apps.capcut.frames", str(probe.home / rel)]
            r = probe.run([*argv[:3], *(["--stickers"] if stickers else []), argv[3]],
                          timeout_s=120.0)  # fmt: skip
            if r.returncode == 0 and r.stdout:
                yield json.loads(r.stdout)


def _indices(report: dict[str, Any]) -> list[int]:
    return [f["index"] for f in report["frames"] if f["index"] is not None]


def with_music(probe: DesktopProbe, min_db: float = -40.0) -> float:
    """An export with the whole video (90 % of its frames) and audible audio."""
    n = round(answer(probe)["source_s"] * FPS)
    for rep in exports(probe):
        kept = set(_indices(rep)) & set(range(n))
        loud = rep["loudness_db"]
        if len(kept) >= 0.9 * n and loud is not None and loud > min_db:
            return 1.0
    return 0.0


def _mixed(mean: list[float], a: list[int], b: list[int]) -> bool:
    """Whether a frame's colour lies well between clip colours ``a`` and ``b``."""
    import numpy as np

    m, a_, b_ = np.array(mean), np.array(a, float), np.array(b, float)
    d = b_ - a_
    s = float(np.dot(m - a_, d) / np.dot(d, d))
    off = float(np.linalg.norm(m - (a_ + s * d)))
    return 0.2 <= s <= 0.8 and off < 40


def with_transition(probe: DesktopProbe, min_frames: int = 5) -> float:
    """An export showing both clips with a blend between them (``min_frames`` in a row)."""
    a = answer(probe)
    for rep in exports(probe):
        run = best = 0
        for f in rep["frames"]:
            run = run + 1 if _mixed(f["mean"], a["colour_a"], a["colour_b"]) else 0
            best = max(best, run)
        if best >= min_frames and len(rep["frames"]) >= a["source_s"] * FPS * 0.8:
            return 1.0
    return 0.0


def trimmed(
    probe: DesktopProbe, start_s: float | str, end_s: float | str, tol_frames: int = 6
) -> float:
    """An export keeping the source from ``start_s`` to ``end_s`` only."""
    lo, hi = round(float(start_s) * FPS), round(float(end_s) * FPS)
    for rep in exports(probe):
        idx = _indices(rep)
        if len(idx) < 0.8 * (hi - lo):
            continue
        if abs(idx[0] - lo) <= tol_frames and abs(idx[-1] - hi) <= tol_frames:
            return 1.0
    return 0.0


def with_sticker(probe: DesktopProbe, kind: str = "face", min_s: float = 1.0) -> float:
    """An export with the ``kind`` sticker over the video for at least ``min_s`` seconds."""
    for rep in exports(probe, stickers=True):
        hits = 0
        for f in rep["frames"]:
            err = f.get("stickers")
            if err and err[kind] <= 30.0 and err[kind] == min(err.values()):
                hits += 1
        if hits * STICKER_EVERY / (rep["fps"] or FPS) >= min_s:
            return 1.0
    return 0.0


def cut_at_goal(probe: DesktopProbe, tol_s: float = 0.2) -> float:
    """An export from the start that ends when the ball enters the goal (within ``tol_s``)."""
    goal = round(answer(probe)["goal_s"] * FPS)
    for rep in exports(probe):
        idx = _indices(rep)
        if idx and idx[0] <= 3 and abs(idx[-1] - goal) <= tol_s * FPS:
            return 1.0
    return 0.0
