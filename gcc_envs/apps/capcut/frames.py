"""Reads an exported video for the CapCut checkers: ``python -m gcc_envs.apps.capcut.frames
FILE`` prints JSON — duration and streams (ffprobe), whether the audio is audible (ffmpeg's
volumedetect), and per frame its time, the source frame index its code strip spells, its mean
colour and how well each sticker matches somewhere on it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import cv2
import numpy as np

from gcc_envs.apps.capcut.media import STICKERS, STRIP, read_index, sticker

#: Sticker matching on every n-th frame only (it is the slow part).
STICKER_EVERY = 10


def probe_streams(path: str) -> dict[str, Any]:
    r = subprocess.run(["ffprobe", "-v", "error", "-show_entries",
                        "format=duration:stream=codec_type,duration", "-of", "json", path],
                       capture_output=True, text=True, timeout=30)  # fmt: skip
    data = json.loads(r.stdout or "{}")
    kinds = [s.get("codec_type") for s in data.get("streams", [])]
    return {"duration": float(data.get("format", {}).get("duration", 0) or 0), "streams": kinds}


def loudness(path: str) -> float | None:
    """Mean volume in dB of the audio stream (None when there is none)."""
    r = subprocess.run(["ffmpeg", "-v", "info", "-i", path, "-vn", "-af", "volumedetect",
                        "-f", "null", "-"], capture_output=True, text=True, timeout=60)  # fmt: skip
    m = re.search(r"mean_volume: (-?[\d.]+) dB", r.stderr)
    return float(m.group(1)) if m else None


def sticker_error(frame: np.ndarray, kind: str) -> float:
    """Least RMS error of ``kind`` pasted on ``frame`` (a few scales)."""
    best = np.inf
    for scale in (0.5, 1.0, 1.5, 2.0, 3.0):
        t = cv2.resize(sticker(kind), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if t.shape[0] > frame.shape[0] or t.shape[1] > frame.shape[1]:
            continue
        m = np.repeat((t[..., 3:] > 200).astype(np.float32), 3, 2)
        res = cv2.matchTemplate(frame.astype(np.float32), t[..., :3].astype(np.float32),
                                cv2.TM_SQDIFF, mask=m)  # fmt: skip
        best = min(best, float(np.sqrt(max(res.min(), 0) / m.sum())))
    return best


def read(path: str, stickers: bool = False) -> dict[str, Any]:
    info = probe_streams(path)
    info["loudness_db"] = loudness(path) if "audio" in info["streams"] else None
    cap = cv2.VideoCapture(path)
    fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
    frames = []
    i = 0
    while True:
        ok, bgr = cap.read()
        if not ok:
            break
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        small = cv2.resize(rgb, (320, 240), interpolation=cv2.INTER_AREA)
        f: dict[str, Any] = {"t": i / fps, "index": read_index(small),
                             "mean": [float(v) for v in small[STRIP + 4 :].mean((0, 1))]}  # fmt: skip
        if stickers and i % STICKER_EVERY == 0:
            f["stickers"] = {k: sticker_error(small, k) for k in STICKERS}
        frames.append(f)
        i += 1
    cap.release()
    info["fps"], info["frames"] = fps, frames
    return info


def main() -> None:
    args = sys.argv[1:]
    json.dump(read(args[-1], stickers="--stickers" in args), sys.stdout)


if __name__ == "__main__":
    main()
