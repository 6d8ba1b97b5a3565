"""Replay an episode into an MP4 while checking it against the recording (``gcc-gym replay``)."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from gcc_envs.datasets.reader import Episode
from gcc_envs.datasets.replay import iter_replay
from gcc_envs.errors import DataError


def _bgr(frame: np.ndarray) -> np.ndarray:
    if frame.ndim == 2 or frame.shape[2] == 1:
        return cv2.cvtColor(frame.reshape(frame.shape[:2]), cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_RGBA2BGR)
    return cv2.cvtColor(frame, cv2.COLOR_RGB2BGR)


def replay_to_video(
    episode: Episode,
    out: str | os.PathLike[str] | None = None,
    fps: float = 4.0,
    progress: bool = False,
) -> int | None:
    """Re-run ``episode``, write its frames to ``out`` (MP4, one frame per step) if given.

    Returns the index of the first replayed frame that differs from the recorded one, or None
    when every frame is identical.
    """
    writer = None
    first_diff: int | None = None
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(episode) + 1, desc=f"replay {episode.path.name}", unit="frame")
    try:
        for i, frame in enumerate(iter_replay(episode)):
            if first_diff is None and not np.array_equal(frame, episode.frames[i]):
                first_diff = i
            if out is not None:
                if writer is None:
                    Path(out).parent.mkdir(parents=True, exist_ok=True)
                    h, w = frame.shape[:2]
                    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
                    if not writer.isOpened():
                        raise DataError(f"cannot write video {out} (OpenCV has no MP4 encoder?)")
                writer.write(_bgr(frame))
            if bar is not None:
                bar.update(1)
    finally:
        if writer is not None:
            writer.release()
        if bar is not None:
            bar.close()
    return first_diff
