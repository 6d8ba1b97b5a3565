"""Replay an episode into an MP4 while checking it against the recording (``gcc-gym replay``).

The video is H.264 (yuv420p, what browsers and ``gcc-gym run``'s videos play) through the
``ffmpeg`` that the ``video`` extra installs (imageio-ffmpeg, a moviepy dependency), frames
streamed to it one by one; without that extra, OpenCV's MPEG-4 Part 2 (``mp4v``), which many
players and browsers do not play, with a warning naming the extra.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gcc_envs.datasets.reader import Episode
from gcc_envs.datasets.replay import iter_replay
from gcc_envs.errors import DataError

log = logging.getLogger(__name__)


def _rgb(frame: np.ndarray) -> np.ndarray:
    if frame.ndim == 2 or frame.shape[2] == 1:
        return cv2.cvtColor(frame.reshape(frame.shape[:2]), cv2.COLOR_GRAY2RGB)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_RGBA2RGB)
    return np.ascontiguousarray(frame)


class _VideoWriter:
    """An MP4 written frame by frame (RGB frames of one size): H.264 when ffmpeg is there."""

    def __init__(self, out: Path, fps: float, size: tuple[int, int]) -> None:
        out.parent.mkdir(parents=True, exist_ok=True)
        self._gen: Any = None
        self._cv: Any = None
        try:
            import imageio_ffmpeg
        except ImportError:
            log.warning(
                "writing %s as MPEG-4 Part 2 (mp4v), which browsers do not play; the video "
                "extra gives H.264: pip install -e '.[video]'",
                out,
            )
            self._cv = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
            if not self._cv.isOpened():
                raise DataError(f"cannot write video {out} (OpenCV has no MP4 encoder?)") from None
            return
        self._gen = imageio_ffmpeg.write_frames(
            str(out),
            size,
            fps=fps,
            codec="libx264",
            pix_fmt_in="rgb24",
            pix_fmt_out="yuv420p",
            macro_block_size=2,  # yuv420p needs even sides; odd ones are scaled by a pixel
            ffmpeg_log_level="error",
        )
        self._gen.send(None)

    def write(self, rgb: np.ndarray) -> None:
        if self._gen is not None:
            self._gen.send(rgb)
        else:
            self._cv.write(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))

    def close(self) -> None:
        if self._gen is not None:
            self._gen.close()
        if self._cv is not None:
            self._cv.release()


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
                    h, w = frame.shape[:2]
                    writer = _VideoWriter(Path(out), fps, (w, h))
                writer.write(_rgb(frame))
            if bar is not None:
                bar.update(1)
    finally:
        if writer is not None:
            writer.close()
        if bar is not None:
            bar.close()
    return first_diff
